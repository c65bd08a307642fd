"""Backends: what each mode does on a backend (forward, backward, ONNX export), from the knowledge base.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

STATUSES = ("ok", "warning", "differs", "error")
#: the severities of a finding that call for a fix (an "info" finding only explains)
FIXABLE = ("warning", "differs", "error")


USES = {
    "forward": {"training": False},
    "backward": {"training": True},
    "deterministic backward": {"training": True, "deterministic": True},
    "ONNX export": {"training": False, "export": "onnx"},
}


_OPERATIONS = {"forward": ("forward", "convention", None), "backward": ("backward",),
               "deterministic backward": ("backward",), "ONNX export": ("export_onnx",)}


#: Why a cell has its colour, in one sentence: (operation, status) of the worst finding -> a template over
#: the ``subject`` (the option that triggers it, or the mode) and the ``backend``.
REASONS = {
    ("forward", "fails"): "{subject} is not supported on {backend}",
    ("backward", "fails"): "{subject} has no gradient on {backend}",
    ("double_backward", "fails"): "{subject} has no second derivative on {backend}",
    ("export_onnx", "fails"): "{subject} cannot be exported to ONNX from {backend}",
    ("forward", "differs"): "{subject} computes other numbers on {backend} than in PyTorch",
    ("convention", "differs"): "{subject} computes other numbers on {backend} than in PyTorch",
    ("export_onnx", "differs"): "{subject} is exported with other numbers from {backend}",
    ("forward", "unknown"): "{subject} on {backend} is unverified",
    ("backward", "unknown"): "the {subject} gradient on {backend} is unverified",
}
#: The conditions of a knowledge-base record (its ``when``) that name what triggers it, as the subject.
SUBJECTS = {
    "antialias": lambda value: "antialias" if value else None,
    "align_corners": lambda value: f"align_corners={value}",
    "deterministic": lambda value: "deterministic {mode}" if value else None,
}


def reason(finding, backend: str, device=None) -> str:
    """One sentence saying why ``finding`` colours a cell (e.g. "antialias is not supported on burn-tch").

    A finding from a knowledge-base record is told from its operation, status and conditions (:data:`REASONS`,
    :data:`SUBJECTS`); a measured cell of the probe's matrix by what it measured ("measured on tvm-relax: the
    node fails in 1 ..."); any other (a mode the backend lacks) by its message's first clause.
    """
    from ...advisor.knowledge import load

    where = f"{backend} ({device})" if device else backend
    if finding.record_id is None and finding.evidence == "measured":  # a cell of the probe's matrix
        outcome = finding.message.split("): ", 1)[-1]
        return f"measured on {where}: {_first_clause(outcome)}"[:199]
    if finding.record_id is None:
        return _first_clause(finding.message)
    record = load().record(finding.record_id)
    template = REASONS.get((record.operation, record.status))
    mode = finding.mode or "this mode"
    subjects = [SUBJECTS[k](v) for k, v in record.when.items() if k in SUBJECTS]
    subject = next((s for s in subjects if s), mode).format(mode=mode)
    if template is None:
        text = f"{where}: {_first_clause(record.message)}"
    else:
        text = template.format(subject=subject, backend=where)
    if record.error_type == "panic":
        text += " (it panics)"
    condition = finding.message[:-len(record.message)].rstrip(": ") if finding.message.endswith(record.message) \
        else ""
    if condition:  # a finding that depends on what the grid does not say: "When ...", "On gpu"
        text += f", {condition[0].lower()}{condition[1:]}"
    return text


def _first_clause(message: str) -> str:
    """The message without its asides (parentheses holding words or a quoted name, not formulas such as
    ``(i+0.5)``), up to its first semicolon, colon or full stop."""
    message = re.sub(r" \((?:'[^()]*|[^()]*\s[^()]*)\)", "", message)
    for stop in ("; ", ": ", ". "):
        message = message.split(stop)[0]
    return message.rstrip(".")


@dataclass
class BackendsData:
    """The support grid of ``modes`` x ``uses`` for one backend/version/device, plus the findings and fixes
    of the current configuration (``mode``)."""

    backend: str
    version: object
    device: object
    modes: list
    uses: list
    status: dict  # (mode, use) -> status
    messages: dict  # (mode, use) -> [messages]
    mode: str = ""
    findings: list = field(default_factory=list)
    fixes: list = field(default_factory=list)
    error: object = None  # why the fixes could not be measured (said in the panel, not as an app error)
    reasons: dict = field(default_factory=dict)  # (mode, use) -> why the cell is not ok, in one sentence
    nothing_to_fix: bool = False  # the current mode fails or differs nowhere here: no fix is offered
    align_corners: bool = False  # the shared settings the grid is judged with (for the modes that take them)
    antialias: bool = False
    device_fixes: list = field(default_factory=list)  # fixes left out: they depend on a device not chosen
    rejected: list = field(default_factory=list)  # (candidate fix, why it cannot run on this setup)


#: Kinds of fix that depend on the device the call runs on (run on the CPU, the MPS fallback): offered only
#: when a device is chosen, never for the backend's default device.
DEVICE_FIX_KINDS = ("device", "environment")


def call_options(mode, align_corners, antialias):
    """(align_corners, antialias) of the PyTorch call the explorer makes for ``mode``: align_corners only
    where the mode takes it (else None, PyTorch's default), antialias where it applies (lanczos always)."""
    from ...conventions.image_resize import ImageResize

    opts = ImageResize(mode, scale=1.0, align_corners=align_corners, antialias=antialias).options()
    return opts.get("align_corners"), opts.get("antialias", False)


@lru_cache(maxsize=128)
def support_grid(modes, backend, version, device, training, align_corners, antialias, sizes=(), opset=None):
    """(uses, status, messages, reasons) of the support grid: :func:`explorer.check` for every mode and use
    (cached: the advisor's answers depend only on these arguments)."""
    import explorer as ex
    sizes = dict(sizes)
    info = {b.id: b for b in ex.backends()}
    uses = [u for u in USES if u != "ONNX export" or getattr(info.get(backend), "library", "") == "torch"]
    if not training:
        uses = [u for u in uses if u in ("forward", "ONNX export")]
    status, messages, reasons = {}, {}, {}
    for m in modes:
        ac, aa = call_options(m, align_corners, antialias)
        for use in uses:
            findings = ex.check(mode=m, backend=backend, version=version, device=device, align_corners=ac,
                                antialias=aa, opset=opset, **USES[use], **sizes)
            relevant = [f for f in findings if f.operation in _OPERATIONS[use] and f.severity != "info"]
            worst = max((f.severity for f in relevant), key=STATUSES.index, default="ok")
            if use != "forward" and status.get((m, "forward")) == "error":
                worst = "error"  # nothing runs backward or exports when the forward already fails
                relevant = [f for f in findings if f.severity == "error"] + relevant
            status[(m, use)] = worst
            messages[(m, use)] = [f.message for f in relevant]
            if worst != "ok":
                first = next(f for f in relevant if f.severity == worst)
                reasons[(m, use)] = reason(first, backend, device)
    return uses, status, messages, reasons


def compute_backends(modes, backend, *, version=None, device=None, training=True, align_corners=False,
                     antialias=False, mode=None, image=None, scale=None, size=None, opset=None) -> BackendsData:
    """Run :func:`explorer.check` for every mode and use; with ``image``, also the findings and the measured
    fixes of ``mode`` (default: the first of ``modes``) from :func:`explorer.suggest_fixes`."""
    import explorer as ex

    from ...conventions.image_resize import ImageResize
    sizes = {}
    if image is not None:
        probe = ImageResize(modes[0] if modes else "bilinear", scale=scale, size=size)
        sizes = {"input_size": tuple(image.shape[:2]), "output_size": probe.output_size(image.shape)}
    uses, status, messages, reasons = support_grid(tuple(modes), backend, version, device, training,
                                                   align_corners, antialias, tuple(sorted(sizes.items())), opset)
    data = BackendsData(backend, version, device, list(modes), list(uses), dict(status), dict(messages),
                        mode or "", reasons=dict(reasons), align_corners=bool(align_corners),
                        antialias=bool(antialias))
    current = mode or (modes[0] if modes else None)
    if current is not None:
        ac, aa = call_options(current, align_corners, antialias)
        data.mode = current
        data.findings = ex.check(mode=current, backend=backend, training=training, version=version,
                                 device=device, align_corners=ac, antialias=aa, opset=opset, **sizes)
        # fixes only where something fails, differs or warns (a switch offered where everything works is noise)
        data.nothing_to_fix = not any(f.severity in FIXABLE for f in data.findings)
        if image is not None and not data.nothing_to_fix:
            x = np.ascontiguousarray(np.moveaxis(image, 2, 0))[None].astype(np.float32)
            kw = {"size": size} if size is not None else {"scale_factor": scale}
            try:
                suggestions = ex.suggest_fixes(x, mode=current, backend=backend, training=training,
                                               version=version, device=device, align_corners=ac,
                                               antialias=aa, **kw)
                data.fixes, data.rejected = list(suggestions), list(suggestions.rejected)
                if device is None:  # no device chosen: a fix for one device (the MPS fallback) is not offered
                    data.device_fixes = [fx for fx in data.fixes if fx.kind in DEVICE_FIX_KINDS]
                    data.fixes = [fx for fx in data.fixes if fx.kind not in DEVICE_FIX_KINDS]
            except Exception as exc:  # noqa: BLE001 - shown with the findings
                data.error = exc
    return data

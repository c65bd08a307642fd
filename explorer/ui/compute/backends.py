"""Backends: what each mode does on a backend (forward, backward, ONNX export), from the knowledge base.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

STATUSES = ("ok", "warning", "differs", "error")


USES = {
    "forward": dict(training=False),
    "backward": dict(training=True),
    "deterministic backward": dict(training=True, deterministic=True),
    "ONNX export": dict(training=False, export="onnx"),
}


_OPERATIONS = {"forward": ("forward", "convention", None), "backward": ("backward",),
               "deterministic backward": ("backward",), "ONNX export": ("export_onnx",)}


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
    error: object = None


def call_options(mode, align_corners, antialias):
    """(align_corners, antialias) of the PyTorch call the explorer makes for ``mode``: align_corners only
    where the mode takes it (else None, PyTorch's default), antialias where it applies (lanczos always)."""
    from ...conventions.image_resize import ImageResize

    opts = ImageResize(mode, scale=1.0, align_corners=align_corners, antialias=antialias).options()
    return opts.get("align_corners"), opts.get("antialias", False)


@lru_cache(maxsize=128)
def support_grid(modes, backend, version, device, training, align_corners, antialias, sizes=(), opset=None):
    """(uses, status, messages) of the support grid: :func:`explorer.check` for every mode and use
    (cached: the advisor's answers depend only on these arguments)."""
    import explorer as ex
    sizes = dict(sizes)
    info = {b.id: b for b in ex.backends()}
    uses = [u for u in USES if u != "ONNX export" or getattr(info.get(backend), "library", "") == "torch"]
    if not training:
        uses = [u for u in uses if u in ("forward", "ONNX export")]
    status, messages = {}, {}
    for m in modes:
        ac, aa = call_options(m, align_corners, antialias)
        for use in uses:
            findings = ex.check(mode=m, backend=backend, version=version, device=device, align_corners=ac,
                                antialias=aa, opset=opset, **USES[use], **sizes)
            relevant = [f for f in findings if f.operation in _OPERATIONS[use] and f.severity != "info"]
            worst = "ok"
            for f in relevant:
                if STATUSES.index(f.severity) > STATUSES.index(worst):
                    worst = f.severity
            if use != "forward" and status.get((m, "forward")) == "error":
                worst = "error"  # nothing runs backward or exports when the forward already fails
                relevant = [f for f in findings if f.severity == "error"] + relevant
            status[(m, use)] = worst
            messages[(m, use)] = [f.message for f in relevant]
    return uses, status, messages


def compute_backends(modes, backend, *, version=None, device=None, training=True, align_corners=False,
                     antialias=False, mode=None, image=None, scale=None, size=None, opset=None) -> BackendsData:
    """Run :func:`explorer.check` for every mode and use; with ``image``, also the findings and the measured
    fixes of ``mode`` (default: the first of ``modes``) from :func:`explorer.suggest_fixes`."""
    import explorer as ex

    from ...conventions.image_resize import ImageResize
    sizes = {}
    if image is not None:
        probe = ImageResize(modes[0] if modes else "bilinear", scale=scale, size=size)
        sizes = dict(input_size=tuple(image.shape[:2]), output_size=probe.output_size(image.shape))
    uses, status, messages = support_grid(tuple(modes), backend, version, device, training, align_corners,
                                          antialias, tuple(sorted(sizes.items())), opset)
    data = BackendsData(backend, version, device, list(modes), list(uses), dict(status), dict(messages),
                        mode or "")
    current = mode or (modes[0] if modes else None)
    if current is not None:
        ac, aa = call_options(current, align_corners, antialias)
        data.mode = current
        data.findings = ex.check(mode=current, backend=backend, training=training, version=version,
                                 device=device, align_corners=ac, antialias=aa, opset=opset, **sizes)
        if image is not None:
            x = np.ascontiguousarray(np.moveaxis(image, 2, 0))[None].astype(np.float32)
            kw = dict(size=size) if size is not None else dict(scale_factor=scale)
            try:
                data.fixes = list(ex.suggest_fixes(x, mode=current, backend=backend, training=training,
                                                   version=version, device=device, align_corners=ac,
                                                   antialias=aa, **kw))
            except Exception as exc:  # noqa: BLE001 - shown with the findings
                data.error = exc
    return data

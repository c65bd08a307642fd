"""Judge a site by its library's rules, through :func:`~explorer.advisor.check`.

Where a call runs decides the question asked:

* a call of the backend's own library is asked about as written (``F.interpolate`` linted for ``torch``);
* a model op of another library (``F.interpolate``, ``tf.image.resize`` linted for ``burn-tch``) is *ported*:
  the backend's mode of the same family, with the options the call computes with (PyTorch's unset
  ``align_corners`` is half-pixel, so the port is asked with ``align_corners=False``); an ONNX node linted for
  Burn is asked about as the op Burn's ONNX import writes for it (``onnx_import.py``);
* a host-side call (Pillow, OpenCV, torchvision on PIL images) stays in its own library, on the CPU, without
  gradients, compared with itself: only what fails there is reported;
* Rust Burn code is judged only for a Burn backend, candle code for candle.

Every value the code may pass is asked about (a *variant*).  A finding of every variant is certain; one that
holds only on a branch the code picks between (``"bicubic" if hq else "nearest"``) is a warning naming the
branch; one that depends on what the code does not say (the rank, the sizes, antialias from an expression, the
device when none was given) is a condition: info level, once per run in the summary.

>>> from explorer.advisor.lint.sites import Arg, Site
>>> site = Site("m.py", 3, 5, "torch", "torch.nn.Upsample", Arg.known("nearest-exact"), rank=Arg.known(2))
>>> verdict = Judge(Question("burn-tch", training=True)).judge(site)
>>> sorted({(i.severity, i.rule) for i in verdict.issues})[:2]
[('error', 'burn-tch-nearest-exact-backward'), ('error', 'burn-tch-nearest-exact-forward')]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ...conventions import mode_names as names
from ..findings import Finding, check
from ..knowledge import load
from . import apis, onnx_import
from .sites import Arg, Site

#: Modes whose PyTorch spelling fixes the rank.
TORCH_RANK = {"linear": 1, "bilinear": 2, "bicubic": 2, "lanczos": 2, "trilinear": 3}
#: A family in the spelling every backend's mode table understands, by rank for linear and cubic.
FAMILY_SPELLING = {"linear": {1: "linear", 2: "bilinear", 3: "trilinear"}, "cubic": {1: "bicubic", 2: "bicubic",
                                                                                    3: "bicubic"}}
#: Families with a coordinate mapping (align_corners matters); the others ignore it.
INTERPOLATING = ("linear", "cubic", "lanczos3", "lanczos4", "lanczos5", "mitchellcubic", "gaussian", "box",
                 "hamming")
#: Host libraries' backend ids; a host call is asked about on its own library's CPU backend.
HOST_BACKEND = {"pillow": "pillow", "opencv": "opencv", "torch": "torch", "tensorflow": "tensorflow",
                "jax": "jax"}
#: Libraries that only run on the host: linting for one of them judges their calls as written.
HOST_LIBRARIES = ("pillow", "opencv")
#: Libraries of Rust code: judged only on a backend of the same library.
NATIVE_ONLY = ("burn", "candle")
MAX_VARIANTS = 64


@dataclass(frozen=True)
class Question:
    """The run's question: the backend and the options ``check`` takes (None training: train unless exporting)."""

    backend: str
    training: bool | None = True
    version: str | None = None
    device: str | None = None
    export: str | None = None
    opset: int | None = None
    dtype: str = "float32"
    deterministic: bool = False
    reference: str | None = "torch"
    converter_version: str | None = None

    @property
    def trains(self) -> bool:
        return self.training if self.training is not None else self.export is None


@dataclass
class Issue:
    """One finding at one site (certain, or on a branch of the code named by ``condition``)."""

    site: Site
    severity: str
    message: str
    rule: str
    finding: Finding | None = None
    condition: str | None = None

    @property
    def record_id(self) -> str | None:
        return self.finding.record_id if self.finding else None

    @property
    def error_text(self) -> str | None:
        return self.finding.error_text if self.finding else None

    @property
    def fixes(self) -> list:
        return self.finding.fixes if self.finding else []

    def __str__(self):
        return f"{self.site.path}:{self.site.line}:{self.site.column}: {self.severity}: {self.message} [{self.rule}]"

    def to_dict(self) -> dict:
        site = self.site
        return {"path": site.path, "line": site.line, "column": site.column, "end_line": site.end_line,
                "severity": self.severity, "rule": self.rule, "message": self.message,
                "record_id": self.record_id, "condition": self.condition, "error_text": self.error_text,
                "source": self.finding.source if self.finding else None,
                "fixes": [f.to_dict() for f in self.fixes], "site": site.to_dict()}


@dataclass
class Condition:
    """A finding that depends on what the code does not say, with the sites where it could happen."""

    rule: str
    message: str
    condition: str
    finding: Finding | None
    sites: list = field(default_factory=list)


@dataclass
class Verdict:
    issues: list = field(default_factory=list)
    conditions: list = field(default_factory=list)   # (rule, condition text, message, finding)
    judged: bool = True


def rule_of(finding: Finding) -> str:
    """A stable id for a finding: its record id, or the kind of advisor finding it is."""
    if finding.record_id:
        return finding.record_id
    if finding.operation == "forward" and finding.status == "fails" and finding.mode:
        return "mode-unavailable"
    if finding.operation == "convention":
        return "mode-spelling"
    return "version"


class Judge:
    """Asks the knowledge base about sites for one question; answers are kept for the run."""

    def __init__(self, question: Question):
        self.question = question
        self.kb = load()
        self.backend = self.kb.backend(question.backend)
        self.library = self._names_library(self.backend)
        self._answers: dict = {}

    @staticmethod
    def _names_library(backend) -> str | None:
        try:
            return names.library_id(backend.names) if backend.names else None
        except ValueError:
            return None

    def ask(self, **kwargs) -> list[Finding]:
        key = tuple(sorted(kwargs.items()))
        if key not in self._answers:
            self._answers[key] = check(**kwargs)
        return self._answers[key]

    # -------------------------------------------------------------------------------------------- roles
    def role(self, site: Site) -> str:
        """native | ported | host | skip."""
        same = site.library == self.library or (site.library == "candle" and self.backend.library == "candle")
        if site.runs == "host" and not (same and self.backend.library in HOST_LIBRARIES):
            return "host"
        if same:
            return "native"
        if site.library in NATIVE_ONLY:
            return "skip"
        return "ported"

    def judge(self, site: Site) -> Verdict:
        role = self.role(site)
        if role == "skip":
            return Verdict(judged=False)
        device = self.question.device
        if device and (device in site.extra.get("not_on", ()) or
                       site.extra.get("only_on") and device not in site.extra["only_on"]):
            return Verdict()  # an `if x.device.type == ...` guard keeps the call off this device
        if not site.mode.values:
            detail = site.mode.detail or "not given"
            return Verdict([Issue(site, "info", f"{_short(site.api)}: the mode is not known here ({detail}); "
                                  "check each mode it can take with `python -m explorer check`.", "mode-unknown")])
        variants = self.variants(site)
        if len(variants) > MAX_VARIANTS:
            return Verdict([Issue(site, "info", f"{_short(site.api)}: {len(variants)} combinations of mode and "
                                  "options are possible here; check them with `python -m explorer check`.",
                                  "mode-unknown")])
        answers = []
        for values in variants:
            try:
                answers.append((values, self.ask(**self.question_for(site, role, values))))
            except ValueError as exc:  # a mode or option the backend's tables do not take
                answers.append((values, [Finding("info", f"not judged: {exc}", source="explorer.advisor.check")]))
        verdict = self.aggregate(site, variants, answers, role)
        if site.library == "onnx" and role == "ported" and self.backend.library == "burn":
            verdict.issues.extend(self.burn_import_issues(site))
        return verdict

    def burn_import_issues(self, site: Site) -> list[Issue]:
        """What Burn's ONNX import does with a node built in the code: the error that stops it, or a difference."""
        out = []
        source = "explorer.advisor.burn_import (data/burn_onnx_import.toml)"
        for mode in site.mode.values:
            attrs = dict(site.extra, mode=mode, antialias=int(bool(site.antialias.value)))
            outcome = onnx_import.import_outcome(attrs, self.question.version)
            if outcome is None:
                continue
            if outcome.fails:
                text = f"Burn's ONNX import stops on this node ({outcome.condition}): {outcome.error_text}"
                finding = Finding("error", text, source=outcome.era.source, error_text=outcome.error_text,
                                  record_id=f"burn-onnx-import-{outcome.condition}", backend=self.backend.id,
                                  status="fails", operation="forward")
                out.append(Issue(site, "error", text, finding.record_id, finding))
                continue
            text = onnx_import.import_difference(attrs, outcome, onnx_import.BURN_BACKENDS.get(self.backend.id),
                                                 self.question.version)
            if text:
                finding = Finding("differs", text, source=f"{outcome.era.source}; {source}",
                                  record_id="burn-onnx-import-differs", backend=self.backend.id, status="differs",
                                  operation="convention")
                out.append(Issue(site, "differs", text, finding.record_id, finding))
        return out

    def variants(self, site: Site) -> list[dict]:
        """Every combination of the values the code may pass, each labelled with how it was found."""
        dims = {"mode": site.mode, "antialias": _bools(site.antialias),
                "align_corners": _optional_bools(site.align_corners), "scale_factor": _bools(site.scale_factor)}
        out = []
        for combo in itertools.product(*(a.values for a in dims.values())):
            values = dict(zip(dims, combo))
            for rank in self.ranks(site, values["mode"]):
                out.append({**values, "rank": rank})
        return out

    def ranks(self, site: Site, mode) -> tuple:
        if site.rank.values:
            return site.rank.values
        if site.library == "torch" and mode in TORCH_RANK:
            return (TORCH_RANK[mode],)
        if site.library == "torch":
            return (1, 2, 3)
        return (2,)

    def question_for(self, site: Site, role: str, v: dict) -> dict:
        q = self.question
        training = False if site.training is False else q.trains
        mode, antialias, align = v["mode"], bool(v["antialias"]), v["align_corners"]
        modes_with_aa = site.extra.get("antialias_modes")
        if modes_with_aa is not None and mode not in modes_with_aa:
            antialias = False
        rank = max(1, min(int(v["rank"]), 3))
        if role == "host":
            backend = HOST_BACKEND.get(site.library, site.library)
            if site.api.startswith("torchvision") and mode in apis.TORCHVISION_TO_PILLOW:
                backend, mode, antialias = "pillow", apis.TORCHVISION_TO_PILLOW[mode], False
            return {"mode": mode, "backend": backend, "training": False, "device": "cpu", "align_corners": align,
                    "antialias": antialias, "spatial_dims": rank, "dtype": q.dtype,
                    "reference": _reference(backend)}
        common = {"backend": self.backend.id, "training": training, "version": q.version, "device": q.device,
                  "spatial_dims": rank, "dtype": q.dtype, "deterministic": q.deterministic, "export": q.export,
                  "opset": q.opset, "scale_factor": bool(v["scale_factor"]) or None, "reference": q.reference,
                  "converter_version": q.converter_version}
        if role == "native":
            return dict(mode=mode, align_corners=align, antialias=antialias, **common)
        if site.library == "onnx":
            node = dict(site.extra, mode=mode)
            if self.backend.library == "burn":  # the op Burn's ONNX import generates
                outcome = onnx_import.import_outcome(node, q.version)
                if outcome is not None and not outcome.fails:
                    return dict(mode=outcome.mode, align_corners=outcome.align_corners, antialias=False, **common)
            if mode == "nearest" and node.get("coordinate_transformation_mode") == "asymmetric" \
                    and node.get("nearest_mode") == "floor":
                mode = "nearest-floor"
        family = "nearest" if mode == "nearest-floor" else names.mode_family(site.library, mode)
        spelled = FAMILY_SPELLING.get(family, {}).get(rank, family)
        if family in INTERPOLATING:
            align = bool(align) if align is not None else False
        else:
            align = None
        return dict(mode=spelled, align_corners=align, antialias=antialias, **common)

    def outside_graph(self, f: Finding, site: Site) -> str | None:
        """The condition a finding needs when the code does not show the call is where the finding happens:
        in the differentiated graph (backward failures), in the exported model (export failures)."""
        if f.operation in ("backward", "double_backward") and not (site.in_model or site.differentiated):
            if site.in_model is False:
                return "if gradients flow through this call (its model sets requires_grad=False)"
            return "if gradients flow through this call (the code does not show it is part of a trained model)"
        if self.question.export and site.in_model is None and f.operation in (
                "forward", "export_onnx", "export_coreml", "convention"):
            return "if this call is part of the exported model (it is not in a model class)"
        if self.question.export and site.exported is False and f.operation in (
                "forward", "export_onnx", "export_coreml", "convention"):
            return "if this call is part of the exported model (forward does not reach it: training or loss code)"
        return None

    def aggregate(self, site: Site, variants: list[dict], answers, role: str = "ported") -> Verdict:
        verdict = Verdict()
        seen: dict = {}
        for index, (_, findings) in enumerate(answers):
            for f in findings:
                key = (rule_of(f), f.message)
                seen.setdefault(key, (f, set()))[1].add(index)
        varying = {k: {str(v[k]) for v in variants} for k in variants[0]} if variants else {}
        varying = {k: vals for k, vals in varying.items() if len(vals) > 1}
        open_dims = {"rank"} if not site.rank.values else set()
        for name, arg in (("mode", site.mode), ("antialias", site.antialias), ("align_corners", site.align_corners),
                          ("scale_factor", site.scale_factor)):
            if arg.how == "unknown":
                open_dims.add(name)
        partial = [(name, arg) for name, arg in (("mode", site.mode), ("antialias", site.antialias),
                                                 ("align_corners", site.align_corners)) if arg.how == "partial"]
        for (rule, _), (f, where) in seen.items():
            if f.status == "supported" and f.severity == "info":
                continue  # what works says nothing about this call
            if len(where) == len(variants):
                condition = None
                dims_used = set()
            else:
                chosen = [variants[i] for i in sorted(where)]
                dims_used = {k for k in varying if {str(v[k]) for v in chosen} != varying[k]}
                condition = _describe(dims_used, chosen)
            if f.unsettled or dims_used & open_dims:
                verdict.conditions.append((rule, condition or "", f.message, f))
                continue
            severity = f.severity
            if condition is None and severity in ("error", "differs") and role != "host":
                graph = self.outside_graph(f, site)
                if graph:
                    condition = graph
            if condition is None and partial and severity in ("error", "differs"):
                condition = ", ".join(f"with {name}=" + " or ".join(repr(v) for v in arg.values) + f" ({arg.detail})"
                                      for name, arg in partial)
            if condition is not None and severity in ("error", "differs"):
                severity = "warning"
            message = f.message if condition is None else f"{condition[0].upper()}{condition[1:]}: {f.message}"
            verdict.issues.append(Issue(site, severity, message, rule, f, condition))
        return verdict


def _bools(arg: Arg) -> Arg:
    """antialias values, both when the code does not say."""
    if arg.values:
        return Arg(tuple(bool(v) if v is not None else False for v in arg.values), arg.how, arg.detail)
    return Arg((False, True), "unknown", arg.detail)


def _optional_bools(arg: Arg) -> Arg:
    if arg.values:
        return Arg(tuple(v if v in (None, True, False) else bool(v) for v in arg.values), arg.how, arg.detail)
    return Arg((False, True), "unknown", arg.detail)


def _describe(dims: set, chosen: list[dict]) -> str:
    parts = []
    for k in ("mode", "antialias", "align_corners", "scale_factor", "rank"):
        if k in dims:
            values = sorted({v[k] for v in chosen}, key=str)
            if k == "rank":
                parts.append("for " + " or ".join(f"{r}-D spatial input" for r in values))
            elif k == "scale_factor":
                parts.append("when the scale factor is " + ("not a whole number" if values == [True] else
                                                            "a whole number or absent"))
            else:
                parts.append(f"with {k}=" + " or ".join(repr(x) for x in values))
    return ", ".join(parts)


def _short(api: str) -> str:
    return api.rsplit(".", 1)[-1] if "." in api and ":" not in api else api


def _reference(backend: str) -> str:
    """The library a host backend's numbers are compared with: its library id when it names one."""
    try:
        return names.library_id(backend)
    except ValueError:
        return backend

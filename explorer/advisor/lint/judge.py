"""Judge a site by its library's rules, through :func:`~explorer.advisor.check`.

Where a call runs decides the question asked:

* a call of the backend's own library is asked about as written (``F.interpolate`` linted for ``torch``);
* a model op of another library (``F.interpolate``, ``tf.image.resize`` linted for ``burn-tch``) is *ported*:
  the backend's mode of the same family, with the options the call computes with (PyTorch's unset
  ``align_corners`` is half-pixel, so the port is asked with ``align_corners=False``); an ONNX node linted for
  Burn is asked about as the op Burn's ONNX import writes for it (``onnx_import.py``);
* a host-side call (Pillow, OpenCV, torchvision on PIL images) stays in its own library, on the CPU, without
  gradients, compared with itself: only what fails there is reported;
* Rust code is judged for its own library and ported to the other Rust one (a Burn model moved to candle is
  asked about as candle computes the same mode), never to a Python framework.

Every value the code may pass is asked about (a *variant*).  A finding of every variant is certain; one that
holds only on a branch the code picks between (``"bicubic" if hq else "nearest"``) is a warning naming the
branch; one that depends on what the code does not say (the rank, the sizes, antialias from an expression, the
device when none was given) is a condition: info level, once per run in the summary.

>>> from explorer.advisor.lint.sites import Arg, Site
>>> site = Site("m.py", 3, 5, "torch", "torch.nn.Upsample", Arg.known("nearest-exact"), rank=Arg.known(2))
>>> verdict = Judge(Question.of("burn-tch", training=True)).judge(site)
>>> sorted({(i.severity, i.rule) for i in verdict.issues})[:2]
[('error', 'burn-tch-nearest-exact-backward'), ('error', 'burn-tch-nearest-exact-forward')]
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

from ...conventions import mode_names as names
from ...errors import ArgumentTypeError, choice_error
from ..findings import Finding, check
from ..knowledge import load
from ..question import FIELDS, Target
from ..question import Question as AdvisorQuestion
from .context import archive_dir
from . import apis, export_nodes, onnx_import
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
#: Libraries of Rust code: judged on a backend of one of them only (its own, or ported to the other).
NATIVE_ONLY = ("burn", "candle")
MAX_VARIANTS = 64
#: Contexts outside the model (``context.py``): a failure there is not the model's.
OUTSIDE_MODEL = ("preprocessing", "evaluation")
#: Libraries whose calls, ported, are compared with the PyTorch convention the port is asked in.
CONVENTION_SOURCES = ("tensorflow", "jax", "keras")
#: Keras 3 runs its resize on the framework KERAS_BACKEND names (``explorer.conventions.libraries.keras``): a Keras
#: call linted for that framework's backend is asked about as the Keras backend of it.
KERAS_ON = {"tensorflow": "keras-tensorflow", "jax": "keras-jax", "torch": "keras-torch"}
#: Keras's backend when the code does not set one (keras-team/keras keras/src/backend/config.py @ v3.15.1:
#: ``_BACKEND = "tensorflow"``; the keras library's ``backend`` option defaults to it).
KERAS_DEFAULT_BACKEND = "tensorflow"


#: The advisor's question fields a lint run fixes for every call (the others come from each call).
RUN_FIELDS = ("version", "device", "dtype", "deterministic", "export", "opset", "reference", "converter_version")


@dataclass(frozen=True)
class Question:
    """The run's question: the advisor's :class:`~explorer.advisor.question.Target` and the question fields
    of :data:`~explorer.advisor.question.FIELDS` that hold for every call, validated once through
    :meth:`~explorer.advisor.question.Question.of`; what is lint's own is ``training`` None (train unless
    exporting).

    >>> q = Question.of("burn-libtorch", export="onnx")
    >>> q.backend, q.trains, q.export
    ('burn-tch', False, 'onnx')
    >>> Question.of("torch", dtpye="float16")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentTypeError: question field='dtpye' is not valid; choose one of: 'align_corners', ... (did you mean 'dtype'?)
    """

    target: Target
    fields: tuple = ()                 # (name, value) of RUN_FIELDS as given
    training: bool | None = None

    @classmethod
    def of(cls, backend, training: bool | None = None, **fields) -> Question:
        target = Target.of(backend, fields.get("version"), fields.get("device"))
        given = dict(fields)
        outside = [k for k in given if k in FIELDS and k not in RUN_FIELDS]
        if training is not None and not isinstance(training, bool):
            raise ArgumentTypeError(f"training must be True, False or None, got {training!r}")
        trains = training if training is not None else fields.get("export") is None
        any_mode = next(iter(target.backend.mode_table()))
        AdvisorQuestion.of(mode=any_mode, backend=target.backend.id, training=trains, **given)  # raises on bad
        if outside:  # a per-call field (align_corners, antialias ...) is the code's, not the run's
            raise choice_error("lint option", outside[0], RUN_FIELDS, kind=ArgumentTypeError)
        return cls(target, tuple((k, given.get(k, FIELDS[k])) for k in RUN_FIELDS), training)

    def _field(self, name):
        return dict(self.fields).get(name, FIELDS[name])

    @property
    def backend(self) -> str:
        return self.target.backend.id

    @property
    def trains(self) -> bool:
        return self.training if self.training is not None else self.export is None

    version = property(lambda self: self._field("version"))
    device = property(lambda self: self._field("device"))
    dtype = property(lambda self: self._field("dtype"))
    deterministic = property(lambda self: self._field("deterministic"))
    export = property(lambda self: self._field("export"))
    opset = property(lambda self: self._field("opset"))
    reference = property(lambda self: self._field("reference"))
    converter_version = property(lambda self: self._field("converter_version"))

    def to_dict(self) -> dict:
        return {"backend": self.backend, **dict(self.fields), "training": self.trains}


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
        self.backend = question.target.backend
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
        same = site.library in (self.library, self.backend.library) or (
            site.library == "keras" and self.backend.library in KERAS_ON)
        if site.runs == "host" and not (same and self.backend.library in HOST_LIBRARIES):
            return "host"
        if same:
            return "native"
        if site.library in NATIVE_ONLY and self.backend.library not in NATIVE_ONLY:
            return "skip"  # (Rust code is ported to the other Rust library, not to a Python framework)
        return "ported"

    def judge(self, site: Site) -> Verdict:
        role = self.role(site)
        if role == "skip":
            return Verdict(judged=False)
        if role == "ported" and site.context == "test":
            return Verdict()  # a test of the original library is not ported with the model
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
        exported = self.exports_nodes(site, role)
        for values in variants:
            if exported:
                answers.append((values, self.exported_findings(site, values)))
                continue
            try:
                answers.append((values, self.ask(**self.question_for(site, role, values))))
            except ValueError as exc:  # a mode or option the backend's tables do not take
                answers.append((values, [Finding("info", f"not judged: {exc}", source="explorer.advisor.check")]))
        verdict = self.aggregate(site, variants, answers, role)
        if site.library == "onnx" and role == "ported" and self.backend.library == "burn":
            verdict.issues.extend(self.burn_import_issues(site))
        if role == "ported" and site.library in CONVENTION_SOURCES:
            verdict.issues.extend(self.legacy_issues(site))
        around = site.context == "script" and not site.in_model  # a script's own code around the model it runs
        loading = site.context == "script" and site.extra.get("loads_weights")  # a model's weights on their way in
        if site.context in OUTSIDE_MODEL or around or loading:
            where = (f"code that loads weights (`{loading}`)" if loading else
                     "a script's code outside the model" if around else f"{site.context} code")
            _soften(verdict.issues, "warning", f"in {where}",
                    f"In {where} (it runs before or after the model, without gradients)")
        if site.extra.get("branch"):
            branch = site.extra["branch"]
            flag = site.extra.get("flag")
            why = (f"In a branch a caller must turn on (if {flag['test']}, off by default)" if flag and branch == flag["test"]
                   else f"In a branch a caller can turn off (if {flag['test']}: {branch})" if flag else
                   f"In a branch the defaults do not take (if {branch}: a caller must pass another value)")
            _soften(verdict.issues, "warning", f"if {flag['test'] if flag else branch}", why)
        archived = archive_dir(site.path)
        if archived:
            _soften(verdict.issues, "warning", f"if {archived}/ is used",
                    f"In {archived}/, a directory of old or unused copies (it runs only if something imports it)")
        for key, condition, why in _NOT_CALLED:
            if site.extra.get(key):
                name = site.extra[key]
                _soften(verdict.issues, "warning", condition.format(name), f"{why.format(name)} (it runs only if "
                        "other code calls it)")
        if site.extra.get("fallback"):
            caught = site.extra["fallback"]
            _soften(verdict.issues, "info", f"if the call before it raises {caught}",
                    f"A fallback run only when the call before it raises {caught} (a release without that name)")
        return verdict

    # ------------------------------------------------------------------------------------------- export
    def exports_nodes(self, site: Site, role: str) -> bool:
        """A PyTorch model call exported to ONNX for a runtime that runs the nodes as written (ONNX Runtime,
        TensorRT): judged as exporter -> node -> runtime, not as a port."""
        q = self.question
        return (q.export in ("onnx", "onnx-torchscript", "onnx-dynamo") and site.library == "torch"
                and role != "host" and site.api.startswith("torch.nn")
                and getattr(self.backend.declared, "runs_nodes", False))

    def exporter(self) -> tuple[str, int]:
        """(exporter, opset) of the run's ONNX export: ``onnx-torchscript`` / ``onnx-dynamo`` as asked;
        ``onnx`` is the default of the torch release exporting (``--converter-version``, else the newest
        checked: dynamo from 2.9, explorer/advisor/data/torch.toml ``export_default``), at its default opset
        unless ``--opset`` is given."""
        q = self.question
        runtime = self.kb.runtimes["torch"]
        version = q.converter_version or runtime.newest
        default = next((d for d in runtime.export_defaults if d.versions.contains(version)), None)
        if q.export == "onnx-torchscript":
            exporter = "torchscript"
        elif q.export == "onnx-dynamo":
            exporter = "dynamo"
        else:
            exporter = default.exporter if default is not None else "dynamo"
        opset = q.opset or (default.opset if default is not None else 18)
        return exporter, opset

    def exported_findings(self, site: Site, v: dict) -> list[Finding]:
        """What torch.onnx.export writes for this call at the run's exporter and opset (the measured tables,
        ``export_nodes.py``), then what the backend computes for that node (:func:`explorer.scan` of a
        one-node model: the runtime's records and the node's convention)."""
        exporter, opset = self.exporter()
        given = "size" if site.scale_factor.how == "api-default" else "scale"
        mode, rank = v["mode"], int(v["rank"])
        cell = export_nodes.written(exporter, opset, mode, v["align_corners"], bool(v["antialias"]), given)
        if cell is None:
            return [Finding("info", f"torch.onnx.export ({exporter}) at opset {opset} of {mode} was not measured",
                            source=export_nodes.TABLES[exporter].name, unsettled=("opset",))]
        if "error" in cell:
            text = (f"torch.onnx.export ({exporter}, opset {opset}) cannot export {_short(site.api)}(mode={mode!r}"
                    f"{', antialias=True' if v['antialias'] else ''}): {cell['error']}")
            return [Finding("error", text, source=export_nodes.source(exporter), record_id="torch-onnx-export-fails",
                            backend="torch", status="fails", operation="export_onnx", error_text=cell["error"])]
        out = []
        for node in cell["nodes"]:
            if node["op"] not in ("Resize", "Upsample"):
                continue  # AveragePool (area with a size), Gather on precomputed indices: run as written
            out.extend(_node_findings(self.backend.id, opset, rank, tuple(sorted(node["attributes"].items())),
                                      given == "scale"))
        return out

    def legacy_issues(self, site: Site) -> list[Issue]:
        """A TensorFlow, JAX or Keras call ported: the port is asked as PyTorch's mode of the same family
        (half-pixel, Keys a=-0.75 for cubic), so where the source library computes that family otherwise
        (TensorFlow 1's legacy coordinates; TensorFlow's and JAX's cubic with a=-0.5, and Keras's on those two
        backends) the port gives other values.  Decided by the presets' weights (the source's against
        PyTorch's, 6 -> 12 and 6 -> 9).  A Keras call computes with the backend the code sets (KERAS_BACKEND),
        else Keras's default (TensorFlow): a difference on only some of the backends the code sets is a
        warning naming them."""
        out = []
        legacy = site.extra.get("coordinates") == "legacy"
        keras = site.library == "keras"
        backends = tuple(site.extra.get("keras_backends") or (KERAS_DEFAULT_BACKEND,)) if keras else (None,)
        for mode in site.mode.values:
            try:
                family = names.mode_family(site.library, mode)
            except ValueError:
                continue
            if family not in ("linear", "cubic"):
                continue
            differing = [b for b in backends if _source_differs(site.library, mode, family, legacy, b,
                                                                 self.backend.id, self.question.version)]
            if not differing:
                continue
            on = ""
            if keras:
                set_by = "KERAS_BACKEND in the code" if site.extra.get("keras_backends") else "Keras's default"
                on = f" on the {'/'.join(differing)} backend ({set_by})"
            if legacy:
                why = "TensorFlow 1's legacy coordinates (src = dst * in / out, half_pixel_centers=False)"
                hint = "pass half_pixel_centers=True in the original, or compare the port's outputs with it"
            else:
                why = (f"{site.library}'s {mode}{on} (its own kernel or coordinates, not the {family} the port "
                       "computes)")
                hint = "compare the port's outputs with the original's"
            text = (f"{_short(site.api)} computes with {why}: {self.backend.id}'s {family} port gives other "
                    f"values; {hint}")
            severity, condition = "differs", None
            if len(differing) < len(backends):
                severity, condition = "warning", f"with KERAS_BACKEND={' or '.join(differing)}"
                text = f"With KERAS_BACKEND={' or '.join(differing)}: {text}"
            options = f" backend={'/'.join(differing)}" if keras else " version=1" if legacy else ""
            finding = Finding("differs", text, source=f"explorer.conventions presets: {site.library} "
                              f"{mode}{options} against what {self.backend.id} computes for the port "
                              f"({_port_text(family, self.backend.id, self.question.version)}; weights compared)",
                              record_id="tf1-legacy-coordinates" if legacy else "port-convention-differs",
                              backend=self.backend.id, status="differs", operation="convention")
            out.append(Issue(site, severity, text, finding.record_id, finding, condition))
        return out

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
            if site.library == "keras" and self.backend.library in KERAS_ON:  # Keras computing on this framework
                common = dict(common, backend=KERAS_ON[self.backend.library], version=None)
            return dict(mode=mode, align_corners=align, antialias=antialias, **common)
        if site.extra.get("coordinates") in ("repeat", "legacy") and mode == "nearest":
            mode = "nearest-floor"  # UpSampling2D repeats pixels; TF1's legacy nearest floors src = dst * in / out
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
        if f.operation in ("backward", "double_backward") and site.extra.get("targets"):
            return (f"if gradients flow through this call (its input is computed from `{site.extra['targets']}`, "
                    "ground truth or the input batch, which carries none)")
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


@functools.cache
def _node_findings(backend: str, opset: int, rank: int, attributes: tuple, upscale: bool) -> tuple:
    """The findings :func:`explorer.scan` gives for a model of one Resize node with these attributes
    (input 8 per spatial axis, scales 2 or 0.5)."""
    from onnx import TensorProto, helper

    from ..scan import scan

    shape = [1, 1] + [8] * rank
    factor = 2.0 if upscale else 0.5
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    roi = helper.make_tensor("roi", TensorProto.FLOAT, [0], [])
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [len(shape)], [1.0, 1.0] + [factor] * rank)
    node = helper.make_node("Resize", ["x", "roi", "scales"], ["y"], **dict(attributes))
    graph = helper.make_graph([node], "exported", [x], [y], initializer=[roi, scales])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", max(opset, 11))])
    found = []
    for resize in scan(model.SerializeToString(), backend=backend, training=False):
        found.extend(f for f in resize.findings if not (f.status == "supported" and f.severity == "info"))
    return tuple(found)


@functools.cache
def _port_spec(family: str, target: str | None, version):
    """(Spec, description) of what the port runs: the target backend's computation of PyTorch's mode of the
    family with align_corners=False (Burn's Bilinear(align_corners=false), candle's upsample_bilinear2d), or
    PyTorch's own where the target has no numeric model of it."""
    from ...conventions import preset
    from ..backend_calls import computation, spec_of

    torch_mode = {"linear": "bilinear", "cubic": "bicubic"}[family]
    if target is not None:
        try:
            call = computation(AdvisorQuestion.of(mode=torch_mode, backend=target, align_corners=False,
                                                  version=version))
            return spec_of(call), call.describe()
        except (ValueError, TypeError):
            pass
    return preset("torch", torch_mode, align_corners=False), f"torch {torch_mode} (align_corners=False)"


def _port_text(family: str, target: str, version) -> str:
    return _port_spec(family, target, version)[1]


@functools.cache
def _source_differs(library: str, mode: str, family: str, legacy: bool, backend: str | None = None,
                    target: str | None = None, version=None) -> bool:
    """Whether ``library``'s ``mode`` (on Keras's ``backend``) gives other upsampling weights than what the port
    runs on ``target`` (:func:`_port_spec`).  TensorFlow's and JAX's bilinear are the half-pixel, clamped
    bilinear of PyTorch and of Burn's Bilinear(align_corners=false) (crates/burn-ndarray/src/ops/interpolate.rs
    @ v0.22.0-pre.2: ``(h + 0.5) * in / out - 0.5`` clamped to [0, in - 1]; measured equal in
    tests/advisor/test_lint_ecosystems.py); their cubic (a = -0.5) is not Keys a = -0.75."""
    from ...conventions import equivalent, preset

    options = {"version": 1} if legacy else {"backend": backend} if backend else {}
    try:
        source = preset(library, mode, **options)
        port, _ = _port_spec(family, target, version)
    except ValueError:
        return False
    return not (equivalent(source, port, 6, 12) and equivalent(source, port, 6, 9))


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


#: Code the tree never runs by itself: (site.extra key, condition, why), the name filled in.
_NOT_CALLED = (("uncalled", "if {} is called", "In {}, which nothing in the tree calls or names"),
               ("unused", "if self.{} is called", "A layer stored in self.{}, which this module never reads"))


def _soften(issues, to: str, condition: str, why: str) -> None:
    """The issues of a call that runs only under a condition: its errors (to ``info``: everything above info)
    become ``to``, with the condition and why in front of the message."""
    for issue in issues:
        if issue.severity == "error" or (to == "info" and issue.severity != "info"):
            issue.severity = to
            issue.condition = issue.condition or condition
            issue.message = f"{why}: {issue.message}"


def _reference(backend: str) -> str:
    """The library a host backend's numbers are compared with: its library id when it names one."""
    try:
        return names.library_id(backend)
    except ValueError:
        return backend

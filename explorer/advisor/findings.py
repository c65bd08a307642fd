"""``check``: what will fail or differ for one resize configuration, before anything runs.

>>> findings = check(mode="nearest-exact", backend="burn-tch", training=True)
>>> [f.severity for f in findings if f.record_id == "burn-tch-nearest-exact-backward"]
['error']
>>> print(findings[0].fixes[0].code.splitlines()[-2])
let options = InterpolateOptions::new(InterpolateMode::Nearest);
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..conventions import mode_names as names
from ..errors import ArgumentValueError
from .knowledge import ATTRIBUTE_KEYS, ModeUnavailable, Record, load
from .snippets import burn_backend_code, resize_code
from .question import Question
from ..versions import VersionRange, describe_range, parse_version, scope_text

SEVERITY_ORDER = {"error": 0, "differs": 1, "warning": 2, "info": 3}
# When a finding is demoted.  A record's severity (knowledge.DEFAULT_SEVERITY) is for a user it certainly
# applies to.  When it applies only under a condition the user did not state - a device (no device given), a
# size ratio (no sizes given), the release of another library or converter (keras on TensorFlow X, onnxscript
# Y) - it may not be their case: an error or a difference becomes a warning that names the condition, so an
# unspecified question is never answered with a certain failure.  Second-order gradients are info unless asked
# for, since most training never takes them.
_DEMOTE = {"error": "warning", "differs": "warning", "warning": "warning", "info": "info"}
_RANK_MODE = {1: "linear", 2: "bilinear", 3: "trilinear"}


@dataclass
class Fix:
    """A change to try.  ``check`` fills the description and code; ``suggest_fixes`` also measures it."""

    description: str
    kind: str
    backend: str
    mode: str
    code: str
    language: str
    note: str | None = None
    id: str | None = None
    change: dict = field(default_factory=dict)
    exact: bool | None = None
    output_max_abs: float | None = None
    output_rmse: float | None = None
    psnr: float | None = None
    changed_fraction: float | None = None
    grad_cosine: float | None = None
    grad_rel_error: float | None = None
    grad_max_abs: float | None = None
    scale_text: str = ""
    caveats: list = field(default_factory=list)

    @property
    def measured(self) -> bool:
        return self.output_max_abs is not None

    def __str__(self):
        if not self.measured:
            return self.description
        where = f" for this {self.scale_text}" if self.scale_text else ""
        if self.exact:
            what = "identical output and gradient" if self.grad_cosine is not None else "identical output"
            return f"{self.description}: {what}{where}"
        parts = [f"max {self.output_max_abs:.3g}", f"RMSE {self.output_rmse:.3g}",
                 f"PSNR {self.psnr:.1f} dB", f"{100 * self.changed_fraction:.0f}% of values"]
        text = f"{self.description}: output differs ({', '.join(parts)})"
        if self.grad_cosine is not None:
            text += f", gradient cosine {self.grad_cosine:.3f} (relative error {self.grad_rel_error:.3g})"
        return text + where

    def to_dict(self) -> dict:
        out = {k: v for k, v in self.__dict__.items()}
        out["measured"] = self.measured
        out["summary"] = str(self)
        return out


@dataclass
class Finding:
    """One thing the user should know: severity, plain-language message, the exact error text, fixes."""

    severity: str
    message: str
    source: str
    error_text: str | None = None
    error_type: str | None = None
    fixes: list = field(default_factory=list)
    record_id: str | None = None
    backend: str | None = None
    mode: str | None = None
    operation: str | None = None
    status: str | None = None
    evidence: str | None = None
    versions: str | None = None       # the releases (and opsets, converter releases) the finding holds for
    unsettled: tuple = ()             # what the finding depends on that the question left open: "sizes", "device"

    @property
    def evidence_text(self) -> str:
        """The evidence in words: measured in the probe's matrix for this release, measured for a record, or
        cited (its source, a public report); "" when the finding has none."""
        if self.evidence == "measured":
            if self.source.startswith("explorer/advisor/data/matrix/"):
                return "measured (a cell of the probe's matrix for this release)"
            return "measured (run with the real library for the record)"
        return {"source": "cited (read in its source)", "reported": "cited (a public report)"}.get(
            self.evidence or "", self.evidence or "")

    def __str__(self):
        head = f"{self.severity}: {self.message}"
        if self.error_text:
            head += f"\n    {self.error_type + ': ' if self.error_type and self.error_type != 'panic' else ''}" \
                    f"{'panic: ' if self.error_type == 'panic' else ''}{self.error_text}"
        return head

    def to_dict(self) -> dict:
        out = {k: v for k, v in self.__dict__.items() if k != "fixes"}
        out["fixes"] = [f.to_dict() for f in self.fixes]
        return out


def _when_matches(record: Record, setup: Question, sizes) -> tuple[bool, list[str]]:
    """(applies, conditions the user did not specify and that the finding therefore depends on)."""
    maybe = []
    w = record.when
    if "argument" in w:
        return False, []
    if "dtype" in w and setup.dtype not in w["dtype"]:
        return False, []
    if "spatial_dims" in w and setup.spatial_dims not in w["spatial_dims"]:
        return False, []
    if "align_corners" in w:
        allowed = w["align_corners"] if isinstance(w["align_corners"], list) else [w["align_corners"]]
        value = "unset" if setup.align_corners is None else setup.align_corners
        if not any(a == value and type(a) is type(value) for a in allowed):
            return False, []
    if "antialias" in w and bool(w["antialias"]) != setup.antialias:
        return False, []
    if "deterministic" in w and bool(w["deterministic"]) != setup.deterministic:
        return False, []
    if "exporter" in w and setup.exporter not in w["exporter"]:
        return False, []
    if "opset" in w:
        if setup.opset is None or not VersionRange(str(w["opset"])).contains(str(setup.opset)):
            return False, []
        if setup.export_defaulted:
            maybe.append(f"with the default opset of torch {setup.version} ({setup.opset})")
    if "scale_factor" in w and bool(w["scale_factor"]) != setup.scale_factor:
        return False, []
    for key in ATTRIBUTE_KEYS:
        if key in w:
            allowed = w[key] if isinstance(w[key], list) else [w[key]]
            value = setup.attribute(key)
            if value is None:  # the node was not described: the finding depends on it
                maybe.append(f"when the node has {key}=" + "/".join(str(a) for a in allowed))
            elif not any(_same_value(a, value) for a in allowed):
                return False, []
    if "ratio" in w:
        verdict = _ratio(w["ratio"], sizes)
        if verdict is False:
            return False, []
        if verdict is None:
            kinds = w["ratio"] if isinstance(w["ratio"], list) else [w["ratio"]]
            maybe.append(" or ".join(_RATIO_TEXT[k] for k in kinds))
    return True, maybe


def _same_value(recorded, given) -> bool:
    """An attribute value of a record equals the question's (0/1 and False/True alike; numbers as floats)."""
    if isinstance(given, float) or isinstance(recorded, float):
        try:
            return float(recorded) == float(given)
        except (TypeError, ValueError):
            return False
    return recorded == given or (isinstance(recorded, bool) and int(recorded) == given)


_RATIO_TEXT = {"downscale": "when downscaling", "non_integer": "when n*scale is not an integer",
               "non_integer_upscale": "for non-integer upscale factors",
               "non_uniform": "when the two axes have different factors",
               "non_divisible": "when an input size is not a multiple of its output size",
               "empty": "when an output size is 0"}


def _ratio(kind, sizes):
    """True/False for these (input, output) sizes; None when the sizes are unknown.  A list of kinds holds when
    any of them does."""
    if sizes is None:
        return None
    if isinstance(kind, list):
        return any(_ratio(k, sizes) for k in kind)
    pairs = list(zip(*sizes))
    if kind == "downscale":
        return any(m < n for n, m in pairs)
    if kind == "non_integer":
        return any((m % n) and (n % m) for n, m in pairs if n and m)
    if kind == "non_integer_upscale":
        return any(m > n and m % n for n, m in pairs if n)
    if kind == "non_uniform":
        return len({m / n for n, m in pairs if n}) > 1
    if kind == "non_divisible":
        return any(m and n % m for n, m in pairs)
    if kind == "empty":
        return any(n == 0 or m == 0 for n, m in pairs)
    raise ArgumentValueError(kind)


#: Words put before a finding's message, by the record's operation (what the finding is about).
OPERATION_PREFIX = {"double_backward": "For second-order gradients (e.g. gradient penalties): "}


def _operation_applies(record: Record, setup: Question) -> bool:
    """Whether the record's operation is part of this use (a backward only when training, an export when
    exporting to that format)."""
    op = record.operation
    if op in ("forward", "convention", "convert"):  # a conversion happens whenever the backend is used
        return True
    if op in ("backward", "double_backward"):
        return setup.training
    if op == "export_onnx":
        return setup.exporter is not None
    if op == "export_coreml":
        return setup.export == "coreml"
    if op == "export_tflite":
        return setup.export == "tflite"
    return False


def render_text(text: str | None, setup: Question, sizes=None) -> str | None:
    """Fill the ``{placeholders}`` of an error text with what this setup would print."""
    if not text:
        return text
    burn_dtype = {"float32": "F32", "float64": "F64", "float16": "F16", "bfloat16": "BF16", "uint8": "U8",
                  "int8": "I8", "int16": "I16", "int32": "I32", "int64": "I64"}
    values = {"mode": setup.mode, "rank": str(setup.spatial_dims + 2),
              "dtype": burn_dtype.get(setup.dtype, setup.dtype) if setup.library == "burn" else setup.dtype,
              "device_key": (setup.device or "CUDA").upper()}
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "…"), text)


def make_fix(fix_id: str, setup: Question, size=None, scale_factor=None) -> Fix | None:
    """The Fix of a knowledge-base fix id for this setup (None when it does not apply to it)."""
    kb = load()
    d = kb.fixes[fix_id]
    change = dict(d.change)
    if change.get("mode") == "{rank_mode}":
        change["mode"] = _RANK_MODE.get(setup.spatial_dims, "bilinear")
    try:
        target = setup.changed(**change)
    except ValueError:
        return None
    if target == setup and not d.code and d.kind not in ("workaround", "environment", "convention"):
        return None
    description = d.description or describe_change(setup, target)
    if d.code:
        h, w = (str(int(s)) for s in size[-2:]) if size is not None else ("h_out", "w_out")
        values = {"h": h, "w": w, "mode": target.mode, "backend": setup.backend.id,
                  "feature": _cargo_feature(target.backend),
                  "onnx_mode": {"linear": "linear", "cubic": "cubic"}.get(target.family, "linear"),
                  "backend_type": target.backend.rust_type or ""}
        code = re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), d.code.strip("\n"))
        language = d.language or target.backend.code
    else:
        language, code = resize_code(target, size, scale_factor)
        if target.backend.library == "burn" and target.backend.id != setup.backend.id:
            code = burn_backend_code(target) + "\n" + code
    return Fix(description=description, kind=d.kind, backend=target.backend.id, mode=target.mode, code=code,
               language=language, note=d.note, id=fix_id, change=change)


def _cargo_feature(backend) -> str:
    """The Cargo feature that enables a Rust backend (``wgpu`` when it declares none)."""
    declared = backend.declared
    return (declared.cargo_feature if declared is not None else None) or "wgpu"


def describe_change(before: Question, after: Question) -> str:
    """One line: what a fix changes ("switch NearestExact -> Nearest")."""
    parts = []
    if after.backend.id != before.backend.id:
        parts.append(f"switch backend {before.backend.id} -> {after.backend.id}")
    if after.mode != before.mode or after.backend.id != before.backend.id and after.mode != before.mode:
        parts.append(f"switch {before.mode} -> {after.mode}")
    if after.version != before.version and after.backend.library == before.backend.library:
        parts.append(f"use {after.backend.library} {after.version} instead of {before.version}")
    if after.device != before.device:
        parts.append(f"run on {after.device}" + (f" instead of {before.device}" if before.device else ""))
    if after.align_corners != before.align_corners:
        value = "unset" if after.align_corners is None else after.align_corners
        parts.append(f"set align_corners={value}")
    if after.antialias != before.antialias:
        parts.append("turn antialias " + ("on" if after.antialias else "off"))
    if after.dtype != before.dtype:
        parts.append(f"cast to {after.dtype}")
    if after.export != before.export:
        parts.append(f"export with {after.export}")
    if after.opset != before.opset:
        parts.append(f"export with opset {after.opset}")
    return "; ".join(parts) or "keep the setup"


def _versus_applies(record: Record, setup: Question) -> bool:
    if setup.reference is None or "*" in record.versus:
        return True
    ref = setup.reference
    kb = load()
    ref_library = kb.backends[ref].library if ref in kb.backends else ref
    return ref in record.versus or ref_library in record.versus


def check(mode=None, backend=None, **question) -> list[Finding]:
    """Findings for one resize configuration, most severe first.

    ``mode`` is accepted in every library's spelling (``NearestExact``, ``nearest_exact``,
    ``INTER_NEAREST_EXACT``); ``backend`` is a backend id or alias (see :func:`backends`).  The other fields of
    the question (:data:`explorer.advisor.question.FIELDS`) are keywords: ``training``, ``version``, ``device``,
    ``align_corners``, ``antialias``, ``spatial_dims``, ``dtype``, ``deterministic``, ``export``, ``opset``,
    ``scale_factor``, ``input_size``, ``output_size``, ``reference``, ``converter_version``, ``attributes`` (the
    ONNX Resize node's attributes, e.g. ``{"nearest_mode": "floor"}``: "this node on that execution
    provider"; a record conditioned on an attribute the question leaves out is a warning naming it).
    ``reference`` names the library whose numbers the user expects ("torch" by default; None compares with nothing); a finding is
    ``differs`` when the backend runs but computes other numbers than the reference.  ``version`` is answered
    exactly from the records' version ranges (any release, e.g. ``"2.5.1"``); a release outside the ones the
    knowledge base checked gets a warning saying so.  ``export="onnx"`` means the release's default exporter and
    opset; ``converter_version`` is the onnxscript (dynamo export) or coremltools release.  ``input_size`` and
    ``output_size`` (spatial sizes) settle the findings that depend on the ratio; without them those findings
    are warnings that name the condition.  A ready :class:`~explorer.advisor.question.Question` may be given
    as ``check(question)``.

    >>> [f.severity for f in check(mode="nearest", backend="burn-tch") if f.severity == "error"]
    []
    """
    if isinstance(mode, Question):
        if backend is not None or question:
            raise ArgumentValueError("check(question) takes a Question alone; give fields or a Question, not both")
        return findings_for(mode)
    try:
        q = Question.of(mode=mode, backend=backend, **question)
    except ModeUnavailable as exc:
        return [unavailable_finding(exc)]
    return findings_for(q)


def unavailable_finding(exc: ModeUnavailable) -> Finding:
    """The error finding of a mode the backend does not have, naming the modes it has."""
    b = exc.backend
    alternatives = [m for m, fam in b.mode_table().items()]
    return Finding(severity="error", backend=b.id, mode=exc.mode, operation="forward", status="fails",
                   message=f"{b.id} has no {names.FAMILIES.get(exc.family, exc.family)} mode "
                           f"({exc.mode!r}); its modes are {', '.join(alternatives)}. Compare them on your "
                           "tensor with explorer.compare_conventions or suggest_fixes.",
                   source="explorer.conventions.mode_names / explorer/advisor/data/backends.toml", evidence="source")


def findings_for(setup: Question) -> list[Finding]:
    """The findings for a validated question, most severe first."""
    kb = load()
    b = setup.backend
    out = _version_findings(setup)
    if not b.available.contains(setup.version):
        out.append(Finding("error", f"{b.id} does not exist in {b.library} {setup.version} (available "
                                    f"{b.available}).", source=kb.runtimes[b.library].scope_source, backend=b.id,
                           status="fails"))
    if setup.reference is not None and setup.reference != "*":
        out.extend(_spelling_differs(setup))
    out.extend(f for record in kb.records if (f := record_finding(record, setup)) is not None)
    from .measured import measured_findings  # measured imports Finding from here

    out.extend(measured_findings(setup))
    out.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return out


def _version_findings(setup: Question) -> list[Finding]:
    """A warning when the release asked about is outside the ones the knowledge base checked."""
    lib = load().runtimes[setup.library]
    if setup.requested_version is None or setup.in_scope:
        return []
    newer = parse_version(setup.requested_version) > parse_version(lib.newest)
    side = (f"newer than {lib.newest}, the newest checked" if newer else
            f"older than {lib.oldest}, the oldest checked")
    return [Finding("warning", f"{lib.name} {setup.requested_version} is {side}: the findings below read the "
                               "records' version ranges as written, so a fact may have changed "
                               f"{'since' if newer else 'before'} (releases checked: {scope_text(lib.scope)}).",
                    source=lib.scope_source, backend=setup.backend.id, versions=scope_text(lib.scope))]


def versions_text(record: Record) -> str:
    """The releases (and opsets, converter releases) a record holds for, in words."""
    kb = load()
    parts = [kb.runtimes[record.library].describe(record.versions)]
    if "opset" in record.when:
        parts.append(f"opset {record.when['opset']}")
    if record.converter:
        parts.append(describe_range(record.converter, record.converter_versions))
    return "; ".join(parts)


def record_finding(record: Record, setup: Question) -> Finding | None:
    """The finding a record gives for this question, or None when it does not apply."""
    sizes = setup.sizes
    b = setup.backend
    if b.id not in record.backends or ("*" not in record.modes and setup.mode not in record.modes):
        return None
    maybe = _version_conditions(record, setup)
    if maybe is None:
        return None
    if not _operation_applies(record, setup):
        return None
    prefix = OPERATION_PREFIX.get(record.operation, "")
    applies, when_maybe = _when_matches(record, setup, sizes)
    if not applies:
        return None
    maybe += when_maybe
    unsettled = ["sizes"] if "ratio" in record.when and sizes is None else []
    if any(k in record.when and setup.attribute(k) is None for k in ATTRIBUTE_KEYS):
        unsettled.append("attributes")
    if "*" not in record.devices and setup.device is None:
        maybe.append("on " + "/".join(record.devices))
        unsettled.append("device")
    elif "*" not in record.devices and setup.device not in record.devices:
        return None
    severity = record.default_severity
    if record.status == "differs" and not _versus_applies(record, setup):
        severity = "info"
    message = record.message
    if maybe:
        severity = _DEMOTE[severity]
        condition = ", ".join(maybe)
        message = f"{condition[0].upper()}{condition[1:]}: {message}"
    fixes = [f for f in (make_fix(fid, setup) for fid in record.fixes) if f is not None]
    return Finding(severity=severity, message=prefix + message, source=record.source,
                   error_text=render_text(record.text_at(setup.version if record.library == setup.library else None),
                                          setup),
                   error_type=record.error_type, fixes=fixes, record_id=record.id, backend=b.id, mode=setup.mode,
                   operation=record.operation, status=record.status, evidence=record.evidence,
                   versions=versions_text(record), unsettled=tuple(unsettled))


def _version_conditions(record: Record, setup: Question) -> list[str] | None:
    """None when the release (or converter release) rules the record out; else the conditions it depends on."""
    maybe = []
    if record.library == setup.library:
        if not record.versions.contains(setup.version):
            return None
    elif not record.versions.every:  # e.g. a TensorFlow fact on Keras's TensorFlow backend
        maybe.append(f"with {load().runtimes[record.library].describe(record.versions)}")
    if record.converter is not None and not record.converter_versions.every:
        if setup.converter_version is None:
            maybe.append(f"with {describe_range(record.converter, record.converter_versions)}")
        elif not record.converter_versions.contains(setup.converter_version):
            return None
    return maybe


def _spelling_differs(setup: Question) -> list[Finding]:
    """The user's word for the mode means another computation on the backend than in the reference."""
    kb = load()
    ref = setup.reference
    ref_backend = kb.backends.get(ref) or next((b for b in kb.backends.values() if b.library == ref), None)
    if ref_backend is None or ref_backend.library == setup.backend.library:
        return []
    try:
        ref_family = ref_backend.family(ref_backend.native_mode(setup.spelling))
    except ValueError:
        return []
    if ref_family == setup.family:
        return []
    return [Finding(
        severity="differs", backend=setup.backend.id, mode=setup.mode, operation="convention", status="differs",
        message=(f"{setup.spelling!r} means {names.FAMILIES.get(ref_family, ref_family)} in {ref}, but on "
                 f"{setup.backend.id} it runs {setup.mode!r}: {names.FAMILIES.get(setup.family, setup.family)}."),
        source="explorer/names.py (each library's native mode names)", evidence="source")]

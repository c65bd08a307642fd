"""The knowledge base: runtimes, backends, records and fixes, read from the TOML files in ``data/``.

Each declared runtime (:mod:`explorer.conventions.libraries`) has a data file, ``data/<runtime>.toml``, which
starts with a ``[runtime]`` table: the releases its records were checked against --

==================  ======================================================================================
scope               the version range checked; a version outside it is answered from the ranges as written,
                    with a warning that says so
newest              the newest release checked: the version assumed when the user names none
scope_source        which releases were read (source, release files) or run, and how
note                what the scope leaves out (no GPU run, ...)
opsets              (ONNX runtimes) the opsets the records cover, and ``opset_source`` what decides them
export_default      (torch) what ``torch.onnx.export`` does when the caller chooses no exporter or opset
release_commits     (torch) the git hash of each release, which MPS errors quote
==================  ======================================================================================

-- then one ``[[record]]`` per capability.  The backends come from the runtime's declaration.

A *record* states one capability: on these backends, versions and devices, for these modes, this operation
is supported, fails, silently differs or is unknown, under optional conditions (``when``).  Its fields:

==================  ======================================================================================
id                  unique name
backends            backend ids (``data/backends.toml``)
versions            the releases of the record's library it holds for (``>=2.6,<2.8``); ``*`` = every
                    release the library's scope covers
bounds              the source deciding each bound: ``since`` (lower), ``until`` (upper), ``every`` (for
                    ``*``: why it holds in every release checked), ``opset`` (for ``when.opset``),
                    ``converter`` (for ``converter_versions``)
devices             devices it applies to (``*`` = every device)
modes               mode names in the backends' own spelling (``*`` = every mode)
operation           forward | backward | double_backward | convention | export_onnx | export_coreml |
                    export_tflite | convert (a converter or importer refuses or rewrites the model: onnx2ncnn,
                    onnx-tf, TVM's frontends, MIGraphX's parser)
status              supported | fails | differs | unknown
severity            optional override of the severity the status implies (error / differs / warning / info)
versus              for ``differs``: the libraries or backends whose numbers it differs from (``*`` = all)
error_type          the exception class, ``panic``, or ``warning``
error_text          the exact text the newest releases print; ``{name}`` marks a part the library fills in
wordings            older texts of the same failure: ``[[record.wordings]]`` with ``versions``, ``text``,
                    ``source`` and ``evidence``; a release in a wording's range prints that wording
also_seen           other exact texts of the same failure in the same releases (another rank, direction)
message             what happens and why, in plain language
source              URL, ``owner/repo path @ commit``, release files, or ``measured: ...`` (what was run)
evidence            measured (run with the real library) | source (read in its code or release files) |
                    reported (an issue thread or documentation)
converter           the package whose version decides the record when it is not the backend's library
                    (``onnxscript`` for the dynamo exporter, ``coremltools`` for Core ML conversion)
converter_versions  the converter's versions the record holds for
fixes               ids of ``data/fixes.toml`` entries
shared_text         true when the text is printed for any operation, not only resizes (``only Tensors of
                    floating point dtype can require gradients``): diagnose does not claim it
generic_text        true when other calls of the library print the same text too (Pillow's ``image has wrong
                    mode``): diagnose claims it only when the paste also names a resize (a resize call,
                    operator or node)
when                conditions: dtype, spatial_dims, align_corners (true / false / "unset"), antialias,
                    deterministic, exporter, opset (a range), ratio, scale_factor, argument; and the ONNX
                    attributes of the node (``ATTRIBUTE_KEYS``: coordinate_transformation_mode, nearest_mode,
                    exclude_outside, keep_aspect_ratio_policy, cubic_coeff_a, extrapolation_value), each a
                    value or a list of values in ONNX's spelling
==================  ======================================================================================

``ratio`` conditions are about the sizes: downscale, non_integer, non_integer_upscale, non_uniform,
non_divisible, empty.  ``argument`` marks a failure caused by an argument :func:`check` does not take; such
records are found by :func:`~explorer.advisor.diagnose` and the linter only.

>>> kb = load()
>>> kb.record("burn-tch-nearest-exact-backward").error_text
'nearest exact interpolation backward is not supported by PyTorch/tch backend'
>>> kb.backend("burn-libtorch").id
'burn-tch'
>>> kb.record("torch-antialias-scope").text_at("2.5.1")
'Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor as input'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources

from ..conventions import mode_names as names
from ..conventions import registry
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from ..versions import VersionRange, describe_range, parse_version

STATUSES = ("supported", "fails", "differs", "unknown")
SEVERITIES = ("error", "differs", "warning", "info")
OPERATIONS = ("forward", "backward", "double_backward", "convention", "export_onnx", "export_coreml",
              "export_tflite", "convert")
EVIDENCE = ("measured", "source", "reported")
FIX_KINDS = ("mode", "convention", "setting", "backend", "version", "device", "environment", "workaround",
             "export")
#: conditions on the ONNX ``Resize`` node a runtime is given (``Question.attributes``), in ONNX's spelling
ATTRIBUTE_KEYS = ("coordinate_transformation_mode", "nearest_mode", "exclude_outside", "keep_aspect_ratio_policy",
                  "cubic_coeff_a", "extrapolation_value")
WHEN_KEYS = ("dtype", "spatial_dims", "align_corners", "antialias", "deterministic", "exporter", "opset",
             "ratio", "scale_factor", "argument") + ATTRIBUTE_KEYS
RATIOS = ("downscale", "non_integer", "non_integer_upscale", "non_uniform", "non_divisible", "empty")
CHANGE_KEYS = ("mode", "backend", "version", "device", "align_corners", "antialias", "dtype", "exporter",
               "opset")
BOUND_KEYS = ("since", "until", "every", "opset", "converter")
EXPORTERS = ("torchscript", "dynamo")

# Severity rules.  A record's status decides how loud its finding is, unless the record overrides it:
#   fails     -> error    the user's code raises or panics (or, for backward records, training cannot run)
#   differs   -> differs  it runs, but computes other numbers than the library the user compares with
#   unknown   -> warning  nobody has established what happens; the user has to check before relying on it
#   supported -> info     a fact worth knowing (a decomposition, a placement, a default), nothing breaks
# A record sets ``severity`` only when the status alone misleads: a warning logged while the call succeeds
# (``supported`` + ``warning``), a ``differs`` too small to matter (``info``), or a template text that only
# names the wording of a family of errors (``info``).  findings.py demotes these defaults further when the
# finding depends on something the user did not say (see its ``_DEMOTE``).
DEFAULT_SEVERITY = {"fails": "error", "differs": "differs", "unknown": "warning", "supported": "info"}


@dataclass(frozen=True)
class Releases:
    """A runtime the knowledge base covers, the releases it checked (``scope``) and the newest of them: the
    ``[runtime]`` table of its data file."""

    name: str
    scope: VersionRange
    newest: str
    scope_source: str
    note: str = ""
    opsets: VersionRange | None = None
    opset_source: str = ""
    export_defaults: tuple = ()
    release_commits: dict = field(default_factory=dict)

    def in_scope(self, version: str) -> bool:
        return self.scope.contains(version)

    @property
    def oldest(self) -> str:
        lower = [v for op, v in self.scope.raw_clauses if op in (">=", "==")]
        return lower[0] if lower else self.newest

    def describe(self, versions: VersionRange) -> str:
        return describe_range(self.name, versions, self.scope)


@dataclass(frozen=True)
class ExportDefault:
    """What ``torch.onnx.export`` does when the caller does not choose: exporter and opset, by release."""

    versions: VersionRange
    exporter: str
    opset: int
    source: str


@dataclass(frozen=True)
class Backend:
    """One backend as the knowledge base reads it: its runtime (the data file with its records), devices, how
    its modes are spelled; made from the backend's declaration (``declared``)."""

    id: str
    runtime: str
    description: str
    devices: tuple[str, ...]
    code: str
    names: str | None = None
    modes: dict = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    available: VersionRange = VersionRange("*")
    rust_type: str | None = None
    declared: object = field(default=None, compare=False, repr=False)

    @property
    def library(self) -> str:
        """The runtime id (the knowledge base's name for what a backend belongs to; see :attr:`runtime`)."""
        return self.runtime

    def mode_table(self) -> dict[str, str]:
        """Native mode name -> family."""
        if self.names is not None:
            return names.library_modes(self.names)
        return dict(self.modes)

    def native_mode(self, mode: str) -> str:
        """The backend's own name for ``mode`` given in any library's spelling.

        A name no library uses raises ValueError with the valid choices; a known mode this backend lacks
        raises :class:`ModeUnavailable` (a ValueError too).
        """
        if self.names is not None:
            try:
                return names.library_mode(self.names, mode)
            except ValueError:
                family = _family_or_raise(mode, self.mode_table())
                raise ModeUnavailable(self, mode, family) from None
        key = names.spelling_key(mode)
        for native in self.modes:
            if names.spelling_key(native) == key:
                return native
        family = _family_or_raise(mode, self.modes)
        for native, fam in self.modes.items():
            if fam == family:
                return native
        raise ModeUnavailable(self, mode, family)

    def family(self, native: str) -> str:
        return self.mode_table()[native]


class ModeUnavailable(ValueError):
    """A mode every library knows of, which this backend does not have."""

    def __init__(self, backend: Backend, mode: str, family: str):
        self.backend, self.mode, self.family = backend, mode, family
        super().__init__(f"mode={mode!r} ({names.FAMILIES.get(family, family)}) does not exist on {backend.id}; "
                         f"it has: {', '.join(sorted(backend.mode_table()))}")


def _family_or_raise(mode: str, table: dict) -> str:
    family = names.generic_family(mode) or names.native_spellings().get(names.spelling_key(mode))
    if family is None:
        raise choice_error("mode", mode, sorted(set(table) | set(names.FAMILIES)))
    return family


@dataclass(frozen=True)
class Wording:
    """An older text of a record's failure and the releases that print it."""

    text: str
    versions: VersionRange
    source: str
    evidence: str = "source"


@dataclass(frozen=True)
class Record:
    id: str
    runtime: str
    backends: tuple[str, ...]
    modes: tuple[str, ...]
    operation: str
    status: str
    message: str
    source: str
    versions: VersionRange = VersionRange("*")
    bounds: dict = field(default_factory=dict)
    devices: tuple[str, ...] = ("*",)
    severity: str | None = None
    versus: tuple[str, ...] = ()
    error_type: str | None = None
    error_text: str | None = None
    wordings: tuple[Wording, ...] = ()
    also_seen: tuple[str, ...] = ()
    evidence: str = "reported"
    converter: str | None = None
    converter_versions: VersionRange = VersionRange("*")
    fixes: tuple[str, ...] = ()
    when: dict = field(default_factory=dict)
    shared_text: bool = False
    generic_text: bool = False

    @property
    def library(self) -> str:
        """The runtime id of the record's data file (see :attr:`runtime`)."""
        return self.runtime

    @property
    def default_severity(self) -> str:
        return self.severity or DEFAULT_SEVERITY[self.status]

    @property
    def texts(self) -> tuple[str, ...]:
        """Every exact text of the failure: the newest wording, the older ones, the variants."""
        return tuple(t for t in (self.error_text, *(w.text for w in self.wordings), *self.also_seen) if t)

    def text_at(self, version: str | None) -> str | None:
        """The text the given release prints (the newest wording when ``version`` is None)."""
        if version is not None:
            for wording in self.wordings:
                if wording.versions.contains(version):
                    return wording.text
        return self.error_text

    def wording_versions(self, text: str) -> VersionRange:
        """The releases that print ``text`` (one of :attr:`texts`)."""
        for wording in self.wordings:
            if wording.text == text:
                return wording.versions
        return self.versions


@dataclass(frozen=True)
class FixDef:
    id: str
    kind: str
    change: dict
    language: str | None = None
    code: str | None = None
    note: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class KnowledgeBase:
    backends: dict[str, Backend]
    runtimes: dict[str, Releases]
    records: tuple[Record, ...]
    fixes: dict[str, FixDef]

    def backend(self, name: str) -> Backend:
        """The backend with this id or alias (case and ``_``/``-`` insensitive)."""
        if not isinstance(name, str):
            raise ArgumentTypeError(f"backend must be a string such as 'burn-tch', got {name!r}")
        key = name.strip().lower().replace("_", "-")
        for backend in self.backends.values():
            if key == backend.id or key in backend.aliases:
                return backend
        raise choice_error("backend", name, self.backends)

    def record(self, record_id: str) -> Record:
        for record in self.records:
            if record.id == record_id:
                return record
        raise choice_error("record", record_id, [r.id for r in self.records])

    def versions(self, library: str) -> list[str]:
        """The releases where some answer about ``library`` changes, oldest first, from the records' ranges.

        Each is the first release of an era: every release from it up to the next one gets the same answers.
        The list starts at the oldest release checked and ends with the newest.

        >>> load().versions("torch")[:4]
        ['2.0', '2.1', '2.2', '2.3']
        """
        lib = self.runtimes[library]
        found = {lib.oldest, lib.newest}
        for record in self.records:
            if record.runtime == library:
                found.update(record.versions.bound_versions())
                for wording in record.wordings:
                    found.update(wording.versions.bound_versions())
        found.update(v for d in lib.export_defaults for v in d.versions.bound_versions())
        keep = [v for v in found if lib.in_scope(v)]
        by_key = {}
        for v in sorted(keep, key=lambda v: (parse_version(v), len(v))):
            by_key.setdefault(parse_version(v), v)  # '2.6' and '2.6.0' are one release
        return list(by_key.values())

    def opsets(self, backend_id: str) -> list[int]:
        """The ONNX opsets where some answer for this backend changes (empty when opsets do not apply)."""
        backend = self.backends[backend_id]
        lib = self.runtimes[backend.runtime]
        if lib.opsets is None:
            return []
        found = set(lib.opsets.bound_versions())
        for record in self.records:
            if backend_id in record.backends and "opset" in record.when:
                found.update(VersionRange(str(record.when["opset"])).bound_versions())
        found.update(str(d.opset) for d in lib.export_defaults)
        return sorted({int(parse_version(v)[0]) for v in found if lib.opsets.contains(v)})


def _tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,)


def _read(name: str) -> dict:
    """A data file: a name in ``data/`` or an absolute path (a runtime declared with its own ``data_file``)."""
    if name.startswith("/") or name.startswith("."):
        with open(name, "rb") as fh:
            return tomllib.load(fh)
    with resources.files(__package__).joinpath("data").joinpath(name).open("rb") as fh:
        return tomllib.load(fh)


def _releases(name: str, entry: dict) -> Releases:
    defaults = tuple(ExportDefault(VersionRange(d["versions"]), d["exporter"], int(d["opset"]), d["source"])
                     for d in entry.get("export_default", []))
    opsets = entry.get("opsets")
    return Releases(name=name, scope=VersionRange(entry["scope"]), newest=entry["newest"],
                    scope_source=entry["scope_source"], note=entry.get("note", ""),
                    opsets=VersionRange(opsets) if opsets else None, opset_source=entry.get("opset_source", ""),
                    export_defaults=defaults, release_commits=dict(entry.get("release_commits", {})))


def _backend(runtime_id: str, b) -> Backend:
    return Backend(id=b.id, runtime=runtime_id, description=b.description, devices=tuple(b.devices), code=b.code,
                   names=b.spelling, modes=dict(b.modes), aliases=tuple(b.aliases),
                   available=VersionRange(b.available), rust_type=b.rust_type, declared=b)


def _record(runtime: str, entry: dict) -> Record:
    entry = dict(entry)
    record_id = entry.pop("id")
    if "versions" not in entry:
        raise ArgumentValueError(f"record {record_id!r} in {runtime}.toml has no versions: write the releases it "
                                 "holds for ('*' for every release checked) and the sources of the bounds")
    wordings = tuple(Wording(text=w["text"], versions=VersionRange(w["versions"]), source=w["source"],
                             evidence=w.get("evidence", "source")) for w in entry.pop("wordings", []))
    record = Record(
        id=record_id, runtime=runtime, backends=_tuple(entry.pop("backends")),
        modes=_tuple(entry.pop("modes", "*")), operation=entry.pop("operation"), status=entry.pop("status"),
        message=entry.pop("message"), source=entry.pop("source", ""),
        versions=VersionRange(entry.pop("versions")),
        bounds=dict(entry.pop("bounds", {})), devices=_tuple(entry.pop("devices", "*")),
        severity=entry.pop("severity", None), versus=_tuple(entry.pop("versus", None)),
        error_type=entry.pop("error_type", None), error_text=entry.pop("error_text", None), wordings=wordings,
        also_seen=_tuple(entry.pop("also_seen", None)), evidence=entry.pop("evidence", "reported"),
        converter=entry.pop("converter", None),
        converter_versions=VersionRange(entry.pop("converter_versions", "*")),
        fixes=_tuple(entry.pop("fixes", None)), when=dict(entry.pop("when", {})),
        shared_text=bool(entry.pop("shared_text", False)), generic_text=bool(entry.pop("generic_text", False)))
    if entry:
        raise ArgumentValueError(f"record {record_id!r} in {runtime}.toml has unknown fields {sorted(entry)}")
    return record


def data_file(runtime) -> str:
    """The data file of a declared runtime: its own ``data_file``, else ``<id>.toml`` in ``data/``."""
    return runtime.data_file or f"{runtime.id}.toml"


@registry.derived
def load() -> KnowledgeBase:
    """Read and index every declared runtime's data file (cached until a declaration changes)."""
    runtimes, backends, records = {}, {}, []
    for rt in registry.all_runtimes():
        raw = _read(data_file(rt))
        if "runtime" not in raw:
            raise ArgumentValueError(f"{data_file(rt)} has no [runtime] table: give the releases its records were "
                                     "checked against (scope, newest, scope_source)")
        runtimes[rt.id] = _releases(rt.id, raw["runtime"])
        backends.update((b.id, _backend(rt.id, b)) for b in rt.backends)
        records.extend(_record(rt.id, entry) for entry in raw.get("record", []))
    fixes = {fid: FixDef(id=fid, kind=entry["kind"], change=dict(entry.get("change", {})),
                         language=entry.get("language"), code=entry.get("code"), note=entry.get("note"),
                         description=entry.get("description"))
             for fid, entry in _read("fixes.toml")["fix"].items()}
    return KnowledgeBase(backends=backends, runtimes=runtimes, records=tuple(records), fixes=fixes)

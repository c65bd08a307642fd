"""The knowledge base: backends, records and fixes, read from the TOML files in ``explorer/advisor/data``.

A *record* states one capability: on these backends, versions and devices, for these modes, this operation
is supported, fails, silently differs or is unknown, under optional conditions (``when``).  Its fields:

=============  ===========================================================================================
id             unique name
backends       backend ids (``data/backends.toml``)
versions       version range of the backend's library (``*`` = every version)
devices        devices it applies to (``*`` = every device)
modes          mode names in the backends' own spelling (``*`` = every mode)
operation      forward | backward | double_backward | convention | export_onnx | export_coreml
status         supported | fails | differs | unknown
severity       optional override of the severity the status implies (error / differs / warning / info)
versus         for ``differs``: the libraries or backends whose numbers it differs from (``*`` = all)
error_type     the exception class, ``panic``, or ``warning``
error_text     the exact text the user sees; ``{name}`` marks a part the library fills in
also_seen      other exact texts of the same failure (other modes of execution, older releases)
message        what happens and why, in plain language
source         URL, or ``owner/repo path @ commit``
evidence       measured | source | reported
fixes          ids of ``data/fixes.toml`` entries
when           conditions: dtype, spatial_dims, align_corners (true / false / "unset"), antialias,
               deterministic, exporter, opset (a range), ratio, scale_factor, argument
=============  ===========================================================================================

``ratio`` conditions are about the sizes: downscale, non_integer, non_integer_upscale, non_uniform,
non_divisible, empty.  ``argument`` marks a failure caused by an argument :func:`check` does not take; such
records are found by :func:`~explorer.advisor.diagnose` and the linter only.

>>> kb = load()
>>> kb.record("burn-tch-nearest-exact-backward").error_text
'nearest exact interpolation backward is not supported by PyTorch/tch backend'
>>> kb.backend("burn-libtorch").id
'burn-tch'
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources

from ..conventions import mode_names as names
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from .versions import VersionRange, parse_version

STATUSES = ("supported", "fails", "differs", "unknown")
SEVERITIES = ("error", "differs", "warning", "info")
OPERATIONS = ("forward", "backward", "double_backward", "convention", "export_onnx", "export_coreml")
EVIDENCE = ("measured", "source", "reported")
FIX_KINDS = ("mode", "convention", "setting", "backend", "version", "device", "environment", "workaround",
             "export")
WHEN_KEYS = ("dtype", "spatial_dims", "align_corners", "antialias", "deterministic", "exporter", "opset",
             "ratio", "scale_factor", "argument")
RATIOS = ("downscale", "non_integer", "non_integer_upscale", "non_uniform", "non_divisible", "empty")
CHANGE_KEYS = ("mode", "backend", "version", "device", "align_corners", "antialias", "dtype", "exporter",
               "opset")
DEFAULT_SEVERITY = {"fails": "error", "differs": "differs", "unknown": "warning", "supported": "info"}


@dataclass(frozen=True)
class Backend:
    """One backend id: which library, which devices, how its modes are spelled."""

    id: str
    library: str
    description: str
    devices: tuple[str, ...]
    code: str
    names: str | None = None
    modes: dict = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    available: VersionRange = VersionRange("*")
    rust_type: str | None = None

    def mode_table(self) -> dict[str, str]:
        """Native mode name -> family."""
        if self.names is not None:
            return dict(names.LIBRARY_MODES[names.library_id(self.names)])
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
    key = names.spelling_key(mode)
    family = names.generic_family(mode)
    if family is None:
        for lib_modes in names.LIBRARY_MODES.values():
            for native, fam in lib_modes.items():
                if names.spelling_key(native) == key:
                    family = fam
                    break
            if family:
                break
    if family is None:
        raise choice_error("mode", mode, sorted(set(table) | set(names.FAMILIES)))
    return family


@dataclass(frozen=True)
class Record:
    id: str
    library: str
    backends: tuple[str, ...]
    modes: tuple[str, ...]
    operation: str
    status: str
    message: str
    source: str
    versions: VersionRange = VersionRange("*")
    devices: tuple[str, ...] = ("*",)
    severity: str | None = None
    versus: tuple[str, ...] = ()
    error_type: str | None = None
    error_text: str | None = None
    also_seen: tuple[str, ...] = ()
    evidence: str = "reported"
    fixes: tuple[str, ...] = ()
    when: dict = field(default_factory=dict)

    @property
    def default_severity(self) -> str:
        return self.severity or DEFAULT_SEVERITY[self.status]

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(t for t in (self.error_text, *self.also_seen) if t)


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
    libraries: dict[str, dict]
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
        return list(self.libraries[library].get("versions", []))


def _tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,)


def _read(name: str) -> dict:
    with resources.files(__package__).joinpath("data").joinpath(name).open("rb") as fh:
        return tomllib.load(fh)


DATA_FILES = ("burn", "torch", "tensorflow", "jax", "onnxruntime", "opencv", "pillow", "keras", "mlx", "coreml",
              "tensorrt", "candle")


@functools.lru_cache(maxsize=1)
def load() -> KnowledgeBase:
    """Read and index every data file (cached)."""
    raw = _read("backends.toml")
    backends = {}
    for bid, entry in raw["backend"].items():
        backends[bid] = Backend(
            id=bid, library=entry["library"], description=entry["description"],
            devices=tuple(entry["devices"]), code=entry["code"], names=entry.get("names"),
            modes=dict(entry.get("modes", {})), aliases=_tuple(entry.get("aliases")),
            available=VersionRange(entry.get("available", "*")), rust_type=entry.get("rust_type"))
    records = []
    for library in DATA_FILES:
        for entry in _read(f"{library}.toml").get("record", []):
            entry = dict(entry)
            records.append(Record(
                id=entry.pop("id"), library=library, backends=_tuple(entry.pop("backends")),
                modes=_tuple(entry.pop("modes", "*")), operation=entry.pop("operation"),
                status=entry.pop("status"), message=entry.pop("message"), source=entry.pop("source", ""),
                versions=VersionRange(entry.pop("versions", "*")), devices=_tuple(entry.pop("devices", "*")),
                severity=entry.pop("severity", None), versus=_tuple(entry.pop("versus", None)),
                error_type=entry.pop("error_type", None), error_text=entry.pop("error_text", None),
                also_seen=_tuple(entry.pop("also_seen", None)), evidence=entry.pop("evidence", "reported"),
                fixes=_tuple(entry.pop("fixes", None)), when=dict(entry.pop("when", {})),
                ))
            if entry:
                raise ArgumentValueError(f"record {records[-1].id!r} in {library}.toml has unknown fields {sorted(entry)}")
    fixes = {}
    for fid, entry in _read("fixes.toml")["fix"].items():
        fixes[fid] = FixDef(id=fid, kind=entry["kind"], change=dict(entry.get("change", {})),
                            language=entry.get("language"), code=entry.get("code"), note=entry.get("note"),
                            description=entry.get("description"))
    return KnowledgeBase(backends=backends, libraries=raw["library"], records=tuple(records), fixes=fixes)


def validate(kb: KnowledgeBase | None = None) -> list[str]:
    """Every problem in the knowledge base, as readable lines (an empty list when it is consistent).

    >>> validate()
    []
    """
    kb = kb or load()
    problems = []
    seen = set()
    for lib, info in kb.libraries.items():
        for v in info.get("versions", []):
            try:
                parse_version(v)
            except ValueError as exc:
                problems.append(f"library {lib}: {exc}")
    for b in kb.backends.values():
        if b.library not in kb.libraries:
            problems.append(f"backend {b.id}: library {b.library!r} has no [library] entry")
        if b.names is not None and names.library_id(b.names) not in names.LIBRARY_MODES:
            problems.append(f"backend {b.id}: names={b.names!r} is not an explorer.conventions.mode_names library")
        for native, family in b.mode_table().items():
            if family not in names.FAMILIES:
                problems.append(f"backend {b.id}: mode {native!r} has unknown family {family!r}")
    for r in kb.records:
        where = f"record {r.id}"
        if r.id in seen:
            problems.append(f"{where}: duplicate id")
        seen.add(r.id)
        if not r.source.strip() or not ("://" in r.source or " @ " in r.source or "commit" in r.source):
            problems.append(f"{where}: source must be a URL or 'owner/repo path @ commit'")
        if r.status not in STATUSES:
            problems.append(f"{where}: status {r.status!r} not in {STATUSES}")
        if r.severity is not None and r.severity not in SEVERITIES:
            problems.append(f"{where}: severity {r.severity!r} not in {SEVERITIES}")
        if r.operation not in OPERATIONS:
            problems.append(f"{where}: operation {r.operation!r} not in {OPERATIONS}")
        if r.evidence not in EVIDENCE:
            problems.append(f"{where}: evidence {r.evidence!r} not in {EVIDENCE}")
        if r.status == "differs" and not r.versus:
            problems.append(f"{where}: a 'differs' record must say versus what")
        if not r.message.strip():
            problems.append(f"{where}: empty message")
        try:
            r.versions.clauses
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
        for key, value in r.when.items():
            if key not in WHEN_KEYS:
                problems.append(f"{where}: unknown condition when.{key}")
            if key == "ratio" and value not in RATIOS:
                problems.append(f"{where}: when.ratio {value!r} not in {RATIOS}")
            if key == "opset":
                try:
                    VersionRange(str(value).replace("<", "<").strip()).clauses
                except ValueError as exc:
                    problems.append(f"{where}: when.opset: {exc}")
        for bid in r.backends:
            if bid not in kb.backends:
                problems.append(f"{where}: unknown backend {bid!r}")
                continue
            backend = kb.backends[bid]
            versions = kb.versions(backend.library)
            for d in r.devices:
                if d != "*" and d not in backend.devices:
                    problems.append(f"{where}: device {d!r} unknown for {bid} ({backend.devices})")
            for m in r.modes:
                if m == "*":
                    continue
                if m not in backend.mode_table():
                    problems.append(f"{where}: mode {m!r} is not a native mode of {bid}")
                else:
                    try:
                        if backend.native_mode(m) != m:
                            problems.append(f"{where}: mode {m!r} does not name itself on {bid}")
                    except ValueError as exc:
                        problems.append(f"{where}: {exc}")
            if versions and r.versions.clauses and not any(r.versions.contains(v) for v in versions):
                problems.append(f"{where}: range {r.versions} contains no known {backend.library} version")
        for fid in r.fixes:
            if fid not in kb.fixes:
                problems.append(f"{where}: unknown fix {fid!r}")
    for fix in kb.fixes.values():
        if fix.kind not in FIX_KINDS:
            problems.append(f"fix {fix.id}: kind {fix.kind!r} not in {FIX_KINDS}")
        for key in fix.change:
            if key not in CHANGE_KEYS:
                problems.append(f"fix {fix.id}: unknown change key {key!r}")
        if "backend" in fix.change and fix.change["backend"] not in kb.backends:
            problems.append(f"fix {fix.id}: unknown backend {fix.change['backend']!r}")
    return problems

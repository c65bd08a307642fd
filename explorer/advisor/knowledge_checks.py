"""Every rule a knowledge base must satisfy, as one small check per part: libraries, backends, records, fixes.

``validate`` returns readable lines (an empty list when the knowledge base is consistent); the test suite
fails on any of them.

>>> validate()
[]
"""

from __future__ import annotations

from ..conventions import mode_names as names
from .knowledge import (BOUND_KEYS, CHANGE_KEYS, EVIDENCE, EXPORTERS, FIX_KINDS, OPERATIONS, RATIOS, SEVERITIES,
                        STATUSES, WHEN_KEYS, KnowledgeBase, Record, load)
from ..versions import VersionRange, parse_version

#: A source someone else can check names one of these: a link, a file at a commit, a release's files, a run.
_CHECKABLE_SOURCES = ("://", " @ ", "commit", "wheel", "measured:")


def validate(kb: KnowledgeBase | None = None) -> list[str]:
    """Every problem in the knowledge base, as readable lines."""
    kb = kb or load()
    problems = []
    problems += library_problems(kb)
    problems += backend_problems(kb)
    seen = set()
    for record in kb.records:
        if record.id in seen:
            problems.append(f"record {record.id}: duplicate id")
        seen.add(record.id)
        problems += [f"record {record.id}: {p}" for p in record_problems(kb, record)]
    problems += fix_problems(kb)
    return problems


def library_problems(kb: KnowledgeBase) -> list[str]:
    out = []
    for lib in kb.runtimes.values():
        if not lib.scope_source.strip():
            out.append(f"library {lib.name}: scope_source must say which releases were read or run")
        if not lib.in_scope(lib.newest):
            out.append(f"library {lib.name}: newest {lib.newest} is outside its scope {lib.scope}")
        for default in lib.export_defaults:
            if default.exporter not in EXPORTERS:
                out.append(f"library {lib.name}: export default exporter {default.exporter!r} not in {EXPORTERS}")
    return out


def backend_problems(kb: KnowledgeBase) -> list[str]:
    out = []
    for b in kb.backends.values():
        if b.runtime not in kb.runtimes:
            out.append(f"backend {b.id}: runtime {b.runtime!r} has no [runtime] table")
        if b.names is not None and b.names not in names.libraries():
            out.append(f"backend {b.id}: spelling={b.names!r} is not a declared library")
        for native, family in b.mode_table().items():
            if family not in names.FAMILIES:
                out.append(f"backend {b.id}: mode {native!r} has unknown family {family!r}")
    return out


def record_problems(kb: KnowledgeBase, r: Record) -> list[str]:
    return (_field_problems(r) + _bound_problems(r) + _wording_problems(kb, r) + _when_problems(r)
            + _reference_problems(kb, r))


def _field_problems(r: Record) -> list[str]:
    out = []
    if not any(key in r.source for key in _CHECKABLE_SOURCES):
        out.append("source must be a URL, 'owner/repo path @ commit', release files ('... of the 2.5.0 wheel') "
                   "or say what was measured")
    for name, value, allowed in (("status", r.status, STATUSES), ("operation", r.operation, OPERATIONS),
                                 ("evidence", r.evidence, EVIDENCE)):
        if value not in allowed:
            out.append(f"{name} {value!r} not in {allowed}")
    if r.severity is not None and r.severity not in SEVERITIES:
        out.append(f"severity {r.severity!r} not in {SEVERITIES}")
    if r.status == "differs" and not r.versus:
        out.append("a 'differs' record must say versus what")
    if not r.message.strip():
        out.append("empty message")
    if r.status == "fails" and r.error_type == "panic" and not r.error_text:
        out.append("a panic record quotes the panic")
    if r.operation == "double_backward" and r.severity is None:
        out.append("a double_backward record sets its severity (info unless a second-order failure stops most "
                   "training)")
    return out


def _bound_problems(r: Record) -> list[str]:
    """Each bound of a range names what decides it."""
    out = [f"bounds.{key} is not a bound key ({BOUND_KEYS})" for key in r.bounds if key not in BOUND_KEYS]
    needed = []
    if r.versions.every:
        needed.append(("every", "versions='*' needs bounds.every: why it holds in every release checked"))
    if r.versions.has_lower:
        needed.append(("since", f"versions {r.versions} has a lower bound: bounds.since names what decides it"))
    if r.versions.has_upper:
        needed.append(("until", f"versions {r.versions} has an upper bound: bounds.until names what decides it"))
    if "opset" in r.when:
        needed.append(("opset", "when.opset needs bounds.opset: the schema or run that decides it"))
    if r.converter is not None:
        needed.append(("converter", "converter_versions needs bounds.converter: what decides them"))
    elif not r.converter_versions.every:
        out.append("converter_versions without converter")
    for key, text in needed:
        if not str(r.bounds.get(key, "")).strip():
            out.append(text)
    return out


def _wording_problems(kb: KnowledgeBase, r: Record) -> list[str]:
    out = []
    for w in r.wordings:
        if w.evidence not in EVIDENCE:
            out.append(f"wording {w.text[:30]!r}: evidence {w.evidence!r} not in {EVIDENCE}")
        if not w.source.strip():
            out.append(f"wording {w.text[:30]!r}: no source")
        if w.versions.every:
            out.append(f"wording {w.text[:30]!r}: a wording holds for some releases only")
    lib = kb.runtimes.get(r.library)
    if lib is not None and len(r.wordings) > 1:
        for v in kb.versions(r.library):
            holding = [w.text[:30] for w in r.wordings if w.versions.contains(v)]
            if len(holding) > 1:
                out.append(f"wordings overlap at {r.library} {v}: {holding}")
    return out


def _when_problems(r: Record) -> list[str]:
    out = []
    for key, value in r.when.items():
        if key not in WHEN_KEYS:
            out.append(f"unknown condition when.{key}")
        if key == "ratio" and value not in RATIOS:
            out.append(f"when.ratio {value!r} not in {RATIOS}")
        if key == "exporter" and not set(value) <= set(EXPORTERS):
            out.append(f"when.exporter {value!r} not in {EXPORTERS}")
        if key == "opset":
            try:
                VersionRange(str(value)).clauses
            except ValueError as exc:
                out.append(f"when.opset: {exc}")
    return out


def _reference_problems(kb: KnowledgeBase, r: Record) -> list[str]:
    """Backends, devices, modes, versions and fixes the record names exist."""
    out = []
    lib = kb.runtimes.get(r.library)
    if (lib is not None and not r.versions.every and not any(r.versions.contains(v) for v in kb.versions(r.library))
            and not _before_scope(r.versions, lib.oldest)):
        out.append(f"range {r.versions} contains no {r.library} release in scope {lib.scope}")
    for bid in r.backends:
        if bid not in kb.backends:
            out.append(f"unknown backend {bid!r}")
            continue
        backend = kb.backends[bid]
        out += [f"device {d!r} unknown for {bid} ({backend.devices})" for d in r.devices
                if d != "*" and d not in backend.devices]
        out += _mode_problems(backend, r)
    out += [f"unknown fix {fid!r}" for fid in r.fixes if fid not in kb.fixes]
    return out


def _before_scope(versions: VersionRange, oldest: str) -> bool:
    """A historical record: it ends before the oldest release checked (kept to read old tracebacks)."""
    return any(op in ("<", "<=") and parse_version(v) <= parse_version(oldest) for op, v in versions.raw_clauses)


def _mode_problems(backend, r: Record) -> list[str]:
    out = []
    for m in r.modes:
        if m == "*":
            continue
        if m not in backend.mode_table():
            out.append(f"mode {m!r} is not a native mode of {backend.id}")
            continue
        try:
            if backend.native_mode(m) != m:
                out.append(f"mode {m!r} does not name itself on {backend.id}")
        except ValueError as exc:
            out.append(str(exc))
    return out


def fix_problems(kb: KnowledgeBase) -> list[str]:
    out = []
    for fix in kb.fixes.values():
        if fix.kind not in FIX_KINDS:
            out.append(f"fix {fix.id}: kind {fix.kind!r} not in {FIX_KINDS}")
        out += [f"fix {fix.id}: unknown change key {key!r}" for key in fix.change if key not in CHANGE_KEYS]
        if "backend" in fix.change and fix.change["backend"] not in kb.backends:
            out.append(f"fix {fix.id}: unknown backend {fix.change['backend']!r}")
    return out

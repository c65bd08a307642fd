"""The knowledge base is consistent: every record has its versions and the source of each bound, statuses,
wordings, backend and mode names."""

from __future__ import annotations

import dataclasses

import pytest

from explorer.conventions import mode_names as names
from explorer.advisor import knowledge, knowledge_checks
from explorer.conventions import registry
from explorer.versions import VersionRange, parse_version

KB = knowledge.load()


def test_validate_reports_nothing():
    assert knowledge_checks.validate() == []


@pytest.mark.parametrize("record", KB.records, ids=lambda r: r.id)
def test_record_fields(record):
    assert record.source.strip(), "every record names its source"
    assert record.status in knowledge.STATUSES
    assert record.operation in knowledge.OPERATIONS
    assert record.evidence in knowledge.EVIDENCE
    record.versions.clauses  # parses
    # every bound of the range names what decides it
    if record.versions.every:
        assert record.bounds.get("every")
    if record.versions.has_lower:
        assert record.bounds.get("since")
    if record.versions.has_upper:
        assert record.bounds.get("until")
    if "opset" in record.when:
        assert record.bounds.get("opset")
    for wording in record.wordings:
        assert wording.source and not wording.versions.every
    if record.status == "fails" and record.error_type == "panic":
        assert record.error_text, "a panic record quotes the panic"
    for backend_id in record.backends:
        backend = KB.backends[backend_id]
        for mode in record.modes:
            if mode == "*":
                continue
            assert backend.native_mode(mode) == mode
            family = backend.family(mode)
            assert family in names.FAMILIES
            if backend.names is not None:  # the engine's own name tables know it
                assert names.library_mode(backend.names, mode) == mode


def test_every_library_has_records_and_a_scope():
    libraries = {r.library for r in KB.records}
    for expected in ("burn", "torch", "tensorflow", "jax", "onnxruntime", "opencv", "pillow", "keras", "mlx",
                     "coreml", "tensorrt", "candle"):
        assert expected in libraries
        lib = KB.runtimes[expected]
        assert lib.in_scope(lib.newest) and lib.in_scope(lib.oldest) and lib.scope_source


def test_burn_coverage_backends_and_versions():
    burn_backends = {b for r in KB.records if r.library == "burn" for b in r.backends}
    assert {"burn-ndarray", "burn-tch", "burn-flex", "burn-wgpu", "burn-cuda", "burn-rocm", "burn-cpu",
            "burn-candle"} <= burn_backends
    versions = KB.versions("burn")
    assert versions[0] == "0.13.0" and "0.22.0-pre.1" in versions and versions[-1] == "0.22.0-pre.2"
    bug = KB.record("burn-cubecl-nearest-exact-fusion-bug")
    assert [v for v in versions if bug.versions.contains(v)] == ["0.22.0-pre.1"]


def test_version_choices_come_from_the_ranges():
    """Each choice is a release where some record's range starts or stops (plus the oldest and newest)."""
    for library in ("torch", "onnxruntime", "tensorflow", "burn"):
        bounds = {parse_version(v) for r in KB.records if r.library == library
                  for v in r.versions.bound_versions() + [b for w in r.wordings for b in w.versions.bound_versions()]}
        lib = KB.runtimes[library]
        for v in KB.versions(library):
            assert parse_version(v) in bounds | {parse_version(lib.oldest), parse_version(lib.newest)} | {
                d for e in lib.export_defaults for d in map(parse_version, e.versions.bound_versions())}
    assert KB.versions("torch")[:7] == ["2.0", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6"]
    assert KB.opsets("onnxruntime") == [7, 10, 11, 13, 18, 23]


def test_validate_catches_broken_records():
    good = KB.records[0]
    broken = [dataclasses.replace(good, id="x1", source=""),
              dataclasses.replace(good, id="x2", status="maybe"),
              dataclasses.replace(good, id="x3", versions=VersionRange("*"), modes=("NoSuchMode",)),
              dataclasses.replace(good, id="x4", backends=("burn-nowhere",)),
              dataclasses.replace(good, id="x5", fixes=("no-such-fix",)),
              dataclasses.replace(good, id="x6", versions=VersionRange(">=0.15.0"), bounds={}),
              dataclasses.replace(good, id="x7", versions=VersionRange("*"), bounds={"since": "x"}),
              dataclasses.replace(good, id="x8", versions=VersionRange(">=0.30.0"), bounds={"since": "x"})]
    kb = dataclasses.replace(KB, records=tuple(broken))
    problems = knowledge_checks.validate(kb)
    for rid in ("x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8"):
        assert any(p.startswith(f"record {rid}:") for p in problems), rid


def test_a_record_without_versions_is_refused():
    with pytest.raises(ValueError, match="has no versions"):
        knowledge._record("torch", {"id": "x", "backends": ["torch"], "operation": "forward", "status": "fails",
                                    "message": "m"})


def test_version_ranges_and_ordering():
    assert parse_version("0.22.0-pre.1") < parse_version("0.22.0-pre.2") < parse_version("0.22.0")
    assert parse_version("0.21") == parse_version("0.21.0")
    assert parse_version("2.5.1+cu124") == parse_version("2.5.1")
    assert parse_version("10.0.1.6") == parse_version("10.0.1")
    assert parse_version("9.1.dev1") < parse_version("9.1")
    assert VersionRange(">=0.21.0-pre.2,<0.22.0-pre.2").contains("0.21.0")
    assert not VersionRange(">=0.21.0-pre.2,<0.22.0-pre.2").contains("0.22.0-pre.2")
    with pytest.raises(ValueError, match="banana"):
        parse_version("banana")
    with pytest.raises(ValueError, match="must start with"):
        VersionRange("0.21")


def test_package_data_ships_in_the_wheel():
    """hatchling packages everything under explorer/; the data files are read through importlib.resources."""
    from importlib import resources

    data = resources.files("explorer.advisor").joinpath("data")
    files = {p.name for p in data.iterdir()}
    declared = {knowledge.data_file(rt) for rt in registry.all_runtimes()}
    assert len(declared) >= 12 and declared | {"fixes.toml"} <= files

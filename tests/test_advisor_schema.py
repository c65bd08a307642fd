"""The knowledge base is consistent: sources, statuses, version ranges, backend and mode names."""

from __future__ import annotations

import dataclasses

import pytest

from explorer.conventions import mode_names as names
from explorer.advisor import knowledge
from explorer.advisor.versions import VersionRange, parse_version

KB = knowledge.load()


def test_validate_reports_nothing():
    assert knowledge.validate() == []


@pytest.mark.parametrize("record", KB.records, ids=lambda r: r.id)
def test_record_fields(record):
    assert record.source.strip(), "every record names its source"
    assert "://" in record.source or " @ " in record.source or "commit" in record.source
    assert record.status in knowledge.STATUSES
    assert record.operation in knowledge.OPERATIONS
    assert record.evidence in knowledge.EVIDENCE
    record.versions.clauses  # parses
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


def test_every_library_has_records():
    libraries = {r.library for r in KB.records}
    for expected in ("burn", "torch", "tensorflow", "jax", "onnxruntime", "opencv", "pillow", "keras", "mlx",
                     "coreml", "tensorrt", "candle"):
        assert expected in libraries


def test_burn_coverage_backends_and_versions():
    burn_backends = {b for r in KB.records if r.library == "burn" for b in r.backends}
    assert {"burn-ndarray", "burn-tch", "burn-flex", "burn-wgpu", "burn-cuda", "burn-rocm", "burn-cpu",
            "burn-candle"} <= burn_backends
    versions = KB.versions("burn")
    assert versions[0] == "0.13.0" and "0.22.0-pre.1" in versions
    bug = KB.record("burn-cubecl-nearest-exact-fusion-bug")
    assert [v for v in versions if bug.versions.contains(v)] == ["0.22.0-pre.1"]


def test_validate_catches_broken_records():
    good = KB.records[0]
    broken = [dataclasses.replace(good, id="x1", source=""),
              dataclasses.replace(good, id="x2", status="maybe"),
              dataclasses.replace(good, id="x3", versions=VersionRange("*"), modes=("NoSuchMode",)),
              dataclasses.replace(good, id="x4", backends=("burn-nowhere",)),
              dataclasses.replace(good, id="x5", fixes=("no-such-fix",))]
    kb = dataclasses.replace(KB, records=tuple(broken))
    problems = knowledge.validate(kb)
    for rid in ("x1", "x2", "x3", "x4", "x5"):
        assert any(p.startswith(f"record {rid}:") for p in problems), rid


def test_version_ranges_and_ordering():
    assert parse_version("0.22.0-pre.1") < parse_version("0.22.0-pre.2") < parse_version("0.22.0")
    assert parse_version("0.21") == parse_version("0.21.0")
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
    assert {f"{name}.toml" for name in knowledge.DATA_FILES} | {"backends.toml", "fixes.toml"} <= files

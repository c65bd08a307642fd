"""The knowledge base's Burn ONNX-import records and the release-by-release import data (burn_onnx_import.toml)
describe the same import from two sides: check() and diagnose() read the records, scan() reads the eras.  Every
Burn release the knowledge base names must get the same answer from both."""

import pytest

from explorer.advisor import burn_import
from explorer.advisor.knowledge import load

KB = load()
# The releases the knowledge base names, and both bounds of every import era (the first and last release of each).
RELEASES = sorted(set(KB.versions("burn")) | {v for era in burn_import.eras() for v in era.versions.bound_versions()}
                  | {"0.16.0", "0.17.1", "0.20.1", "0.21.0"})


def _era(version):
    return burn_import.era_for(version)


def _converts_resize(era) -> bool:
    return "resize" not in era.errors


@pytest.mark.parametrize("version", RELEASES)
def test_unsupported_attribute_text_is_the_eras(version):
    record = KB.record("burn-onnx-unsupported-attributes")
    era = _era(version)
    assert record.versions.contains(version) == ("antialias" in era.errors), (version, era.id)
    if "antialias" in era.errors:
        text = record.text_at(version)
        assert text in era.errors["antialias"], (version, era.id, text, era.errors["antialias"])


@pytest.mark.parametrize("version", RELEASES)
def test_align_corners_grid_record_covers_the_fixed_grid_eras(version):
    record = KB.record("burn-onnx-align-corners-grid")
    era = _era(version)
    fixed = _converts_resize(era) and era.align_corners == "fixed"
    assert record.versions.contains(version) == fixed, (version, era.id, era.align_corners)


@pytest.mark.parametrize("version", RELEASES)
def test_nearest_floor_record_covers_every_era_that_imports_resize(version):
    record = KB.record("burn-onnx-nearest-floor")
    era = _era(version)
    assert record.versions.contains(version) == _converts_resize(era), (version, era.id)
    assert burn_import.modes()["nearest"] == "Nearest" and "Nearest" in record.modes

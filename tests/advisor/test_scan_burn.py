"""What Burn's ONNX import makes of Resize nodes, release by release, next to what ONNX Runtime computes.

The import table (``explorer/advisor/data/burn_onnx_import.toml``) is read from Burn's and burn-onnx's
sources; these tests check the table is complete and consistent, that each release's texts and mappings
reach the scan, and the numbers: ONNX Runtime itself runs every node, the engine runs Burn's mode.
"""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

import explorer  # noqa: E402
from explorer.advisor import burn_import  # noqa: E402
from explorer.advisor.knowledge import load  # noqa: E402
from explorer.advisor.onnx_resize import resize_nodes  # noqa: E402
from onnx_models import resize_model, run_ort  # noqa: E402

pytestmark = pytest.mark.oracle


def by_era(node):
    return {entry["era"]: entry for entry in node.imports}


# ------------------------------------------------------------------------------------------------ the table
def test_every_known_burn_version_has_exactly_one_era():
    for version in load().versions("burn"):
        matching = [e.id for e in burn_import.eras() if e.versions.contains(version)]
        assert len(matching) == 1, (version, matching)


def test_every_era_is_sourced_and_uses_known_conditions():
    for era in burn_import.eras():
        assert " @ " in era.source, era.id
        assert era.align_corners in ("fixed", "from_ctm")
        assert set(era.errors) <= set(burn_import.CONDITION_NAMES), set(era.errors) - set(burn_import.CONDITION_NAMES)
        assert set(era.ignored) <= {"coordinate_transformation_mode", "cubic_coeff_a", "nearest_mode"}
    assert burn_import.modes() == {"nearest": "Nearest", "linear": "Bilinear", "cubic": "Bicubic"}


def test_a_condition_without_a_predicate_cannot_hide():
    """Every condition named in the data has a predicate, and every predicate fires on some node."""
    assert len(burn_import.CONDITION_NAMES) == len(set(burn_import.CONDITION_NAMES))
    for era in burn_import.eras():
        for name in era.errors:
            assert name in burn_import.CONDITION_NAMES


# ------------------------------------------------------------------------------------------------ numbers
def test_half_pixel_nearest_silently_becomes_floor_nearest():
    """The issue's example: ONNX's default nearest 10 -> 3 picks [1, 4, 8] in ONNX Runtime; every Burn release
    that imports it computes floor nearest, [0, 3, 6]."""
    model = resize_model((1, 1, 1, 10), sizes=(1, 1, 1, 3), mode="nearest")
    x = np.arange(10, dtype=np.float32).reshape(1, 1, 1, 10)
    assert run_ort(model, x).ravel().tolist() == [1.0, 4.0, 8.0]
    burn = explorer.library_resize(x, (1, 3), library="burn", mode="Nearest", axes=(2, 3))
    assert burn.ravel().tolist() == [0.0, 3.0, 6.0]
    [node] = explorer.scan(model, backend="burn-wgpu", version="0.22.0-pre.2")
    head = node.findings[0]
    assert head.severity == "differs" and "InterpolateMode::Nearest" in head.message
    assert "nearest_mode" not in head.message  # the default rounding was not set on the node
    for entry in node.imports:
        if not entry["fails"]:
            assert entry["mode"] == "Nearest" and not entry["measurement"]["identical"], entry
    # the fix: Burn's own NearestExact is not this node either (round_prefer_floor), so none is offered
    assert node.equivalent_in("burn") is None


def test_round_prefer_ceil_nearest_has_a_burn_equivalent_the_import_never_emits():
    model = resize_model((1, 1, 10, 10), sizes=(1, 1, 3, 3), mode="nearest", nearest_mode="round_prefer_ceil")
    [node] = explorer.scan(model, backend="burn-wgpu", version="0.22.0-pre.2")
    assert node.equivalent_in("burn")["mode"] == "NearestExact"
    fix = node.findings[0].fixes[0]
    assert fix.mode == "NearestExact" and "InterpolateMode::NearestExact" in fix.code
    [on_tch] = explorer.scan(model, backend="burn-tch", version="0.22.0-pre.2", training=True)
    assert "but on burn-tch 0.22.0-pre.2: burn-tch does not call LibTorch's nearest-exact kernel" in \
        on_tch.findings[0].fixes[0].description


def test_half_pixel_bilinear_is_fixed_by_the_align_corners_import():
    model = resize_model((1, 1, 7, 9), sizes=(1, 1, 12, 4), mode="linear")
    [node] = explorer.scan(model, backend="burn-tch", version="0.20.1", training=True)
    eras = by_era(node)
    assert not eras["onnx-ir-0.20"]["measurement"]["identical"]
    assert eras["onnx-ir-0.20"]["align_corners"] is None
    assert eras["burn-onnx-main"]["measurement"]["identical"] and eras["burn-onnx-main"]["align_corners"] is False
    head = node.findings[0]
    assert head.severity == "differs" and "align_corners grid" in head.message
    assert any(f.kind == "version" and "0.21.0-pre.2" in f.description for f in head.fixes)


def test_align_corners_bilinear_is_the_same_in_every_release_that_imports_it():
    model = resize_model((1, 1, 7, 9), sizes=(1, 1, 12, 4), mode="linear", coordinate_transformation_mode="align_corners")
    [node] = explorer.scan(model, backend="burn-ndarray", version="0.20.1")
    imported = [e for e in node.imports if not e["fails"]]
    assert imported and all(e["measurement"]["identical"] for e in imported)
    assert node.findings[0].severity == "info"


def test_non_integer_scales_differ_even_with_align_corners_support():
    """burn-nn truncates n * scale and its kernels step by n/m; ONNX Runtime steps by 1/scale."""
    model = resize_model((1, 1, 5, 5), scales=(1.0, 1.0, 1.7, 1.7), mode="linear")
    [node] = explorer.scan(model, backend="burn-flex", version="0.22.0-pre.2")
    entry = by_era(node)["burn-onnx-main"]
    assert entry["measurement"]["output_shape_a"] == entry["measurement"]["output_shape_b"] == [8, 8]
    assert not entry["measurement"]["identical"]
    [fix] = [f for f in node.findings[0].fixes if f.kind == "export"]
    assert "size=(8, 8)" in fix.description and "identical" in fix.description


def test_cubic_coefficient_is_ignored():
    model = resize_model((1, 1, 6, 6), sizes=(1, 1, 11, 11), mode="cubic", cubic_coeff_a=-0.5,
                         coordinate_transformation_mode="align_corners")
    [node] = explorer.scan(model, backend="burn-flex", version="0.22.0-pre.2")
    entry = by_era(node)["burn-onnx-main"]
    assert entry["ignored"] == ["cubic_coeff_a"] and not entry["measurement"]["identical"]


# ------------------------------------------------------------------------------------------------ failures
@pytest.mark.parametrize("version,text", [
    ("0.17.0", "Resize: antialias other than 0 is not supported"),
    ("0.20.1", "Type inference failed: InvalidAttribute { name: \"antialias\", reason: \"antialias other than 0 "
               "is not supported\" }"),
    ("0.22.0-pre.2", "Type inference failed: Invalid attribute 'antialias': antialias other than 0 is not "
                     "supported"),
])
def test_antialias_stops_the_import_with_each_releases_text(version, text, tmp_path):
    path = tmp_path / "aa.onnx"
    onnx.save(resize_model((1, 1, 12, 12), op_version=18, sizes=(1, 1, 5, 5), mode="linear", antialias=1,
                           exclude_outside=1), path)
    result = explorer.scan(path, backend="burn-tch", version=version, training=True)
    [node] = result
    error = node.findings[0]
    assert error.severity == "error" and text in error.error_text
    assert str(path) in error.error_text or version == "0.17.0"
    assert result.exit_status == 1
    assert any(f.kind == "export" for f in error.fixes)


def test_opset_and_op_limits_per_release():
    opset13 = resize_nodes(resize_model((1, 1, 4, 4), op_version=13, sizes=(1, 1, 8, 8), mode="linear"))[0]
    assert burn_import.import_node(opset13, burn_import.era_for("0.19.0")).condition == "model_opset"
    assert not burn_import.import_node(opset13, burn_import.era_for("0.20.0")).fails
    opset10 = resize_nodes(resize_model((1, 1, 4, 4), op_version=10, scales=(1, 1, 2, 2), mode="nearest"))[0]
    assert burn_import.import_node(opset10, burn_import.era_for("0.14.0")).error_text == \
        "Resize: roi input is not supported"
    assert "requires 11, got 10" in burn_import.import_node(opset10, burn_import.era_for("0.21.0-pre.1")).error_text
    assert not burn_import.import_node(opset10, burn_import.era_for("0.21.0-pre.2")).fails
    upsample = resize_nodes(resize_model((1, 1, 4, 4), op_type="Upsample", scales=(1, 1, 2, 2), mode="nearest"))[0]
    for era in burn_import.eras():
        assert burn_import.import_node(upsample, era).fails, era.id
    resize = resize_nodes(resize_model((1, 1, 4, 4), op_version=13, sizes=(1, 1, 8, 8), mode="linear"))[0]
    assert burn_import.import_node(resize, burn_import.era_for("0.13.0")).error_text == \
        "Unsupported node conversion Resize"


def test_computed_sizes_are_runtime_sizes_for_burn():
    node = resize_nodes(resize_model((1, 1, 4, 4), op_version=16, sizes=(1, 1, 8, 8), computed=True,
                                     mode="nearest", coordinate_transformation_mode="asymmetric",
                                     nearest_mode="floor"))[0]
    assert node.sources == {"sizes": "computed"}
    assert burn_import.import_node(node, burn_import.era_for("0.17.0")).condition == "runtime_sizes"
    assert burn_import.import_node(node, burn_import.era_for("0.18.0")).condition == "runtime_sizes"
    assert not burn_import.import_node(node, burn_import.era_for("0.19.0")).fails


def test_three_spatial_axes_never_import():
    node = resize_nodes(resize_model((1, 1, 4, 4, 4), op_version=16, sizes=(1, 1, 8, 8, 8), mode="linear"))[0]
    outcomes = [burn_import.import_node(node, era) for era in burn_import.eras()]
    assert all(o.fails for o in outcomes)
    assert {o.condition for o in outcomes} <= {"rank", "resize", "model_opset"}


def test_the_table_cites_the_commits_read():
    sources = " ".join(e.source for e in burn_import.eras())
    for ref in ("v0.14.0", "v0.17.0", "v0.18.0", "v0.19.0", "v0.20.0", "v0.21.0-pre.1",
                "7db1e206c9f3c8842dd5430010c172fa53457164"):
        assert ref in sources, ref

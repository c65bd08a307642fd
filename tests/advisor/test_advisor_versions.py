"""Answers by release: each version bound of the knowledge base, checked on both sides, and the facts the
knowledge base was corrected for, written out by hand."""

from __future__ import annotations

import pytest

import explorer
from explorer.versions import parse_version

from advisor_queries import KB, REACHABLE, query


def _sides(record):
    """(bound, a release just inside the range, one just outside) for each bound inside the library's scope."""
    lib = KB.runtimes[record.library]
    eras = KB.versions(record.library)
    for op, bound in record.versions.raw_clauses:
        if not lib.in_scope(bound) and op in (">=", ">"):
            continue
        before = [v for v in eras if parse_version(v) < parse_version(bound)]
        if not before:
            continue
        previous = before[-1]
        if op == ">=":
            yield bound, bound, previous
        elif op == "<":
            yield bound, previous, bound
        elif op == "==":
            yield bound, bound, previous


BOUNDS = [(r, side) for r in REACHABLE if r.library == KB.backends[r.backends[0]].library for side in _sides(r)]


@pytest.mark.parametrize("record, side", BOUNDS, ids=lambda x: x.id if hasattr(x, "id") else x[0])
def test_each_bound_on_both_sides(record, side):
    bound, inside, outside = side
    assert record.versions.contains(inside) and not record.versions.contains(outside)
    found = [f.record_id for f in explorer.check(**query(record, version=inside))]
    assert record.id in found, f"{record.id} missing at {inside}"
    gone = [f.record_id for f in explorer.check(**query(record, version=outside))]
    assert record.id not in gone, f"{record.id} still reported at {outside}"


def test_every_library_with_version_facts_has_bounds_tested():
    libraries = {r.library for r, _ in BOUNDS}
    assert {"torch", "onnxruntime", "tensorflow", "burn", "keras", "jax", "mlx", "pillow", "opencv",
            "tensorrt", "candle"} <= libraries


def _ids(**kwargs):
    return {f.record_id: f for f in explorer.check(**kwargs)}


def test_mps_bicubic_kernel_arrives_in_2_6():
    assert "torch-mps-bicubic-missing" in _ids(mode="bicubic", backend="torch", device="mps", version="2.5.1",
                                               training=False)
    assert "torch-mps-bicubic-missing" not in _ids(mode="bicubic", backend="torch", device="mps", version="2.6.0",
                                                   training=False)


def test_mps_antialiased_bicubic_forward_arrives_in_2_8_not_2_7():
    at_27 = _ids(mode="bicubic", backend="torch", device="mps", version="2.7.1", antialias=True, training=False)
    at_28 = _ids(mode="bicubic", backend="torch", device="mps", version="2.8.0", antialias=True, training=False)
    assert "torch-mps-bicubic-aa-forward-missing" in at_27 and "torch-mps-bicubic-aa-forward-missing" not in at_28


def test_mps_missing_kernel_wording_changes_at_2_6():
    old = _ids(mode="bilinear", backend="torch", device="mps", version="2.5.0", antialias=True, training=False)
    new = _ids(mode="bilinear", backend="torch", device="mps", version="2.6.0", antialias=True, training=False)
    assert "issues/77764" in old["torch-mps-bilinear-aa-forward-missing"].error_text
    assert "issues/141287" in new["torch-mps-bilinear-aa-forward-missing"].error_text
    assert "commit hash" in new["torch-mps-bilinear-aa-forward-missing"].error_text


def test_mps_bilinear_integer_check_has_pytorchs_typo():
    found = _ids(mode="bilinear", backend="torch", device="mps", version="2.13.0", antialias=True, dtype="uint8",
                 training=False)
    assert found["torch-mps-bilinear-aa-integer-dtype"].error_text == \
        "_upsample_bilineard2d_aa_out_mps only supports floating-point dtypes"


def test_deterministic_bilinear_on_cuda_by_release():
    q = dict(mode="bilinear", backend="torch", device="cuda", deterministic=True, training=True)
    assert _ids(version="2.0.1", **q)["torch-deterministic-bilinear-2.0"].severity == "error"
    assert "torch-deterministic-bilinear-decomposition-cuda" in _ids(version="2.1.0", **q)
    assert "torch-deterministic-bilinear-2.0" not in _ids(version="2.1.0", **q)


def test_deterministic_decomposition_covers_mps_trilinear_from_2_9():
    q = dict(mode="trilinear", backend="torch", deterministic=True, training=True, spatial_dims=3)
    assert "torch-deterministic-trilinear-before-2.9" in _ids(version="2.8.0", device="cuda", **q)
    after = _ids(version="2.9.0", device="cuda", **q)
    assert "torch-deterministic-trilinear-before-2.9" not in after
    assert "torch-deterministic-linear-decomposition-non-cpu" in after
    assert "torch-deterministic-linear-decomposition-non-cpu" in _ids(version="2.9.0", device="mps", **q)


def test_onnx_export_default_exporter_and_opset_by_release():
    before = _ids(mode="nearest-exact", backend="torch", version="2.8.0", export="onnx", training=False)
    after = _ids(mode="nearest-exact", backend="torch", version="2.9.0", export="onnx", training=False)
    assert "torch-onnx-torchscript-nearest-exact" in before  # the default was still TorchScript
    assert "torch-onnx-torchscript-nearest-exact" not in after  # dynamo, the default from 2.9, decomposes it
    from explorer.advisor.question import Question
    assert Question.of(mode="bilinear", backend="torch", version="2.8.0", export="onnx").opset == 18
    assert Question.of(mode="bilinear", backend="torch", version="2.0.1", export="onnx").opset == 14


def test_onnx_opset_10_linear_is_asymmetric_in_onnx_runtime():
    at_10 = _ids(mode="linear", backend="onnxruntime", opset=10, training=False)
    at_11 = _ids(mode="linear", backend="onnxruntime", opset=11, training=False)
    assert at_10["onnx-resize10-asymmetric-linear"].severity == "differs"
    assert "onnx-resize10-asymmetric-linear" not in at_11


def test_onnx_runtime_nearest_tie_fixed_in_1_27():
    record = KB.record("ort-nearest-round-prefer-ceil-tie")
    assert record.versions.contains("1.26.0") and not record.versions.contains("1.27.0")


def test_onnx_runtime_wordings_by_release():
    record = KB.record("ort-exclude-outside-nearest")
    assert "(1 mode is CUBIC." in record.text_at("1.26.0")
    assert "(1) mode is CUBIC" in record.text_at("1.27.0")
    assert "only support 2-D" in KB.record("ort-cubic-rank").text_at("1.21.1")
    assert "only supports:" in KB.record("ort-cubic-rank").text_at("1.22.1")


def test_tensorrt_antialias_silent_before_10_rejected_from_10():
    before = _ids(mode="linear", backend="tensorrt", version="8.6", antialias=True, opset=18, training=False)
    after = _ids(mode="linear", backend="tensorrt", version="10.0", antialias=True, opset=18, training=False)
    assert before["tensorrt-antialias-ignored-before-10"].severity == "differs"
    assert after["tensorrt-antialias-rejected"].severity == "error"


def test_tensorflow_bilinear_second_order_by_release():
    q = dict(mode="bilinear", backend="tensorflow", training=True)
    assert "tf-bilinear-second-order-error" in _ids(version="2.17.1", **q)
    assert "tf-bilinear-second-order-none" in _ids(version="2.18.0", **q)


def test_burn_forward_bugs_fixed_in_later_releases():
    assert "burn-ndarray-bilinear-out-of-bounds" in _ids(mode="Bilinear", backend="burn-ndarray", version="0.18.0")
    assert "burn-ndarray-bilinear-out-of-bounds" not in _ids(mode="Bilinear", backend="burn-ndarray",
                                                             version="0.19.0")
    wrong = _ids(mode="Nearest", backend="burn-wgpu", version="0.20.1")
    assert "burn-cubecl-nearest-f32-index" in wrong
    assert "burn-cubecl-nearest-f32-index" not in _ids(mode="Nearest", backend="burn-wgpu", version="0.17.0")
    assert "burn-cubecl-nearest-f32-index" not in _ids(mode="Nearest", backend="burn-wgpu", version="0.21.0")


def test_coreml_converter_release_decides():
    q = dict(mode="bilinear", backend="torch", export="coreml", antialias=True, training=False)
    assert _ids(converter_version="8.0", **q)["torch-coreml-bilinear-aa-before-8.1"].severity == "error"
    assert _ids(converter_version="8.1", **q)["torch-coreml-bilinear-aa-dropped"].severity == "differs"
    unknown = _ids(**q)  # converter release not given: both hold, as warnings naming the release
    assert "coremltools releases up to (not including) 8.1" in unknown["torch-coreml-bilinear-aa-before-8.1"].message
    assert unknown["torch-coreml-bilinear-aa-before-8.1"].severity == "warning"


def test_every_finding_carries_its_version_range():
    for finding in explorer.check(mode="bicubic", backend="torch", device="mps", version="2.7.0", antialias=True):
        if finding.record_id:
            assert finding.versions and finding.versions.startswith(("torch", "every torch")), finding


def test_keras_jax_uint8_float_result_ends_in_3_6():
    """Keras 3.5.0 on jax returns the float32 result of a uint8 resize, 3.6.0 the rounded, clamped uint8
    (data/matrix/keras-jax-3.5.0.json and -3.6.0.json, both with jax 0.4.30); float32 input and the TensorFlow
    backend are another record's or none."""
    rid = "keras-jax-uint8-float-result-before-3.6"
    for mode in ("bilinear", "bicubic", "lanczos3", "lanczos5"):
        q = dict(mode=mode, backend="keras-jax", dtype="uint8")
        assert _ids(version="3.5.0", **q)[rid].severity == "differs", mode
        assert rid in _ids(version="3.0.5", **q), mode
        assert rid not in _ids(version="3.6.0", **q), mode
        assert rid not in _ids(version="3.15.1", **q), mode
    assert rid not in _ids(mode="nearest", backend="keras-jax", dtype="uint8", version="3.5.0")
    assert rid not in _ids(mode="bicubic", backend="keras-jax", dtype="float32", version="3.5.0")
    tf = _ids(mode="bicubic", backend="keras-tensorflow", dtype="uint8", version="3.5.0")
    assert rid not in tf and "keras-tf-uint8-wraps-before-3.6" in tf

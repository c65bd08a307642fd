"""check() finds every record from the query the record describes; bad input gives clear messages."""

from __future__ import annotations

import numpy as np
import pytest

import explorer

from advisor_queries import KB, REACHABLE, query as _query


@pytest.mark.parametrize("record", REACHABLE, ids=lambda r: r.id)
def test_check_finds_the_record(record):
    findings = explorer.check(**_query(record))
    hit = [f for f in findings if f.record_id == record.id]
    assert hit, f"{record.id} not found by {_query(record)}"
    finding = hit[0]
    assert finding.source == record.source
    if record.status == "fails" and not record.when.get("ratio"):
        assert finding.severity in ("error", "info")  # info only for second-order gradients
    if record.error_text and "{" not in record.error_text:
        assert finding.error_text == record.error_text


@pytest.mark.parametrize("record", [r for r in REACHABLE if r.status == "fails" and r.operation == "backward"][:12],
                         ids=lambda r: r.id)
def test_backward_failures_do_not_show_for_inference(record):
    query = _query(record) | {"training": False}
    assert record.id not in [f.record_id for f in explorer.check(**query)]


def test_device_specific_findings_are_warnings_without_a_device():
    findings = explorer.check(mode="lanczos", backend="torch", antialias=True)
    cuda = next(f for f in findings if f.record_id == "torch-lanczos-cuda")
    assert cuda.severity == "warning" and cuda.message.startswith("On cuda")
    on_cpu = explorer.check(mode="lanczos", backend="torch", antialias=True, device="cpu")
    assert "torch-lanczos-cuda" not in [f.record_id for f in on_cpu]
    on_cuda = explorer.check(mode="lanczos", backend="torch", antialias=True, device="cuda")
    assert next(f for f in on_cuda if f.record_id == "torch-lanczos-cuda").severity == "error"


def test_ratio_findings_settled_by_sizes():
    integer = explorer.check(mode="nearest", backend="candle", training=True, input_size=(8, 8), output_size=(16, 16))
    fraction = explorer.check(mode="nearest", backend="candle", training=True, input_size=(8, 8), output_size=(12, 12))
    assert "candle-nearest-backward-non-integer" not in [f.record_id for f in integer]
    assert "candle-nearest-backward-non-integer" in [f.record_id for f in fraction if f.severity == "error"]


def test_reference_decides_differs():
    versus_torch = explorer.check(mode="bicubic", backend="tensorflow", reference="torch")
    versus_jax = explorer.check(mode="bicubic", backend="tensorflow", reference="jax")
    assert next(f for f in versus_torch if f.record_id == "tf-bicubic-convention").severity == "differs"
    assert next(f for f in versus_jax if f.record_id == "tf-bicubic-convention").severity == "info"


def test_same_word_other_computation():
    findings = explorer.check(mode="nearest", backend="tensorflow", reference="torch")
    assert any(f.severity == "differs" and "nearest-exact" not in (f.record_id or "") and "'nearest'" in f.message
               for f in findings)
    assert not [f for f in explorer.check(mode="nearest-exact", backend="tensorflow") if f.record_id is None
                and f.severity == "differs"]


def test_mode_missing_on_backend_is_a_finding():
    findings = explorer.check(mode="area", backend="burn-tch")
    assert findings[0].severity == "error" and "Nearest" in findings[0].message


def test_a_version_between_known_ones_is_answered_from_the_ranges():
    """2.5.1 lies between the bounds 2.5 and 2.6: exactly the records whose ranges contain it apply."""
    findings = explorer.check(mode="bicubic", backend="torch", device="mps", version="2.5.1", training=False)
    ids = [f.record_id for f in findings]
    assert "torch-mps-bicubic-missing" in ids  # no MPS bicubic kernel before 2.6
    assert not any("outside" in f.message or "older than" in f.message for f in findings)
    missing = next(f for f in findings if f.record_id == "torch-mps-bicubic-missing")
    assert "issues/77764" in missing.error_text and missing.severity == "error"
    assert missing.versions == "torch releases up to (not including) 2.6"
    later = explorer.check(mode="bicubic", backend="torch", device="mps", version="2.6.0", training=False)
    assert "torch-mps-bicubic-missing" not in [f.record_id for f in later]


def test_a_version_outside_the_scope_says_so():
    older = explorer.check(mode="bilinear", backend="torch", version="1.13.1")
    assert older[0].severity == "warning" and "older than 2.0" in older[0].message
    newer = explorer.check(mode="nearest", backend="burn-tch", version="0.30.0")
    assert any("newer than 0.22.0-pre.2" in f.message for f in newer)
    inside = explorer.check(mode="bilinear", backend="burn-ndarray", version="0.19.5", training=True)
    assert not any("checked" in f.message and f.record_id is None for f in inside)
    assert "burn-ndarray-bilinear-backward" in [f.record_id for f in inside]


@pytest.mark.parametrize("kwargs, words", [
    (dict(mode="nearest", backend="burn-xyz"), ["backend='burn-xyz'", "burn-tch"]),
    (dict(mode="bicubc", backend="torch"), ["mode='bicubc'", "bicubic"]),
    (dict(mode="nearest", backend="burn-tch", version="banana"), ["version='banana'"]),
    (dict(mode="nearest", backend="burn-tch", device="tpu"), ["device='tpu'", "cuda"]),
    (dict(mode="nearest", backend="torch", dtype="float128"), ["dtype='float128'", "float32"]),
    (dict(mode="nearest", backend="torch", export="tflite2"), ["export='tflite2'", "onnx"]),
    (dict(mode="", backend="torch"), ["mode"]),
])
def test_bad_input_names_the_argument(kwargs, words):
    with pytest.raises(ValueError) as info:
        explorer.check(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_diagnose_bad_and_unknown_text():
    with pytest.raises(ValueError, match="empty"):
        explorer.diagnose("   ")
    with pytest.raises(TypeError):
        explorer.diagnose(None)
    unknown = explorer.diagnose("the printer is on fire")
    assert not unknown.matched and "Not a known resize error" in unknown.message


@pytest.mark.parametrize("record", [r for r in KB.records if r.error_text and "{" not in r.error_text
                                    and not r.shared_text and not r.generic_text][::3],
                         ids=lambda r: r.id)
def test_diagnose_finds_each_text(record):
    # a text made of words any error may say ("division by zero") is claimed only with its library named
    result = explorer.diagnose(f"{record.error_text}\n  (raised by {record.library})")
    assert result.matched
    assert record.id in [f.record_id for f in result.findings]


def test_suggest_fixes_bad_input():
    x = np.zeros((1, 1, 4, 4))
    with pytest.raises(ValueError, match="exactly one of size or scale_factor"):
        explorer.suggest_fixes(x, mode="nearest", backend="torch")
    with pytest.raises(ValueError, match="grad_output"):
        explorer.suggest_fixes(x, mode="nearest", backend="torch", size=(8, 8), grad_output=np.ones((1, 1, 3, 3)))
    with pytest.raises(TypeError, match="numeric"):
        explorer.suggest_fixes(np.array([["a"]], dtype=object), mode="nearest", backend="torch", size=(2, 2))


def test_compare_conventions_across_libraries():
    x = np.random.default_rng(1).random((1, 2, 9, 7), dtype=np.float32)
    table = explorer.compare_conventions(x, "bicubic", (5, 11), libraries=["torch", "opencv", "tensorflow", "burn-tch"])
    rows = {r["backend"]: r for r in table}
    assert rows["torch"]["exact"] and rows["opencv"]["exact"]  # Keys -0.75 with clamped borders
    # OpenCV keeps its cubic coefficients in float32: on float64 input it is 1e-7 away, not identical
    double = explorer.compare_conventions(x.astype(np.float64), "bicubic", (5, 11), libraries=["torch", "opencv"])
    assert not double.rows[1]["exact"] and 0 < double.rows[1]["output_max_abs"] < 1e-6
    assert not rows["tensorflow"]["exact"] and rows["tensorflow"]["output_rmse"] > 0
    assert not rows["burn-tch"]["exact"]  # Burn's align_corners defaults to true
    aligned = explorer.compare_conventions(x, "bicubic", (5, 11), libraries=["torch", "burn-tch"], align_corners=False)
    assert all(r["exact"] for r in aligned)
    missing = explorer.compare_conventions(x, "area", (5, 5), libraries=["torch", "burn-tch"])
    assert missing.rows[1]["error"] and "burn-tch" in str(missing)


def test_smoke_matrix_marks_the_seed_case():
    cases = explorer.smoke_matrix("burn-tch")
    exact = [c for c in cases if c.mode == "NearestExact"]
    assert exact and all(c.expected == "fails" for c in exact)
    assert all(c.expected == "ok" for c in cases if c.mode == "Nearest")
    assert {c.ratio for c in cases} == {"2x", "0.75x"}
    inference = explorer.smoke_matrix("burn-wgpu", training=False)
    assert all(c.expected != "fails" for c in inference if c.mode == "Bilinear")


def test_backends_listing():
    listing = {b.id: b for b in explorer.backends()}
    for expected in ("burn-tch", "burn-ndarray", "burn-flex", "burn-wgpu", "burn-cuda", "torch", "tensorflow", "jax",
                     "onnxruntime", "opencv", "pillow", "keras-torch", "mlx", "coreml", "tensorrt", "candle"):
        assert expected in listing
    assert set(listing["torch"].devices) >= {"cpu", "cuda", "mps"}
    assert "0.13.0" not in listing["burn-flex"].versions and "0.22.0-pre.2" in listing["burn-flex"].versions
def test_bfloat16_input_is_measured_as_the_library_computes_it():
    """A bfloat16 array (ml_dtypes) is measured, not refused: TensorFlow's bicubic gradient is None for it, and
    casting to float32 is the fix that changes nothing in the output."""
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="bfloat16 for numpy: the 'oracles' extra")
    x = (np.random.default_rng(0).standard_normal((1, 3, 8, 8)) * 4).astype(ml_dtypes.bfloat16)
    fixes = explorer.suggest_fixes(x, "bicubic", "tensorflow", size=(5, 5), training=True)
    assert "tf-bicubic-gradient-dtype" in [f.record_id for f in fixes.findings]
    assert fixes[0].id == "cast-float32" and fixes[0].output_max_abs == 0.0

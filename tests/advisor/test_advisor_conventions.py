"""compare_conventions computes through the library presets, and agrees with check() and the real libraries."""

from __future__ import annotations

import numpy as np
import pytest

import explorer
from explorer.advisor import knowledge
from explorer.advisor.backend_calls import forward
from explorer.advisor.question import Question

KB = knowledge.load()


def _ramp(n):
    """An (1, 1, n, n) image whose every pixel has its own value: a changed pick is a changed value."""
    return (np.arange(n)[:, None] * n + np.arange(n)[None, :]).astype(np.float32)[None, None]


def test_nearest_ties_are_what_opencv_and_pillow_compute():
    """256 -> 96 puts output centres exactly on pixel borders: PyTorch's nearest-exact rounds them up, OpenCV's
    INTER_NEAREST_EXACT and Pillow's NEAREST accumulate the coordinate and pick the left pixel there."""
    cv2 = pytest.importorskip("cv2", reason="OpenCV is an oracle installed by the 'oracles' extra")
    Image = pytest.importorskip("PIL.Image", reason="Pillow is an oracle installed by the 'oracles' extra")
    torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
    x = _ramp(256)
    reference = torch.nn.functional.interpolate(torch.from_numpy(x), size=(96, 96), mode="nearest-exact").numpy()
    real = {"opencv": cv2.resize(x[0, 0], (96, 96), interpolation=cv2.INTER_NEAREST_EXACT),
            "pillow": np.asarray(Image.fromarray(x[0, 0], mode="F").resize((96, 96), Image.NEAREST))}
    table = explorer.compare_conventions(x, "nearest-exact", (96, 96), libraries=["torch", "opencv", "pillow"],
                                         training=False)
    rows = {r["backend"]: r for r in table}
    for name, y in real.items():
        d = np.abs(y.astype(np.float64) - reference[0, 0])
        assert d.max() > 0  # the libraries really differ from PyTorch here
        row = rows[name]
        assert not row["exact"]
        assert row["output_max_abs"] == d.max()
        assert row["changed_fraction"] == np.mean(d > 0)
        assert np.array_equal(forward(Question.of(mode="nearest-exact", backend=name), x, (96, 96))[0, 0], y)


def test_burn_flex_nearest_exact_is_an_error_row():
    x = _ramp(8)
    table = explorer.compare_conventions(x, "nearest-exact", (5, 5), libraries=["torch", "burn-flex", "burn-wgpu"])
    rows = {r["backend"]: r for r in table}
    panic = next(f for f in explorer.check(mode="NearestExact", backend="burn-flex") if f.severity == "error")
    assert rows["burn-flex"]["error"] and panic.error_text in rows["burn-flex"]["error"]
    assert panic.error_text == "interpolate: unsupported mode NearestExact / dtype F32"
    assert rows["burn-flex"]["record_id"] == "burn-flex-nearest-exact-forward"
    assert rows["burn-wgpu"]["error"] is None and rows["burn-wgpu"]["exact"]  # cubecl has the kernel
    assert "panic: interpolate: unsupported mode NearestExact" in str(table)


@pytest.mark.parametrize("backend", sorted(KB.backends))
def test_every_forward_failure_is_an_error_row(backend):
    """For every native mode of every backend: an error row exactly when check() reports a forward error."""
    b = KB.backends[backend]
    x = np.random.default_rng(0).random((1, 1, 8, 8), dtype=np.float32)
    for mode in b.mode_table():
        findings = explorer.check(mode=mode, backend=backend, training=False, input_size=(8, 8),
                                  output_size=(5, 5), reference=None)
        errors = [f for f in findings if f.severity == "error"]
        row = explorer.compare_conventions(x, mode, (5, 5), libraries=[backend], training=False).rows[0]
        if errors:
            assert row["error"] and row["record_id"] == errors[0].record_id, (backend, mode)
            if errors[0].error_text:
                assert errors[0].error_text in row["error"]
        else:
            assert row["error"] is None and row["exact"], (backend, mode, row["error"])


def test_a_failing_backward_keeps_the_output_numbers():
    x = np.random.default_rng(2).random((1, 1, 8, 8), dtype=np.float32)
    table = explorer.compare_conventions(x, "bilinear", (5, 5), libraries=["burn-flex", "burn-ndarray", "opencv"])
    flex, ndarray, opencv = table.rows
    assert flex["grad_error"] is None and flex["grad_cosine"] == 1.0
    assert ndarray["exact"] and ndarray["grad_cosine"] is None
    assert "bilinear interpolation backward is not supported for ndarray backend" in ndarray["grad_error"]
    assert opencv["grad_cosine"] is None and "no gradient" in opencv["grad_error"]
    assert "no gradient: " in str(table)


LIBRARY_CALLS = {  # backend id -> (preset library, mode, options) that compare_conventions must compute
    "torch": ("torch", "bilinear", {}),
    "tensorflow": ("tensorflow", "bilinear", {}),
    "jax": ("jax", "linear", {"antialias": False}),
    "onnxruntime": ("onnx", "linear", {}),
    "opencv": ("opencv", "INTER_LINEAR", {}),
    "pillow": ("pillow", "BILINEAR", {}),
    "burn-flex": ("burn", "Bilinear", {"backend": "flex"}),
    "burn-wgpu": ("burn", "Bilinear", {"backend": "cubecl"}),
    "keras-jax": ("jax", "linear", {"antialias": False}),
    "keras-torch": ("torch", "bilinear", {"align_corners": False}),
    "tensorrt": ("onnx", "linear", {"coordinate_transformation_mode": "asymmetric"}),
}


def test_every_library_computes_its_preset():
    x = np.random.default_rng(3).random((1, 2, 11, 9))
    table = explorer.compare_conventions(x, "bilinear", (6, 14), libraries=list(LIBRARY_CALLS))
    ref = explorer.library_resize(x, (6, 14), library="torch", mode="bilinear")
    for row in table:
        library, mode, options = LIBRARY_CALLS[row["backend"]]
        y = explorer.library_resize(x, (6, 14), library=library, mode=mode, axes=(2, 3), **options)
        assert row["output_max_abs"] == np.abs(y - ref).max(), row["backend"]
        assert row["convention"].endswith(repr(explorer.preset(library, mode, **options)))

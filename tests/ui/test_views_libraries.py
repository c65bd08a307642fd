"""The Libraries figure: each library's output from explorer.library_resize, differences and metrics."""

import numpy as np
import pytest

import explorer
from explorer.ui.compute.libraries import compare_outputs, compute_libraries
from explorer.ui.views.libraries import libraries_figure, libraries_panels, metrics_rows

IMAGE = np.random.default_rng(2).random((30, 34, 3)).astype(np.float32)


def torch_forward(mode, **kw):
    x = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None]
    return np.moveaxis(explorer.interpolate(x, mode=mode, **kw)[0], 0, 2)


def test_compare_outputs_metrics():
    ref = np.zeros((4, 4, 1))
    y = ref.copy()
    y[0, 0, 0] = 0.4
    m = compare_outputs(ref, y, np.ones(3), np.array([1.0, 1.0, -1.0]))
    assert m["max_abs"] == pytest.approx(0.4)
    assert m["rmse"] == pytest.approx(0.1)
    assert m["psnr"] == pytest.approx(20.0)
    assert m["changed"] == pytest.approx(1 / 16)
    assert m["grad_cosine"] == pytest.approx(1 / 3)
    assert compare_outputs(ref, ref)["psnr"] == np.inf
    assert np.isnan(compare_outputs(ref, np.zeros((3, 3, 1)))["rmse"])


def test_the_torch_row_is_the_torch_engine_and_the_reference():
    data = compute_libraries(IMAGE, "bicubic", ["torch"], scale=0.37)  # the same size for every library
    np.testing.assert_array_equal(data.outputs["torch"], torch_forward("bicubic", size=(11, 12)))
    data = compute_libraries(IMAGE, "bicubic", ["torch"], scale=0.5)
    assert data.reference == "torch"
    assert data.metrics["torch"]["psnr"] == np.inf
    assert data.metrics["torch"]["grad_cosine"] == pytest.approx(1.0)
    fig = libraries_panels(data)
    np.testing.assert_array_equal(fig.panels["output:torch"].values, torch_forward("bicubic", scale_factor=0.5))
    assert fig.panels["diff:torch"].title == "torch: the reference"


def test_other_libraries_come_from_library_resize():
    libs = ["torch", "tensorflow", "opencv", "jax"]
    data = compute_libraries(IMAGE, "bicubic", libs, size=(15, 17), same_options=True)
    fig = libraries_panels(data)
    options = {"tensorflow": {"antialias": False}, "opencv": {}, "jax": {"antialias": False}}
    for lib in libs[1:]:
        # the explorer resizes an image as contiguous (C, H, W) planes
        planes = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))
        expected = np.moveaxis(explorer.library_resize(planes, size=(15, 17), library=lib, mode="bicubic",
                                                       axes=(1, 2), **options[lib]), 0, 2)
        np.testing.assert_allclose(data.outputs[lib], expected)
        d = (np.asarray(expected, np.float64) - data.outputs["torch"]).mean(axis=2)
        np.testing.assert_allclose(fig.panels[f"diff:{lib}"].values, d, atol=1e-5)
    # the same options for every library: JAX's own default (antialias=True) is not what the others run
    jax_default = explorer.library_resize(IMAGE, size=(15, 17), library="jax", mode="bicubic", axes=(0, 1))
    assert not np.allclose(data.outputs["jax"], jax_default)
    assert isinstance(data.grads["opencv"], NotImplementedError)  # OpenCV has no gradient
    assert np.isnan(data.metrics["opencv"]["grad_cosine"])
    # OpenCV INTER_CUBIC is PyTorch bicubic (both: Keys a=-0.75, half-pixel, clamped border): identical up to float rounding
    assert data.metrics["opencv"]["max_abs"] < 1e-5


def test_libraries_figure_draws_the_outputs_whole():
    fig = libraries_figure(IMAGE, "nearest", ["torch", "opencv"], scale=0.5)
    assert sum(im.get_array().shape[:2] == (15, 17) or
               (im.get_array().shape[0] % 15 == 0 and im.get_array().shape[0] // 15 == im.get_array().shape[1] // 17)
               for im in fig.images) >= 2


def test_metrics_rows_report_the_computed_metrics_and_library_errors():
    data = compute_libraries(IMAGE, "bicubic", ["torch", "opencv", "pillow"], scale=0.5)
    rows = metrics_rows(data)
    assert rows[0][0] == "library" and [r[0] for r in rows[1:]] == ["torch", "opencv", "pillow"]
    for row in rows[1:]:
        m = data.metrics[row[0]]
        assert row[2] == format(m["max_abs"], ".3g") and row[3] == format(m["rmse"], ".3g")
    data.outputs["pillow"] = ValueError("pillow: something went wrong")
    assert metrics_rows(data)[3][:2] == ["pillow", "error"]

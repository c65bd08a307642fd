"""The Kernels figure: coordinates, weights, transpose and frequency responses from the engine."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.ui.compute.kernels import compute_kernels, kernel_response  # noqa: E402
from explorer.ui.views.kernels import KernelsView, kernels_figure  # noqa: E402


@pytest.mark.parametrize("mode,align_corners,antialias",
                         [("bilinear", False, False), ("bilinear", True, False), ("bicubic", False, True),
                          ("nearest", False, False), ("lanczos", False, True), ("area", False, False)])
@pytest.mark.parametrize("scale", [0.4, 1.75])
def test_weights_and_coordinates_are_the_engines(mode, align_corners, antialias, scale):
    n = 10
    data = compute_kernels(mode, [mode], n=n, scale=scale, align_corners=align_corners, antialias=antialias)
    m = int(n * scale)
    ac = align_corners if mode in ("bilinear", "bicubic") else False
    aa = antialias or mode == "lanczos"
    spec = explorer.torch_spec(mode, ac, aa and mode in ("bilinear", "bicubic", "lanczos"), np.float64)
    step = None if mode == "area" else scale
    np.testing.assert_allclose(data.weights, explorer.weights(n, m, spec, step, dtype=np.float64), atol=1e-12)
    # the weights really are what interpolate uses along one axis: rows of an identity resized
    x = np.eye(n)[None, None].astype(np.float64)  # (1, 1, n, n): resize the last axis only via 3-D modes
    if mode in ("nearest", "area"):
        y = explorer.interpolate(x[0], scale_factor=scale, mode=mode)  # (1, n, m) 1-D resize of each row
        np.testing.assert_allclose(y[0].T, data.weights, atol=1e-6)
    view = KernelsView().update(data)
    np.testing.assert_array_equal(view.images["weights"].get_array(), data.weights)
    np.testing.assert_array_equal(view.images["transpose"].get_array(), data.weights.T)
    row = data.weights[data.sample]
    heads = view.lines["stem_heads"].get_ydata()
    np.testing.assert_allclose(heads, row[row != 0])


def test_source_coordinates_are_the_transform_of_the_spec():
    data = compute_kernels("bilinear", [], n=8, scale=0.5)
    x, _ = explorer.source_coordinates(8, 4, "half_pixel", "float64", 0.5)
    np.testing.assert_allclose(data.coordinates, x)
    ac = compute_kernels("bilinear", [], n=8, scale=0.5, align_corners=True)
    np.testing.assert_allclose(ac.coordinates, [0, 7 / 3, 14 / 3, 7])


def test_the_chosen_sample_and_its_kernel_curve():
    data = compute_kernels("bicubic", [], n=9, scale=1.5, sample=4)
    assert data.sample == 4
    t, k = data.curve
    x = data.coordinates[4]
    assert t.min() == pytest.approx(x - 2) and t.max() == pytest.approx(x + 2)
    assert compute_kernels("bicubic", [], n=9, scale=1.5, sample=99).sample == 12  # clipped to m - 1


def test_frequency_responses_and_the_antialias_stretch():
    nu = np.array([0.0, 0.25, 0.5])
    linear = kernel_response(explorer.Spec("linear"), 1.0, nu)
    np.testing.assert_allclose(linear, np.sinc(nu) ** 2, atol=1e-5)  # the triangle is a box * box
    aa = kernel_response(explorer.Spec("linear", antialias=True), 4.0, nu)
    np.testing.assert_allclose(aa, np.sinc(4 * nu) ** 2, atol=1e-5)  # stretched by the step
    data = compute_kernels("bilinear", ["nearest", "bilinear"], n=16, scale=0.25, antialias=True)
    assert data.output_nyquist == pytest.approx(0.125)
    view = KernelsView().update(data)
    assert view.lines["nyquist"].get_xdata()[0] == pytest.approx(0.125)
    np.testing.assert_allclose(view.lines["response:nearest"].get_ydata(), np.sinc(data.frequencies))
    assert view.lines["response:bilinear"].get_linewidth() > view.lines["response:nearest"].get_linewidth()


def test_relabelling_reuses_the_figure():
    view = KernelsView().update(compute_kernels("bilinear", ["nearest", "bilinear"], n=8, scale=0.5))
    axes = list(view.fig.axes)
    view.update(compute_kernels("area", ["area", "bicubic", "lanczos"], n=12, scale=0.7))
    assert view.fig.axes == axes
    assert set(k for k in view.lines if k.startswith("response:")) == {"response:area", "response:bicubic",
                                                                       "response:lanczos"}


def test_an_error_is_shown_not_raised():
    data = compute_kernels("bilinear", ["bilinear"], n=4, size=(3, 0))
    assert isinstance(data.error, ValueError)
    view = KernelsView().update(data)
    assert "size=(3, 0) is not valid" in view.error.get_text().replace("\n", " ")
    view.update(compute_kernels("bilinear", ["bilinear"], n=4, scale=0.5))
    assert view.error.get_text() == ""
    assert kernels_figure("bicubic", ["bicubic"], n=6, scale=2.0).axes


def test_an_axis_too_short_for_one_output_is_lengthened():
    data = compute_kernels("bilinear", ["bilinear"], n=4, scale=0.1)  # floor(4 * 0.1) = 0 outputs
    assert (data.n, data.m) == (10, 1) and data.error is None
    assert "4 samples give no output at scale 0.1; the axis has 10" in data.notes

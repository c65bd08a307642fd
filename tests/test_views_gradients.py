"""The Gradients figure shows the engine's backward pass: W.T @ g, coverage, dead pixels, checkerboards."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.ui.compute.gradients import compute_gradients, upstream_gradient  # noqa: E402
from explorer.ui.views.gradients import GradientsView, gradients_figure  # noqa: E402

RNG = np.random.default_rng(3)
IMAGE = RNG.random((36, 44, 3)).astype(np.float32)


def nchw(a):
    return np.ascontiguousarray(np.moveaxis(a, 2, 0))[None]


def backward(g, mode, shape=IMAGE.shape, **kw):
    gx = explorer.interpolate_backward(nchw(g), (1, shape[2]) + shape[:2], mode=mode, **kw)
    return np.moveaxis(gx[0], 0, 2)


def forward(mode, img=IMAGE, **kw):
    return np.moveaxis(explorer.interpolate(nchw(img), mode=mode, **kw)[0], 0, 2)


@pytest.mark.parametrize("upstream", ["ones", "random", "rectangle", "mse"])
def test_the_gradient_is_the_engine_backward_of_the_upstream(upstream):
    data = compute_gradients(IMAGE, ["nearest", "bicubic"], upstream, scale=0.6, seed=5)
    view = GradientsView().update(data)
    for mode in ("nearest", "bicubic"):
        y = forward(mode, scale_factor=0.6)
        if upstream == "mse":
            target = forward("lanczos", scale_factor=0.6, antialias=True)
            g = y - target
        else:
            g = upstream_gradient(upstream, y, seed=5)
        expected = backward(g, mode, scale_factor=0.6)
        r = data.results[mode]
        np.testing.assert_array_equal(r.upstream, g)
        np.testing.assert_allclose(r.grad, expected, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(view.images[f"grad:{mode}"].get_array(), expected.mean(axis=2), atol=1e-6)
        np.testing.assert_allclose(view.images[f"upstream:{mode}"].get_array(), g.mean(axis=2), atol=1e-6)


def test_nearest_downsampling_leaves_dead_pixels_exactly_where_no_index_lands():
    data = compute_gradients(IMAGE, ["nearest"], "ones", scale=0.25)
    r = data.results["nearest"]
    rows = np.unique(np.floor(np.arange(9) * 4.0).astype(int))  # PyTorch: floor(i / scale)
    cols = np.unique(np.floor(np.arange(11) * 4.0).astype(int))
    alive = np.zeros((36, 44), bool)
    alive[np.ix_(rows, cols)] = True
    np.testing.assert_array_equal(r.coverage != 0, alive)
    assert r.dead == 36 * 44 - alive.sum()
    view = GradientsView().update(data)
    assert f"dead {100 * r.dead / (36 * 44):.1f}%" in view.axes["coverage_zoom:nearest"].get_title()


def test_bilinear_downsampling_without_antialias_skips_rows_and_antialias_fills_them():
    img = np.zeros((40, 40, 1), np.float32)
    plain = compute_gradients(img, ["bilinear"], "ones", scale=0.25).results["bilinear"]
    dead_rows = np.all(plain.coverage == 0, axis=1)
    assert dead_rows.sum() >= 20  # each output reads 2 of every 4 rows
    aa = compute_gradients(img, ["bilinear"], "ones", scale=0.25, antialias=True).results["bilinear"]
    assert aa.dead == 0


def test_nearest_upsampling_by_a_non_integer_factor_gives_a_checkerboard():
    img = np.zeros((20, 20, 1), np.float32)
    r = compute_gradients(img, ["nearest"], "ones", scale=1.5).results["nearest"]
    assert set(np.unique(r.coverage)) == {1.0, 2.0, 4.0}  # 1 or 2 copies per axis
    assert r.variation > 0.3
    even = compute_gradients(img, ["nearest"], "ones", scale=2.0).results["nearest"]
    assert set(np.unique(even.coverage)) == {4.0} and even.variation == 0


def test_the_zoom_rows_hold_exact_pixels_and_one_norm_per_row():
    crop = (0.0, 0.0, 0.25, 0.5)
    data = compute_gradients(IMAGE, ["nearest", "bilinear"], "random", scale=1.5, crop=crop)
    view = GradientsView().update(data)
    for mode in ("nearest", "bilinear"):
        r = data.results[mode]
        np.testing.assert_allclose(view.images[f"grad_zoom:{mode}"].get_array(), r.grad.mean(axis=2)[0:9, 0:22],
                                   atol=1e-6)
        np.testing.assert_array_equal(view.images[f"coverage_zoom:{mode}"].get_array(), r.coverage[0:9, 0:22])
    grads = [np.abs(data.results[m].grad.mean(axis=2)).max() for m in ("nearest", "bilinear")]
    norm = view.images["grad:nearest"].norm
    assert norm is view.images["grad:bilinear"].norm is view.images["grad_zoom:nearest"].norm
    assert norm.vmax == pytest.approx(max(grads), rel=1e-6)


def test_errors_are_shown_per_mode():
    data = compute_gradients(IMAGE, ["bilinear"], "ones", scale=0.001)
    view = GradientsView().update(data)
    assert isinstance(data.results["bilinear"], ValueError)
    assert "not available" in view.axes["upstream:bilinear"].get_title()
    with pytest.raises(ValueError, match="upstream='sideways' is not valid"):
        compute_gradients(IMAGE, ["bilinear"], "sideways", scale=0.5)


def test_gradients_figure_draws():
    fig = gradients_figure(IMAGE, ["area"], "ones", scale=0.5)
    fig.canvas.draw()
    assert len([ax for ax in fig.axes if ax.get_visible()]) >= 4


def test_a_library_without_gradients_shows_the_transpose_and_says_so():
    data = compute_gradients(IMAGE, ["bilinear"], "random", scale=0.5, library="opencv", seed=3)
    r = data.results["bilinear"]
    expected = explorer.library_resize_transpose(r.upstream, IMAGE.shape, size=(18, 22), library="opencv",
                                                 mode="bilinear", axes=(0, 1))
    np.testing.assert_allclose(r.grad, expected, rtol=1e-6, atol=1e-7)
    assert "no gradient" in r.notes and "transpose" in r.notes
    torch = compute_gradients(IMAGE, ["bilinear"], "random", scale=0.5, seed=3).results["bilinear"]
    assert torch.notes == ""

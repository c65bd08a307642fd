"""The Gradients figure shows the engine's backward pass: W.T @ g, coverage, dead pixels, checkerboards."""

import numpy as np
import pytest

import explorer
from explorer.ui.compute.gradients import compute_gradients, upstream_gradient
from explorer.ui.views.gradients import gradients_figure, gradients_panels

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
    fig = gradients_panels(data)
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
        np.testing.assert_allclose(fig.panels[f"grad:{mode}"].values, expected.mean(axis=2), atol=1e-6)
        np.testing.assert_allclose(fig.panels[f"upstream:{mode}"].values, g.mean(axis=2), atol=1e-6)


def test_nearest_downsampling_leaves_dead_pixels_exactly_where_no_index_lands():
    data = compute_gradients(IMAGE, ["nearest"], "ones", scale=0.25)
    r = data.results["nearest"]
    rows = np.unique(np.floor(np.arange(9) * 4.0).astype(int))  # PyTorch: floor(i / scale)
    cols = np.unique(np.floor(np.arange(11) * 4.0).astype(int))
    alive = np.zeros((36, 44), bool)
    alive[np.ix_(rows, cols)] = True
    np.testing.assert_array_equal(r.coverage != 0, alive)
    assert r.dead == 36 * 44 - alive.sum()
    fig = gradients_panels(data)
    assert f"dead {100 * r.dead / (36 * 44):.1f}%" in fig.panels["coverage_zoom:nearest"].title
    assert "dead: the share of all input pixels whose coverage is 0" in fig.caption  # every title number defined


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


def test_the_zoom_rows_hold_exact_pixels_and_one_scale_per_row():
    crop = (0.0, 0.0, 0.25, 0.5)
    data = compute_gradients(IMAGE, ["nearest", "bilinear"], "random", scale=1.5, crop=crop)
    fig = gradients_panels(data)
    for mode in ("nearest", "bilinear"):
        r = data.results[mode]
        np.testing.assert_allclose(fig.panels[f"grad_zoom:{mode}"].values, r.grad.mean(axis=2)[0:9, 0:22],
                                   atol=1e-6)
        np.testing.assert_array_equal(fig.panels[f"coverage_zoom:{mode}"].values, r.coverage[0:9, 0:22])
    grads = [np.abs(data.results[m].grad.mean(axis=2)).max() for m in ("nearest", "bilinear")]
    assert fig.bars[0].hi == fig.bars[1].hi == pytest.approx(max(grads), rel=1e-6)
    dead = fig.panels["coverage_zoom:nearest"]
    red = dead.values == 0
    assert (dead.rgb[red] == [214, 39, 40]).all() and not (dead.rgb[~red] == [214, 39, 40]).all(axis=-1).any()


def test_errors_are_shown_per_mode():
    data = compute_gradients(IMAGE, ["bilinear"], "ones", scale=0.001)
    fig = gradients_panels(data)
    assert isinstance(data.results["bilinear"], ValueError)
    assert "not available" in fig.panels["upstream:bilinear"].title and fig.panels["upstream:bilinear"].error
    with pytest.raises(ValueError, match="upstream='sideways' is not valid"):
        compute_gradients(IMAGE, ["bilinear"], "sideways", scale=0.5)


def test_gradients_figure_draws_every_row_with_its_colour_bar():
    fig = gradients_figure(IMAGE, ["area"], "ones", scale=0.5)
    fig.canvas.draw()
    assert len(fig.images) == 4 and len(fig.axes) == 4  # four panels, four colour bars


def test_a_library_without_gradients_shows_the_transpose_and_says_so():
    data = compute_gradients(IMAGE, ["bilinear"], "random", scale=0.5, library="opencv", seed=3)
    r = data.results["bilinear"]
    expected = explorer.library_resize_transpose(r.upstream, IMAGE.shape, size=(18, 22), library="opencv",
                                                 mode="bilinear", axes=(0, 1))
    np.testing.assert_allclose(r.grad, expected, rtol=1e-6, atol=1e-7)
    assert "no gradient" in r.notes and "transpose" in r.notes
    torch = compute_gradients(IMAGE, ["bilinear"], "random", scale=0.5, seed=3).results["bilinear"]
    assert torch.notes == ""


@pytest.mark.parametrize("upstream,shown", [("ones", 1), ("random", 1), ("rectangle", 1), ("mse", 3)])
def test_the_upstream_row_shows_one_panel_when_every_mode_gets_the_same_gradient(upstream, shown):
    """The Gradients tab used to open on three identical solid squares (dL/dy = ones for every mode): the row
    keeps one, titled as every mode's; ``mse`` reads each mode's output, so each mode keeps its own panel."""
    modes = ["nearest", "bilinear", "bicubic"]
    data = compute_gradients(IMAGE, modes, upstream, scale=0.6, seed=5)
    fig = gradients_panels(data)
    label, keys = fig.rows[-1]
    assert label.startswith("upstream gradient")
    drawn = [k for k in keys if k is not None]
    assert len(drawn) == shown, keys
    ups = [data.results[m].upstream for m in modes]
    assert all(np.array_equal(ups[0], u) for u in ups) == (shown == 1)
    if shown == 1:
        assert "every mode" in fig.panels[drawn[0]].title
        assert ("every value 1" in fig.panels[drawn[0]].title) == (upstream == "ones")

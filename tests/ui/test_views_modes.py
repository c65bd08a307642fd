"""The Modes figure shows exactly what the engine computes: outputs, zoomed pixels, differences, every pixel a
whole number of screen pixels."""

import numpy as np
import pytest

import explorer
from explorer.ui.views import pixels as P
from explorer.ui.compute.modes import compute_modes
from explorer.ui.views.modes import modes_figure, modes_panels

RNG = np.random.default_rng(7)
IMAGE = RNG.random((40, 48, 3)).astype(np.float32)
GREY = RNG.random((40, 48, 1)).astype(np.float32)


def nchw(img):
    return np.ascontiguousarray(np.moveaxis(img, 2, 0))[None]


def engine(mode, img=IMAGE, **kw):
    return np.moveaxis(explorer.interpolate(nchw(img), mode=mode, **kw)[0], 0, 2)


def blocks(a, f):
    """f x f block means, written out independently of the code under test."""
    h, w = a.shape[0] // f, a.shape[1] // f
    return a[:h * f, :w * f].reshape(h, f, w, f, *a.shape[2:]).astype(np.float64).mean(axis=(1, 3))


@pytest.mark.parametrize("scale", [0.37, 0.5, 1.7])
@pytest.mark.parametrize("antialias", [False, True])
def test_outputs_equal_the_engine(scale, antialias):
    modes = ["nearest", "bilinear", "bicubic", "area"]
    fig = modes_panels(compute_modes(IMAGE, modes, "lanczos", scale=scale, antialias=antialias))
    for mode in modes:
        kw = {"antialias": antialias} if mode in ("bilinear", "bicubic") else {}
        panel = fig.panels[f"output:{mode}"]
        assert panel.factor == 1 and panel.scale is None  # colour: shown as it is, 1:1
        np.testing.assert_array_equal(panel.values, engine(mode, scale_factor=scale, **kw))
        expected_rgb = (np.clip(engine(mode, scale_factor=scale, **kw), 0, 1) * 255 + 0.5).astype(np.uint8)
        np.testing.assert_array_equal(panel.rgb, expected_rgb)


def test_differences_against_the_reference_share_one_symmetric_scale():
    data = compute_modes(IMAGE, ["nearest", "bicubic"], "bilinear", scale=0.6)
    fig = modes_panels(data)
    ref = engine("bilinear", scale_factor=0.6)
    limits = []
    for mode in ("nearest", "bicubic"):
        d = (engine(mode, scale_factor=0.6) - ref).mean(axis=2)
        panel = fig.panels[f"diff:{mode}"]
        np.testing.assert_allclose(panel.values, d, atol=1e-6)
        assert f"rms {np.sqrt(np.mean(d.astype(np.float64) ** 2)):.3g}" in panel.title
        limits.append(np.abs(d).max())
    bar = fig.bars[2]
    assert bar.scale == "signed" and bar.hi == -bar.lo == pytest.approx(max(limits), rel=1e-6)
    assert "output − reference" in bar.label


def test_the_zoom_shows_the_exact_pixels_of_the_box():
    crop = (0.25, 0.5, 0.5, 0.75)
    fig = modes_panels(compute_modes(IMAGE, ["bicubic"], "bilinear", scale=1.5, crop=crop))
    out = engine("bicubic", scale_factor=1.5)  # 60 x 72
    panel = fig.panels["crop:bicubic"]
    np.testing.assert_array_equal(panel.values, out[15:30, 36:54])
    assert panel.region == (15, 30, 36, 54)
    np.testing.assert_array_equal(fig.panels["input_crop"].values, IMAGE[10:20, 24:36])


def test_grey_images_keep_overshoot_and_paint_it_orange_and_blue():
    img = np.zeros((16, 16, 1), np.float32)
    img[:, 8:] = 1
    fig = modes_panels(compute_modes(img, ["bicubic"], "bilinear", scale=2.0))
    panel = fig.panels["output:bicubic"]
    expected = engine("bicubic", img, scale_factor=2.0)
    np.testing.assert_array_equal(panel.values, expected)
    assert panel.scale == "grey" and expected.max() > 1 and expected.min() < 0  # Keys cubic rings past 0 and 1
    above, below = expected[:, :, 0] > 1.02, expected[:, :, 0] < -0.02
    assert above.any() and below.any()
    assert (panel.rgb[above] == [255, 127, 14]).all() and (panel.rgb[below] == [31, 119, 180]).all()
    faint = P.grey_rgb(np.array([[-0.01, 1.01]], np.float32))  # within 0.02 of the range: black and white
    assert faint[0].tolist() == [[0, 0, 0], [255, 255, 255]]
    assert fig.bars[0].scale == "grey" and "above 1.02" in fig.bars[0].marks[0][1]


def test_an_impossible_mode_shows_its_error_and_the_others_still_draw():
    data = compute_modes(IMAGE, ["bilinear", "nearest"], "bicubic", scale=0.01)  # floor(40 * 0.01) = 0
    fig = modes_panels(data)
    assert isinstance(data.outputs["bilinear"], ValueError)
    assert fig.panels["output:bilinear"].rgb is None
    assert "greater than 0" in fig.panels["output:bilinear"].error
    ok = modes_panels(compute_modes(IMAGE, ["bilinear", "nearest"], "bicubic", scale=0.5))
    assert ok.panels["output:bilinear"].error == ""
    np.testing.assert_array_equal(ok.panels["output:nearest"].values, engine("nearest", scale_factor=0.5))


def test_notes_say_which_options_a_mode_does_not_take():
    data = compute_modes(IMAGE, ["nearest", "lanczos"], "bilinear", scale=0.5, align_corners=True)
    assert "align_corners does not apply to nearest" in data.notes["nearest"]
    assert "always antialiased" in data.notes["lanczos"]
    fig = modes_panels(data)
    assert "align_corners does not apply to nearest" in fig.caption
    assert fig.panels["output:nearest"].title.endswith("*")


def test_large_outputs_become_labelled_overviews_of_block_means_and_the_zoom_stays_exact():
    img = RNG.random((256, 256, 1)).astype(np.float32)
    fig = modes_panels(compute_modes(img, ["bilinear"], "bilinear", scale=4.0))  # 1024 x 1024
    panel = fig.panels["output:bilinear"]
    out = engine("bilinear", img, scale_factor=4.0)
    assert panel.factor > 1 and f"overview ÷{panel.factor}" in panel.title
    np.testing.assert_allclose(panel.values, blocks(out, panel.factor), atol=1e-5)
    zoom = fig.panels["crop:bilinear"]
    r0, r1, c0, c1 = zoom.region
    np.testing.assert_array_equal(zoom.values, out[r0:r1, c0:c1])  # exact pixels, never averaged
    assert zoom.factor == 1


def test_an_output_keeps_its_aspect_ratio():
    fig = modes_panels(compute_modes(GREY, ["nearest"], "bilinear", size=(100, 300)))
    assert fig.panels["output:nearest"].rgb.shape[:2] == (100, 300)


def test_modes_figure_is_a_slide():
    fig = modes_figure(IMAGE, ["area"], "bilinear", size=(20, 24), stamp="test")
    assert fig.get_size_inches()[0] * fig.dpi >= 1600
    shown = [im.get_array() for im in fig.images]
    assert any(a.shape[0] % 20 == 0 and a.shape[1] % 24 == 0 and a.shape[0] // 20 == a.shape[1] // 24
               for a in shown)

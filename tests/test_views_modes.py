"""The Modes figure shows exactly what the engine computes: outputs, zoomed pixels, differences."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.ui.views import style as S  # noqa: E402
from explorer.ui.compute.modes import compute_modes  # noqa: E402
from explorer.ui.views.modes import ModesView, modes_figure  # noqa: E402

RNG = np.random.default_rng(7)
IMAGE = RNG.random((40, 48, 3)).astype(np.float32)


def nchw(img):
    return np.ascontiguousarray(np.moveaxis(img, 2, 0))[None]


def hwc(y):
    return np.moveaxis(y[0], 0, 2)


def engine(mode, img=IMAGE, **kw):
    return hwc(explorer.interpolate(nchw(img), mode=mode, **kw))


@pytest.mark.parametrize("scale", [0.37, 0.5, 1.7])
@pytest.mark.parametrize("antialias", [False, True])
def test_outputs_equal_the_engine(scale, antialias):
    modes = ["nearest", "bilinear", "bicubic", "area"]
    view = ModesView().update(compute_modes(IMAGE, modes, "lanczos", scale=scale, antialias=antialias))
    for mode in modes:
        kw = {"antialias": antialias} if mode in ("bilinear", "bicubic") else {}
        expected = engine(mode, scale_factor=scale, **kw)
        shown = view.images[f"output:{mode}"].get_array()
        np.testing.assert_array_equal(shown, np.clip(expected, 0, 1))


def test_differences_against_the_reference_share_one_symmetric_norm():
    data = compute_modes(IMAGE, ["nearest", "bicubic"], "bilinear", scale=0.6)
    view = ModesView().update(data)
    ref = engine("bilinear", scale_factor=0.6)
    limits = []
    for mode in ("nearest", "bicubic"):
        d = (engine(mode, scale_factor=0.6) - ref).mean(axis=2)
        np.testing.assert_allclose(view.images[f"diff:{mode}"].get_array(), d, atol=1e-6)
        limits.append(np.abs(d).max())
    norms = {id(view.images[f"diff:{m}"].norm) for m in ("nearest", "bicubic")}
    assert len(norms) == 1
    norm = view.images["diff:nearest"].norm
    assert norm.vmin == -norm.vmax == pytest.approx(-max(limits), rel=1e-6)


def test_the_zoom_shows_the_exact_pixels_of_the_crop():
    crop = (0.25, 0.5, 0.5, 0.75)
    view = ModesView().update(compute_modes(IMAGE, ["bicubic"], "bilinear", scale=1.5, crop=crop))
    out = engine("bicubic", scale_factor=1.5)  # 60 x 72
    shown = view.images["crop:bicubic"].get_array()
    np.testing.assert_array_equal(shown, np.clip(out[15:30, 36:54], 0, 1))
    assert view.images["crop:bicubic"].get_extent() == pytest.approx([23.5, 35.5, 19.5, 9.5])
    assert view.axes["crop:bicubic"].get_xlim() == pytest.approx((23.5, 35.5))


def test_grey_images_keep_overshoot_for_the_norm_to_paint():
    img = np.zeros((16, 16, 1), np.float32)
    img[:, 8:] = 1
    view = ModesView().update(compute_modes(img, ["bicubic"], "bilinear", scale=2.0))
    shown = view.images["output:bicubic"].get_array()
    assert shown.ndim == 2 and shown.max() > 1 and shown.min() < 0  # Keys cubic rings past 0 and 1
    np.testing.assert_array_equal(shown, engine("bicubic", img, scale_factor=2.0)[:, :, 0])


def test_an_impossible_mode_shows_its_error_and_the_others_still_draw():
    data = compute_modes(IMAGE, ["bilinear", "nearest"], "bicubic", scale=0.01)  # floor(40 * 0.01) = 0
    view = ModesView().update(data)
    assert isinstance(data.outputs["bilinear"], ValueError)
    assert "greater than 0" in view.texts["output:bilinear"].get_text().replace("\n", " ")
    ok = compute_modes(IMAGE, ["bilinear", "nearest"], "bicubic", scale=0.5)
    view.update(ok)
    assert view.texts["output:bilinear"].get_text() == ""
    np.testing.assert_array_equal(view.images["output:nearest"].get_array(),
                                  np.clip(engine("nearest", scale_factor=0.5), 0, 1))


def test_notes_say_which_options_a_mode_does_not_take():
    data = compute_modes(IMAGE, ["nearest", "lanczos"], "bilinear", scale=0.5, align_corners=True)
    assert "align_corners does not apply to nearest" in data.notes["nearest"]
    assert "always antialiased" in data.notes["lanczos"]
    view = ModesView().update(data)
    assert "align_corners does not apply to nearest" in view.caption


def test_artists_are_created_once_and_updated_in_place():
    view = ModesView().update(compute_modes(IMAGE, ["nearest", "bilinear"], "bicubic", scale=0.5))
    before = view.images["output:bilinear"]
    axes = len(view.fig.axes)
    view.update(compute_modes(IMAGE, ["nearest", "bilinear"], "bicubic", scale=1.3))
    assert view.images["output:bilinear"] is before
    assert len(view.fig.axes) == axes
    view.update(compute_modes(IMAGE, ["bicubic"], "bicubic", scale=1.3))  # fewer panels: moved, not created
    assert len(view.fig.axes) == axes
    assert sum(ax.get_visible() for ax in view.fig.axes) < axes


def test_large_outputs_are_area_averaged_to_the_panel_not_aliased():
    img = RNG.random((256, 256, 1)).astype(np.float32)
    view = ModesView().update(compute_modes(img, ["bilinear"], "bilinear", scale=2.0))
    shown = view.images["output:bilinear"].get_array()
    pixels = S.panel_pixels(view.axes["output:bilinear"])
    assert shown.shape[0] <= pixels[0] and shown.shape[1] <= pixels[1]
    np.testing.assert_allclose(shown, S.fit(engine("bilinear", img, scale_factor=2.0), pixels)[:, :, 0],
                               atol=1e-6)


def test_modes_figure_returns_a_figure_with_the_outputs():
    fig = modes_figure(IMAGE, ["area"], "bilinear", size=(20, 24))
    shown = [im.get_array() for ax in fig.axes for im in ax.images if im.get_array().shape[:2] == (20, 24)]
    assert any(np.array_equal(a, np.clip(engine("area", size=(20, 24)), 0, 1)) for a in shown)

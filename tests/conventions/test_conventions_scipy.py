"""Live oracle: the explorer's scipy.ndimage presets against ``scipy.ndimage.zoom`` 1.17.

Every preset row (orders 0-5, ``grid_mode``, the boundary modes, ``prefilter=False``) on seeded small sizes,
float64 within 1e-12 and float32 within 1e-6 (scipy computes in double and rounds the output); uint8 rounded
half up and clamped as scipy does (within 1 LSB from order 1: scipy sums the 2-D tensor product in one
loop, the explorer one axis at a time, so an exact .5 can land a rounding either side); the prefilter's in-place
reflect initialisation (Note [reflect prefilter]); zoom has no gradient, and the explorer says so.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from preset_cases import image, options_id, size_grid

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets
from explorer.engine.native import ndimage as native

ndi = pytest.importorskip("scipy.ndimage", reason="SciPy is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

ROWS = [(r.mode, r.options) for r in presets("scipy")]


def _zoom(x, factors, mode, options):
    kw = dict(options)
    kw["mode"] = kw.pop("boundary", "constant")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zoom's advice to use grid-constant with grid_mode
        return ndi.zoom(x, factors, order=int(mode[-1]), **kw)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_matches_zoom(mode, options, dtype):
    tolerance = 1e-12 if dtype == np.float64 else 1e-6
    for h, w, H, W in size_grid(("scipy", mode, options_id(options)), 4):
        x = image(("scipy", mode, h, w), (h, w), dtype)
        factors = (H / h, W / w)
        want = _zoom(x, factors, mode, options)
        got = library_resize(x, library="scipy", mode=mode, scale_factor=factors, axes=(0, 1), **options)
        assert got.dtype == want.dtype and got.shape == want.shape, (h, w, H, W)
        assert np.abs(got - want).max() <= tolerance, f"{h}x{w} -> {H}x{W}: {np.abs(got - want).max():.3g}"


@pytest.mark.parametrize("mode", ["order0", "order1", "order3", "order5"])
def test_uint8_is_rounded_half_up_and_clamped(mode):
    worst = 0
    for h, w, H, W in size_grid(("scipy-u8", mode), 6):
        x = image(("su8", mode, h, w), (h, w), np.uint8)
        want = _zoom(x, (H / h, W / w), mode, {"boundary": "nearest"})
        got = library_resize(x, library="scipy", mode=mode, scale_factor=(H / h, W / w), axes=(0, 1),
                             boundary="nearest")
        assert got.dtype == np.uint8
        worst = max(worst, int(np.abs(got.astype(int) - want.astype(int)).max()))
    assert worst <= (0 if mode == "order0" else 1)  # one 2-D sum in scipy, two 1-D passes here


@pytest.mark.parametrize("boundary,init", [("reflect", "reflect"), ("mirror", "mirror"), ("grid-wrap", "wrap"),
                                           ("nearest", "reflect")])
@pytest.mark.parametrize("order", [2, 3, 4, 5])
def test_the_prefilter_is_scipys(order, boundary, init):
    """The coefficients of spline_filter1d, short lines included (reflect's in-place initialisation)."""
    for n in (2, 3, 5, 9, 40, 300):
        x = image(("pf", order, n), (n,), np.float64)
        want = ndi.spline_filter1d(x, order, mode=boundary)
        got = native.prefilter_band(n, order, init).dense() @ x
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12, err_msg=f"n={n}")
    x = image("pf-short", (3,), np.float64)
    symmetric = native._filter(np.eye(3), native.POLES[3], "reflect")
    assert np.abs(symmetric @ x - ndi.spline_filter1d(x, 3, mode="reflect")).max() < 1e-12


def test_order3_is_not_keys_cubic_and_has_no_gradient():
    x = image("keys", (9, 9), np.float64)
    spline = library_resize(x, library="scipy", mode="order3", scale_factor=(4 / 9, 4 / 9), axes=(0, 1),
                            grid_mode=True, boundary="nearest")
    keys = library_resize(x, (4, 4), library="torch", mode="bicubic", axes=(0, 1))
    assert np.abs(spline - keys).max() > 1e-3
    with pytest.raises(NoGradientError, match="no gradient"):
        library_resize_backward(np.ones((4, 4)), (9, 9), (4, 4), library="scipy", mode="order3")


def test_an_axis_of_factor_one_is_zoomed_too():
    """Note [every axis is zoomed]: two channels under mode='reflect' come out changed by scipy's prefilter."""
    x = image("channels", (6, 5, 2), np.float64)
    want = _zoom(x, (3 / 6, 8 / 5, 1), "order3", {"boundary": "reflect"})
    assert np.abs(want[..., 0] - _zoom(x[..., 0], (3 / 6, 8 / 5), "order3", {"boundary": "reflect"})).max() > 1e-5
    got = library_resize(x, (3, 8), library="scipy", mode="order3", axes=(0, 1), boundary="reflect")
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)

"""Live oracle: the explorer's scikit-image presets against ``skimage.transform.resize`` / ``rescale`` 0.26.

Every preset row (orders 0-5, anti-aliasing on and off, the border modes) on seeded small sizes: float64 within
1e-12, float32 within 1e-6 (scikit-image rounds the Gaussian's output to float32 before zooming); uint8 images
become float64 in [0, 1] (or keep their range with ``preserve_range``); ``clip``; ``rescale``'s lengths.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from preset_cases import image, options_id, size_grid

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets

transform = pytest.importorskip("skimage.transform", reason="scikit-image is an oracle installed by the 'oracles' "
                                                            "extra")

pytestmark = pytest.mark.oracle

ROWS = [(r.mode, r.options) for r in presets("skimage")]


def _kw(mode, options):
    kw = dict(options)
    if "boundary" in kw:
        kw["mode"] = kw.pop("boundary")
    kw.pop("function", None)
    return dict(order=int(mode[-1]), **kw)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_matches_resize(mode, options, dtype):
    tolerance = 1e-12 if dtype == np.float64 else 1e-6
    for h, w, H, W in size_grid(("skimage", mode, options_id(options)), 4):
        x = image(("sk", mode, h, w), (h, w, 2), dtype)
        want = transform.resize(x, (H, W, 2), **_kw(mode, options))
        got = library_resize(x, (H, W), library="skimage", mode=mode, axes=(0, 1), **options)
        assert got.dtype == want.dtype and got.shape == want.shape, (h, w, H, W)
        assert np.abs(got - want).max() <= tolerance, f"{h}x{w} -> {H}x{W}: {np.abs(got - want).max():.3g}"


@pytest.mark.parametrize("preserve_range", [False, True])
@pytest.mark.parametrize("mode", ["order0", "order1", "order3"])
def test_uint8_images(mode, preserve_range):
    for h, w, H, W in size_grid(("sku8", mode), 3):
        x = image(("sku8", mode, h, w), (h, w), np.uint8)
        want = transform.resize(x, (H, W), order=int(mode[-1]), preserve_range=preserve_range)
        got = library_resize(x, (H, W), library="skimage", mode=mode, preserve_range=preserve_range)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * (255 if preserve_range else 1))


def test_clip_and_rescale():
    x = np.array([[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]] * 3)
    for clip in (True, False):
        want = transform.resize(x, (3, 17), order=3, clip=clip, anti_aliasing=False)
        got = library_resize(x, (3, 17), library="skimage", mode="order3", clip=clip, anti_aliasing=False)
        np.testing.assert_allclose(got, want, atol=1e-12)
    unclipped = library_resize(x, (3, 17), library="skimage", mode="order3", clip=False, anti_aliasing=False)
    assert unclipped.max() > 1.0 or unclipped.min() < 0.0  # order 3 overshoots; clip brings it back
    y = image("rescale", (37, 53), np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = transform.rescale(y, 0.37)
    got = library_resize(y, library="skimage", mode="order1", function="rescale", scale_factor=0.37, axes=(0, 1))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, atol=1e-12)
    with pytest.raises(NoGradientError, match="no gradient"):
        library_resize_backward(np.ones((3, 3)), (6, 6), (3, 3), library="skimage", mode="order1")

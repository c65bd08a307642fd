"""Live oracle: explorer's Pillow presets against ``Image.resize`` ("F" float32 images, "L" and "RGB" uint8).

Every filter runs on a seeded grid of sizes 1..60 up and down; float32 to 1e-5, uint8 bit-exact (22-bit fixed
point, a rounded pass per axis in Pillow's order: width first unless the height shrinks by more than twice as
many pixels as the width).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.conventions import NoGradientError, library_resize, library_resize_backward
from explorer.conventions.libraries.pillow import vertical_first
from preset_cases import image, size_grid

Image = pytest.importorskip("PIL.Image", reason="Pillow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

FILTERS = ["NEAREST", "BOX", "BILINEAR", "HAMMING", "BICUBIC", "LANCZOS"]


def _pil(x, size, name):
    return np.asarray(Image.fromarray(x).resize((size[1], size[0]), getattr(Image.Resampling, name)))


@pytest.mark.parametrize("name", FILTERS)
def test_float32_matches_pillow(name):
    for h, w, H, W in size_grid(("pil", name), 30):
        x = image((name, h, w), (h, w))
        want = _pil(x, (H, W), name)
        got = library_resize(x, (H, W), library="pillow", mode=name)
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} -> {H}x{W}")


@pytest.mark.parametrize("channels", [1, 3], ids=["L", "RGB"])
@pytest.mark.parametrize("name", FILTERS)
def test_uint8_is_bit_exact(name, channels):
    mismatched = []
    for h, w, H, W in size_grid(("pilu8", name, channels), 40):
        shape = (h, w) if channels == 1 else (h, w, channels)
        x = image((name, h, w), shape, np.uint8)
        want = _pil(x, (H, W), name)
        got = library_resize(x, (H, W), library="pillow", mode=name, axes=(0, 1))
        assert got.dtype == np.uint8
        if not np.array_equal(got, want):
            mismatched.append((h, w, H, W))
    assert mismatched == []


def test_pass_order_rule_is_what_pillow_does():
    """Both sides of the boundary: 40 -> 20 rows with 20 -> 10 columns is width first, 41 -> 20 height first."""
    assert not vertical_first(40, 20, 20, 10) and vertical_first(41, 20, 20, 10)
    for h in (40, 41):
        x = image(("order", h), (h, 20), np.uint8)
        np.testing.assert_array_equal(library_resize(x, (20, 10), library="pillow", mode="LANCZOS"),
                                      _pil(x, (20, 10), "LANCZOS"))


def test_nearest_indices_match_pillow_for_every_size_pair():
    """Pillow accumulates x += n/m in double: at exact ties the sum can fall just short (4 -> 6 picks 2 at i=4)."""
    mismatched = []
    for n in range(1, 70):
        x = np.arange(n, dtype=np.float32).reshape(1, n)
        for m in range(1, 70):
            got = library_resize(x, (m,), library="pillow", mode="NEAREST")
            if not np.array_equal(got, _pil(x, (1, m), "NEAREST")):
                mismatched.append((n, m))
    assert mismatched == []
    assert library_resize(np.arange(4.0), (6,), library="pillow", mode="NEAREST").tolist() == [0, 1, 1, 2, 2, 3]


def test_pillow_has_no_gradient_and_unmodelled_options_are_named():
    with pytest.raises(NoGradientError, match="Pillow"):
        library_resize_backward(np.ones((2, 2)), (4, 4), (2, 2), library="pillow", mode="BICUBIC")
    with pytest.raises(ValueError, match="reducing_gap"):
        library_resize(np.ones((4, 4), np.float32), (2, 2), library="pillow", mode="BICUBIC", reducing_gap=2.0)


@pytest.mark.parametrize("mode", ["RGBA", "LA", "RGBX", "CMYK"])
def test_image_modes_with_and_without_premultiplied_alpha(mode):
    """Note [image modes]: RGBA and LA (what Image.fromarray makes of 4 and 2 bands) are resampled premultiplied;
    RGBX and CMYK band by band, when ``image_mode`` says so."""
    bands = 2 if mode == "LA" else 4
    x = image(("modes", mode), (23, 31, bands), np.uint8)
    x[..., -1] = np.resize(np.array([0, 3, 128, 255], np.uint8), x.shape[:2])
    for name in FILTERS:
        want = np.asarray(Image.fromarray(x, mode).resize((13, 40), getattr(Image.Resampling, name)))
        got = library_resize(x, (40, 13), library="pillow", mode=name, axes=(0, 1), image_mode=mode)
        np.testing.assert_array_equal(got, want, err_msg=name)
        if mode in ("RGBA", "LA"):  # the default reads the bands as Image.fromarray does
            np.testing.assert_array_equal(library_resize(x, (40, 13), library="pillow", mode=name, axes=(0, 1)), want)


def test_image_mode_must_fit_the_array():
    x = image("fit", (9, 7, 3), np.uint8)
    with pytest.raises(ValueError, match="image_mode='RGBA' has 4 band"):
        library_resize(x, (5, 5), library="pillow", mode="BILINEAR", axes=(0, 1), image_mode="RGBA")
    with pytest.raises(TypeError, match="8-bit"):
        library_resize(image("f", (9, 7, 4)), (5, 5), library="pillow", mode="BILINEAR", axes=(0, 1),
                       image_mode="RGBA")

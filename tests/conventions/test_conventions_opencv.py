"""Live oracle: explorer's OpenCV presets against ``cv2.resize``.

Every interpolation flag runs on a seeded grid of sizes 1..60 (HWC images, both axes up, down and mixed), with
``dsize`` and with ``fx``/``fy``; float32 to 1e-5 and float64 to 2e-6 (OpenCV keeps float32 coefficients even
for double images); uint8 bit-exact for INTER_NEAREST(_EXACT), INTER_LINEAR, INTER_LANCZOS4 and growing
INTER_AREA, within 1 LSB for INTER_CUBIC and shrinking INTER_AREA.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, library_resize_transpose
from preset_cases import image, size_grid

cv2 = pytest.importorskip("cv2", reason="OpenCV is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

FLAGS = ["INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4"]
BIT_EXACT_UINT8 = {"INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR", "INTER_LANCZOS4", "INTER_AREA"}


def _cv(x, size, flag, fx=None):
    if fx is None:
        out = cv2.resize(x, (size[1], size[0]), interpolation=getattr(cv2, flag))
    else:
        out = cv2.resize(x, None, fx=fx[1], fy=fx[0], interpolation=getattr(cv2, flag))
    return out.reshape(out.shape[:2] + x.shape[2:])


@pytest.mark.parametrize("dtype,tolerance", [(np.float32, 1e-5), (np.float64, 2e-6)], ids=["f32", "f64"])
@pytest.mark.parametrize("flag", FLAGS)
def test_forward_with_dsize_matches_opencv(flag, dtype, tolerance):
    for h, w, H, W in size_grid(("cv", flag), 25):
        x = image((flag, h, w), (h, w, 3), dtype)
        want = _cv(x, (H, W), flag)
        got = library_resize(x, (H, W), library="opencv", mode=flag, axes=(0, 1))
        assert got.dtype == dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=tolerance, err_msg=f"{h}x{w} -> {H}x{W}")


@pytest.mark.parametrize("flag", FLAGS)
def test_forward_with_fx_fy_uses_cvround_sizes_and_the_given_scale(flag):
    for h, w in [(5, 7), (9, 4), (12, 12), (31, 17), (4, 6)]:
        for factors in [(0.5, 0.5), (1.7, 1.3), (0.37, 2.2), (1.1, 1.1), (1.5, 0.7), (3.3, 0.25)]:
            x = image((flag, h, w, factors), (h, w))
            try:
                want = _cv(x, None, flag, fx=factors)
            except cv2.error:
                with pytest.raises(ValueError):
                    library_resize(x, library="opencv", mode=flag, scale_factor=factors, axes=(0, 1))
                continue
            got = library_resize(x, library="opencv", mode=flag, scale_factor=factors, axes=(0, 1))
            assert got.shape == want.shape, (h, w, factors)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} * {factors}")


@pytest.mark.parametrize("flag", FLAGS)
def test_uint8_follows_opencv_fixed_point(flag):
    worst = 0
    for h, w, H, W in size_grid(("cvu8", flag), 40):
        x = image((flag, h, w), (h, w, 3), np.uint8)
        want = _cv(x, (H, W), flag).astype(int)
        got = library_resize(x, (H, W), library="opencv", mode=flag, axes=(0, 1))
        assert got.dtype == np.uint8
        worst = max(worst, int(np.abs(got.astype(int) - want).max()))
    assert worst == 0 if flag in BIT_EXACT_UINT8 else worst <= 1


def test_uint8_area_is_bit_exact_when_an_axis_grows():
    for h, w, H, W in [(4, 9, 7, 5), (12, 5, 20, 3), (3, 3, 8, 11), (17, 40, 23, 9)]:
        x = image(("area", h, w), (h, w), np.uint8)
        np.testing.assert_array_equal(library_resize(x, (H, W), library="opencv", mode="INTER_AREA"),
                                      _cv(x, (H, W), "INTER_AREA"))


@pytest.mark.parametrize("flag", ["INTER_NEAREST", "INTER_NEAREST_EXACT"])
def test_nearest_indices_match_opencv_for_every_size_pair(flag):
    """INTER_NEAREST floors i * (1 / (m / n)) in double; INTER_NEAREST_EXACT accumulates n / m (Pillow's loop)."""
    mismatched = []
    for n in range(1, 70):
        x = np.arange(n, dtype=np.float32).reshape(1, n)
        for m in range(1, 70):
            want = _cv(x, (1, m), flag).ravel()
            got = library_resize(x, (m,), library="opencv", mode=flag).ravel()
            if not np.array_equal(got, want):
                mismatched.append((n, m))
    assert mismatched == []


def test_opencv_has_no_gradient_but_the_transpose_is_available():
    g = np.ones((3, 5), np.float32)
    with pytest.raises(NoGradientError, match="OpenCV"):
        library_resize_backward(g, (4, 7), (3, 5), library="opencv", mode="INTER_LINEAR")
    gt = library_resize_transpose(g, (4, 7), (3, 5), library="opencv", mode="INTER_LINEAR")
    x = image("adjoint", (4, 7))
    forward = library_resize(x, (3, 5), library="opencv", mode="INTER_LINEAR")
    assert float((forward * g).sum()) == pytest.approx(float((x * gt).sum()), abs=1e-5)


@pytest.mark.parametrize("flag", ["INTER_LINEAR", "INTER_CUBIC"])
def test_ipp_false_is_opencv_with_ipp_disabled(flag):
    """Note [which code runs]: without IPP, resizeGeneric's float coordinate (3000 -> 4097 moves weights by 1e-4)."""
    x = image(("noipp", flag), (6, 3000), np.float32)
    with_ipp = cv2.ipp.useIPP()
    try:
        cv2.ipp.setUseIPP(False)
        want = cv2.resize(x, (4097, 9), interpolation=getattr(cv2, flag))
    finally:
        cv2.ipp.setUseIPP(with_ipp)
    got = library_resize(x, (9, 4097), library="opencv", mode=flag, axes=(0, 1), ipp=False)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
    assert np.abs(library_resize(x, (9, 4097), library="opencv", mode=flag, axes=(0, 1)) - want).max() > 1e-5

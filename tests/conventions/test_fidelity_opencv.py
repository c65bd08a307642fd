"""Large-size oracle: ``library_resize(..., library="opencv")`` against ``cv2.resize`` (IPP HAL on, as shipped).

Sizes log-uniform up to 100 000 for one-row and one-column images and 8192 per axis in 2-D (tests/fidelity.py),
with ``dsize`` and with ``fx``/``fy`` (cells that overhang the image), float32, float64 and uint8 with 1 to 8
interleaved channels.  Which code runs depends on the image (IPP with double coordinates, or resizeGeneric with
float ones: Note [which code runs] in explorer.conventions.libraries.opencv).  Tolerances: float rounding of the
contraction (``fidelity.forward_tolerance``; float64 images too, as OpenCV keeps float32 coefficients outside
IPP), nearest exact, uint8 bit-exact except INTER_CUBIC (within 1 LSB: IPP's rounding is not modelled).
OpenCV has no gradient.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize

cv2 = pytest.importorskip("cv2", reason="OpenCV is an oracle installed by the 'oracles' extra")
cv2.setNumThreads(1)

pytestmark = pytest.mark.oracle

FLAGS = ["INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR", "INTER_LINEAR_EXACT", "INTER_CUBIC", "INTER_AREA",
         "INTER_LANCZOS4"]


def _case(x, flag, case, size=None, factors=None):
    try:
        _compare(x, flag, case, size, factors)
    except cv2.error as error:  # OpenCV refuses some inputs; the explorer must refuse them too
        assert "cn <= 4" in str(error), error
        with pytest.raises(NotImplementedError, match="at most 4 channels"):
            library_resize(x, size, library="opencv", mode=flag, axes=(0, 1), scale_factor=factors)


def _compare(x, flag, case, size, factors):
    if factors is None:
        want = cv2.resize(x, (size[1], size[0]), interpolation=getattr(cv2, flag))
        got = library_resize(x, size, library="opencv", mode=flag, axes=(0, 1))
    else:
        want = cv2.resize(x, None, fx=factors[1], fy=factors[0], interpolation=getattr(cv2, flag))
        got = library_resize(x, library="opencv", mode=flag, scale_factor=factors, axes=(0, 1))
    want = want.reshape(want.shape[:2] + x.shape[2:])
    if x.dtype == np.uint8:
        error = record("opencv", "uint8", "integer (LSB)", fidelity.lsb_error(got, want), case)
        assert error <= (1 if flag == "INTER_CUBIC" else 0), f"{case}: {error} LSB"
        return
    error = record("opencv", x.dtype.name, "forward", forward_error(got, want), case)
    tolerance = 0 if flag.startswith("INTER_NEAREST") else fidelity.forward_tolerance(np.float32, x.shape,
                                                                                      want.shape, (0, 1))
    assert error <= tolerance, f"{case}: error {error:.3g}"


def _image(gen, shape, dtype):
    if dtype == np.uint8:
        return gen.integers(0, 256, shape, dtype=np.uint8)
    return gen.random(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("flag", FLAGS)
def test_float_at_large_sizes(flag, dtype):
    gen = fidelity.rng("cv", flag, np.dtype(dtype).name)
    for k in range(fidelity.count(2)):
        if k == 0:  # a one-row or one-column image (resizeGeneric even where IPP would take a larger one)
            n, m = fidelity.sizes_1d(gen, low=2)
            shape, size = ((1, n), (1, m)) if gen.random() < 0.5 else ((n, 1), (m, 1))
        else:
            h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000))
            shape, size = (h, w), (H, W)
        _case(_image(gen, shape, dtype), flag, f"{flag} {shape} -> {size}", size=size)
    h, w = fidelity.log_uniform(gen, 2, 2000), fidelity.log_uniform(gen, 2, 2000)
    factors = (float(gen.uniform(0.05, 2.5)), float(gen.uniform(0.05, 2.5)))
    if round(h * factors[0]) >= 1 and round(w * factors[1]) >= 1:
        _case(_image(gen, (h, w, 3), dtype), flag, f"{flag} {(h, w)} * {factors}", factors=factors)


@pytest.mark.parametrize("channels", range(1, 9))
@pytest.mark.parametrize("flag", ["INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA",
                                  "INTER_LANCZOS4"])
def test_uint8_with_1_to_8_channels(flag, channels):
    gen = fidelity.rng("cv-u8", flag, channels)
    h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000) // channels, low=2)
    shape = (h, w, channels) if channels > 1 else (h, w)
    _case(_image(gen, shape, np.uint8), flag, f"{flag} uint8 {shape} -> {(H, W)}", size=(H, W))
    # exactly 2x smaller on both axes (INTER_LINEAR becomes resizeAreaFast), and cells that overhang the image
    h, w = 2 * fidelity.log_uniform(gen, 1, 300), 2 * fidelity.log_uniform(gen, 1, 300)
    shape = (h, w, channels) if channels > 1 else (h, w)
    _case(_image(gen, shape, np.uint8), flag, f"{flag} uint8 {shape} -> 2x smaller", size=(h // 2, w // 2))
    h, w = fidelity.log_uniform(gen, 3, 400), fidelity.log_uniform(gen, 3, 400)
    factors = (float(gen.choice([0.5, 1 / 3, 0.25, gen.uniform(0.1, 0.9)])), float(gen.uniform(0.1, 0.9)))
    shape = (h, w, channels) if channels > 1 else (h, w)
    if round(h * factors[0]) >= 1 and round(w * factors[1]) >= 1:
        _case(_image(gen, shape, np.uint8), flag, f"{flag} uint8 {shape} * {factors}", factors=factors)


def test_the_reported_paths():
    gen = fidelity.rng("cv-reported")
    _case(gen.random((7, 9)).astype(np.float32), "INTER_AREA", "area 7x9 * 0.3 (overhang)", factors=(0.3, 0.3))
    _case(gen.integers(0, 256, (7, 9), dtype=np.uint8), "INTER_AREA", "area uint8 7x9 * 0.3", factors=(0.3, 0.3))
    _case(np.ones((1001, 1001), np.float32), "INTER_AREA", "area constant 1001 -> 1000", size=(1000, 1000))
    _case(gen.random((1, 100000)).astype(np.float32), "INTER_LINEAR", "linear one row 100000 -> 99999",
          size=(1, 99999))
    _case(gen.random((4, 3000)).astype(np.float32), "INTER_CUBIC", "cubic IPP 4x3000 -> 5x4097", size=(5, 4097))
    for channels in (2, 5, 8):
        _case(gen.integers(0, 256, (40, 46, channels), dtype=np.uint8), "INTER_LINEAR",
              f"linear uint8 {channels}ch 2x", size=(20, 23))

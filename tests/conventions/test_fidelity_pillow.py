"""Large-size oracle: ``library_resize(..., library="pillow")`` against ``Image.resize``.

Sizes log-uniform up to 8192 per axis (tests/fidelity.py; one-row images up to 100 000 wide) for every filter,
on "F" (float32) images, 8-bit "L", "RGB", "RGBA" and "LA" images (premultiplied alpha, partly transparent),
and 16-bit "I;16" images with NEAREST.  Pillow has no float64 images and no gradient.  Tolerances: float32
rounding (``fidelity.forward_tolerance``), 8-bit and 16-bit bit-exact.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize

Image = pytest.importorskip("PIL.Image", reason="Pillow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

FILTERS = ["NEAREST", "BOX", "BILINEAR", "HAMMING", "BICUBIC", "LANCZOS"]
MODES = {"L": 0, "LA": 2, "RGB": 3, "RGBA": 4}


def _pil(x, size, name, mode=None):
    image = Image.fromarray(x, mode) if mode is not None else Image.fromarray(x)
    return np.asarray(image.resize((size[1], size[0]), getattr(Image.Resampling, name)))


def _sizes(gen, elements):
    if gen.random() < 0.25:
        n, m = fidelity.sizes_1d(gen)
        return 1, n, 1, m
    return fidelity.sizes_2d(gen, elements)


@pytest.mark.parametrize("name", FILTERS)
def test_float32_at_large_sizes(name):
    gen = fidelity.rng("pil-f", name)
    for _ in range(fidelity.count(3)):
        h, w, H, W = _sizes(gen, fidelity.budget(150_000))
        x = gen.random((h, w)).astype(np.float32)
        want = _pil(x, (H, W), name)
        got = library_resize(x, (H, W), library="pillow", mode=name)
        case = f"{name} F {(h, w)} -> {(H, W)}"
        error = record("pillow", "float32", "forward", forward_error(got, want), case)
        tolerance = 0 if name == "NEAREST" else fidelity.forward_tolerance(np.float32, x.shape, want.shape, (0, 1))
        assert error <= tolerance, f"{case}: error {error:.3g}"


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name", FILTERS)
def test_8bit_images_are_bit_exact(name, mode):
    gen = fidelity.rng("pil-u8", name, mode)
    bands = MODES[mode]
    for _ in range(fidelity.count(2)):
        h, w, H, W = _sizes(gen, fidelity.budget(100_000) // max(bands, 1))
        x = gen.integers(0, 256, (h, w, bands) if bands else (h, w), dtype=np.uint8)
        if mode in ("RGBA", "LA"):  # partly transparent, fully transparent and opaque pixels
            x[..., -1] = gen.choice(np.array([0, 1, 17, 128, 254, 255], np.uint8), size=(h, w))
        want = _pil(x, (H, W), name, mode)
        got = library_resize(x, (H, W), library="pillow", mode=name, axes=(0, 1))
        case = f"{name} {mode} {(h, w)} -> {(H, W)}"
        assert record("pillow", "uint8", "integer (LSB)", fidelity.lsb_error(got, want), case) == 0, case


def test_16bit_nearest_is_bit_exact():
    gen = fidelity.rng("pil-i16")
    for _ in range(fidelity.count(6)):
        h, w, H, W = _sizes(gen, fidelity.budget(150_000))
        x = gen.integers(0, 65536, (h, w), dtype=np.uint16)
        image = Image.fromarray(x)
        assert image.mode == "I;16"
        want = np.asarray(image.resize((W, H), Image.Resampling.NEAREST))
        got = library_resize(x, (H, W), library="pillow", mode="NEAREST")
        case = f"NEAREST I;16 {(h, w)} -> {(H, W)}"
        assert got.dtype == np.uint16
        assert record("pillow", "uint16", "integer (LSB)", fidelity.lsb_error(got, want), case) == 0, case


def test_hamming_uses_pillows_float_literals():
    """0.54f and 0.46f change a 22-bit weight for most size pairs and an output where a sum sits on a rounding
    boundary: 2 -> 179 on 4000 rows has 56 such pixels."""
    x = np.random.default_rng(5).integers(0, 256, (4000, 2), dtype=np.uint8)
    np.testing.assert_array_equal(library_resize(x, (4000, 179), library="pillow", mode="HAMMING"),
                                  _pil(x, (4000, 179), "HAMMING", "L"))

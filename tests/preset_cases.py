"""Shared size grids for the library preset oracle tests (tests/conventions/test_conventions_*.py)."""

from __future__ import annotations

import zlib

import numpy as np

# Fixed 2-D cases every grid includes: non-integer up and down, output length 1, input length 1, an exact 2x
# reduction, an identity axis, and the 4x4 -> 3x3 reference case (arange(16)).
FIXED_2D = [(4, 4, 3, 3), (5, 8, 8, 5), (7, 9, 1, 1), (1, 6, 4, 1), (12, 10, 6, 5), (9, 13, 9, 20), (3, 17, 11, 4)]


def seed(*parts) -> int:
    """A stable seed from any printable parts (so every parametrised case draws its own sizes)."""
    return zlib.crc32(repr(parts).encode())


def size_grid(key, count: int, top: int = 60, fixed=FIXED_2D):
    """``fixed`` plus ``count`` random (h, w, H, W) with every length in 1..top, seeded by ``key``."""
    rng = np.random.default_rng(seed(key))
    cases = list(fixed)
    while len(cases) < len(fixed) + count:
        cases.append(tuple(int(v) for v in rng.integers(1, top + 1, 4)))
    return cases


def image(key, shape, dtype=np.float32):
    """A reproducible image on [0, 1] (float) or [0, 255] (uint8)."""
    rng = np.random.default_rng(seed(key, shape))
    if np.dtype(dtype) == np.uint8:
        return rng.integers(0, 256, shape, dtype=np.uint8)
    return rng.random(shape).astype(dtype)


def options_id(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"

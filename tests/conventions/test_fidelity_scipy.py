"""Large-size oracle: ``library_resize(..., library="scipy")`` against ``scipy.ndimage.zoom`` at sizes log-uniform
up to 4096 per axis, every order and every boundary mode, both grid modes, float64 and float32.  scipy computes
in double: float64 within 1e-12 (the prefilter's recursions round differently from the explorer's composed
weights), float32 within its output rounding.  scipy.ndimage has no gradient (nothing to compare).
"""

from __future__ import annotations

import warnings

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize

ndi = pytest.importorskip("scipy.ndimage", reason="SciPy is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

BOUNDARIES = ["constant", "grid-constant", "nearest", "mirror", "reflect", "wrap", "grid-wrap"]


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_at_large_sizes(order, boundary):
    gen = fidelity.rng("scipy", order, boundary)
    for k in range(fidelity.count(1)):
        grid_mode = bool((order + BOUNDARIES.index(boundary) + k) % 2)
        dtype = np.float64 if (order + k) % 2 else np.float32
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000), top=4096)
        factors = (H / h, W / w)
        x = gen.random((h, w)).astype(dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = ndi.zoom(x, factors, order=order, mode=boundary, grid_mode=grid_mode)
        case = f"order{order} {boundary} grid_mode={grid_mode} {(h, w)} -> {want.shape}"
        got = library_resize(x, library="scipy", mode=f"order{order}", scale_factor=factors, axes=(0, 1),
                             boundary=boundary, grid_mode=grid_mode)
        error = record("scipy.ndimage", np.dtype(dtype).name, "forward", forward_error(got, want), case)
        tolerance = 1e-12 if dtype == np.float64 else fidelity.forward_tolerance(np.float32, x.shape, want.shape,
                                                                                  (0, 1))
        assert error <= tolerance, f"{case}: forward error {error:.3g}"


@pytest.mark.parametrize("order", [0, 1, 3])
def test_uint8_at_large_sizes(order):
    gen = fidelity.rng("scipy-u8", order)
    h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000), top=4096)
    x = gen.integers(0, 256, (h, w), dtype=np.uint8)
    want = ndi.zoom(x, (H / h, W / w), order=order, mode="nearest")
    got = library_resize(x, library="scipy", mode=f"order{order}", scale_factor=(H / h, W / w), axes=(0, 1),
                         boundary="nearest")
    error = record("scipy.ndimage", "uint8", "integer (LSB)", fidelity.lsb_error(got, want),
                   f"order{order} {(h, w)} -> {want.shape}")
    assert error <= (0 if order == 0 else 1)

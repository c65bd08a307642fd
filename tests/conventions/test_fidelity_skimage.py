"""Large-size oracle: ``library_resize(..., library="skimage")`` against ``skimage.transform.resize`` at sizes
log-uniform up to 4096 per axis: every order, the border modes, anti-aliasing on (the default when shrinking)
and off, float64 (within 1e-12) and float32 (scikit-image rounds the Gaussian's output to float32: within
float32 rounding); uint8 images become float64.  scikit-image has no gradient (nothing to compare).
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize

transform = pytest.importorskip("skimage.transform", reason="scikit-image is an oracle installed by the 'oracles' "
                                                            "extra")

pytestmark = pytest.mark.oracle

BOUNDARIES = ["reflect", "constant", "edge", "symmetric", "wrap"]


@pytest.mark.parametrize("order", range(6))
@pytest.mark.parametrize("boundary", BOUNDARIES)
def test_at_large_sizes(order, boundary):
    gen = fidelity.rng("skimage", order, boundary)
    for k in range(fidelity.count(1)):
        anti_aliasing = None if (order + k) % 3 else False
        dtype = np.float64 if (order + BOUNDARIES.index(boundary) + k) % 2 else np.float32
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000), top=4096)
        x = gen.random((h, w)).astype(dtype)
        want = transform.resize(x, (H, W), order=order, mode=boundary, anti_aliasing=anti_aliasing)
        case = f"order{order} {boundary} anti_aliasing={anti_aliasing} {(h, w)} -> {(H, W)}"
        got = library_resize(x, (H, W), library="skimage", mode=f"order{order}", boundary=boundary,
                             anti_aliasing=anti_aliasing)
        error = record("scikit-image", np.dtype(dtype).name, "forward", forward_error(got, want), case)
        tolerance = 1e-12 if dtype == np.float64 else fidelity.forward_tolerance(np.float32, x.shape, want.shape,
                                                                                  (0, 1))
        assert error <= tolerance, f"{case}: forward error {error:.3g}"


@pytest.mark.parametrize("order", [1, 3])
def test_uint8_images_at_large_sizes(order):
    gen = fidelity.rng("skimage-u8", order)
    h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000), top=4096)
    x = gen.integers(0, 256, (h, w), dtype=np.uint8)
    want = transform.resize(x, (H, W), order=order)
    got = library_resize(x, (H, W), library="skimage", mode=f"order{order}")
    error = record("scikit-image", "uint8 -> float64", "forward", forward_error(got, want),
                   f"order{order} {(h, w)} -> {(H, W)}")
    assert error <= 1e-12

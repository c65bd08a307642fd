"""Large-size oracle: ``library_resize(..., library="mlx")`` against ``mlx.nn.Upsample`` and ``mlx.core.grad`` at
sizes log-uniform up to 4096 per axis (factors from the drawn sizes).  MLX computes coordinates and weights in
float32 (``index_arithmetic="float32_unfused"``); tolerances: float32 rounding of the contraction; nearest exact.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize, library_resize_backward

mx = pytest.importorskip("mlx.core", reason="MLX is an oracle installed by the 'oracles' extra (mlx[cpu])")
nn = pytest.importorskip("mlx.nn", reason="MLX is an oracle installed by the 'oracles' extra (mlx[cpu])")

pytestmark = pytest.mark.oracle

CONFIGS = [("nearest", {}), ("linear", {}), ("linear", {"align_corners": True}), ("linear", {"antialias": True}),
           ("cubic", {}), ("cubic", {"align_corners": True}), ("cubic", {"antialias": True})]


@pytest.mark.parametrize("mode,options", CONFIGS, ids=[m + "".join(f"-{k}" for k in o) for m, o in CONFIGS])
def test_at_large_sizes(mode, options):
    gen = fidelity.rng("mlx", mode, tuple(options.items()))
    for _ in range(fidelity.count(2)):
        while True:
            h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000), top=4096)
            factors = (round(H / h, 4), round(W / w, 4))
            if int(factors[0] * h) >= 1 and int(factors[1] * w) >= 1 and (h, w) != (H, W):
                break
        case = f"{mode} {options} {(h, w)} x {factors}"
        x = gen.random((1, h, w, 1)).astype(np.float32)
        up = nn.Upsample(scale_factor=factors, mode=mode, **options)
        want = np.array(up(mx.array(x)))
        got = library_resize(x, library="mlx", mode=mode, scale_factor=factors, axes=(1, 2), **options)
        error = record("mlx", "float32", "forward", forward_error(got, want), case)
        tolerance = 0 if mode == "nearest" else fidelity.forward_tolerance(np.float32, x.shape, want.shape, (1, 2))
        assert error <= tolerance, f"{case}: forward error {error:.3g}"
        g = gen.standard_normal(want.shape).astype(np.float32)
        gx = np.array(mx.grad(lambda v: (up(v) * mx.array(g)).sum())(mx.array(x)))
        ours = library_resize_backward(g, x.shape, library="mlx", mode=mode, scale_factor=factors, axes=(1, 2),
                                       **options)
        error = record("mlx", "float32", "gradient", forward_error(ours, gx), case)
        tolerance = fidelity.gradient_tolerance(np.float32, x.shape, want.shape, (1, 2))
        assert error <= tolerance, f"{case}: gradient error {error:.3g} (tolerance {tolerance:.3g})"

"""Live oracle: the explorer's MLX presets against ``mlx.nn.Upsample`` and ``mlx.core.grad`` (Linux CPU).

Every preset row on seeded small sizes and factors (integer, growing and shrinking, per axis), forward and
gradient within 1e-5; nearest bit-exact; and what MLX rejects.
"""

from __future__ import annotations

import numpy as np
import pytest
from preset_cases import image, options_id, seed

from explorer.conventions import library_resize, library_resize_backward, presets

mx = pytest.importorskip("mlx.core", reason="MLX is an oracle installed by the 'oracles' extra (mlx[cpu])")
nn = pytest.importorskip("mlx.nn", reason="MLX is an oracle installed by the 'oracles' extra (mlx[cpu])")

pytestmark = pytest.mark.oracle

ROWS = [(r.mode, r.options) for r in presets("mlx")]
FACTORS = [(5, 7, 1.5, 2.0), (9, 4, 0.5, 0.37), (8, 8, 2.0, 3.0), (13, 17, 0.77, 1.31), (31, 7, 2.6, 0.21),
           (1, 6, 3.0, 0.5), (4, 4, 0.75, 0.75), (20, 3, 1.1, 4.0)]


def _cases(key):
    rng = np.random.default_rng(seed(key))
    cases = list(FACTORS)
    for _ in range(6):
        h, w = (int(v) for v in rng.integers(1, 40, 2))
        fh, fw = (float(np.round(v, 3)) for v in rng.uniform(0.2, 3.5, 2))
        if int(h * fh) >= 1 and int(w * fw) >= 1:
            cases.append((h, w, fh, fw))
    return cases


def _mlx(x, mode, options, factors):
    up = nn.Upsample(scale_factor=factors, mode=mode, **options)
    return up, np.array(up(mx.array(x)))


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_forward_and_gradient_match_mlx(mode, options):
    for h, w, fh, fw in _cases((mode, options_id(options))):
        x = image(("mlx", mode, h, w), (2, h, w, 3))
        up, want = _mlx(x, mode, options, (fh, fw))
        got = library_resize(x, library="mlx", mode=mode, scale_factor=(fh, fw), axes=(1, 2), **options)
        assert got.shape == want.shape, (h, w, fh, fw)
        tolerance = 0 if mode == "nearest" else 1e-5
        assert np.abs(got - want).max() <= tolerance, (h, w, fh, fw)
        g = image(("mlxg", mode, h, w), want.shape) - np.float32(0.5)
        gx = np.array(mx.grad(lambda v: (up(v) * mx.array(g)).sum())(mx.array(x)))
        ours = library_resize_backward(g, x.shape, library="mlx", mode=mode, scale_factor=(fh, fw), axes=(1, 2),
                                       **options)
        np.testing.assert_allclose(ours, gx, rtol=0, atol=1e-5, err_msg=f"{(h, w, fh, fw)}")


def test_linear_is_centred_not_half_pixel():
    """5 samples at 1.5 -> 7: MLX's start ((M-1)/s - N + 1)/2 = 0 gives x = i / 1.5 (PyTorch: (i+0.5)/1.5-0.5)."""
    x = np.arange(5, dtype=np.float32).reshape(1, 5, 1)
    _, want = _mlx(x, "linear", {}, (1.5,))
    got = library_resize(x, library="mlx", mode="linear", scale_factor=1.5, axes=(1,))
    np.testing.assert_allclose(got, want, atol=1e-6)
    np.testing.assert_allclose(want[0, :, 0], np.arange(7) / 1.5, atol=1e-6)
    torch_like = library_resize(x, library="torch", mode="linear", scale_factor=1.5, axes=(1,))
    assert np.abs(torch_like - want).max() > 0.1


def test_nearest_rules_per_axis():
    """Integer factors repeat; a growing axis rounds half to even, a shrinking one floors."""
    x = np.arange(10, dtype=np.float32).reshape(1, 10, 1)
    for factor in (2.0, 2.5, 0.5, 0.7, 1.3):
        _, want = _mlx(x, "nearest", {}, (factor,))
        got = library_resize(x, library="mlx", mode="nearest", scale_factor=factor, axes=(1,))
        np.testing.assert_array_equal(got, want, err_msg=str(factor))


def test_what_mlx_rejects():
    x = np.zeros((1, 4, 4, 1), np.float32)
    with pytest.raises(ValueError, match="antialias=True with align_corners=True is not supported"):
        nn.Upsample(scale_factor=0.5, mode="linear", align_corners=True, antialias=True)(mx.array(x))
    with pytest.raises(ValueError, match="antialias=True with align_corners=True is not supported"):
        library_resize(x, library="mlx", mode="linear", scale_factor=0.5, axes=(1, 2), align_corners=True,
                       antialias=True)

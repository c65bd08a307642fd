"""Large-size oracle: ``explorer.interpolate`` against ``torch.nn.functional.interpolate`` (CPU, autograd).

Sizes log-uniform up to 100 000 in 1-D and 8192 per axis in 2-D (helpers and the error table in
tests/fidelity.py), float32 and float64, forward and gradient; plus the edge paths: scale factors, every
align_corners/antialias combination, outputs one pixel wide, uint8 with 1 to 8 channels, NaN placement.
PyTorch computes float32 coordinates and weights in float32 (explorer.engine.native.pytorch); the tolerance
is the rounding of the contraction (``fidelity.forward_tolerance``: 3e-6 in float32, 1e-12 in float64, growing
with the taps an output sums) and, for gradients, one that grows with the outputs an input feeds
(``fidelity.gradient_tolerance``: PyTorch accumulates them in float32).
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

import explorer

torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
F = torch.nn.functional
pytestmark = pytest.mark.oracle


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """One thread for steadier timings of the oracle, restored after the module (the thread count picks
    PyTorch's 2-D bilinear kernel for 3-channel inputs: other modules compare reduced floats bit for bit)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)

DTYPES = [np.float32, np.float64]
CONFIGS_2D = [("bilinear", {}), ("bilinear", {"align_corners": True}), ("bicubic", {}),
              ("bicubic", {"align_corners": True}), ("bilinear", {"antialias": True}),
              ("bicubic", {"antialias": True}), ("lanczos", {"antialias": True}),
              ("bilinear", {"antialias": True, "align_corners": True}),
              ("bicubic", {"antialias": True, "align_corners": True}), ("area", {}), ("nearest", {}),
              ("nearest-exact", {})]


def _compare(x, mode, kw, dtype, case, gradient=True):
    """Forward and (optionally) gradient against torch; asserts both within tolerance."""
    label = np.dtype(dtype).name
    xt = torch.from_numpy(x).requires_grad_(gradient)
    yt = F.interpolate(xt, mode=mode, **kw)
    want = yt.detach().numpy()
    got = explorer.interpolate(x, mode=mode, **kw)
    forward = record("torch", label, "forward", forward_error(got, want), case)
    tolerance = fidelity.forward_tolerance(dtype, x.shape, want.shape, range(2, x.ndim))
    if mode.startswith("nearest"):
        tolerance = 0
    assert forward <= tolerance, f"{case}: forward error {forward:.3g}"
    if not gradient:
        return
    g = fidelity.rng("g", case).standard_normal(want.shape).astype(dtype)
    (gxt,) = torch.autograd.grad(yt, xt, torch.from_numpy(g))
    gx = explorer.interpolate_backward(g, x.shape, mode=mode, **kw)
    backward = record("torch", label, "gradient", forward_error(gx, gxt.numpy()), case)
    tolerance = fidelity.gradient_tolerance(dtype, x.shape, want.shape, range(2, x.ndim))
    assert backward <= tolerance, f"{case}: gradient error {backward:.3g} (tolerance {tolerance:.3g})"


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
def test_linear_1d_up_to_100000(dtype):
    gen = fidelity.rng("torch-1d", np.dtype(dtype).name)
    cases = [(3000, 4097, None, False), (100_000, 99_999, None, False)]  # the sizes the probe reported
    for k in range(fidelity.count(5)):
        n, m = fidelity.sizes_1d(gen)
        cases.append((n, m, None, bool(k % 2)))
    for _ in range(fidelity.count(2)):
        n = fidelity.log_uniform(gen, 100, 40_000)
        cases.append((n, None, float(gen.uniform(0.3, 2.5)), False))
    for n, m, factor, align in cases:
        x = gen.random((1, 2, n)).astype(dtype)
        kw = {"size": m} if factor is None else {"scale_factor": factor}
        if align:
            kw["align_corners"] = True
        case = f"linear {n} -> {m or factor}{' align_corners' if align else ''}"
        _compare(x, "linear", kw, dtype, case)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
@pytest.mark.parametrize("mode,options", CONFIGS_2D, ids=[m + "".join(f"-{k}" for k in o) for m, o in CONFIGS_2D])
def test_2d_up_to_8192_per_axis(mode, options, dtype):
    gen = fidelity.rng("torch-2d", mode, tuple(options), np.dtype(dtype).name)
    for k in range(fidelity.count(2)):
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000))
        x = gen.random((1, 1, h, w)).astype(dtype)
        kw = dict(options, size=(H, W))
        if k == 1 and mode != "area":  # a scale factor: the kernel steps by 1 / factor
            factors = (float(gen.uniform(0.2, 2.5)), float(gen.uniform(0.2, 2.5)))
            factors = tuple(max(f, 1.01 / n) for f, n in zip(factors, (h, w)))
            if int(h * factors[0]) * int(w * factors[1]) <= fidelity.budget(150_000):
                kw = dict(options, scale_factor=factors)
        case = f"{mode} {options} {(h, w)} -> {kw.get('size') or kw['scale_factor']}"
        _compare(x, mode, kw, dtype, case)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
def test_trilinear(dtype):
    gen = fidelity.rng("torch-3d", np.dtype(dtype).name)
    for k in range(fidelity.count(3)):
        shape = tuple(fidelity.log_uniform(gen, 1, 64) for _ in range(3))
        size = tuple(fidelity.log_uniform(gen, 1, 64) for _ in range(3))
        kw = {"size": size, "align_corners": bool(k % 2)}
        case = f"trilinear {shape} -> {size} {kw}"
        _compare(gen.random((1, 1, *shape)).astype(dtype), "trilinear", kw, dtype, case)


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
def test_nearest_1d_up_to_100000_picks_the_same_samples(mode):
    gen = fidelity.rng("torch-nearest", mode)
    for _ in range(fidelity.count(6)):
        n, m = fidelity.sizes_1d(gen)
        x = np.arange(n, dtype=np.float32).reshape(1, 1, n)
        case = f"{mode} {n} -> {m}"
        _compare(x, mode, {"size": m}, np.float32, case)


@pytest.mark.parametrize("channels", range(1, 9))
def test_uint8_is_bit_exact_including_outputs_one_pixel_wide(channels):
    """Channels <= 4 take PyTorch's AVX2 kernel, more take the separable kernel (Note [antialias output width
    1] in explorer.conventions.libraries.pytorch): both, with outputs one pixel wide."""
    gen = fidelity.rng("torch-u8", channels)
    configs = [("bilinear", False), ("bicubic", False), ("bilinear", True), ("bicubic", True), ("lanczos", True)]
    for k, (mode, antialias) in enumerate(configs):
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(60_000) // channels, top=4000)
        for size in [(H, W), (H, 1)]:
            if channels == 3 and size == (1, 1) and h != 1:
                continue  # PyTorch's assert; tested below
            x = gen.integers(0, 256, (1, channels, h, w), dtype=np.uint8)
            want = F.interpolate(torch.from_numpy(x), size=size, mode=mode, antialias=antialias).numpy()
            got = explorer.interpolate(x, size=size, mode=mode, antialias=antialias)
            case = f"uint8 {channels}ch {mode} aa={antialias} {(h, w)} -> {size}"
            assert record("torch", "uint8", "integer (LSB)", fidelity.lsb_error(got, want), case) == 0, case


def test_uint8_three_channels_to_1x1_fails_like_pytorch():
    x = np.zeros((1, 3, 5, 4), np.uint8)
    with pytest.raises(RuntimeError, match="INTERNAL ASSERT"):
        F.interpolate(torch.from_numpy(x), size=(1, 1), mode="bilinear", antialias=True)
    with pytest.raises(NotImplementedError, match="internal assert"):
        explorer.interpolate(x, size=(1, 1), mode="bilinear", antialias=True)


NAN_CASES = [((9,), (9,), "linear", {}), ((2, 2), (4, 4), "bilinear", {}), ((12, 12), (12, 12), "lanczos",
             {"antialias": True}), ((3, 3, 3), (4, 5, 6), "trilinear", {}), ((7, 9), (12, 5), "bicubic", {}),
             ((17, 19), (6, 25), "bicubic", {"antialias": True}), ((17, 19), (17, 25), "bilinear", {"antialias": True}),
             ((13, 19), (5, 7), "lanczos", {"antialias": True}), ((40,), (17,), "linear", {}),
             ((6, 5, 4), (3, 5, 9), "trilinear", {})]


@pytest.mark.parametrize("shape,size,mode,options", NAN_CASES, ids=[f"{c[2]}-{c[0]}-{c[1]}" for c in NAN_CASES])
def test_nan_reaches_the_outputs_whose_taps_read_it(shape, size, mode, options):
    """PyTorch multiplies every tap it reads, weight 0 included (0 * nan = nan)."""
    gen = fidelity.rng("torch-nan", shape, size, mode)
    for _ in range(4):
        x = gen.random((1, 1, *shape))
        x[(0, 0) + tuple(int(gen.integers(s)) for s in shape)] = np.nan
        want = F.interpolate(torch.from_numpy(x), size=size, mode=mode, **options).numpy()
        got = explorer.interpolate(x, size=size, mode=mode, **options)
        case = f"{mode} {shape} -> {size} NaN"
        assert record("torch", "float64", "NaN placement", float((np.isnan(got) != np.isnan(want)).sum()), case) == 0
        finite = np.isfinite(want)
        np.testing.assert_allclose(got[finite], want[finite], atol=1e-12)

"""Live oracle: explorer.interpolate / interpolate_backward against torch.nn.functional.interpolate (CPU).

Forward outputs and autograd gradients are compared over a seeded grid of odd sizes, non-integer ratios up
and down, output size 1, 1/2/3 spatial dims, align_corners, antialias, and scale_factor with and without
recompute_scale_factor.  Nearest indices are compared exhaustively for every size pair up to 69.
"""

from __future__ import annotations

import numpy as np
import pytest

import explorer

torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
F = torch.nn.functional

pytestmark = pytest.mark.oracle

# (mode, spatial dims, options)
CONFIGS = [
    ("nearest", 1, {}), ("nearest", 2, {}), ("nearest", 3, {}),
    ("nearest-exact", 1, {}), ("nearest-exact", 2, {}), ("nearest-exact", 3, {}),
    ("linear", 1, {}), ("linear", 1, {"align_corners": True}),
    ("bilinear", 2, {}), ("bilinear", 2, {"align_corners": True}),
    ("bilinear", 2, {"antialias": True}), ("bilinear", 2, {"antialias": True, "align_corners": True}),
    ("bicubic", 2, {}), ("bicubic", 2, {"align_corners": True}),
    ("bicubic", 2, {"antialias": True}), ("bicubic", 2, {"antialias": True, "align_corners": True}),
    ("trilinear", 3, {}), ("trilinear", 3, {"align_corners": True}),
    ("area", 1, {}), ("area", 2, {}), ("area", 3, {}),
    ("lanczos", 2, {"antialias": True}),
]


def _cases(dims: int, seed: int, count: int):
    """Size pairs for one config: random odd/non-integer ratios, plus fixed corner cases."""
    rng = np.random.default_rng(seed)
    top = {1: 60, 2: 40, 3: 12}[dims]
    fixed = [
        dict(n=[5] * dims, size=[8] * dims),                      # 1.6x up
        dict(n=[8] * dims, size=[5] * dims),                      # 0.625x down
        dict(n=[7] * dims, size=[1] * dims),                      # output size 1
        dict(n=[1] * dims, size=[4] * dims),                      # input size 1
        dict(n=[4] * dims, size=[4] * dims),                      # same size
        dict(n=[5] * dims, scale=[1.7] * dims),                   # non-integer factor
        dict(n=[5] * dims, scale=[1.7] * dims, recompute=True),
        dict(n=[5] * dims, scale=[1.1] * dims),                   # same size from a factor
        dict(n=[4] * dims, scale=[2.1] * dims),                   # m == 2n from a factor
        dict(n=[9] * dims, scale=[0.75] * dims),                  # the 0.75x downscale
        dict(n=[6] * dims, scale=[3.0] * dims),
        dict(n=[6] * dims, size=[4] * (dims - 1) + [1]),         # one pixel wide, height resized
        dict(n=[5] * dims, size=[1] * (dims - 1) + [3]),         # one pixel high
    ]
    out = list(fixed)
    for _ in range(count):
        n = rng.integers(1, top + 1, size=dims).tolist()
        if rng.random() < 0.5:
            out.append(dict(n=n, size=rng.integers(1, top + 1, size=dims).tolist()))
        else:
            scale = np.round(rng.uniform(0.2, 3.2, size=dims), 3).tolist()
            n = [max(k, int(np.ceil(1 / s))) for k, s in zip(n, scale)]
            out.append(dict(n=n, scale=scale, recompute=bool(rng.random() < 0.4)))
    return out


def _params():
    for c, (mode, dims, opts) in enumerate(CONFIGS):
        for k, case in enumerate(_cases(dims, seed=1000 + c, count=14)):
            name = f"{mode}-{dims}d-{'-'.join(f'{a}' for a in opts) or 'plain'}-{k}"
            yield pytest.param(mode, dims, opts, case, id=name)


def _kwargs(case, opts):
    kw = dict(opts)
    if "size" in case:
        kw["size"] = tuple(case["size"])
    else:
        kw["scale_factor"] = tuple(case["scale"])
        if case.get("recompute"):
            kw["recompute_scale_factor"] = True
    return kw


def _tolerance(dtype, reference):
    scale = max(1.0, float(np.abs(reference).max(initial=0.0)))
    return (1e-5 if dtype == np.float32 else 1e-10) * scale


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("mode,dims,opts,case", list(_params()))
def test_forward_and_gradient_match_torch(mode, dims, opts, case, dtype):
    rng = np.random.default_rng(7)
    shape = (2, 3, *case["n"]) if dims < 3 else (1, 2, *case["n"])
    x = rng.random(shape).astype(dtype)
    kw = _kwargs(case, opts)
    xt = torch.from_numpy(x).requires_grad_(True)
    yt = F.interpolate(xt, mode=mode, **kw)
    g = rng.standard_normal(tuple(yt.shape)).astype(dtype)
    (gxt,) = torch.autograd.grad(yt, xt, torch.from_numpy(g))

    y = explorer.interpolate(x, mode=mode, **kw)
    assert y.shape == tuple(yt.shape)
    assert y.dtype == dtype
    np.testing.assert_allclose(y, yt.detach().numpy(), rtol=0, atol=_tolerance(dtype, y))

    gx = explorer.interpolate_backward(g, x.shape, mode=mode, **kw)
    assert gx.shape == x.shape and gx.dtype == dtype
    np.testing.assert_allclose(gx, gxt.numpy(), rtol=0, atol=_tolerance(dtype, gxt.numpy()))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("dims,lead", [(1, 1), (2, 1), (2, 100), (3, 1)],
                         ids=["1d", "2d-small-output", "2d-large-output", "3d"])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
def test_nearest_indices_match_torch_for_every_size_pair(mode, dims, lead, dtype):
    """Every (n, m) up to 69, including the float32 ties where PyTorch is not the exact rational rule.

    In 2-D, PyTorch switches kernels (and index arithmetic) when H_out + W_out exceeds 128: ``lead`` is the
    output height that puts the call on one side or the other of that switch.
    """
    npdtype = np.float32 if dtype == torch.float32 else np.float64
    mismatched = []
    for n in range(1, 70):
        x = np.arange(n, dtype=npdtype).reshape((1, 1) + (1,) * (dims - 1) + (n,))
        xt = torch.from_numpy(x)
        for m in range(1, 70):
            size = (lead,) * (dims - 1) + (m,)
            want = F.interpolate(xt, size=size, mode=mode).numpy().ravel()
            got = explorer.interpolate(x, size=size, mode=mode).ravel()
            if not np.array_equal(want, got):
                mismatched.append((n, m))
            leaf = xt.clone().requires_grad_(True)
            (gxt,) = torch.autograd.grad(F.interpolate(leaf, size=size, mode=mode).sum(), leaf)
            gx = explorer.interpolate_backward(np.ones((1, 1, *size), npdtype), x.shape, size=size, mode=mode)
            if not np.array_equal(gx, gxt.numpy()):
                mismatched.append((n, m, "backward"))

    assert mismatched == []


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact"])
@pytest.mark.parametrize("dims", [1, 2, 3])
def test_nearest_with_scale_factor_matches_torch(mode, dims):
    """The 2-D kernels' m == n and m == 2n shortcuts ignore the scale factor; 1-D/3-D kernels do not."""
    mismatched = []
    for n in range(1, 25):
        x = np.arange(n, dtype=np.float32).reshape((1, 1) + (1,) * (dims - 1) + (n,))
        for f in (0.3, 0.5, 0.77, 1.1, 1.5, 1.99, 2.1, 2.5, 3.3):
            if int(n * f) < 1:
                continue
            sf = (1.0,) * (dims - 1) + (f,)
            want = F.interpolate(torch.from_numpy(x), scale_factor=sf, mode=mode).numpy().ravel()
            got = explorer.interpolate(x, scale_factor=sf, mode=mode).ravel()
            if not np.array_equal(want, got):
                mismatched.append((n, f))
    assert mismatched == []


def test_float16_matches_torch_within_half_precision():
    rng = np.random.default_rng(3)
    x = rng.random((1, 2, 9, 13)).astype(np.float16)
    for mode in ["nearest", "nearest-exact", "bilinear", "bicubic", "area"]:
        want = F.interpolate(torch.from_numpy(x), size=(14, 6), mode=mode).numpy()
        got = explorer.interpolate(x, size=(14, 6), mode=mode)
        assert got.dtype == np.float16
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), atol=2e-3)


def test_uint8_nearest_matches_torch_bit_exactly():
    rng = np.random.default_rng(4)
    x = rng.integers(0, 256, (1, 3, 11, 17), dtype=np.uint8)
    for mode in ["nearest", "nearest-exact"]:
        want = F.interpolate(torch.from_numpy(x), size=(7, 30), mode=mode).numpy()
        got = explorer.interpolate(x, size=(7, 30), mode=mode)
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode,antialias", [("bilinear", False), ("bicubic", False), ("bilinear", True),
                                            ("bicubic", True), ("lanczos", True)])
def test_uint8_interpolating_modes_match_torch_bit_exactly(mode, antialias):
    """PyTorch's uint8 kernels: int16 weights with adaptive precision, each pass rounded and saturated."""
    rng = np.random.default_rng(6)
    for shape, size in [((1, 3, 37, 53), (11, 7)), ((2, 1, 9, 13), (20, 31)), ((1, 4, 16, 16), (16, 8))]:
        x = rng.integers(0, 256, shape, dtype=np.uint8)
        want = F.interpolate(torch.from_numpy(x), size=size, mode=mode, antialias=antialias).numpy()
        got = explorer.interpolate(x, size=size, mode=mode, antialias=antialias)
        assert got.dtype == np.uint8
        np.testing.assert_array_equal(got, want)


def test_nan_and_inf_reach_the_same_outputs_as_torch():
    """A dense block product would spread NaN to a whole block; the tap-exact path must not."""
    rng = np.random.default_rng(5)
    for mode, kw in [("bilinear", {}), ("bicubic", {}), ("bilinear", {"antialias": True}),
                     ("lanczos", {"antialias": True}), ("area", {}), ("nearest", {})]:
        x = rng.random((1, 1, 23, 29))
        x[0, 0, 11, 13] = np.nan
        x[0, 0, 3, 20] = np.inf
        for size in [(50, 61), (9, 12)]:
            want = F.interpolate(torch.from_numpy(x), size=size, mode=mode, **kw).numpy()
            got = explorer.interpolate(x, size=size, mode=mode, **kw)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=f"{mode} {kw} {size}")
            np.testing.assert_array_equal(np.isinf(got), np.isinf(want), err_msg=f"{mode} {kw} {size}")
            fin = np.isfinite(want)
            np.testing.assert_allclose(got[fin], want[fin], atol=1e-10)


ERROR_CASES = [
    (dict(size=4, scale_factor=2.0), ValueError),
    (dict(), ValueError),
    (dict(size=(4, 4, 4)), ValueError),
    (dict(size=(4.0, 4)), TypeError),
    (dict(size=(4, 4), recompute_scale_factor=True), ValueError),
    (dict(size=(4, 4), mode="nearest", align_corners=True), ValueError),
    (dict(size=(4, 4), mode="area", align_corners=False), ValueError),
    (dict(size=(4, 4), mode="nearest", antialias=True), ValueError),
    (dict(size=(4, 4), mode="lanczos"), ValueError),
    (dict(size=(4, 4), mode="lanczos", antialias=True, align_corners=True), ValueError),
    (dict(size=(4, 4), mode="linear"), NotImplementedError),
    (dict(size=(4, 4), mode="trilinear"), NotImplementedError),
    (dict(size=(4, 4), mode="bicubc"), NotImplementedError),
    (dict(size=(0, 4), mode="bilinear"), RuntimeError),
]


@pytest.mark.parametrize("kwargs,error", ERROR_CASES, ids=[str(i) for i in range(len(ERROR_CASES))])
def test_argument_errors_match_torch_exception_types(kwargs, error):
    x = np.zeros((1, 1, 5, 5), np.float32)
    with pytest.raises(error):
        F.interpolate(torch.from_numpy(x), **kwargs)
    with pytest.raises(error):
        explorer.interpolate(x, **kwargs)


@pytest.mark.parametrize("shape,kwargs", [
    ((1, 2, 4), {"size": 0}),
    ((1, 1, 4, 4), {"size": (0, 3)}),
    ((2, 1, 4, 4), {"scale_factor": 0.2}),
    ((1, 1, 4, 4), {"scale_factor": (0.2, 1.0)}),
    ((1, 1, 4, 4, 4), {"size": (2, 0, 2)}),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.uint8, np.int32])
def test_area_to_an_empty_output_is_empty_as_in_torch(shape, kwargs, dtype):
    x = np.zeros(shape, dtype)
    if len(shape) == 5 and dtype in (np.uint8, np.int32):  # the 3-D pooling checks the dtype even then
        with pytest.raises(NotImplementedError) as torch_error:
            F.interpolate(torch.from_numpy(x), mode="area", **kwargs)
        with pytest.raises(NotImplementedError) as ours:
            explorer.interpolate(x, mode="area", **kwargs)
        assert str(ours.value) == str(torch_error.value)
        return
    expected = F.interpolate(torch.from_numpy(x), mode="area", **kwargs)
    y = explorer.interpolate(x, mode="area", **kwargs)
    assert y.shape == tuple(expected.shape) and y.dtype == x.dtype
    g = np.zeros(y.shape, np.float32)
    xt = torch.zeros(shape, requires_grad=True)
    with pytest.raises(RuntimeError) as torch_error:
        F.interpolate(xt, mode="area", **kwargs).sum().backward()
    with pytest.raises(RuntimeError) as ours:
        explorer.interpolate_backward(g, shape, mode="area", **kwargs)
    assert str(ours.value) == str(torch_error.value)
    with pytest.raises(RuntimeError, match="sizes should be greater than 0"):
        explorer.interpolate(x.astype(np.float32), mode="nearest", **kwargs)


ZERO_CHANNEL_CALLS = [(mode, dims, kw) for mode, dims, kw in [
    ("nearest", 1, {}), ("nearest", 2, {}), ("nearest", 3, {}), ("nearest-exact", 2, {}), ("linear", 1, {}),
    ("bilinear", 2, {}), ("bicubic", 2, {}), ("trilinear", 3, {}), ("bilinear", 2, {"antialias": True}),
    ("lanczos", 2, {"antialias": True}), ("area", 1, {}), ("area", 2, {}), ("area", 3, {})]]


@pytest.mark.parametrize("lead", [(2, 0), (0, 0), (0, 2)], ids=["C0", "N0C0", "N0"])
@pytest.mark.parametrize("mode,dims,kw", ZERO_CHANNEL_CALLS,
                         ids=[f"{m}-{d}d{'-aa' if k else ''}" for m, d, k in ZERO_CHANNEL_CALLS])
def test_empty_batch_and_channels_are_refused_or_accepted_as_in_torch(mode, dims, kw, lead):
    """Zero channels: every upsample kernel refuses them ("Non-empty 4D data tensor expected ..."); area
    accepts them forward in 1-D and 2-D but not in 3-D, and its backward refuses them.  A zero batch passes."""
    shape, size = lead + (4,) * dims, (6,) * dims
    for direction in ("forward", "backward"):
        xt = torch.zeros(shape, requires_grad=direction == "backward")
        try:
            yt = F.interpolate(xt, size=size, mode=mode, **kw)
            if direction == "backward":
                yt.backward(torch.zeros(yt.shape))
            refused = None
        except RuntimeError as exc:
            refused = str(exc)
        x = np.zeros(shape, np.float32)
        if refused is None:
            if direction == "forward":
                assert explorer.interpolate(x, size=size, mode=mode, **kw).shape == tuple(yt.shape)
            else:
                assert explorer.interpolate_backward(np.zeros(lead + size, np.float32), shape, size=size, mode=mode,
                                                     **kw).shape == shape
            continue
        with pytest.raises(RuntimeError) as ours:
            if direction == "forward":
                explorer.interpolate(x, size=size, mode=mode, **kw)
            else:
                explorer.interpolate_backward(np.zeros(lead + size, np.float32), shape, size=size, mode=mode, **kw)
        assert str(ours.value) == refused, direction

"""Properties every resize must have, for random specs and sizes (hypothesis).

Every mode is a linear map ``y = W x``; the backward is ``W.T g``.  These tests check the engine against
that mathematics directly: adjointness, finite differences, linearity, the dense weight matrix,
separability, identity resizes and partition of unity.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import explorer
from explorer import Spec
from explorer.engine.coords import ARITHMETIC, BOUNDARIES, ROUNDING, TRANSFORMS
from explorer.engine.kernels import KERNEL_NAMES, KERNELS
from explorer.engine.native import NATIVE
from explorer.engine.native.ndimage import ORDERS
from explorer.errors import ArgumentValueError

SETTINGS = settings(max_examples=int(__import__("os").environ.get("EXPLORER_HYPOTHESIS_EXAMPLES", 150)), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def specs(draw):
    kernel = draw(st.sampled_from(KERNEL_NAMES))
    transform = draw(st.sampled_from(sorted(TRANSFORMS)))
    roi = None
    if transform == "tf_crop_and_resize":
        start = draw(st.floats(-0.3, 0.8))
        roi = (start, start + draw(st.floats(0.1, 0.9)))
    return Spec(
        kernel=kernel,
        coordinate_transformation_mode=transform,
        nearest_mode=draw(st.sampled_from(sorted(ROUNDING))),
        cubic_coeff_a=draw(st.sampled_from([-0.75, -0.5, -0.6])),
        exclude_outside=draw(st.booleans()),
        antialias=draw(st.booleans()),
        extrapolation_value=draw(st.sampled_from([0.0, -1.5])),
        roi=roi,
        index_arithmetic=draw(st.sampled_from(sorted(ARITHMETIC))),
    )


@st.composite
def spline_specs(draw):
    """scipy.ndimage's splines: every order, boundary, prefilter and the Gaussian anti-aliasing (the ndimage row)."""
    return Spec(
        kernel=draw(st.sampled_from(sorted(ORDERS))),
        coordinate_transformation_mode=draw(st.sampled_from(["half_pixel", "align_corners"])),
        nearest_mode="round_prefer_ceil",
        boundary=draw(st.sampled_from(sorted(BOUNDARIES))),
        prefilter=draw(st.booleans()),
        antialias=draw(st.booleans()),
        index_arithmetic="ndimage",
    )


def any_specs():
    return st.one_of(specs(), spline_specs())


sizes = st.integers(1, 40)
scales = st.one_of(st.none(), st.floats(0.15, 4.0))


@SETTINGS
@given(spec=any_specs(), n=sizes, m=sizes, scale=scales, seed=st.integers(0, 2**31))
def test_backward_is_the_adjoint_of_forward(spec, n, m, scale, seed):
    """<A x, g> == <x, A^T g> (affine part removed: extrapolation constants do not depend on x)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((3, n))
    g = rng.standard_normal((3, m))
    zero = explorer.resize(np.zeros_like(x), (m,), spec, scale_factor=scale)
    y = explorer.resize(x, (m,), spec, scale_factor=scale) - zero
    gx = explorer.resize_backward(g, x.shape, (m,), spec, scale_factor=scale)
    assert np.isclose(np.vdot(y, g), np.vdot(x, gx), rtol=1e-10, atol=1e-10)


@SETTINGS
@given(spec=any_specs(), n=sizes, m=sizes, scale=scales, seed=st.integers(0, 2**31))
def test_forward_equals_the_dense_weight_matrix(spec, n, m, scale, seed):
    x = np.random.default_rng(seed).standard_normal(n)
    plan = explorer.axis_plan(n, m, spec, scale, dtype=x.dtype)
    y = explorer.resize(x, (m,), spec, scale_factor=scale)
    expected = explorer.weights(n, m, spec, scale, dtype=x.dtype) @ x
    if plan.outside is not None:
        expected[plan.outside] = spec.extrapolation_value
    np.testing.assert_allclose(y, expected, rtol=1e-12, atol=1e-12)


@SETTINGS
@given(spec=any_specs(), shape=st.tuples(sizes, sizes), size=st.tuples(sizes, sizes), seed=st.integers(0, 2**31))
def test_finite_differences_match_the_gradient(spec, shape, size, seed):
    """d/dh <f(x + h v), g> at h=0, by central differences, equals <resize_backward(g), v>."""
    rng = np.random.default_rng(seed)
    x, v = rng.standard_normal(shape), rng.standard_normal(shape)
    g = rng.standard_normal(size)
    h = 1e-3
    f = lambda z: np.vdot(explorer.resize(z, size, spec), g)  # noqa: E731
    numeric = (f(x + h * v) - f(x - h * v)) / (2 * h)
    analytic = np.vdot(explorer.resize_backward(g, shape, size, spec), v)
    assert np.isclose(numeric, analytic, rtol=1e-7, atol=1e-7)


@SETTINGS
@given(spec=any_specs(), n=sizes, m=sizes, a=st.floats(-3, 3), b=st.floats(-3, 3), seed=st.integers(0, 2**31))
def test_linearity(spec, n, m, a, b, seed):
    spec = spec.replace(extrapolation_value=0.0)
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal((2, n)), rng.standard_normal((2, n))
    lhs = explorer.resize(a * x + b * y, (m,), spec)
    rhs = a * explorer.resize(x, (m,), spec) + b * explorer.resize(y, (m,), spec)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-10, atol=1e-10)


@SETTINGS
@given(spec=any_specs(), h=sizes, w=sizes, size=st.tuples(sizes, sizes), seed=st.integers(0, 2**31))
def test_two_axes_are_separable_and_axes_can_be_anywhere(spec, h, w, size, seed):
    """A 2-D resize is the Kronecker product of the per-axis matrices, in CHW or HWC layout."""
    rng = np.random.default_rng(seed)
    img = rng.standard_normal((2, h, w))
    spec = spec.replace(extrapolation_value=0.0)
    wh = explorer.weights(h, size[0], spec, dtype=img.dtype)
    ww = explorer.weights(w, size[1], spec, dtype=img.dtype)
    chw = explorer.resize(img, size, spec)
    np.testing.assert_allclose(chw, np.einsum("ih,chw,jw->cij", wh, img, ww), rtol=1e-10, atol=1e-10)
    hwc = explorer.resize(img.transpose(1, 2, 0), size, spec, axes=(0, 1))
    np.testing.assert_allclose(hwc, chw.transpose(1, 2, 0), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(chw.shape)
    back = explorer.resize_backward(g.transpose(1, 2, 0), (h, w, 2), size, spec, axes=(0, 1))
    np.testing.assert_allclose(back.transpose(2, 0, 1), np.einsum("ih,cij,jw->chw", wh, g, ww),
                               rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("kernel", [k for k, v in KERNELS.items() if v.interpolating] + ["nearest", "area",
                                                                                        "adaptive_area"])
@pytest.mark.parametrize("transform", ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel"])
@pytest.mark.parametrize("n", [1, 2, 7, 33])
def test_same_size_is_the_identity_for_interpolating_kernels(kernel, transform, n):
    for antialias in (False, True):
        for exclude in (False, True):
            spec = Spec(kernel, coordinate_transformation_mode=transform, antialias=antialias,
                        exclude_outside=exclude, nearest_mode="round_prefer_ceil")
            np.testing.assert_allclose(explorer.weights(n, n, spec), np.eye(n), atol=1e-12)


@SETTINGS
@given(spec=specs(), n=sizes, m=sizes, scale=scales)
def test_rows_sum_to_one(spec, n, m, scale):
    """Every output is a weighted average (partition of unity), except extrapolated crop samples and,
    with exclude_outside, samples whose every tap lies outside the input (they read nothing: 0) or whose
    taps inside it all weigh 0 (cubic one input 1 -> 2 asymmetric at scale 1: the second output lies one pixel
    from the only input, where the kernel is 0; nothing is left to renormalise, the row stays 0).

    Rows computed in a library's own arithmetic (explorer.engine.native) sum to one within float32 rounding:
    a few ulps per tap (each weight rounded once or more; PyTorch's float32 cubic rounds its four coefficients
    several times and does not renormalise: 11.5 ulps on 4 taps; the bound below is 4 ulps per tap plus 16,
    twice the worst seen in 30,000 random plans).  TensorFlow's area computes the cell edges in float32 at
    coordinates up to the axis length and divides the overlaps by the step, so its rounding grows with
    max(n, m) / step (2 -> 21 with align_corners sums to 1 + 1.4e-6; 267 -> 270 to 1 + 2.8e-5, 0.86 of the
    bound below).  OpenCV's INTER_AREA table drops overlaps under 1e-3 of a pixel, so its rows fall short by
    up to 1e-3 of a cell."""
    plan = explorer.axis_plan(n, m, spec, scale)
    w = explorer.weights(n, m, spec, scale)
    sums = w.sum(axis=1)
    inside = np.ones(m, bool) if plan.outside is None else ~plan.outside
    reads = plan.band.length > 0
    if spec.exclude_outside:
        reads &= np.any(w != 0, axis=1)
    tolerance = np.full(m, 1e-12)
    if spec.index_arithmetic in NATIVE:
        eps32 = np.finfo(np.float32).eps
        arithmetic = (spec.index_arithmetic, spec.kernel)
        if arithmetic == ("opencv", "area"):
            tolerance = np.full(m, 1.1e-3)
        elif arithmetic == ("tensorflow", "area"):  # its step is positive: an area cell is never empty
            tolerance = np.full(m, 2 * eps32 * max(n, m) / min(plan.step, 1.0))
        else:
            tolerance = 4 * eps32 * (plan.band.length + 4)
    error = np.abs(sums - 1.0)
    unity = inside & reads
    assert np.all(error[unity] <= tolerance[unity]), (error[unity], tolerance[unity])
    assert np.all(sums[~reads] == 0)
    # PyTorch's antialiased weights clip each window to the input: with a scale_factor that puts an output's
    # window past the input (1 -> 2 at scale 1.0), that output reads nothing, as torch gives [x, 0]
    torch_window = spec.index_arithmetic == "torch" and spec.antialias
    # OpenCV's INTER_AREA steps by the given scale, not n/m: with one that does not fit the sizes (1 -> 2 at
    # scale 1.0) a cell can start past the input, and that output reads nothing (OpenCV writes 0 there)
    if spec.index_arithmetic == "opencv" and spec.kernel == "area":
        inside = inside & (np.arange(m) * plan.step < n)
    if not (spec.exclude_outside or torch_window) or spec.kernel in ("nearest", "area", "adaptive_area"):
        assert np.all(reads[inside])


@SETTINGS
@given(n=sizes, m=sizes, mode=st.sampled_from(["nearest", "nearest-exact", "bilinear", "bicubic", "area"]),
       seed=st.integers(0, 2**31), scale=st.one_of(st.none(), st.floats(0.3, 3.0)))
def test_float32_stays_float32_and_agrees_with_float64(n, m, mode, seed, scale):
    x = np.random.default_rng(seed).random((1, 2, n, n + 3))
    kw = dict(size=(m, m + 1)) if scale is None else dict(scale_factor=scale)
    if scale is not None and min(int(n * scale), int((n + 3) * scale)) < 1:
        return
    y64 = explorer.interpolate(x, mode=mode, **kw)
    y32 = explorer.interpolate(x.astype(np.float32), mode=mode, **kw)
    assert y32.dtype == np.float32 and y64.dtype == np.float64
    if mode.startswith("nearest"):
        return  # float32 and float64 may pick different pixels at ties (PyTorch does too)
    # PyTorch's float32 kernels compute coordinates and weights in float32 (Note [float arithmetic]): 27x30 ->
    # 18x19 bicubic differs from float64 by 2.6e-6 in torch 2.13 itself
    np.testing.assert_allclose(y32, y64, atol=1e-5)


def test_plans_are_cached():
    spec = Spec("cubic")
    assert explorer.axis_plan(37, 91, spec) is explorer.axis_plan(37, 91, spec)


def test_plans_are_keyed_by_what_their_arithmetic_reads():
    """A row computed in the library's own float types has one plan per dtype (cached); other rows one plan."""
    spec = Spec("linear")
    assert explorer.axis_plan(3000, 4097, spec, dtype=np.float32) is explorer.axis_plan(3000, 4097, spec,
                                                                                     dtype=np.float64)
    torch_row = spec.replace(index_arithmetic="torch")
    p32 = explorer.axis_plan(3000, 4097, torch_row, dtype=np.float32)
    p64 = explorer.axis_plan(3000, 4097, torch_row, dtype=np.float64)
    assert p32 is explorer.axis_plan(3000, 4097, torch_row, dtype=np.float32) and p32 is not p64
    assert 0 < np.abs(p32.band.dense() - p64.band.dense()).max() < 1e-3  # float32 coordinates move weights
    with pytest.raises(ArgumentValueError, match="direction must be one of forward, backward, got 'up'"):
        explorer.axis_plan(4, 8, torch_row, direction="up")


def test_non_finite_input_takes_the_tap_exact_path_everywhere():
    """NaN reaches only the outputs whose taps read it, for every resized axis and in backward too."""
    x = np.zeros((1, 1, 30, 30))
    x[0, 0, 10, 17] = np.nan
    y = explorer.interpolate(x, size=(61, 59), mode="bilinear")
    rows, cols = np.nonzero(np.isnan(y[0, 0]))
    wh = explorer.weights(30, 61, explorer.torch_spec("bilinear"))
    ww = explorer.weights(30, 59, explorer.torch_spec("bilinear"))
    assert set(rows) <= set(np.nonzero(np.abs(wh[:, 10]) + (wh[:, 9] != 0) + (wh[:, 11] != 0))[0])
    assert 0 < len(rows) < 61 * 59 // 20
    g = np.zeros((1, 1, 61, 59))
    g[0, 0, 30, 29] = np.inf
    gx = explorer.interpolate_backward(g, x.shape, size=(61, 59), mode="bilinear")
    assert 0 < np.count_nonzero(~np.isfinite(gx)) <= 4
    assert ww.shape == (59, 30)

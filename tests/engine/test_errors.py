"""Bad input gets a clear error naming the argument, the value and the valid choices."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import explorer
from explorer import Spec
from explorer.conventions.image_resize import ImageResize

X4 = np.zeros((1, 2, 5, 7), np.float32)


_last_peak = [0]


def _traced_peak(fn):
    """``fn()`` under tracemalloc (NumPy's arrays included); the peak of bytes it allocated, also when it raises,
    is left in ``_last_peak[0]``."""
    import tracemalloc

    explorer.engine.plan.clear_plan_cache()
    tracemalloc.start()
    try:
        return fn(), tracemalloc.get_traced_memory()[1]
    finally:
        _last_peak[0] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()


def _raises(error, match, fn, *args, **kwargs):
    with pytest.raises(error, match=match) as info:
        fn(*args, **kwargs)
    return str(info.value)


def test_unknown_mode_lists_the_valid_modes_and_suggests_one():
    text = _raises(NotImplementedError, "mode='bicubc'", explorer.interpolate, X4, size=3, mode="bicubc")
    assert "did you mean 'bicubic'" in text and "'nearest-exact'" in text


def test_unknown_spec_fields_list_the_choices():
    text = _raises(ValueError, "kernel='bicubic'", Spec, kernel="bicubic")
    assert "'cubic'" in text
    _raises(ValueError, "coordinate_transformation_mode='half-pixel'.*did you mean 'half_pixel'", Spec,
            coordinate_transformation_mode="half-pixel")
    _raises(ValueError, "nearest_mode='round'", Spec, nearest_mode="round")
    _raises(TypeError, "antialias must be True or False", Spec, antialias="yes")
    _raises(TypeError, "cubic_coeff_a must be a number", Spec, cubic_coeff_a="a")


@pytest.mark.parametrize("ndim", [1, 2, 6])
def test_wrong_rank_is_named(ndim):
    x = np.zeros((2,) * ndim, np.float32)
    _raises(NotImplementedError, f"got {ndim}D", explorer.interpolate, x, size=3, mode="nearest")


@pytest.mark.parametrize("kwargs,match", [
    (dict(size=0), "sizes should be greater than 0.*size=0"),
    (dict(size=(3, -1)), "greater than 0"),
    (dict(scale_factor=0), "scale_factor must be positive"),
    (dict(scale_factor=-2.0), "scale_factor must be positive"),
    (dict(scale_factor=float("nan")), "scale_factor must be positive"),
    (dict(scale_factor=0.05), "greater than 0"),  # floor(5 * 0.05) = 0
])
def test_empty_or_negative_sizes_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        explorer.interpolate(X4, mode="bilinear", **kwargs)


def test_size_and_scale_factor_are_exclusive_and_required():
    _raises(ValueError, "only one of size or scale_factor", explorer.interpolate, X4, size=3, scale_factor=2.0)
    _raises(ValueError, "either size or scale_factor", explorer.interpolate, X4)


def test_grad_shape_mismatch_says_what_was_expected():
    g = np.zeros((1, 2, 9, 9), np.float32)
    text = _raises(ValueError, "grad_output has shape", explorer.interpolate_backward, g, X4.shape, size=(10, 14),
                   mode="bilinear")
    assert "(1, 2, 10, 14)" in text


def test_non_numeric_input_is_a_type_error():
    _raises(TypeError, "input must be a numeric array", explorer.interpolate, [["a", "b"]], size=3)


@pytest.mark.parametrize("dtype,mode,error,match", [
    (np.int32, "nearest", NotImplementedError, "'Int'"),
    (np.uint8, "bilinear", None, None),
    (np.uint8, "linear", NotImplementedError, "compute_indices_weights_linear.*Byte"),
    (np.uint8, "area", NotImplementedError, "adaptive_avg_pool2d.*Byte"),
    (np.float16, "bilinear", None, None),
])
def test_dtypes_follow_pytorch(dtype, mode, error, match):
    x = np.zeros((1, 1, 4) if mode == "linear" else (1, 1, 4, 4), dtype)
    if error is None:
        assert explorer.interpolate(x, size=3, mode=mode).dtype == dtype
    else:
        _raises(error, match, explorer.interpolate, x, size=3, mode=mode)


def test_float16_antialias_fails_like_pytorch():
    x = np.zeros((1, 1, 8, 8), np.float16)
    _raises(NotImplementedError, "compute_index_ranges_weights.*Half", explorer.interpolate, x, size=3,
            mode="bilinear", antialias=True)


def test_integer_gradients_are_refused():
    _raises(TypeError, "floating point", explorer.interpolate_backward, np.zeros((1, 1, 3, 3), np.int64),
            (1, 1, 5, 5), size=3, mode="nearest")


def test_generic_resize_refuses_integer_interpolation_but_gathers_integers():
    img = np.arange(20, dtype=np.uint8).reshape(4, 5)
    _raises(TypeError, "uint8.*astype", explorer.resize, img, (3, 3), Spec("linear"))
    y = explorer.resize(img, (8, 10), Spec("nearest", nearest_mode="round_prefer_ceil"))
    assert y.dtype == np.uint8


@pytest.mark.parametrize("kwargs,match", [
    (dict(size=(3, 3, 3, 3)), "size has 4 entries but the array has only 3"),
    (dict(size=(3, 3), axes=(0, 0)), "repeats an axis"),
    (dict(size=(3, 3), axes=(0, 5)), "out of range"),
    (dict(size=(3,), axes=(0, 1)), "same length"),
    (dict(size=(3, 0)), "size must be positive"),
    (dict(size=(3, 2.5)), "size must contain integers"),
    (dict(size=(3, 3), scale_factor=(1.0, 2.0, 3.0)), "scale_factor has 3 entries"),
])
def test_resize_argument_errors(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        explorer.resize(np.zeros((4, 5, 3)), spec=Spec("linear"), **kwargs)


def test_weights_argument_errors():
    _raises(ValueError, "n_out must be at least 1", explorer.weights, 4, 0, Spec())
    _raises(TypeError, "n_in must be an integer", explorer.weights, 4.5, 3, Spec())
    _raises(ValueError, "scale=-1 is not valid; give a positive finite number", explorer.weights, 4, 3, Spec(), scale=-1)


@pytest.mark.parametrize("call", [
    lambda: explorer.interpolate(X4, size=(10**6, 10**6), mode="bicubic"),
    lambda: explorer.interpolate_backward(np.zeros((1, 1, 2, 2), np.float32), (1, 1, 10**6, 10**6), size=(2, 2),
                                          mode="bilinear"),
    lambda: explorer.resize(np.zeros((3, 3)), (10**7, 10**7), Spec("nearest")),
    lambda: explorer.resize(np.zeros((3, 3)), (10**20, 3), Spec("cubic")),
])
def test_outputs_too_large_are_refused_before_allocating(call):
    with pytest.raises(explorer.OutputTooLargeError, match="GiB"):
        _traced_peak(call)
    assert _last_peak[0] < 16 * 2**20  # refused up front, not after building huge plans


# ------------------------------------------------------------------------------------------------ issue 14
IMG = np.random.default_rng(0).random((16, 16, 3)).astype(np.float32)


@pytest.mark.parametrize("call", [
    lambda f: explorer.interpolate(X4, scale_factor=f, mode="bilinear"),
    lambda f: explorer.library_resize(IMG, library="opencv", mode="INTER_CUBIC", scale_factor=(f, f), axes=(0, 1)),
    lambda f: explorer.library_resize(IMG, library="burn", mode="Bilinear", scale_factor=(f, f), axes=(0, 1)),
    lambda f: explorer.library_resize(IMG, library="torch", mode="bilinear", scale_factor=(f, f), axes=(0, 1)),
    lambda f: explorer.resize(np.zeros(4), (10**400,)),
    lambda f: ImageResize("bilinear", scale=f, library="opencv").forward(IMG),
    lambda f: ImageResize("bicubic", scale=f).forward(IMG),
])
@pytest.mark.parametrize("factor", [1e300, 1e308])
def test_astronomical_scale_factors_are_value_errors_not_overflow(call, factor):
    with pytest.raises(ValueError, match="too l|shape|infinitely long") as info:
        call(factor)
    assert not isinstance(info.value, OverflowError)


def test_an_empty_resized_axis_is_named():
    _raises(ValueError, "axis 0 of length 0: it is empty", explorer.resize, np.zeros((0, 8, 3)), (4, 5),
            axes=(0, 1))


@pytest.mark.parametrize("roi", [(float("nan"), 1), (), (0, float("inf")), ((0, 1), (float("nan"), 1))])
def test_roi_must_be_finite_pairs(roi):
    _raises(ValueError, "roi=.* is not valid; give a \\(start, end\\) pair of finite numbers", Spec, roi=roi)


def test_numpy_float_roi_values_are_accepted():
    spec = Spec(coordinate_transformation_mode="tf_crop_and_resize", roi=(np.float32(0.25), np.float64(0.75)))
    assert spec.roi == (0.25, 0.75)
    assert Spec(roi=((np.float32(0), 1), (0, np.float16(0.5)))).roi == ((0.0, 1.0), (0.0, 0.5))


def test_huge_cubic_coefficients_are_refused_instead_of_giving_garbage():
    text = _raises(ValueError, "cubic_coeff_a=8.7e\\+140 is not valid", Spec, "cubic", cubic_coeff_a=8.7e140)
    assert "-1e+06 and 1e+06" in text
    y = explorer.resize(np.random.default_rng(0).random((9, 9)), (13, 17), Spec("cubic", cubic_coeff_a=-1e3))
    assert np.isfinite(y).all()


def test_coordinates_that_overflow_the_librarys_arithmetic_are_refused():
    spec = Spec(coordinate_transformation_mode="tf_crop_and_resize", roi=(0, 1e300), index_arithmetic="float32")
    _raises(ValueError, "source coordinates of 8 -> 4 samples .* overflow float32 \\(roi=", explorer.resize,
            np.ones(8), (4,), spec)


@pytest.mark.parametrize("arithmetic", ["tf_scale_and_translate", "onnxruntime", "xla_float32"])
def test_a_scale_that_is_zero_in_float32_is_refused_without_a_warning(arithmetic):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy division warning before the error
        _raises(ValueError, "source coordinates of 4 -> 3 samples .* overflow .*scale_factor=1e-300",
                explorer.weights, 4, 3, Spec("linear", index_arithmetic=arithmetic), scale=1e-300)


@pytest.mark.parametrize("shape", ["115", (1, 1, 5.9), 5])
def test_input_shape_must_be_integers(shape):
    with pytest.raises(TypeError, match="input_shape must be a sequence"):
        explorer.interpolate_backward(np.ones((1, 1, 8), np.float32), shape, size=8, mode="linear")


def test_string_numbers_are_not_read_as_sequences():
    _raises(TypeError, "scale_factor must be a number", explorer.resize, np.zeros((4, 4)), (8, 8), Spec(),
            scale_factor="22")
    _raises(TypeError, "scale_factor must be a number", explorer.interpolate, X4, scale_factor="22",
            mode="bilinear")
    _raises(TypeError, "size must be an int or a sequence of ints, got '44'", explorer.compare_conventions,
            X4, "bilinear", "44")
    _raises(ValueError, "size must be positive, got \\(-3, 4\\)", explorer.compare_conventions, X4,
            "bilinear", (-3, 4))


def test_a_zero_dimensional_integer_array_is_a_size():
    assert explorer.interpolate(X4, size=np.array(8), mode="bilinear").shape == (1, 2, 8, 8)
    assert explorer.resize(np.zeros((4, 4)), np.array(8), Spec()).shape == (4, 8)
    assert explorer.library_resize(IMG, np.array([8, 8]), library="opencv", mode="INTER_LINEAR",
                                   axes=(0, 1)).shape == (8, 8, 3)


def test_out_is_returned_even_when_it_is_the_input():
    x = np.arange(16.0).reshape(4, 4)
    expected = explorer.resize(x, (4, 4), Spec("linear"), scale_factor=2)
    assert explorer.resize(x, (4, 4), Spec("linear"), scale_factor=2, out=x) is x
    np.testing.assert_array_equal(x, expected)  # computed apart, then copied over the input
    same = np.arange(6.0)
    assert explorer.resize(same, (6,), Spec("linear"), out=same) is same
    out = np.empty((8, 8)).T  # not C-contiguous
    assert explorer.resize(np.arange(16.0).reshape(4, 4), (8, 8), Spec("cubic"), out=out) is out
    np.testing.assert_allclose(out, explorer.resize(np.arange(16.0).reshape(4, 4), (8, 8), Spec("cubic")))
    frozen = np.zeros(6)
    frozen.setflags(write=False)
    _raises(ValueError, "out is read-only", explorer.resize, np.ones(3), (6,), Spec(), out=frozen)


def test_a_dense_weight_matrix_too_large_is_refused_before_allocating():
    _raises(explorer.OutputTooLargeError, "weight matrix would have shape \\(1000000, 1000000\\)",
            _traced_peak, lambda: explorer.weights(10**6, 10**6, Spec()))
    assert _last_peak[0] < 16 * 2**20  # the plan of 10**6 outputs (tens of MiB) is not built either

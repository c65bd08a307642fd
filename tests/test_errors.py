"""Bad input gets a clear error naming the argument, the value and the valid choices."""

from __future__ import annotations

import time

import numpy as np
import pytest

import explorer
from explorer import Spec

X4 = np.zeros((1, 2, 5, 7), np.float32)


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
    t0 = time.perf_counter()
    with pytest.raises(explorer.OutputTooLargeError, match="GiB"):
        call()
    assert time.perf_counter() - t0 < 1.0  # refused up front, not after building huge plans

"""Public engine functions take only what they can compute: lengths an index can hold, known tables, ordered
sizes, plain arrays in either byte order; an infinity in the input prints no warning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import explorer
from explorer import Spec
from explorer.engine.coords import source_coordinates
from explorer.engine.plan import axis_plan


@pytest.mark.parametrize("n,m", [(2**64, 3), (3, 2**64), (10**30, 10**30)])
def test_lengths_no_index_can_hold_are_refused_before_any_arithmetic(n, m):
    with pytest.raises(explorer.OutputTooLargeError, match="too long"):
        axis_plan(n, m, Spec("linear"))


@pytest.mark.parametrize("args,error,match", [
    ((4, 3, "nope"), ValueError, "transform='nope' is not valid"),
    (("4", 3, "half_pixel"), TypeError, "n must be an integer"),
    ((4, 0, "half_pixel"), ValueError, "m must be at least 1"),
    ((4, 3, "half_pixel", "bogus"), ValueError, "arithmetic='bogus'"),
    ((4, 3, "half_pixel", "float64", -2.0), ValueError, "f=-2.0"),
    ((4, 2**33, "half_pixel"), explorer.OutputTooLargeError, "GiB"),
])
def test_source_coordinates_checks_its_arguments(args, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(error, match=match):
            source_coordinates(*args)


def test_an_infinity_in_the_input_prints_no_runtime_warning():
    x = np.ones((1, 1, 6, 6))
    x[0, 0, 2, 2] = np.inf
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = explorer.interpolate(x, size=(6, 6), mode="bicubic")
        z = explorer.interpolate(x, size=(11, 11), mode="bilinear", align_corners=True)
    assert np.isinf(y).any() and np.isfinite(y[0, 0, 5]).all() and np.isinf(z).any()


def test_a_big_endian_array_gives_the_native_arrays_numbers():
    x = np.random.default_rng(0).random((1, 2, 5, 7)).astype(np.float32)
    big = x.astype(">f4")
    for call in (lambda a: explorer.interpolate(a, size=(3, 4), mode="bilinear"),
                 lambda a: explorer.resize(a, (3, 4)),
                 lambda a: explorer.library_resize(a, library="torch", mode="bicubic", size=(3, 4))):
        assert np.array_equal(call(big), call(x))


def test_sets_are_refused_where_an_order_matters():
    x = np.zeros((1, 1, 4, 6))
    with pytest.raises(TypeError, match="no order|tuple of ints"):
        explorer.interpolate(x, size={2, 3})
    with pytest.raises(TypeError, match="no order"):
        explorer.resize(np.zeros((4, 6)), (2, 3), axes={1, 0})
    with pytest.raises(TypeError, match="no order"):
        explorer.resize(np.zeros((4, 6)), {2, 3})


def test_a_masked_array_is_refused_its_mask_would_be_ignored():
    x = np.ma.masked_array(np.ones((1, 1, 4, 4)), mask=np.eye(4, dtype=bool)[None, None])
    with pytest.raises(TypeError, match="masked array"):
        explorer.interpolate(x, size=(2, 2), mode="bilinear")
    with pytest.raises(TypeError, match="masked array"):
        explorer.resize(x, (2, 2))

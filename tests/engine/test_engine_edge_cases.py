"""Corner cases the random property tests found: each is checked against the dense weight matrices."""

import warnings

import numpy as np
import pytest

import explorer
from explorer import Spec


def _dense_backward(g, shape, size, spec):
    wh = explorer.weights(shape[1], size[0], spec)
    ww = explorer.weights(shape[2], size[1], spec)
    return np.einsum("cij,ih,jw->chw", g, wh, ww)


def test_backward_mixing_a_filled_slice_and_a_picked_one():
    """H: 1 -> 2 where the second output is extrapolated (its transpose picks input 0), W: 2 -> 1 picking input 0
    (its transpose fills slice 0): the backward is one strided copy per kind, not an internal error."""
    spec = Spec("box", coordinate_transformation_mode="tf_crop_and_resize", roi=(0.0, 0.5), index_arithmetic="opencv")
    g = np.random.default_rng(0).standard_normal((2, 2, 1))
    got = explorer.resize_backward(g, (2, 1, 2), (2, 1), spec)
    np.testing.assert_allclose(got, _dense_backward(g, (2, 1, 2), (2, 1), spec), atol=1e-15)
    assert np.all(got[:, :, 1] == 0) and np.all(got[:, :, 0] != 0)


def test_opencv_area_cell_past_the_input_reads_nothing():
    """A scale that does not fit the sizes (1 -> 2 at scale 1) puts the second cell past the input: weight 0,
    no division by a zero-width cell."""
    spec = Spec("area", coordinate_transformation_mode="align_corners", index_arithmetic="opencv")
    with np.errstate(all="raise"):
        w = explorer.weights(1, 2, spec, 1.0)
    np.testing.assert_array_equal(w, [[1.0], [0.0]])


def test_extrapolated_outputs_have_no_taps_in_native_plans():
    """ONNX Runtime's antialiased cubic with tf_crop_and_resize: an output outside the roi's image is the
    extrapolation value, and its weight row is empty, so weights() and resize() agree."""
    spec = Spec("cubic", coordinate_transformation_mode="tf_crop_and_resize", antialias=True, roi=(0.5, 1.25),
                index_arithmetic="onnxruntime")
    plan = explorer.axis_plan(2, 3, spec)
    assert plan.outside is not None and plan.outside.any()
    assert np.all(plan.band.length[plan.outside] == 0)
    img = np.random.default_rng(1).standard_normal((2, 2, 1))
    chw = explorer.resize(img, (3, 1), spec)
    dense = np.einsum("ih,chw,jw->cij", explorer.weights(2, 3, spec), img, explorer.weights(1, 1, spec))
    np.testing.assert_allclose(chw, dense, atol=1e-12)


@pytest.mark.parametrize("spec", [Spec("linear"), Spec("cubic", cubic_coeff_a=-0.75), Spec("linear", antialias=True),
                                  Spec("area")])
@pytest.mark.parametrize("n,m", [(8, 16), (8, 5), (64, 1200)])
@pytest.mark.parametrize("bad", [[np.inf], [-np.inf], [np.inf, -np.inf, np.nan], [np.nan]])
def test_nan_and_infinity_reach_only_the_outputs_that_read_them_and_warn_nothing(spec, n, m, bad):
    """NaN and infinity are inputs the engine handles on purpose (as the libraries do: inf times a zero-weight tap
    or inf - inf is NaN): forward and backward raise no floating-point warning, and an output whose taps do not
    read a bad input stays finite."""
    x = np.linspace(0.0, 1.0, n)
    where = [1 + 2 * i for i in range(len(bad))]
    x[where] = bad
    plan = explorer.axis_plan(n, m, spec)
    reads = np.zeros(m, bool)
    for r in range(m):
        taps = range(plan.band.start[r], plan.band.start[r] + plan.band.length[r])
        reads[r] = any(w in taps for w in where)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = explorer.resize(x, (m,), spec)
        g = np.ones(m)
        g[0] = bad[0]
        gx = explorer.resize_backward(g, (n,), (m,), spec)
    assert np.all(np.isfinite(y[~reads])) and not np.all(np.isfinite(y))
    assert gx.shape == (n,) and not np.all(np.isfinite(gx))

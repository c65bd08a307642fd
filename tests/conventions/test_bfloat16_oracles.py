"""Live oracle: bfloat16 (and float16, which the same kernels compute) against PyTorch, JAX and TensorFlow.

The rounding each library applies is stated where the library is declared (Note [reduced floats] in
``explorer/conventions/libraries/pytorch.py``, ``jax.py``, ``tensorflow.py``): PyTorch rounds its generic
kernels' weights to the input's type and the result once, ``area`` in 3-D and its backward round every
addition; JAX rounds its weight matrices and every contraction of ``jnp.einsum``; TensorFlow returns float32
for every method but nearest.  ONNX Runtime has no bfloat16 Resize on CPU and the explorer refuses it.

What is asserted, per library and dtype, over seeded grids of sizes (forward and gradient):

* the result's dtype is the library's;
* every value is within one unit in the last place of the library's, or within 2^-20 of the largest value
  (a sum that cancels to almost nothing carries the float32 error of its terms; TensorFlow: float32 within
  1e-5);
* the values that are not bit-identical are rare (bounded below): they are float32 sums that land on a
  rounding tie of the 2-byte type, where a different order of additions rounds the other way.
"""

from __future__ import annotations

import numpy as np
import pytest
import reduced_floats

import explorer
from explorer import library_resize, library_resize_backward

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes (bfloat16 for numpy): the 'oracles' extra")
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [pytest.param(BF16, id="bf16"), pytest.param(np.dtype(np.float16), id="f16")]
# mismatched fraction allowed (ties of the 2-byte rounding after float32 sums in another order); measured
# worst: bfloat16 2e-5, float16 3e-4 (PyTorch, 2.13.0 CPU)
RARE = {"bfloat16": 1e-4, "float16": 1e-3}

pytestmark = pytest.mark.oracle


def _agree(got, want, dtype, what, most=1):
    assert got.dtype == want.dtype, what
    assert got.shape == want.shape, what
    ulps = reduced_floats.ulps(got, want)
    assert ulps.max(initial=0) <= most, f"{what}: {ulps.max()} ulp"
    return int((ulps > 0).sum()), ulps.size


# ------------------------------------------------------------------------------------------------ PyTorch
torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
F = torch.nn.functional


_to_torch, _from_torch = reduced_floats.to_torch, reduced_floats.from_torch


@pytest.fixture(autouse=True)
def _threads_for_the_generic_kernel():
    """On one thread PyTorch takes its channels-last 2-D bilinear kernel for every 3-channel input
    (UpSampleKernel.cpp: ``at::get_num_threads() == 1 && input.size(1) == 3``), which keeps float weights; the
    explorer computes the kernel PyTorch runs on more threads.  Held at two threads here, restored after."""
    before = torch.get_num_threads()
    torch.set_num_threads(max(2, before))
    yield
    torch.set_num_threads(before)


def test_one_thread_three_channels_is_the_kernel_not_modelled():
    """The condition above, measured: on one thread a 3-channel bilinear bfloat16 result differs from the
    generic kernel's (which the explorer computes) at outputs where H_out + W_out > 128."""
    x = (np.random.default_rng(5).standard_normal((1, 3, 30, 40)) * 4).astype(BF16)
    ours = explorer.interpolate(x, size=(70, 90), mode="bilinear").astype(np.float32)
    torch.set_num_threads(1)
    one = _from_torch(F.interpolate(_to_torch(x), size=(70, 90), mode="bilinear")).astype(np.float32)
    torch.set_num_threads(2)
    two = _from_torch(F.interpolate(_to_torch(x), size=(70, 90), mode="bilinear")).astype(np.float32)
    np.testing.assert_array_equal(ours, two)
    assert (one != two).any()


TORCH_CONFIGS = [("linear", 1, {}), ("linear", 1, {"align_corners": True}),
                 ("bilinear", 2, {}), ("bilinear", 2, {"align_corners": True}),
                 ("bicubic", 2, {}), ("bicubic", 2, {"align_corners": True}),
                 ("trilinear", 3, {}), ("trilinear", 3, {"align_corners": True}),
                 ("area", 1, {}), ("area", 2, {}), ("area", 3, {}),
                 ("nearest", 1, {}), ("nearest", 2, {}), ("nearest", 3, {}), ("nearest-exact", 2, {})]


def _torch_sizes(dims, seed):
    """Input and output sizes: up, down, length 1, unchanged axes, and 2-D outputs on both sides of
    H_out + W_out = 128 (the channels-last kernel keeps float weights, the generic one rounds them)."""
    rng = np.random.default_rng(seed)
    top = {1: 40, 2: 60, 3: 8}[dims]
    cases = [([5] * dims, [8] * dims), ([8] * dims, [5] * dims), ([7] * dims, [1] * dims), ([1] * dims, [4] * dims),
             ([6] * dims, [6] * (dims - 1) + [9])]
    if dims == 2:
        cases += [([30, 40], [70, 90]), ([50, 20], [100, 29])]  # the generic 2-D kernel
    for _ in range(6):
        cases.append((rng.integers(1, top, dims).tolist(), rng.integers(1, top + 10, dims).tolist()))
    return cases


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode,dims,opts", TORCH_CONFIGS,
                         ids=[f"{m}-{d}d{'-ac' if o else ''}" for m, d, o in TORCH_CONFIGS])
def test_torch_forward_and_gradient(mode, dims, opts, dtype):
    rng = np.random.default_rng(11)
    counts = np.zeros(2, np.int64)
    for k, (n, m) in enumerate(_torch_sizes(dims, seed=len(mode) * 7 + dims)):
        x = (rng.standard_normal((2, 3, *n)) * 4).astype(dtype)
        xt = _to_torch(x).requires_grad_(True)
        yt = F.interpolate(xt, size=m, mode=mode, **opts)
        g = rng.standard_normal(tuple(yt.shape)).astype(dtype)
        (gt,) = torch.autograd.grad(yt, xt, _to_torch(g))
        # float16 bicubic: a cubic coefficient one float32 ulp away from PyTorch's (its Half kernel is compiled
        # with other multiply-add fusions) can round to the neighbouring float16 weight: up to 3 ulp measured
        most = 4 if (mode, dtype.name) == ("bicubic", "float16") else 1
        bad, total = _agree(explorer.interpolate(x, size=m, mode=mode, **opts), _from_torch(yt), dtype,
                            f"forward {n}->{m}", most)
        bad_g, total_g = _agree(explorer.interpolate_backward(g, x.shape, size=m, mode=mode, **opts), _from_torch(gt),
                                dtype, f"gradient {n}->{m}")
        counts += (bad + bad_g, total + total_g)
    assert counts[0] <= RARE[dtype.name] * counts[1], f"{counts[0]} of {counts[1]} values differ"


def test_torch_rounds_the_generic_kernels_weights_to_bfloat16():
    """Pins the weight rounding itself: with weights kept in float32 the 1-D result differs from PyTorch."""
    x = (np.random.default_rng(2).standard_normal((1, 2, 29)) * 4).astype(BF16)
    want = _from_torch(F.interpolate(_to_torch(x), size=45, mode="linear"))
    got = explorer.interpolate(x, size=45, mode="linear")
    float32_weights = explorer.interpolate(x.astype(np.float32), size=45, mode="linear").astype(BF16)
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))
    assert (float32_weights.astype(np.float32) != want.astype(np.float32)).any()


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "lanczos"])
def test_torch_has_no_bfloat16_antialias_kernel(mode):
    x = np.zeros((1, 1, 8, 8), BF16)
    with pytest.raises(RuntimeError) as real:
        F.interpolate(_to_torch(x), size=(4, 4), mode=mode, antialias=True)
    with pytest.raises(NotImplementedError) as ours:
        explorer.interpolate(x, size=(4, 4), mode=mode, antialias=True)
    assert str(real.value) in str(ours.value)


# ------------------------------------------------------------------------------------------------ JAX
# up and down, an unchanged axis (not contracted), outputs of one pixel (opt_einsum then forms the outer product
# of the weight matrices first) and 3-D; every shape costs JAX a compilation, so they are few
JAX_CASES = [((9, 14), (17, 5)), ((12, 7), (12, 21)), ((3, 4), (1, 1)), ((4, 5, 6), (7, 3, 2)), ((2, 3, 2), (1, 1, 1))]
JAX_MODES = [("nearest", False), ("linear", False), ("linear", True), ("cubic", True), ("cubic", False),
             ("lanczos3", True), ("lanczos5", False), ("cubic-pytorch", False)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode,antialias", JAX_MODES, ids=[f"{m}{'-aa' if a else ''}" for m, a in JAX_MODES])
def test_jax_forward_and_gradient(mode, antialias, dtype):
    jax = pytest.importorskip("jax", reason="the JAX oracle is installed by the 'oracles' extra")
    jnp = jax.numpy
    rng = np.random.default_rng(13)
    counts = np.zeros(2, np.int64)
    for n, m in JAX_CASES:
        x = (rng.standard_normal((2, *n, 3)) * 4).astype(dtype)
        out_shape = (2, *m, 3)

        def f(v, out_shape=out_shape):
            return jax.image.resize(v, out_shape, mode, antialias=antialias)

        want, vjp = jax.vjp(f, jnp.asarray(x))
        g = rng.standard_normal(out_shape).astype(dtype)
        (gwant,) = vjp(jnp.asarray(g))
        axes = tuple(range(1, len(n) + 1))
        got = library_resize(x, m, library="jax", mode=mode, axes=axes, antialias=antialias)
        gg = library_resize_backward(g, x.shape, m, library="jax", mode=mode, axes=axes, antialias=antialias)
        bad, total = _agree(got, np.asarray(want), dtype, f"forward {n}->{m}")
        bad_g, total_g = _agree(gg, np.asarray(gwant), dtype, f"gradient {n}->{m}")
        counts += (bad + bad_g, total + total_g)
    assert counts[0] <= RARE[dtype.name] * counts[1] + 2, f"{counts[0]} of {counts[1]} values differ"


# ------------------------------------------------------------------------------------------------ TensorFlow
TF_MODES = [("nearest", False), ("bilinear", False), ("bicubic", False), ("area", False), ("lanczos3", True),
            ("bilinear", True), ("mitchellcubic", False)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("mode,antialias", TF_MODES, ids=[f"{m}{'-aa' if a else ''}" for m, a in TF_MODES])
def test_tensorflow_returns_float32_of_the_same_values_but_for_nearest(mode, antialias, dtype):
    tf = pytest.importorskip("tensorflow", reason="the TensorFlow oracle is installed by the 'oracles' extra")
    rng = np.random.default_rng(17)
    tdtype = tf.bfloat16 if dtype == BF16 else tf.float16
    for h, w, H, W in [(9, 13, 3, 4), (20, 17, 4, 5), (5, 6, 14, 9), (4, 4, 9, 13)]:
        x = (rng.standard_normal((2, h, w, 3)) * 4).astype(dtype)
        xt = tf.cast(tf.constant(x.astype(np.float32)), tdtype)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.image.resize(xt, (H, W), mode, antialias=antialias)
        got = library_resize(x, (H, W), library="tensorflow", mode=mode, axes=(1, 2), antialias=antialias)
        assert got.dtype == np.dtype(y.dtype.as_numpy_dtype)
        want = np.asarray(tf.cast(y, tf.float32))
        if mode == "nearest":
            np.testing.assert_array_equal(got.astype(np.float32), want)
        else:
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * max(1.0, float(np.abs(want).max())))
        if (mode, antialias) in (("nearest", False), ("bilinear", False)):
            up = (rng.standard_normal(y.shape) * 3).astype(np.float32).astype(got.dtype)
            gt = np.asarray(tape.gradient(y, xt, output_gradients=tf.constant(up)))
            gg = library_resize_backward(up, x.shape, (H, W), library="tensorflow", mode=mode, axes=(1, 2))
            gg = gg.astype(dtype)  # bilinear's upstream is float32; TensorFlow rounds the gradient once
            assert reduced_floats.ulps(gg, gt.astype(dtype)).max() <= 1


def test_tensorflow_nearest_gradient_accumulates_in_bfloat16():
    """Pins the accumulation: summed in float32 and rounded once, the upsampled gradient differs from TF's."""
    tf = pytest.importorskip("tensorflow", reason="the TensorFlow oracle is installed by the 'oracles' extra")
    rng = np.random.default_rng(19)
    x = np.zeros((1, 3, 4, 1), BF16)
    up = (rng.standard_normal((1, 17, 23, 1)) * 3).astype(BF16)
    xt = tf.cast(tf.constant(x.astype(np.float32)), tf.bfloat16)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.image.resize(xt, (17, 23), "nearest")
    want = np.asarray(tf.cast(tape.gradient(y, xt, output_gradients=tf.constant(up)), tf.float32))
    got = library_resize_backward(up, x.shape, (17, 23), library="tensorflow", mode="nearest", axes=(1, 2))
    once = library_resize_backward(up.astype(np.float32), x.shape, (17, 23), library="tensorflow", mode="nearest",
                                   axes=(1, 2)).astype(BF16)
    np.testing.assert_array_equal(got.astype(np.float32), want)
    assert (once.astype(np.float32) != want).any()


# ------------------------------------------------------------------------------------------------ refusals
def test_onnxruntime_has_no_bfloat16_resize_and_the_explorer_says_so():
    ort = pytest.importorskip("onnxruntime", reason="ONNX Runtime is an oracle installed by the 'oracles' extra")
    from onnx import TensorProto, helper

    x_info = helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [1, 1, 4, 4])
    y_info = helper.make_tensor_value_info("y", TensorProto.BFLOAT16, None)
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 6, 6])
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="linear")
    model = helper.make_model(helper.make_graph([node], "g", [x_info], [y_info], initializer=[sizes]),
                              opset_imports=[helper.make_opsetid("", 19)])
    model.ir_version = 9
    with pytest.raises(Exception, match="NOT_IMPLEMENTED") as real:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    with pytest.raises(NotImplementedError) as ours:
        library_resize(np.zeros((1, 1, 4, 4), BF16), (6, 6), library="onnx", mode="linear")
    assert "Could not find an implementation for Resize(19) node" in str(real.value)
    assert "Could not find an implementation for Resize(19) node" in str(ours.value)


@pytest.mark.parametrize("library,mode", [("opencv", "INTER_LINEAR"), ("pillow", "BILINEAR"), ("burn", "Bilinear")])
def test_libraries_without_a_modelled_bfloat16_refuse_it_by_name(library, mode):
    with pytest.raises(TypeError, match="bfloat16 arrays are not modelled"):
        library_resize(np.zeros((4, 4), BF16), (6, 6), library=library, mode=mode)


# ------------------------------------------------------------------------------------------------ memory
@pytest.mark.parametrize("call", [
    lambda x: explorer.interpolate(x, size=(300000, 300000), mode="bilinear"),
    lambda x: explorer.resize(x, (300000, 300000), explorer.Spec("linear")),
    lambda x: library_resize(x, (300000, 300000), library="jax", mode="linear", axes=(2, 3)),
], ids=["interpolate", "resize", "jax"])
def test_two_byte_floats_are_counted_as_the_float32_they_are_computed_in(call):
    """The memory check counts 4 bytes per element for float16 and bfloat16 (not their 2)."""
    messages = {}
    for dtype in (np.float32, np.float16, BF16, np.float64):
        with pytest.raises(explorer.OutputTooLargeError) as err:
            call(np.zeros((1, 3, 8, 8), dtype))
        messages[np.dtype(dtype).name] = str(err.value)
    assert messages["bfloat16"] == messages["float16"] == messages["float32"] != messages["float64"]

"""Live oracle: explorer's LiteRT presets against the ai-edge-litert interpreter, on models converted by TensorFlow.

Every op and flag pair runs on a seeded grid of sizes 1..60, in float32, uint8, int8 and int16, with each of the
interpreter's kernel sets (the default XNNPACK delegate, the builtin kernels, the reference kernels); then the
facts data/litert.toml states: which nodes XNNPACK takes, the align_corners + half_pixel_centers pair, the 10-bit
kernel's reads past the row, the 8-bit nearest's fixed-point step, the two half-pixel arithmetics.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

import explorer
from explorer.advisor import knowledge
from explorer.conventions import library_resize, library_resize_transpose
from preset_cases import options_id, seed, size_grid

pytest.importorskip("tensorflow", reason="TensorFlow is an oracle installed by the 'oracles' extra")
pytest.importorskip("ai_edge_litert", reason="ai-edge-litert is an oracle installed by the 'oracles' extra")
from litert_models import RESOLVERS, convert, run  # noqa: E402

pytestmark = pytest.mark.oracle

KERNELS = tuple(RESOLVERS)
FLAGS = [{}, {"half_pixel_centers": True}, {"align_corners": True}]
CASES = [(op, flags, dtype) for op in ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR") for flags in FLAGS
         for dtype in ("float32", "uint8", "int8", "int16")]
CASES += [("RESIZE_NEAREST_NEIGHBOR", {"align_corners": True, "half_pixel_centers": True}, d)
          for d in ("float32", "uint8")]


def _data(key, shape, dtype):
    rng = np.random.default_rng(seed(key, shape))
    if dtype == "float32":
        return rng.random(shape).astype(np.float32)
    info = np.iinfo(dtype)
    return rng.integers(info.min, int(info.max) + 1, shape).astype(dtype)


@functools.lru_cache(maxsize=None)
def _grid_model(op, flags, dtype):
    """One model of a whole size grid (channels 2), and its cases."""
    cases = [((1, h, w, 2), (H, W)) for h, w, H, W in size_grid(("litert", op, flags), 8)]
    options = dict(flags)
    return convert(op, cases, options.get("align_corners", False), options.get("half_pixel_centers", False),
                   dtype), cases


@pytest.mark.parametrize("op,flags,dtype", CASES, ids=[f"{o}-{options_id(f)}-{d}" for o, f, d in CASES])
def test_forward_matches_litert_with_every_kernel_set(op, flags, dtype):
    model, cases = _grid_model(op, tuple(sorted(flags.items())), dtype)
    xs = [_data((op, dtype), shape, dtype) for shape, _ in cases]
    for kernels in KERNELS:
        options = dict(flags, kernels=kernels)
        if op == "RESIZE_BILINEAR" and flags.get("align_corners") and flags.get("half_pixel_centers") \
                and kernels != "xnnpack":
            continue
        ys = run(model, xs, kernels)
        worst = 0.0
        for x, y, (shape, size) in zip(xs, ys, cases):
            got = library_resize(x, size, library="litert", mode=op, axes=(1, 2), **options)
            assert got.dtype == y.dtype and got.shape == y.shape, (shape, size, kernels)
            if dtype == "float32" and op == "RESIZE_BILINEAR":
                worst = max(worst, float(np.abs(got - y).max()))
            else:  # nearest and every integer kernel: bit-exact
                np.testing.assert_array_equal(got, y, err_msg=f"{op} {options} {dtype} {shape} -> {size}")
        assert worst <= 1e-6, (kernels, worst)


def test_xnnpack_takes_float32_and_8_bit_bilinear_only():
    """Which nodes the default interpreter hands to XNNPACK (the kernel set ``kernels="xnnpack"`` models)."""
    shape, size = (1, 5, 7, 1), (9, 4)
    for op, dtype, delegated in [("RESIZE_BILINEAR", "float32", True), ("RESIZE_BILINEAR", "uint8", True),
                                 ("RESIZE_BILINEAR", "int8", True), ("RESIZE_BILINEAR", "int16", False),
                                 ("RESIZE_NEAREST_NEIGHBOR", "float32", False),
                                 ("RESIZE_NEAREST_NEIGHBOR", "int8", False)]:
        model = convert(op, [(shape, size)], False, True, dtype)
        _, ops = run(model, [_data("ops", shape, dtype)], "xnnpack", ops=True)
        assert ("DELEGATE" in ops) == delegated, (op, dtype, ops)


@pytest.mark.parametrize("op", ["RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"])
def test_the_transpose_is_the_adjoint_of_the_forward(op):
    rng = np.random.default_rng(6)
    for options in ({}, {"half_pixel_centers": True}, {"align_corners": True}, {"kernels": "builtin"}):
        for h, w, H, W in [(5, 8, 7, 5), (9, 4, 3, 11), (1, 6, 4, 1)]:
            x, g = rng.standard_normal((1, h, w, 2)).astype(np.float32), rng.standard_normal((1, H, W, 2))
            y = library_resize(x, (H, W), library="litert", mode=op, axes=(1, 2), **options).astype(np.float64)
            gx = library_resize_transpose(g, x.shape, (H, W), library="litert", mode=op, axes=(1, 2), **options)
            assert np.isclose(np.vdot(y, g), np.vdot(x.astype(np.float64), gx), rtol=1e-6, atol=1e-6)
    with pytest.raises(explorer.NoGradientError, match="inference only"):
        explorer.library_resize_backward(g, x.shape, (H, W), library="litert", mode=op, axes=(1, 2))


# --- the facts data/litert.toml states about this release --------------------------------------------------------
def test_align_corners_with_half_pixel_centers():
    """The builtin bilinear refuses the pair; XNNPACK computes align_corners; nearest rounds (i + 0.5)(n-1)/(m-1)."""
    shape, size = (1, 5, 7, 1), (9, 4)
    x = _data("pair", shape, "float32")
    model = convert("RESIZE_BILINEAR", [(shape, size)], True, True)
    text = knowledge.load().record("litert-bilinear-align-corners-half-pixel").error_text.replace("{node}", "0")
    with pytest.raises(RuntimeError) as info:
        run(model, [x], "builtin")
    assert text in str(info.value)
    with pytest.raises(ValueError, match="If half_pixel_centers is True, align_corners must be False."):
        library_resize(x, size, library="litert", mode="RESIZE_BILINEAR", axes=(1, 2), align_corners=True,
                       half_pixel_centers=True, kernels="builtin")
    [y] = run(model, [x], "xnnpack")
    aligned = library_resize(x, size, library="litert", mode="RESIZE_BILINEAR", axes=(1, 2), align_corners=True)
    np.testing.assert_allclose(y, aligned, atol=1e-6)


@pytest.mark.parametrize("dtype", ["int8", "int16"])
def test_the_10_bit_kernel_reads_past_the_row(dtype):
    """Its lower tap is not clamped: 1000 -> 4097 makes the last output of a row read the next row's first pixel,
    and the last row's read memory past the input (refused by the explorer)."""
    cases = [((1, 3, 1000, 1), (2, 4097)), ((1, 40, 3, 1), (900, 3)), ((1, 4, 50, 1), (4, 900))]
    model = convert("RESIZE_BILINEAR", cases, dtype=dtype)
    xs = [_data(("oob", dtype), shape, dtype) for shape, _ in cases]
    ys = run(model, xs, "builtin")
    # 3 x 1000 -> 2 x 4097: row 0's last output reads pixel (1, 0) of the input, at full weight
    assert ys[0][0, 0, -1, 0] == xs[0][0, 1, 0, 0]
    for x, (shape, size) in zip(xs, cases):
        with pytest.raises(ValueError, match="reads past the end of the input"):
            library_resize(x, size, library="litert", mode="RESIZE_BILINEAR", axes=(1, 2), kernels="builtin")
    # the rows that stay inside the tensor are computed, the next row's pixel included
    inside = library_resize(xs[0][:, :2], (1, 4097), library="litert", mode="RESIZE_BILINEAR", axes=(1, 2),
                            kernels="builtin")
    assert inside[0, 0, -1, 0] == xs[0][0, 1, 0, 0]
    if dtype == "int8":  # XNNPACK clamps its taps
        [y] = run(convert("RESIZE_BILINEAR", cases[:1], dtype=dtype), xs[:1], "xnnpack")
        np.testing.assert_array_equal(y, library_resize(xs[0], (2, 4097), library="litert", mode="RESIZE_BILINEAR",
                                                        axes=(1, 2)))


def test_the_8_bit_nearest_steps_in_16_16_fixed_point():
    sizes = [((1, 1, 4096, 1), (1, 3001)), ((1, 1, 77, 1), (1, 20000)), ((1, 1, 300, 1), (1, 17))]
    for dtype in ("uint8", "int8"):
        model = convert("RESIZE_NEAREST_NEIGHBOR", sizes, dtype=dtype)
        xs = [np.arange(shape[2], dtype=np.int64).astype(dtype).reshape(shape) for shape, _ in sizes]
        picked = 0
        for kernels in ("xnnpack", "builtin", "reference"):
            ys = run(model, xs, kernels)
            for x, y, (shape, size) in zip(xs, ys, sizes):
                got = library_resize(x, size, library="litert", mode="RESIZE_NEAREST_NEIGHBOR", axes=(1, 2),
                                     kernels=kernels)
                np.testing.assert_array_equal(got, y)
                float_rule = np.minimum(np.floor(np.arange(size[1], dtype=np.float32)
                                                 * (np.float32(shape[2]) / np.float32(size[1]))), shape[2] - 1)
                differs = np.any(x[0, 0, float_rule.astype(np.int64), 0] != y[0, 0, :, 0])
                assert differs == (kernels != "reference" and shape[2] != 300), (dtype, kernels, shape, size)
                picked += differs
        assert picked >= 4


def test_xnnpack_and_tensorflow_half_pixel_arithmetic_differ_at_large_sizes():
    shape, size = (1, 1, 3000, 1), (1, 4097)
    x = _data("half", shape, "float32")
    model = convert("RESIZE_BILINEAR", [(shape, size)], False, True)
    [xnnpack], [builtin] = run(model, [x], "xnnpack"), run(model, [x], "builtin")
    assert np.abs(xnnpack - builtin).max() > 1e-5
    for kernels, y in (("xnnpack", xnnpack), ("builtin", builtin)):
        got = library_resize(x, size, library="litert", mode="RESIZE_BILINEAR", axes=(1, 2), half_pixel_centers=True,
                             kernels=kernels)
        assert np.abs(got - y).max() <= 1e-6, kernels


def test_unsupported_dtypes_are_refused_with_the_kernels_text():
    record = knowledge.load().record("litert-resize-dtypes")
    for dtype in (np.int32, np.int64, np.uint16):
        with pytest.raises(TypeError, match=record.error_text.replace("{type}", ".*")):
            library_resize(np.zeros((1, 4, 4, 1), dtype), (2, 2), library="litert", mode="RESIZE_NEAREST_NEIGHBOR",
                           axes=(1, 2))
    # the quoted kernel check (google-ai-edge/LiteRT tflite/kernels/resize_nearest_neighbor.cc Eval @ v2.2.0):
    assert record.error_text.replace("{type}", "%s") == "Output type is %s, requires float, uint8, int8 or int16."
    x = _data("f64", (1, 5, 7, 1), "float32")  # Note [float types]: the float32 weights, in float64
    got = library_resize(x.astype(np.float64), (3, 11), library="litert", mode="RESIZE_BILINEAR", axes=(1, 2))
    np.testing.assert_allclose(got, library_resize(x, (3, 11), library="litert", mode="RESIZE_BILINEAR",
                                                   axes=(1, 2)), atol=1e-6)


def test_the_litert_backends_compute_their_kernel_sets():
    from explorer.advisor.backend_calls import compute
    from explorer.advisor.question import Question

    shape, size = (1, 1, 3000, 1), (1, 4097)
    x = _data("backend", shape, "float32")
    model = convert("RESIZE_BILINEAR", [(shape, size)], False, True)
    for backend, kernels in (("litert", "xnnpack"), ("litert-builtin", "builtin")):
        [want] = run(model, [x], kernels)
        got, _ = compute(Question.of(mode="RESIZE_BILINEAR", backend=backend, align_corners=False, training=False),
                         np.moveaxis(x, 3, 1), size)
        assert np.abs(np.moveaxis(got, 1, 3) - want).max() <= 1e-6, backend


# --- the library everywhere the package lists libraries ----------------------------------------------------------
def test_litert_is_a_preset_an_equivalent_a_scan_equivalent_and_a_libraries_tab_call():
    from explorer.conventions import equivalent, preset

    assert equivalent(preset("litert", "RESIZE_NEAREST_NEIGHBOR"), preset("torch", "nearest"), 13, 5)
    assert equivalent(preset("litert", "RESIZE_BILINEAR", half_pixel_centers=True, kernels="builtin"),
                      preset("tensorflow", "bilinear"), 13, 5)
    onnx = pytest.importorskip("onnx", reason="onnx is an oracle installed by the 'oracles' extra")
    from onnx_models import resize_model

    assert onnx is not None
    model = resize_model((1, 1, 7, 5), op_version=13, sizes=[1, 1, 3, 9], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    [scanned] = explorer.scan(model)
    assert "litert" in {e["library"] for e in scanned.equivalents}
    pytest.importorskip("ipywidgets")
    from explorer.ui.app import App

    app = App(worker=False)
    assert "litert" in app.controls["libraries"].widget.options
    app.set(tab="libraries", libraries=("torch", "litert"), mode="bilinear", size=(12, 10))
    assert "tf.raw_ops.ResizeBilinear(images=x, size=(12, 10)" in app.tabs["libraries"].calls.value

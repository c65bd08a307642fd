"""explorer.scan on ONNX models built here: every node read, and every equivalent checked against ONNX Runtime.

Each case is a one-node model from ``onnx.helper`` (every mode, coordinate transform and nearest rounding,
Resize-10/11/13/18/19 and Upsample-9, scales, sizes and sizes computed from the input's shape, odd lengths,
non-integer ratios, growing and shrinking axes, length 1).  The model runs in ONNX Runtime; every equivalent
the scan lists runs in the engine (``explorer.library_resize``) and, for PyTorch, in PyTorch itself, and must
give ONNX Runtime's numbers.
"""

from __future__ import annotations


import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
torch = pytest.importorskip("torch")

from onnx import TensorProto, helper  # noqa: E402

import explorer  # noqa: E402
from explorer.advisor.onnx_resize import resize_nodes  # noqa: E402
from onnx_models import resize_model, run_ort  # noqa: E402,F401

pytestmark = pytest.mark.oracle

TRANSFORMS = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")
ROUNDING = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
SHAPES = [((1, 1, 7, 5), (1, 1, 3, 8)), ((1, 1, 4, 9), (1, 1, 11, 2)), ((1, 1, 1, 6), (1, 1, 3, 1))]
SCALES = [((1, 1, 7, 5), (1.0, 1.0, 1.7, 0.6)), ((1, 1, 10, 3), (1.0, 1.0, 0.35, 2.5))]


def run_equivalent(eq, x):
    options = dict(eq["options"])
    size = options.pop("size", None)
    scale = options.pop("scale_factor", None)
    return explorer.library_resize(x, size=size, scale_factor=scale, library=eq["library"], mode=eq["mode"],
                                   axes=tuple(range(2, x.ndim)), **options)


def run_torch(eq, x):
    options = dict(eq["options"])
    kwargs = {k: options.pop(k) for k in ("size", "scale_factor") if k in options}
    kwargs = {k: tuple(v) for k, v in kwargs.items()}
    return torch.nn.functional.interpolate(torch.from_numpy(x), mode=eq["mode"], **kwargs, **options).numpy()


def check_equivalents(model, input_shape, expect_some=True):
    """Scan the model; every equivalent reproduces ONNX Runtime's output. Returns the scanned node."""
    x = np.random.default_rng(7).random(input_shape, dtype=np.float32)
    expected = run_ort(model, x)
    [node] = explorer.scan(model)
    assert tuple(node.output_shape) == expected.shape
    if expect_some:
        assert node.equivalents, node.attributes
    assert any(e["library"] == "onnx" for e in node.equivalents) or not expect_some
    for eq in node.equivalents:
        got = run_equivalent(eq, x)
        assert got.shape == expected.shape, eq
        np.testing.assert_allclose(got, expected, atol=2e-5, err_msg=str(eq))
        if eq["library"] == "torch":
            np.testing.assert_allclose(run_torch(eq, x), expected, atol=2e-5, err_msg=f"torch itself: {eq}")
    return node


NEAREST_CASES = [(op, t, r, s) for op in (11, 13, 19) for t in TRANSFORMS for r in ROUNDING for s in SHAPES[:2]]
NEAREST_CASES += [(11, "tf_half_pixel_for_nn", r, SHAPES[0]) for r in ROUNDING]
NEAREST_CASES += [(19, "half_pixel_symmetric", r, SHAPES[1]) for r in ROUNDING]


@pytest.mark.parametrize("op_version,transform,rounding,shapes", NEAREST_CASES,
                         ids=lambda v: str(v) if not isinstance(v, tuple) else "x".join(map(str, v[0][2:] + v[1][2:])))
def test_nearest_sizes(op_version, transform, rounding, shapes):
    model = resize_model(shapes[0], op_version=op_version, sizes=shapes[1], mode="nearest",
                         coordinate_transformation_mode=transform, nearest_mode=rounding)
    node = check_equivalents(model, shapes[0])
    assert node.attributes["nearest_mode"] == rounding and node.opset == op_version


@pytest.mark.parametrize("op_version,mode,transform,shapes",
                         [(op, m, t, s) for op in (11, 13, 19) for m in ("linear", "cubic") for t in TRANSFORMS
                          for s in SHAPES])
def test_linear_and_cubic_sizes(op_version, mode, transform, shapes):
    model = resize_model(shapes[0], op_version=op_version, sizes=shapes[1], mode=mode,
                         coordinate_transformation_mode=transform)
    check_equivalents(model, shapes[0])


@pytest.mark.parametrize("mode,transform,scales", [(m, t, s) for m in ("nearest", "linear", "cubic")
                                                   for t in ("half_pixel", "asymmetric", "align_corners")
                                                   for s in SCALES])
def test_scales(mode, transform, scales):
    """Kernels step by 1/scale: equivalents pass scale_factor where the library steps by it."""
    model = resize_model(scales[0], op_version=13, scales=scales[1], mode=mode,
                         coordinate_transformation_mode=transform)
    node = check_equivalents(model, scales[0], expect_some=True)
    assert node.source.scales == scales[1] and node.source.sources == {"scales": "constant"}


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_sizes_computed_from_the_input_shape(mode):
    model = resize_model((1, 1, 9, 6), op_version=13, sizes=(1, 1, 4, 11), computed=True, mode=mode)
    node = check_equivalents(model, (1, 1, 9, 6))
    assert node.source.sources == {"sizes": "computed"} and node.source.sizes == (1, 1, 4, 11)


@pytest.mark.parametrize("mode,a,exclude", [("cubic", -0.5, 1), ("cubic", -0.5, 0), ("cubic", -0.75, 1),
                                           ("linear", None, 1), ("linear", None, 0)])
def test_antialias_opset_18(mode, a, exclude):
    extra = {} if a is None else {"cubic_coeff_a": a}
    model = resize_model((1, 1, 13, 9), op_version=18, sizes=(1, 1, 5, 4), mode=mode, antialias=1,
                         exclude_outside=exclude, **extra)
    node = check_equivalents(model, (1, 1, 13, 9), expect_some=True)
    libraries = {e["library"] for e in node.equivalents}
    if exclude and (mode == "linear" or a == -0.5):
        assert {"torch", "pillow"} <= libraries  # PyTorch antialias = PIL


def test_cubic_exclude_outside_is_tensorflow_and_jax():
    model = resize_model((1, 1, 6, 7), op_version=13, sizes=(1, 1, 10, 12), mode="cubic", cubic_coeff_a=-0.5,
                         exclude_outside=1)
    node = check_equivalents(model, (1, 1, 6, 7))
    assert {"jax"} <= {e["library"] for e in node.equivalents}


def test_tf_crop_and_resize_with_roi_and_extrapolation():
    model = resize_model((1, 1, 6, 7), op_version=13, sizes=(1, 1, 5, 4), mode="linear",
                         roi=(0, 0, -0.2, 0.1, 1, 1, 0.9, 1.3), coordinate_transformation_mode="tf_crop_and_resize",
                         extrapolation_value=-1.0)
    node = check_equivalents(model, (1, 1, 6, 7))
    assert node.source.roi == (0.0, 0.0, -0.2, 0.1, 1.0, 1.0, 0.9, 1.3)


def test_keep_aspect_ratio_policy():
    model = resize_model((1, 1, 6, 9), op_version=18, sizes=(4, 4), mode="linear", axes=[2, 3],
                         keep_aspect_ratio_policy="not_larger")
    node = check_equivalents(model, (1, 1, 6, 9))
    assert tuple(node.output_shape) == (1, 1, 3, 4)


@pytest.mark.parametrize("mode", ["nearest", "linear"])
@pytest.mark.parametrize("scales", [(1.0, 1.0, 2.0, 3.0), (1.0, 1.0, 0.5, 0.4)])
def test_opset_10_resize(mode, scales):
    model = resize_model((1, 1, 8, 10), op_version=10, scales=scales, mode=mode)
    node = check_equivalents(model, (1, 1, 8, 10))
    assert node.source.op_version == 10 and node.source.attributes["mode"] == mode


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_upsample_9(mode):
    model = resize_model((1, 1, 4, 5), op_type="Upsample", scales=(1.0, 1.0, 2.0, 3.0), mode=mode)
    node = check_equivalents(model, (1, 1, 4, 5))
    assert node.op_type == "Upsample" and node.source.op_version == 9


def test_axes_attribute_opset_18():
    model = resize_model((1, 1, 6, 7), op_version=18, sizes=(4,), mode="linear", axes=[-1])
    node = check_equivalents(model, (1, 1, 6, 7))
    assert node.source.sizes == (1, 1, 6, 4) and tuple(node.output_shape) == (1, 1, 6, 4)


def test_nhwc_model_resizes_axes_1_and_2():
    """A TensorFlow-style NHWC model: the scan resizes the changed axes, wherever they are."""
    model = resize_model((1, 7, 5, 3), op_version=13, sizes=(1, 4, 9, 3), mode="nearest",
                         coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")
    x = np.random.default_rng(3).random((1, 7, 5, 3), dtype=np.float32)
    expected = run_ort(model, x)
    [node] = explorer.scan(model)
    torch_eq = node.equivalent_in("torch")
    assert torch_eq["mode"] == "nearest-exact"
    got = explorer.library_resize(np.moveaxis(x, 3, 1), size=tuple(torch_eq["options"]["size"]), library="torch",
                                  mode="nearest-exact", axes=(2, 3))
    np.testing.assert_array_equal(np.moveaxis(got, 1, 3), expected)


def test_known_equivalences():
    """The pairs the issue names, and the ONNX default that no other library computes."""
    def names(**attributes):
        [node] = explorer.scan(resize_model((1, 1, 10, 10), sizes=(1, 1, 3, 3), **attributes))
        return {(e["library"], e["mode"]) for e in node.equivalents}

    exact = names(mode="nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")
    assert {("torch", "nearest-exact"), ("tensorflow", "nearest"), ("jax", "nearest"), ("pillow", "NEAREST"),
            ("opencv", "INTER_NEAREST_EXACT"), ("burn", "NearestExact")} <= exact
    floor = names(mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    assert {("torch", "nearest"), ("opencv", "INTER_NEAREST"), ("burn", "Nearest")} <= floor
    default = names(mode="nearest")  # the ONNX default, half_pixel + round_prefer_floor
    assert ("torch", "nearest-exact") not in default and ("torch", "nearest") not in default


def test_node_facts_in_onnx_terms():
    model = resize_model((1, 3, 7, 5), op_version=19, sizes=(1, 3, 3, 8), mode="cubic", cubic_coeff_a=-0.5,
                         exclude_outside=1, name="decoder/up")
    [node] = resize_nodes(model)
    assert node.name == "decoder/up" and node.op_type == "Resize" and node.opset == 19 and node.op_version == 19
    assert node.attributes["mode"] == "cubic" and node.attributes["cubic_coeff_a"] == -0.5
    assert node.attributes["exclude_outside"] == 1 and node.attributes["antialias"] == 0
    assert node.attributes["keep_aspect_ratio_policy"] == "stretch" and node.attributes["axes"] is None
    assert set(node.given) == {"mode", "cubic_coeff_a", "exclude_outside"}
    assert node.input_shape == (1, 3, 7, 5) and node.output_shape == (1, 3, 3, 8)
    assert node.sizes == (1, 3, 3, 8) and node.sources == {"sizes": "constant"}


def test_dynamic_axes_need_example_inputs():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, "h", "w"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="up", mode="linear")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[scales]),
                              opset_imports=[helper.make_opsetid("", 13)])
    [unknown] = explorer.scan(model)
    assert unknown.findings[0].severity == "warning" and "example_inputs" in unknown.findings[0].message
    assert not unknown.equivalents
    [known] = explorer.scan(model, example_inputs={"x": (2, 3, 5, 7)})
    assert tuple(known.output_shape) == (2, 3, 10, 14)
    assert ("torch", "bilinear") in {(e["library"], e["mode"]) for e in known.equivalents}
    [same] = explorer.scan(model, example_inputs=[np.zeros((2, 3, 5, 7), np.float32)])
    assert same.to_dict() == known.to_dict()
    with pytest.raises(ValueError, match="not inputs of the model"):
        explorer.scan(model, example_inputs={"image": (1, 3, 5, 7)})


def test_a_model_proto_with_example_inputs_is_read_without_copying_its_weights(monkeypatch):
    from explorer.advisor import onnx_resize
    from explorer.limits import FOLD_BYTES
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4, "h", "w"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    weight = onnx.numpy_helper.from_array(np.ones((16, 4, 128, 128), np.float32), "weight")  # 4 MiB
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    nodes = [helper.make_node("Conv", ["x", "weight"], ["h"], name="conv", pads=[64, 64, 63, 63]),
             helper.make_node("Resize", ["h", "", "scales"], ["y"], name="up", mode="linear")]
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y], initializer=[weight, scales]),
                              opset_imports=[helper.make_opsetid("", 13)])
    assert weight.ByteSize() > 4 * FOLD_BYTES
    given = []
    real = onnx_resize._with_input_shapes
    monkeypatch.setattr(onnx_resize, "_with_input_shapes",
                        lambda proto, example: given.append(proto.ByteSize()) or real(proto, example))
    [node] = explorer.scan(model, example_inputs={"x": (1, 4, 8, 8)})
    assert tuple(node.output_shape) == (1, 16, 16, 16)
    assert given and max(given) < FOLD_BYTES  # the copy given example shapes holds no weight
    assert len(model.graph.initializer[0].raw_data) == 4 * 16 * 4 * 128 * 128  # the caller's model untouched
    [from_bytes] = explorer.scan(model.SerializeToString(), example_inputs={"x": (1, 4, 8, 8)})
    assert from_bytes.to_dict() == node.to_dict()


def test_invalid_node_is_an_error_finding_with_ort_text():
    model = resize_model((1, 1, 4, 4), op_version=13, sizes=(1, 1, 8, 8), mode="nearest", exclude_outside=1)
    [node] = explorer.scan(model)
    assert node.findings[0].severity == "error"
    assert "exclude_outside can be set to 1" in node.findings[0].error_text
    with pytest.raises(Exception, match="exclude_outside"):  # ONNX Runtime says the same
        run_ort(model, np.zeros((1, 1, 4, 4), np.float32))


def test_subgraphs_and_many_nodes_in_graph_order():
    then_model = resize_model((1, 1, 4, 4), sizes=(1, 1, 8, 8), mode="linear", name="inner")
    cond = helper.make_tensor_value_info("c", TensorProto.BOOL, [])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    then_graph = helper.make_graph(list(then_model.graph.node), "then", [], [y], list(then_model.graph.initializer))
    else_graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "else", [], [y])
    outer = helper.make_node("Resize", ["x", "", "s2"], ["z"], name="outer", mode="nearest")
    branch = helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then_graph, else_branch=else_graph)
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, None)
    s2 = helper.make_tensor("s2", TensorProto.FLOAT, [4], [1, 1, 0.5, 0.5])
    model = helper.make_model(helper.make_graph([outer, branch], "g", [x, cond], [z, y], initializer=[s2]),
                              opset_imports=[helper.make_opsetid("", 13)])
    nodes = explorer.scan(model)
    assert [n.node for n in nodes] == ["outer", "inner"]
    assert nodes[1].location == "branch.then_branch" and tuple(nodes[1].output_shape) == (1, 1, 8, 8)


def test_every_rounding_and_transform_has_a_case():
    """The parametrised cases above cover every nearest_mode and every Resize-19 transform."""
    seen = {(t, r) for _, t, r, _ in NEAREST_CASES}
    assert {r for _, r in seen} == set(ROUNDING)
    from explorer.conventions.libraries.onnx import OPSETS
    assert set(TRANSFORMS) | {"tf_half_pixel_for_nn", "half_pixel_symmetric"} <= {t for t, _ in seen}
    assert {10, 11, 13, 18, 19} == set(OPSETS)


def test_large_node_is_scanned_without_dense_matrices():
    """A 4096 -> 8192 node: equivalents come from banded weights, not (8192 x 4096) matrices."""
    import tracemalloc
    model = resize_model((1, 1, 4096, 4096), sizes=(1, 1, 8192, 8192), mode="linear")
    tracemalloc.start()
    [node] = explorer.scan(model, backend="burn-flex")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert ("torch", "bilinear") in {(e["library"], e["mode"]) for e in node.equivalents}
    assert peak < 400 * 2**20, peak  # one 8192 x 4096 float64 matrix alone would be 256 MiB per axis
    assert any("not measured" in f.message for f in node.findings)



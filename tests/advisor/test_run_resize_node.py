"""explorer.run_resize_node: one ONNX Resize/Upsample node on an array, checked against ONNX Runtime."""

import numpy as np
import pytest

import explorer
from explorer.advisor.onnx_resize import resize_nodes
from explorer.errors import ArgumentValueError
from explorer.probe.cases import build_model, by_id, cases, make_input

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402


def _two_node_model():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("z", TensorProto.FLOAT, None)
    scales = helper.make_tensor("s", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    a = helper.make_node("Resize", ["x", "", "s"], ["y"], name="a", mode="nearest")
    b = helper.make_node("Resize", ["y", "", "s"], ["z"], name="b", mode="linear")
    graph = helper.make_graph([a, b], "g", [x], [y], initializer=[scales])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_a_model_with_several_nodes_needs_node():
    model = _two_node_model()
    x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    with pytest.raises(ArgumentValueError, match=r"2 Resize/Upsample nodes.*\['a', 'b'\]"):
        explorer.run_resize_node(model, x)
    with pytest.raises(ArgumentValueError, match="node='c' is not a Resize/Upsample node.*'a', 'b'"):
        explorer.run_resize_node(model, x, node="c")
    with pytest.raises(ArgumentValueError, match="node=5 is out of range"):
        explorer.run_resize_node(model, x, node=5)
    first = explorer.run_resize_node(model, x, node="a")
    assert first.shape == (1, 1, 8, 8)
    assert np.array_equal(first, np.repeat(np.repeat(x, 2, axis=2), 2, axis=3))


def test_a_node_given_directly_is_the_same_as_its_model():
    case = by_id(cases("attributes"))["attributes/Resize13/cubic/a-0.5+excl/float32/down-scales"]
    model, x = build_model(case), make_input(case)
    [node] = resize_nodes(model, example_inputs=[x.shape])
    assert np.array_equal(explorer.run_resize_node(node, x), explorer.run_resize_node(model, x))
    with pytest.raises(ArgumentValueError, match="x has shape"):
        explorer.run_resize_node(node, x[:, :1])


@pytest.mark.oracle
@pytest.mark.parametrize("case_id", [
    "aspect/Resize18/nearest/not_smaller/float32/6x9-in-4x4",      # the policy's scale over N and C too
    "aspect/Resize18/linear/not_larger+axes2,3/float32/6x9-in-4x4",
    "crop/Resize13/linear/tf_crop_and_resize+ext7.5/float32/roi-outside",
    "opsets/Upsample9/nearest/default/float32/up1.5-scales",
    "ranks/Resize13/linear/default/float32/1d-down",
    "attributes/Resize13/nearest/asymmetric+ceil/float32/up-scales",
])
def test_agrees_with_onnx_runtime(case_id):
    ort = pytest.importorskip("onnxruntime")
    case = by_id(cases())[case_id]
    model, x = build_model(case), make_input(case)
    (expected,) = ort.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"X": x})
    got = explorer.run_resize_node(model, x)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-6)

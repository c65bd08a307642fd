"""ONNX's own Resize and Upsample node tests, run through the explorer's ONNX semantics and ONNX Runtime.

The onnx wheel no longer ships the node tests' data; it ships their generators,
``onnx.backend.test.case.node.resize`` and ``.upsample``: each ``export_*`` function builds a node, its inputs
and the expected outputs (from onnx's reference implementation) and hands them to ``expect``, which is
replaced here to collect the cases.  Each case becomes a model whose ``roi``/``scales``/``sizes`` are
initializers (constants, as the explorer reads models), at the opset the test names (the operator's newest
version otherwise).  The explorer runs the node as ``scan`` does (``resize_nodes`` -> ``onnx_call``, the
``onnx`` preset with ONNX Runtime's CPU arithmetic) and is compared with the expected output at the suite's
own tolerance (rtol 1e-3, atol 1e-7) and with ONNX Runtime within 1e-5 of the largest value (cubic with
align_corners on 1..16 differs by 1.2e-5: float32 coefficients rounded differently).

Cases that are not run as the others, with the reason, are data: ``REFERENCE_QUIRKS`` (the expected output
is not what ONNX Runtime computes; the explorer must agree with ONNX Runtime and both must differ from it)
and ``NOT_YET_READ`` (the explorer cannot read the node yet: strict expected failures).
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx is an oracle installed by the 'oracles' extra")
ort = pytest.importorskip("onnxruntime", reason="ONNX Runtime is an oracle installed by the 'oracles' extra")
from onnx import helper, numpy_helper
from onnx.backend.test.case.node import resize as resize_cases
from onnx.backend.test.case.node import upsample as upsample_cases

from explorer.advisor.node_calls import onnx_call
from explorer.advisor.onnx_resize import resize_nodes

pytestmark = pytest.mark.oracle

_ALIGN_CORNERS_QUIRK = (
    "onnx's reference evaluates align_corners with the unrounded output length: x * (n - 1) / (scale * n - 1) "
    "(_interpolate_1d_with_x in onnx/reference/ops/op_resize.py of the onnx 1.23.2 wheel: output_width = "
    "scale_factor * input_width); ONNX Runtime and the explorer use the integer length "
    "floor(scale * n) = 2, so the expected 3.142857 (linear) is 4.0 for them")
REFERENCE_QUIRKS = {
    "test_resize_downsample_scales_linear_align_corners": _ALIGN_CORNERS_QUIRK,
    "test_resize_downsample_scales_cubic_align_corners": _ALIGN_CORNERS_QUIRK,
}
NOT_YET_READ: dict = {}  # every case of ONNX's node suite is read (the roi of tf_crop_and_resize with axes too)


@contextmanager
def _collecting(modules, cases):
    """Each module's ``expect`` replaced by one that records (name, node, inputs, outputs, kwargs)."""
    saved = [(module, module.expect) for module in modules]

    def expect(node, inputs, outputs, name, **kwargs):
        cases.append((name, node, list(inputs), list(outputs), kwargs))

    try:
        for module in modules:
            module.expect = expect
        yield cases
    finally:
        for module, original in saved:
            module.expect = original


def _collect():
    cases = []
    with _collecting((resize_cases, upsample_cases), cases):
        for cls in (resize_cases.Resize, upsample_cases.Upsample):
            for name in sorted(vars(cls)):
                if name.startswith("export"):
                    getattr(cls, name)()
    return cases


CASES = _collect()


def _model(name, node, inputs, outputs, kwargs):
    """The node in a model: the data input is the graph's input, the others initializers."""
    present = [n for n in node.input if n]
    data = inputs[0]
    x_info = helper.make_tensor_value_info(present[0], helper.np_dtype_to_tensor_dtype(data.dtype), data.shape)
    y_info = helper.make_tensor_value_info(node.output[0], helper.np_dtype_to_tensor_dtype(outputs[0].dtype), None)
    initializers = [numpy_helper.from_array(np.asarray(v), n) for v, n in zip(inputs[1:], present[1:])]
    graph = helper.make_graph([node], name, [x_info], [y_info], initializer=initializers)
    opsets = kwargs.get("opset_imports") or [
        helper.make_opsetid("", onnx.defs.get_schema(node.op_type).since_version)]
    return helper.make_model_gen_version(graph, opset_imports=opsets)


def _explorer(model, x):
    [node] = resize_nodes(model, example_inputs=[x.shape])
    call = onnx_call(node)
    return call.run(x.reshape(call.shape)).reshape(node.output_shape)


def _onnxruntime(model, node, x):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {node.input[0]: x})[0]


def _params():
    out = []
    for case in CASES:
        name = case[0]
        marks = []
        if name in NOT_YET_READ:
            marks.append(pytest.mark.xfail(strict=True, raises=TypeError, reason=NOT_YET_READ[name]))
        out.append(pytest.param(*case, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name,node,inputs,outputs,kwargs", _params())
def test_node_case(name, node, inputs, outputs, kwargs):
    model = _model(name, node, inputs, outputs, kwargs)
    x, expected = inputs[0], outputs[0]
    runtime = _onnxruntime(model, node, x)
    got = _explorer(model, x)
    assert got.shape == expected.shape == runtime.shape
    scale = max(1.0, float(np.abs(runtime).max(initial=0)))
    np.testing.assert_allclose(got, runtime, rtol=0, atol=1e-5 * scale, err_msg="against ONNX Runtime")
    if name in REFERENCE_QUIRKS:
        assert not np.allclose(got, expected, rtol=1e-3, atol=1e-7), "the reference quirk is gone: drop the entry"
        assert not np.allclose(runtime, expected, rtol=1e-3, atol=1e-7)
        return
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-7, err_msg="against onnx's expected output")


def test_every_generator_was_collected_and_every_exception_names_a_case():
    names = {case[0] for case in CASES}
    exports = [n for cls in (resize_cases.Resize, upsample_cases.Upsample) for n in vars(cls) if n.startswith("export")]
    assert len(CASES) >= len(exports) == 40
    assert set(REFERENCE_QUIRKS) | set(NOT_YET_READ) <= names

"""ONNX models of one Resize node, and running them with ONNX Runtime (shared by the scan, app and convention tests)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper

_ELEM = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint8): TensorProto.UINT8}




def resize_model(input_shape, *, op_version=13, scales=None, sizes=None, computed=False, roi=None,
                 op_type="Resize", name="resize", **attributes):
    """A model with one Resize (or Upsample) node; ``computed`` builds sizes from Shape(x) -> Slice -> Concat."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(input_shape))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    nodes, init = [], []
    if scales is not None:
        init.append(helper.make_tensor("scales", TensorProto.FLOAT, [len(scales)], list(scales)))
    if roi is not None:
        init.append(helper.make_tensor("roi", TensorProto.FLOAT, [len(roi)], list(roi)))
    if sizes is not None and computed:
        init += [helper.make_tensor("start", TensorProto.INT64, [1], [0]),
                 helper.make_tensor("end", TensorProto.INT64, [1], [2]),
                 helper.make_tensor("spatial", TensorProto.INT64, [len(sizes) - 2], list(sizes[2:]))]
        nodes += [helper.make_node("Shape", ["x"], ["shape"]),
                  helper.make_node("Slice", ["shape", "start", "end"], ["nc"]),
                  helper.make_node("Concat", ["nc", "spatial"], ["sizes"], axis=0)]
    elif sizes is not None:
        init.append(helper.make_tensor("sizes", TensorProto.INT64, [len(sizes)], list(sizes)))
    if op_type == "Upsample" or op_version == 10:
        inputs = ["x", "scales"]
    elif op_version == 11:  # Resize-11: roi and scales are required inputs (empty tensors stand for none)
        for role, value in (("roi", roi), ("scales", scales)):
            if value is None:
                init.append(helper.make_tensor(role, TensorProto.FLOAT, [0], []))
        inputs = ["x", "roi", "scales"] + (["sizes"] if sizes is not None else [])
    else:
        inputs = ["x", "roi" if roi is not None else "", "scales" if scales is not None else "",
                  "sizes" if sizes is not None else ""]
    nodes.append(helper.make_node(op_type, inputs, ["y"], name=name, **attributes))
    graph = helper.make_graph(nodes, "g", [x], [y], initializer=init)
    opset = 9 if op_type == "Upsample" else op_version
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model



def run_ort(model, x):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]



def ort_resize(x, mode, sizes=None, scales=None, roi=None, opset=19, **attributes):
    """Run one ONNX Resize node on ``x`` with ONNX Runtime."""
    inputs, initializers = ["X"], []

    def const(name, kind, values):
        initializers.append(helper.make_tensor(name, kind, [len(values)], list(values)))
        inputs.append(name)

    if opset == 10:
        const("scales", TensorProto.FLOAT, [float(s) for s in scales])
    else:
        if roi is not None or opset < 13:
            const("roi", TensorProto.FLOAT, [float(v) for v in (roi or [])])
        else:
            inputs.append("")
        if scales is not None:
            const("scales", TensorProto.FLOAT, [float(s) for s in scales])
        else:
            if opset < 13:
                const("scales", TensorProto.FLOAT, [])
            else:
                inputs.append("")
            const("sizes", TensorProto.INT64, [int(s) for s in sizes])
    node = helper.make_node("Resize", inputs, ["Y"], mode=mode, **attributes)
    graph = helper.make_graph([node], "resize", [helper.make_tensor_value_info("X", _ELEM[x.dtype], list(x.shape))],
                              [helper.make_tensor_value_info("Y", _ELEM[x.dtype], None)], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.log_severity_level = 3
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    return session.run(None, {"X": x})[0]



def attributes(options):
    return {k: (int(v) if isinstance(v, bool) else v) for k, v in options.items() if k != "opset"}

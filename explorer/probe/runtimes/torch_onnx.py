"""``torch.onnx.export`` of one ``F.interpolate`` call: the TorchScript exporter (``dynamo=False``) or the dynamo
exporter (``dynamo=True``, onnxscript) at the case's opset; the exported model run in ONNX Runtime (CPU).

Stages: ``convert`` is the export (its exception text is the exporter's own), ``load`` the ONNX Runtime
session, ``run`` the inference.  ``converted`` records what the exporter wrote: the opset it stamped and each
resize node's op type and attributes (its constant scales/sizes inputs where they are initializers or
``Constant`` nodes), the nodes of the graph, and ``vs_torch``: the largest difference between ONNX Runtime's
output and torch's own output of the same call (the cell's verdict compares ONNX Runtime's output with the
explorer's computation of the torch call).  Warnings the exporter gives are the cell's notes.
"""

NAME = "torch-onnx"
PRODUCT = "torch"
KINDS = ("torch-onnx",)
PACKAGES = ("torch", "onnx", "onnxscript", "onnxruntime", "numpy")
RELEASES = ("2.13.0",)
CURRENT = "2.13.0"
_RESIZE_OPS = ("Resize", "Upsample", "AveragePool", "GlobalAveragePool", "ReduceMean")


def install(release):
    return [[f"torch=={release}"],
            ["onnx", "onnxscript", "onnxruntime", "numpy"]]


def version():
    return _torch().version()


def _torch():
    """``torch.py``: the call's keywords, its module and the warnings' notes are declared there once."""
    return load_sibling("torch")  # noqa: F821 (given by the loader: child.load_adapter)


def _plain(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def describe(model) -> dict:
    """The opset stamped and every resize-like node with its attributes and constant inputs."""
    import onnx
    from onnx import numpy_helper

    constants = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Constant":
            for a in node.attribute:
                if a.name == "value":
                    constants[node.output[0]] = numpy_helper.to_array(a.t)
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    nodes = []
    for node in model.graph.node:
        if node.op_type not in _RESIZE_OPS:
            continue
        entry = {"op": node.op_type,
                 "attributes": {a.name: _plain(onnx.helper.get_attribute_value(a)) for a in node.attribute}}
        given = {}
        for k, name in enumerate(node.input[1:], start=1):
            if name in constants:
                given[str(k)] = _plain(constants[name])
        if given:
            entry["constant_inputs"] = given
        nodes.append(entry)
    return {"opset": opset, "nodes": nodes, "graph": [n.op_type for n in model.graph.node]}


def run(case, inputs, cell):
    import io
    import warnings

    import numpy as np
    import onnx
    import onnxruntime as ort
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    kwargs = _torch().interpolate_kwargs(case)
    module = _torch().interpolate_module(case)

    x = torch.from_numpy(inputs["X"])
    with torch.no_grad():
        expected = F.interpolate(x, **kwargs).numpy()
    with cell.stage("convert"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if case["exporter"] == "dynamo":
                program = torch.onnx.export(module, (x,), dynamo=True, opset_version=case["opset"],
                                            input_names=["X"], output_names=["Y"], verbose=False)
                model = program.model_proto
            else:
                buffer = io.BytesIO()
                torch.onnx.export(module, (x,), buffer, dynamo=False, opset_version=case["opset"],
                                  input_names=["X"], output_names=["Y"])
                model = onnx.load_from_string(buffer.getvalue())
        _torch().note_warnings(cell, caught)
        description = describe(model)
        cell.converted(description)
    with cell.stage("load"):
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 4
        session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    with cell.stage("run"):
        feed = {session.get_inputs()[0].name: inputs["X"]}
        (y,) = session.run(None, feed)
    if y.shape == expected.shape:
        with np.errstate(all="ignore"):
            description["vs_torch"] = float(np.max(np.abs(y.astype(np.float64) - expected))) if y.size else 0.0
    else:
        description["vs_torch"] = f"shape {list(y.shape)} (torch {list(expected.shape)})"
    cell.converted(description)
    cell.output(y)

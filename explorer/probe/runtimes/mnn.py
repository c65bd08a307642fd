"""MNN: the ONNX file converted by MNN's converter (``_tools.mnnconvert``, the C++ converter the ``mnnconvert``
command wraps), the converted model dumped to JSON for what the node became (its ``Interp`` op: resizeType,
alignCorners, halfPixelCenters, ctm, cubicCoeffA ...), then run with ``MNN.nn.load_module_from_file`` on the CPU.

The converter is called directly, not through the ``mnnconvert`` script: that script's logger pip-installs a
log client into whatever ``pip`` is first on the PATH and reports each conversion to a remote log service.
The pip wheels start at 3.0 (3.x only for CPython 3.11).
"""

NAME = "mnn"
PRODUCT = "mnn"
KINDS = ("onnx",)
REPEATS = 2  # each cell twice: an output that changes is marked unstable
PACKAGES = ("MNN", "numpy")
RELEASES = ("3.0.0", "3.2.0", "3.4.1", "3.6.1")
CURRENT = "3.6.1"
_SKIP_OPS = ("Input", "Const", "ConvertTensor")


def install(release):
    return [[f"MNN=={release}"]]


def version():
    import importlib.metadata

    return importlib.metadata.version("MNN")


def run(case, inputs, cell):
    import json
    import os

    import _tools
    import MNN.expr as F
    import MNN.nn as nn

    base = os.path.splitext(os.path.basename(case["model_path"]))[0]
    mnn_path = os.path.join(os.getcwd(), base + ".mnn")
    json_path = os.path.join(os.getcwd(), base + ".json")
    with cell.stage("convert"):
        for path in (mnn_path, json_path):
            if os.path.exists(path):
                os.remove(path)
        _tools.mnnconvert(["mnnconvert", "-f", "ONNX", "--modelFile", case["model_path"], "--MNNModel", mnn_path,
                           "--bizCode", "probe"])
        if not os.path.exists(mnn_path):
            raise RuntimeError("MNN's converter wrote no model (see its output)")
        try:
            _tools.mnnconvert(["mnnconvert", "-f", "MNN", "--modelFile", mnn_path, "--JsonFile", json_path])
            with open(json_path) as fh:
                ops = json.load(fh).get("oplists", [])
            cell.converted([{"type": op.get("type"), **(op.get("main") or {})} for op in ops
                            if op.get("type") not in _SKIP_OPS])
        except Exception as exc:  # noqa: BLE001 - the dump is information; the run is the cell
            cell.note(f"no JSON dump: {exc}")
    with cell.stage("load"):
        module = nn.load_module_from_file(mnn_path, ["X"], ["Y"])
    with cell.stage("run"):
        x = inputs["X"]
        result = module.forward(F.const(x, list(x.shape), F.NCHW))
        if isinstance(result, (list, tuple)):
            result = result[0]
        y = result.read()
    cell.output(y)

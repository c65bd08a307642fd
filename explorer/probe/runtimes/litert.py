"""LiteRT: a ``tf.function`` of ``tf.compat.v1.image.resize_bilinear`` / ``resize_nearest_neighbor`` (the case's
align_corners / half_pixel_centers) converted by TensorFlow's ``tf.lite.TFLiteConverter`` (float32, or
full-integer int8 with a representative dataset of inputs in [0, 1) and int8 input and output), run by the
``ai-edge-litert`` interpreter with its default kernels (the XNNPACK delegate: ``kernels="xnnpack"``) or
``OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES`` (``kernels="builtin"``).

An int8 cell feeds the case's int8 array as the stored integers (RESIZE_* keep the input's scale and zero
point, so the output's integers are compared with the explorer's integer resampling).  ``converted`` lists the
model's operators with the RESIZE options the flatbuffer holds and the input's quantization.  Stages:
``convert`` (the converter), ``load`` (the interpreter and ``allocate_tensors``), ``run`` (``invoke``).
"""

import os

NAME = "litert"
PRODUCT = "litert"
KINDS = ("litert",)
PACKAGES = ("ai-edge-litert", "tensorflow", "tensorflow-cpu", "numpy")
RELEASES = ("1.4.0", "2.0.3", "2.3.0")
CURRENT = "2.3.0"
_models = {}


def install(release):
    return [[f"ai-edge-litert=={release}", "tensorflow-cpu", "numpy"]]


def version():
    import importlib.metadata

    return importlib.metadata.version("ai-edge-litert")


def _convert(case):
    key = (case["mode"], case["options"].get("align_corners", False), case["options"].get("half_pixel_centers",
           False), case["dtype"], tuple(case["input_shape"]), tuple(case["size"]))
    if key in _models:
        return _models[key]
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf

    align, half = key[1], key[2]
    size = list(case["size"])
    function = (tf.compat.v1.image.resize_bilinear if case["mode"] == "RESIZE_BILINEAR"
                else tf.compat.v1.image.resize_nearest_neighbor)

    @tf.function(input_signature=[tf.TensorSpec(case["input_shape"], tf.float32)])
    def resize(x):
        return function(x, size, align_corners=align, half_pixel_centers=half)

    converter = tf.lite.TFLiteConverter.from_concrete_functions([resize.get_concrete_function()], resize)
    if case["dtype"] == "int8":
        rng = np.random.default_rng(0)

        def representative():
            for _ in range(8):
                yield [rng.random(case["input_shape"]).astype(np.float32)]

        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        converter.inference_input_type = tf.int8
        converter.inference_output_type = tf.int8
    model = converter.convert()
    _models[key] = model
    return model


def describe(model: bytes) -> list:
    """Each operator of the flatbuffer: its builtin name and, for RESIZE_*, align_corners/half_pixel_centers."""
    from tensorflow.lite.python import schema_py_generated as fb

    names = {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_")}
    root = fb.Model.GetRootAsModel(model, 0)
    graph = root.Subgraphs(0)
    out = []
    for k in range(graph.OperatorsLength()):
        op = graph.Operators(k)
        code = root.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        entry = {"op": names.get(builtin, str(builtin))}
        table = op.BuiltinOptions()
        if table is not None and entry["op"] in ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"):
            options = (fb.ResizeBilinearOptions() if entry["op"] == "RESIZE_BILINEAR"
                       else fb.ResizeNearestNeighborOptions())
            options.Init(table.Bytes, table.Pos)
            entry["align_corners"] = bool(options.AlignCorners())
            entry["half_pixel_centers"] = bool(options.HalfPixelCenters())
        out.append(entry)
    return out


def run(case, inputs, cell):
    import numpy as np
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    with cell.stage("convert"):
        model = _convert(case)
        described = {"ops": describe(model)}
        cell.converted(described)
    with cell.stage("load"):
        if case["options"].get("kernels") == "builtin":
            interpreter = Interpreter(model_content=model, num_threads=1,
                                      experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        else:
            interpreter = Interpreter(model_content=model, num_threads=1)
        interpreter.allocate_tensors()
        details = interpreter.get_input_details()[0]
        described["input"] = {"dtype": np.dtype(details["dtype"]).name,
                              "quantization": [float(q) for q in details["quantization"]]}
        cell.converted(described)
    with cell.stage("run"):
        interpreter.set_tensor(details["index"], inputs["X"].astype(details["dtype"]))
        interpreter.invoke()
        y = interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).copy()
    cell.output(y)

"""TFLite models of RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR built by TensorFlow's converter, run by the LiteRT
interpreter (``ai-edge-litert``) with each of its kernel sets (shared by the LiteRT convention and fidelity tests).

One model holds many resizes (one input and one output each), so a grid of sizes costs one conversion:
float32, int8 and int16 models come from ``tf.lite.TFLiteConverter`` (int8: full-integer quantization with int8
inputs and outputs, so the RESIZE op itself runs on int8; int16: the 16x8 mode), uint8 models from the TF1 converter with
``inference_type=tf.uint8`` (fake-quant [0, 255], scale 1, zero point 0: the stored integers are the values).
"""

from __future__ import annotations

import os
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert.interpreter import Interpreter, OpResolverType  # noqa: E402

RESOLVERS = {"xnnpack": OpResolverType.AUTO, "builtin": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
             "reference": OpResolverType.BUILTIN_REF}
OPS = {"RESIZE_BILINEAR": "ResizeBilinear", "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighbor"}


def _resize(op, x, size, align_corners, half_pixel_centers):
    return getattr(tf.raw_ops, OPS[op])(images=x, size=size, align_corners=align_corners,
                                        half_pixel_centers=half_pixel_centers)


def convert(op: str, cases, align_corners=False, half_pixel_centers=False, dtype="float32") -> bytes:
    """A .tflite model with one resize per ``(input_shape, (H, W))`` case: inputs ``x{k}``, outputs ``y{k}`` (TF1)
    or ``Identity_{k}`` (TF2; ``Identity`` is the first)."""
    if dtype == "uint8":
        tf1 = tf.compat.v1
        graph = tf.Graph()
        with graph.as_default():
            inputs, outputs = [], []
            for k, (shape, size) in enumerate(cases):
                x = tf1.placeholder(tf.float32, shape, name=f"x{k}")
                q = tf1.quantization.fake_quant_with_min_max_args(x, min=0.0, max=255.0)
                y = _resize(op, q, size, align_corners, half_pixel_centers)
                outputs.append(tf1.quantization.fake_quant_with_min_max_args(y, min=0.0, max=255.0, name=f"y{k}"))
                inputs.append(x)
            with tf1.Session(graph=graph) as session:
                converter = tf1.lite.TFLiteConverter.from_session(session, inputs, outputs)
                converter.inference_type = tf.uint8
                converter.quantized_input_stats = {f"x{k}": (0.0, 1.0) for k in range(len(cases))}
                return converter.convert()
    specs = [tf.TensorSpec(shape, tf.float32, name=f"x{k}") for k, (shape, _) in enumerate(cases)]

    @tf.function(input_signature=specs)
    def f(*xs):
        return tuple(_resize(op, x, size, align_corners, half_pixel_centers)
                     for x, (_, size) in zip(xs, cases))

    converter = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
    if dtype in ("int8", "int16"):
        def representative():
            for seed in range(2):
                rng = np.random.default_rng(seed)
                yield [rng.uniform(-1, 1, shape).astype(np.float32) for shape, _ in cases]
        converter.optimizations = [tf.lite.Optimize.DEFAULT]
        converter.representative_dataset = representative
        converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8 if dtype == "int8" else
                                               tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
        converter.inference_input_type = converter.inference_output_type = getattr(tf, dtype)
    with warnings.catch_warnings():
        # the TF2 converter takes the quantization of int8/int16 inputs from the representative dataset and
        # still warns that no input statistics were given (tensorflow/lite/python/lite.py)
        warnings.filterwarnings("ignore", "Statistics for quantized inputs were expected", UserWarning)
        return converter.convert()


def run(model: bytes, inputs, kernels="xnnpack", ops=False):
    """The outputs ``y{k}`` for inputs ``x{k}`` (a list), with one of ``RESOLVERS``; with ``ops`` also the op
    names the interpreter runs (``DELEGATE`` where XNNPACK took a node)."""
    interpreter = Interpreter(model_content=model, experimental_op_resolver_type=RESOLVERS[kernels])
    interpreter.allocate_tensors()
    by_name = {}
    for detail in interpreter.get_input_details():
        by_name[_index(detail["name"], "x")] = detail
    for k, x in enumerate(inputs):
        detail = by_name[k]
        assert detail["dtype"] == x.dtype, (detail["dtype"], x.dtype)
        interpreter.set_tensor(detail["index"], x)
    interpreter.invoke()
    outputs = {}
    for detail in interpreter.get_output_details():
        outputs[_index(detail["name"], "y")] = interpreter.get_tensor(detail["index"])
    result = [outputs[k] for k in range(len(inputs))]
    if ops:
        return result, [d["op_name"] for d in interpreter._get_ops_details()]
    return result


def _index(name: str, prefix: str) -> int:
    """k of a tensor named x{k} / y{k}, or of TensorFlow's k-th output Identity_{k}."""
    base = name.split(":")[0]
    if base.startswith(prefix) and base[len(prefix):].isdigit():
        return int(base[len(prefix):])
    if base == "Identity":
        return 0
    if base.startswith("Identity_") and base[len("Identity_"):].isdigit():
        return int(base[len("Identity_"):])
    raise AssertionError(f"unexpected tensor name {name!r}")


def resize(op, x, size, align_corners=False, half_pixel_centers=False, kernels="xnnpack"):
    """One resize of an NHWC array (one conversion)."""
    model = convert(op, [(x.shape, size)], align_corners, half_pixel_centers, x.dtype.name)
    return run(model, [x], kernels)[0]

"""OpenVINO Interpolate nodes built in-process and ONNX models read by its ONNX frontend, compiled on the CPU plugin
(shared by the OpenVINO convention and fidelity tests).

Every compile passes ``INFERENCE_PRECISION_HINT=f32`` unless told otherwise: on CPUs with AVX512_BF16 the plugin's
default is bf16 (explorer.conventions.libraries.openvino, Note [bf16 hint]).
"""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset10 as opset4  # openvino.opset10.interpolate builds Interpolate-4
import openvino.opset11 as opset11

CORE = ov.Core()
F32 = {"INFERENCE_PRECISION_HINT": "f32"}
_TYPES = {np.dtype(np.float32): ov.Type.f32, np.dtype(np.float64): ov.Type.f64, np.dtype(np.uint8): ov.Type.u8,
          np.dtype(np.int8): ov.Type.i8}


def interpolate_model(shape, dtype, mode, sizes=None, scales=None, axes=(2, 3), opset=11, **attributes):
    """An ov.Model of one Interpolate (sizes or scales mode) on a parameter of ``shape``."""
    x = opset11.parameter(list(shape), _TYPES[np.dtype(dtype)])
    axes = np.array(axes, np.int64)
    calc = "sizes" if sizes is not None else "scales"
    if opset == 4:
        target = np.array(sizes if sizes is not None else [1] * len(axes), np.int64)
        factors = np.array(scales if scales is not None else [1.0] * len(axes), np.float32)
        node = opset4.interpolate(x, target, factors, mode=mode, shape_calculation_mode=calc, axes=axes, **attributes)
    else:
        values = np.array(sizes, np.int64) if sizes is not None else np.array(scales, np.float32)
        node = opset11.interpolate(x, values, mode=mode, shape_calculation_mode=calc, axes=axes, **attributes)
    return ov.Model([node], [x])


def compile_model(model, hint=F32):
    return CORE.compile_model(model, "CPU", hint or {})


def interpolate(x, mode, sizes=None, scales=None, axes=(2, 3), opset=11, hint=F32, **attributes):
    """Run one Interpolate on ``x`` with the CPU plugin."""
    model = interpolate_model(x.shape, x.dtype, mode, sizes, scales, axes, opset, **attributes)
    return compile_model(model, hint)(x)[0]


def read_onnx(model):
    """An ONNX model read by OpenVINO's ONNX frontend."""
    return CORE.read_model(model.SerializeToString(), b"")


def interpolate_attributes(model):
    """(op version, attributes) of every Interpolate the frontend makes of an ONNX model."""
    return [(op.get_type_info().version_id, op.get_attributes()) for op in read_onnx(model).get_ops()
            if op.get_type_name() == "Interpolate"]


def run_onnx(model, x, hint=F32):
    return compile_model(read_onnx(model), hint)(x)[0]


def default_precision() -> str:
    """The INFERENCE_PRECISION_HINT the CPU plugin compiles with when none is given ('bf16' or 'f32')."""
    compiled = compile_model(interpolate_model((1, 1, 2, 2), np.float32, "nearest", sizes=(3, 3)), None)
    return str(compiled.get_property("INFERENCE_PRECISION_HINT").to_string())

"""TensorRT ``IResizeLayer`` as a runtime, usually reached through its ONNX parser (onnx/onnx-tensorrt
``importResize``, read on branches 8.0-GA ... 10.1-GA; nothing built or run: no GPU).

A network built with the layer API defaults to asymmetric coordinates and floor rounding (NvInfer.h), which is
what is computed here; an imported ONNX node keeps its own attributes.
"""

from __future__ import annotations

from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import write_node


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.family == "nearest":
        return Computation("onnx", "nearest", {"coordinate_transformation_mode": "asymmetric",
                                               "nearest_mode": "floor"})
    return Computation("onnx", q.family, {"coordinate_transformation_mode":
                                          "align_corners" if q.align_corners else "asymmetric"})


RUNTIME = register(Runtime(
    id="tensorrt", title="TensorRT", order=100,
    backends=(Backend("tensorrt", "TensorRT IResizeLayer (usually imported from ONNX Resize)", ("cuda",), "onnx",
                      aliases=("trt",), modes={"kNEAREST": "nearest", "kLINEAR": "linear", "kCUBIC": "cubic"},
                      computes=_computes, writes=write_node, runs_nodes=True),),
    words=("tensorrt", "trt", "importresize", "importupsample", "nvinfer", "onnx2trt"),
    version_markers=("tensorrt==",)))

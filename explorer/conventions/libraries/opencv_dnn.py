"""OpenCV's DNN module as a runtime: ``cv2.dnn.readNetFromONNX`` (the ONNX importer) and its resize layer,
measured with opencv-python-headless 4.5.5.64 ... 5.0.0.93 on 182 Resize models (outputs against the ONNX
reference).

Every release turns ``scales`` into integer sizes and samples with ``in/out``; 4.x has nearest and bilinear only
(bilinear needs an explicit ``coordinate_transformation_mode``; ``nearest_mode`` honoured only for asymmetric +
floor and half-pixel + round_prefer_*), 5.0 adds cubic with ``cubic_coeff_a`` and ``exclude_outside``.  What is
computed here is the node's Spec sampled that way; the records say what each release refuses or ignores.
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ...versions import parse_version
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import node_spec, write_node


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    spec = node_spec(q)
    if spec.kernel == "cubic" and parse_version(q.version) < parse_version("5.0"):
        raise ArgumentValueError(f"OpenCV DNN {q.version} has no cubic resize layer (5.0 adds it)")
    return Computation(None, None, spec_only=spec)


RUNTIME = register(Runtime(
    id="opencv-dnn", title="OpenCV DNN", order=180,
    backends=(Backend("opencv-dnn", "OpenCV DNN: ONNX read by cv2.dnn.readNetFromONNX", ("cpu", "cuda", "gpu"),
                      "onnx", aliases=("cv2-dnn", "opencv-onnx"), spelling="onnx", computes=_computes,
                      writes=write_node, runs_nodes=True),),
    words=("dnn", "onnx_importer", "onnximporter", "readnetfromonnx", "handlenode", "populatenet"),
    version_markers=("opencv-dnn==", "opencv-python==")))

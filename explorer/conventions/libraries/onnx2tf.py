"""onnx2tf as a runtime: the ONNX -> TensorFlow / TFLite converter (PINTO0309/onnx2tf ``onnx2tf/ops/Resize.py``
read at releases 1.7.22 ... 2.6.7; nothing run).

``nearest_mode`` is never read: TensorFlow's nearest is ``floor(i * in/out)`` (asymmetric),
``round(i * (in-1)/(out-1))`` (align_corners) or ``floor((i + 0.5) * in/out)`` (half_pixel, ONNX's
``round_prefer_ceil``); linear follows the coordinate mode; cubic (2.0.20+, static 4-D) is an explicit matrix of
Keys weights with the node's ``cubic_coeff_a`` and ``exclude_outside``.  Sampled with ``in/out`` of the sizes.
"""

from __future__ import annotations

from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import node_spec, write_node

_NEAREST = {"asymmetric": "floor", "align_corners": "round_prefer_ceil", "half_pixel": "round_prefer_ceil",
            "pytorch_half_pixel": "round_prefer_ceil", "tf_half_pixel_for_nn": "floor"}


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    spec = node_spec(q)
    if spec.kernel == "nearest":
        transform = spec.coordinate_transformation_mode
        spec = node_spec(q, nearest_mode=_NEAREST.get(transform, "round_prefer_ceil"))
    return Computation(None, None, spec_only=spec)


RUNTIME = register(Runtime(
    id="onnx2tf", title="onnx2tf", order=170,
    backends=(Backend("onnx2tf", "onnx2tf: ONNX converted to TensorFlow / TFLite", ("cpu", "gpu"), "onnx",
                      spelling="onnx", computes=_computes, writes=write_node, runs_nodes=True),),
    words=("onnx2tf", "onnx_op_name", "input_onnx_file_path"),  # its error log names the ONNX file and node
    version_markers=("onnx2tf==", "onnx2tf v", "onnx2tf-")))

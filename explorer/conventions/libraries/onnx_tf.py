"""onnx-tensorflow (``onnx-tf``) as a runtime: the ONNX -> TensorFlow converter's Resize and Upsample handlers
(onnx/onnx-tensorflow ``onnx_tf/handlers/backend/resize.py``, ``upsample.py`` read at tags v1.5.0 ... v1.10.0;
nothing run).

Resize-11+ with ``align_corners`` or ``asymmetric`` becomes ``tf.compat.v1.image.resize_*`` with those flags,
``half_pixel`` / ``tf_half_pixel_for_nn`` become ``tf.image.resize`` (half-pixel), cubic is TensorFlow's Keys
cubic (a = -0.5, taps outside dropped); both sample with ``in/out`` of the sizes.  Refused combinations
(``pytorch_half_pixel``, half-pixel nearest, rounding nearest modes) are records, not computations.
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import node_spec, write_node


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    spec = node_spec(q)
    transform = spec.coordinate_transformation_mode
    if spec.kernel == "nearest":
        # TF v1 nearest: floor(i * in/out), or roundf(i * (in-1)/(out-1)) with align_corners
        rounding = {"asymmetric": "floor", "align_corners": "round_prefer_ceil",
                    "tf_half_pixel_for_nn": "floor"}.get(transform)
        if rounding is None:
            raise ArgumentValueError(f"onnx-tf refuses nearest with coordinate_transformation_mode={transform!r}")
        return Computation(None, None, spec_only=node_spec(q, nearest_mode=rounding))
    if transform not in ("asymmetric", "align_corners", "half_pixel"):
        raise ArgumentValueError(f"onnx-tf refuses coordinate_transformation_mode={transform!r} for {spec.kernel}")
    if spec.kernel == "cubic":
        return Computation(None, None, spec_only=node_spec(q, cubic_coeff_a=-0.5, exclude_outside=True))
    return Computation(None, None, spec_only=spec)


RUNTIME = register(Runtime(
    id="onnx-tf", title="onnx-tensorflow", order=160,
    backends=(Backend("onnx-tf", "onnx-tensorflow: ONNX converted to a TensorFlow graph", ("cpu", "gpu"), "onnx",
                      aliases=("onnx-tensorflow", "onnx_tf"),
                      modes={"nearest": "nearest-exact", "linear": "linear", "bilinear": "linear", "cubic": "cubic"},
                      computes=_computes, writes=write_node, runs_nodes=True),),
    words=("onnx_tf", "onnx_tensorflow"),
    version_markers=("onnx-tf==", "onnx-tensorflow-rel-", "onnx_tf==")))

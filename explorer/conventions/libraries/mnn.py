"""Alibaba MNN as a runtime: its model converter (``MNNConvert``: ONNX, TFLite, TorchScript frontends) and the
``Interp`` kernels (alibaba/MNN ``tools/converter``, ``source/geometry/ConvertUtils.hpp``,
``source/backend/cpu/CPUResize.hpp`` read at tags 1.2.0 ... 3.6.1; nothing run).

The CPU kernels recompute the scale from the integer sizes (``in/out``, or ``(in-1)/(out-1)`` with align
corners), take the coordinate offset of the node's ``coordinate_transformation_mode`` and a hard-coded cubic
A = -0.75 (``cubic_coeff_a`` is read only on QNN): a bare Spec of the node.  Nearest with ``floor`` is modelled;
its ``round_prefer_floor`` is ``floor(x + 0.499)``, which no engine rounding rule is, so it is not.
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import node_spec, write_node


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    spec = node_spec(q, cubic_coeff_a=-0.75)
    if spec.kernel == "nearest" and spec.nearest_mode != "floor":
        raise ArgumentValueError("MNN's nearest rounding floor(x + 0.499) is not modelled; give nearest_mode='floor'")
    return Computation(None, None, spec_only=spec)


RUNTIME = register(Runtime(
    id="mnn", title="MNN", order=140,
    backends=(Backend("mnn", "Alibaba MNN (MNNConvert and the Interp kernels)", ("cpu", "gpu"), "onnx",
                      aliases=("mnnconvert",),
                      modes={"nearest": "nearest", "linear": "linear", "bilinear": "linear", "trilinear": "linear",
                             "cubic": "cubic", "nearest-exact": "nearest-exact"},
                      computes=_computes, writes=write_node, runs_nodes=True),),
    words=("mnn", "mnnconvert", "mnnconverter"),
    version_markers=("mnn==", "mnn version ", "mnn version: ")))

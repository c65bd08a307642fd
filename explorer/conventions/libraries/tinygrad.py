"""tinygrad as a runtime: ``Tensor.interpolate`` and its ONNX runner's ``Resize`` (tinygrad/tinygrad
``tinygrad/tensor.py``, ``tinygrad/nn/onnx.py`` read at v0.9.0 ... v0.13.0).

The ONNX ``Resize`` follows ONNX exactly from the given scales (indices clipped for nearest and linear, Keys
cubic with ``cubic_coeff_a`` from 0.11, ``exclude_outside`` renormalised): ONNX's own preset of the node.
``Tensor.interpolate`` is not modelled here.
"""

from __future__ import annotations

from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import write_node


def _computes_onnx(q, spatial=None, out=None, intended=True) -> Computation:
    options = {k: v for k, v in q.attributes if k != "keep_aspect_ratio_policy"}
    if q.align_corners and q.mode != "nearest" and "coordinate_transformation_mode" not in options:
        options["coordinate_transformation_mode"] = "align_corners"
    return Computation("onnx", q.mode, options)


RUNTIME = register(Runtime(
    id="tinygrad", title="tinygrad", order=190,
    backends=(Backend("tinygrad", "tinygrad Tensor.interpolate", ("cpu", "cuda", "gpu", "metal"), "python",
                      modes={"linear": "linear", "nearest": "nearest", "nearest-exact": "nearest-exact"}),
              Backend("tinygrad-onnx", "tinygrad's ONNX runner (Resize)", ("cpu", "cuda", "gpu", "metal"), "onnx",
                      spelling="onnx", computes=_computes_onnx, writes=write_node, runs_nodes=True)),
    words=("tinygrad",),
    version_markers=("tinygrad==", "tinygrad v")))

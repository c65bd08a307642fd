"""Tencent ncnn as a runtime: models converted by ``onnx2ncnn`` or ``pnnx`` and run by the ``Interp`` layer
(Tencent/ncnn ``src/layer/interp.cpp``, ``tools/onnx/onnx2ncnn.cpp``, ``tools/pnnx`` read at release tags
20190908 ... 20260526; versions are ncnn's date tags).

``Interp`` computes PyTorch's arithmetic (README of the mined sources, interp.cpp @ 20260526, the same from
20200413): nearest ``min(int(x * in/out), in - 1)`` (asymmetric floor; ``align_corner`` ignored), bilinear
half-pixel with the edge clamp of ``align_corners=False`` or align-corners coordinates, bicubic with A = -0.75
and replicated edges -- so what an ``Interp`` layer computes is PyTorch's preset of the same mode.  What a
converter writes into the layer (and what it drops) is in the records.
"""

from __future__ import annotations

from ..declarations import Backend, Computation, Runtime
from ..registry import register

_RANK_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.family == "nearest":
        return Computation("torch", "nearest", {})
    mode = "bicubic" if q.family == "cubic" else _RANK_LINEAR.get(q.spatial_dims, "bilinear")
    return Computation("torch", mode, {"align_corners": bool(q.align_corners)})


def _writes(q, h, w, size, scale_factor):
    kind = {"nearest": 1, "linear": 2, "cubic": 3}.get(q.family, 2)
    return "python", (f"# ncnn Interp: 0=resize_type {kind} 3={h} 4={w} 6=align_corner "
                      f"{1 if q.align_corners else 0}  (pnnx writes this from F.interpolate)")


RUNTIME = register(Runtime(
    id="ncnn", title="ncnn", order=130,
    backends=(Backend("ncnn", "Tencent ncnn Interp layer (models from onnx2ncnn or pnnx)", ("cpu", "gpu"),
                      "python", aliases=("onnx2ncnn", "pnnx"),
                      modes={"nearest": "nearest", "bilinear": "linear", "linear": "linear", "bicubic": "cubic",
                             "cubic": "cubic"},
                      computes=_computes, writes=_writes),),
    words=("ncnn", "onnx2ncnn", "pnnx"),
    version_markers=("ncnn==1.0.", "ncnn 1.0.", "ncnn-")))

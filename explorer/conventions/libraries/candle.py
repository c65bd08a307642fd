"""huggingface candle ``Tensor::upsample_nearest2d`` / ``upsample_bilinear2d`` as a runtime (tags 0.5.1 ...
0.11.0 and history back to 0.3 read; not run): nearest floors ``o * (in/out)`` in f64, bilinear takes half-pixel
or align-corners coordinates.
"""

from __future__ import annotations

from ..declarations import Backend, Runtime
from ..registry import register
from .coreml import linear_or_floor_nearest


def _writes(q, h, w, size, scale_factor):
    if q.family == "linear":
        return "rust", f"let y = x.upsample_bilinear2d({h}, {w}, {'true' if q.align_corners else 'false'})?;"
    return "rust", f"let y = x.upsample_nearest2d({h}, {w})?;"


RUNTIME = register(Runtime(
    id="candle", title="candle", order=110,
    backends=(Backend("candle", "huggingface candle Tensor::upsample_nearest2d / upsample_bilinear2d",
                      ("cpu", "cuda", "metal"), "rust",
                      modes={"upsample_nearest2d": "nearest", "upsample_bilinear2d": "linear"},
                      computes=linear_or_floor_nearest, writes=_writes),
              # candle-onnx's evaluator (simple_eval) runs a Resize node with upsample_nearest2d; its records only
              Backend("candle-onnx", "candle-onnx's ONNX evaluator (candle_onnx::simple_eval) running a Resize node",
                      ("cpu", "cuda", "metal"), "onnx", aliases=("candle_onnx",), spelling="onnx", runs_nodes=True)),
    words=("candle", "candle_core", "candle_onnx"), also={"candle": "burn"}, version_markers=("candle-core-",)))

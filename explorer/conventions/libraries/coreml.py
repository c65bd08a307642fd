"""Core ML (models converted with coremltools) as a runtime: nothing here runs Core ML (no macOS).

What a converted model computes is read in apple/coremltools ``converters/mil/frontend/torch/ops.py``: nearest
floors ``i * n/m`` in double; linear takes half-pixel or align-corners coordinates.
"""

from __future__ import annotations

from ...engine.spec import Spec
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .mlx import FLOOR_NEAREST


def linear_or_floor_nearest(q, spatial=None, out=None, intended=True) -> Computation:
    """Floor-nearest, or linear with half-pixel or align-corners coordinates (Core ML, candle)."""
    if q.family == "nearest":
        return Computation(None, None, spec_only=FLOOR_NEAREST)
    transform = "align_corners" if q.align_corners else "half_pixel"
    return Computation(None, None, spec_only=Spec("linear", coordinate_transformation_mode=transform))


def _writes(q, h, w, size, scale_factor):
    return "python", "# Core ML: convert the source model with coremltools; choose the source op as above"


RUNTIME = register(Runtime(
    id="coreml", title="Core ML", order=90,
    backends=(Backend("coreml", "Core ML (models converted with coremltools)", ("cpu", "gpu", "ane"), "python",
                      aliases=("coremltools",), modes={"nearest": "nearest", "bilinear": "linear"},
                      computes=linear_or_floor_nearest, writes=_writes),),
    words=("coremltools", "coreml", "mil", "tfcoreml"), version_markers=("coremltools-", "coremltools==")))

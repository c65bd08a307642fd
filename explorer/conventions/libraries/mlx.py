"""MLX ``mlx.nn.Upsample`` as a runtime (ml-explore/mlx ``python/mlx/nn/layers/upsample.py``, read at every
tag v0.5.0 ... v0.32.1; run 0.25.2 and 0.32.4 on Linux CPU).

Linear and cubic are PyTorch's (``scale_factor`` only: output ``int(n * f)``, step ``1/f``); nearest is a Spec of
its own: half-pixel and round half to even when every axis grows, else floor of the asymmetric coordinate.
"""

from __future__ import annotations

from ...engine.spec import Spec
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .pytorch import interpolate_options

_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}
FLOOR_NEAREST = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
_GROWING_NEAREST = Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_half_even")


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.family == "nearest":
        growing = spatial is not None and out is not None and all(m > n for n, m in zip(spatial, out))
        return Computation(None, None, spec_only=_GROWING_NEAREST if growing else FLOOR_NEAREST,
                           steps_by_factor=True)
    torch_mode = _LINEAR.get(q.spatial_dims) if q.family == "linear" else "bicubic"
    return Computation("torch", torch_mode, interpolate_options(torch_mode, q.align_corners, q.antialias))


def _writes(q, h, w, size, scale_factor):
    factor = scale_factor if scale_factor is not None else "scale_factor"
    return "python", (f'y = mlx.nn.Upsample(scale_factor={factor}, mode="{q.mode}", '
                      f"align_corners={bool(q.align_corners)}, antialias={q.antialias})(x_nhwc)")


RUNTIME = register(Runtime(
    id="mlx", title="MLX", order=80,
    backends=(Backend("mlx", "mlx.nn.Upsample", ("cpu", "gpu"), "python",
                      modes={"nearest": "nearest", "linear": "linear", "cubic": "cubic"},
                      computes=_computes, writes=_writes),),
    words=("mlx",), version_markers=("mlx-", "mlx==")))

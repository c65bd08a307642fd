"""kornia as a runtime: ``kornia.geometry.transform.resize`` / ``rescale`` and ``kornia.augmentation.Resize``
(kornia/kornia ``kornia/geometry/transform/affwarp.py`` read at v0.6.0 ... v0.8.3 and v0.9.0rc1).

Without antialias a resize is ``torch.nn.functional.interpolate(mode, align_corners)``: PyTorch's preset.  With
antialias and a downscale kornia first blurs with a Gaussian (sigma = max((in/out - 1)/2, 0.001)), which is not
modelled.
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ..declarations import Backend, Computation, Runtime
from ..registry import register


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.antialias:
        raise ArgumentValueError("kornia's antialias (a Gaussian blur before interpolate) is not modelled")
    options = {} if q.align_corners is None or q.family not in ("linear", "cubic") else {
        "align_corners": q.align_corners}
    mode = {1: "linear", 2: "bilinear", 3: "trilinear"}.get(q.spatial_dims, q.mode) if q.family == "linear" else q.mode
    return Computation("torch", mode, options)


def _writes(q, h, w, size, scale_factor):
    ac = "" if q.align_corners is None else f", align_corners={q.align_corners}"
    return "python", (f"y = kornia.geometry.transform.resize(x, ({h}, {w}), interpolation={q.mode!r}{ac}, "
                      f"antialias={q.antialias})")


RUNTIME = register(Runtime(
    id="kornia", title="kornia", order=200,
    backends=(Backend("kornia", "kornia.geometry.transform.resize (F.interpolate underneath)", ("cpu", "cuda", "mps"),
                      "python",
                      modes={"nearest": "nearest", "nearest-exact": "nearest-exact", "linear": "linear",
                             "bilinear": "linear", "trilinear": "linear", "bicubic": "cubic", "area": "area"},
                      computes=_computes, writes=_writes),),
    words=("kornia",),
    version_markers=("kornia==", "kornia v")))

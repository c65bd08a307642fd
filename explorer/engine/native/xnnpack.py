"""XNNPACK's float32 resize-bilinear, which LiteRT's interpreter runs RESIZE_BILINEAR with by default (the XNNPACK
delegate is applied to every float32 and 8-bit quantized RESIZE_BILINEAR node).

Source: google/XNNPACK ``src/indirection.c`` ``xnn_indirection_init_resize_bilinear2d_hwc_f32`` and
``src/f32-ibilinear/gen/f32-ibilinear-scalar-u1.c`` @75db3c09 (the delegate's flags: google-ai-edge/LiteRT
``tflite/delegates/xnnpack/xnnpack_delegate.cc`` ``VisitResizeBilinearNode`` @v2.2.0: align_corners ->
``XNN_FLAG_ALIGN_CORNERS``, neither flag -> ``XNN_FLAG_TENSORFLOW_LEGACY_MODE``, half_pixel_centers -> the default).

* scale ``s = (n - adj) / (m - adj)`` in float32, ``adj = 1`` under align_corners with ``m > 1``;
* half-pixel: ``x = i * s + (0.5f * s - 0.5f)``, each operation rounded to float32 (not TensorFlow's
  ``(i + 0.5f) * s - 0.5f``: at n = 3000 the two differ by a float32 ulp of x, 2.4e-4 of a weight); legacy and
  align_corners: ``x = i * s``; x clamped to ``[0, n - 1]``;
* taps ``top = (int)x`` and ``min(top + 1, n - 1)``, weights ``1 - alpha`` and ``alpha = x - top``; the kernel
  computes ``t + (b - t) * alpha_v`` with ``t = tl + (tr - tl) * alpha_h`` (the same map, rounded differently).

The 8-bit kernels take the same coordinates with ``alpha`` rounded to 11 bits (explorer.engine.fixed_point).
"""

from __future__ import annotations

import numpy as np

from ..coords import xnnpack_coordinates
from .common import Axis, Taps, f32, f64

TRANSFORMS = ("half_pixel", "align_corners", "asymmetric")


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def taps(n: int, m: int, transform: str, outputs=None):
    """(top, bottom, alpha as float32, coordinate) of every output (or of the indices ``outputs``)."""
    x = xnnpack_coordinates(n, m, transform, outputs)
    top = x.astype(np.int64)
    bottom = np.minimum(top + 1, n - 1)
    return top, bottom, (x - top.astype(f32)).astype(f32), x


def build(a: Axis) -> Taps | None:
    if a.spec.kernel != "linear" or a.spec.antialias or a.spec.coordinate_transformation_mode not in TRANSFORMS:
        return None
    top, bottom, alpha, x = taps(a.n, a.m, a.spec.coordinate_transformation_mode, a.outputs())
    w = np.stack([(f32(1) - alpha).astype(f32), alpha], 1).astype(f64)
    return Taps(np.stack([top, bottom], 1), w, x.astype(f64), float(f32(a.n) / f32(a.m)))

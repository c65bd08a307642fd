"""ONNX Runtime 1.32 (CPU) ``Resize`` with ``antialias=1``: ``SetupUpsampleFilterAntiAlias``.

Source: onnxruntime/core/providers/cpu/tensor/upsample_antialias.h @0797d77.  All float32:

* ``rscale`` is the ONNX scale of the axis (``m / n`` from sizes), ``scale = 1 / rscale``; the support
  ``(S / 2) * max(scale, 1)`` (S = 2 linear, 4 cubic) and the kernel stretch come from it whatever the
  coordinate transform (so under align_corners the kernel is stretched by ``n / m`` while samples are
  ``(n-1)/(m-1)`` apart, and tf_crop_and_resize stretches by ``n / m`` whatever the roi);
* ``center = 0.5 + coordinate`` (``i + 0.5`` when ``rscale == 1``), taps ``floor(center -/+ support + 0.5)``
  (at most ``2 ceil(support) + 1``), ``w = filter((j + xmin - center + 0.5) * inv)``;
* ``exclude_outside = 0``: the weights of taps left of the image go to pixel 0, right of it to pixel n - 1;
* weights times ``1 / total``; tf_crop_and_resize sets outputs whose ``center - 0.5`` leaves ``[0, n - 1]``
  to the extrapolation value.
"""

from __future__ import annotations

import math

import numpy as np

from ..coords import onnxruntime_coordinates
from .common import Axis, Taps, f32, f64, sequential_sum


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def _linear(x):
    x = np.abs(x)
    return np.where(x < f32(1), (f32(1) - x).astype(f32), f32(0)).astype(f32)


def _cubic(a):
    a = f32(a)

    def kernel(x):
        x = np.abs(x).astype(f32)
        near = (((a + f32(2)) * x - (a + f32(3))) * x * x + f32(1)).astype(f32)
        far = ((((x - f32(5)) * x + f32(8)) * x - f32(4)) * a).astype(f32)
        return np.where(x < 1, near, np.where(x < 2, far, f32(0))).astype(f32)
    return kernel


def build(a: Axis) -> Taps | None:
    spec = a.spec
    if not spec.antialias or spec.kernel not in ("linear", "cubic"):
        return None
    rscale = f32(a.scale) if a.scale is not None else f32(a.m) / f32(a.n)
    scale = (f32(1) / rscale).astype(f32)
    size = f32(2) if spec.kernel == "linear" else f32(4)
    support = (size * f32(0.5) * scale).astype(f32) if scale >= 1 else size * f32(0.5)
    widest = math.ceil(float(support)) * 2 + 1
    inverse = (f32(1) / scale).astype(f32) if scale >= 1 else f32(1)
    kernel = _linear if spec.kernel == "linear" else _cubic(spec.cubic_coeff_a)
    if scale == 1:
        coordinate = a.outputs().astype(f32)
    else:
        coordinate = onnxruntime_coordinates(a.n, a.m, spec.coordinate_transformation_mode, rscale, a.roi,
                                             a.outputs())
    center = (f32(0.5) + coordinate).astype(f32)
    lo = np.floor((center - support + f32(0.5)).astype(f32)).astype(np.int64)
    hi = np.floor((center + support + f32(0.5)).astype(f32)).astype(np.int64)
    hi = lo + np.clip(hi - lo, 0, widest)
    lo_cut, hi_cut = np.clip(lo, 0, a.n), np.clip(hi, 0, a.n)
    xmin = lo_cut if spec.exclude_outside else lo
    count = (hi_cut if spec.exclude_outside else hi) - xmin
    width = max(int(count.max(initial=1)), 1)
    j = np.arange(width)[None, :]
    live = j < count[:, None]
    argument = (((j + xmin[:, None]).astype(f32) - center[:, None]).astype(f32) + f32(0.5)).astype(f32)
    w = np.where(live, kernel((argument * inverse).astype(f32)), f32(0)).astype(f32)
    total = sequential_sum(w, f32)
    reciprocal = np.where(total == 0, f32(1), (f32(1) / np.where(total == 0, f32(1), total))).astype(f32)
    w = (w * reciprocal[:, None]).astype(f32)
    tap = np.clip(xmin[:, None] + j, 0, a.n - 1)  # exclude_outside = 0: out-of-image mass onto the border
    index = np.where(live, tap, np.clip(lo_cut, 0, a.n - 1)[:, None])
    outside = None
    if spec.coordinate_transformation_mode == "tf_crop_and_resize":
        origin = (center - f32(0.5)).astype(f32)
        mask = (origin < 0) | (origin > f32(a.n - 1))
        outside = mask if mask.any() else None
    return Taps(index, w.astype(f64), coordinate.astype(f64), float(scale), live=live, outside=outside)

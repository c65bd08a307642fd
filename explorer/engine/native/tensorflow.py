"""TensorFlow 2.21 ``ResizeBilinear``, ``ResizeBicubic`` and ``ResizeArea`` (v2 without antialias, every v1 op).

Sources: ``tensorflow/core/util/image_resizer_state.h`` (2.21 wheel include) l.41-66 and
``tensorflow/core/kernels/image/resize_{bilinear,bicubic,area}_op.cc`` @023ab92.

* scale (``CalculateResizeScale``): ``(n-1) / (float)(m-1)`` under align_corners (when ``m > 1``), else
  ``n / (float)m``, float32.  ``HalfPixelScaler(i) = ((float)i + 0.5f) * s - 0.5f`` -- the wheel rounds the
  product and the difference separately (no fused multiply-add); ``LegacyScaler(i) = (float)i * s``.
* bilinear: ``lower = max(floor(x), 0)``, ``upper = min(ceil(x), n - 1)``, ``lerp = x - floor(x)``; weights
  ``(1 - lerp, lerp)`` in float32.  The gradient uses the same table.
* bicubic (``GetWeightsAndIndices``): ``offset = lrintf((x - floor(x)) * 1024)``, Keys coefficients from a
  1025-entry float table built in double (a = -0.5 half-pixel, -0.75 legacy and align_corners) at taps
  ``floor(x) - 1 .. floor(x) + 2``; half-pixel: out-of-image taps get weight 0 and the rest are multiplied by
  ``1.0f / (w0 + w1 + w2 + w3)``; legacy: clamped taps, table weights.
* area: cell ``[i * s, (i + 1) * s)`` in float32, per input cell ``v`` the weight ``v + 1 - a`` / ``b - v`` /
  ``s`` / 1 (float32), indices clamped; the sum over both axes is multiplied by ``1 / (s_h * s_w)`` (here:
  each axis's weights by ``1 / s``, which differs by a float32 rounding).
"""

from __future__ import annotations

import numpy as np

from .common import Axis, Taps, f32, f64


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def _scale(a: Axis):
    if a.spec.coordinate_transformation_mode == "align_corners" and a.n > 1 and a.m > 1:
        return f32(a.n - 1) / f32(a.m - 1)
    return f32(a.n) / f32(a.m)


def _coordinates(a: Axis, s):
    i = a.outputs().astype(f32)
    if a.spec.coordinate_transformation_mode == "half_pixel":
        return (((i + f32(0.5)) * s).astype(f32) - f32(0.5)).astype(f32)
    return (i * s).astype(f32)


def _bilinear(a: Axis) -> Taps:
    s = _scale(a)
    x = _coordinates(a, s)
    floor = np.floor(x)
    lower = np.maximum(floor.astype(np.int64), 0)
    upper = np.minimum(np.ceil(x).astype(np.int64), a.n - 1)
    lerp = (x - floor).astype(f32)
    w = np.stack([(f32(1) - lerp).astype(f32), lerp], 1)
    return Taps(np.stack([lower, upper], 1), w.astype(f64), x.astype(f64), float(s))


def _table(a):
    x = (np.arange(1025) / 1024).astype(f32).astype(f64)
    t0 = (((a + 2) * x - (a + 3)) * x * x + 1).astype(f32)
    x1 = (x.astype(f32) + f32(1)).astype(f64)
    t1 = (((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a).astype(f32)
    return t0, t1


_TABLES: dict[float, tuple] = {}


def _bicubic(a: Axis) -> Taps:
    s = _scale(a)
    x = _coordinates(a, s)
    loc = np.floor(x).astype(np.int64)
    offset = np.rint((x - loc.astype(f32)).astype(f32) * f32(1024)).astype(np.int64)  # lrintf
    coeff = a.spec.cubic_coeff_a
    if coeff not in _TABLES:
        _TABLES[coeff] = _table(coeff)
    t0, t1 = _TABLES[coeff]
    w = np.stack([t1[offset], t0[offset], t0[1024 - offset], t1[1024 - offset]], 1)
    raw = loc[:, None] + np.arange(-1, 3)[None, :]
    index = np.clip(raw, 0, a.n - 1)
    live = None
    if a.spec.exclude_outside:  # use_keys_cubic: drop out-of-image taps, scale by the reciprocal of the sum
        live = index == raw
        w = np.where(live, w, f32(0)).astype(f32)
        total = (((w[:, 0] + w[:, 1]).astype(f32) + w[:, 2]).astype(f32) + w[:, 3]).astype(f32)
        usable = np.abs(total) >= f32(1000) * np.finfo(f32).tiny
        reciprocal = (f32(1) / np.where(usable, total, f32(1))).astype(f32)
        w = np.where(usable[:, None], (w * reciprocal[:, None]).astype(f32), w)
    return Taps(index, w.astype(f64), x.astype(f64), float(s), live=live)


def _area(a: Axis) -> Taps:
    s = _scale(a)
    i = a.outputs()
    start = (i.astype(f32) * s).astype(f32)
    end = ((i + 1).astype(f32) * s).astype(f32)
    first = np.floor(start).astype(np.int64)
    last = np.ceil(end).astype(np.int64)
    width = max(int((last - first).max(initial=1)), 1)
    v = first[:, None] + np.arange(width)[None, :]
    live = v < last[:, None]
    vf = v.astype(f32)
    lo, hi = start[:, None], end[:, None]
    past = vf + f32(1) > hi
    left = np.where(past, s, (vf + f32(1) - lo).astype(f32))
    right = np.where(past, (hi - vf).astype(f32), f32(1))
    w = np.where(live, np.where(vf < lo, left, right), f32(0)).astype(f32)
    index = np.clip(np.where(live, v, first[:, None]), 0, a.n - 1)
    return Taps(index, w.astype(f64) / float(s), ((start + end) / 2).astype(f64) - 0.5, float(s), live=live)


_BUILDERS = {"linear": _bilinear, "keys_cubic_table1024": _bicubic, "area": _area}


def build(a: Axis) -> Taps | None:
    builder = _BUILDERS.get(a.spec.kernel)
    return None if builder is None or a.spec.antialias else builder(a)

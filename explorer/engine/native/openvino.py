"""OpenVINO's CPU plugin ``Interpolate`` (opset 4 and 11): the weight tables of its executors, in float32.

Source: openvinotoolkit/openvino ``src/plugins/intel_cpu/src/nodes/interpolate.cpp`` @01277783 (the code the
``openvino`` 2026.4.1 wheel runs; measured against it), ``InterpolateExecutorBase``:

* coordinates: ``coordTransToInput`` (``explorer.engine.coords.openvino_coordinates``): float32, x = i on an axis
  whose scale is 1 or whose length does not change;
* ``linear_onnx`` (``linearOnnxCF``): x clamped to [0, n - 1], ``i0 = min((int)x, n - 1)``, ``i1 = min(i0 + 1,
  n - 1)``, weights ``|x - i1|`` and ``|x - i0|`` (0.5 each when ``i0 == i1``);
* ``cubic`` (``buildTblCubic`` / ``getCubicCoeffs``): taps ``floor(x) - 1 .. floor(x) + 2`` clamped to the axis,
  Keys coefficients of ``m = x - floor(x)`` in float32, ``a`` the node's ``cube_coeff``, not renormalised;
* ``linear`` (``buildTblLinear`` / ``linearInterpolation``, the CPU plugin's mode for 5-D tensors): taps
  ``round(x) - r .. round(x) + r`` with ``r = 2`` when the scale exceeds 1, else ``ceil(2 / a)``; taps outside the
  axis read nothing, the others ``a * max(0, 1 - |a (x - j)|)`` with ``a`` the scale when antialiasing (so an
  upsampled axis's triangle *narrows* to ``1 / scale``), else 1; the products are divided by their sum;
* ``bilinear_pillow`` / ``bicubic_pillow`` (``buildTblPillow``, row ``openvino_pillow``): Pillow's filter with
  centre ``c = (i + 0.5f) / s`` (s = m / n in float32 whatever the node's scales), support ``R * max(1 / s, 1)``
  (R = 1 or 2), taps ``[(int)(c - support + 0.5f), (int)(c + support + 0.5f))`` clipped to the axis, weights
  ``K((j - c + 0.5f) / max(1 / s, 1))`` in float32 divided by their float32 sum; bicubic's ``a`` is -0.5 whatever
  ``cube_coeff`` says, and the filter always widens when shrinking (the node's ``antialias`` is not read).  An
  axis whose length does not change is copied.
"""

from __future__ import annotations

import math

import numpy as np

from ..coords import openvino_coordinates
from .common import Axis, Taps, f32, f64, sequential_sum


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def _scale(a: Axis):
    return f32(a.scale) if a.scale is not None else f32(a.m) / f32(a.n)


def _coordinates(a: Axis, scale, transform=None):
    return openvino_coordinates(a.n, a.m, transform or a.spec.coordinate_transformation_mode, scale, a.outputs())


def _linear_onnx(a: Axis) -> Taps:
    x = _coordinates(a, _scale(a))
    clamped = np.clip(x, f32(0), f32(a.n - 1)).astype(f32)
    i0 = np.minimum(clamped.astype(np.int64), a.n - 1)
    i1 = np.minimum(i0 + 1, a.n - 1)
    w1 = np.abs(clamped - i0.astype(f32)).astype(f32)
    w0 = np.abs(clamped - i1.astype(f32)).astype(f32)
    same = i0 == i1
    w = np.stack([np.where(same, f32(0.5), w0), np.where(same, f32(0.5), w1)], 1)
    return Taps(np.stack([i0, i1], 1), w.astype(f64), x.astype(f64), 1.0 / float(_scale(a)))


def cubic_coefficients(m, a):
    """``getCubicCoeffs``: the four Keys weights of the fraction ``m`` (float32, as the plugin writes them)."""
    m, a = np.abs(np.asarray(m, f32)), f32(a)
    one, two, three = f32(1), f32(2), f32(3)
    c0 = (((a * (m - one)).astype(f32) * (m - one)).astype(f32) * m).astype(f32)
    c1 = (((((a + two) * m).astype(f32) - (a + three)).astype(f32) * m).astype(f32) * m + one).astype(f32)
    c2 = (((((-a - two) * m).astype(f32) + (two * a + three)).astype(f32) * m - a).astype(f32) * m).astype(f32)
    c3 = ((((-a * m).astype(f32) * m).astype(f32)) * (m - one)).astype(f32)
    return np.stack([c0, c1, c2, c3], 1)


def _cubic(a: Axis) -> Taps:
    x = _coordinates(a, _scale(a))
    origin = np.floor(x).astype(np.int64)
    w = cubic_coefficients((x - origin.astype(f32)).astype(f32), a.spec.cubic_coeff_a)
    index = np.clip(origin[:, None] + np.arange(-1, 3)[None, :], 0, a.n - 1)
    return Taps(index, w.astype(f64), x.astype(f64), 1.0 / float(_scale(a)))


def _linear(a: Axis) -> Taps:
    """Interpolate's ``linear`` mode (a triangle filter over the inputs inside the axis, renormalised)."""
    scale = _scale(a)
    x = _coordinates(a, scale)
    stretch = scale if a.spec.antialias else f32(1)
    radius = 2 if scale > 1 else int(math.ceil(float(f32(2) / stretch)))
    x64 = x.astype(f64)
    centre = np.where(x64 >= 0, np.floor(x64 + 0.5), np.ceil(x64 - 0.5)).astype(np.int64)  # std::round
    j = centre[:, None] + np.arange(-radius, radius + 1)[None, :]
    inside = (j >= 0) & (j < a.n)
    distance = (x[:, None] - j.astype(f32)).astype(f32)
    w = (stretch * np.maximum(f32(0), f32(1) - np.abs((stretch * distance).astype(f32)))).astype(f32)
    w = np.where(inside, w, f32(0))
    live = w != 0  # zero weights are skipped: those inputs are not read
    total = w.astype(f64).sum(axis=1, keepdims=True)
    w = np.divide(w.astype(f64), total, out=np.zeros(w.shape), where=total != 0)
    return Taps(np.clip(j, 0, a.n - 1), w, x.astype(f64), 1.0 / float(scale), live=live)


def _bilinear_pillow(m):
    m = np.abs(m)
    return np.where(m < 1, (f32(1) - m).astype(f32), f32(0)).astype(f32)


def _bicubic_pillow(m):
    m = np.abs(m).astype(f32)
    a = -0.5
    md = m.astype(f64)
    near = (((a + 2.0) * md - (a + 3.0)) * md * md + 1.0).astype(f32)  # computed in double, then stored
    far = (((((m - f32(5)) * m).astype(f32) + f32(8)) * m).astype(f32) - f32(4)).astype(f32) * f32(a)
    return np.where(m < 1, near, np.where(m < 2, far.astype(f32), f32(0))).astype(f32)


def _pillow(a: Axis) -> Taps:
    if a.n == a.m:  # the pass is skipped: the axis is copied
        i = a.outputs()
        return Taps(i[:, None], np.ones((len(i), 1)), i.astype(f64), 1.0)
    scale = f32(a.m) / f32(a.n)
    pillow_scale = (f32(1) / scale).astype(f32)
    clip = max(pillow_scale, f32(1))
    reciprocal = (f32(1) / clip).astype(f32)
    bilinear = a.spec.kernel == "linear"
    radius = (f32(1) if bilinear else f32(2)) * clip
    length = math.ceil(float(radius)) * 2 + 1
    centre = _coordinates(a, scale, "tf_half_pixel_for_nn")
    lo = np.maximum(np.trunc((centre - radius + f32(0.5)).astype(f32)).astype(np.int64), 0)
    hi = np.minimum(np.trunc((centre + radius + f32(0.5)).astype(f32)).astype(np.int64), a.n)
    count = np.maximum(hi - lo, 0)
    width = max(int(count.max(initial=1)), 1, min(length, a.n))
    j = np.arange(width)[None, :]
    live = j < count[:, None]
    argument = ((((j + lo[:, None]).astype(f32) - centre[:, None]).astype(f32) + f32(0.5)) * reciprocal).astype(f32)
    w = np.where(live, (_bilinear_pillow if bilinear else _bicubic_pillow)(argument), f32(0)).astype(f32)
    total = sequential_sum(w, f32)
    w = np.where((total != 0)[:, None], (w / np.where(total == 0, f32(1), total)[:, None]).astype(f32), w)
    index = np.clip(lo[:, None] + j, 0, a.n - 1)
    return Taps(index, w.astype(f64), centre.astype(f64) - 0.5, float(pillow_scale), live=live)


def build(a: Axis) -> Taps | None:
    spec = a.spec
    if spec.index_arithmetic == "openvino_pillow":
        return _pillow(a) if spec.kernel in ("linear", "cubic") else None
    if spec.kernel == "linear":
        return _linear(a) if spec.exclude_outside else _linear_onnx(a)
    if spec.kernel == "cubic":
        return _cubic(a)
    return None

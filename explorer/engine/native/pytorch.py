"""PyTorch 2.13 CPU: linear, bilinear, trilinear, bicubic and antialiased weights in the kernels' own types.

Source: ``torch/include/ATen/native/UpSample.h`` (shipped in the 2.13.0 wheel) and
``aten/src/ATen/native/cpu/UpSampleKernel.cpp``.  ``opmath`` is float for float32 (and float16) input and double
for float64; ``scalar_t`` is the input's own type.

* scale (``area_pixel_compute_scale``): align_corners ``(n-1)/(m-1)`` (0 when ``m == 1``); a user factor
  ``(opmath)(1.0 / f)``; else ``(opmath)n / m``, all in opmath.
* source index (``area_pixel_compute_source_index``): align_corners ``s * i``; else ``s * (i + 0.5) - 0.5``,
  clamped at 0 unless cubic.  The float32 kernels compiled per CPU capability fuse it into one multiply-add;
  ``UpSampleBicubic2d.cpp`` (the bicubic backward) is compiled without fusion and rounds twice.
* ``guard_index_and_lambda``: ``i0 = min(floorf(x), n - 1)`` (``floorf`` narrows a double ``x`` to float
  first), ``lambda = clamp(x - i0, 0, 1)``.
* linear: taps ``i0`` and ``i0 + (i0 < n - 1)``, both read even at weight 0; ``m == n`` copies.
* bicubic: taps ``clamp(i0 - 1 + k)``, ``get_cubic_upsample_coefficients`` with ``x + 1.0`` and ``1.0 - t``
  through double; float32 forward fuses only the middle multiply-add of ``cubic_convolution2``.
* antialias (``_compute_indices_min_size_weights_aa``, scalar_t): ``support = R * s`` when ``s >= 1``,
  ``center = scalar_t(s * (i + 0.5))``, ``xmin = max(int(center - support + 0.5), 0)``, ``xsize`` up to
  ``min(int(center + support + 0.5), n)``, ``w = filter((j + xmin - center + 0.5) * invscale)``, normalised by
  their sequential sum; float32 Keys with every multiply-add fused.  Lanczos calls glibc ``sinf``, which numpy
  cannot reproduce: weights within 2 float32 ulp.
* float16 and bfloat16 (opmath float): the generic kernels (``upsample_generic_Nd_kernel_impl``, used by the
  1-D linear, bicubic, 3-D and most 2-D calls) store their weights in the input's own type
  (``compute_indices_weights_linear/cubic`` write ``scalar_t`` tensors): linear ``lambda1`` is rounded to it
  and ``lambda0 = scalar_t(1) - lambda1`` is rounded again, each cubic coefficient is rounded; the products
  and sums run in float (``Interpolate<...>::eval``), rounded once when stored.  The channels-last 2-D/3-D
  linear kernel (``cpu_upsample_linear_channels_last``) keeps float weights: the row ``"torch_opmath"``.
  Backward kernels compute float weights and accumulate in a float buffer.
"""

from __future__ import annotations

import numpy as np

from .common import Axis, Taps, f32, f64, fma32, sequential_sum

_ALIGN = ("align_corners", "pytorch_antialias_align_corners")


def _opmath(dtype):
    """float32 or float64 for the float kernels; None for integer input (the generic plan matches PyTorch's
    uint8 path, which computes its weights in double)."""
    if dtype is None:
        return f32
    dtype = np.dtype(dtype)
    if dtype == np.float64:
        return f64
    if dtype.kind == "f" or dtype.name == "bfloat16":
        return f32
    return None


def _stored(dtype, direction) -> np.dtype | None:
    """The 2-byte type the generic forward kernels round their weights to, or None (weights kept in opmath)."""
    if dtype is None or direction != "forward":
        return None
    dtype = np.dtype(dtype)
    return dtype if dtype.itemsize == 2 and (dtype.kind == "f" or dtype.name == "bfloat16") else None


def key(spec, dtype, direction):
    """(dtype, direction) as far as the weights depend on them: the opmath type (integers: their own dtype),
    the direction only for the float32 bicubic backward (unfused); a 2-byte float forward keys on itself."""
    stored = _stored(dtype, direction)
    if stored is not None and not spec.antialias and spec.kernel in ("linear", "cubic"):
        return stored, "forward"
    return key_opmath(spec, dtype, direction)


def key_opmath(spec, dtype, direction):
    t = _opmath(dtype)
    unfused = t is f32 and spec.kernel == "cubic" and not spec.antialias and direction == "backward"
    return (np.dtype(t) if t is not None else np.dtype(dtype)), ("backward" if unfused else "forward")


def _scale(a: Axis, t):
    if a.spec.coordinate_transformation_mode in _ALIGN:
        return t(a.n - 1) / t(a.m - 1) if a.m > 1 else t(0)
    if a.scale is not None and a.scale > 0:
        return t(1.0 / float(a.scale))
    return t(a.n) / t(a.m)


def _source_index(a: Axis, t, fused: bool):
    """The source coordinate of every output, in opmath (before linear's clamp at 0), and the scale."""
    s = _scale(a, t)
    i = a.outputs()
    if a.spec.coordinate_transformation_mode in _ALIGN:
        x = (s * i.astype(t)).astype(t)
    elif t is f32:
        half = i.astype(f32) + f32(0.5)
        x = fma32(s, half, f32(-0.5)) if fused else ((s * half).astype(f32) - f32(0.5)).astype(f32)
    else:
        x = s * (i + 0.5) - 0.5
    return x, s


def _guard(x, n):
    i0 = np.minimum(np.floor(x.astype(f32)).astype(np.int64), n - 1)
    lam = np.clip(x - i0.astype(x.dtype), 0, 1).astype(x.dtype)
    return i0, lam


def _linear(a: Axis, t, stored=None) -> Taps:
    i = a.outputs()
    if a.n == a.m:  # compute_source_index_and_lambda: same length, copy
        return Taps(np.stack([i, i], 1), np.stack([np.ones(len(i)), np.zeros(len(i))], 1), i.astype(f64), 1.0)
    x, s = _source_index(a, t, fused=True)
    i0, l1 = _guard(np.maximum(x, t(0)).astype(t), a.n)  # linear clamps the coordinate at 0
    i1 = i0 + (i0 < a.n - 1)
    if stored is not None:  # lambda1 stored in scalar_t, then lambda0 = scalar_t(1) - lambda1, stored again
        l1 = l1.astype(stored).astype(f32)
        l0 = (f32(1) - l1).astype(stored).astype(f32)
    else:
        l0 = (t(1) - l1).astype(t)
    return Taps(np.stack([i0, i1], 1), np.stack([l0, l1], 1).astype(f64), x.astype(f64), float(s))


def _near(x, A):  # cubic_convolution1, every operation rounded
    d = x.dtype.type
    return ((((A + d(2)) * x).astype(x.dtype) - (A + d(3))) * x * x + d(1)).astype(x.dtype)


def _far(x, A, fused_middle: bool):  # cubic_convolution2
    d = x.dtype.type
    u = ((A * x).astype(x.dtype) - d(5) * A).astype(x.dtype)
    u = fma32(u, x, d(8) * A) if fused_middle else ((u * x).astype(x.dtype) + d(8) * A).astype(x.dtype)
    return ((u * x).astype(x.dtype) - d(4) * A).astype(x.dtype)


def _cubic(a: Axis, t, stored=None) -> Taps:
    fused = t is f32 and a.direction == "forward"
    x, s = _source_index(a, t, fused=fused)
    i0, lam = _guard(x, a.n)
    A = t(a.spec.cubic_coeff_a)
    one_minus = (1.0 - lam.astype(f64)).astype(t)
    w = np.stack([_far((lam.astype(f64) + 1.0).astype(t), A, fused), _near(lam, A), _near(one_minus, A),
                  _far((one_minus.astype(f64) + 1.0).astype(t), A, fused)], 1)
    index = np.clip(i0[:, None] - 1 + np.arange(4)[None, :], 0, a.n - 1)
    if stored is not None:  # each coefficient stored in scalar_t
        w = w.astype(stored).astype(f32)
    return Taps(index, w.astype(f64), x.astype(f64), float(s))


# ------------------------------------------------------------------------------------------------ antialias
def _triangle(x):
    x = np.abs(x)
    return np.where(x < 1, x.dtype.type(1) - x, 0).astype(x.dtype)


def _keys_half(x):
    """``aa_filter`` of HelperInterpCubic (a = -0.5); float32: every multiply-add fused."""
    x = np.abs(x)
    d = x.dtype.type
    A = d(-0.5)
    if d is f32:
        near = fma32((fma32(A + d(2), x, -(A + d(3))) * x).astype(f32), x, d(1))
        far = fma32(fma32(fma32(A, x, -d(5) * A), x, d(8) * A), x, -d(4) * A)
    else:
        near = ((A + 2) * x - (A + 3)) * x * x + 1
        far = ((A * x - 5 * A) * x + 8 * A) * x - 4 * A
    return np.where(x < 1, near, np.where(x < 2, far, 0)).astype(x.dtype)


def _sinc(x):
    d = x.dtype.type
    with np.errstate(invalid="ignore", divide="ignore"):
        px = (x * d(np.pi)).astype(x.dtype)
        return np.where(x == 0, d(1), (np.sin(px.astype(f64)).astype(x.dtype) / px)).astype(x.dtype)


def _lanczos3(x):
    x = np.abs(x)
    third = (x.astype(f64) / 3.0).astype(x.dtype)
    return np.where(x < 3, (_sinc(x) * _sinc(third)).astype(x.dtype), 0).astype(x.dtype)


_AA_FILTERS = {"linear": (1, _triangle), "cubic": (2, _keys_half), "lanczos3": (3, _lanczos3)}


def _antialias(a: Axis, t) -> Taps | None:
    if a.spec.kernel not in _AA_FILTERS:
        return None
    radius, kernel = _AA_FILTERS[a.spec.kernel]
    s = _scale(a, t)
    support = t(radius * f64(s)) if s >= 1 else t(radius)
    inverse = t(1.0 / f64(s)) if s >= 1 else t(1)
    widest = int(np.ceil(support)) * 2 + 1
    center = (f64(s) * (a.outputs() + 0.5)).astype(t)
    xmin = np.maximum(np.trunc((center - support).astype(t).astype(f64) + 0.5).astype(np.int64), 0)
    xsize = np.minimum(np.trunc((center + support).astype(t).astype(f64) + 0.5).astype(np.int64), a.n) - xmin
    xsize = np.clip(xsize, 0, widest)
    width = max(int(xsize.max(initial=1)), 1)
    j = np.arange(width)[None, :]
    live = j < xsize[:, None]
    tap = xmin[:, None] + j
    argument = (((tap.astype(t) - center[:, None]).astype(t).astype(f64) + 0.5) * f64(inverse)).astype(t)
    w = np.where(live, kernel(argument), t(0)).astype(t)
    total = sequential_sum(w, t)
    nonzero = total != 0
    w = np.where(nonzero[:, None], (w / np.where(nonzero, total, t(1))[:, None]).astype(t), w)
    index = np.clip(np.where(live, tap, xmin[:, None]), 0, a.n - 1)
    coordinates = center.astype(f64) - 0.5
    return Taps(index, w.astype(f64), coordinates, float(s), live=live)


def build(a: Axis, stored_weights: bool = True) -> Taps | None:
    t = _opmath(a.dtype)
    if t is None:
        return None
    if a.spec.antialias:
        return _antialias(a, t)
    stored = _stored(a.dtype, a.direction) if stored_weights else None
    if a.spec.kernel == "linear":
        return _linear(a, t, stored)
    if a.spec.kernel == "cubic":
        return _cubic(a, t, stored)
    return None


def build_opmath(a: Axis) -> Taps | None:
    """The channels-last linear kernels: weights kept in opmath for every dtype."""
    return build(a, stored_weights=False)

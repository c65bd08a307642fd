"""JAX 0.10 ``jax.image.resize`` with 64-bit mode off (JAX's default): the weight matrix is built in float32.

Source: ``jax/_src/image/scale.py`` of the 0.10.2 wheel.  ``_resize`` passes ``scale = m / n`` as a Python
float to ``compute_weight_mat``, where ``inv_scale = 1. / scale`` is still double arithmetic; it becomes a
float32 constant when it meets the float32 ``arange``, and every array operation after that is float32 under
XLA:

* ``sample_f = (i + 0.5) * inv_scale - 0.5``: XLA drops the zero translation and LLVM fuses the rest into one
  multiply-add (bit-exact linear weights; unfused, 1e-4 errors at 3000 -> 4097);
* ``x = |sample_f - j| / kernel_scale`` (``kernel_scale = max(inv_scale, 1)`` under antialias), the kernel
  in float32 (Keys cubic with fused multiply-adds), weights times ``1 / sum`` where ``|sum| > 1000 eps``,
  zero where ``sample_f`` lies outside ``[-0.5, n - 0.5]``;
* ``area``: the overlap of ``[i * inv_scale, i * inv_scale + inv_scale)`` with each cell, normalised the same way;
* ``cubic-pytorch`` without antialias (Keys a = -0.75, ``exclude_outside`` False here): taps from -2 to
  n + 1 (edge padding), clamped.

XLA's reduction order and its ``sin`` are not numpy's: cubic and Lanczos weights agree to 2-4 float32 ulp.
The weight matrix is dense, so JAX multiplies every input by its weight; the taps kept here are the ones
that can be non-zero (a NaN input spreads further in JAX).
"""

from __future__ import annotations

import numpy as np

from .common import Axis, Taps, f32, f64, fma32

_RADIUS = {"linear": 1, "cubic": 2, "lanczos3": 3, "lanczos5": 5}


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def _keys(a):
    a = f32(a)

    def kernel(x):
        near = fma32((fma32(a + f32(2), x, -(a + f32(3))) * x).astype(f32), x, f32(1))
        far = fma32(fma32(fma32(a, x, -f32(5) * a), x, f32(8) * a), x, -f32(4) * a)
        return np.where(x >= 2, f32(0), np.where(x >= 1, far, near)).astype(f32)
    return kernel


def _lanczos(radius):
    r = f32(radius)

    def kernel(x):
        with np.errstate(invalid="ignore", divide="ignore"):
            px = (f32(np.pi) * x).astype(f32)
            y = (r * np.sin(px.astype(f64)).astype(f32) * np.sin((px / r).astype(f32).astype(f64)).astype(f32))
            den = np.where(x != 0, (f32(np.pi ** 2) * (x * x).astype(f32)).astype(f32), f32(1))
            out = np.where(x > f32(1e-3), (y.astype(f32) / den).astype(f32), f32(1))
        return np.where(x > r, f32(0), out).astype(f32)
    return kernel


def _triangle(x):
    return np.maximum(f32(0), f32(1) - x).astype(f32)


def _kernel(spec):
    if spec.kernel == "linear":
        return _triangle
    if spec.kernel == "cubic":
        return _keys(spec.cubic_coeff_a)
    return _lanczos(_RADIUS[spec.kernel])


def build(a: Axis) -> Taps | None:
    spec = a.spec
    if spec.kernel not in _RADIUS and spec.kernel != "area":
        return None
    inv_scale = f32(1.0 / (a.m / a.n))
    i = a.outputs().astype(f32)
    sample = fma32(i + f32(0.5), inv_scale, f32(-0.5))
    edge_padded = spec.kernel == "cubic" and not spec.exclude_outside
    if spec.kernel == "area":
        left = (i * inv_scale).astype(f32)
        right = (left + inv_scale).astype(f32)
        first = np.floor(left.astype(f64)).astype(np.int64)
        j = first[:, None] + np.arange(int(np.ceil(float(inv_scale))) + 2)[None, :]
        jf = j.astype(f32)
        w = np.maximum(f32(0), (np.minimum(right[:, None], jf + f32(1)) - np.maximum(left[:, None], jf)).astype(f32))
        inside = (j >= 0) & (j < a.n)
    else:
        stretch = max(inv_scale, f32(1)) if spec.antialias else f32(1)
        support = float(_RADIUS[spec.kernel] * stretch)
        first = np.floor(sample.astype(f64) - support).astype(np.int64)
        j = first[:, None] + np.arange(int(np.ceil(2 * support)) + 2)[None, :]
        x = (np.abs((sample[:, None] - j.astype(f32)).astype(f32)) / stretch).astype(f32)
        w = _kernel(spec)(x)
        radius = _RADIUS[spec.kernel]
        inside = (j >= -radius) & (j < a.n + radius) if edge_padded else (j >= 0) & (j < a.n)
    w = np.where(inside, w, f32(0)).astype(f32)
    total = np.ascontiguousarray(w).sum(axis=1, dtype=f32)  # XLA's reduction: pairwise, not sequential
    usable = np.abs(total) > f32(1000.0 * np.finfo(f32).eps)
    reciprocal = (f32(1) / np.where(total != 0, total, f32(1))).astype(f32)
    w = np.where(usable[:, None], (w * reciprocal[:, None]).astype(f32), f32(0))
    if not edge_padded:
        valid = (sample >= f32(-0.5)) & (sample <= f32(a.n - 0.5))
        w = np.where(valid[:, None], w, f32(0))
    live = inside & (w != 0)
    index = np.clip(j, 0, a.n - 1)
    return Taps(index, w.astype(f64), sample.astype(f64), float(inv_scale), live=live)

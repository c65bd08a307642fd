"""Integer (uint8) resampling the way Pillow and PyTorch do it: fixed-point weights, one rounded pass per axis.

Both libraries resize one axis at a time (the width, then the height), store every pass as uint8 and compute
each output as ``clamp((2**(bits-1) + sum(pixel * w_int)) >> bits, 0, 255)`` with integer weights
``w_int = round_half_away(w * 2**bits)``.  They differ only in ``bits``:

* Pillow: ``PRECISION_BITS = 22`` (``src/libImaging/Resample.c``, ``normalize_coeffs_8bpc``);
* PyTorch: the largest ``bits < 22`` for which the largest weight of the axis still fits an int16
  (``_compute_index_ranges_int16_weights`` in ``aten/src/ATen/native/cpu/UpSampleKernel.cpp``).

>>> import numpy as np
>>> from explorer import Spec
>>> from explorer.engine.plan import axis_plan
>>> plan = axis_plan(4, 3, Spec("linear", antialias=True, exclude_outside=True))
>>> x = np.array([[0, 100, 200, 255]], dtype=np.uint8)
>>> resample_uint8(x, [(1, plan)], pillow_bits).tolist()
[[30, 150, 239]]
"""

from __future__ import annotations

import numpy as np

from ..errors import ArgumentValueError
from .band import Band

PILLOW_PRECISION_BITS = 22
#: Bytes per output sample the integer passes below hold at their peak (int64 accumulators, the gathered taps
#: and their products, the input as int64): what a memory check counts for an integer resize.
WORK_BYTES = 48


def pillow_bits(band: Band) -> int:
    """Pillow's fixed precision."""
    return PILLOW_PRECISION_BITS


def torch_bits(band: Band) -> int:
    """PyTorch's adaptive precision: the largest weight times ``2**(bits+1)`` must stay below ``2**15``."""
    live = np.arange(band.weights.shape[1])[None, :] < band.length[:, None]
    largest = float(band.weights[live].max(initial=0.0))
    for bits in range(22):
        if int(0.5 + largest * (1 << (bits + 1))) >= (1 << 15):
            return bits
    return 22


def integer_weights(band: Band, bits: int) -> np.ndarray:
    """``(int)(w * 2**bits +- 0.5)``: round half away from zero, as both libraries write it in C."""
    scaled = band.weights * float(1 << bits)
    return np.trunc(scaled + np.where(scaled < 0, -0.5, 0.5)).astype(np.int64)


def _integer_pass(x: np.ndarray, axis: int, band: Band, bits: int) -> np.ndarray:
    weights = integer_weights(band, bits)
    moved = np.moveaxis(x, axis, -1).astype(np.int64)
    acc = np.full(moved.shape[:-1] + (band.rows,), 1 << (bits - 1), dtype=np.int64)
    for k in range(weights.shape[1]):
        used = band.length > k
        if not used.any():
            break
        index = np.where(used, band.start + k, 0)
        acc += moved[..., index] * np.where(used, weights[:, k], 0)
    out = np.clip(acc >> bits, 0, 255).astype(np.uint8)
    return np.moveaxis(out, -1, axis)


def resample_uint8(x: np.ndarray, passes, bits_rule) -> np.ndarray:
    """Resize ``x`` (uint8) by each ``(axis, plan)`` in turn, rounding to uint8 after every pass.

    Axes whose length does not change are skipped, as both libraries skip them.
    """
    out = np.asarray(x)
    for axis, plan in passes:
        if plan.n == plan.m:
            continue
        out = _integer_pass(out, axis, plan.band, bits_rule(plan.band))
    return out if out is not x else out.copy()


# ---------------------------------------------------------------------------------------------------------------
# OpenCV (modules/imgproc/src/resize.cpp, resizeGeneric with INTER_RESIZE_COEF_BITS = 11): two-tap coefficients
# rounded to multiples of 1/2048, an exact integer horizontal pass, and a vertical pass that rounds
# ((b0 * (r0 >> 4)) >> 16) + ((b1 * (r1 >> 4)) >> 16) + 2) >> 2, which its SIMD and scalar code share.

OPENCV_COEF_SCALE = 2048


def opencv_two_tap_table(n: int, m: int, scale: float | None, area: bool, horizontal: bool):
    """(first tap, fraction as float32) of every output for INTER_LINEAR (or INTER_AREA when growing).

    ``scale`` is OpenCV's ``inv_scale`` (the user's fx, or m/n).  The horizontal pass moves taps left of the
    image to ``(0, 0)`` and taps at or past the last pixel to ``(n - 1, 0)``; the vertical pass keeps the
    fraction and reads clamped rows.
    """
    inverse = float(scale) if scale is not None else m / n
    step = 1.0 / inverse
    i = np.arange(m, dtype=np.float64)
    if area:
        sx = np.floor(i * step)
        fx = ((i + 1) - (sx + 1) * inverse).astype(np.float32)
        fx = np.where(fx <= 0, np.float32(0), fx - np.floor(fx)).astype(np.float32)
    else:
        f = ((i + 0.5) * step - 0.5).astype(np.float32)
        sx = np.floor(f)
        fx = (f - sx).astype(np.float32)
    sx = sx.astype(np.int64)
    if horizontal:
        left, right = sx < 0, sx >= n - 1
        fx = np.where(left | right, np.float32(0), fx)
        sx = np.where(left, 0, np.where(right, n - 1, sx))
    return sx, fx


def _opencv_coefficients(fx):
    one = OPENCV_COEF_SCALE
    a1 = np.rint(fx.astype(np.float64) * one).astype(np.int64)  # saturate_cast<short>: round half to even
    a0 = np.rint((np.float32(1) - fx).astype(np.float64) * one).astype(np.int64)
    return a0, a1


def opencv_linear_uint8(x: np.ndarray, vertical, horizontal) -> np.ndarray:
    """OpenCV's uint8 two-tap resize.  ``vertical``/``horizontal``: (axis, n, m, scale, area) or None."""
    out = np.asarray(x).astype(np.int64)
    if horizontal is not None:
        axis, n, m, scale, area = horizontal
        sx, fx = opencv_two_tap_table(n, m, scale, area, horizontal=True)
        a0, a1 = _opencv_coefficients(fx)
        moved = np.moveaxis(out, axis, -1)
        buffer = moved[..., sx] * a0 + moved[..., np.minimum(sx + 1, n - 1)] * a1
        out = np.moveaxis(buffer, -1, axis)
    else:
        out = out * OPENCV_COEF_SCALE
    if vertical is not None:
        axis, n, m, scale, area = vertical
        sy, fy = opencv_two_tap_table(n, m, scale, area, horizontal=False)
        b0, b1 = _opencv_coefficients(fy)
        moved = np.moveaxis(out, axis, -1)
        r0 = moved[..., np.clip(sy, 0, n - 1)]
        r1 = moved[..., np.clip(sy + 1, 0, n - 1)]
        moved = (((b0 * (r0 >> 4)) >> 16) + ((b1 * (r1 >> 4)) >> 16) + 2) >> 2
        out = np.moveaxis(moved, -1, axis)
    else:
        out = (((OPENCV_COEF_SCALE * (out >> 4)) >> 16) + 2) >> 2
    return np.clip(out, 0, 255).astype(np.uint8)


def _opencv_lanczos4_coefficients(fx: np.ndarray) -> np.ndarray:
    """OpenCV's interpolateLanczos4 (float32 coefficients normalised in float32), for every fraction."""
    s45 = 0.70710678118654752440084436210485
    cs = np.array([[1, 0], [-s45, -s45], [0, 1], [s45, -s45], [-1, 0], [s45, s45], [0, -1], [-s45, s45]])
    shifted = (fx.astype(np.float32) + np.float32(3)).astype(np.float64)
    y0 = -shifted * np.pi * 0.25
    s0, c0 = np.sin(y0), np.cos(y0)
    offsets = (fx.astype(np.float32)[:, None] + np.float32(3) - np.arange(8, dtype=np.float32)[None, :])
    offsets = offsets.astype(np.float64)
    y = -offsets * np.pi * 0.25
    safe = np.where(np.abs(offsets) >= np.float32(1e-6), y, 1.0)
    coeffs = ((cs[:, 0] * s0[:, None] + cs[:, 1] * c0[:, None]) / (safe * safe)).astype(np.float32)
    coeffs = np.where(np.abs(offsets) >= np.float32(1e-6), coeffs, np.float32(1e30))
    total = np.zeros(len(fx), np.float32)
    for k in range(8):
        total = total + coeffs[:, k]
    return coeffs * (np.float32(1) / total)[:, None]


def _opencv_lanczos4_table(n: int, m: int, scale: float | None):
    inverse = float(scale) if scale is not None else m / n
    f = ((np.arange(m) + 0.5) * (1.0 / inverse) - 0.5).astype(np.float32)
    sx = np.floor(f)
    fx = (f - sx).astype(np.float32)
    taps = np.clip(sx.astype(np.int64)[:, None] - 3 + np.arange(8)[None, :], 0, n - 1)
    weights = np.rint(_opencv_lanczos4_coefficients(fx).astype(np.float64) * OPENCV_COEF_SCALE).astype(np.int64)
    return taps, weights


def opencv_lanczos4_uint8(x: np.ndarray, vertical, horizontal) -> np.ndarray:
    """OpenCV's uint8 INTER_LANCZOS4: 8 integer taps per axis, rounded once: (sum + 2**21) >> 22."""
    def one_pass(out, geometry):
        if geometry is None:
            return out * OPENCV_COEF_SCALE
        axis, n, m, scale = geometry
        taps, weights = _opencv_lanczos4_table(n, m, scale)
        moved = np.moveaxis(out, axis, -1)
        acc = moved[..., taps[:, 0]] * weights[:, 0]
        for k in range(1, taps.shape[1]):  # tap by tap: exact integers, so the order does not matter
            acc += moved[..., taps[:, k]] * weights[:, k]
        return np.moveaxis(acc, -1, axis)

    out = one_pass(one_pass(np.asarray(x).astype(np.int64), horizontal), vertical)
    return np.clip((out + (1 << 21)) >> 22, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------------------------
# OpenCV INTER_AREA when shrinking (modules/imgproc/src/resize.cpp).  resizeAreaFast (a whole step on every axis)
# sums each box of input pixels in integers; a box that overhangs the image averages its in-image pixels.  uint8
# rounding: a 2x2 box with 1, 3 or 4 interleaved channels takes its SIMD path, (sum + 2) >> 2; every other box
# saturate_cast<uchar>(sum * (1.f / area)) (round half to even of a float product); an overhanging box
# saturate_cast<uchar>((float)sum / count).  resizeArea accumulates in float32, per output, the table's taps in
# order (row pass, then column pass), then rounds half to even.  [measured, OpenCV 5.0.0.93: bit-exact]

def _box_sums(x: np.ndarray, axis: int, step: int):
    """Sums of consecutive runs of ``step`` samples along ``axis`` (the last run may be short) and run lengths."""
    n = x.shape[axis]
    m = -(-n // step)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, m * step - n)
    padded = np.pad(x, pad)
    shape = list(x.shape)
    shape[axis:axis + 1] = [m, step]
    counts = np.minimum(step, n - np.arange(m) * step)
    return padded.reshape(shape).sum(axis=axis + 1), counts


def opencv_area_fast_uint8(x: np.ndarray, steps, channels: int) -> np.ndarray:
    """resizeAreaFast on uint8: ``steps`` is ``[(axis, whole step), ...]``; ``channels`` the interleaved
    channel count (the SIMD rounding applies to 2x2 boxes with 1, 3 or 4 channels)."""
    total = np.asarray(x).astype(np.int64)
    count = np.ones((1,) * x.ndim, np.int64)
    area = 1
    for axis, step in steps:
        total, counts = _box_sums(total, axis, step)
        shape = [1] * x.ndim
        shape[axis] = len(counts)
        count = count * counts.reshape(shape)
        area *= step
    full = count == area
    if [step for _, step in steps] == [2, 2] and channels in (1, 3, 4):
        inner = (total + 2) >> 2
    else:
        inner = np.rint(total.astype(np.float32) * np.float32(1.0 / area))
    border = np.rint(total.astype(np.float32) / count.astype(np.float32))
    return np.clip(np.where(full, inner, border), 0, 255).astype(np.uint8)


def float32_passes_uint8(x: np.ndarray, passes) -> np.ndarray:
    """Each ``(axis, plan)`` in turn, accumulated in float32 tap by tap in table order, then rounded half to
    even to uint8 (resizeArea)."""
    out = np.asarray(x).astype(np.float32)
    for axis, plan in passes:
        moved = np.moveaxis(out, axis, 1)
        pre, post = moved.shape[0], int(np.prod(moved.shape[2:], dtype=np.int64))
        x3 = np.ascontiguousarray(moved).reshape(pre, plan.n, post)
        y3 = np.empty((pre, plan.m, post), np.float32)
        plan.band.multiply_exact(x3, y3)
        out = np.moveaxis(y3.reshape((pre, plan.m) + moved.shape[2:]), 1, axis)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------------------------
# LiteRT / TFLite RESIZE_BILINEAR on 8- and 16-bit tensors, on an (N, H, W, C) view of the array.  Each kernel
# rounds once, after both axes (google-ai-edge/LiteRT tflite/kernels/resize_bilinear.cc, kernels/internal/
# reference/resize_bilinear.h and optimized/resize_bilinear.h @v2.2.0; google/XNNPACK src/indirection.c and
# src/s8-ibilinear/gen/s8-ibilinear-scalar-u1.c @75db3c09):
#   xnnpack    int8 / uint8 (the default delegate): alpha = lrintf(alpha_f32 * 2048) on XNNPACK's float32
#              coordinates, acc = sum(w_y w_x v) with weights (2048 - alpha, alpha), out = (acc + 2**21) >> 22;
#   builtin    uint8 (ResizeBilinearGenericSmallChannel): TensorFlow's float32 coordinates, the four products
#              (1-dy)(1-dx), (1-dy)dx, dy(1-dx), dy dx rounded to float32, v00 s0 + v01 s1 + v10 s2 + v11 s3 + 0.5
#              summed left to right in float32, truncated; int8 and int16: ResizeBilinearInteger;
#   reference  uint8: v00 (1-dy)(1-dx) + v10 dy (1-dx) + v01 (1-dy) dx + v11 dy dx + 0.5 in float32, left to right,
#              truncated; int8 and int16: ResizeBilinearInteger.
# ResizeBilinearInteger: scale_10 = (1024 n + m/2) / m ((1024 (n-1) + (m-1)/2) / (m-1) with align_corners), the
# coordinate i * scale_10 (+ scale_10/2 - 512 half-pixel) in 1/1024 units, lower = max(coordinate / 1024, 0) --
# not clamped to n - 1 -- upper = min((coordinate + 1023) / 1024, n - 1) (C's truncating division), the sum of the
# four 20-bit products rounded half away from zero (TFLITE_SINGLE_ROUNDING is off in the wheel) [measured,
# ai-edge-litert 2.3.0: every kernel bit-exact].  Because lower is not clamped, a rounded-up scale_10 can make the
# last outputs read lower = n: the kernel then reads the next row's first pixel (the next image's first row for
# the height), and past the end of the tensor for the last row -- memory LiteRT does not own; that is refused.

LITERT_KERNELS = ("xnnpack", "builtin", "reference")


def _tflite_axis(n: int, m: int, transform: str):
    """TensorFlow's float32 ComputeInterpolationValues: (lower, upper, lower weight's complement dy)."""
    f32 = np.float32
    s = f32(n - 1) / f32(m - 1) if transform == "align_corners" and m > 1 else f32(n) / f32(m)
    i = np.arange(m, dtype=f32)
    x = (i + f32(0.5)) * s - f32(0.5) if transform == "half_pixel" else i * s
    floor = np.floor(x)
    lower = np.maximum(floor, f32(0))
    upper = np.minimum(np.ceil(x).astype(np.int64), n - 1)
    return lower.astype(np.int64), upper, (x - lower).astype(f32)


def _xnnpack_axis(n: int, m: int, transform: str):
    """XNNPACK's 11-bit taps: (top, bottom, alpha in 1/2048)."""
    from .native.xnnpack import taps

    top, bottom, alpha, _ = taps(n, m, transform)
    return top, bottom, np.rint(alpha * np.float32(2048)).astype(np.int64)  # lrintf: half to even


def _integer_axis(n: int, m: int, transform: str):
    """ResizeBilinearInteger's 10-bit taps: (lower, upper, fraction in 1/1024), lower not clamped to n - 1."""
    if transform == "align_corners" and m > 1:
        scale = ((1 << 10) * (n - 1) + (m - 1) // 2) // (m - 1)
    else:
        scale = ((1 << 10) * n + m // 2) // m
    i = np.arange(m, dtype=np.int64)
    value = i * scale + scale // 2 - (1 << 9) if transform == "half_pixel" else i * scale
    lower = np.maximum(_c_div(value, 1 << 10), 0)
    upper = np.minimum(_c_div(value + (1 << 10) - 1, 1 << 10), n - 1)
    return lower, upper, value - (1 << 10) * lower


def _c_div(a, b: int):
    """C's integer division (truncation toward zero) of an int64 array by a positive int."""
    return np.sign(a) * (np.abs(a) // b)


def _gather4(x4: np.ndarray, rows, cols):
    """x4[:, rows][:, :, cols] for in-range indices (the (N, m_h, m_w, C) array of those pixels)."""
    return x4[:, rows][:, :, cols]


def litert_bilinear_integer(x4: np.ndarray, out_h: int, out_w: int, transform: str, kernels: str) -> np.ndarray:
    """LiteRT's RESIZE_BILINEAR of an 8- or 16-bit (N, H, W, C) array by ``kernels`` (``LITERT_KERNELS``)."""
    dtype = x4.dtype
    _, h, w, _ = x4.shape
    info = np.iinfo(dtype)
    if dtype.itemsize == 1 and kernels == "xnnpack":
        top, bottom, av = _xnnpack_axis(h, out_h, transform)
        left, right, ah = _xnnpack_axis(w, out_w, transform)
        v = x4.astype(np.int64)
        rows = (v[:, top] * ((1 << 11) - av)[None, :, None, None] + v[:, bottom] * av[None, :, None, None])
        acc = rows[:, :, left] * ((1 << 11) - ah)[None, None, :, None] + rows[:, :, right] * ah[None, None, :, None]
        return np.clip((acc + (1 << 21)) >> 22, info.min, info.max).astype(dtype)
    if dtype == np.uint8:
        return _litert_uint8_float(x4, out_h, out_w, transform, reference=kernels == "reference")
    return _litert_integer_10bit(x4, out_h, out_w, transform)


def _litert_uint8_float(x4, out_h, out_w, transform, reference: bool):
    f32 = np.float32
    y0, y1, dy = _tflite_axis(x4.shape[1], out_h, transform)
    x0, x1, dx = _tflite_axis(x4.shape[2], out_w, transform)
    v = x4.astype(f32)
    dy, dx = dy[None, :, None, None], dx[None, None, :, None]
    one = f32(1)
    p00, p01 = _gather4(v, y0, x0), _gather4(v, y0, x1)
    p10, p11 = _gather4(v, y1, x0), _gather4(v, y1, x1)
    if reference:  # input * (1 - dy) * (1 - dx) + ..., left to right
        terms = [(p00 * (one - dy)) * (one - dx), (p10 * dy) * (one - dx), (p01 * (one - dy)) * dx, (p11 * dy) * dx]
    else:  # the four scales first, then the sum in tap order
        terms = [p00 * ((one - dy) * (one - dx)), p01 * ((one - dy) * dx), p10 * (dy * (one - dx)), p11 * (dy * dx)]
    acc = terms[0]
    for term in terms[1:]:
        acc = acc + term
    return np.trunc(acc + f32(0.5)).astype(np.uint8)


def _litert_integer_10bit(x4, out_h, out_w, transform):
    n, h, w, c = x4.shape
    info = np.iinfo(x4.dtype)
    y0, y1, fy = _integer_axis(h, out_h, transform)
    x0, x1, fx = _integer_axis(w, out_w, transform)
    flat = x4.astype(np.int64).reshape(-1)
    batch = (np.arange(n, dtype=np.int64) * h)[:, None, None, None]
    channel = np.arange(c, dtype=np.int64)[None, None, None, :]

    def pixels(rows, cols):
        index = ((batch + rows[None, :, None, None]) * w + cols[None, None, :, None]) * c + channel
        beyond = index >= flat.size
        if beyond.any():
            first = np.argwhere(beyond)[0]
            raise ArgumentValueError(
                f"LiteRT's integer RESIZE_BILINEAR (ResizeBilinearInteger) of {h}x{w} -> {out_h}x{out_w} "
                f"({transform}) reads past the end of the input: its 10-bit scale rounds up, so output "
                f"({int(first[1])}, {int(first[2])}) of the last image reads input row {int(rows[first[1]])} / "
                f"column {int(cols[first[2]])}, memory the tensor does not own (the result there is undefined); "
                "choose other sizes, or run the XNNPACK kernel (kernels='xnnpack', int8/uint8)")
        return flat[index]

    wy1, wx1 = fy[None, :, None, None], fx[None, None, :, None]
    wy0, wx0 = (1 << 10) - wy1, (1 << 10) - wx1
    total = (pixels(y0, x0) * wy0 * wx0 + pixels(y1, x0) * wy1 * wx0
             + pixels(y0, x1) * wy0 * wx1 + pixels(y1, x1) * wy1 * wx1)
    rounding = np.where(total > 0, 1 << 19, -(1 << 19))
    return np.clip(_c_div(total + rounding, 1 << 20), info.min, info.max).astype(x4.dtype)


def float32_fma_passes(x: np.ndarray, passes) -> np.ndarray:
    """Each ``(axis, plan)`` in turn, accumulated tap by tap in float32 with fused multiply-adds, then rounded half
    to even and saturated to ``x``'s integer type (OpenVINO's JIT pillow kernels on uint8/int8); axes whose
    length does not change are skipped."""
    info = np.iinfo(x.dtype)
    out = np.asarray(x)
    for axis, plan in passes:
        if plan.n == plan.m and plan.is_identity:
            continue
        band = plan.band
        moved = np.moveaxis(out, axis, -1).astype(np.float64)
        acc = np.zeros(moved.shape[:-1] + (plan.m,), np.float32)
        weights = band.weights.astype(np.float32).astype(np.float64)
        for k in range(band.weights.shape[1]):
            live = band.length > k
            if not live.any():
                break
            index = np.where(live, band.start + k, 0)
            tap = moved[..., index] * np.where(live, weights[:, k], 0.0)  # exact: float32 x small integer
            acc = (acc.astype(np.float64) + tap).astype(np.float32)
        out = np.moveaxis(np.clip(np.rint(acc), info.min, info.max).astype(x.dtype), -1, axis)
    return out if out is not x else out.copy()

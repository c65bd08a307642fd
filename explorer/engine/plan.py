"""Spec -> per-axis plan: the weights every output sample takes from the input, as a :class:`Band`.

This is the only place where conventions become numbers.  One builder per kind of kernel
(``PLAN_BUILDERS``); continuous kernels all share :func:`_filter_plan`, which owns the coordinate transform,
the antialias stretch and the border policy (clamp or renormalise), in float64:

* the taps of output ``i`` are the inputs ``j`` with ``x - R*stretch < j <= x + R*stretch``, where ``x`` is
  the source coordinate, ``R`` the kernel radius and ``stretch = max(step, 1)`` under antialias, else 1;
* the weights ``K((j - x) / stretch)`` are normalised to sum to one (skipped when the sum is zero);
* ``exclude_outside`` drops taps outside ``[0, n)`` and renormalises; otherwise their index is clamped to
  the border (a replicate border: the weights still sum to one).

Where a Spec's ``index_arithmetic`` row names a library whose kernels compute weights in their own float
types (PyTorch, JAX, TensorFlow, OpenCV INTER_AREA, ONNX Runtime antialias), the weights come from a port of
that code instead (``explorer.engine.native``); such plans can depend on the array's dtype and on the
direction, which :func:`axis_plan` takes as arguments.

Plans are cached, so a repeated call pays only the contraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError, OutputTooLargeError
from ..limits import MAX_PLAN_TAPS, PLAN_CACHE_BYTES, PLAN_CACHE_SHARE, PLAN_CHUNK_BYTES
from .band import Band
from .cache import ByteCache
from .coords import (
    FLOAT32_KERNEL_ARGUMENT,
    TRANSFORMS,
    Geometry,
    coordinates,
    nearest_indices,
)
from .kernels import KERNELS
from .memory import require
from .native import NATIVE, Axis, Taps, ndimage
from .spec import Spec

#: Bytes of temporaries per kernel tap while a chunk of rows is built (tap indices, kernel arguments and
#: values, masks, the triplets and their band), measured with tracemalloc on linear and Lanczos plans.
TAP_BYTES = 112
#: Bytes per tap a native builder (``engine/native``) takes while it builds a chunk of rows (its float32 steps,
#: the taps and the triplets of their band): at most 80 measured on PyTorch, TensorFlow, JAX and ONNX Runtime
#: plans, with a margin.
NATIVE_TAP_BYTES = 128


@dataclass(frozen=True)
class AxisPlan:
    """How one axis of length ``n`` becomes ``m`` samples: the band, and where extrapolation applies."""

    n: int
    m: int
    band: Band
    coordinates: np.ndarray  # source coordinate of every output sample (NaN where not meaningful)
    step: float
    outside: np.ndarray | None = None  # outputs set to spec.extrapolation_value (tf_crop_and_resize)
    nearest: bool = False  # every row copies one input (a gather: integer arrays keep their dtype)

    @property
    def is_identity(self) -> bool:
        return self.outside is None and self.band.is_identity

    @property
    def nbytes(self) -> int:
        """Bytes of the plan's arrays, with what its band keeps for its contractions."""
        extra = 0 if self.outside is None else self.outside.nbytes
        return self.band.nbytes + self.coordinates.nbytes + extra


def _coordinates(n, m, spec: Spec, scale, roi):
    """The source coordinates and the step; a ValueError when they are not finite numbers (a roi or a scale
    so large that the library's arithmetic overflows)."""
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):  # checked below, said plainly
        x, step = coordinates(n, m, spec.coordinate_transformation_mode, spec.index_arithmetic, scale, roi)
    if not (np.isfinite(step) and np.isfinite(x).all()):
        given = ", ".join(f"{k}={v!r}" for k, v in (("scale_factor", scale), ("roi", roi)) if v is not None)
        raise ArgumentValueError(f"the source coordinates of {n} -> {m} samples under {spec!r} overflow "
                                 f"{np.dtype(x.dtype).name} ({given or 'the sizes'}); choose values nearer to "
                                 "the input's own scale")
    return x, step


def _outside(x, n, spec):
    if spec.coordinate_transformation_mode != "tf_crop_and_resize":
        return None
    out = (x < 0) | (x > n - 1)
    return out if out.any() else None


def _nearest_plan(n, m, spec, scale, roi):
    x, step = _coordinates(n, m, spec, scale, roi)
    idx = nearest_indices(x, n, spec.nearest_mode, step, spec.index_arithmetic)
    outside = _outside(x, n, spec)
    band = Band.from_indices(idx, n)
    if outside is not None:
        r = np.nonzero(~outside)[0]
        band = Band.from_triplets(r, idx[r], np.ones(len(r)), m, n)
    return AxisPlan(n, m, band, x.astype(np.float64), float(step), outside, nearest=True)


# ------------------------------------------------------------------------------------------------ sizes
def _step(n, m, spec: Spec, scale, roi) -> float:
    """The input distance between two outputs (without computing any coordinate)."""
    return float(TRANSFORMS[spec.coordinate_transformation_mode].step(Geometry(n, m, scale, roi, np.float64)))


def taps_per_output(n: int, m: int, spec: Spec, scale=None, roi=None) -> int:
    """How many consecutive inputs each output's kernel spans (before the border clamps or drops them).

    >>> taps_per_output(100, 10, Spec("linear", antialias=True)), taps_per_output(10, 100, Spec("cubic"))
    (21, 5)
    """
    kernel = spec.kernel
    if spec.index_arithmetic == "ndimage" and kernel in ndimage.ORDERS:
        return ndimage.taps(n, m, spec)
    if kernel == "nearest":
        return 1
    if kernel == "opencv_area_upscale":
        return 2
    if kernel == "adaptive_area":
        return -(-n // m) + 1
    step = _step(n, m, spec, scale, roi)
    if kernel == "area":
        return _whole(math.ceil(step) if math.isfinite(step) else math.inf) + 2
    stretch = max(step, 1.0) if spec.antialias else 1.0
    support = KERNELS[kernel].radius * stretch
    return _whole(math.ceil(2 * support) if math.isfinite(support) else math.inf) + 1


def _whole(value) -> int:
    return 2**63 if value == math.inf else int(value)


def plan_nbytes(n: int, m: int, spec: Spec, scale=None, roi=None, transpose: bool = False) -> int:
    """Bytes building and keeping the plan of ``n -> m`` samples takes at most: the band (``m`` rows of at
    most ``n + 2`` float64 weights, their starts and lengths), the coordinates, the chunk of temporaries it is
    built in (a native builder's whole axis) and its parts before they are stacked; with ``transpose``, the
    transposed band too.

    >>> plan_nbytes(4, 8, Spec("linear")) < 2**26
    True
    """
    width = taps_per_output(n, m, spec, scale, roi)
    stored = m * (24 + 8 * min(width, n + 2))
    build = min(PLAN_CHUNK_BYTES, m * width * TAP_BYTES) if width * TAP_BYTES <= PLAN_CHUNK_BYTES \
        else PLAN_CHUNK_BYTES
    if spec.index_arithmetic in NATIVE:  # a library's own arithmetic: a chunk of rows of all their taps at once
        build = max(build, min(m, _native_rows(n, width)) * min(width, n + 2) * NATIVE_TAP_BYTES)
    blocks = min(int(PLAN_CACHE_SHARE * PLAN_CACHE_BYTES), m * (32 + min(width, n + 2)) * 8)
    return 2 * stored + build + blocks + (4 * stored if transpose else 0)


def _check_taps(n, m, width, spec, scale):
    """Refuse a plan whose kernel would be evaluated at more than :data:`MAX_PLAN_TAPS` taps (minutes of work)."""
    taps = m * width
    if taps <= MAX_PLAN_TAPS:
        return
    if scale is not None:
        cause = (f"scale_factor={scale!r} makes the kernel step over {1 / scale:.3g} inputs per output, so each "
                 f"of the {m} outputs reads {width:.3g} inputs")
        hint = f"give a scale_factor nearer to the size ratio {m}/{n} = {m / n:.4g}"
    else:
        cause = f"each of the {m} outputs reads {width:.3g} inputs"
        hint = "choose a smaller size or another kernel"
    raise OutputTooLargeError(f"the weights of {n} -> {m} samples under {spec!r} would take {taps:.3g} kernel "
                              f"evaluations: {cause}, more than the limit of {MAX_PLAN_TAPS:.3g}; {hint}")


def _rows_per_chunk(width: int) -> int:
    """Rows built at once so that their temporaries stay within :data:`PLAN_CHUNK_BYTES` (0: one row is
    too wide, its taps are evaluated in chunks)."""
    return PLAN_CHUNK_BYTES // (width * TAP_BYTES)


# ------------------------------------------------------------------------------------------------ filters
def _filter_plan(n, m, spec, scale, roi):
    kernel = KERNELS[spec.kernel]
    x, step = _coordinates(n, m, spec, scale, roi)
    x = x.astype(np.float64)
    step = float(step)
    stretch = max(step, 1.0) if spec.antialias else 1.0
    support = kernel.radius * stretch
    width = _whole(math.ceil(2 * support) if math.isfinite(support) else math.inf) + 1
    _check_taps(n, m, width, spec, scale)
    outside = _outside(x, n, spec)
    rows = _rows_per_chunk(width)
    if rows:
        parts = (_filter_rows(kernel, spec, x[a:a + rows], n, stretch, support, width,
                              None if outside is None else outside[a:a + rows]) for a in range(0, m, rows))
    else:
        parts = (_wide_filter_row(kernel, spec, float(x[i]), n, stretch, support,
                                  outside is not None and bool(outside[i])) for i in range(m))
    # the live taps of a row lie in (x - support, x + support]: at most ceil(2 support) of them
    most = min(max(width - 1, 1), n)
    return AxisPlan(n, m, Band.stack(parts, m, n, most), x, step, outside)


def _kernel_argument(spec, j, x, stretch):
    """``(j - x) / stretch``, in the arithmetic the library uses for it."""
    if spec.index_arithmetic in FLOAT32_KERNEL_ARGUMENT:
        return ((j - x).astype(np.float32) * np.float32(1.0 / stretch)).astype(np.float64)
    return (j - x) * (1.0 / stretch)


def _filter_rows(kernel, spec, x, n, stretch, support, width, outside):
    """The band of the outputs at coordinates ``x``: every tap of every row at once."""
    first = np.floor(x - support) + 1  # first j with j > x - support
    j = first[:, None] + np.arange(width)[None, :]
    live = j <= x[:, None] + support
    t = _kernel_argument(spec, j, x[:, None], stretch)
    w = np.where(live, kernel(t, spec.cubic_coeff_a), 0.0)
    del t
    total = w.sum(axis=1, keepdims=True)
    w = np.divide(w, total, out=w, where=total != 0)
    inside = (j >= 0) & (j < n)
    if spec.exclude_outside:
        live &= inside
        w = np.where(inside, w, 0.0)
        total = w.sum(axis=1, keepdims=True)
        w = np.divide(w, total, out=w, where=total != 0)
        cols = j
    else:
        cols = np.clip(j, 0, n - 1)
    del j, inside
    if outside is not None:
        live &= ~outside[:, None]
    r, k = np.nonzero(live)
    return Band.from_triplets(r, cols[r, k].astype(np.int64), w[r, k], len(x), n)


def _wide_filter_row(kernel, spec, x, n, stretch, support, dead: bool) -> Band:
    """One output whose taps are too many to evaluate at once (a kernel stretched far beyond the chunk size):
    the same weights as :func:`_filter_rows`, its taps evaluated chunk by chunk.  Only the inputs inside the
    axis keep a weight each; the taps past either border only add to the normalising sum and, clamped, to
    the border sample's weight."""
    first = math.floor(x - support) + 1
    last = math.floor(x + support)
    if dead or last < first:
        return Band(1, n, [0], np.zeros((1, 1)), [0])
    lo, hi = max(first, 0), min(last, n - 1)
    inside = np.zeros(max(hi - lo + 1, 0))
    total = left = right = 0.0
    step = max(1, PLAN_CHUNK_BYTES // TAP_BYTES)
    for a in range(first, last + 1, step):
        j = np.arange(a, min(a + step, last + 1), dtype=np.float64)
        v = kernel(_kernel_argument(spec, j, x, stretch), spec.cubic_coeff_a)
        total += float(v.sum())
        left += float(v[j < 0].sum())
        right += float(v[j > n - 1].sum())
        keep = (j >= 0) & (j <= n - 1)
        if keep.any():
            inside[(j[keep] - lo).astype(np.int64)] = v[keep]
    norm = total if total != 0 else 1.0
    if spec.exclude_outside:
        if hi < lo:
            return Band(1, n, [0], np.zeros((1, 1)), [0])
        w = inside / norm
        s = w.sum()
        return Band(1, n, [lo], (w / s if s != 0 else w)[None, :], [len(w)])
    start, end = min(max(first, 0), n - 1), max(min(last, n - 1), 0)
    w = np.zeros(end - start + 1)
    if hi >= lo:
        w[lo - start:hi - start + 1] = inside / norm
    w[0] += left / norm if first < 0 else 0.0
    w[-1] += right / norm if last > n - 1 else 0.0
    return Band(1, n, [start], w[None, :], [len(w)])


# ------------------------------------------------------------------------------------------------ areas
def _area_plan(n, m, spec, scale, roi):
    """Exact overlap of the output cell ``[i*step, (i+1)*step)`` with each input cell, divided by step."""
    _, step = _coordinates(n, m, spec, scale, roi)
    step = float(step)
    i = np.arange(m, dtype=np.float64)
    x0, x1 = i * step, (i + 1) * step
    width = _whole(math.ceil(step) if math.isfinite(step) else math.inf) + 2
    _check_taps(n, m, width, spec, scale)
    rows = _rows_per_chunk(width)
    if rows:
        parts = (_area_rows(x0[a:a + rows], x1[a:a + rows], n, step, width) for a in range(0, m, rows))
    else:
        parts = (_wide_area_row(float(x0[k]), float(x1[k]), n, step) for k in range(m))
    # the cells of [x0, x1) are floor(x0) ... ceil(x1) - 1: at most ceil(step) + 1 of them
    return AxisPlan(n, m, Band.stack(parts, m, n, min(width - 1, n)), (x0 + x1) / 2 - 0.5, step, None)


def _area_rows(x0, x1, n, step, width):
    first = np.floor(x0)
    j = first[:, None] + np.arange(width)[None, :]
    overlap = np.minimum(x1[:, None], j + 1) - np.maximum(x0[:, None], j)
    live = overlap > 0
    w = np.where(live, overlap, 0.0) / (step if step > 0 else 1.0)
    if step == 0:  # align_corners with a single output: the first input
        live[:, 0], w[:, 0] = True, 1.0
    cols = np.clip(j, 0, n - 1)
    r, k = np.nonzero(live)
    return Band.from_triplets(r, cols[r, k].astype(np.int64), w[r, k], len(x0), n)


def _wide_area_row(x0, x1, n, step) -> Band:
    """One output cell covering more inputs than a chunk holds: the overlap with each input cell inside the
    axis, and the parts of the cell past either border added to the border sample (clamped)."""
    first, last = math.floor(x0), math.ceil(x1) - 1
    lo, hi = max(first, 0), min(last, n - 1)
    start, end = min(max(first, 0), n - 1), max(min(last, n - 1), 0)
    w = np.zeros(end - start + 1)
    if hi >= lo:
        c = np.arange(lo, hi + 1, dtype=np.float64)
        w[lo - start:hi - start + 1] = np.maximum(np.minimum(x1, c + 1) - np.maximum(x0, c), 0.0)
    w[0] += max(min(x1, 0.0) - x0, 0.0)
    w[-1] += max(x1 - max(x0, float(n)), 0.0)
    return Band(1, n, [start], (w / step)[None, :], [len(w)])


def _adaptive_area_plan(n, m, spec, scale, roi):
    """PyTorch 'area' = adaptive average pooling: output i averages inputs [floor(i n/m), ceil((i+1) n/m))."""
    i = np.arange(m, dtype=np.int64)
    start = (i * n) // m
    end = ((i + 1) * n + m - 1) // m
    length = end - start
    r = np.repeat(i, length)
    offsets = np.cumsum(length) - length  # where each row's taps begin among all taps
    c = np.arange(int(length.sum()), dtype=np.int64) - np.repeat(offsets - start, length)
    band = Band.from_triplets(r, c, 1.0 / length[r], m, n)
    return AxisPlan(n, m, band, (start + end - 1) / 2.0, n / m, None)


def _opencv_area_upscale_plan(n, m, spec, scale, roi):
    """OpenCV INTER_AREA when any axis grows (resizeGeneric in area mode), for one axis.

    ``sx = floor(i * step)``; the weight of ``sx + 1`` is the fractional part of the output cell that lies past
    input boundary ``sx + 1``, ``fx = (i + 1) - (sx + 1) / step`` (0 when negative), in float32; ``sx`` gets
    ``1 - fx``.  On a growing axis this is the exact overlap; on a shrinking one it is a two-tap rule.
    """
    inverse = float(scale) if scale is not None else m / n  # OpenCV inv_scale: the user's fx or m / n
    step = 1.0 / inverse
    i = np.arange(m, dtype=np.float64)
    sx = np.floor(i * step)
    fx = ((i + 1) - (sx + 1) * inverse).astype(np.float32)
    fx = np.where(fx <= 0, np.float32(0), fx - np.floor(fx)).astype(np.float64)
    last = sx >= n - 1
    sx = np.where(last, n - 1, sx).astype(np.int64)
    fx = np.where(last, 0.0, fx)
    rows = np.repeat(np.arange(m), 2)
    cols = np.stack([sx, np.minimum(sx + 1, n - 1)], axis=1).ravel()
    values = np.stack([1.0 - fx, fx], axis=1).ravel()
    band = Band.from_triplets(rows, cols, values, m, n)
    return AxisPlan(n, m, band, i * step + 0.5 * step - 0.5, step, None)


PLAN_BUILDERS = {
    "nearest": _nearest_plan,
    "area": _area_plan,
    "adaptive_area": _adaptive_area_plan,
    "opencv_area_upscale": _opencv_area_upscale_plan,
}


def _band_from_taps(rows: int, n: int, taps: Taps) -> Band:
    """The band of a native builder's taps: every live tap is structural (it is read), weight 0 or not; an
    output set to the extrapolation value (``taps.outside``) reads nothing."""
    live = np.ones(taps.index.shape, bool) if taps.live is None else taps.live
    if taps.outside is not None:
        live = live & ~taps.outside[:, None]
    r, k = np.nonzero(live)
    return Band.from_triplets(r, taps.index[r, k], taps.weights[r, k], rows, n)


def _plan_from_taps(n, m, taps: Taps) -> AxisPlan:
    """An AxisPlan from the taps of a whole axis."""
    return AxisPlan(n, m, _band_from_taps(m, n, taps), np.asarray(taps.coordinates, np.float64), float(taps.step),
                    taps.outside)


def _native_rows(n: int, width: int) -> int:
    """Rows a native builder builds at once: their taps' temporaries within :data:`PLAN_CHUNK_BYTES`."""
    return max(1, PLAN_CHUNK_BYTES // (max(min(width, n + 2), 1) * NATIVE_TAP_BYTES))


def _native_plan(n, m, spec, scale, roi, dtype, direction):
    """The plan of a library's own weight code (None: the row leaves this kernel to the generic builder), built
    a chunk of rows at a time; each chunk's taps become band rows before the next chunk is built."""
    native = NATIVE.get(spec.index_arithmetic)
    if native is None:
        return None
    width = taps_per_output(n, m, spec, scale, roi)
    rows = _native_rows(n, width)
    first = native.build(Axis(n, m, spec, scale, roi, dtype, direction, 0, min(rows, m)))
    if first is None:
        return None
    if rows >= m:
        return _plan_from_taps(n, m, first)
    coordinates, outside = np.empty(m), np.zeros(m, bool)
    has_outside = False

    def parts():
        nonlocal has_outside
        for a in range(0, m, rows):
            b = min(a + rows, m)
            taps = first if a == 0 else native.build(Axis(n, m, spec, scale, roi, dtype, direction, a, b))
            coordinates[a:b] = taps.coordinates
            if taps.outside is not None:
                outside[a:b], has_outside = taps.outside, True
            yield _band_from_taps(b - a, n, taps)

    band = Band.stack(parts(), m, n, min(width, n + 2))
    return AxisPlan(n, m, band, coordinates, float(first.step), outside if has_outside else None)


#: Every plan built, by key, within :data:`~explorer.limits.PLAN_CACHE_BYTES` (the bytes of the plans' arrays).
PLANS = ByteCache(PLAN_CACHE_BYTES, PLAN_CACHE_SHARE, size_of=lambda plan: plan.nbytes)


def _build_plan(n, m, spec, scale, roi, dtype=None, direction="forward"):
    plan = _native_plan(n, m, spec, scale, roi, dtype, direction)
    if plan is None and (spec.boundary is not None or spec.prefilter):
        raise ArgumentValueError(f"boundary and prefilter are computed for the B-spline kernels ("
                                 f"{', '.join(ndimage.ORDERS)}) only, not for kernel={spec.kernel!r}")
    if plan is None:
        build = PLAN_BUILDERS.get(spec.kernel, _filter_plan)
        plan = build(n, m, spec, scale, roi)
    return plan


def cached_plan(key, build):
    """The plan cached under ``key`` (any hashable naming everything the plan depends on), built by ``build()``
    when it is not held; the memory the plan takes is checked before it is built."""
    return PLANS.get(key, build)


def clear_plan_cache():
    """Drop every cached plan (the next call of each size builds its plan afresh)."""
    PLANS.clear()


DIRECTIONS = ("forward", "backward")


def plan_key(spec: Spec, dtype=None, direction: str = "forward") -> tuple:
    """The ``(dtype, direction)`` part of a plan's identity: what the Spec's arithmetic row reads of them
    (``(None, "forward")`` for rows whose weights are the same for every dtype and direction).

    >>> from explorer import Spec
    >>> plan_key(Spec("linear"), np.float32), plan_key(Spec("linear", index_arithmetic="torch"), np.float32)
    ((None, 'forward'), (dtype('float32'), 'forward'))
    """
    if direction not in DIRECTIONS:
        raise ArgumentValueError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    native = NATIVE.get(spec.index_arithmetic)
    if native is None:
        return None, "forward"
    return native.key(spec, None if dtype is None else np.dtype(dtype), direction)


def axis_plan(n_in: int, n_out: int, spec: Spec, scale: float | None = None, axis_index: int = 0,
              dtype=None, direction: str = "forward") -> AxisPlan:
    """The plan of one axis (cached).  ``scale`` is the user's scale factor (output/input) when the
    kernel's step comes from a factor rather than the sizes (PyTorch ``scale_factor``, ONNX ``scales``).
    ``dtype`` (the array's) and ``direction`` ("forward" or "backward") matter only for arithmetic rows that
    compute weights in the library's own types (:func:`plan_key`)."""
    n_in, n_out = validate.length(n_in, "n_in"), validate.length(n_out, "n_out")
    if scale is not None:
        scale = validate.positive_number(scale, "scale")
    if not isinstance(spec, Spec):
        raise ArgumentTypeError(f"spec must be an explorer.Spec, got {type(spec).__name__}")
    dtype, direction = plan_key(spec, dtype, direction)
    roi = spec.roi_for(axis_index)
    pads = spec.pads_for(axis_index)

    def build():
        padded = n_in + pads[0] + pads[1]
        require(plan_nbytes(padded, n_out, spec, scale, roi), f"the weights of {padded} -> {n_out} samples")
        plan = _build_plan(padded, n_out, spec, scale, roi, dtype, direction)
        return plan if pads == (0, 0) else _without_pads(plan, n_in, pads[0])

    return cached_plan((n_in, n_out, spec, scale, roi, dtype, direction, pads), build)


def _without_pads(plan: AxisPlan, n: int, begin: int) -> AxisPlan:
    """The plan of a zero-padded axis (``Spec.pads``) as a map of the ``n`` real inputs: the taps that fall on
    the zeros are dropped (they add nothing, and read nothing a NaN could come from), the others shift by
    ``begin``; an output that reads only zeros is 0."""
    r, c, w = plan.band.triplets()
    keep = (c >= begin) & (c < begin + n)
    band = Band.from_triplets(r[keep], c[keep] - begin, w[keep], plan.m, n)
    nearest = plan.nearest and bool(np.all(band.length == 1))
    return AxisPlan(n, plan.m, band, plan.coordinates - begin, plan.step, plan.outside, nearest=nearest)


def weights(n_in: int, n_out: int, spec: Spec | None = None, scale: float | None = None, dtype=None) -> np.ndarray:
    """The (n_out x n_in) weight matrix of one axis: row ``i`` is what output ``i`` takes from the input.

    Forward is ``y = W @ x`` along the axis; backward is ``W.T @ g``.  ``dtype`` is the array's, for the
    arithmetic rows that compute in its precision (PyTorch's float32 or float64 kernels; None: float32).

    >>> from explorer import Spec
    >>> weights(4, 3, Spec("linear")).round(3)
    array([[0.833, 0.167, 0.   , 0.   ],
           [0.   , 0.5  , 0.5  , 0.   ],
           [0.   , 0.   , 0.167, 0.833]])
    """
    spec = spec if spec is not None else Spec()
    n_in, n_out = validate.length(n_in, "n_in"), validate.length(n_out, "n_out")
    require(n_in * n_out * 8, f"the weight matrix would have shape ({n_out}, {n_in})",
            hint="read the band of explorer.axis_plan(n_in, n_out, spec) instead")
    plan = axis_plan(n_in, n_out, spec, scale, dtype=dtype)
    return plan.band.dense()



def rounded_weights(plan: AxisPlan, dtype) -> AxisPlan:
    """``plan`` with every weight rounded to ``dtype`` (a 2-byte float: a library that casts its weight
    matrices to the image's type before multiplying, as JAX does).

    >>> import numpy as np
    >>> plan = axis_plan(3, 2, Spec("linear"))
    >>> rounded_weights(plan, np.float16).band.dense().tolist() == plan.band.dense().astype(np.float16).tolist()
    True
    """
    band = plan.band
    weights = band.weights.astype(dtype).astype(np.float64)
    return AxisPlan(plan.n, plan.m, Band(band.rows, band.cols, band.start, weights, band.length), plan.coordinates,
                    plan.step, plan.outside, plan.nearest)

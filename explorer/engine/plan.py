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

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError
from .band import Band
from .coords import FLOAT32_KERNEL_ARGUMENT, nearest_indices, source_coordinates
from .kernels import KERNELS
from .native import NATIVE, Axis, Taps
from .spec import Spec


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


def _coordinates(n, m, spec: Spec, scale, roi):
    return source_coordinates(n, m, spec.coordinate_transformation_mode, spec.index_arithmetic,
                              scale, roi)


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


def _filter_plan(n, m, spec, scale, roi):
    kernel = KERNELS[spec.kernel]
    x, step = _coordinates(n, m, spec, scale, roi)
    x = x.astype(np.float64)
    step = float(step)
    stretch = max(step, 1.0) if spec.antialias else 1.0
    support = kernel.radius * stretch
    first = np.floor(x - support) + 1  # first j with j > x - support
    width = int(np.ceil(2 * support)) + 1
    j = first[:, None] + np.arange(width)[None, :]
    live = j <= x[:, None] + support
    t = (j - x[:, None]) * (1.0 / stretch)
    if spec.index_arithmetic in FLOAT32_KERNEL_ARGUMENT:
        t = ((j - x[:, None]).astype(np.float32) * np.float32(1.0 / stretch)).astype(np.float64)
    w = np.where(live, kernel(t, spec.cubic_coeff_a), 0.0)
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
    outside = _outside(x, n, spec)
    if outside is not None:
        live &= ~outside[:, None]
    r, k = np.nonzero(live)
    band = Band.from_triplets(r, cols[r, k].astype(np.int64), w[r, k], m, n)
    return AxisPlan(n, m, band, x, step, outside)


def _area_plan(n, m, spec, scale, roi):
    """Exact overlap of the output cell ``[i*step, (i+1)*step)`` with each input cell, divided by step."""
    _, step = _coordinates(n, m, spec, scale, roi)
    step = float(step)
    i = np.arange(m, dtype=np.float64)
    x0, x1 = i * step, (i + 1) * step
    first = np.floor(x0)
    width = int(np.ceil(step)) + 2
    j = first[:, None] + np.arange(width)[None, :]
    overlap = np.minimum(x1[:, None], j + 1) - np.maximum(x0[:, None], j)
    live = overlap > 0
    w = np.where(live, overlap, 0.0) / (step if step > 0 else 1.0)
    if step == 0:  # align_corners with a single output: the first input
        live[:, 0], w[:, 0] = True, 1.0
    cols = np.clip(j, 0, n - 1)
    r, k = np.nonzero(live)
    band = Band.from_triplets(r, cols[r, k].astype(np.int64), w[r, k], m, n)
    return AxisPlan(n, m, band, (x0 + x1) / 2 - 0.5, step, None)


def _adaptive_area_plan(n, m, spec, scale, roi):
    """PyTorch 'area' = adaptive average pooling: output i averages inputs [floor(i n/m), ceil((i+1) n/m))."""
    i = np.arange(m, dtype=np.int64)
    start = (i * n) // m
    end = ((i + 1) * n + m - 1) // m
    length = end - start
    r = np.repeat(i, length)
    c = np.concatenate([np.arange(s, e) for s, e in zip(start, end)]) if m else np.zeros(0, np.int64)
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


def _plan_from_taps(n, m, taps: Taps) -> AxisPlan:
    """An AxisPlan from a native builder's taps: every live tap is structural (it is read), weight 0 or not."""
    live = np.ones(taps.index.shape, bool) if taps.live is None else taps.live
    r, k = np.nonzero(live)
    band = Band.from_triplets(r, taps.index[r, k], taps.weights[r, k], m, n)
    return AxisPlan(n, m, band, np.asarray(taps.coordinates, np.float64), float(taps.step), taps.outside)


def _native_plan(n, m, spec, scale, roi, dtype, direction):
    native = NATIVE.get(spec.index_arithmetic)
    if native is None:
        return None
    taps = native.build(Axis(n, m, spec, scale, roi, dtype, direction))
    return None if taps is None else _plan_from_taps(n, m, taps)


@lru_cache(maxsize=512)
def _cached_plan(n, m, spec, scale, roi, dtype=None, direction="forward"):
    plan = _native_plan(n, m, spec, scale, roi, dtype, direction)
    if plan is None:
        build = PLAN_BUILDERS.get(spec.kernel, _filter_plan)
        plan = build(n, m, spec, scale, roi)
    return plan


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
    return _cached_plan(n_in, n_out, spec, scale, spec.roi_for(axis_index), dtype, direction)


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
    plan = axis_plan(n_in, n_out, spec if spec is not None else Spec(), scale, dtype=dtype)
    return plan.band.dense()


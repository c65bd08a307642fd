"""The one entry point that applies per-axis plans to an array: :func:`execute`.

Forward, each resized axis's band is applied in turn; backward (``transpose=True``), the transposed bands.
This module holds the only fast paths: the order of the axis passes, tiling, strided gathers, and the
fallback that keeps NaN where it belongs.  Every caller (``resize``, the library conventions, PyTorch's
``interpolate``) goes through :func:`execute`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError
from ..limits import TILE_BYTES, TILE_PLANE_BYTES
from .band import Band
from .memory import pass_order, scratch
from .plan import AxisPlan
from .threads import blas_threads


def execute(x: np.ndarray, plans: list[tuple[int, AxisPlan]], *, transpose: bool = False,
            out: np.ndarray | None = None, extrapolation_value: float = 0.0) -> np.ndarray:
    """Apply the band of each ``(axis, plan)`` to ``x`` (``transpose=True``: the transposed bands).

    dtypes: float32 and float64 are computed in their own precision, float16 and bfloat16 in float32 (the
    result is rounded once to the input's dtype, to nearest even); integer arrays are gathered as they are by
    nearest plans (forward only) and rejected otherwise.  Transposed, the outputs a plan sets to the
    extrapolation value receive no gradient.  With ``out`` the result is written there and ``out`` itself is
    returned (it may be ``x``).

    >>> import numpy as np
    >>> from explorer.engine import Spec, axis_plan
    >>> plan = axis_plan(4, 8, Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"))
    >>> execute(np.arange(4.0), [(0, plan)]).tolist()
    [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0]
    >>> execute(np.ones(8), [(0, plan)], transpose=True).tolist()
    [2.0, 2.0, 2.0, 2.0]
    """
    nearest = all(plan.nearest for _, plan in plans)
    compute, result = _compute_dtype(x.dtype, nearest, "backward" if transpose else "forward")
    shape = list(x.shape)
    for axis, plan in plans:
        shape[axis] = plan.n if transpose else plan.m
    if out is not None:
        if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype != result:
            raise ArgumentValueError(f"out must be a {np.dtype(result)} array of shape {tuple(shape)}")
        if not out.flags.writeable:
            raise ArgumentValueError("out is read-only; pass a writeable array")
        if np.may_share_memory(out, x) or not out.flags.c_contiguous:
            # computed apart, then copied: passes must not read what they have overwritten
            out[...] = execute(x, plans, transpose=transpose, extrapolation_value=extrapolation_value)
            return out
    if transpose and any(p.outside is not None for _, p in plans):
        x = x.copy()
        _fill_outside(x, plans, 0)
    y = _contract(x.astype(compute, copy=False), plans, transpose, out if compute == result else None)
    if not transpose:
        _fill_outside(y, plans, extrapolation_value)
    if y.dtype != result:
        y = y.astype(result)
        if out is not None:
            out[...] = y
            y = out
    if y is x and out is None:
        y = x.copy()
    return y


def work_itemsize(dtype) -> int:
    """Bytes per element of the arrays :func:`execute` computes with for an array of ``dtype`` (float16 and
    bfloat16 are computed in float32): what its memory checks count.

    >>> work_itemsize(np.float16), work_itemsize(np.float64), work_itemsize(np.uint8)
    (4, 8, 1)
    """
    dtype = np.dtype(dtype)
    return 4 if validate.is_reduced_float(dtype) else dtype.itemsize


def _compute_dtype(dtype: np.dtype, nearest: bool, direction: str):
    """The dtype the contraction runs in, and the dtype of the result."""
    if dtype in (np.float32, np.float64):
        return dtype, dtype
    if validate.is_reduced_float(dtype):
        return np.dtype(np.float32), dtype
    if nearest and direction == "forward" and (dtype.kind in "iub"):
        return dtype, dtype  # a gather keeps any dtype
    if dtype.kind in "iub":
        hint = ("convert it with x.astype(np.float32) first, or use a library preset that defines "
                "integer rounding")
        raise ArgumentTypeError(f"{direction} resize of a {dtype} array is not defined for interpolating "
                                f"kernels; {hint}")
    raise ArgumentTypeError(f"cannot resize an array of dtype {dtype}; use float32 or float64")


def _contract(x: np.ndarray, plans, transpose: bool, out):
    """The bands (or their transposes) of the non-identity plans, in the cheapest order.

    Non-finite values: a dense block product would spread a NaN to every output of its block, so when the
    input holds NaN or infinity the bands are applied tap by tap (:meth:`Band.multiply_exact`), and NaN
    reaches exactly the outputs whose taps read it, as in the libraries.  The check reads the smaller of the
    input and the output: a fast result that is finite everywhere is exact (the blocks read every tap's input).
    """
    steps = {}
    ratios = {}
    for axis, plan in plans:
        if plan.is_identity:
            continue
        steps[axis] = plan.band.T if transpose else plan.band
        ratios[axis] = plan.n / plan.m if transpose else plan.m / plan.n
    ordered = pass_order(ratios, x.ndim)
    if steps and (all(b.scatter_slice is not None for b in steps.values())
                  or all(b.gather_slice is not None for b in steps.values())):
        return _strided_copy(x, steps, out)
    if all(b.one_hot_index is not None for b in steps.values()):
        return _axis_passes(x, ordered, steps, out, exact=False)  # gathers: NaN goes where it is copied
    shape = list(x.shape)
    for axis, band in steps.items():
        shape[axis] = band.rows
    if math.prod(shape) < x.size:
        with np.errstate(invalid="ignore", over="ignore"):  # a non-finite result is redone exactly, silently
            result = _axis_passes(x, ordered, steps, out, exact=False)
            finite = np.isfinite(np.add.reduce(result, axis=None))
        if finite:
            return result
        return _axis_passes(x, ordered, steps, out, exact=True)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is NaN: not finite, which is what is asked
        exact = not np.isfinite(np.add.reduce(x, axis=None))
    return _axis_passes(x, ordered, steps, out, exact=exact)


def _axis_passes(x, ordered, steps, out, exact: bool):
    """The axis passes in order (tiled when that pays); ``exact``: tap by tap."""
    if not exact and _tileable(x, ordered, steps):
        return _tiled_passes(x, steps[x.ndim - 2], steps[x.ndim - 1], out)
    current = x
    with blas_threads():
        for k, axis in enumerate(ordered):
            band = steps[axis]
            shape = list(current.shape)
            shape[axis] = band.rows
            pre = math.prod(current.shape[:axis])
            post = math.prod(current.shape[axis + 1:])
            x3 = current.reshape(pre, band.cols, post)
            last = k == len(ordered) - 1
            if exact and band.one_hot_index is None:
                target = out if (last and out is not None) else np.empty(shape, dtype=current.dtype)
                band.multiply_exact(x3, target.reshape(pre, band.rows, post))
            else:
                if last:
                    target = out
                elif band.one_hot_index is not None and band.repeat_counts is not None:
                    target = None  # np.repeat allocates its own result
                else:
                    target = scratch(shape, current.dtype, k % 2)
                result = band.multiply(x3, None if target is None else target.reshape(pre, band.rows, post))
                target = result.reshape(shape)
            current = target
    if out is not None and current is not out:
        out[...] = current
        current = out
    return current


def _tileable(x, ordered, steps) -> bool:
    if len(ordered) != 2 or x.ndim < 2 or list(ordered) != [x.ndim - 2, x.ndim - 1]:
        return False
    rows, cols = steps[x.ndim - 2], steps[x.ndim - 1]
    if rows.one_hot_index is not None or cols.one_hot_index is not None or rows.scatter_slice is not None:
        return False
    return x.shape[-2] * x.shape[-1] * x.dtype.itemsize >= TILE_PLANE_BYTES


def _tiled_passes(x, rows: Band, cols: Band, out):
    """Rows pass then last-axis pass, one tile of output rows at a time, plane by plane."""
    n_rows, n_cols = x.shape[-2:]
    shape = x.shape[:-2] + (rows.rows, cols.rows)
    result = out if out is not None and out.flags.c_contiguous else np.empty(shape, x.dtype)
    planes = x.reshape(-1, n_rows, n_cols)
    targets = result.reshape(-1, rows.rows, cols.rows)
    chunk = max(8, TILE_BYTES // (n_cols * x.dtype.itemsize) // 8 * 8)
    with blas_threads():
        for p in range(planes.shape[0]):
            for a in range(0, rows.rows, chunk):
                b = min(a + chunk, rows.rows)
                tile = scratch((1, b - a, n_cols), x.dtype, 0)
                rows.row_slice(a, b).multiply(planes[p:p + 1], tile)
                cols.multiply(tile.reshape(b - a, n_cols, 1), targets[p, a:b].reshape(b - a, cols.rows, 1))
    if out is not None and result is not out:
        out[...] = result
        return out
    return result


def _strided_copy(x, steps, out):
    """Every resized axis picks (or, transposed, fills) evenly spaced samples: one strided copy."""
    shape = list(x.shape)
    index = [slice(None)] * x.ndim
    # every band fills its slice (the transposes of gathers), or every band picks one (a band may be both: a
    # one-hot band whose transpose is one-hot too; then either reading is the same copy)
    scatter = all(b.scatter_slice is not None for b in steps.values())
    for axis, band in steps.items():
        shape[axis] = band.rows
        index[axis] = band.scatter_slice if scatter else band.gather_slice
    target = out if out is not None else (np.zeros(shape, x.dtype) if scatter else None)
    if scatter:
        if out is not None:
            target[...] = 0
        target[tuple(index)] = x
        return target
    if target is None:
        return x[tuple(index)].copy()
    np.copyto(target, x[tuple(index)])
    return target


def _fill_outside(y, plans, value):
    """Set the outputs a plan marks ``outside`` (tf_crop_and_resize) to ``value``."""
    for axis, plan in plans:
        if plan.outside is not None:
            index = [slice(None)] * y.ndim
            index[axis] = np.nonzero(plan.outside)[0]
            y[tuple(index)] = value


# ------------------------------------------------------------------------------------------------ rounded sums
# Some kernels on 2-byte floats round after every addition instead of accumulating in float32 (PyTorch's
# adaptive average pooling in 3-D and its backward, TensorFlow's nearest gradient).  The two functions below
# compute such sums for separable plans, reading only which inputs each output's taps cover (every tap counts
# once, its weight is not read): each is one vectorised pass per position in the window, in the loops' order.

def _windows(plan: AxisPlan):
    band = plan.band
    return np.asarray(band.start, np.int64), np.asarray(band.length, np.int64)


def window_sums_rounded(x: np.ndarray, plans) -> np.ndarray:
    """For every output, the sum of the inputs its taps cover, added one by one in ``x.dtype`` (each addition
    rounded), the window walked in C order (first resized axis outermost), starting from zero.

    >>> import numpy as np
    >>> from explorer.engine import Spec, axis_plan
    >>> plan = axis_plan(4, 2, Spec("adaptive_area"))
    >>> window_sums_rounded(np.array([1.0, 2.0, 3.0, 4.0], np.float16), [(0, plan)]).tolist()
    [3.0, 7.0]
    """
    shape = list(x.shape)
    windows = []
    for axis, plan in plans:
        shape[axis] = plan.m
        windows.append((axis,) + _windows(plan))
    acc = np.zeros(shape, x.dtype)
    widest = [int(length.max(initial=0)) for _, _, length in windows]
    for offsets in np.ndindex(*widest):
        index = [slice(None)] * x.ndim
        valid = np.ones((), bool)
        for k, ((axis, start, length), j) in enumerate(zip(windows, offsets)):
            inside = j < length
            take = np.where(inside, start + j, start)
            view = [1] * x.ndim
            view[axis] = len(take)
            index[axis] = take.reshape(view)
            valid = valid & inside.reshape(view)
        vals = x[_open_mesh(index, x.shape)]
        acc = np.where(valid, (acc.astype(np.float32) + vals.astype(np.float32)).astype(x.dtype), acc)
    return acc


def scatter_rounded(values: np.ndarray, plans, input_shape) -> np.ndarray:
    """Every output's value added to each input its taps cover, the additions into one input made in the
    order of the outputs (C order) in ``values.dtype``, each rounded: the transpose of
    :func:`window_sums_rounded`, accumulated as a C loop over the outputs does.

    >>> import numpy as np
    >>> from explorer.engine import Spec, axis_plan
    >>> plan = axis_plan(2, 4, Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"))
    >>> scatter_rounded(np.array([1.0, 2.0, 3.0, 4.0], np.float16), [(0, plan)], (2,)).tolist()
    [3.0, 7.0]
    """
    acc = np.zeros(tuple(input_shape), values.dtype)
    covers = []
    for axis, plan in plans:
        start, length = _windows(plan)
        n = plan.n
        # the outputs covering input i form one run: from the first whose window ends after i to the last
        # whose window starts at or before i (windows move forward with the output index)
        first = np.searchsorted(start + length - 1, np.arange(n), side="left")
        last = np.searchsorted(start, np.arange(n), side="right") - 1
        count = np.maximum(last - first + 1, 0)
        covers.append((axis, first, count))
    widest = [int(count.max(initial=0)) for _, _, count in covers]
    for offsets in np.ndindex(*widest):
        index = [slice(None)] * values.ndim
        valid = np.ones((), bool)
        for (axis, first, count), k in zip(covers, offsets):
            inside = k < count
            take = np.clip(np.where(inside, first + k, 0), 0, values.shape[axis] - 1)
            view = [1] * values.ndim
            view[axis] = len(take)
            index[axis] = take.reshape(view)
            valid = valid & inside.reshape(view)
        vals = values[_open_mesh(index, values.shape)]
        acc = np.where(valid, (acc.astype(np.float32) + vals.astype(np.float32)).astype(values.dtype), acc)
    return acc


def _open_mesh(index, shape):
    """Broadcastable index arrays selecting ``index`` (arrays on some axes, full slices elsewhere)."""
    out = []
    for k, item in enumerate(index):
        if isinstance(item, slice):
            view = [1] * len(shape)
            view[k] = shape[k]
            item = np.arange(shape[k]).reshape(view)
        out.append(item)
    return tuple(out)

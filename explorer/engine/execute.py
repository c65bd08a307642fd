"""Forward and transposed contraction of an array with per-axis plans.

``resize`` applies each resized axis's band in turn; ``resize_backward`` applies the transposed bands.
Both accept any array and any axes (NCHW, HWC, volumes).  This module holds the only fast paths: the
order of the axis passes, the single-threaded BLAS, and the fallback that keeps NaN where it belongs.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
from typing import Sequence

import numpy as np

from ..errors import OutputTooLargeError
from .band import Band
from .plan import AxisPlan, axis_plan
from .spec import Spec

#: BLAS threads used inside a resize (None leaves numpy's setting alone).  One thread is the default: on a
#: shared machine more threads are often slower, and the benchmark compares single-threaded libraries.
BLAS_THREADS: int | None = 1

_controller = None


@contextlib.contextmanager
def blas_threads():
    """Hold numpy's BLAS to :data:`BLAS_THREADS` threads (threadpoolctl) inside the block."""
    global _controller
    if BLAS_THREADS is None:
        yield
        return
    try:
        if _controller is None:
            from threadpoolctl import ThreadpoolController

            _controller = ThreadpoolController()
        ctx = _controller.limit(limits=BLAS_THREADS, user_api="blas")
    except Exception:  # threadpoolctl missing or unable to inspect: run with numpy's own setting
        ctx = contextlib.nullcontext()
    with ctx:
        yield


def _available_memory() -> int | None:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


class _Sizes:
    """The lengths the axis-order heuristic reads: ``n`` in, ``m`` out."""

    def __init__(self, n, m):
        self.n, self.m = n, m


def peak_bytes(shape, changes: dict[int, int], itemsize: int) -> int:
    """Memory a resize allocates at its peak: the result and the intermediate of the pass before it."""
    order = _order([(axis, _Sizes(shape[axis], m)) for axis, m in changes.items() if shape[axis] != m],
                   len(shape))
    current, previous, peak = list(shape), 0, 0
    for axis, sizes in order:
        current[axis] = sizes.m
        size = math.prod(current) * itemsize
        peak = max(peak, size + previous)
        previous = size
    return max(peak, math.prod(current) * itemsize)


def check_memory(shape, changes: dict[int, int], itemsize: int, what: str = "output"):
    """Refuse, before allocating anything, a resize whose result and intermediate cannot fit in memory."""
    need = peak_bytes(shape, changes, itemsize)
    if need < 2**26:  # small arrays: not worth reading /proc/meminfo on every call
        return
    available = _available_memory()
    limit = available if available is not None else 2**40
    if need > limit:
        out_shape = list(shape)
        for axis, m in changes.items():
            out_shape[axis] = m
        raise OutputTooLargeError(
            f"the {what} would have shape {tuple(int(v) for v in out_shape)}: about {need / 2**30:.1f} GiB with "
            f"the intermediate, more than the {limit / 2**30:.1f} GiB of memory available; choose a smaller size")


def normalise_axes(ndim: int, size: Sequence[int], axes) -> tuple[int, ...]:
    if axes is None:
        if len(size) > ndim:
            raise ValueError(f"size has {len(size)} entries but the array has only {ndim} dimensions")
        return tuple(range(ndim - len(size), ndim))
    if isinstance(axes, (int, np.integer)):
        axes = (axes,)
    axes = tuple(axes)
    if len(axes) != len(size):
        raise ValueError(f"axes={axes} and size={tuple(size)} must have the same length")
    out = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or not -ndim <= a < ndim:
            raise ValueError(f"axes entry {a!r} is out of range for an array with {ndim} dimensions")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"axes={axes} repeats an axis")
    return tuple(out)


def normalise_size(size) -> tuple[int, ...]:
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        size = (size,)
    try:
        size = tuple(size)
    except TypeError:
        raise TypeError(f"size must be an int or a sequence of ints, got {size!r}") from None
    for s in size:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"size must contain integers, got {size!r}")
        if s < 1:
            raise ValueError(f"size must be positive, got {size!r}")
    return tuple(int(s) for s in size)


def _per_axis(value, count: int, name: str):
    if value is None or isinstance(value, (int, float, np.integer, np.floating)):
        return (value,) * count
    value = tuple(value)
    if len(value) != count:
        raise ValueError(f"{name} has {len(value)} entries but {count} axes are resized")
    return value


def _compute_dtype(dtype: np.dtype, nearest: bool, direction: str):
    """The dtype the contraction runs in, and the dtype of the result."""
    if dtype in (np.float32, np.float64):
        return dtype, dtype
    if dtype == np.float16:
        return np.dtype(np.float32), dtype
    if nearest and direction == "forward" and (dtype.kind in "iub"):
        return dtype, dtype  # a gather keeps any dtype
    if dtype.kind in "iub":
        hint = ("convert it with x.astype(np.float32) first, or use a library preset that defines "
                "integer rounding")
        raise TypeError(f"{direction} resize of a {dtype} array is not defined for interpolating kernels; {hint}")
    raise TypeError(f"cannot resize an array of dtype {dtype}; use float32 or float64")


def _order(plans: list[tuple[int, AxisPlan]], ndim: int) -> list[tuple[int, AxisPlan]]:
    """Shrinking axes first, growing axes last; the last (contiguous) axis on the smaller array."""
    def key(item):
        axis, plan = item
        ratio = plan.m / plan.n
        last = axis == ndim - 1
        return (ratio, (1 if last else 0) if ratio < 1 else (0 if last else 1))

    return sorted(plans, key=key)


_scratch = threading.local()
#: Largest intermediate (bytes) kept between calls for reuse: fresh large allocations are slow and erratic
#: (page faults), so the intermediate of a two-pass resize lives in a per-thread buffer.
SCRATCH_BYTES = 256 * 2**20


def _intermediate(shape, dtype, slot: int) -> np.ndarray:
    nbytes = math.prod(shape) * np.dtype(dtype).itemsize
    if nbytes > SCRATCH_BYTES:
        return np.empty(shape, dtype=dtype)
    pool = getattr(_scratch, "buffers", None)
    if pool is None:
        pool = _scratch.buffers = {}
    buf = pool.get(slot)
    if buf is None or buf.nbytes < nbytes:
        buf = pool[slot] = np.empty(nbytes, dtype=np.uint8)
    return buf[:nbytes].view(dtype).reshape(shape)


def contract(x: np.ndarray, plans: list[tuple[int, AxisPlan]], transpose: bool = False,
             out: np.ndarray | None = None, extrapolation_value: float = 0.0) -> np.ndarray:
    """Apply the band of each (axis, plan) to ``x`` (or its transpose); skips identity axes.

    Non-finite values: a dense block product would spread a NaN to every output of its block, so when the
    input holds NaN or infinity the bands are applied tap by tap (:meth:`Band.apply_taps`), and NaN reaches
    exactly the outputs whose taps read it, as in the libraries.  The check reads the smaller of the input
    and the output: a fast result that is finite everywhere is exact (the blocks read every tap's input).
    """
    steps = {}
    sizes = []
    for axis, plan in plans:
        if plan.is_identity:
            continue
        steps[axis] = plan.band.T if transpose else plan.band
        sizes.append((axis, _Sizes(plan.m, plan.n) if transpose else plan))
    ordered = [axis for axis, _ in _order(sizes, x.ndim)]
    if steps and all(b.gather_slice is not None or b.scatter_slice is not None for b in steps.values()):
        result = _strided(x, steps, out)
    elif all(b.one_hot_index is not None for b in steps.values()):
        result = _passes(x, ordered, steps, out, exact=False)  # gathers: NaN goes where it is copied
    else:
        shape = list(x.shape)
        for axis, band in steps.items():
            shape[axis] = band.rows
        if math.prod(shape) < x.size:
            with np.errstate(invalid="ignore", over="ignore"):  # the exact pass reports what it must
                result = _passes(x, ordered, steps, out, exact=False)
                finite = np.isfinite(np.add.reduce(result, axis=None))
            if not finite:
                result = _passes(x, ordered, steps, out, exact=True)
        else:
            exact = not np.isfinite(np.add.reduce(x, axis=None))
            result = _passes(x, ordered, steps, out, exact=exact)
    if not transpose:
        _fill_outside(result, plans, extrapolation_value)
    return result


def _passes(x, ordered, steps, out, exact: bool):
    """The axis passes in order (tiled when that pays); ``exact``: tap by tap."""
    if not exact and _tileable(x, ordered, steps):
        return _tiled(x, steps[x.ndim - 2], steps[x.ndim - 1], out)
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
                band.apply_taps(x3, target.reshape(pre, band.rows, post))
            else:
                if last:
                    target = out
                elif band.one_hot_index is not None and band._repeat_counts is not None:
                    target = None  # np.repeat allocates its own result
                else:
                    target = _intermediate(shape, current.dtype, k % 2)
                result = band.apply(x3, None if target is None else target.reshape(pre, band.rows, post))
                target = result.reshape(shape)
            current = target
    if out is not None and current is not out:
        out[...] = current
        current = out
    if current is x:
        current = x.copy()
    return current


#: A two-pass resize whose first pass shrinks the rows of planes larger than this (bytes) runs in tiles
#: of output rows: the intermediate is a tile, not a whole plane, and stays in cache.
TILE_PLANE_BYTES = 4 * 2**20
TILE_BYTES = 2**20


def _tileable(x, ordered, steps) -> bool:
    if len(ordered) != 2 or x.ndim < 2 or list(ordered) != [x.ndim - 2, x.ndim - 1]:
        return False
    rows, cols = steps[x.ndim - 2], steps[x.ndim - 1]
    if rows.one_hot_index is not None or cols.one_hot_index is not None or rows.scatter_slice is not None:
        return False
    return x.shape[-2] * x.shape[-1] * x.dtype.itemsize >= TILE_PLANE_BYTES


def _tiled(x, rows: Band, cols: Band, out):
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
                tile = _intermediate((1, b - a, n_cols), x.dtype, 0)
                rows.row_slice(a, b).apply(planes[p:p + 1], tile)
                cols.apply(tile.reshape(b - a, n_cols, 1), targets[p, a:b].reshape(b - a, cols.rows, 1))
    if out is not None and result is not out:
        out[...] = result
        return out
    return result


def _strided(x, steps, out):
    """Every resized axis picks (or, transposed, fills) evenly spaced samples: one strided copy."""
    shape = list(x.shape)
    index = [slice(None)] * x.ndim
    scatter = any(b.scatter_slice is not None for b in steps.values())
    for axis, band in steps.items():
        shape[axis] = band.rows
        index[axis] = band.scatter_slice if scatter else band.gather_slice
    if scatter and not all(b.scatter_slice is not None for b in steps.values()):
        raise AssertionError("mixed gather and scatter steps")
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
    for axis, plan in plans:
        if plan.outside is not None:
            index = [slice(None)] * y.ndim
            index[axis] = np.nonzero(plan.outside)[0]
            y[tuple(index)] = value


def plans_for(shape, size, spec: Spec, axes, scale_factor, itemsize: int = 8,
              backward: bool = False) -> list[tuple[int, AxisPlan]]:
    size = normalise_size(size)
    axes = normalise_axes(len(shape), size, axes)
    scales = _per_axis(scale_factor, len(axes), "scale_factor")
    # refuse absurd sizes before any plan is built
    if backward:
        resized = list(shape)
        for axis, m in zip(axes, size):
            resized[axis] = m
        check_memory(resized, {axis: shape[axis] for axis in axes}, itemsize, "gradient")
    else:
        check_memory(shape, dict(zip(axes, size)), itemsize, "output")
    plans = []
    for k, (axis, m, f) in enumerate(zip(axes, size, scales)):
        if shape[axis] < 1:
            raise ValueError(f"cannot resize axis {axis} of length {shape[axis]}: it is empty")
        plans.append((axis, axis_plan(shape[axis], m, spec, f, axis_index=k)))
    return plans


def resize(x, size, spec: Spec | None = None, axes=None, scale_factor=None, out=None) -> np.ndarray:
    """Resize the given axes of ``x`` under ``spec``.

    ``size`` gives the output length of each resized axis; ``axes`` defaults to the last ``len(size)``
    axes.  ``scale_factor`` (one number or one per axis) makes the kernel's step ``1/scale_factor`` instead
    of ``n/m`` (PyTorch ``scale_factor``, ONNX ``scales``); it does not change the output size.

    >>> import numpy as np
    >>> from explorer import Spec
    >>> img = np.zeros((37, 53, 3), np.float32)                    # HWC
    >>> resize(img, (74, 20), Spec("cubic"), axes=(0, 1)).shape
    (74, 20, 3)
    """
    spec = spec if spec is not None else Spec()
    x = _as_array(x, "x")
    plans = plans_for(x.shape, size, spec, axes, scale_factor, x.dtype.itemsize)
    return _run(x, plans, spec, transpose=False, out=out)


def resize_backward(grad, input_shape, size, spec: Spec | None = None, axes=None, scale_factor=None,
                    out=None) -> np.ndarray:
    """The gradient of ``sum(resize(x, size, spec, axes) * grad)`` with respect to ``x``: ``W.T @ grad``.

    >>> import numpy as np
    >>> from explorer import Spec
    >>> g = np.ones((1, 8))
    >>> spec = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    >>> resize_backward(g, (1, 4), (8,), spec).tolist()
    [[2.0, 2.0, 2.0, 2.0]]
    """
    spec = spec if spec is not None else Spec()
    grad = _as_array(grad, "grad")
    input_shape = tuple(int(s) for s in input_shape)
    if len(input_shape) != grad.ndim:
        raise ValueError(f"grad has {grad.ndim} dimensions but input_shape {input_shape} has {len(input_shape)}")
    plans = plans_for(input_shape, size, spec, axes, scale_factor, grad.dtype.itemsize, backward=True)
    return run_backward(grad, input_shape, plans, spec, out, f"resizing to size {tuple(normalise_size(size))}")


def run_backward(grad, input_shape, plans, spec, out=None, what="the resize"):
    """``W.T @ grad`` for the plans of an input of ``input_shape``: checks the gradient's shape, and gives
    outputs set to the extrapolation value (which do not depend on the input) no gradient."""
    expected = list(input_shape)
    for axis, plan in plans:
        expected[axis] = plan.m
    if tuple(expected) != grad.shape:
        raise ValueError(f"grad has shape {grad.shape} but {what} maps {tuple(input_shape)} to {tuple(expected)}")
    if any(p.outside is not None for _, p in plans):
        grad = grad.copy()
        for axis, plan in plans:
            if plan.outside is not None:
                index = [slice(None)] * grad.ndim
                index[axis] = np.nonzero(plan.outside)[0]
                grad[tuple(index)] = 0
    return _run(grad, plans, spec, transpose=True, out=out)


def _as_array(x, name):
    if not isinstance(x, np.ndarray):
        try:
            x = np.asarray(x)
        except Exception as exc:  # noqa: BLE001 - report what the user passed
            raise TypeError(f"{name} must be an array, got {type(x).__name__}: {exc}") from None
    if x.dtype.kind not in "biufc":
        raise TypeError(f"{name} must be a numeric array, got an array of dtype {x.dtype}")
    return x


def _run(x, plans, spec, transpose, out):
    nearest = spec.kernel == "nearest"
    compute, result = _compute_dtype(x.dtype, nearest, "backward" if transpose else "forward")
    shape = list(x.shape)
    for axis, plan in plans:
        shape[axis] = plan.n if transpose else plan.m
    if out is not None:
        if not isinstance(out, np.ndarray) or out.shape != tuple(shape) or out.dtype != result:
            raise ValueError(f"out must be a {np.dtype(result)} array of shape {tuple(shape)}")
    xc = x.astype(compute, copy=False)
    y = contract(xc, plans, transpose=transpose, out=out if compute == result else None,
                 extrapolation_value=spec.extrapolation_value)
    if y.dtype != result:
        y = y.astype(result)
        if out is not None:
            out[...] = y
            y = out
    return y

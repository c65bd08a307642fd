"""Memory: what a resize will allocate, checked before anything is allocated, and the reused scratch buffers.

The limits are in :mod:`explorer.limits`.
"""

from __future__ import annotations

import math
import os
import threading

import numpy as np

from ..errors import OutputTooLargeError
from ..limits import CHECK_FROM_BYTES, SCRATCH_BYTES


def available_memory() -> int | None:
    """Bytes the system can still give (MemAvailable), or None when it cannot tell."""
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


def pass_order(ratios: dict[int, float], ndim: int) -> list[int]:
    """The order of the axis passes (``ratios``: output/input length per axis): shrinking axes first, growing
    axes last, and the last (contiguous) axis on the smaller array: first when growing, last when shrinking.

    >>> pass_order({2: 2.0, 3: 2.0}, 4), pass_order({2: 0.5, 3: 0.5}, 4)
    ([3, 2], [2, 3])
    """
    def key(axis):
        ratio = ratios[axis]
        last = axis == ndim - 1
        return (ratio, (1 if last else 0) if ratio < 1 else (0 if last else 1))

    return sorted(ratios, key=key)


def peak_bytes(shape, changes: dict[int, int], itemsize: int) -> int:
    """Memory a resize allocates at its peak: the result and the intermediate of the pass before it."""
    ratios = {axis: m / shape[axis] for axis, m in changes.items() if shape[axis] != m}
    current, previous, peak = list(shape), 0, 0
    for axis in pass_order(ratios, len(shape)):
        current[axis] = changes[axis]
        size = math.prod(current) * itemsize
        peak = max(peak, size + previous)
        previous = size
    return max(peak, math.prod(current) * itemsize)


def check_memory(shape, changes: dict[int, int], itemsize: int, what: str = "output"):
    """Refuse, before allocating anything, a resize whose result and intermediate cannot fit in memory."""
    need = peak_bytes(shape, changes, itemsize)
    if need < CHECK_FROM_BYTES:
        return
    available = available_memory()
    limit = available if available is not None else 2**40
    if need > limit:
        out_shape = list(shape)
        for axis, m in changes.items():
            out_shape[axis] = m
        raise OutputTooLargeError(
            f"the {what} would have shape {tuple(int(v) for v in out_shape)}: about {need / 2**30:.1f} GiB with "
            f"the intermediate, more than the {limit / 2**30:.1f} GiB of memory available; choose a smaller size")


_scratch = threading.local()


def scratch(shape, dtype, slot: int) -> np.ndarray:
    """A per-thread reusable buffer of ``shape`` (a fresh array above :data:`SCRATCH_BYTES`)."""
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


def release_scratch():
    """Drop this thread's scratch buffers (the next resize allocates afresh)."""
    _scratch.buffers = {}

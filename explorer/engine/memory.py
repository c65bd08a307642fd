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
    """Bytes this process can still allocate, or None when it cannot tell: the least of the system's
    MemAvailable, the container's (cgroup v2) memory limit less its usage, and the process's own address-space
    and data limits (``RLIMIT_AS``, ``RLIMIT_DATA``) less what it already maps."""
    return memory_limit()[0]


def memory_limit() -> tuple[int | None, str]:
    """``(bytes, what bounds them)``: :func:`available_memory` and a few words naming the binding limit."""
    candidates = []
    meminfo = _read_number("/proc/meminfo", "MemAvailable:", 1024)
    if meminfo is None:
        try:
            meminfo = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            meminfo = None
    if meminfo is not None:
        candidates.append((meminfo, "memory available"))
    cgroup_max = _read_number("/sys/fs/cgroup/memory.max")
    if cgroup_max is not None:
        used = _read_number("/sys/fs/cgroup/memory.current") or 0
        candidates.append((max(cgroup_max - used, 0), "memory the container may still use"))
    for name, field in (("RLIMIT_AS", "VmSize:"), ("RLIMIT_DATA", "VmData:")):
        limit = _rlimit(name)
        if limit is not None:
            mapped = _read_number("/proc/self/status", field, 1024) or 0
            candidates.append((max(limit - mapped, 0), f"memory this process may still map ({name})"))
    if not candidates:
        return None, "memory available"
    return min(candidates, key=lambda c: c[0])


def _read_number(path: str, key: str | None = None, unit: int = 1) -> int | None:
    """The integer in ``path`` (on the line starting with ``key``), times ``unit``; None when absent."""
    try:
        with open(path) as fh:
            for line in fh:
                if key is None or line.startswith(key):
                    word = line.split()[1 if key else 0]
                    return int(word) * unit if word.isdigit() else None
    except (OSError, ValueError, IndexError):
        pass
    return None


def _rlimit(name: str) -> int | None:
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return None
    soft, _ = resource.getrlimit(getattr(resource, name))
    return None if soft == resource.RLIM_INFINITY else soft


def format_bytes(nbytes: float) -> str:
    """``'37.3 GiB'``, ``'512 MiB'``, ``'3.2e+301 bytes'``: a size as a reader takes it in.

    >>> format_bytes(40 * 2**30), format_bytes(3 * 2**20), format_bytes(10**400)
    ('40.0 GiB', '3.0 MiB', '1.0e+400 bytes')
    """
    if nbytes >= 2**70:
        digits = len(str(int(nbytes))) - 1
        return f"{int(nbytes) // 10 ** (digits - 1) / 10:.1f}e+{digits} bytes"
    if nbytes >= 2**30:
        return f"{nbytes / 2**30:.1f} GiB"
    return f"{nbytes / 2**20:.1f} MiB"


def require(need: int, what: str, detail: str = "", hint: str = "choose a smaller size") -> None:
    """Raise :class:`OutputTooLargeError` naming ``what`` and both sizes when ``need`` bytes cannot be had.

    Calls needing less than :data:`CHECK_FROM_BYTES` are not checked (no file is read for them).
    """
    if need < CHECK_FROM_BYTES:
        return
    limit, source = memory_limit()
    if limit is None:
        limit, source = 2**40, "1 TiB assumed available"
    if need > limit:
        detail = f" {detail}" if detail else ""
        raise OutputTooLargeError(f"{what}: about {format_bytes(need)}{detail}, more than the "
                                  f"{format_bytes(limit)} of {source}; {hint}")


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
    """Memory a resize allocates at its peak: the result and the intermediate of the pass before it.

    >>> peak_bytes((100, 100), {0: 200, 1: 200}, 4)  # width first, then the height: 100x200 and 200x200
    240000
    """
    out = list(shape)
    for axis, m in changes.items():
        out[axis] = m
    if math.prod(out) > 2**62 or math.prod(shape) == 0:  # astronomically large (or empty): no ratio needed
        return math.prod(out) * itemsize
    ratios = {axis: m / shape[axis] for axis, m in changes.items() if shape[axis] != m}
    current, previous, peak = list(shape), 0, 0
    for axis in pass_order(ratios, len(shape)):
        current[axis] = changes[axis]
        size = math.prod(current) * itemsize
        peak = max(peak, size + previous)
        previous = size
    return max(peak, math.prod(current) * itemsize)


def check_memory(shape, changes: dict[int, int], itemsize: int, what: str = "output", plan_bytes=0):
    """Refuse, before allocating anything, a resize whose result, intermediate and plans cannot fit in memory.

    ``plan_bytes``: the bytes of the weights to build (see :func:`explorer.engine.plan.plan_nbytes`), or a
    function computing them, called only once the arrays alone are known to fit.
    """
    arrays = peak_bytes(shape, changes, itemsize)
    out_shape = list(shape)
    for axis, m in changes.items():
        out_shape[axis] = m
    what = f"the {what} would have shape {shape_text(out_shape)}"
    require(arrays, what, "with the intermediate")
    plan_bytes = plan_bytes() if callable(plan_bytes) else plan_bytes
    detail = "with the intermediate"
    if plan_bytes * 8 >= arrays:
        detail += f" and {format_bytes(plan_bytes)} of weights"
    require(arrays + plan_bytes, what, detail)


def shape_text(shape) -> str:
    """A shape, with astronomically long axes in scientific notation.

    >>> shape_text((3, 10**20)), shape_text((7,))
    ('(3, 1.0e+20)', '(7,)')
    """
    items = [str(int(v)) if v < 10**15 else format_bytes(v).replace(" bytes", "") if v >= 2**70 else f"{v:.1e}"
             for v in shape]
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


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

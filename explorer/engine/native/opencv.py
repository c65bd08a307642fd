"""OpenCV 5 ``INTER_AREA`` when no axis grows: ``computeResizeAreaTab`` (modules/imgproc/src/resize.cpp).

Per output ``i``, in double: the cell ``[x0, x1) = [i * s, i * s + s)`` (``s = 1 / inv_scale``), its width
``cell = min(s, n - x0)`` (a cell that overhangs the image averages its in-image part), ``s1 = ceil(x0)``,
``s2 = min(floor(x1), n - 1)``, ``s1 = min(s1, s2)``; then, stored as float:

* ``(s1 - 1, (s1 - x0) / cell)`` when ``s1 - x0 > 1e-3`` (smaller partial overlaps are dropped),
* ``(j, 1 / cell)`` for ``j`` in ``s1 .. s2 - 1``,
* ``(s2, min(min(x1 - s2, 1), cell) / cell)`` when ``x1 - s2 > 1e-3``.

``resizeAreaFast`` (integer steps on both axes) averages the same cells; only its integer rounding differs
(``explorer.engine.fixed_point``).
"""

from __future__ import annotations

import numpy as np

from .common import Axis, Taps, f32, f64


def key(spec, dtype, direction):
    return None, "forward"  # the same weights for every dtype and direction


def area_table(n: int, m: int, inverse_scale: float, outputs=None) -> Taps:
    """The cell table of ``outputs`` (default: all ``m``)."""
    s = 1.0 / inverse_scale
    x0 = (np.arange(m) if outputs is None else outputs) * s
    x1 = x0 + s
    cell = np.minimum(s, n - x0)
    s2 = np.minimum(np.floor(x1), n - 1)
    s1 = np.minimum(np.ceil(x0), s2)
    width = int(np.ceil(s)) + 2
    j = (s1 - 1)[:, None] + np.arange(width)[None, :]
    whole = (j >= s1[:, None]) & (j < s2[:, None])
    first = (j == (s1 - 1)[:, None]) & ((s1 - x0) > 1e-3)[:, None]
    last = (j == s2[:, None]) & ((x1 - s2) > 1e-3)[:, None]
    beyond = cell <= 0  # a cell past the input (a scale that does not fit the sizes): it reads nothing
    cell = np.where(beyond, 1.0, cell)
    w = np.where(whole, 1.0 / cell[:, None], 0.0)
    w = np.where(first, ((s1 - x0) / cell)[:, None], w)
    w = np.where(last, (np.minimum(np.minimum(x1 - s2, 1.0), cell) / cell)[:, None], w)
    live = (whole | first | last) & ~beyond[:, None]
    w = np.where(live, w, 0.0)
    index = np.clip(np.where(live, j, s1[:, None]), 0, n - 1).astype(np.int64)
    return Taps(index, w.astype(f32).astype(f64), (x0 + x1) / 2 - 0.5, s, live=live)


def build(a: Axis) -> Taps | None:
    """The cell table of a shrinking (or unchanged) axis; a growing axis is the generic exact overlap, which
    is what OpenCV's area_mode two-tap rule computes on it."""
    if a.spec.kernel != "area":
        return None
    inverse = float(a.scale) if a.scale is not None else a.m / a.n
    return area_table(a.n, a.m, inverse, a.outputs()) if inverse <= 1 else None

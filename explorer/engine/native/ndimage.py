"""scipy.ndimage's spline resampling, as the linear map it is: ``zoom`` with its boundary modes and B-spline
prefilter, and scikit-image's Gaussian anti-aliasing before it.

Ported from scipy/scipy ``scipy/ndimage/src/ni_interpolation.c`` (``map_coordinate``, ``NI_ZoomShift``,
``_get_spline_boundary_mode``), ``ni_splines.c`` (``get_spline_interpolation_weights``, ``get_filter_poles``,
``apply_filter`` and its causal / anticausal initialisations) and ``_interpolation.py``
(``_prepad_for_spline_filter``: 12 samples of edge or zero padding for ``nearest`` and ``grid-constant``) @
v1.17.1; and ``_filters.py`` ``gaussian_filter1d`` (``radius = int(truncate * sigma + 0.5)``, truncate 4,
weights ``exp(-x^2 / (2 sigma^2))`` normalised) with ``correlate1d``'s border extension.

One output of an axis is ``sum_h w_h c[idx_h]``: ``order + 1`` B-spline weights at the source coordinate, read
from the spline coefficients ``c = P S x`` (``S`` the prepadding, ``P`` the prefilter: per pole a causal and an
anticausal recursion, every step linear).  The builder forms ``P`` exactly from the recursions -- its columns
near either end by filtering unit vectors, the interior columns (where neither initialisation reaches, every
contribution below 1e-18) as the filtered unit impulse shifted -- and composes the taps of each output with
its rows; weights below 1e-18 in magnitude are dropped.  With ``antialias`` (scikit-image ``resize``),
``x`` is first smoothed by a Gaussian of ``sigma = max(0, (n / m - 1) / 2)`` with the same border mode.
Everything is computed in double, as scipy does.

Boundary modes (``Spec.boundary``, scipy's names): ``constant`` (an output whose coordinate leaves
``[0, n-1]`` is ``cval``; taps past the border mirror), ``grid-constant`` (taps past the border read
``cval``), ``nearest``, ``mirror``, ``reflect`` (= ``grid-mirror``), ``wrap`` and ``grid-wrap``; ``cval`` is
the Spec's ``extrapolation_value`` and must be 0 for the map to be linear.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ..band import Band
from ..coords import ROUNDING, source_coordinates
from .common import Axis, Taps

ORDERS = {"nearest": 0, "linear": 1, "bspline2": 2, "bspline3": 3, "bspline4": 4, "bspline5": 5}
POLES = {2: (-0.171572875253809902396622551580603843,),
         3: (-0.267949192431122706472553658494127633,),
         4: (-0.361341225900220177092212841325675255, -0.013725429297339121360331226939128204),
         5: (-0.430575347099973791851434783493520110, -0.043096288203264653822712376822550182)}
TINY = 1e-18
PREPAD = 12
#: scipy mode -> the mode its prefilter initialises with (apply_filter's switch)
_FILTER_INIT = {"grid-constant": "mirror", "constant": "mirror", "mirror": "mirror", "wrap": "mirror",
                "grid-wrap": "wrap", "nearest": "reflect", "reflect": "reflect"}
#: scipy mode -> the mode of the taps past the border (_get_spline_boundary_mode)
_SPLINE_MODE = {"constant": "mirror", "wrap": "mirror"}


def key(spec, dtype, direction):
    return None, "forward"  # double arithmetic throughout: the same weights for every dtype and direction


# ------------------------------------------------------------------------------------------------ coordinates
def map_coordinate(x: np.ndarray, n: int, mode: str) -> np.ndarray:
    """``map_coordinate`` of ni_interpolation.c: a coordinate outside ``[0, n-1]`` mapped into the input by the
    mode (``constant``: -1)."""
    x = np.asarray(x, np.float64)
    low, high = x < 0, x > n - 1
    out = x.copy()
    if mode == "nearest":
        return np.where(low, 0.0, np.where(high, n - 1.0, x))
    if mode in ("constant", "grid-constant"):
        return np.where(low | high, -1.0, x)
    if n <= 1:
        return np.where(low | high, 0.0, x)
    trunc = np.trunc
    if mode == "mirror":
        sz2 = 2 * n - 2
        v = sz2 * trunc(-x / sz2) + x
        lo = np.where(v <= 1 - n, v + sz2, -v)
        v = x - sz2 * trunc(x / sz2)
        hi = np.where(v >= n, sz2 - v, v)
    elif mode == "reflect":
        sz2 = 2 * n
        v = np.where(x < -sz2, sz2 * trunc(-x / sz2) + x, x)
        lo = np.where(v < -n, v + sz2, np.where(v > -1e-15, 1e-15, -v) - 1)
        v = x - sz2 * trunc(x / sz2)
        hi = np.where(v >= n, sz2 - v - 1, v)
    elif mode == "wrap":
        sz = n - 1
        lo = x + sz * (trunc(-x / sz) + 1)
        hi = x - sz * trunc(x / sz)
    elif mode == "grid-wrap":
        lo = x + n * (trunc((-1 - x) / n) + 1)
        hi = x - n * trunc(x / n)
    else:
        raise ValueError(f"unknown boundary mode {mode!r}")
    out = np.where(low, lo, out)
    return np.where(high, hi, out)


def spline_weights(x: np.ndarray, order: int) -> np.ndarray:
    """``get_spline_interpolation_weights``: the ``order + 1`` weights at each coordinate (rows)."""
    x = np.asarray(x, np.float64)
    x = x - np.floor(x if order & 1 else x + 0.5)
    w = np.zeros((len(x), order + 1))
    y, z = x, 1.0 - x
    if order == 1:
        w[:, 0] = 1.0 - x
    elif order == 2:
        w[:, 1] = 0.75 - x * x
        y = 0.5 - x
        w[:, 0] = 0.5 * y * y
    elif order == 3:
        w[:, 1] = (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0
        w[:, 2] = (z * z * (z - 2.0) * 3.0 + 4.0) / 6.0
        w[:, 0] = z * z * z / 6.0
    elif order == 4:
        t = x * x
        w[:, 2] = t * (t * 0.25 - 0.625) + 115.0 / 192.0
        y = 1.0 + x
        w[:, 1] = y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        w[:, 3] = z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
        y = 0.5 - x
        t = y * y
        w[:, 0] = t * t / 24.0
    elif order == 5:
        t = y * y
        w[:, 2] = t * (t * (0.25 - y / 12.0) - 0.5) + 0.55
        t = z * z
        w[:, 3] = t * (t * (0.25 - z / 12.0) - 0.5) + 0.55
        y = y + 1.0
        w[:, 1] = y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        z = z + 1.0
        w[:, 4] = z * (z * (z * (z * (z / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        y = 1.0 - x
        t = y * y
        w[:, 0] = y * t * t / 120.0
    w[:, order] = 1.0 - w[:, :order].sum(axis=1) if order else 1.0
    return w


# ------------------------------------------------------------------------------------------------ the prefilter
def _filter(c: np.ndarray, poles, init: str) -> np.ndarray:
    """``apply_filter`` on every column of ``c`` (a copy, in double): the gain, then per pole the causal
    and the anticausal recursion with the mode's initialisations."""
    c = np.array(c, np.float64)
    n = c.shape[0]
    if n <= 1:
        return c
    gain = 1.0
    for z in poles:
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    c *= gain
    for z in poles:
        if init == "mirror":
            z_n_1 = z ** (n - 1)
            k = np.arange(1, n - 1)
            zi = z ** k
            c0 = c[0] + z_n_1 * c[n - 1] + zi @ (c[1:n - 1] + z_n_1 * c[n - 1 - k])
            c[0] = c0 / (1 - z_n_1 * z_n_1)
        elif init == "wrap":
            k = np.arange(1, n)
            c[0] = (c[0] + (z ** k) @ c[n - k]) / (1 - z ** n)
        else:  # reflect
            z_n = z ** n
            k = np.arange(1, n - 1)
            first = c[0].copy()
            c0 = c[0] + z_n * c[n - 1] + (z ** k) @ (c[1:n - 1] + z_n * c[n - 1 - k])
            # the loop's last term, i = n - 1, reads c[0] as the loop has left it (the sum so far)
            c0 = c0 + z ** (n - 1) * (c[n - 1] + z_n * c0)
            c[0] = c0 * z / (1 - z_n * z_n) + first
        for i in range(1, n):
            c[i] += z * c[i - 1]
        if init == "mirror":
            c[n - 1] = (z * c[n - 2] + c[n - 1]) * z / (z * z - 1)
        elif init == "wrap":
            k = np.arange(0, n - 1)
            c[n - 1] = (c[n - 1] + (z ** (k + 1)) @ c[k]) * z / (z ** n - 1)
        else:
            c[n - 1] *= z / (z - 1)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])
    return c


def _horizon(order: int) -> int:
    """Samples past which a pole's powers fall below :data:`TINY`."""
    z = max(abs(p) for p in POLES[order])
    return int(math.ceil(math.log(TINY) / math.log(z))) + order + 2


@lru_cache(maxsize=8)
def prefilter_band(n: int, order: int, init: str) -> Band:
    """The prefilter of a line of ``n`` samples as a band (rows: coefficients, columns: samples)."""
    poles = POLES[order]
    h = _horizon(order)
    edge = min(n, 2 * h)
    if n <= 4 * h:  # every column is near an end: filter the identity
        dense = _filter(np.eye(n), poles, init)
        r, c = np.nonzero(np.abs(dense) >= TINY)
        return Band.from_triplets(r, c, dense[r, c], n, n)
    cols = np.r_[np.arange(edge), np.arange(n - edge, n)]
    unit = np.zeros((n, len(cols)))
    unit[cols, np.arange(len(cols))] = 1.0
    ends = _filter(unit, poles, init)
    r, k = np.nonzero(np.abs(ends) >= TINY)
    rows, columns, values = [r], [cols[k]], [ends[r, k]]
    # interior columns: the impulse response, far from both ends
    length = 4 * h + 1
    impulse = np.zeros((length, 1))
    impulse[2 * h, 0] = 1.0
    response = _filter(impulse, poles, init)[:, 0]
    offsets = np.nonzero(np.abs(response) >= TINY)[0] - 2 * h
    kernel = response[offsets + 2 * h]
    interior = np.arange(edge, n - edge)
    rr = (interior[:, None] + offsets[None, :]).ravel()
    cc = np.repeat(interior, len(offsets))
    keep = (rr >= 0) & (rr < n)
    rows.append(rr[keep])
    columns.append(cc[keep])
    values.append(np.tile(kernel, len(interior))[keep])
    return Band.from_triplets(np.concatenate(rows), np.concatenate(columns), np.concatenate(values), n, n)


# ------------------------------------------------------------------------------------------------ the Gaussian
def extend_index(j: np.ndarray, n: int, mode: str) -> np.ndarray:
    """The input sample a filter reads at index ``j`` (correlate1d's line extension; -1: the constant)."""
    j = np.asarray(j, np.int64)
    if mode in ("constant", "grid-constant"):
        return np.where((j < 0) | (j >= n), -1, j)
    if mode == "nearest":
        return np.clip(j, 0, n - 1)
    if mode in ("wrap", "grid-wrap"):
        return np.mod(j, n)
    if mode in ("reflect", "grid-mirror"):
        period = 2 * n
        v = np.mod(j, period)
        return np.where(v >= n, period - 1 - v, v)
    if mode == "mirror":
        if n == 1:
            return np.zeros_like(j)
        period = 2 * n - 2
        v = np.mod(j, period)
        return np.where(v >= n, period - v, v)
    raise ValueError(f"unknown boundary mode {mode!r}")


def gaussian_weights(sigma: float, truncate: float = 4.0) -> np.ndarray:
    """``_gaussian_kernel1d`` (order 0): the normalised weights of offsets ``-radius ... radius``."""
    radius = int(truncate * float(sigma) + 0.5)
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / (sigma * sigma) * x.astype(np.float64) ** 2)
    return phi / phi.sum()


def _gaussian(rows, cols, values, n, m, mode):
    """Triplets composed with the Gaussian of scikit-image's anti-aliasing (sigma from the sizes)."""
    sigma = max(0.0, (n / m - 1.0) / 2.0)
    if sigma <= 1e-15:  # gaussian_filter skips an axis whose sigma is 0
        return rows, cols, values
    g = gaussian_weights(sigma)
    radius = (len(g) - 1) // 2
    offsets = np.arange(-radius, radius + 1)
    src = extend_index(cols[:, None] + offsets[None, :], n, mode)
    w = values[:, None] * g[None, :]
    keep = src >= 0
    return (np.broadcast_to(rows[:, None], src.shape)[keep], src[keep], w[keep])


# ------------------------------------------------------------------------------------------------ the axis
def taps(n: int, m: int, spec) -> int:
    """How many inputs one output may read: the spline's taps, widened by the prefilter's reach and the
    Gaussian's radius (at most the whole axis)."""
    order = ORDERS.get(spec.kernel, 1)
    width = order + 1
    if spec.prefilter and order > 1:
        width += 2 * _horizon(order)
    if spec.antialias:
        width += 2 * int(4.0 * max(0.0, (n / m - 1.0) / 2.0) + 0.5)
    return min(width, n + 2)


def build(a: Axis) -> Taps | None:
    order = ORDERS.get(a.spec.kernel)
    if order is None:
        return None
    mode = a.spec.boundary or "nearest"
    prefilter = a.spec.prefilter and order > 1
    n, m = a.n, a.m
    npad = PREPAD if prefilter and mode in ("nearest", "grid-constant") else 0
    length = n + 2 * npad
    outputs = a.outputs()
    x, step = source_coordinates(n, m, a.spec.coordinate_transformation_mode, "float64", None, a.roi)
    x = x[outputs]
    cc = x + npad
    if mode not in ("grid-constant", "nearest"):
        cc = map_coordinate(cc, length, mode)
    outside = (cc <= -1.0) if mode == "constant" else np.zeros(len(cc), bool)
    if order == 0:  # floor(cc + 0.5): the Spec's rounding rule (round_prefer_ceil for scipy)
        start = ROUNDING[a.spec.nearest_mode](cc, step, lambda v: v).astype(np.int64)
    else:
        start = (np.floor(cc) if order & 1 else np.floor(cc + 0.5)).astype(np.int64) - order // 2
    w = spline_weights(cc, order) if order else np.ones((len(cc), 1))
    idx = start[:, None] + np.arange(order + 1)[None, :]
    if mode == "grid-constant":
        live = (idx >= 0) & (idx < length)
    else:
        live = np.ones(idx.shape, bool)
        idx = map_coordinate(idx.astype(np.float64), length, _SPLINE_MODE.get(mode, mode)).astype(np.int64)
    live &= ~outside[:, None]
    r, h = np.nonzero(live)
    rows, taps, values = r, idx[r, h], w[r, h]
    if prefilter:  # the coefficients' rows of P
        band = prefilter_band(length, order, _FILTER_INIT[mode])
        widths = band.length[taps]
        k = np.arange(int(widths.max(initial=1)))
        inside = k[None, :] < widths[:, None]
        rows = np.broadcast_to(rows[:, None], inside.shape)[inside]
        cols = (band.start[taps][:, None] + k[None, :])[inside]
        values = (values[:, None] * band.weights[taps][:, :len(k)])[inside]
        taps = cols
    if npad:  # the prepadding: edge samples, or zeros
        taps = taps - npad
        if mode == "nearest":
            taps = np.clip(taps, 0, n - 1)
        else:
            keep = (taps >= 0) & (taps < n)
            rows, taps, values = rows[keep], taps[keep], values[keep]
    if a.spec.antialias:
        rows, taps, values = _gaussian(rows, taps, values, n, m, mode)
    keep = np.abs(values) >= TINY
    band = Band.from_triplets(rows[keep], taps[keep], values[keep], len(outputs), n)
    width = max(int(band.length.max(initial=1)), 1)
    j = np.arange(width)
    index = np.minimum(band.start[:, None] + j[None, :], n - 1)
    live = j[None, :] < band.length[:, None]
    return Taps(index, np.where(live, band.weights[:, :width], 0.0), x, float(step), live=live,
                outside=outside if outside.any() else None)

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


@lru_cache(maxsize=16)
def coefficient_band(n: int, order: int, mode: str) -> Band:
    """``P S``: the B-spline coefficients of the (prepadded) line as a band over the ``n`` input samples; rows are
    the padded coefficients (``n + 24`` of them for ``nearest`` and ``grid-constant``)."""
    npad = PREPAD if mode in ("nearest", "grid-constant") else 0
    band = prefilter_band(n + 2 * npad, order, _FILTER_INIT[mode])
    if not npad:
        return band
    r, c, w = band.triplets()
    c = c - npad
    if mode == "nearest":
        c = np.clip(c, 0, n - 1)
    else:
        keep = (c >= 0) & (c < n)
        r, c, w = r[keep], c[keep], w[keep]
    return Band.from_triplets(r, c, w, n + 2 * npad, n)


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


def _gaussian(start, weights, n, m, mode):
    """Rows ``(start, weights)`` (dense runs of columns) composed with scikit-image's Gaussian (sigma from the
    sizes): each run correlated with the kernel, one offset at a time."""
    sigma = max(0.0, (n / m - 1.0) / 2.0)
    if sigma <= 1e-15:  # gaussian_filter skips an axis whose sigma is 0
        return start, weights
    g = gaussian_weights(sigma)
    radius = (len(g) - 1) // 2
    rows, width = weights.shape
    out = np.zeros((rows, width + 2 * radius))
    for k, gk in enumerate(g):  # input column c + (k - radius) feeds column c's tap
        out[:, k:k + width] += weights * gk
    return start - radius, out


def _fold(start, weights, n, mode):
    """Dense runs whose columns leave ``[0, n)`` folded back by the filter's border extension (dropped for
    the constant modes): the runs become the band's rows."""
    rows, width = weights.shape
    cols = start[:, None] + np.arange(width)[None, :]
    outside = (cols < 0) | (cols >= n)
    if not outside.any():
        return start, weights
    src = extend_index(cols, n, mode)
    keep = src >= 0
    r = np.broadcast_to(np.arange(rows)[:, None], cols.shape)
    band = Band.from_triplets(r[keep], src[keep], weights[keep], rows, n)
    return band.start, band.weights


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
        first = ROUNDING[a.spec.nearest_mode](cc, step, lambda v: v).astype(np.int64)
    else:
        first = (np.floor(cc) if order & 1 else np.floor(cc + 0.5)).astype(np.int64) - order // 2
    w = spline_weights(cc, order) if order else np.ones((len(cc), 1))
    idx = first[:, None] + np.arange(order + 1)[None, :]
    if mode == "grid-constant":
        live = (idx >= 0) & (idx < length)
        idx = np.clip(idx, 0, length - 1)
    else:
        live = np.ones(idx.shape, bool)
        idx = map_coordinate(idx.astype(np.float64), length, _SPLINE_MODE.get(mode, mode)).astype(np.int64)
    w = np.where(live & ~outside[:, None], w, 0.0)
    rows = len(outputs)
    if prefilter:  # each tap reads a row of P S: runs of columns, added tap by tap
        band = coefficient_band(n, order, mode)
        starts, lengths = band.start[idx], band.length[idx]
        start = np.where(lengths > 0, starts, np.iinfo(np.int64).max).min(axis=1)
        start = np.where(start == np.iinfo(np.int64).max, 0, start)
        width = int((starts + lengths - start[:, None]).max(initial=1))
        width = max(width, 1)
        weights = np.zeros((rows, width + 1))  # the last column takes the padding of short runs, then goes
        k = np.arange(band.weights.shape[1])
        r = np.arange(rows)[:, None]
        for h in range(order + 1):  # within one tap every (row, column) is distinct: a plain += adds them all
            offset = (starts[:, h] - start)[:, None] + k[None, :]
            inside = k[None, :] < lengths[:, h][:, None]
            weights[r, np.where(inside, offset, width)] += w[:, h][:, None] * band.weights[idx[:, h]]
        weights = weights[:, :width]
    else:  # the taps themselves, near the border possibly repeated (mirrored): a band of their runs
        start = idx.min(axis=1)
        width = int((idx.max(axis=1) - start).max(initial=0)) + 1
        weights = np.zeros((rows, width))
        r = np.arange(rows)
        for h in range(order + 1):  # taps of one row may repeat (mirrored): one tap at a time
            weights[r, idx[:, h] - start] += w[:, h]
    if a.spec.antialias:
        start, weights = _gaussian(start, weights, n, m, mode)
        start, weights = _fold(start, weights, n, mode)
    weights = np.where(np.abs(weights) >= TINY, weights, 0.0)
    # the runs' live extent: from the first to the last weight that is not zero (a row with none reads input 0)
    nonzero = weights != 0
    any_live = nonzero.any(axis=1)
    lead = np.where(any_live, nonzero.argmax(axis=1), 0)
    last = np.where(any_live, weights.shape[1] - 1 - nonzero[:, ::-1].argmax(axis=1), 0)
    span = int((last - lead).max(initial=0)) + 1
    j = np.arange(span)
    cols = np.clip(lead[:, None] + j[None, :], 0, weights.shape[1] - 1)
    taken = np.take_along_axis(weights, cols, axis=1)
    live = (j[None, :] <= (last - lead)[:, None]) & any_live[:, None]
    index = np.clip(start[:, None] + lead[:, None] + j[None, :], 0, n - 1)
    return Taps(index, np.where(live, taken, 0.0), x, float(step), live=live,
                outside=outside if outside.any() else None)

"""Pixels as the figures show them: colour tables, integer block averages and PNG bytes, in numpy.

Every image panel of the explorer is an array mapped through one of three colour scales and encoded as a
PNG here, without matplotlib (about 1-2 ms for 128 x 128), then shown at an integer zoom:

* ``grey``: image values, 0 black to 1 white; more than :data:`OVERSHOOT_MARK` above 1 orange, below 0 blue
  (overshoot), NaN white; a smaller overshoot is drawn as black or white (one faint ring of -0.01 under a
  marker colour would look like the artefact it is not).  Colour images are shown as they are, clipped to [0, 1];
* ``signed``: a signed quantity on a symmetric scale [-limit, limit], blue - white - red;
* ``coverage``: a non-negative quantity 0..vmax (viridis), exactly 0 in red (no gradient arrives).

>>> import numpy as np
>>> grey_rgb(np.array([[0.0, 1.0, 1.5, -0.2, -0.01]]))[0].tolist()
[[0, 0, 0], [255, 255, 255], [255, 127, 14], [31, 119, 180], [0, 0, 0]]
>>> block_mean(np.arange(16, dtype=np.float32).reshape(4, 4), 2).tolist()
[[2.5, 4.5], [10.5, 12.5]]
>>> png(np.zeros((2, 3, 3), np.uint8))[:8]
b'\\x89PNG\\r\\n\\x1a\\n'
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

from ...limits import APP_BAND_BYTES
from . import style as S

#: how far past [0, 1] a grey value must lie to be painted in an overshoot colour (5 of 255 grey levels)
OVERSHOOT_MARK = 0.02
#: zlib level of live panels: 1 makes a photo ~40% smaller than stored for ~3 ms per 256 x 256
PNG_LEVEL = 1


# ------------------------------------------------------------------------------------------------ colours
def _table(cmap) -> np.ndarray:
    return (np.asarray(cmap(np.linspace(0.0, 1.0, 256)))[:, :3] * 255 + 0.5).astype(np.uint8)


def _hex(colour: str) -> np.ndarray:
    colour = colour.lstrip("#")
    return np.array([int(colour[i:i + 2], 16) for i in (0, 2, 4)], np.uint8)


#: colour scale name -> the matplotlib colormap it samples (also used by the exported figures' colour bars)
CMAPS = {"grey": S.GREY, "signed": S.SIGNED, "coverage": S.POSITIVE}
_TABLES: dict = {}
OVER_RGB, UNDER_RGB, DEAD_RGB = _hex(S.OVER), _hex(S.UNDER), _hex(S.DEAD)
BAD_RGB = np.array([255, 255, 255], np.uint8)


def table(name: str) -> np.ndarray:
    """The 256 colours of colour scale ``name`` (:data:`CMAPS`), as uint8 RGB."""
    if name not in _TABLES:
        _TABLES[name] = _table(CMAPS[name])
    return _TABLES[name]


def _index(t: np.ndarray) -> np.ndarray:
    return np.clip(t * 255.0 + 0.5, 0, 255).astype(np.uint8)


def grey_rgb(a: np.ndarray) -> np.ndarray:
    """Image values as RGB: one channel on the grey scale with overshoot colours; three channels clipped."""
    a = np.asarray(a, np.float32)
    if a.ndim == 3 and a.shape[2] == 3:
        return _index(np.clip(np.nan_to_num(a, nan=1.0), 0.0, 1.0))
    if a.ndim == 3:
        a = a[:, :, 0]
    out = table("grey")[_index(np.nan_to_num(a, nan=0.0))]
    out[a > 1.0 + OVERSHOOT_MARK] = OVER_RGB
    out[a < -OVERSHOOT_MARK] = UNDER_RGB
    out[np.isnan(a)] = BAD_RGB
    return out


def signed_rgb(a: np.ndarray, limit: float) -> np.ndarray:
    """A signed (H, W) quantity on the symmetric scale [-limit, limit]; NaN white."""
    a = np.asarray(a, np.float32)
    t = (np.nan_to_num(a, nan=0.0) + limit) / (2.0 * limit)
    out = table("signed")[_index(t)]
    out[np.isnan(a)] = BAD_RGB
    return out


def coverage_rgb(a: np.ndarray, vmax: float) -> np.ndarray:
    """A non-negative (H, W) quantity on 0..vmax; exactly 0 red (dead), NaN white."""
    a = np.asarray(a, np.float32)
    out = table("coverage")[_index(np.nan_to_num(a, nan=0.0) / max(vmax, 1e-30))]
    out[a == 0] = DEAD_RGB
    out[np.isnan(a)] = BAD_RGB
    return out


def colour_strip(name: str, height: int = 160, width: int = 16) -> np.ndarray:
    """A vertical colour bar of scale ``name``, high values on top, as RGB."""
    column = table(name)[np.linspace(255, 0, height).round().astype(int)]
    return np.repeat(column[:, None, :], width, axis=1)


# ------------------------------------------------------------------------------------------------ sizes
def block_mean(a: np.ndarray, f: int) -> np.ndarray:
    """``a`` (H, W[, C]) averaged over f x f blocks (edge rows and columns that fill no block are left out),
    channel plane by channel plane (the engine's HWC results are views of contiguous planes) and in bands of
    rows, so no temporary exceeds :data:`explorer.limits.APP_BAND_BYTES`."""
    a = np.asarray(a)
    if f == 1:
        return a
    h, w = a.shape[0] // f, a.shape[1] // f
    out = np.empty((h, w) + a.shape[2:], np.float32)
    planes = [(a, out)] if a.ndim == 2 else [(a[:, :, c], out[:, :, c]) for c in range(a.shape[2])]
    band = max(1, APP_BAND_BYTES // max(1, 4 * f * w * f))
    for src, dst in planes:
        for r in range(0, h, band):
            rows = min(band, h - r)
            block = np.asarray(src[r * f:(r + rows) * f, :w * f], np.float32)
            dst[r:r + rows] = block.reshape(rows, f, w * f).sum(axis=1).reshape(rows, w, f).sum(axis=2)
    out *= 1.0 / (f * f)
    return out


def reduction(shape, max_height: int, max_width: int) -> int:
    """The smallest integer f such that an (H, W) array averaged over f x f blocks fits the bounds."""
    h, w = shape[:2]
    return max(1, -(-h // max_height), -(-w // max_width))


def banded(function, a, b, band_rows: int | None = None):
    """``function(a[rows], b[rows])`` over bands of rows, yielded in order (for statistics of a difference
    of two large arrays without a temporary of their size)."""
    rows = band_rows or max(1, APP_BAND_BYTES // max(1, a[:1].nbytes))
    for r in range(0, a.shape[0], rows):
        yield function(a[r:r + rows], b[r:r + rows])


def rms_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The root mean square of ``a - b`` (mean over channels first), computed in bands of rows.

    >>> rms_difference(np.ones((4, 4, 3)), np.zeros((4, 4, 3)))
    1.0
    """
    def sums(x, y):
        d = S.channel_mean(np.asarray(x, np.float32)) - S.channel_mean(np.asarray(y, np.float32))
        return float(np.vdot(d, d)), d.size

    total = count = 0
    for s, n in banded(sums, a, b):
        total, count = total + s, count + n
    return float(np.sqrt(total / max(count, 1)))


def outline(rgb: np.ndarray, box, colour=OVER_RGB) -> np.ndarray:
    """``rgb`` with a one-pixel frame around ``box`` = (top, left, bottom, right) fractions."""
    h, w = rgb.shape[:2]
    top, left, bottom, right = box
    r0, c0 = int(np.floor(top * h)), int(np.floor(left * w))
    r1 = min(h - 1, max(int(np.ceil(bottom * h)) - 1, r0))
    c1 = min(w - 1, max(int(np.ceil(right * w)) - 1, c0))
    rgb = rgb.copy()
    rgb[[r0, r1], c0:c1 + 1] = colour
    rgb[r0:r1 + 1, [c0, c1]] = colour
    return rgb


def zoom(rgb: np.ndarray, k: int) -> np.ndarray:
    """Each pixel repeated k x k times: an integer nearest-neighbour zoom, never a resampling."""
    return rgb if k == 1 else np.repeat(np.repeat(rgb, k, axis=0), k, axis=1)


# ------------------------------------------------------------------------------------------------ PNG
def contiguous(rgb: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(rgb, np.uint8)


def png(rgb: np.ndarray, level: int = PNG_LEVEL) -> bytes:
    """PNG bytes of an (H, W, 3) or (H, W, 4) uint8 array: rows "Up"-filtered (photos ~20% smaller for the
    same time), zlib at ``level``."""
    rgb = np.ascontiguousarray(rgb, np.uint8)
    h, w, c = rgb.shape
    flat = rgb.reshape(h, w * c)
    rows = np.empty((h, 1 + w * c), np.uint8)
    rows[:, 0] = 2
    rows[0, 1:] = flat[0]
    np.subtract(flat[1:], flat[:-1], out=rows[1:, 1:])

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 2 if c == 3 else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows.tobytes(), level))
            + chunk(b"IEND", b""))

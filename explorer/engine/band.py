"""Banded weight matrices and the one contraction that applies them.

A resize along one axis is ``y = W x`` with ``W`` of shape (outputs, inputs).  Every row of ``W`` touches a
short run of consecutive inputs, so ``W`` is stored as a band: row ``r`` holds ``weights[r, :length[r]]`` at
columns ``start[r] ... start[r] + length[r] - 1``.  The transpose of a band is a band too, which is how the
backward pass is computed: the same code applied to ``W.T``, never a separate formula.

Speed comes from cutting the band into blocks of consecutive rows; each block is one dense matrix product
against only the input span it touches, written in place into the output.  One-hot bands (nearest) are a
gather forward and a segment sum backward.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from ..errors import ArgumentValueError
from ..limits import (
    BLOCK_BYTES,
    PLAN_CACHE_BYTES,
    PLAN_CACHE_SHARE,
    TEMPORARY_TILE_BYTES,
)


class Band:
    """A (rows x cols) matrix whose rows are runs of consecutive columns.

    ``length[r]`` counts the *structural* taps of row ``r``: the inputs the library reads for that output,
    including taps whose weight happens to be zero.  They matter only for how NaN and infinity spread.
    """

    __slots__ = ("rows", "cols", "start", "weights", "length", "__dict__")

    def __init__(self, rows: int, cols: int, start, weights, length):
        self.rows, self.cols = int(rows), int(cols)
        self.start = np.ascontiguousarray(start, dtype=np.int64)
        self.weights = np.ascontiguousarray(weights, dtype=np.float64)
        self.length = np.ascontiguousarray(length, dtype=np.int64)
        self.weights.setflags(write=False)
        self.start.setflags(write=False)
        self.length.setflags(write=False)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_triplets(cls, row_index, col_index, values, rows: int, cols: int) -> "Band":
        """Sum ``values`` into a band; every (row, col) pair given is a structural tap."""
        row_index = np.asarray(row_index, dtype=np.int64).ravel()
        col_index = np.asarray(col_index, dtype=np.int64).ravel()
        values = np.asarray(values, dtype=np.float64).ravel()
        first = np.full(rows, np.iinfo(np.int64).max, dtype=np.int64)
        last = np.full(rows, -1, dtype=np.int64)
        np.minimum.at(first, row_index, col_index)
        np.maximum.at(last, row_index, col_index)
        empty = last < 0
        first[empty] = 0
        length = np.where(empty, 0, last - first + 1)
        width = max(int(length.max(initial=0)), 1)
        weights = np.zeros((rows, width))
        np.add.at(weights, (row_index, col_index - first[row_index]), values)
        return cls(rows, cols, first, weights, length)

    @classmethod
    def stack(cls, parts, rows: int, cols: int, width: int) -> Band:
        """The bands of consecutive row ranges (``parts``, any iterable, consumed one at a time) as one band of
        ``rows`` rows; ``width`` is the most taps a row may have (a part wider than it widens the result).

        The result is allocated first and each part copied in as it comes, so building a band chunk by chunk
        holds one chunk besides the result.

        >>> parts = [Band.from_indices([0, 1], 3), Band.from_triplets([0, 0], [1, 2], [0.5, 0.5], 1, 3)]
        >>> Band.stack(iter(parts), 3, 3, 2).dense().tolist()
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.5, 0.5]]
        """
        weights = np.zeros((rows, max(int(width), 1)))
        start = np.zeros(rows, np.int64)
        length = np.zeros(rows, np.int64)
        r = 0
        for part in parts:
            used = part.weights.shape[1]
            if used > weights.shape[1]:
                weights = np.pad(weights, ((0, 0), (0, used - weights.shape[1])))
            weights[r:r + part.rows, :used] = part.weights
            start[r:r + part.rows] = part.start
            length[r:r + part.rows] = part.length
            r += part.rows
        if r != rows:
            raise AssertionError(f"the parts have {r} rows, not {rows}")
        widest = max(int(length.max(initial=0)), 1)
        if widest < weights.shape[1]:
            weights = weights[:, :widest]
        return cls(rows, cols, start, weights, length)

    @classmethod
    def from_indices(cls, index, cols: int) -> "Band":
        """A one-hot band: row ``r`` copies input ``index[r]``."""
        index = np.asarray(index, dtype=np.int64)
        return cls(len(index), cols, index, np.ones((len(index), 1)), np.ones(len(index), dtype=np.int64))

    # ------------------------------------------------------------------ memory
    @property
    def nbytes(self) -> int:
        """Bytes of this band's arrays and of everything its contractions keep: the dense blocks, the taps,
        the transpose and the row slices of tiled passes (what a plan cache must count)."""
        own = 0 if self.__dict__.get("_view") else self.start.nbytes + self.weights.nbytes + self.length.nbytes
        total = own + self.__dict__.get("_kept_bytes", 0)
        transpose = self.__dict__.get("T")
        if transpose is not None:
            total += transpose.nbytes
        for piece in self.__dict__.get("_row_slices", {}).values():
            total += piece.nbytes
        return total

    def _keep(self, nbytes: int):
        self.__dict__["_kept_bytes"] = self.__dict__.get("_kept_bytes", 0) + int(nbytes)

    # ------------------------------------------------------------------ views
    def dense(self) -> np.ndarray:
        """The full (rows x cols) matrix, for teaching pictures and tests (not for large sizes)."""
        out = np.zeros((self.rows, self.cols))
        r, k = np.nonzero(np.arange(self.weights.shape[1])[None, :] < self.length[:, None])
        np.add.at(out, (r, self.start[r] + k), self.weights[r, k])
        return out

    def triplets(self):
        """(row, col, weight) of every structural tap."""
        r, k = np.nonzero(np.arange(self.weights.shape[1])[None, :] < self.length[:, None])
        return r, self.start[r] + k, self.weights[r, k]

    @cached_property
    def T(self) -> "Band":
        """The transpose: the band that computes the backward pass."""
        r, c, w = self.triplets()
        band = Band.from_triplets(c, r, w, self.cols, self.rows)
        if isinstance(self.gather_slice, slice):
            band.__dict__["scatter_slice"] = self.gather_slice
        return band

    @cached_property
    def gather_slice(self):
        """A slice equal to the gathered indices when this is an evenly spaced one-hot band, else None."""
        index = self.one_hot_index
        if index is None:
            return None
        sl = _as_slice(index)
        return sl if isinstance(sl, slice) else None

    @cached_property
    def scatter_slice(self):
        """Set on the transpose of an evenly spaced gather: outputs ``sl`` receive the inputs, others 0."""
        return None

    @cached_property
    def one_hot_index(self):
        """The gathered input index of each row when every row copies one input, else None."""
        if self.weights.shape[1] == 1 and np.all(self.length == 1) and np.all(self.weights[:, 0] == 1.0):
            return self.start
        return None

    def row_slice(self, a: int, b: int) -> "Band":
        """Rows ``a:b`` as a band of their own (cached: tiled contractions reuse them)."""
        cache = self.__dict__.setdefault("_row_slices", {})
        if (a, b) not in cache:
            piece = Band(b - a, self.cols, self.start[a:b], self.weights[a:b], self.length[a:b])
            piece.__dict__["_view"] = True  # its arrays are this band's
            cache[(a, b)] = piece
        return cache[(a, b)]

    @cached_property
    def is_identity(self) -> bool:
        return (self.rows == self.cols and self.one_hot_index is not None
                and np.array_equal(self.one_hot_index, np.arange(self.rows)))

    # ------------------------------------------------------------------ contraction
    def _block_spans(self, block: int):
        """``(a, lo, hi)`` per block of ``block`` rows: its first row and the input span ``[lo, hi)`` its rows
        touch (``hi <= lo`` when no row of the block has a tap)."""
        a = np.arange(0, self.rows, block)
        if not self.rows:
            return a, a, a
        live = self.length > 0
        lo = np.minimum.reduceat(np.where(live, self.start, np.iinfo(np.int64).max), a)
        hi = np.maximum.reduceat(np.where(live, self.start + self.length, -1), a)
        return a, lo, hi

    def _blocks(self, dtype, block: int):
        """``(a, b, lo, hi, matrix)`` per block of rows: the dense ``(b - a) x (hi - lo)`` weights of rows
        ``a:b`` (None when they have no tap).  Kept for reuse when they total at most a share of the plan
        cache, else built as they are used (one block in memory at a time)."""
        key = (np.dtype(dtype).str, block)
        cache = self.__dict__.setdefault("_block_cache", {})
        if key in cache:
            return cache[key]
        starts, lo, hi = self._block_spans(block)
        ends = np.minimum(starts + block, self.rows)
        total = int(np.sum((ends - starts) * np.maximum(hi - lo, 0))) * np.dtype(dtype).itemsize
        if total > PLAN_CACHE_SHARE * PLAN_CACHE_BYTES:
            return self._iter_blocks(dtype, starts, ends, lo, hi)  # one block in memory at a time
        cache[key] = blocks = self._scatter_blocks(dtype, block, starts, ends, lo, hi)
        self._keep(total)
        return blocks

    def _scatter_blocks(self, dtype, block, starts, ends, lo, hi):
        """Every block at once: each dense matrix is a view into one flat buffer, filled in one scatter."""
        dead = hi <= lo
        lo, hi = np.where(dead, 0, lo), np.where(dead, 0, hi)
        widths = hi - lo
        offsets = np.concatenate([[0], np.cumsum((ends - starts) * widths)])
        flat = np.zeros(int(offsets[-1]), dtype=dtype)
        taps = np.arange(self.weights.shape[1])
        # the scatter's index arrays (several int64 per tap) are made a chunk of blocks at a time
        chunk = max(1, TEMPORARY_TILE_BYTES // (64 * max(len(taps), 1) * block)) * block
        for first in range(0, self.rows, chunk):
            r, k = np.nonzero(taps[None, :] < self.length[first:first + chunk, None])
            r += first
            b = r // block
            flat[offsets[b] + (r - starts[b]) * widths[b] + self.start[r] + k - lo[b]] = self.weights[r, k]
        out = []
        for j, (a, e) in enumerate(zip(starts.tolist(), ends.tolist())):
            if dead[j]:
                out.append((a, e, 0, 0, None))
                continue
            mat = flat[offsets[j]:offsets[j + 1]].reshape(e - a, int(widths[j]))
            out.append((a, e, int(lo[j]), int(hi[j]), mat))
        return out

    def _iter_blocks(self, dtype, starts, ends, lo, hi):
        taps = np.arange(self.weights.shape[1])
        for a, b, first, last in zip(starts.tolist(), ends.tolist(), lo.tolist(), hi.tolist()):
            if last <= first:
                yield a, b, 0, 0, None
                continue
            mat = np.zeros((b - a, last - first), dtype=dtype)
            r, k = np.nonzero(taps[None, :] < self.length[a:b, None])
            mat[r, self.start[a + r] - first + k] = self.weights[a + r, k]
            yield a, b, first, last, mat

    @cached_property
    def _taps(self):
        """Per tap k: the input index of every row (a slice when evenly spaced) and the weights."""
        taps = []
        for k in range(self.weights.shape[1]):
            index = np.minimum(self.start + k, self.cols - 1)
            w = np.where(k < self.length, self.weights[:, k], 0.0)
            if not np.any(w):
                continue
            index = _as_slice(index)
            self._keep(w.nbytes + (0 if isinstance(index, slice) else index.nbytes))
            taps.append((index, w, bool(np.all(w == 1.0))))
        return taps

    def _tap_cost(self) -> float:
        """The tap loop's cost per output (ns) without keeping its taps: 0.9 per strided tap, 1.5 per gather."""
        if "_taps" in self.__dict__:
            return sum(0.9 if isinstance(index, slice) else 1.5 for index, _, _ in self._taps)
        cost = 0.0
        for k in range(self.weights.shape[1]):
            used = k < self.length
            if not np.any(self.weights[used, k]):
                continue
            strided = isinstance(_as_slice(np.minimum(self.start + k, self.cols - 1)), slice)
            cost += 0.9 if strided else 1.5
        return cost

    def _strategy(self, pre: int, post: int) -> str:
        """'blocks' or 'taps': the cheaper by a cost model fitted on this kind of machine.

        Per output sample, a block product costs about 0.3 + 0.035 * (input span of its block) ns; a tap
        loop costs about 0.9 ns per tap read through a strided view and 1.5 ns per tap gathered by index.
        """
        key = "_strategy_last_axis" if post == 1 else "_strategy_inner_axis"
        if key in self.__dict__:
            return self.__dict__[key]
        _, lo, hi = self._block_spans(_block_rows(self, last_axis=post == 1))
        cost_blocks = 0.3 + 0.035 * float(np.mean(np.maximum(hi - lo, 0)))
        live = np.arange(self.weights.shape[1])[None, :] < self.length[:, None]
        taps = int(np.count_nonzero(np.any((self.weights != 0) & live, axis=0)))
        if taps == 0:
            choice = "taps"
        elif 0.9 * taps >= cost_blocks:  # even if every tap were strided (wide bands: no loop over taps)
            choice = "blocks"
        else:
            choice = "taps" if self._tap_cost() < cost_blocks else "blocks"
        self.__dict__[key] = choice
        return choice

    def multiply(self, x3: np.ndarray, out3: np.ndarray | None = None) -> np.ndarray:
        """``out3[p, r, q] = sum_c W[r, c] x3[p, c, q]`` for x3 of shape (pre, cols, post).

        The input must be finite (see :meth:`multiply_exact` for NaN and infinity).  Returns ``out3``, or a new
        array when ``out3`` is None.
        """
        pre, cols, post = x3.shape
        if cols != self.cols or (out3 is not None and out3.shape != (pre, self.rows, post)):
            raise ArgumentValueError(f"band of shape ({self.rows}, {self.cols}) cannot map axis of length "
                             f"{cols} to {None if out3 is None else out3.shape[1]}")
        index = self.one_hot_index
        if index is not None:
            return self._gather(x3, out3)
        if out3 is None:
            out3 = np.empty((pre, self.rows, post), dtype=x3.dtype)
        if self.scatter_slice is not None:
            out3[...] = 0
            out3[:, self.scatter_slice, :] = x3
            return out3
        if self._strategy(pre, post) == "taps":
            return self._multiply_tap_loop(x3, out3)
        if post == 1:
            x2, o2 = x3[:, :, 0], out3[:, :, 0]
            for a, b, lo, hi, mat in self._blocks(x3.dtype, _block_rows(self, last_axis=True)):
                if mat is None:
                    o2[:, a:b] = 0
                else:
                    np.matmul(x2[:, lo:hi], mat.T, out=o2[:, a:b])
        else:
            for a, b, lo, hi, mat in self._blocks(x3.dtype, _block_rows(self, last_axis=False)):
                if mat is None:
                    out3[:, a:b, :] = 0
                else:
                    np.matmul(mat, x3[:, lo:hi, :], out=out3[:, a:b, :])
        return out3

    def _gather(self, x3, out3):
        pre, _, post = x3.shape
        if self.gather_slice is not None:
            if out3 is None:
                return x3[:, self.gather_slice, :].copy()
            np.copyto(out3, x3[:, self.gather_slice, :])
            return out3
        counts = self.repeat_counts
        if counts is not None:
            if (post == 1 and x3.dtype.itemsize == 4 and self.rows == 2 * self.cols and np.all(counts == 2)
                    and (out3 is None or out3.flags.c_contiguous)):
                # every input twice along the contiguous axis: write each pair as one 64-bit word
                if out3 is None:
                    out3 = np.empty((pre, self.rows, post), dtype=x3.dtype)
                words = out3.reshape(pre, self.cols, 2).view(np.uint64).reshape(pre, self.cols)
                np.multiply(x3.reshape(pre, self.cols).view(np.uint32), np.uint64(0x1_0000_0001), out=words,
                            dtype=np.uint64)
                return out3
            if out3 is None:
                return np.repeat(x3, counts, axis=1)
        if out3 is None:
            out3 = np.empty((pre, self.rows, post), dtype=x3.dtype)
        return np.take(x3, self.one_hot_index, axis=1, out=out3)

    @cached_property
    def repeat_counts(self):
        """How often each input repeats, when the gathered indices never decrease (np.repeat applies)."""
        index = self.one_hot_index
        if index is None or np.any(np.diff(index) < 0):
            return None
        counts = np.bincount(index, minlength=self.cols)
        self._keep(counts.nbytes)
        return counts

    def _multiply_tap_loop(self, x3, out3):
        dtype = x3.dtype
        tmp = None
        for k, (index, w, ones) in enumerate(self._taps):
            src = x3[:, index, :] if isinstance(index, slice) else np.take(x3, index, axis=1)
            if k == 0:
                if ones:
                    out3[...] = src
                else:
                    np.multiply(src, w.astype(dtype)[None, :, None], out=out3)
                continue
            if ones:
                np.add(out3, src, out=out3)
                continue
            if tmp is None:
                tmp = np.empty_like(out3)
            np.multiply(src, w.astype(dtype)[None, :, None], out=tmp)
            np.add(out3, tmp, out=out3)
        if not self._taps:
            out3[...] = 0
        return out3

    def multiply_exact(self, x3: np.ndarray, out3: np.ndarray) -> np.ndarray:
        """The same product, tap by tap: NaN and infinity reach exactly the outputs whose taps read them.

        Slower than :meth:`multiply`; used when the input is not finite, because a dense block product would
        spread a NaN to every output of its block (``0 * nan = nan``).  NaN and infinity are inputs handled on
        purpose: an infinity times a zero-weight tap, or infinities of both signs summed, give NaN as they do in
        the libraries, and no floating-point warning is raised for it.
        """
        out3[...] = 0
        dtype = x3.dtype
        row_bytes = max(x3.shape[0] * x3.shape[2] * dtype.itemsize, 1)
        step = max(1, TEMPORARY_TILE_BYTES // row_bytes)  # the gathered taps and products: a tile at a time
        # a tap of weight 0 on an infinity gives NaN (0 * inf), as in the libraries' own products: the value is
        # the point, numpy's RuntimeWarning about it is not
        with np.errstate(invalid="ignore", over="ignore"):
            for lo in range(0, self.rows, step):
                length = self.length[lo:lo + step]
                for k in range(self.weights.shape[1]):
                    rows = lo + np.nonzero(length > k)[0]
                    if rows.size == 0:
                        break
                    w = self.weights[rows, k].astype(dtype)[None, :, None]
                    out3[:, rows, :] += x3[:, self.start[rows] + k, :] * w
        return out3


def _block_rows(band: Band, last_axis: bool) -> int:
    """Rows per block: few enough that a dense block wastes little, many enough to amortise the call, and
    never so many that one dense block exceeds :data:`~explorer.limits.BLOCK_BYTES` (in float64)."""
    ratio = band.cols / max(band.rows, 1)  # inputs per output
    target = max(32, int(32 / ratio)) if last_axis else 8
    target = max(1, min(target, band.rows))
    width = band.weights.shape[1]
    while target > 1 and target * (target * ratio + width) * 8 > BLOCK_BYTES:
        target //= 2
    return target


def _as_slice(index: np.ndarray):
    """A slice equal to ``index`` when it is evenly spaced with a positive step, else the array."""
    if len(index) == 1:
        return slice(int(index[0]), int(index[0]) + 1)
    step = int(index[1] - index[0])
    if step > 0 and np.all(np.diff(index) == step):
        return slice(int(index[0]), int(index[-1]) + 1, step)
    return index

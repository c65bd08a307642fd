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
    def from_indices(cls, index, cols: int) -> "Band":
        """A one-hot band: row ``r`` copies input ``index[r]``."""
        index = np.asarray(index, dtype=np.int64)
        return cls(len(index), cols, index, np.ones((len(index), 1)), np.ones(len(index), dtype=np.int64))

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
        return Band.from_triplets(c, r, w, self.cols, self.rows)

    @cached_property
    def one_hot_index(self):
        """The gathered input index of each row when every row copies one input, else None."""
        if self.weights.shape[1] == 1 and np.all(self.length == 1) and np.all(self.weights[:, 0] == 1.0):
            return self.start
        return None

    @cached_property
    def segments(self):
        """For a band of unit weights over runs (the transpose of a monotone gather): (start, length)."""
        k = np.arange(self.weights.shape[1])[None, :]
        inside = k < self.length[:, None]
        if np.all(self.weights[inside] == 1.0) and np.all(self.weights[~inside] == 0.0):
            return self.start, self.length
        return None

    @cached_property
    def is_identity(self) -> bool:
        return (self.rows == self.cols and self.one_hot_index is not None
                and np.array_equal(self.one_hot_index, np.arange(self.rows)))

    # ------------------------------------------------------------------ contraction
    def _blocks(self, dtype, block: int):
        key = (np.dtype(dtype).str, block)
        cache = self.__dict__.setdefault("_block_cache", {})
        if key in cache:
            return cache[key]
        ends = self.start + self.length
        out = []
        for a in range(0, self.rows, block):
            b = min(a + block, self.rows)
            live = self.length[a:b] > 0
            if not live.any():
                out.append((a, b, 0, 0, None))
                continue
            lo = int(self.start[a:b][live].min())
            hi = int(ends[a:b][live].max())
            mat = np.zeros((b - a, hi - lo), dtype=dtype)
            for r in range(a, b):
                n = self.length[r]
                s = self.start[r] - lo
                mat[r - a, s:s + n] = self.weights[r, :n]
            out.append((a, b, lo, hi, mat))
        cache[key] = out
        return out

    def apply(self, x3: np.ndarray, out3: np.ndarray) -> np.ndarray:
        """``out3[p, r, q] = sum_c W[r, c] x3[p, c, q]`` for x3 of shape (pre, cols, post)."""
        if x3.shape[1] != self.cols or out3.shape[1] != self.rows:
            raise ValueError(f"band of shape ({self.rows}, {self.cols}) cannot map axis of length "
                             f"{x3.shape[1]} to {out3.shape[1]}")
        index = self.one_hot_index
        if index is not None:
            np.take(x3, index, axis=1, out=out3)
            return out3
        seg = self.segments
        if seg is not None and x3.shape[1] > 0:
            return _segment_sum(x3, out3, *seg)
        pre, _, post = x3.shape
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

    def apply_taps(self, x3: np.ndarray, out3: np.ndarray) -> np.ndarray:
        """The same product, tap by tap: NaN and infinity reach exactly the outputs whose taps read them.

        Slower than :meth:`apply`; used when the input is not finite, because a dense block product would
        spread a NaN to every output of its block (``0 * nan = nan``).
        """
        out3[...] = 0
        dtype = x3.dtype
        for k in range(self.weights.shape[1]):
            rows = np.nonzero(self.length > k)[0]
            if rows.size == 0:
                break
            w = self.weights[rows, k].astype(dtype)[None, :, None]
            out3[:, rows, :] += x3[:, self.start[rows] + k, :] * w
        return out3


def _block_rows(band: Band, last_axis: bool) -> int:
    """Rows per block: few enough that the dense block wastes little, many enough to amortise the call."""
    ratio = band.cols / max(band.rows, 1)  # inputs per output
    width = band.weights.shape[1]
    if last_axis:
        target = 64 if ratio <= 1 else max(8, int(256 / max(ratio, 1)))
    else:
        target = 16 if ratio <= 1 else max(4, int(64 / max(ratio, 1)))
    return max(1, min(target, band.rows, max(target, width)))


def _segment_sum(x3, out3, start, length):
    """Sum runs of consecutive slices: ``out3[:, r] = x3[:, start[r]:start[r]+length[r]].sum(1)``."""
    live = length > 0
    if np.all(live) and np.all(start[1:] == start[:-1] + length[:-1]) and start[0] == 0:
        np.add.reduceat(x3, start, axis=1, out=out3)
        return out3
    out3[...] = 0
    if live.any():
        idx = np.nonzero(live)[0]
        sums = np.add.reduceat(x3, start[idx], axis=1)
        # reduceat sums up to the next start; trim runs that end before it
        ends = start[idx] + length[idx]
        nxt = np.append(start[idx][1:], x3.shape[1])
        for j in np.nonzero(ends != nxt)[0]:
            s, e = start[idx[j]], ends[j]
            sums[:, j, :] = x3[:, s:e, :].sum(axis=1)
        out3[:, idx, :] = sums
    return out3

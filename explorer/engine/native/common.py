"""What every native builder shares: the axis it is asked for, the taps it returns, float32 helpers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..spec import Spec

f32 = np.float32
f64 = np.float64


@dataclass(frozen=True)
class Axis:
    """One axis as a native builder sees it."""

    n: int
    m: int
    spec: Spec
    scale: float | None      # the user's scale factor (output/input), or None when the sizes decide
    roi: tuple | None
    dtype: np.dtype | None   # the array's dtype (None: the library's default)
    direction: str           # "forward" or "backward"
    start: int = 0           # the outputs asked for: start <= i < stop (a chunk of the axis)
    stop: int | None = None  # None: up to m

    def outputs(self) -> np.ndarray:
        """The output indices this call builds (the whole axis, or one chunk of it)."""
        return np.arange(self.start, self.m if self.stop is None else self.stop)


@dataclass
class Taps:
    """Per output: ``index`` (m, K) inputs, already inside ``[0, n)``, and their ``weights``; ``live`` marks the
    taps read (None: all).  ``outside`` marks outputs set to the extrapolation value."""

    index: np.ndarray
    weights: np.ndarray
    coordinates: np.ndarray
    step: float
    live: np.ndarray | None = None
    outside: np.ndarray | None = None


def fma32(a, b, c):
    """A float32 fused multiply-add: ``a * b`` is exact in double for float32 operands, one rounding after."""
    return (np.asarray(a, f64) * np.asarray(b, f64) + np.asarray(c, f64)).astype(f32)


def sequential_sum(w: np.ndarray, dtype) -> np.ndarray:
    """Row sums accumulated left to right in ``dtype``, as a C loop does."""
    total = np.zeros(w.shape[0], dtype)
    for k in range(w.shape[1]):
        total = (total + w[:, k]).astype(dtype)
    return total



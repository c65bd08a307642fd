"""Comparing 2-byte floats (float16, bfloat16) with a library's, and moving bfloat16 arrays to and from torch
(shared by the bfloat16 oracle tests and the PyTorch OpInfo suite)."""

from __future__ import annotations

import numpy as np


def is_bfloat16(dtype) -> bool:
    return np.dtype(dtype).name == "bfloat16"


def ulps(got, want) -> np.ndarray:
    """|got - want| in units of the last place of ``want``'s 2-byte type at ``want``, or of 2^-20 of the largest
    |want| where that is coarser (a sum that cancels to almost nothing carries the float32 error of its
    terms); both are held exactly in float64."""
    want64 = np.asarray(want).astype(np.float64)
    mantissa = 7 if is_bfloat16(np.asarray(want).dtype) else 10
    exponent = np.floor(np.log2(np.maximum(np.abs(want64), 2.0 ** -14)))
    unit = np.maximum(2.0 ** (exponent - mantissa), 2.0 ** -20 * np.abs(want64).max(initial=0))
    return np.abs(np.asarray(got).astype(np.float64) - want64) / unit


def to_torch(a):
    """A numpy array as a torch tensor (bfloat16 through its bits)."""
    import torch

    a = np.ascontiguousarray(a)
    if is_bfloat16(a.dtype):
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(a)


def from_torch(t):
    """A torch tensor as a numpy array (bfloat16 as ml_dtypes' bfloat16, through its bits)."""
    import ml_dtypes
    import torch

    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
    return t.numpy()

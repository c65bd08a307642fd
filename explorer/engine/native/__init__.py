"""Weights as each library's own code computes them: its float types, fused multiply-adds, tables and tap sets.

The generic plan builder (``plan.py``) computes every weight in float64 from the exact formula; at large sizes
that differs from a library whose kernels compute coordinates and weights in float32 (a coordinate off by one
float32 ulp at x = 50 000 moves a linear weight by 4e-3).  A Spec names the library's arithmetic with its
``index_arithmetic`` row (``explorer.engine.coords.ARITHMETIC``); for the rows listed in :data:`NATIVE` the
plan is built here instead, from a port of the library's own weight code.  Each module cites its source.

A builder receives one :class:`Axis` and returns :class:`Taps` (or None to leave the axis to the generic
builder, e.g. a kernel the row does not change) for the outputs ``Axis.outputs()``: the plan builder asks for
a chunk of rows at a time, so a long axis never holds every tap's temporaries at once; each output's weights
depend only on its own index, so chunks give exactly the whole axis's plan.  Taps keep every input the library *reads*, zero weights
included: ``0 * nan`` is NaN, so the taps decide which outputs a NaN reaches.

Everything here depends only on the axis, the Spec, the dtype and the direction, so the plan cache computes
it once (``key`` says which of dtype and direction a row reads, keeping the cache small).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..spec import Spec
from . import jax, ndimage, onnxruntime, opencv, openvino, pytorch, tensorflow, xnnpack
from .common import Axis, Taps


@dataclass(frozen=True)
class Native:
    """A row's builder and the part of (dtype, direction) its plans depend on."""

    build: Callable[[Axis], Taps | None]
    #: (spec, dtype, direction) -> the (dtype, direction) the weights depend on: what the plan cache keys on
    key: Callable[[Spec, np.dtype | None, str], tuple]


#: index_arithmetic row -> its native builder
NATIVE: dict[str, Native] = {
    "torch": Native(pytorch.build, pytorch.key),
    "torch_opmath": Native(pytorch.build_opmath, pytorch.key_opmath),
    "jax_float32": Native(jax.build, jax.key),
    "tensorflow": Native(tensorflow.build, tensorflow.key),
    "opencv": Native(opencv.build, opencv.key),
    "onnxruntime": Native(onnxruntime.build, onnxruntime.key),
    "openvino": Native(openvino.build, openvino.key),
    "openvino_pillow": Native(openvino.build, openvino.key),
    "xnnpack": Native(xnnpack.build, xnnpack.key),
    "ndimage": Native(ndimage.build, ndimage.key),
}

__all__ = ["NATIVE", "Axis", "Native", "Taps"]

"""Resize an array exactly as a library does: its Spec, plus its size, scale, dtype and pass-order rules.

One path for every library, PyTorch included: :func:`prepare` turns the arguments into a
:class:`~explorer.conventions.registry.Request` through the library's size hooks, :func:`build_plans` asks the
library's weight hooks for one plan per axis (after checking the memory the call needs), and
:func:`run_forward` / :func:`run_backward` execute them with the library's dtype and pass-order rules.

>>> from dataclasses import replace

import numpy as np
>>> img = np.arange(16, dtype=np.float32).reshape(4, 4)
>>> library_resize(img, (3, 3), library="opencv", mode="INTER_LINEAR")[0].astype(float).round(6).tolist()
[0.833333, 2.166667, 3.5]
>>> library_resize(img, library="opencv", mode="INTER_CUBIC", scale_factor=(1.7, 1.7), axes=(0, 1)).shape
(7, 7)
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import validate
from ..engine import fixed_point
from ..engine.execute import execute, work_itemsize
from ..engine.memory import check_memory
from ..engine.plan import axis_plan, plan_nbytes
from ..engine.resize import check_gradient
from ..errors import ArgumentTypeError, ArgumentValueError, NoGradientError
from .registry import Request, Library, resolve

__all__ = ["library_resize", "library_resize_backward", "library_resize_transpose", "NoGradientError",
           "prepare", "build_plans", "run_forward", "run_backward", "float32_plans"]


# ------------------------------------------------------------------------------------------------ the steps
def prepare(lib: Library, mode: str, options: dict, shape, dtype, size=None, scale_factor=None, axes=None,
            direction: str = "forward") -> Request:
    """The :class:`Request` for these arguments: resized axes and ``(n, m)`` lengths by the library's rules."""
    if size is not None and scale_factor is not None:
        raise ArgumentValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ArgumentValueError("either size or scale_factor should be defined")
    ndim = len(shape)
    if size is not None:
        scalar = validate.is_integer(size)
        size = validate.lengths(size)
        if axes is None and scalar:
            axes = lib.resized_axes(ndim)
        if axes is not None and scalar:
            size = size * _count(axes, "axes")
        axes = validate.axes(ndim, len(size), axes)
        lengths, factors = lib.policy_lengths([(shape[a], m) for a, m in zip(axes, size)], options)
    else:
        if axes is None:
            if validate.is_number(scale_factor):
                axes = lib.resized_axes(ndim)
                if axes is None:
                    raise ArgumentValueError("with a single scale_factor, say which axes to resize (axes=...), "
                                             "or give one factor per axis")
            else:
                count = _count(scale_factor, "scale_factor")
                axes = tuple(range(ndim - count, ndim))
        axes = validate.axes(ndim, _count(axes, "axes"), axes)
        factors = validate.scale_factors(scale_factor, len(axes))
        lengths = [(shape[a], _output_length(lib, shape[a], f, options)) for a, f in zip(axes, factors)]
    call = Request(lib, mode, options, tuple(shape), np.dtype(dtype), tuple(axes), tuple(lengths), tuple(factors),
                direction, size_given=size is not None)
    lib.validate_call(call)
    if validate.is_float(call.dtype) and call.dtype.name not in lib.float_dtypes:
        raise ArgumentTypeError(f"{lib.title} {mode}: {call.dtype} arrays are not modelled for this library (it "
                                f"resizes {', '.join(lib.float_dtypes)}); convert with x.astype(np.float32)")
    for axis, (n, m) in zip(axes, lengths):
        if n < 1:
            raise ArgumentValueError(f"cannot resize axis {axis} of length {n}: it is empty")
        if m < 1 and not (m == 0 and lib.output_is_empty(call)):
            raise ArgumentValueError(f"axis {axis} would have length {m}; choose a larger size or scale_factor")
    return call


def _output_length(lib: Library, n: int, factor: float, options: dict) -> int:
    try:
        return lib.output_length(n, factor, options)
    except OverflowError:
        raise ArgumentValueError(f"scale_factor={factor!r} makes an axis of length {n} too long to allocate") from None


def _count(values, name: str) -> int:
    """How many entries a per-axis argument has (one for a scalar)."""
    if validate.is_integer(values) or validate.is_number(values):
        return 1
    if isinstance(values, (str, bytes)):
        raise ArgumentTypeError(f"{name} must be a number or a sequence, got {values!r}")
    try:
        return len(values)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a number or a sequence, got {values!r}") from None


def build_plans(call: Request):
    """``(specs, plans)``: the library's Spec of every axis and its ``(axis, plan)``; the memory the call needs
    (the result, the intermediate and the plans' weights) is checked before any plan is built."""
    lib = call.library
    spec = lib.call_spec(call)
    scales = lib.kernel_scales(call)
    specs = lib.axis_specs(call, spec, scales)
    _check_call_memory(call, specs, scales)
    plans = [(axis, axis_plan(n, m, s, f, axis_index=k, dtype=call.dtype, direction=call.direction))
             for k, (axis, (n, m), s, f) in enumerate(zip(call.axes, call.lengths, specs, scales))]
    return specs, lib.adjust_plans(call, plans)


def _check_call_memory(call: Request, specs, scales):
    backward = call.direction == "backward"
    def plan_bytes():
        return sum(plan_nbytes(n + sum(s.pads_for(k)), m, s, f, s.roi_for(k), transpose=backward)
                   for k, ((n, m), s, f) in enumerate(zip(call.lengths, specs, scales)))

    gather = call.library.nearest_keeps_dtype and all(s.kernel == "nearest" for s in specs)
    if call.dtype.kind in "iub" and not gather and not backward:
        itemsize = fixed_point.WORK_BYTES  # integer rounding works in int64, several arrays at once
    else:
        itemsize = max(work_itemsize(call.dtype), 4)  # float16 and bfloat16 are computed in float32
    if backward:
        check_memory(call.output_shape, {a: n for a, (n, _) in zip(call.axes, call.lengths)}, itemsize,
                     "gradient", plan_bytes)
    else:
        check_memory(call.shape, {a: m for a, (_, m) in zip(call.axes, call.lengths)}, itemsize, "output",
                     plan_bytes)


def run_forward(call: Request, x: np.ndarray) -> np.ndarray:
    """The library's forward resize of ``x`` for a prepared call."""
    return call.library.finish(call, x, _resample(call, x))


def _resample(call: Request, x: np.ndarray) -> np.ndarray:
    lib = call.library
    if lib.output_is_empty(call):
        return np.empty(call.output_shape, x.dtype)
    specs, plans = build_plans(call)
    if x.dtype.kind in "iub":
        if lib.nearest_keeps_dtype and all(plan.nearest for _, plan in plans):
            return execute(x, plans)  # a gather keeps the dtype
        return lib.resize_integer(call, x, plans, specs)
    if not validate.is_float(x.dtype):
        raise ArgumentTypeError(f"cannot resize an array of dtype {x.dtype}; use float32 or float64")
    if validate.is_reduced_float(x.dtype):
        out = lib.resize_reduced(call, x, plans, specs)
        if out is not None:
            return out
    order = lib.pass_order(call)
    if order is not None:  # the order matters for rounding: resize axis by axis in the library's order
        out = x
        for k in order:
            out = execute(out, [plans[k]], extrapolation_value=specs[k].extrapolation_value)
        return out
    return execute(x, plans, extrapolation_value=specs[0].extrapolation_value if specs else 0.0)


def run_backward(call: Request, grad: np.ndarray, what: str | None = None) -> np.ndarray:
    """``W^T grad`` for a prepared backward call (the weights of the library's backward kernels)."""
    if call.library.output_is_empty(call):
        if grad.shape != call.output_shape:
            raise ArgumentValueError(f"grad has shape {grad.shape} but {what or call.library.id} maps "
                                     f"{call.shape} to {call.output_shape}")
        return np.zeros(call.shape, grad.dtype)
    _, plans = build_plans(call)
    check_gradient(grad, call.shape, plans, what or f"{call.library.id} {call.mode}")
    if validate.is_reduced_float(grad.dtype):
        out = call.library.transpose_reduced(call, grad, plans)
        if out is not None:
            return out
    return execute(grad, plans, transpose=True)


def float32_plans(call: Request) -> list:
    """The ``(axis, plan)`` list of ``call`` for a float32 array: the weights of libraries that resize an integer
    image by converting it to float32 first (Keras, torchvision v1), whose arithmetic rows depend on the dtype."""
    return build_plans(replace(call, dtype=np.dtype(np.float32)))[1]


def promote_to_float32(call: Request, x: np.ndarray, plans, specs) -> np.ndarray:
    """:meth:`Library.resize_integer` of libraries that compute integer images in float32 (TensorFlow, JAX)."""
    return execute(x.astype(np.float32), plans, extrapolation_value=specs[0].extrapolation_value)


# ------------------------------------------------------------------------------------------------ public API
def library_resize(x, size=None, library=None, mode=None, axes=None, scale_factor=None, **options):
    """Resize ``x`` the way ``library`` does with ``mode`` and the library's own ``options``.

    ``size`` (or ``scale_factor``, where the library takes one) gives the resized axes' lengths; ``axes``
    defaults to the last ``len(size)`` axes (PyTorch: the spatial axes of (N, C, *spatial)), so channels can
    sit anywhere (NCHW, HWC).  Output lengths from a scale factor follow the library (PyTorch/ONNX floor,
    OpenCV cvRound, Burn truncation) and so does the scale the kernel steps by.  float32/float64 keep their
    dtype; uint8 follows the library's integer rounding (Pillow, PyTorch, OpenCV INTER_LINEAR/INTER_LANCZOS4/
    INTER_AREA bit-exact; OpenCV INTER_CUBIC within 1 LSB); TensorFlow and
    JAX return float32 for integer input (as they do); other combinations raise TypeError.  For Pillow and
    OpenCV the last of ``axes`` is the image width.  Burn's rows are read from Burn's source and checked
    against the expected values of Burn's own tests (``tests/burn_vectors.py``); Burn is not run.

    >>> import numpy as np
    >>> x = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    >>> library_resize(x, (2, 3), library="pillow", mode="BILINEAR").tolist()
    [[36, 60, 84], [136, 160, 184]]
    """
    lib, native, opts = resolve(library, mode, options)
    x = validate.array(x, "x")
    return run_forward(prepare(lib, native, opts, x.shape, x.dtype, size, scale_factor, axes), x)


def _transpose(grad, input_shape, size, lib, native, opts, axes, scale_factor):
    grad = validate.array(grad, "grad")
    if not validate.is_float(grad.dtype):
        raise ArgumentTypeError(f"grad must be a floating point array, got {grad.dtype}")
    input_shape = validate.shape(input_shape, grad.ndim, "input_shape", "grad")
    call = prepare(lib, native, opts, input_shape, grad.dtype, size, scale_factor, axes, direction="backward")
    return run_backward(call, grad)


def library_resize_backward(grad, input_shape, size=None, library=None, mode=None, axes=None, scale_factor=None,
                            **options):
    """The gradient the library's autodiff returns for :func:`library_resize` (``W^T grad``).

    Raises :class:`NoGradientError` (a NotImplementedError) naming the library when it has no gradient for
    the mode (OpenCV, Pillow, TensorFlow ``area``, ONNX Runtime on CPU, some Burn backends).

    >>> import numpy as np
    >>> g = np.ones((2, 3))
    >>> library_resize_backward(g, (3, 4), (2, 3), library="jax", mode="linear").sum().round(5)  # float32 weights
    np.float64(6.0)
    """
    lib, native, opts = resolve(library, mode, options)
    reason = lib.gradient_error(native, opts, getattr(grad, "dtype", None))
    if reason is not None:
        raise NoGradientError(reason)
    return _transpose(grad, input_shape, size, lib, native, opts, axes, scale_factor)


def library_resize_transpose(grad, input_shape, size=None, library=None, mode=None, axes=None,
                             scale_factor=None, **options):
    """``W^T grad`` for the library's forward, whether or not the library differentiates it (for teaching:
    where each output's value came from, for OpenCV and Pillow too).

    >>> import numpy as np
    >>> library_resize_transpose(np.ones((1, 2)), (1, 4), (1, 2), library="opencv", mode="INTER_NEAREST").tolist()
    [[1.0, 0.0, 1.0, 0.0]]
    """
    lib, native, opts = resolve(library, mode, options)
    return _transpose(grad, input_shape, size, lib, native, opts, axes, scale_factor)

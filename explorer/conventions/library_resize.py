"""Resize an array exactly as a library does: its Spec, plus its size, scale, dtype and pass-order rules.

>>> import numpy as np
>>> from explorer.conventions import library_resize
>>> img = np.arange(16, dtype=np.float32).reshape(4, 4)
>>> library_resize(img, (3, 3), library="opencv", mode="INTER_LINEAR")[0].astype(float).round(6).tolist()
[0.833333, 2.166667, 3.5]
>>> library_resize(img, library="opencv", mode="INTER_CUBIC", scale_factor=(1.7, 1.7), axes=(0, 1)).shape
(7, 7)
"""

from __future__ import annotations

import numbers

import numpy as np

from ..engine.execute import _as_array, _run, normalise_axes, normalise_size, run_backward
from ..engine.plan import axis_plan
from .torch_api import interpolate, interpolate_backward
from ..engine import fixed_point
from .registry import resolve


class NoGradientError(NotImplementedError):
    """The library computes no gradient for this mode (use :func:`library_resize_transpose` for ``W^T g``)."""


# ------------------------------------------------------------------------------------------------ geometry
def _factors(scale_factor, count):
    if isinstance(scale_factor, (numbers.Real, np.floating, np.integer)) and not isinstance(scale_factor, bool):
        values = (scale_factor,) * count
    else:
        values = tuple(scale_factor)
        if len(values) != count:
            raise ValueError(f"scale_factor has {len(values)} entries but {count} axes are resized")
    for f in values:
        if isinstance(f, bool) or not isinstance(f, (numbers.Real, np.floating, np.integer)) or not f > 0 \
                or not np.isfinite(f):
            raise ValueError(f"scale_factor must be positive finite numbers, got {scale_factor!r}")
    return [float(f) for f in values]


def _geometry(lib, shape, size, axes, scale_factor, options):
    """(axes, [(n, m)], [user factor or None]) for a library call."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is None and scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if size is not None:
        size = normalise_size(size)
        axes = normalise_axes(len(shape), size, axes)
        lengths = [(shape[a], m) for a, m in zip(axes, size)]
        factors = [None] * len(axes)
        policy = getattr(lib, "policy_lengths", None)
        if policy is not None:
            lengths, factors = policy(lengths, options)
    else:
        if axes is None:
            if isinstance(scale_factor, (numbers.Real, np.floating, np.integer)):
                raise ValueError("with a single scale_factor, say which axes to resize (axes=...), or give one "
                                 "factor per axis")
            axes = tuple(range(len(shape) - len(tuple(scale_factor)), len(shape)))
        axes = normalise_axes(len(shape), (1,) * (1 if isinstance(axes, (int, np.integer)) else len(axes)), axes)
        factors = _factors(scale_factor, len(axes))
        lengths = [(shape[a], lib.output_length(shape[a], f, options)) for a, f in zip(axes, factors)]
    for axis, (n, m) in zip(axes, lengths):
        if n < 1:
            raise ValueError(f"cannot resize axis {axis} of length {n}: it is empty")
        if m < 1:
            raise ValueError(f"axis {axis} would have length {m}; choose a larger size or scale_factor")
    return axes, lengths, factors


def _plans(lib, mode, options, shape, size, axes, scale_factor):
    axes, lengths, factors = _geometry(lib, shape, size, axes, scale_factor, options)
    spec = lib.spec(mode, options)
    scales = lib.kernel_scales(mode, lengths, factors, options)
    specs = lib.axis_specs(spec, mode, lengths, scales, options)
    plans = [(axis, axis_plan(n, m, s, f, axis_index=k))
             for k, (axis, (n, m), s, f) in enumerate(zip(axes, lengths, specs, scales))]
    return spec, specs, plans, scales


# ------------------------------------------------------------------------------------------------ PyTorch
def _torch_layout(shape, size, axes, scale_factor):
    """Axes to move to the end and the (N, C, *spatial) shape F.interpolate sees."""
    scalar = (isinstance(size, (numbers.Integral, np.integer)) if size is not None
              else isinstance(scale_factor, (numbers.Real, np.floating, np.integer)))
    if scalar and axes is None:
        count = len(shape) - 2  # F.interpolate: one size or factor for every spatial dimension
    elif size is not None:
        count = len(normalise_size(size))
    elif isinstance(axes, (numbers.Integral, np.integer)):
        count = 1
    else:
        count = len(tuple(scale_factor)) if not scalar else len(tuple(axes))
    if axes is None:
        axes = tuple(range(len(shape) - count, len(shape)))
    axes = normalise_axes(len(shape), (1,) * count, axes)
    if axes == tuple(range(len(shape) - count, len(shape))) and len(shape) == count + 2:
        return axes, tuple(shape)
    rest = [s for k, s in enumerate(shape) if k not in axes]
    return axes, (int(np.prod(rest, dtype=np.int64)), 1) + tuple(shape[a] for a in axes)


def _torch_call(x, size, axes, scale_factor, mode, options, backward_shape=None):
    shape = backward_shape if backward_shape is not None else x.shape
    axes, nc_shape = _torch_layout(shape, size, axes, scale_factor)
    others = [k for k in range(len(shape)) if k not in axes]
    kw = dict(size=size, scale_factor=scale_factor, mode=mode, align_corners=options["align_corners"],
              recompute_scale_factor=options["recompute_scale_factor"], antialias=options["antialias"])
    moved = np.moveaxis(x, axes, range(len(shape) - len(axes), len(shape)))
    front = moved.shape[:len(others)]
    if backward_shape is None:
        y = interpolate(moved.reshape(nc_shape), **kw)
    else:
        y = interpolate_backward(moved.reshape(nc_shape[:2] + moved.shape[len(others):]), nc_shape, **kw)
    y = y.reshape(front + y.shape[2:])
    return np.moveaxis(y, range(len(shape) - len(axes), len(shape)), axes)


# ------------------------------------------------------------------------------------------------ dtypes
def _promote_to_float32(lib, mode, specs, plans, scales, x):
    return _run(x.astype(np.float32), plans, specs[0], transpose=False, out=None)


def _pillow_uint8(lib, mode, specs, plans, scales, x):
    order = lib.pass_order([(p.n, p.m) for _, p in plans])
    return fixed_point.resample_uint8(x, [plans[k] for k in order], fixed_point.pillow_bits)


def _opencv_uint8(lib, mode, specs, plans, scales, x):
    two_tap = mode == "INTER_LINEAR" or (mode == "INTER_AREA" and specs[0].kernel == "opencv_area_upscale")
    if two_tap and len(plans) <= 2:
        if all(p.n == p.m for _, p in plans):
            return x.copy()
        area = mode == "INTER_AREA"
        entries = [(axis, p.n, p.m, s, area) for (axis, p), s in zip(plans, scales)]
        vertical, horizontal = (entries[0], entries[1]) if len(entries) == 2 else (None, entries[0])
        return fixed_point.opencv_linear_uint8(x, vertical, horizontal)
    if mode == "INTER_LANCZOS4" and len(plans) <= 2:
        if all(p.n == p.m for _, p in plans):
            return x.copy()
        entries = [(axis, p.n, p.m, s) for (axis, p), s in zip(plans, scales)]
        vertical, horizontal = (entries[0], entries[1]) if len(entries) == 2 else (None, entries[0])
        return fixed_point.opencv_lanczos4_uint8(x, vertical, horizontal)
    if mode == "INTER_LINEAR_EXACT":
        raise TypeError("OpenCV INTER_LINEAR_EXACT's uint8 rounding is not modelled; use INTER_LINEAR or float input")
    # INTER_CUBIC and shrinking INTER_AREA: the float result rounded half to even (within 1 LSB)
    y = _run(x.astype(np.float32), plans, specs[0], transpose=False, out=None)
    return np.clip(np.rint(y), 0, 255).astype(np.uint8)


# Library.integer_rule -> how it resizes integer images with an interpolating mode (and which dtypes)
INTEGER_RULES = {
    "promote_to_float32": (_promote_to_float32, None),  # TensorFlow, JAX: the result is float32
    "pillow_fixed_point": (_pillow_uint8, np.uint8),
    "opencv_fixed_point": (_opencv_uint8, np.uint8),
}


def _integer_forward(lib, mode, spec, specs, plans, scales, x):
    """The library's integer rule, or a clear error."""
    if lib.nearest_keeps_dtype and all(s.kernel == "nearest" for s in specs):
        return _run(x, plans, spec, transpose=False, out=None)  # a gather keeps the dtype
    rule, dtype = INTEGER_RULES.get(lib.integer_rule, (None, None))
    if rule is not None and (dtype is None or x.dtype == dtype):
        return rule(lib, mode, specs, plans, scales, x)
    raise TypeError(f"{lib.title} {mode}: integer ({x.dtype}) input is not modelled for this library and mode; "
                    "convert with x.astype(np.float32) (uint8 rounding is modelled for Pillow, OpenCV and "
                    "PyTorch)")


# ------------------------------------------------------------------------------------------------ public API
def library_resize(x, size=None, library=None, mode=None, axes=None, scale_factor=None, **options):
    """Resize ``x`` the way ``library`` does with ``mode`` and the library's own ``options``.

    ``size`` (or ``scale_factor``, where the library takes one) gives the resized axes' lengths; ``axes``
    defaults to the last ``len(size)`` axes, so channels can sit anywhere (NCHW, HWC).  Output lengths from a
    scale factor follow the library (PyTorch/ONNX floor, OpenCV cvRound, Burn truncation) and so does the scale
    the kernel steps by.  float32/float64 keep their dtype; uint8 follows the library's integer rounding
    (Pillow, PyTorch, OpenCV INTER_LINEAR/INTER_LANCZOS4/growing INTER_AREA bit-exact; OpenCV INTER_CUBIC and
    shrinking INTER_AREA within 1 LSB); TensorFlow and JAX return float32 for integer input (as they do); other
    combinations raise TypeError.  For Pillow and OpenCV the last of ``axes`` is the image width.

    >>> import numpy as np
    >>> x = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    >>> library_resize(x, (2, 3), library="pillow", mode="BILINEAR").tolist()
    [[36, 60, 84], [136, 160, 184]]
    """
    lib, native, opts = resolve(library, mode, options)
    x = _as_array(x, "x")
    if lib.id == "torch":
        return _torch_call(x, size, axes, scale_factor, native, opts)
    spec, specs, plans, scales = _plans(lib, native, opts, x.shape, size, axes, scale_factor)
    if x.dtype.kind in "iub":
        return _integer_forward(lib, native, spec, specs, plans, scales, x)
    if x.dtype.kind != "f":
        raise TypeError(f"cannot resize an array of dtype {x.dtype}; use float32 or float64")
    pass_order = getattr(lib, "pass_order", None)
    if pass_order is not None:  # the order matters for rounding: resize axis by axis in the library's order
        out = x
        for k in pass_order([(p.n, p.m) for _, p in plans]):
            out = _run(out, [plans[k]], specs[k], transpose=False, out=None)
        return out
    return _run(x, plans, spec, transpose=False, out=None)


def _transpose(grad, input_shape, size, lib, native, opts, axes, scale_factor):
    grad = _as_array(grad, "grad")
    if grad.dtype.kind != "f":
        raise TypeError(f"grad must be a floating point array, got {grad.dtype}")
    input_shape = tuple(int(s) for s in input_shape)
    if len(input_shape) != grad.ndim:
        raise ValueError(f"grad has {grad.ndim} dimensions but input_shape {input_shape} has {len(input_shape)}")
    if lib.id == "torch":
        return _torch_call(grad, size, axes, scale_factor, native, opts, backward_shape=input_shape)
    spec, _, plans, _ = _plans(lib, native, opts, input_shape, size, axes, scale_factor)
    return run_backward(grad, input_shape, plans, spec, what=f"{lib.id} {native}")


def library_resize_backward(grad, input_shape, size=None, library=None, mode=None, axes=None, scale_factor=None,
                            **options):
    """The gradient the library's autodiff returns for :func:`library_resize` (``W^T grad``).

    Raises :class:`NoGradientError` (a NotImplementedError) naming the library when it has no gradient for
    the mode (OpenCV, Pillow, TensorFlow ``area``, ONNX Runtime on CPU, some Burn backends).

    >>> import numpy as np
    >>> g = np.ones((2, 3))
    >>> library_resize_backward(g, (3, 4), (2, 3), library="jax", mode="linear").sum().round(6)
    np.float64(6.0)
    """
    lib, native, opts = resolve(library, mode, options)
    reason = lib.gradient_error(native, opts)
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

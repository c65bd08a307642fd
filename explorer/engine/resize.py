"""Resize any axes of any array under one :class:`~explorer.engine.spec.Spec`, forward and backward.

>>> import numpy as np
>>> from explorer.engine import Spec
>>> resize(np.zeros((37, 53, 3), np.float32), (74, 20), Spec("cubic"), axes=(0, 1)).shape
(74, 20, 3)
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError
from .execute import execute, work_itemsize
from .memory import check_memory
from .plan import AxisPlan, axis_plan, plan_nbytes
from .spec import Spec


def axis_plans(shape, size, spec: Spec, axes=None, scale_factor=None, itemsize: int = 8,
               direction: str = "forward", dtype=None) -> list[tuple[int, AxisPlan]]:
    """``(axis, plan)`` for every resized axis of an array of ``shape`` (and ``dtype``, for arithmetic rows
    that compute in the array's precision); the memory the call will need is checked first (the result, the
    intermediate and the plans' weights, before any plan is built)."""
    if not isinstance(spec, Spec):
        raise ArgumentTypeError(f"spec must be an explorer.Spec, got {type(spec).__name__}")
    size = validate.lengths(size)
    axes = validate.axes(len(shape), len(size), axes)
    scales = [None if f is None else validate.positive_number(f, "scale_factor", "positive finite numbers")
              for f in validate.per_axis(scale_factor, len(axes), "scale_factor")]
    for axis in axes:
        if shape[axis] < 1:
            raise ArgumentValueError(f"cannot resize axis {axis} of length {shape[axis]}: it is empty")
    backward = direction == "backward"
    def plan_bytes():
        return sum(plan_nbytes(shape[axis] + sum(spec.pads_for(k)), m, spec, f, spec.roi_for(k),
                               transpose=backward)
                   for k, (axis, m, f) in enumerate(zip(axes, size, scales)))

    if backward:
        resized = list(shape)
        for axis, m in zip(axes, size):
            resized[axis] = m
        check_memory(resized, {axis: shape[axis] for axis in axes}, itemsize, "gradient", plan_bytes)
    else:
        check_memory(shape, dict(zip(axes, size)), itemsize, "output", plan_bytes)
    return [(axis, axis_plan(shape[axis], m, spec, f, axis_index=k, dtype=dtype, direction=direction))
            for k, (axis, m, f) in enumerate(zip(axes, size, scales))]


def check_gradient(grad: np.ndarray, input_shape, plans, what: str):
    """Raise unless ``grad`` has the shape the plans map ``input_shape`` to."""
    expected = list(input_shape)
    for axis, plan in plans:
        expected[axis] = plan.m
    if tuple(expected) != grad.shape:
        raise ArgumentValueError(f"grad has shape {grad.shape} but {what} maps {tuple(input_shape)} to "
                                 f"{tuple(expected)}")


def resize(x, size, spec: Spec | None = None, axes=None, scale_factor=None, out=None) -> np.ndarray:
    """Resize the given axes of ``x`` under ``spec``.

    ``size`` gives the output length of each resized axis; ``axes`` defaults to the last ``len(size)``
    axes.  ``scale_factor`` (one number or one per axis) makes the kernel's step ``1/scale_factor`` instead
    of ``n/m`` (PyTorch ``scale_factor``, ONNX ``scales``); it does not change the output size.

    >>> import numpy as np
    >>> from explorer.engine import Spec
    >>> resize(np.arange(4.0), (8,), Spec("linear")).tolist()
    [0.0, 0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.0]
    """
    spec = spec if spec is not None else Spec()
    x = validate.array(x, "x")
    plans = axis_plans(x.shape, size, spec, axes, scale_factor, work_itemsize(x.dtype), dtype=x.dtype)
    return execute(x, plans, out=out, extrapolation_value=spec.extrapolation_value)


def resize_backward(grad, input_shape, size, spec: Spec | None = None, axes=None, scale_factor=None,
                    out=None) -> np.ndarray:
    """The gradient of ``sum(resize(x, size, spec, axes) * grad)`` with respect to ``x``: ``W.T @ grad``.

    >>> import numpy as np
    >>> from explorer.engine import Spec
    >>> g = np.ones((1, 8))
    >>> spec = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    >>> resize_backward(g, (1, 4), (8,), spec).tolist()
    [[2.0, 2.0, 2.0, 2.0]]
    """
    spec = spec if spec is not None else Spec()
    grad = validate.array(grad, "grad")
    input_shape = validate.shape(input_shape, grad.ndim, "input_shape", "grad")
    plans = axis_plans(input_shape, size, spec, axes, scale_factor, work_itemsize(grad.dtype), direction="backward",
                       dtype=grad.dtype)
    check_gradient(grad, input_shape, plans, f"resizing to size {validate.lengths(size)}")
    return execute(grad, plans, transpose=True, out=out)

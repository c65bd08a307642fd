"""Argument checks shared by every entry point.

Each check returns the normalised value or raises one of :mod:`explorer.errors` naming the argument, the
value and what is allowed.  PyTorch's own messages for ``F.interpolate`` stay in
:mod:`explorer.conventions.libraries.pytorch` (they are part of the contract it reproduces); everything else checks here.

>>> lengths(7), lengths((3, 4)), axes(3, 2, None), per_axis(0.5, 2, "scale_factor")
((7,), (3, 4), (1, 2), (0.5, 0.5))
>>> positive_number(0, "scale")
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: scale=0 is not valid; give a positive finite number
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .errors import ArgumentTypeError, ArgumentValueError


def is_integer(value) -> bool:
    """An int or numpy integer, but not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_number(value) -> bool:
    """A real number (int, float, numpy scalar), but not a bool."""
    return isinstance(value, (numbers.Real, np.floating, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_bfloat16(dtype) -> bool:
    """The ``bfloat16`` dtype of ``ml_dtypes`` (kind ``'V'`` to numpy).  An array of it exists only where
    ml_dtypes is installed, so nothing here imports it: the dtype always comes from the caller's array.

    >>> is_bfloat16(np.float16)
    False
    """
    return np.dtype(dtype).name == "bfloat16"


def is_float(dtype) -> bool:
    """A floating-point dtype: numpy's float16/32/64 (and longdouble) or ml_dtypes' bfloat16."""
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or is_bfloat16(dtype)


def is_reduced_float(dtype) -> bool:
    """A 2-byte float (float16 or bfloat16): the libraries compute it in float32 and round to it.

    >>> is_reduced_float(np.float16), is_reduced_float(np.float32)
    (True, False)
    """
    return is_float(dtype) and np.dtype(dtype).itemsize == 2


def array(x, name: str) -> np.ndarray:
    """``x`` as a numeric numpy array (no copy when it already is one); bfloat16 arrays are kept as they are."""
    if not isinstance(x, np.ndarray):
        if isinstance(x, (str, bytes)):
            raise ArgumentTypeError(f"{name} must be an array, got {type(x).__name__} {x!r:.40}")
        try:
            x = np.asarray(x)
        except Exception as exc:  # noqa: BLE001 - report what the user passed
            raise ArgumentTypeError(f"{name} must be an array, got {type(x).__name__}: {exc}") from None
    if x.dtype.kind not in "biufc" and not is_bfloat16(x.dtype):
        raise ArgumentTypeError(f"{name} must be a numeric array, got an array of dtype {x.dtype}")
    return x


def positive_number(value, name: str, hint: str = "a positive finite number") -> float:
    """A finite number above zero (a scale factor), as a float."""
    if not is_number(value):
        raise ArgumentTypeError(f"{name}={value!r} is not valid; give {hint}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or number <= 0:
        raise ArgumentValueError(f"{name}={value!r} is not valid; give {hint}")
    return number


def length(value, name: str) -> int:
    """An axis length: an integer of at least 1."""
    if not is_integer(value):
        raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    if value < 1:
        raise ArgumentValueError(f"{name} must be at least 1, got {value}")
    return int(value)


def lengths(size, name: str = "size", minimum: int = 1) -> tuple[int, ...]:
    """Output lengths: one integer or a sequence of integers, each at least ``minimum``.

    >>> lengths([3, 0], "output_size", minimum=0)
    (3, 0)
    """
    if is_integer(size):
        size = (size,)
    elif isinstance(size, np.ndarray) and size.ndim == 0 and size.dtype.kind in "iu":
        size = (int(size),)
    if isinstance(size, (str, bytes)):
        raise ArgumentTypeError(f"{name} must be an int or a sequence of ints, got {size!r}")
    try:
        size = tuple(size)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an int or a sequence of ints, got {size!r}") from None
    for s in size:
        if not is_integer(s):
            raise ArgumentTypeError(f"{name} must contain integers, got {size!r}")
        if s < minimum:
            what = "positive" if minimum == 1 else f"at least {minimum}"
            raise ArgumentValueError(f"{name} must be {what}, got {size!r}")
    return tuple(int(s) for s in size)


def axes(ndim: int, count: int, given) -> tuple[int, ...]:
    """``count`` distinct axes of an ``ndim``-dimensional array (default: the last ``count``)."""
    if given is None:
        if count > ndim:
            raise ArgumentValueError(f"size has {count} entries but the array has only {ndim} dimensions")
        return tuple(range(ndim - count, ndim))
    if is_integer(given):
        given = (given,)
    try:
        given = tuple(given)
    except TypeError:
        raise ArgumentTypeError(f"axes must be an int or a sequence of ints, got {given!r}") from None
    if len(given) != count:
        raise ArgumentValueError(f"axes={given} and size must have the same length ({count})")
    out = []
    for a in given:
        if not is_integer(a) or not -ndim <= a < ndim:
            raise ArgumentValueError(f"axes entry {a!r} is out of range for an array with {ndim} dimensions")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ArgumentValueError(f"axes={given} repeats an axis")
    return tuple(out)


def shape(value, ndim: int, name: str = "input_shape", array_name: str = "grad") -> tuple[int, ...]:
    """A shape given by the caller: ``ndim`` non-negative integers (the dimensions of ``array_name``)."""
    if isinstance(value, (str, bytes)) or is_integer(value):
        raise ArgumentTypeError(f"{name} must be a sequence of ints, got {value!r}")
    try:
        items = tuple(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a sequence of ints, got {value!r}") from None
    if not all(is_integer(s) and s >= 0 for s in items):
        raise ArgumentTypeError(f"{name} must be a sequence of non-negative ints, got {value!r}")
    if len(items) != ndim:
        raise ArgumentValueError(f"{array_name} has {ndim} dimensions but {name} {items} has {len(items)}")
    return tuple(int(s) for s in items)


def per_axis(value, count: int, name: str) -> tuple:
    """One value for every axis (a scalar repeated) or a sequence of ``count`` values."""
    if value is None or is_number(value):
        return (value,) * count
    if isinstance(value, (str, bytes)):
        raise ArgumentTypeError(f"{name} must be a number or a sequence of numbers, got {value!r}")
    try:
        value = tuple(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a number or a sequence of numbers, got {value!r}") from None
    if len(value) != count:
        raise ArgumentValueError(f"{name} has {len(value)} entries but {count} axes are resized")
    return value


def scale_factors(value, count: int, name: str = "scale_factor") -> list[float]:
    """Positive finite factors, one per resized axis."""
    return [positive_number(f, name, "positive finite numbers") for f in per_axis(value, count, name)]


def flag(value, name: str) -> bool:
    """True or False (numpy booleans and 0/1 integers accepted)."""
    if isinstance(value, (bool, np.bool_)) or (is_integer(value) and value in (0, 1)):
        return bool(value)
    raise ArgumentTypeError(f"{name} must be True or False, got {value!r}")


def image_size(size) -> tuple[int, int]:
    """An output size (height, width) of positive integers; one integer means a square.

    >>> image_size(16), image_size((20, 30))
    ((16, 16), (20, 30))
    """
    message = f"size={size!r} is not valid; give (height, width) as two positive integers"
    if is_integer(size):
        size = (size, size)
    if isinstance(size, (str, bytes)):
        raise ArgumentValueError(message)
    try:
        items = tuple(size)
    except TypeError:
        raise ArgumentValueError(message) from None
    if len(items) != 2 or not all(is_integer(v) and v >= 1 for v in items):
        raise ArgumentValueError(message)
    return (int(items[0]), int(items[1]))


def image_scale(scale) -> float:
    """A positive finite scale factor for an image (output / input).

    >>> image_scale(0)
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentValueError: scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7
    """
    hint = "a positive finite number (output / input), e.g. 0.5 or 1.7"
    if not is_number(scale):
        raise ArgumentValueError(f"scale={scale!r} is not valid; give {hint}")
    return positive_number(scale, "scale", hint)

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

from .errors import ArgumentTypeError, ArgumentValueError, OutputTooLargeError, brief
from .limits import MAX_AXIS_LENGTH


_TOO_LONG = (f"more than explorer.limits.MAX_AXIS_LENGTH = 2**48 samples (one such axis of float32 values is "
             f"{4 * MAX_AXIS_LENGTH // 2**30} GiB)")


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
    """``x`` as a numeric numpy array (no copy when it already is one; bfloat16 arrays are kept as they are).  A
    masked array is refused (its mask would be ignored); an array in the other byte order is read in the
    machine's (the same values)."""
    if isinstance(x, np.ma.MaskedArray):
        raise ArgumentTypeError(f"{name} is a masked array: its mask would be ignored; give {name}.filled(value) "
                                "(or np.asarray of it) to say what the masked values are")
    if not isinstance(x, np.ndarray):
        if isinstance(x, (str, bytes)):
            raise ArgumentTypeError(f"{name} must be an array, got {type(x).__name__} {x!r:.40}")
        try:
            x = np.asarray(x)
        except Exception as exc:  # noqa: BLE001 - report what the user passed
            raise ArgumentTypeError(f"{name} must be an array, got {type(x).__name__}: {exc}") from None
    if x.dtype.kind not in "biufc" and not is_bfloat16(x.dtype):
        raise ArgumentTypeError(f"{name} must be a numeric array, got an array of dtype {x.dtype}")
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
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
    """An axis length: an integer from 1 to :data:`~explorer.limits.MAX_AXIS_LENGTH`."""
    if not is_integer(value):
        raise ArgumentTypeError(f"{name} must be an integer, got {brief(value)}")
    if value < 1:
        raise ArgumentValueError(f"{name} must be at least 1, got {brief(value)}")
    if value > MAX_AXIS_LENGTH:
        raise OutputTooLargeError(f"{name}={brief(value)} is too long for any axis: {_TOO_LONG}")
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
        raise ArgumentTypeError(f"{name} must be an int or a sequence of ints, got {brief(size)}")
    unordered(size, name, "the lengths")
    try:
        size = tuple(size)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an int or a sequence of ints, got {brief(size)}") from None
    for s in size:
        if not is_integer(s):
            raise ArgumentTypeError(f"{name} must contain integers, got {brief(size)}")
        if s < minimum:
            what = "positive" if minimum == 1 else f"at least {minimum}"
            raise ArgumentValueError(f"{name} must be {what}, got {brief(size)}")
        if s > MAX_AXIS_LENGTH:
            raise OutputTooLargeError(f"{name}={brief(size)} holds a length too long for any axis: {_TOO_LONG}")
    return tuple(int(s) for s in size)


def axes(ndim: int, count: int, given) -> tuple[int, ...]:
    """``count`` distinct axes of an ``ndim``-dimensional array (default: the last ``count``)."""
    if given is None:
        if count > ndim:
            raise ArgumentValueError(f"size has {count} entries but the array has only {ndim} dimensions")
        return tuple(range(ndim - count, ndim))
    if is_integer(given):
        given = (given,)
    unordered(given, "axes", "the axes")
    try:
        given = tuple(given)
    except TypeError:
        raise ArgumentTypeError(f"axes must be an int or a sequence of ints, got {brief(given)}") from None
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
        raise ArgumentTypeError(f"{name} must be a number or a sequence of numbers, got {brief(value)}")
    unordered(value, name, "one value per axis")
    try:
        value = tuple(value)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be a number or a sequence of numbers, got {brief(value)}") from None
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


# ---------------------------------------------------------------------------------------------- strict checks
# The advisor's questions (check, suggest_fixes, scan, lint, pick) come from code, command lines, configuration
# files and the explorer's page: a string "false" or a NaN is a mistake to report, never a truthy value.

#: Longest version text accepted (a release such as "0.22.0-pre.2+cu124" is far shorter).
MAX_VERSION_CHARS = 64
#: Most spatial axes a scale factor may be given for (the advisor's spatial_dims are 1 to 4).
MAX_SPATIAL_DIMS = 4


def strict_bool(value, name: str, allow_none: bool = False):
    """True or False exactly (a numpy bool too); None when ``allow_none``.  Strings ("false", "no"), numbers and
    NaN are refused: ``bool("false")`` is True.

    >>> strict_bool(False, "training"), strict_bool(None, "align_corners", allow_none=True)
    (False, None)
    >>> strict_bool("false", "training")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentTypeError: training='false' is not valid; give True or False
    """
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    allowed = "True, False or None" if allow_none else "True or False"
    raise ArgumentTypeError(f"{name}={brief(value)} is not valid; give {allowed}")


def finite_number(value, name: str, minimum: float | None = None, maximum: float | None = None,
                  hint: str = "") -> float:
    """A real number (not a bool, not NaN, not infinite) from ``minimum`` to ``maximum`` (inclusive), as a float.

    >>> finite_number(0.5, "scale", minimum=0)
    0.5
    >>> finite_number(float("nan"), "scale")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentValueError: scale=nan is not valid; give a finite number
    """
    bounds = ("" if minimum is None and maximum is None else f" from {minimum} to {maximum}" if
              minimum is not None and maximum is not None else f" of at least {minimum}" if minimum is not None
              else f" of at most {maximum}")
    text = hint or f"a finite number{bounds}"
    if not is_number(value):
        raise ArgumentTypeError(f"{name}={brief(value)} is not valid; give {text}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number) or (minimum is not None and number < minimum) or \
            (maximum is not None and number > maximum):
        raise ArgumentValueError(f"{name}={brief(value)} is not valid; give {text}")
    return number


def integer(value, name: str, minimum: int | None = None, maximum: int | None = None, hint: str = "") -> int:
    """An int (numpy integers too, not a bool) from ``minimum`` to ``maximum`` inclusive."""
    text = hint or ("an integer" + ("" if minimum is None else f" of at least {minimum}") +
                    ("" if maximum is None else f" and at most {maximum}"))
    if not is_integer(value):
        raise ArgumentTypeError(f"{name}={brief(value)} is not valid; give {text}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ArgumentValueError(f"{name}={brief(value)} is not valid; give {text}")
    return int(value)


def opset(value, name: str = "opset", minimum: int = 1, hint: str = "") -> int:
    """An ONNX opset: an integer from ``minimum`` to :data:`~explorer.limits.MAX_OPSET`.

    >>> opset(18)
    18
    >>> opset(10**100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentValueError: opset=1000...000 is not valid; give an ONNX opset from 1 to 1000, e.g. 18
    """
    from .limits import MAX_OPSET

    return integer(value, name, minimum, MAX_OPSET, hint or f"an ONNX opset from {minimum} to {MAX_OPSET}, e.g. 18")


def version_text(value, name: str = "version") -> str:
    """A release written as text ('2.5.1', '0.22.0-pre.2'), stripped, at most :data:`MAX_VERSION_CHARS` long
    (only its form is checked here; :func:`explorer.versions.parse_version` reads it)."""
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a string such as '0.22.0-pre.1', got {brief(value)}")
    text = value.strip()
    if not text or len(text) > MAX_VERSION_CHARS:
        raise ArgumentValueError(f"{name}={brief(value)} is not a version number; write it like '2.13.0', '0.21' or "
                                 f"'0.22.0-pre.1' (at most {MAX_VERSION_CHARS} characters)")
    return text


def scale_factor_given(value, name: str = "scale_factor", spatial_dims: int | None = None):
    """Whether a call passes a scale factor: None (not said), True or False, or the factor itself (a positive
    finite number, or one per spatial axis) which means True.

    >>> scale_factor_given(None), scale_factor_given(False), scale_factor_given(1.5), scale_factor_given((2, 2))
    (None, False, True, True)
    >>> scale_factor_given("abc")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentTypeError: scale_factor='abc' is not valid; give True, False, None or the factor (a positive finite number, or one per spatial axis)
    """
    hint = "True, False, None or the factor (a positive finite number, or one per spatial axis)"
    if value is None or isinstance(value, (bool, np.bool_)):
        return None if value is None else bool(value)
    if is_number(value):
        positive_number(value, name, hint)
        return True
    if isinstance(value, (list, tuple, np.ndarray)):
        items = list(np.asarray(value, dtype=object).reshape(-1)) if isinstance(value, np.ndarray) else list(value)
        most = MAX_SPATIAL_DIMS if spatial_dims is None else spatial_dims
        if not items or len(items) > most or (spatial_dims is not None and len(items) not in (1, spatial_dims)):
            raise ArgumentValueError(f"{name}={brief(value)} has {len(items)} entries; give one factor or one per "
                                     f"spatial axis ({most})")
        for item in items:
            positive_number(item, name, hint)
        return True
    raise ArgumentTypeError(f"{name}={brief(value)} is not valid; give {hint}")


def unordered(value, name: str, what: str = "the values") -> None:
    """Refuse a set or a dict (or a view of one) where an ordered sequence belongs: its order is not the caller's.

    >>> unordered({2, 3}, "size", "the lengths")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentTypeError: size={2, 3} is not valid; give the lengths in order (a tuple or a list; a set has no order)
    """
    if isinstance(value, (set, frozenset, dict, type({}.keys()), type({}.values()), type({}.items()))):
        raise ArgumentTypeError(f"{name}={brief(value)} is not valid; give {what} in order (a tuple or a list; a "
                                f"{type(value).__name__} has no order)")

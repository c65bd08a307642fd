"""The immutable description of a resize convention, in the ONNX ``Resize`` vocabulary.

A :class:`Spec` is data: hashable, comparable, printable.  Library presets are rows of ``Spec`` values;
``plan.py`` turns a spec into per-axis weights and nothing else ever branches on a library.

>>> Spec(kernel="cubic", cubic_coeff_a=-0.5, exclude_outside=True)
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from ..limits import MAX_CUBIC_COEFF_A, MAX_PADS
from .coords import ARITHMETIC, BOUNDARIES, ROUNDING, TRANSFORMS
from .kernels import KERNEL_NAMES


@dataclass(frozen=True)
class Spec:
    """A resize convention for one or more axes.

    Attributes
    ----------
    kernel : one of ``explorer.engine.kernels.KERNEL_NAMES`` ("nearest", "linear", "cubic", "lanczos3", "area", ...)
    coordinate_transformation_mode : where output samples land (``explorer.engine.coords.TRANSFORMS``)
    nearest_mode : how a coordinate is rounded to an index when ``kernel == "nearest"``
    cubic_coeff_a : the Keys parameter ``a`` of the "cubic" kernel
    exclude_outside : drop taps outside the input and renormalise (True) or clamp them to the border (False)
    antialias : stretch the kernel by ``max(step, 1)`` when downsampling
    extrapolation_value : the output value where a ``tf_crop_and_resize`` coordinate leaves the input
    roi : ``(start, end)`` in normalised coordinates for ``tf_crop_and_resize``; one pair for every axis, or a
          tuple of pairs, one per resized axis
    boundary : how taps past the border are read (``explorer.engine.coords.BOUNDARIES``: scipy.ndimage's modes);
          None: ``exclude_outside`` decides.  Computed by the ``ndimage`` arithmetic row
    prefilter : B-spline kernels: the samples are first turned into spline coefficients (scipy.ndimage's
          ``spline_filter``), which makes the spline interpolate; computed by the ``ndimage`` arithmetic row
    index_arithmetic : the precision of coordinate arithmetic (``explorer.engine.coords.ARITHMETIC``); it decides
          which index ``nearest`` picks at exact ties, and a row with a native builder (``explorer.engine.native``)
          builds the weights in that code's own float arithmetic, where they may depend on the array's dtype
    pads : ``(begin, end)`` zero samples added before and after the input before it is resampled (OpenVINO's
          Interpolate ``pads_begin`` / ``pads_end``); one pair for every axis, or a tuple of pairs, one per resized
          axis.  The padded axis is resampled (its scale is ``m / (n + begin + end)``) and the weights that fall
          on the zeros are dropped, so the map stays linear in the input
    """

    kernel: str = "linear"
    coordinate_transformation_mode: str = "half_pixel"
    nearest_mode: str = "round_prefer_floor"
    cubic_coeff_a: float = -0.75
    exclude_outside: bool = False
    antialias: bool = False
    extrapolation_value: float = 0.0
    roi: tuple | None = None
    index_arithmetic: str = "float64"
    pads: tuple | None = None
    boundary: str | None = None
    prefilter: bool = False

    def __post_init__(self):
        if self.kernel not in KERNEL_NAMES:
            raise choice_error("kernel", self.kernel, KERNEL_NAMES)
        if self.coordinate_transformation_mode not in TRANSFORMS:
            raise choice_error("coordinate_transformation_mode", self.coordinate_transformation_mode,
                               TRANSFORMS)
        if self.nearest_mode not in ROUNDING:
            raise choice_error("nearest_mode", self.nearest_mode, ROUNDING)
        if self.index_arithmetic not in ARITHMETIC:
            raise choice_error("index_arithmetic", self.index_arithmetic, ARITHMETIC)
        if self.boundary is not None and self.boundary not in BOUNDARIES:
            raise choice_error("boundary", self.boundary, BOUNDARIES)
        if (self.boundary is not None or self.prefilter) and self.index_arithmetic != "ndimage":
            raise ArgumentValueError(f"boundary={self.boundary!r} and prefilter={self.prefilter!r} are computed by "
                                     "the 'ndimage' arithmetic row: give index_arithmetic='ndimage'")
        for name in ("exclude_outside", "antialias", "prefilter"):
            object.__setattr__(self, name, validate.flag(getattr(self, name), name))
        for name in ("cubic_coeff_a", "extrapolation_value"):
            value = getattr(self, name)
            if not validate.is_number(value):
                raise ArgumentTypeError(f"{name} must be a number, got {value!r}")
            object.__setattr__(self, name, float(value))
        a = self.cubic_coeff_a
        if not math.isfinite(a) or abs(a) > MAX_CUBIC_COEFF_A:
            raise ArgumentValueError(f"cubic_coeff_a={a!r} is not valid; give a finite number between "
                                     f"{-MAX_CUBIC_COEFF_A:g} and {MAX_CUBIC_COEFF_A:g} (the libraries use -0.75 "
                                     "and -0.5; far beyond, the weights lose their precision)")
        if self.roi is not None:
            object.__setattr__(self, "roi", _normalise_roi(self.roi))
        if self.pads is not None:
            object.__setattr__(self, "pads", _normalise_pads(self.pads))

    def replace(self, **changes) -> "Spec":
        """A copy with some fields changed: ``spec.replace(antialias=True)``."""
        return replace(self, **changes)

    def roi_for(self, axis_index: int):
        """The ``(start, end)`` pair of the ``axis_index``-th resized axis (None when there is no roi)."""
        if self.roi is None:
            return None
        if isinstance(self.roi[0], tuple):
            if axis_index >= len(self.roi):
                raise ArgumentValueError(f"roi has {len(self.roi)} (start, end) pairs but axis {axis_index} "
                                 "is resized; give one pair per resized axis or a single pair")
            return self.roi[axis_index]
        return self.roi

    def pads_for(self, axis_index: int) -> tuple[int, int]:
        """The ``(begin, end)`` padding of the ``axis_index``-th resized axis (``(0, 0)`` without pads)."""
        if self.pads is None:
            return (0, 0)
        if isinstance(self.pads[0], tuple):
            if axis_index >= len(self.pads):
                raise ArgumentValueError(f"pads has {len(self.pads)} (begin, end) pairs but axis {axis_index} "
                                         "is resized; give one pair per resized axis or a single pair")
            return self.pads[axis_index]
        return self.pads

    def __repr__(self):
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "kernel" or value != f.default:
                shown.append(f"{f.name}={value!r}")
        return "Spec(" + ", ".join(shown) + ")"

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _pairs(value, message: str, is_item) -> tuple[list[tuple], bool]:
    """``value`` as a list of 2-tuples whose items pass ``is_item`` (one pair, or a sequence of pairs), and
    whether it was one pair; anything else raises ``message``."""
    if isinstance(value, (str, bytes)):
        raise ArgumentTypeError(message)
    try:
        items = tuple(value)
    except TypeError:
        raise ArgumentTypeError(message) from None
    if len(items) == 2 and all(is_item(v) for v in items):
        return [items], True
    if not items:
        raise ArgumentValueError(message)
    pairs = []
    for pair in items:
        if isinstance(pair, (str, bytes)):
            raise ArgumentTypeError(message)
        try:
            pair = tuple(pair)
        except TypeError:
            raise ArgumentTypeError(message) from None
        if len(pair) != 2 or not all(is_item(v) for v in pair):
            raise ArgumentTypeError(message)
        pairs.append(pair)
    return pairs, False


def _normalise_roi(roi):
    """``(start, end)`` or a tuple of such pairs, as floats; anything else raises naming what was given."""
    message = f"roi={roi!r} is not valid; give a (start, end) pair of finite numbers or a tuple of such pairs"
    pairs, single = _pairs(roi, message, validate.is_number)
    out = tuple(_pair(pair, message) for pair in pairs)
    return out[0] if single else out


def _pair(pair, message) -> tuple[float, float]:
    start, end = float(pair[0]), float(pair[1])
    if not (math.isfinite(start) and math.isfinite(end)):
        raise ArgumentValueError(message)
    return (start, end)


def _normalise_pads(pads):
    """``(begin, end)`` or a tuple of such pairs, as non-negative ints; ``(0, 0)`` everywhere is None."""
    message = (f"pads={pads!r} is not valid; give a (begin, end) pair of non-negative integers or a tuple of "
               "such pairs, one per resized axis")
    pairs, single = _pairs(pads, message, validate.is_integer)
    out = []
    for pair in pairs:
        begin, end = int(pair[0]), int(pair[1])
        if begin < 0 or end < 0 or begin > MAX_PADS or end > MAX_PADS:
            raise ArgumentValueError(message.replace("is not valid", f"is not valid (each at most {MAX_PADS})"))
        out.append((begin, end))
    if all(p == (0, 0) for p in out):
        return None
    return out[0] if single else tuple(out)

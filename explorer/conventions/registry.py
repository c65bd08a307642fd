"""The registry of libraries and the base class every library fills in.

A library is a table of modes, each producing a :class:`~explorer.engine.spec.Spec` from the library's own
options, plus the rules a Spec cannot hold.  Every rule is a hook declared here with its default, so adding
a library means filling in this class, nothing else:

============================  =============================================================================
hook                          decides
============================  =============================================================================
``spec(mode, options)``       the Spec of a mode (the nominal convention, what :func:`preset` returns)
``validate(mode, options)``   option combinations the library rejects
``resized_axes``              which axes a call resizes when ``axes`` is not given
``output_length``             the output length of an axis from a scale factor (none: the library takes sizes)
``policy_lengths``            output lengths the library derives from the requested ones (ONNX aspect policy)
``validate_call(call)``       what the library rejects once shapes and dtype are known (rank, empty sizes)
``output_is_empty(call)``     an output length of 0 gives an empty array, not an error (ONNX Runtime)
``call_spec(call)``           the Spec for this call (when shapes, dtype or direction change it)
``kernel_scales(call)``       the scale factor each axis's kernel steps by (None: the lengths ``n/m``)
``axis_specs(call, ...)``     one Spec per axis (per-axis adjustments)
``adjust_plans(call, ...)``   plans the library's kernels compute differently from their Spec (quirks)
``pass_order(call)``          the order the library resizes axes in, when it rounds between passes
``resize_integer``            how integer arrays are resized by an interpolating mode
``gradient_error``            why the library has no gradient for a mode or dtype (None: it has one)
============================  =============================================================================

A :class:`Call` carries what the hooks read: the library, mode, options, shapes, dtype and direction.

>>> lib = library("cv2")
>>> lib.id, lib.mode("inter_cubic")
('opencv', 'INTER_CUBIC')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..engine.spec import Spec
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from .mode_names import LIBRARY_MODES, library_id, library_mode, spelling_key

_MISSING = object()


@dataclass(frozen=True)
class Option:
    """One keyword option of a library, in the library's own name.

    ``modes`` lists the modes the option applies to (None: every mode); ``required`` maps a mode to the only
    value it accepts (PyTorch's ``lanczos`` requires ``antialias=True``).
    """

    name: str
    default: object
    choices: tuple | None = None  # the accepted values, or None for any value `check` accepts
    help: str = ""
    modes: tuple | None = None
    required: dict = field(default_factory=dict)

    def check(self, value, library: str, mode: str):
        if self.choices is not None and value not in self.choices:
            raise choice_error(self.name, value, [str(c) for c in self.choices],
                               context=f"for {library} {mode}")
        return value

    def applies_to(self, mode: str) -> bool:
        return self.modes is None or mode in self.modes


class Preset(NamedTuple):
    """One row of :func:`explorer.presets`: a library mode with options, and the Spec it computes."""

    library: str
    mode: str
    options: dict
    spec: Spec
    description: str


@dataclass(frozen=True)
class Call:
    """One resize call as a library sees it, after its own size rules: what the hooks read.

    ``lengths`` holds ``(n, m)`` for every resized axis; ``factors`` the user's scale factor of each axis
    (None when the output size was given); ``direction`` is ``"forward"`` or ``"backward"``.
    """

    library: "Library"
    mode: str
    options: dict
    shape: tuple          # the input's shape
    dtype: np.dtype       # the input's (forward) or the gradient's (backward) dtype
    axes: tuple
    lengths: tuple
    factors: tuple
    direction: str = "forward"
    size_given: bool = True

    @property
    def output_shape(self) -> tuple:
        shape = list(self.shape)
        for axis, (_, m) in zip(self.axes, self.lengths):
            shape[axis] = m
        return tuple(shape)


class Library:
    """Base of every library's rules.  Subclasses fill in the tables and override the hooks that differ."""

    id: str = ""
    title: str = ""
    options: tuple[Option, ...] = ()
    # options users try that the preset does not model: name -> why
    unsupported: dict[str, str] = {}
    # extra mode spellings (spelling_key -> native name) beyond explorer.conventions.mode_names
    aliases: dict[str, str] = {}
    # modes whose backward the library computes (None: every mode), and the reason when it has none
    gradient_modes: tuple[str, ...] | None = None
    no_gradient: str = ""
    # integer arrays: a nearest gather keeps the dtype (else resize_integer decides)
    nearest_keeps_dtype: bool = True
    # how an image explorer passes a scale: "size" (the common floor(n * scale), so every library's output has
    # the same shape) or "scale_factor" (the library's own scale rules)
    image_scale: str = "size"

    # ------------------------------------------------------------------ modes and options
    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(LIBRARY_MODES[self.id])

    def mode(self, name: str) -> str:
        """The native name of a mode given in any spelling."""
        if isinstance(name, str) and spelling_key(name) in self.aliases:
            return self.aliases[spelling_key(name)]
        return library_mode(self.id, name)

    def option(self, name: str) -> Option | None:
        """The declared option called ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)

    def resolve_options(self, mode: str, given: dict) -> dict:
        """Defaults filled in and every value checked; unknown names raise listing the valid ones."""
        known = {o.name: o for o in self.options}
        for name in given:
            if name in self.unsupported:
                raise ArgumentValueError(f"{self.id} option {name}={given[name]!r} is not modelled: "
                                         f"{self.unsupported[name]}")
            if name not in known:
                raise choice_error("option", name, known, kind=ArgumentTypeError,
                                   context=f"for {self.id} {mode}")
        resolved = {}
        for name, option in known.items():
            value = given.get(name, _MISSING)
            resolved[name] = option.default if value is _MISSING else option.check(value, self.id, mode)
        self.validate(mode, resolved)
        return resolved

    def validate(self, mode: str, options: dict) -> None:
        """Reject option combinations the library rejects."""

    def spec(self, mode: str, options: dict) -> Spec:  # pragma: no cover - every library overrides
        raise NotImplementedError

    def rows(self) -> list[tuple[str, dict, str]]:
        """(mode, options, description) for every preset this library lists in :func:`explorer.presets`."""
        return [(mode, {}, "") for mode in self.modes]

    # ------------------------------------------------------------------ sizes
    def resized_axes(self, ndim: int) -> tuple[int, ...] | None:
        """The axes a call with one size or one scale factor resizes when ``axes`` is not given (None: the
        caller must say; a size then resizes the last axis)."""
        return None

    def output_length(self, n: int, factor: float, options: dict) -> int:
        """The output length of an axis of ``n`` samples scaled by ``factor`` (a library that takes only sizes
        keeps this default, which refuses)."""
        raise ArgumentValueError(f"{self.title} takes an output size, not a scale factor; pass size=")

    @property
    def takes_scale_factor(self) -> bool:
        """Whether the library turns a scale factor into an output size itself."""
        return type(self).output_length is not Library.output_length

    def policy_lengths(self, lengths: list, options: dict) -> tuple[list, list]:
        """``(lengths, factors)`` the library uses for requested ``(n, m)`` lengths (default: as requested)."""
        return lengths, [None] * len(lengths)

    def validate_call(self, call: Call) -> None:
        """Reject what the library rejects once shapes and dtype are known."""

    def output_is_empty(self, call: Call) -> bool:
        """Whether the call returns an empty array because an output length is 0 (default: never; such a
        length is an error, raised by :func:`explorer.library_resize` naming the axis)."""
        return False

    # ------------------------------------------------------------------ weights
    def call_spec(self, call: Call) -> Spec:
        """The Spec this call computes (default: the mode's :meth:`spec`)."""
        return self.spec(call.mode, call.options)

    def kernel_scales(self, call: Call) -> list:
        """The scale factor (output/input) each axis's kernel steps by, or None to use the lengths ``n/m``."""
        return [None] * len(call.lengths)

    def axis_specs(self, call: Call, spec: Spec, scales: list) -> list[Spec]:
        """One Spec per resized axis (override when an axis needs an adjustment)."""
        return [spec] * len(call.lengths)

    def adjust_plans(self, call: Call, plans: list) -> list:
        """The ``(axis, plan)`` list the library's kernels really compute (default: the plans as built)."""
        return plans

    def pass_order(self, call: Call) -> list[int] | None:
        """Indices into the resized axes in the order the library resizes them when that changes the result
        (rounding between passes); None lets the engine pick the fastest order."""
        return None

    # ------------------------------------------------------------------ dtypes and gradients
    def resize_integer(self, call: Call, x: np.ndarray, plans: list, specs: list) -> np.ndarray:
        """Resize an integer array with an interpolating mode (default: the library does not)."""
        raise ArgumentTypeError(
            f"{self.title} {call.mode}: integer ({x.dtype}) input is not modelled for this library and mode; "
            "convert with x.astype(np.float32) (uint8 rounding is modelled for Pillow, OpenCV and PyTorch)")

    def gradient_error(self, mode: str, options: dict, dtype=None) -> str | None:
        """Why the library has no gradient for this mode (and, when given, this dtype), or None when it has one."""
        if self.gradient_modes is None or mode in self.gradient_modes:
            return None
        return self.no_gradient or f"{self.title} has no gradient for {mode!r}"


_LIBRARIES: dict[str, Library] = {}


def register(lib: Library) -> Library:
    _LIBRARIES[lib.id] = lib
    return lib


def library(name: str) -> Library:
    """The rules of a library, from any of its names ('PyTorch', 'cv2', 'tf')."""
    return _LIBRARIES[library_id(name)]


def all_libraries() -> list[Library]:
    return list(_LIBRARIES.values())


def resolve(library_name: str, mode: str, options: dict) -> tuple[Library, str, dict]:
    """(library rules, native mode name, options with defaults) for a call; every bad value raises naming it."""
    if library_name is None:
        raise choice_error("library", None, list(_LIBRARIES), kind=ArgumentTypeError)
    lib = library(library_name)
    if mode is None:
        raise choice_error("mode", None, lib.modes, kind=ArgumentTypeError, context=f"for {lib.id}")
    native = lib.mode(mode)
    return lib, native, lib.resolve_options(native, options)

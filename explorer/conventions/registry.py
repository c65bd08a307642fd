"""The registry of declarations and the base class every library fills in.

A library is declared once, in one module of :mod:`explorer.conventions.libraries`: a table of modes, each
producing a :class:`~explorer.engine.spec.Spec` from the library's own options, the rules a Spec cannot hold,
and everything else the package says about it.  Every table the package reads is derived from the registered
declarations (:func:`derived` caches one until the next :func:`register`):

============================  =============================================================================
declared                      read by
============================  =============================================================================
``id``, ``title``, ``aliases`` every function taking a library name ('PyTorch', 'cv2', 'tf')
``mode_names``                mode spellings and families (:mod:`.mode_names`), presets, the explorer
``options``, ``unsupported``  :func:`explorer.preset`, :func:`explorer.library_resize`
``closest``, ``toggle_*``,    a port from PyTorch: each library's own call (:mod:`.native_call`)
``shown``, ``exclusive``
``code(mode, options, h, w)`` the explorer's Libraries tab and the advisor's code
``apis``, ``constants``,      the linter's API tables (:mod:`explorer.advisor.lint.apis`)
``codes``
``order``                     where the library is listed
============================  =============================================================================

The rules are hooks, each with its default here:

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
``finish(call, x, y)``        what the library does to a forward result after resampling (scikit-image's clip)
``resize_reduced``,           how float16 and bfloat16 arrays are resized (forward) and their gradients
``transpose_reduced``         computed (None: in float32, rounded once at the end, as most kernels do)
``gradient_error``            why the library has no gradient for a mode or dtype (None: it has one)
============================  =============================================================================

A runtime (:class:`~explorer.conventions.declarations.Runtime`) is registered the same way.

A :class:`Request` carries what the hooks read: the library, mode, options, shapes, dtype and direction.

>>> lib = library("cv2")
>>> lib.id, lib.mode("inter_cubic")
('opencv', 'INTER_CUBIC')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..engine.spec import Spec
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from .declarations import Api, Closest, Option, Runtime
from .mode_names import library_mode, spelling_key

_MISSING = object()

__all__ = ["Api", "Closest", "Option", "Runtime"]




class Preset(NamedTuple):
    """One row of :func:`explorer.presets`: a library mode with options, and the Spec it computes."""

    library: str
    mode: str
    options: dict
    spec: Spec
    description: str


@dataclass(frozen=True)
class Request:
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
    # other names of the library ('PyTorch', 'cv2', 'PIL'), matched case-, space-, '-' and '_'-insensitively
    aliases: tuple[str, ...] = ()
    # the library's own mode names -> the mode family each computes (explorer.conventions.mode_names.FAMILIES)
    mode_names: dict[str, str] = {}
    # extra mode spellings (spelling_key -> native name) beyond the native names and the generic ones
    mode_aliases: dict[str, str] = {}
    # where the library appears in listings (lower first)
    order: int = 100
    options: tuple[Option, ...] = ()
    # options users try that the preset does not model: name -> why
    unsupported: dict[str, str] = {}
    # modes whose backward the library computes (None: every mode), and the reason when it has none
    gradient_modes: tuple[str, ...] | None = None
    no_gradient: str = ""
    # integer arrays: a nearest gather keeps the dtype (else resize_integer decides)
    nearest_keeps_dtype: bool = True
    # the float dtypes whose arithmetic is modelled (others raise naming them); bfloat16 only where measured
    float_dtypes: tuple[str, ...] = ("float16", "float32", "float64")
    # how an image explorer passes a scale: "size" (the common floor(n * scale), so every library's output has
    # the same shape) or "scale_factor" (the library's own scale rules)
    image_scale: str = "size"

    # ------------------------------------------------------------------ a port from PyTorch (native_call)
    # PyTorch mode -> the closest call the library has, where it lacks the mode (or cannot run it at defaults)
    closest: dict[str, Closest] = {}
    # PyTorch toggle (align_corners, antialias) -> {value: the library's options for it}; a toggle not listed
    # has no such option here, and the value is left out
    toggle_options: dict[str, dict] = {}
    # (toggle, value) -> the note for a value given through another option, or that cannot be given
    toggle_notes: dict[tuple, str] = {}
    # options shown (and written in code) besides those a call sets -> the mode families they matter for
    # (None: every family)
    shown: dict[str, tuple | None] = {}
    # option -> (another option, value) with which the option does not exist (TensorFlow 1 has no antialias)
    exclusive: dict[str, tuple] = {}

    # ------------------------------------------------------------------ the library's API (lint)
    apis: tuple[Api, ...] = ()
    # namespaces of mode constants -> {attribute: the mode name it stands for, in this library's spelling}
    constants: dict[str, dict] = {}
    # integer codes the library's mode arguments accept -> mode name
    codes: dict[int, str] = {}

    # ------------------------------------------------------------------ modes and options
    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(self.mode_names)

    def mode(self, name: str) -> str:
        """The native name of a mode given in any spelling."""
        if isinstance(name, str) and spelling_key(name) in self.mode_aliases:
            return self.mode_aliases[spelling_key(name)]
        return library_mode(self.id, name)

    def family(self, native: str) -> str:
        """The mode family of one of the library's own mode names."""
        return self.mode_names[native]

    def code(self, mode: str, options: dict, h: str, w: str) -> tuple[str, str]:
        """``(language, code)``: the library's own resize call for ``mode`` with its ``options`` (its own
        names) to an output of ``h`` x ``w`` (numbers or variable names), as a user pastes it."""
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", f"# {self.title}: {mode}{opts} to ({h}, {w})"

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

    def validate_call(self, call: Request) -> None:
        """Reject what the library rejects once shapes and dtype are known."""

    def output_is_empty(self, call: Request) -> bool:
        """Whether the call returns an empty array because an output length is 0 (default: never; such a
        length is an error, raised by :func:`explorer.library_resize` naming the axis)."""
        return False

    # ------------------------------------------------------------------ weights
    def call_spec(self, call: Request) -> Spec:
        """The Spec this call computes (default: the mode's :meth:`spec`)."""
        return self.spec(call.mode, call.options)

    def kernel_scales(self, call: Request) -> list:
        """The scale factor (output/input) each axis's kernel steps by, or None to use the lengths ``n/m``."""
        return [None] * len(call.lengths)

    def axis_specs(self, call: Request, spec: Spec, scales: list) -> list[Spec]:
        """One Spec per resized axis (override when an axis needs an adjustment)."""
        return [spec] * len(call.lengths)

    def adjust_plans(self, call: Request, plans: list) -> list:
        """The ``(axis, plan)`` list the library's kernels really compute (default: the plans as built)."""
        return plans

    def pass_order(self, call: Request) -> list[int] | None:
        """Indices into the resized axes in the order the library resizes them when that changes the result
        (rounding between passes); None lets the engine pick the fastest order."""
        return None

    # ------------------------------------------------------------------ dtypes and gradients
    def resize_integer(self, call: Request, x: np.ndarray, plans: list, specs: list) -> np.ndarray:
        """Resize an integer array with an interpolating mode (default: the library does not)."""
        raise ArgumentTypeError(
            f"{self.title} {call.mode}: integer ({x.dtype}) input is not modelled for this library and mode; "
            "convert with x.astype(np.float32) (uint8 rounding is modelled for Pillow, OpenCV and PyTorch)")

    def finish(self, call: Request, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The forward result ``y`` of input ``x`` as the library returns it (default: as resampled)."""
        return y

    def resize_reduced(self, call: Request, x: np.ndarray, plans: list, specs: list) -> np.ndarray | None:
        """Resize a float16 or bfloat16 array where the library's kernels round otherwise than once at the end
        (None: the engine's passes in float32, the result rounded to ``x.dtype``)."""
        return None

    def transpose_reduced(self, call: Request, grad: np.ndarray, plans: list) -> np.ndarray | None:
        """The gradient for a float16 or bfloat16 ``grad`` where the library accumulates otherwise than in
        float32 with one rounding at the end (None: that)."""
        return None

    def gradient_error(self, mode: str, options: dict, dtype=None) -> str | None:
        """Why the library has no gradient for this mode (and, when given, this dtype), or None when it has one."""
        if self.gradient_modes is None or mode in self.gradient_modes:
            return None
        return self.no_gradient or f"{self.title} has no gradient for {mode!r}"


_LIBRARIES: dict[str, Library] = {}
_RUNTIMES: dict[str, Runtime] = {}
_generation = [0]


def register(item):
    """Declare a :class:`Library` or a :class:`~explorer.conventions.declarations.Runtime` (returned, so a
    module writes ``LIBRARY = register(MyLibrary())``).  Every table derived from the declarations follows."""
    table = _LIBRARIES if isinstance(item, Library) else _RUNTIMES
    if not isinstance(item, (Library, Runtime)):
        raise ArgumentTypeError(f"register takes a Library or a Runtime, got {type(item).__name__}")
    if not isinstance(item.id, str) or not item.id or item.id != item.id.strip().lower():
        raise ArgumentValueError(f"a declaration's id must be a lower-case name such as 'torch', got {item.id!r}")
    table[item.id] = item
    _generation[0] += 1
    return item


def unregister(item_id: str) -> None:
    """Remove a declaration (a library, a runtime, or both with that id)."""
    _LIBRARIES.pop(item_id, None)
    _RUNTIMES.pop(item_id, None)
    _generation[0] += 1


def generation() -> int:
    """A number that changes whenever a declaration is added or removed (derived tables cache on it)."""
    return _generation[0]


def derived(function):
    """Cache a function of the declarations (no arguments) until the next :func:`register`."""
    cache = {}

    def wrapper():
        key = generation()
        if key not in cache:
            cache.clear()
            cache[key] = function()
        return cache[key]

    wrapper.__doc__, wrapper.__name__, wrapper.__wrapped__ = function.__doc__, function.__name__, function
    return wrapper


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


@derived
def library_names() -> dict[str, str]:
    """Every name of every library (its id and aliases, reduced by :func:`_key`) -> its id."""
    out = {}
    for lib in all_libraries():
        for name in (lib.id, *lib.aliases):
            out.setdefault(_key(name), lib.id)
    return out


def library_id(name: str) -> str:
    """Canonical library id: 'PyTorch' -> 'torch', 'cv2' -> 'opencv'."""
    if not isinstance(name, str):
        raise ArgumentTypeError(f"library must be a string, got {name!r}")
    found = library_names().get(_key(name))
    if found is None:
        raise choice_error("library", name, library_ids())
    return found


def library(name: str) -> Library:
    """The rules of a library, from any of its names ('PyTorch', 'cv2', 'tf')."""
    return _LIBRARIES[library_id(name)]


def all_libraries() -> list[Library]:
    """Every declared library, in listing order."""
    return sorted(_LIBRARIES.values(), key=lambda lib: (lib.order, lib.id))


def library_ids() -> tuple[str, ...]:
    return tuple(lib.id for lib in all_libraries())


def all_runtimes() -> list[Runtime]:
    """Every declared runtime, in listing order."""
    return sorted(_RUNTIMES.values(), key=lambda r: (r.order, r.id))


def runtime(runtime_id: str) -> Runtime:
    if runtime_id not in _RUNTIMES:
        raise choice_error("runtime", runtime_id, [r.id for r in all_runtimes()])
    return _RUNTIMES[runtime_id]


def resolve(library_name: str, mode: str, options: dict) -> tuple[Library, str, dict]:
    """(library rules, native mode name, options with defaults) for a call; every bad value raises naming it."""
    if library_name is None:
        raise choice_error("library", None, library_ids(), kind=ArgumentTypeError)
    lib = library(library_name)
    if mode is None:
        raise choice_error("mode", None, lib.modes, kind=ArgumentTypeError, context=f"for {lib.id}")
    native = lib.mode(mode)
    return lib, native, lib.resolve_options(native, options)

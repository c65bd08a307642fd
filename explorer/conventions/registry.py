"""The registry of library presets and the base every library module fills in.

A library is a table of modes, each producing a :class:`~explorer.engine.spec.Spec` from the library's own options,
plus the few rules a Spec cannot hold: how a scale factor becomes an output length, which scale the kernel
sees, per-axis adjustments, which dtypes it accepts and whether it has a gradient.

>>> lib = library("cv2")
>>> lib.id, lib.mode("inter_cubic")
('opencv', 'INTER_CUBIC')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..errors import choice_error
from .names import LIBRARY_MODES, library_id, library_mode, spelling_key
from ..engine.spec import Spec

_MISSING = object()


@dataclass(frozen=True)
class Option:
    """One keyword option of a library, in the library's own name."""

    name: str
    default: object
    choices: tuple | None = None  # the accepted values, or None for any value `check` accepts
    help: str = ""

    def check(self, value, library: str, mode: str):
        if self.choices is not None and value not in self.choices:
            raise choice_error(self.name, value, [str(c) for c in self.choices],
                               context=f"for {library} {mode}")
        return value


class Preset(NamedTuple):
    """One row of :func:`explorer.conventions`: a library mode with options, and the Spec it computes."""

    library: str
    mode: str
    options: dict
    spec: Spec
    description: str


class Library:
    """Base of every library's rules.  Subclasses fill in the tables and override what differs."""

    id: str = ""
    title: str = ""
    options: tuple[Option, ...] = ()
    # options users try that the preset does not model: name -> why
    unsupported: dict[str, str] = {}
    # extra mode spellings (spelling_key -> native name) beyond explorer.conventions.names
    aliases: dict[str, str] = {}
    # modes whose backward the library computes (None: every mode), and the reason when it has none
    gradient_modes: tuple[str, ...] | None = None
    no_gradient: str = ""
    # integer images: a nearest gather keeps the dtype; other modes follow a rule of
    # explorer.conventions.library_resize.INTEGER_RULES, or raise when the rule is "error"
    nearest_keeps_dtype: bool = True
    integer_rule: str = "error"

    # ------------------------------------------------------------------ modes and options
    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(LIBRARY_MODES[self.id])

    def mode(self, name: str) -> str:
        """The native name of a mode given in any spelling."""
        if isinstance(name, str) and spelling_key(name) in self.aliases:
            return self.aliases[spelling_key(name)]
        return library_mode(self.id, name)

    def resolve_options(self, mode: str, given: dict) -> dict:
        """Defaults filled in and every value checked; unknown names raise listing the valid ones."""
        known = {o.name: o for o in self.options}
        for name in given:
            if name in self.unsupported:
                raise ValueError(f"{self.id} option {name}={given[name]!r} is not modelled: "
                                 f"{self.unsupported[name]}")
            if name not in known:
                raise choice_error("option", name, known, kind=TypeError,
                                   context=f"for {self.id} {mode}")
        resolved = {}
        for name, option in known.items():
            value = given.get(name, _MISSING)
            resolved[name] = option.default if value is _MISSING else option.check(value, self.id, mode)
        self.validate(mode, resolved)
        return resolved

    def validate(self, mode: str, options: dict) -> None:
        """Reject option combinations the library rejects (override)."""

    def spec(self, mode: str, options: dict) -> Spec:  # pragma: no cover - every library overrides
        raise NotImplementedError

    def rows(self) -> list[tuple[str, dict, str]]:
        """(mode, options, description) for every preset this library lists in :func:`explorer.conventions`."""
        return [(mode, {}, "") for mode in self.modes]

    # ------------------------------------------------------------------ library-level rules
    def output_length(self, n: int, factor: float, options: dict) -> int:
        raise ValueError(f"{self.title} takes an output size, not a scale factor; pass size=")

    def kernel_scale(self, mode: str, n: int, m: int, factor: float | None, options: dict):
        """The scale factor (output/input) the kernel steps by, or None to use the lengths ``n/m``."""
        return None

    def kernel_scales(self, mode: str, lengths: list[tuple[int, int]], factors: list, options: dict) -> list:
        """:meth:`kernel_scale` for every resized axis (override when the axes depend on each other)."""
        return [self.kernel_scale(mode, n, m, f, options) for (n, m), f in zip(lengths, factors)]

    def axis_specs(self, spec: Spec, mode: str, lengths: list[tuple[int, int]], scales: list,
                   options: dict) -> list[Spec]:
        """One Spec per resized axis (override when an axis needs an adjustment)."""
        return [spec] * len(lengths)

    def gradient_error(self, mode: str, options: dict) -> str | None:
        """Why the library has no gradient for this mode, or None when it has one."""
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
        raise choice_error("library", None, list(_LIBRARIES), kind=TypeError)
    lib = library(library_name)
    if mode is None:
        raise choice_error("mode", None, lib.modes, kind=TypeError, context=f"for {lib.id}")
    native = lib.mode(mode)
    return lib, native, lib.resolve_options(native, options)

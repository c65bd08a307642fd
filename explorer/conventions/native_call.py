"""Each library's own call for a mode named the PyTorch way: at the library's defaults, or with PyTorch's
``align_corners`` and ``antialias`` carried over.  Where a library lacks the mode or the option, the closest
call it has, and a note that says so.

This is what a port meets: ``jax.image.resize`` antialiases by default, Burn aligns corners by default,
TensorFlow 2 has no ``align_corners`` (TensorFlow 1 has), OpenCV has no Lanczos-3.

>>> native_call("jax", "bilinear").mode, native_call("jax", "bilinear").options
('linear', {'antialias': True})
>>> native_call("jax", "bilinear", antialias=False, same_options=True).options
{'antialias': False}
>>> call = native_call("tensorflow", "bilinear", align_corners=True, same_options=True)
>>> call.options, call.notes[0][:48]
({'version': 1, 'align_corners': True}, "TensorFlow 2's tf.image.resize has no align_corn")
>>> call = native_call("opencv", "lanczos")
>>> call.mode, call.notes[0][:30]
('INTER_LANCZOS4', 'OpenCV has no Lanczos-3 filter')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields

from ..engine.spec import Spec
from ..errors import ArgumentValueError, choice_error
from .equivalence import weight_difference
from .image_resize import MODES
from .mode_names import library_id, mode_family
from .libraries.pytorch import ALIGN_CORNERS_MODES, ANTIALIAS_MODES
from .registry import library as library_rules
from .table import describe

TOGGLES = ("align_corners", "antialias")
#: The PyTorch modes each toggle applies to (PyTorch rejects the others; every library is given the same).
APPLIES = {"align_corners": ALIGN_CORNERS_MODES, "antialias": ANTIALIAS_MODES}
#: (PyTorch mode, toggle) -> the only value PyTorch computes it with: lanczos exists only antialiased and
#: half-pixel, so every library is asked for that.
FIXED = {("lanczos", "antialias"): True, ("lanczos", "align_corners"): False}


@dataclass(frozen=True)
class NativeCall:
    """A library's ``mode`` (its own name) and ``options`` (its own names, defaults included where they
    decide the result), the ``notes`` on what was changed or left out, and ``runs``: the (library, mode,
    options) whose preset computes it, when it is not this library's own (``Library.closest``).

    >>> native_call("burn", "area").computed_as
    ('torch', 'area', {})
    """

    library: str
    mode: str
    options: dict = field(default_factory=dict)
    notes: tuple = ()
    runs: tuple | None = None
    no_gradient: str = ""  # why there is no gradient, when ``runs`` computes one the library has not

    @property
    def computed_as(self) -> tuple:
        """``(library, mode, options)`` for :func:`explorer.library_resize`."""
        return self.runs if self.runs is not None else (self.library, self.mode, self.options)

    @property
    def spec(self) -> Spec:
        lib, mode, options = self.computed_as
        rules = library_rules(lib)
        native = rules.mode(mode)
        return rules.spec(native, rules.resolve_options(native, options))


def native_call(library: str, mode: str, *, align_corners: bool = False, antialias: bool = False,
                same_options: bool = False) -> NativeCall:
    """The call ``library`` makes for PyTorch's ``mode``: at the library's own defaults, or with
    ``same_options`` the given ``align_corners`` and ``antialias`` (where PyTorch's mode takes them)."""
    lib = library_id(library)
    if mode not in MODES:
        raise choice_error("mode", mode, MODES)
    rules = library_rules(lib)
    closest = rules.closest.get(mode)
    native = closest.mode if closest else rules.mode(mode)
    options, notes = dict(closest.options) if closest else {}, [closest.note] if closest else []
    for toggle, value in (("align_corners", bool(align_corners)), ("antialias", bool(antialias))):
        if (mode, toggle) in FIXED:
            value = FIXED[(mode, toggle)]
        elif mode not in APPLIES[toggle]:
            if value and lib == "torch":
                notes.append(f"{toggle} does not apply to PyTorch's {mode}; left out for every library")
            continue
        note = rules.toggle_notes.get((toggle, value))
        wanted = rules.toggle_options.get(toggle, {}).get(value)
        if wanted is not None and not (closest and closest.runs):
            wanted = {k: v for k, v in wanted.items() if rules.option(k).applies_to(native)}
        else:  # no such option (or another library's preset computes it): say so
            wanted, notes = None, notes + ([note] if note else [])
        if not wanted:
            continue
        if same_options:
            options, notes = _apply(rules, native, options, wanted, toggle, value, notes, note)
        else:
            notes += _not_applied(rules, native, options, wanted, toggle, value)
    if closest and closest.runs:
        return NativeCall(lib, native, options, tuple(notes), closest.runs, closest.no_gradient)
    options = _forced(rules, native, options, notes)
    return NativeCall(lib, native, _shown(lib, rules, native, options), tuple(notes))


def _apply(rules, native, options, wanted, toggle, value, notes, note):
    """``options`` with ``wanted`` merged in, unless the library rejects the combination (then a note)."""
    merged = {**options, **wanted}
    try:
        rules.resolve_options(native, merged)
    except ArgumentValueError as exc:
        return options, notes + [f"{toggle}={value} left out: {exc}"]
    return merged, notes + ([note] if note else [])


def _not_applied(rules, native, options, wanted, toggle, value):
    """At the library's defaults: a note when ``toggle=value`` would have changed an option."""
    try:
        defaults = rules.resolve_options(native, options)
    except ArgumentValueError:
        return []
    changed = [k for k, v in wanted.items() if k not in options and not _same(defaults.get(k), v)]
    if not changed:
        return []
    key = toggle if toggle in changed else changed[0]
    return [f"{toggle}={value} is not applied: {_name(rules)} runs at its default ({key}={defaults[key]!r})"]


def _same(a, b) -> bool:
    """Option values that mean the same (PyTorch's align_corners=None is False; ONNX flags are 0/1)."""
    off = (None, False, 0)
    return a == b or (a in off and b in off)


def _forced(rules, native, options, notes):
    """Options a mode requires whatever was asked (PyTorch's lanczos is always antialiased)."""
    for option in rules.options:
        required = option.required.get(native)
        if required is not None and options.get(option.name, option.default) != required:
            notes.append(f"{_name(rules)}'s {native} requires {option.name}={required}; shown with it")
            options = {**options, option.name: required}
    return options


def _shown(lib, rules, native, options) -> dict:
    """The options the call sets, plus the defaults that decide this mode (:data:`SHOWN`), resolved."""
    resolved = rules.resolve_options(native, options)
    family = mode_family(lib, native)
    shown = {k: resolved[k] for k in options}
    for name, families in rules.shown.items():
        if (families is None or family in families) and resolved.get(name) is not None:
            shown.setdefault(name, resolved[name])
    for name, (other, value) in rules.exclusive.items():
        if shown.get(other) == value:
            shown.pop(name, None)
    return shown


def _name(rules) -> str:
    return rules.title.split()[0]


def difference_note(call: NativeCall, reference: NativeCall, lengths) -> str | None:
    """How ``call`` computes otherwise than ``reference`` for the ``(n, m)`` axis ``lengths``, in a sentence;
    None when both give the same weights there.

    >>> difference_note(native_call("jax", "bilinear"), native_call("torch", "bilinear"), [(8, 4)])
    "JAX 'linear': linear, antialias, renormalised border; PyTorch 'bilinear': linear, clamped border"
    >>> difference_note(native_call("tensorflow", "bilinear"), native_call("torch", "bilinear"), [(8, 4)]) is None
    True
    """
    a, b = call.spec, reference.spec
    gap = max(weight_difference(a, b, int(n), int(m)) for n, m in lengths)
    if gap <= 1e-5:  # the tolerance of explorer.equivalent
        return None
    name, ref_name = _name(library_rules(call.library)), _name(library_rules(reference.library))
    what_a, what_b = describe(a), describe(b)
    if what_a == what_b:  # the same rule in words: name the fields that differ
        fields = [f.name for f in dataclass_fields(Spec) if getattr(a, f.name) != getattr(b, f.name)]
        return (f"{name} {call.mode!r} is {ref_name}'s {reference.mode!r} computed with "
                + ", ".join(f"{k}={getattr(a, k)!r}" for k in fields)
                + f" (not {', '.join(repr(getattr(b, k)) for k in fields)}): weights differ by up to {gap:.0e}")
    return f"{name} {call.mode!r}: {what_a}; {ref_name} {reference.mode!r}: {what_b}"

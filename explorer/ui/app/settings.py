"""The settings every tab may read, declared once (default, check, widget), and the check and widget makers
the tabs declare their own settings with.

Checks take ``(state, value, changes)`` and return the normalised value or raise a ValueError that names the
key, the value and the valid choices; widget makers take ``(value, state)`` and import ipywidgets only when a
widget is made, so the state is validated without a widget library.

>>> from explorer.ui.app.state import State
>>> choice(("a", "b"), "letter")(State(), "c", {})
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: letter='c' is not valid; choose one of: 'a', 'b'
"""

from __future__ import annotations

import math
import os

import numpy as np

from ...conventions.image_resize import MODES, check_scale, check_size
from ...conventions.mode_names import libraries
from ... import validate
from ...errors import ArgumentValueError, brief, choice_error
from ...images import TEST_IMAGES
from ..defaults import DEFAULT_CROP
from .declared import Setting, share, tab_names

SCALE_RANGE = (0.05, 4.0)  # the slider's range; app.set accepts any positive scale
STYLE = {"description_width": "initial"}
LATEST, DEFAULT = "latest", "default"  # the version and device widgets' words for None


# ---------------------------------------------------------------------------------------------- checks
def choice(choices, name):
    """A check: one of ``choices`` (a tuple, or a function giving it when the check runs)."""
    def check(state, value, changes):
        options = choices() if callable(choices) else choices
        if not isinstance(value, str) or value not in options:
            raise choice_error(name, value, options)
        return value
    return check


def subset(choices, name, allow_empty=False):
    """A check: a list of distinct items of ``choices`` (a string is a list of one)."""
    def check(state, value, changes):
        options = choices() if callable(choices) else choices
        if isinstance(value, str):
            value = (value,)
        try:
            items = tuple(value)
        except TypeError:
            raise ArgumentValueError(f"{name}={value!r} is not valid; give a list of: "
                                     + ", ".join(repr(c) for c in options)) from None
        if not items and not allow_empty:
            raise ArgumentValueError(f"{name}=() is not valid; choose at least one of: "
                                     + ", ".join(repr(c) for c in options))
        for item in items:
            if not isinstance(item, str) or item not in options:
                raise choice_error(name, item, options)
        return tuple(dict.fromkeys(items))
    return check


def flag(name):
    """A check: True or False."""
    def check(state, value, changes):
        if not isinstance(value, (bool, np.bool_)):
            raise ArgumentValueError(f"{name}={value!r} is not valid; choose one of: False, True")
        return bool(value)
    return check


def fractions(name):
    """A check: (top, left, bottom, right) as fractions of the image."""
    def check(state, value, changes):
        try:
            top, left, bottom, right = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ArgumentValueError(f"{name}={value!r} is not valid; give (top, left, bottom, right) as fractions "
                                     "of the image, e.g. (0.25, 0.25, 0.75, 0.75)") from None
        if not (0 <= top < bottom <= 1 and 0 <= left < right <= 1):
            raise ArgumentValueError(f"{name}={value!r} is not valid; need 0 <= top < bottom <= 1 and "
                                     "0 <= left < right <= 1")
        return (top, left, bottom, right)
    return check


def int_range(name, lo, hi, allow_none=False):
    """A check: an integer from ``lo`` to ``hi`` (or None)."""
    def check(state, value, changes):
        if value is None and allow_none:
            return None
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
            raise ArgumentValueError(f"{name}={value!r} is not valid; give an integer from {lo} to {hi}")
        return int(value)
    return check


def is_image_file(value) -> bool:
    """An image given as a file: its bytes, a path object, or a string naming a file (not a test image)."""
    if isinstance(value, (bytes, bytearray, memoryview)) or hasattr(value, "__fspath__"):
        return True
    return isinstance(value, str) and value not in TEST_IMAGES and os.path.isfile(value)


def _image(state, value, changes):
    from ...images import as_image, load_image

    if isinstance(value, str) and value in TEST_IMAGES:
        return value
    if is_image_file(value):
        return load_image(value)
    if isinstance(value, str):
        raise choice_error("image", value, TEST_IMAGES,
                           context="(a built-in test image or an image file; or pass an array or bytes)")
    return as_image(value)


def _scale(state, value, changes):
    return None if value is None else check_scale(value)


def _size(state, value, changes):
    return None if value is None else check_size(value)


# ---------------------------------------------------------------------------------------------- widgets
def dropdown(options, label, width="220px"):
    """A widget maker: a dropdown of ``options`` (a list, or a function of the state giving it)."""
    def make(value, state):
        import ipywidgets as W

        items = options(state) if callable(options) else options
        return W.Dropdown(options=items, value=value, description=label, style=STYLE, layout=W.Layout(width=width))
    return make


def multi(options, label, width="560px"):
    """A widget maker: a choice of several ``options``, one toggle button each (a plain click adds or
    removes one; see :mod:`explorer.ui.app.toggle_list`)."""
    def make(value, state):
        import ipywidgets as W

        from .toggle_list import ToggleList

        items = options(state) if callable(options) else options
        return ToggleList(items, tuple(value or ()), label, layout=W.Layout(max_width=width, flex_flow="row"))
    return make


def checkbox(label):
    def make(value, state):
        import ipywidgets as W

        return W.Checkbox(value=value, description=label, indent=False, layout=W.Layout(width="auto"))
    return make


def tags(options, label):
    """A widget maker: tags chosen among ``options`` (shown with ``label`` before them)."""
    def make(value, state):
        import ipywidgets as W

        items = options(state) if callable(options) else options
        return W.TagsInput(value=list(value or ()), allowed_tags=list(items), allow_duplicates=False, tooltip=label,
                           layout=W.Layout(width="420px"))
    return make


def toggle(options, label):
    def make(value, state):
        import ipywidgets as W

        return W.ToggleButtons(options=options, value=value, description=label, style=STYLE)
    return make


def int_slider(label, lo, hi):
    def make(value, state):
        import ipywidgets as W

        return W.IntSlider(value=value, min=lo, max=hi, description=label, continuous_update=True, style=STYLE)
    return make


def _scale_slider(value, state):
    import ipywidgets as W

    lo, hi = SCALE_RANGE
    return W.FloatLogSlider(value=value or 1.0, base=10, min=math.log10(lo), max=math.log10(hi), step=0.002,
                            description="scale", readout=False, continuous_update=True, style=STYLE,
                            layout=W.Layout(width="300px"))


def size_text(value) -> str:
    return "" if value is None else f"{value[0]}×{value[1]}"


def parse_size(text):
    """A typed size: ``HxW``, ``H×W``, ``H, W`` or one number for a square; empty: no size (the scale)."""
    import re

    text = (text or "").strip()
    if not text:
        return None
    parts = [p for p in re.split(r"\s*[x×X,*]\s*|\s+", text) if p]
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise ArgumentValueError(f"size={brief(text)} is not valid; type height × width, e.g. 64×48 (or one number "
                                 "for a square), or leave it empty to use the scale") from None
    if len(numbers) == 1:
        numbers = numbers * 2
    if len(numbers) != 2:
        raise ArgumentValueError(f"size={brief(text)} is not valid; type height × width, e.g. 64×48")
    return tuple(numbers)


def _size_box(value, state):
    import ipywidgets as W

    return W.Text(value=size_text(value), placeholder="height × width, e.g. 64×48", description="size",
                  continuous_update=False, style=STYLE, layout=W.Layout(width="auto", min_width="16em"))


def backend_ids(state) -> tuple:
    return tuple(state.backends) or ("torch",)


def none_as(word):
    """(to_widget, from_widget) showing None as ``word`` in a widget."""
    return (lambda v: word if v is None else v), (lambda v: None if v == word else v)


_TUPLE = dict(to_widget=lambda v: tuple(v or ()), from_widget=tuple)


share(
    Setting("tab", "modes", choice(tab_names, "tab")),
    Setting("image", "photo", _image, dropdown(list(TEST_IMAGES), "image")),
    Setting("mode", "bilinear", choice(MODES, "mode"), dropdown(MODES, "mode")),
    Setting("modes", ("nearest", "bilinear", "bicubic"), subset(MODES, "modes"), multi(MODES, "compare"), **_TUPLE),
    # on the photo: aliasing on Modes; dead rows, dead pixels and uneven coverage on Gradients
    Setting("scale", 0.4, _scale, _scale_slider),
    Setting("size", None, _size, _size_box, size_text, parse_size),
    Setting("align_corners", False, flag("align_corners"), checkbox("align_corners")),
    Setting("antialias", False, flag("antialias"), checkbox("antialias")),
    Setting("library", "torch", choice(libraries, "library"), dropdown(lambda state: libraries(), "convention")),
    Setting("training", True, flag("training"), checkbox("training")),
    Setting("crop", DEFAULT_CROP, fractions("crop")),
)


# ---------------------------------------------------------------------------------------------- backends
def backend_check(state, value, changes):
    table = state.backends
    if not isinstance(value, str) or value not in table:
        raise choice_error("backend", value, table)
    return value


def _backend_of(state, changes):
    return changes.get("backend", state["backend"])


def version_check(state, value, changes):
    """Any release the knowledge base checked, kept as the first release of its era (same answers)."""
    if value is None:
        return None
    entry = state.backends.get(_backend_of(state, changes))
    versions = entry[0] if entry else ()
    value = str(value).strip()
    try:
        era = entry[3].era_of(value) if entry else None
    except ValueError:
        era = None
    if era is None:
        raise choice_error("version", value, versions or ("None",),
                           context=f"for backend {_backend_of(state, changes)!r} (a release from "
                                   f"{versions[0] if versions else '-'} on)")
    return era


def opset_check(state, value, changes):
    """An opset of at least the backend's first known one; a later one is answered as the newest known opset
    at or below it (an opset past :data:`~explorer.limits.MAX_OPSET` is refused, not taken as the newest)."""
    if value is None:
        return None
    entry = state.backends.get(_backend_of(state, changes))
    opsets = entry[2] if entry else ()
    if validate.is_integer(value) and opsets and value >= opsets[0]:
        value = validate.opset(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not opsets or value < opsets[0]:
        raise choice_error("opset", value, [str(o) for o in opsets] or ["None"],
                           context=f"for backend {_backend_of(state, changes)!r}")
    return max(o for o in opsets if o <= value)


def device_check(state, value, changes):
    if value is None:
        return None
    devices = state.backends.get(_backend_of(state, changes), ((), ()))[1]
    if value not in devices:
        raise choice_error("device", value, devices or ("None",),
                           context=f"for backend {_backend_of(state, changes)!r}")
    return value


def backend_list(name):
    """A check: a list of backend ids."""
    def check(state, value, changes):
        return subset(backend_ids(state), name)(state, value, changes)
    return check

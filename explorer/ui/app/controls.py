"""The explorer's widgets, one :class:`Control` per state key, and how values cross between them.

The controls are data: :data:`SPECS` says, for each key, which widget shows it and with what label; a few
keys need their own conversion (the size text, the crop sliders, None as "latest" / "default").  Every
control carries the CSS class ``explorer-<key>`` (underscores become dashes) so browser tests can find it.

>>> from explorer.ui.app.state import State
>>> controls = build_controls(State())
>>> controls["scale_text"].widget.value, controls["size"].widget.value, controls["resize_by"].widget.value
(0.4, '', 'scale')
>>> parse_size("64x48"), parse_size("64×48"), parse_size(" 32 "), parse_size("")
((64, 48), (64, 48), (32, 32), None)
>>> "explorer-align-corners" in controls["align_corners"].widget._dom_classes
True
"""

from __future__ import annotations

import math
import re

import ipywidgets as W

from ...advisor.pick import CONTENTS, PRIORITIES
from ...conventions.image_resize import MODES
from ...conventions.mode_names import LIBRARIES
from ...errors import ArgumentValueError, brief
from ...images import TEST_IMAGES
from ...limits import APP_MAX_LENGTH
from ..defaults import UPSTREAMS
from .state import SCALE_RANGE

LATEST, DEFAULT = "latest", "default"  # the version and device widgets' words for None
_STYLE = {"description_width": "initial"}


class Control:
    """A widget bound to one state key; ``to_widget`` / ``from_widget`` convert values."""

    def __init__(self, key, widget, to_widget=None, from_widget=None, css=None, view=None):
        self.key = key
        self.widget = widget
        self.view = view or widget  # what the layout places: the widget, or a box holding it and its label
        self.to_widget = to_widget or (lambda v: v)
        self.from_widget = from_widget or (lambda v: v)
        widget.add_class(css_class(css or key))

    def disable(self, reason: str = ""):
        """Grey the control out with ``reason`` as its tooltip ('' enables it again)."""
        self.widget.disabled = bool(reason)
        self.widget.tooltip = reason or None


def css_class(key: str) -> str:
    return "explorer-" + key.replace("_", "-")


def size_text(value) -> str:
    return "" if value is None else f"{value[0]}×{value[1]}"


def parse_size(text):
    """A typed size: ``HxW``, ``H×W``, ``H, W`` or one number for a square; empty: no size (the scale)."""
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


def crop_centre(axis):
    def to_widget(crop):
        return round((crop[axis] + crop[axis + 2]) / 2, 4)
    return to_widget


def crop_from_centre(crop, axis: int, centre: float):
    """``crop`` moved so that its centre along ``axis`` (0: y, 1: x) is ``centre``, kept inside [0, 1].

    >>> crop_from_centre((0.4, 0.4, 0.6, 0.6), 1, 0.95)
    (0.4, 0.8, 0.6, 1.0)
    """
    crop = list(crop)
    half = (crop[axis + 2] - crop[axis]) / 2
    c = min(max(float(centre), half), 1 - half)
    crop[axis], crop[axis + 2] = round(c - half, 6), round(c + half, 6)
    return tuple(crop)


def _dropdown(options, label, width="220px"):
    return lambda value: W.Dropdown(options=options, value=value, description=label, style=_STYLE,
                                    layout=W.Layout(width=width))


def _multi(options, label, width="240px"):
    return lambda value: W.SelectMultiple(options=options, value=tuple(value or ()), rows=len(options),
                                          description=label, style=_STYLE, layout=W.Layout(width=width))


def _check(label):
    return lambda value: W.Checkbox(value=value, description=label, indent=False, layout=W.Layout(width="auto"))


def _tags(options, label):
    def make(value):
        return W.TagsInput(value=list(value or ()), allowed_tags=list(options), allow_duplicates=False,
                           tooltip=label, layout=W.Layout(width="420px"))
    return make


def _scale(value):
    lo, hi = SCALE_RANGE
    return W.FloatLogSlider(value=value or 1.0, base=10, min=math.log10(lo), max=math.log10(hi), step=0.002,
                            description="scale", readout=False, continuous_update=True, style=_STYLE,
                            layout=W.Layout(width="300px"))


def _toggle(options, label):
    return lambda value: W.ToggleButtons(options=options, value=value, description=label, style=_STYLE)


def specs(backends) -> dict:
    """key -> (make the widget from the state's value, to_widget, from_widget): every control but the upload,
    the resize toggle and the crop sliders."""
    tuple_of = (lambda v: tuple(v or ()), tuple)
    none_as = lambda word: (lambda v: word if v is None else v, lambda v: None if v == word else v)
    return {
        "image": (_dropdown(list(TEST_IMAGES), "image"), None, None),
        "mode": (_dropdown(MODES, "mode"), None, None),
        "modes": (_multi(MODES, "compare"), *tuple_of),
        "reference": (_dropdown(MODES, "reference"), None, None),
        "scale": (_scale, None, None),
        "size": (lambda v: W.Text(value=size_text(v), placeholder="height × width, e.g. 64×48",
                                  description="size", continuous_update=False, style=_STYLE,
                                  layout=W.Layout(width="260px")), size_text, parse_size),
        "align_corners": (_check("align_corners"), None, None),
        "antialias": (_check("antialias"), None, None),
        "library": (_dropdown(LIBRARIES, "convention"), None, None),
        "libraries": (_multi(LIBRARIES, "libraries"), *tuple_of),
        "same_options": (_toggle([("each library's defaults", False), ("same options for all", True)],
                                 "options"), None, None),
        "backend": (_dropdown(backends, "backend"), None, None),
        "version": (lambda v: W.Dropdown(options=[LATEST], value=LATEST, description="version", style=_STYLE,
                                         layout=W.Layout(width="220px")), *none_as(LATEST)),
        "opset": (lambda v: W.Dropdown(options=[DEFAULT], value=DEFAULT, description="opset", style=_STYLE,
                                       layout=W.Layout(width="180px")), *none_as(DEFAULT)),
        "device": (lambda v: W.Dropdown(options=[DEFAULT], value=DEFAULT, description="device", style=_STYLE,
                                        layout=W.Layout(width="220px")), *none_as(DEFAULT)),
        "training": (_check("training"), None, None),
        "upstream": (_dropdown(list(UPSTREAMS), "upstream gradient", "300px"), None, None),
        "seed": (lambda v: W.BoundedIntText(value=v, min=0, max=2**31 - 1, description="seed", style=_STYLE,
                                            layout=W.Layout(width="180px")), None, None),
        "length": (lambda v: W.IntSlider(value=v, min=2, max=APP_MAX_LENGTH, description="samples",
                                         continuous_update=True, style=_STYLE), None, None),
        "sample": (lambda v: W.IntSlider(value=0, min=0, max=max(1, v or 1), description="output sample",
                                         continuous_update=True, style=_STYLE), None, None),
        "content": (_dropdown(list(CONTENTS), "content"), None, None),
        "priorities": (_multi(list(PRIORITIES), "matters (for this content)", "400px"), *tuple_of),
        "targets": (_tags(backends, "targets (where the model runs)"), *tuple_of),
        "frameworks": (_tags(backends, "code for"), *tuple_of),
    }


def build_controls(state) -> dict:
    """One Control per settable key, plus ``upload`` (files), ``resize_by`` (scale | size), ``scale_text`` (an
    exact scale, typed) and ``crop_x`` / ``crop_y`` (the zoom box's centre)."""
    backends = tuple(state.backends) or ("torch",)
    controls = {}
    for key, (make, to_widget, from_widget) in specs(backends).items():
        value = state[key]
        if key == "backend" and value not in backends:
            value = backends[0]
        widget = make(value)
        view = W.HBox([W.Label(widget.tooltip), widget]) if isinstance(widget, W.TagsInput) else None
        controls[key] = Control(key, widget, to_widget, from_widget, view=view)
    for axis, key, text in ((1, "crop_x", "zoom box x"), (0, "crop_y", "zoom box y")):
        slider = W.FloatSlider(value=crop_centre(axis)(state["crop"]), min=0.0, max=1.0, step=0.01,
                               description=text, continuous_update=True, style=_STYLE,
                               layout=W.Layout(width="300px"))
        controls[key] = Control("crop", slider, crop_centre(axis), css=key)
    typed = W.FloatText(value=state["scale"] or 1.0, continuous_update=False, layout=W.Layout(width="90px"),
                        tooltip="type an exact scale (output / input); the slider moves in steps")
    controls["scale_text"] = Control("scale", typed, css="scale-text")
    by = W.ToggleButtons(options=["scale", "size"], value="size" if state["size"] else "scale",
                         description="resize by", style=_STYLE, tooltip="resize by a scale factor, or to a size")
    controls["resize_by"] = Control("resize_by", by)
    upload = W.FileUpload(accept="image/*", multiple=False, description="upload")
    controls["upload"] = Control("upload", upload)
    return controls


CSS_CLASSES = {
    "root": "explorer-root",
    "controls": "explorer-controls (shared, on top), explorer-tab-controls (each tab's own)",
    "tabs": "explorer-tabs",
    "tab panels": "explorer-tab-<name> (modes, gradients, kernels, libraries, backends, pick)",
    "figures": "explorer-figure, plus explorer-figure-<tab name>",
    "message area": "explorer-message",
    "readout": "explorer-readout, explorer-busy-mark ('updating…')",
    "captions": "explorer-caption",
    "lessons": "explorer-scenario (dropdown), explorer-scenario-text (its explanation)",
    "controls by key": "explorer-<key> with dashes: explorer-image, explorer-upload, explorer-mode, "
                       "explorer-modes, explorer-reference, explorer-resize-by, explorer-scale, explorer-scale-text, "
                       "explorer-size, "
                       "explorer-align-corners, explorer-antialias, explorer-library, explorer-libraries, "
                       "explorer-same-options, explorer-backend, explorer-version, explorer-opset, explorer-device, "
                       "explorer-training, explorer-upstream, explorer-seed, explorer-crop-x, explorer-crop-y, "
                       "explorer-length, explorer-sample, explorer-content, explorer-priorities, "
                       "explorer-targets, explorer-frameworks",
    "export": "explorer-export-format, explorer-export-dpi, explorer-export-figure, explorer-export-config, "
              "explorer-export-code (buttons), explorer-export (the download link), explorer-export-text",
    "tab outputs": "explorer-metrics (libraries table), explorer-library-calls, explorer-findings (advisor "
                   "findings and fixes), explorer-fix-code, explorer-pick-why, explorer-pick-table, "
                   "explorer-pick-code",
}

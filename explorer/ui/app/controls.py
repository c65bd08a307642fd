"""The explorer's widgets, one :class:`Control` per state key, and how values cross between them.

Every control carries the CSS class ``explorer-<key>`` (underscores become dashes) so browser tests can find
it; :data:`CSS_CLASSES` lists them all.

>>> from explorer.ui.app.state import State
>>> controls = build_controls(State())
>>> controls["scale"].widget.value, controls["size"].widget.value
(0.5, '')
>>> controls["size"].from_widget("64x48"), controls["size"].from_widget("")
((64, 48), None)
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
from ...errors import ArgumentValueError
from ...images import TEST_IMAGES
from ...limits import APP_MAX_LENGTH
from ..defaults import UPSTREAMS
from .state import SCALE_RANGE

_NARROW = W.Layout(width="210px")
LATEST, DEFAULT = "latest", "default"  # the version and device widgets' words for None
_DESC = {"description_width": "70px"}


class Control:
    """A widget bound to one state key; ``to_widget``/``from_widget`` convert values."""

    def __init__(self, key, widget, to_widget=None, from_widget=None, names="value"):
        self.key = key
        self.widget = widget
        self.to_widget = to_widget or (lambda v: v)
        self.from_widget = from_widget or (lambda v: v)
        self.names = names
        widget.add_class(css_class(key))


def css_class(key: str) -> str:
    return "explorer-" + key.replace("_", "-")


def _size_text(value):
    return "" if value is None else f"{value[0]}x{value[1]}"


def _parse_size(text):
    text = (text or "").strip()
    if not text:
        return None
    parts = re.split(r"\s*[x×,*]\s*|\s+", text)
    try:
        numbers = [int(p) for p in parts if p]
    except ValueError:
        raise ArgumentValueError(f"size={text!r} is not valid; type height x width, e.g. 64x64 (or one number "
                         "for a square), or leave it empty to use the scale") from None
    if len(numbers) == 1:
        numbers = numbers * 2
    if len(numbers) != 2:
        raise ArgumentValueError(f"size={text!r} is not valid; type height x width, e.g. 64x64")
    return tuple(numbers)


def _crop_centre(axis):
    def to_widget(crop):
        return round((crop[axis] + crop[axis + 2]) / 2, 4)
    return to_widget


def build_controls(state) -> dict:
    """One Control per settable key (and ``upload`` for files)."""
    backends = tuple(state.backends) or ("torch",)
    c = {}

    def dropdown(key, options, description, **kw):
        c[key] = Control(key, W.Dropdown(options=options, value=kw.pop("value", state[key]),
                                         description=description, style=_DESC, layout=_NARROW), **kw)

    def multi(key, options, description, rows=6):
        c[key] = Control(key, W.SelectMultiple(options=options, value=tuple(state[key] or ()), rows=rows,
                                               description=description, style=_DESC,
                                               layout=W.Layout(width="210px")),
                         to_widget=lambda v: tuple(v or ()), from_widget=tuple)

    image_options = list(TEST_IMAGES) + (["custom"] if state["image"] == "custom" else [])
    dropdown("image", image_options, "image")
    dropdown("mode", MODES, "mode")
    multi("modes", MODES, "compare")
    dropdown("reference", MODES, "reference")
    lo, hi = SCALE_RANGE
    c["scale"] = Control("scale", W.FloatLogSlider(value=state["scale"] or 1.0, base=10, min=math.log10(lo),
                                                   max=math.log10(hi), step=0.002, description="scale",
                                                   readout_format=".3f", continuous_update=False,
                                                   style=_DESC, layout=W.Layout(width="330px")),
                         to_widget=lambda v: v)
    c["size"] = Control("size", W.Text(value=_size_text(state["size"]), placeholder="e.g. 64x64 (else scale)",
                                       description="size", continuous_update=False, style=_DESC,
                                       layout=_NARROW),
                        to_widget=_size_text, from_widget=_parse_size)
    for key, text in (("align_corners", "align_corners"), ("antialias", "antialias"), ("training", "training")):
        c[key] = Control(key, W.Checkbox(value=state[key], description=text, indent=False,
                                         layout=W.Layout(width="130px")))
    dropdown("library", LIBRARIES, "convention")
    multi("libraries", LIBRARIES, "libraries", rows=7)
    dropdown("backend", backends, "backend", value=state["backend"] if state["backend"] in backends else backends[0])
    # a Dropdown cannot show None as selected: "latest" / "default" stand for it
    c["version"] = Control("version", W.Dropdown(options=[LATEST], value=LATEST, description="version",
                                                 style=_DESC, layout=_NARROW),
                           to_widget=lambda v: LATEST if v is None else v,
                           from_widget=lambda v: None if v == LATEST else v)
    c["opset"] = Control("opset", W.Dropdown(options=[DEFAULT], value=DEFAULT, description="opset",
                                             style=_DESC, layout=_NARROW),
                         to_widget=lambda v: DEFAULT if v is None else v,
                         from_widget=lambda v: None if v == DEFAULT else v)
    c["device"] = Control("device", W.Dropdown(options=[DEFAULT], value=DEFAULT, description="device",
                                               style=_DESC, layout=_NARROW),
                          to_widget=lambda v: DEFAULT if v is None else v,
                          from_widget=lambda v: None if v == DEFAULT else v)
    dropdown("upstream", list(UPSTREAMS), "upstream")
    c["seed"] = Control("seed", W.BoundedIntText(value=state["seed"], min=0, max=2**31 - 1, description="seed",
                                                 style=_DESC, layout=W.Layout(width="180px")))
    for axis, key, text in ((1, "crop_x", "zoom x"), (0, "crop_y", "zoom y")):
        c[key] = Control(key, W.FloatSlider(value=_crop_centre(axis)(state["crop"]), min=0.0, max=1.0, step=0.01,
                                            description=text, continuous_update=False, style=_DESC,
                                            layout=W.Layout(width="260px")),
                         to_widget=_crop_centre(axis))
        c[key].key = "crop"
    c["length"] = Control("length", W.IntSlider(value=state["length"], min=2, max=APP_MAX_LENGTH,
                                                description="samples", continuous_update=False, style=_DESC))
    c["sample"] = Control("sample", W.IntSlider(value=0, min=0, max=max(1, state["length"]), description="output",
                                                continuous_update=False, style=_DESC))
    dropdown("content", list(CONTENTS), "content")
    multi("priorities", list(PRIORITIES), "matters")
    multi("targets", backends, "targets", rows=8)
    multi("frameworks", backends, "code for", rows=8)
    upload = W.FileUpload(accept="image/*", multiple=False, description="upload")
    upload.add_class("explorer-upload")
    c["upload"] = Control("upload", upload, names="value")
    c["upload"].key = "upload"
    return c


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


CSS_CLASSES = {
    "root": "explorer-root",
    "controls": "explorer-controls",
    "tabs": "explorer-tabs",
    "tab panels": "explorer-tab-<name> (modes, gradients, kernels, libraries, backends, pick)",
    "figures": "explorer-figure, plus explorer-figure-<tab name>",
    "message area": "explorer-message",
    "readout": "explorer-readout",
    "captions": "explorer-caption",
    "controls by key": "explorer-<key> with dashes: explorer-image, explorer-upload, explorer-mode, "
                       "explorer-modes, explorer-reference, explorer-scale, explorer-size, explorer-align-corners, "
                       "explorer-antialias, explorer-library, explorer-libraries, explorer-backend, "
                       "explorer-version, explorer-opset, explorer-device, explorer-training, explorer-upstream, explorer-seed, "
                       "explorer-crop-x, explorer-crop-y, explorer-length, explorer-sample, explorer-content, "
                       "explorer-priorities, explorer-targets, explorer-frameworks",
    "export": "explorer-export-png, explorer-export-config, explorer-export-code (buttons), explorer-export "
              "(download link), explorer-export-text (text to copy)",
    "tab outputs": "explorer-metrics (libraries table), explorer-findings (advisor findings and fixes), "
                   "explorer-fix-code, explorer-pick-why, explorer-pick-table, explorer-pick-code",
}

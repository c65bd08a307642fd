"""The explorer's widgets, one :class:`Control` per state key, and how values cross between them.

The controls are derived from the settings' declarations (:mod:`explorer.ui.app.declared`): each setting says
which widget shows it and with what label; a few keys need their own conversion (the size text, the crop
sliders, None as "latest" / "default").  Every
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

import ipywidgets as W

from .declared import all_settings
from .settings import DEFAULT, LATEST, STYLE, parse_size, size_text

__all__ = ["DEFAULT", "LATEST", "Control", "build_controls", "crop_centre", "crop_from_centre", "css_class",
           "parse_size", "size_text"]
_STYLE = STYLE


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
        self.widget.tooltip = reason  # '' (not None: the page would show the tooltip "null")


def css_class(key: str) -> str:
    return "explorer-" + key.replace("_", "-")


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


def build_controls(state) -> dict:
    """One Control per settable key, plus ``upload`` (files), ``resize_by`` (scale | size), ``scale_text`` (an
    exact scale, typed) and ``crop_x`` / ``crop_y`` (the zoom box's centre)."""
    backends = tuple(state.backends) or ("torch",)
    controls = {}
    for key, setting in all_settings().items():
        if setting.widget is None:
            continue
        value = state[key]
        if key == "backend" and value not in backends:
            value = backends[0]
        widget = setting.widget(value, state)
        view = W.HBox([W.Label(widget.tooltip), widget]) if isinstance(widget, W.TagsInput) else None
        controls[key] = Control(key, widget, setting.to_widget, setting.from_widget, view=view)
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

"""The interactive explorer: six tabs over one state, live figures, errors shown in the app.

>>> app = App(display="image")
>>> app.set(mode="bicubic", scale=0.37).state["scale"]
0.37
>>> app.set(scale=0)
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7
>>> app.message_text
'scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7'
>>> app.set(scale=2.0).state["scale"], app.message_text
(2.0, '')
"""

from __future__ import annotations

import base64
import html
import json
import time

import ipywidgets as W
import numpy as np

from ...conventions.image_resize import ImageResize
from ...errors import ArgumentValueError
from ...images import TEST_IMAGES, fit_image, test_image
from ...limits import APP_MAX_SIDE
from ..engine import CachedEngine
from .controls import DEFAULT, LATEST, build_controls, crop_from_centre
from .hosts import default_display
from .state import DEFAULTS, TABS, State
from .tabs import TAB_CLASSES, fix_code

#: A user image larger than this (longer side, pixels) is reduced to it, with a message.

_SHARED_ROWS = (("image", "upload", "mode", "reference", "scale", "size"),
                ("modes", "align_corners", "antialias", "library", "backend", "version", "opset", "device", "training",
                 "crop_x", "crop_y"))


class App:
    """The explorer.  Display it in a notebook (it is its own widget); drive it from code with :meth:`set`.

    ``app.state`` is a read-only mapping of every setting (:data:`explorer.ui.app.state.DEFAULTS`):
    ``tab, image, mode, modes, reference, scale, size, align_corners, antialias, library, libraries, backend,
    version, opset, device, training, upstream, seed, rect, crop, length, sample, content, priorities, targets,
    frameworks``.  ``app.set(**changes)`` validates every change first (a bad value raises a ValueError naming
    the key, the value and the choices, and shows the same message in the app), then redraws the visible tab;
    errors while computing (an unsupported combination, a size too small) appear in the panels and in the
    message area, and the app keeps working.

    ``display="ipympl"`` draws on live ipympl canvases, artists updated in place (the default under
    ``%matplotlib widget``); ``display="image"`` renders PNGs into ``ipywidgets.Image`` (the default elsewhere).

    Stable CSS classes, for browser tests:

    * ``explorer-root`` (the whole app), ``explorer-controls`` (the shared control rows), ``explorer-tabs``
      (the Tab widget), ``explorer-tab-<name>`` (each panel: modes, gradients, kernels, libraries, backends,
      pick), ``explorer-message`` (errors and notes), ``explorer-readout`` (the current resize in words),
      ``explorer-caption`` (what each figure shows);
    * ``explorer-figure`` on every figure widget (the ipympl canvas or the Image) plus
      ``explorer-figure-<tab name>``;
    * one class per control, ``explorer-<key>`` with dashes: ``explorer-image``, ``explorer-upload``,
      ``explorer-mode``, ``explorer-modes``, ``explorer-reference``, ``explorer-scale``, ``explorer-size``,
      ``explorer-align-corners``, ``explorer-antialias``, ``explorer-library``, ``explorer-libraries``,
      ``explorer-backend``, ``explorer-version``, ``explorer-opset``, ``explorer-device``, ``explorer-training``,
      ``explorer-upstream``, ``explorer-seed``, ``explorer-crop-x``, ``explorer-crop-y``, ``explorer-length``,
      ``explorer-sample``, ``explorer-content``, ``explorer-priorities``, ``explorer-targets``,
      ``explorer-frameworks``;
    * export: ``explorer-export-png``, ``explorer-export-config``, ``explorer-export-code`` (buttons),
      ``explorer-export`` (the download link), ``explorer-export-text`` (text to copy);
    * tab outputs: ``explorer-metrics`` (libraries table), ``explorer-findings`` (advisor findings and
      fixes), ``explorer-fix-code``, ``explorer-pick-why``, ``explorer-pick-table``, ``explorer-pick-code``.
    """

    def __init__(self, image=None, *, display: str | None = None, **settings):
        self.state = State()
        self.engine = CachedEngine()
        self.display = display or default_display()
        self._custom = None
        self._custom_name = ""
        self._incoming_name = "array"
        self._pending_note = ""
        self._image_token = 0
        self._syncing = False
        self.message_text = ""
        self.last_timing = {}
        self.controls = build_controls(self.state)
        self.message = W.HTML()
        self.message.add_class("explorer-message")
        self.readout = W.HTML()
        self.readout.add_class("explorer-readout")
        self.tabs = {cls.name: cls(self, self.display) for cls in TAB_CLASSES}
        self.tab_widget = W.Tab(children=[t.widget(self.controls) for t in self.tabs.values()],
                                titles=[t.title for t in self.tabs.values()])
        self.tab_widget.add_class("explorer-tabs")
        controls_box = W.VBox([W.HBox([self.controls[k].widget for k in row],
                                      layout=W.Layout(flex_flow="row wrap")) for row in _SHARED_ROWS])
        controls_box.add_class("explorer-controls")
        self.export_area = W.HTML()
        self.export_area.add_class("explorer-export")
        self.export_text = W.Textarea(layout=W.Layout(width="900px", height="120px", display="none"))
        self.export_text.add_class("explorer-export-text")
        buttons = []
        for name, text, handler in (("png", "save figure (PNG)", self._export_png),
                                    ("config", "configuration (JSON)", self._export_config),
                                    ("code", "fix code", self._export_code)):
            b = W.Button(description=text, layout=W.Layout(width="190px"))
            b.add_class(f"explorer-export-{name}")
            b.on_click(handler)
            buttons.append(b)
        self.widget = W.VBox([controls_box, self.readout, self.message, self.tab_widget,
                              W.HBox(buttons), self.export_area, self.export_text])
        self.widget.add_class("explorer-root")
        self._observe()
        self._sync_backend_options()
        initial = dict(settings)
        if image is not None:
            initial["image"] = image
        name = initial.get("image", DEFAULTS["image"])
        if (isinstance(name, str) and name in TEST_IMAGES and "scale" not in initial and "size" not in initial):
            initial["scale"] = TEST_IMAGES[name].suggested_scale
        if initial:
            self.set(**initial)
        else:
            self._after_change(set(DEFAULTS))

    # ------------------------------------------------------------------ public
    @property
    def image(self) -> np.ndarray:
        """The current input image, (H, W, C) float32 in [0, 1]."""
        if self.state["image"] == "custom":
            return self._custom
        return test_image(self.state["image"])

    @property
    def visible_tab(self):
        return self.tabs[self.state["tab"]]

    def set(self, **changes) -> "App":
        """Change settings (see the class docstring); returns the app.  Raises ValueError on a bad value."""
        try:
            valid = self._validate(changes)
        except ValueError as exc:
            self._show(str(exc), error=True)
            raise
        self.state.apply(valid)
        self._after_change(set(valid))
        return self

    def key_of(self, name):
        """What a tab compares to decide whether to redraw: the value of a setting, an image token."""
        if name == "image":
            return self._image_token, self.state["image"]
        if name == "image_width":
            return self.image.shape[1]
        return self.state[name]

    def figure(self, tab: str | None = None):
        """The matplotlib Figure of a tab (default: the visible one), drawn for the current state."""
        t = self.tabs[tab or self.state["tab"]]
        t.refresh()
        return t.host.figure

    def figure_png(self, tab: str | None = None) -> bytes:
        """The figure of a tab (default: the visible one) as PNG bytes."""
        t = self.tabs[tab or self.state["tab"]]
        t.refresh()
        return t.host.png()

    def save_png(self, path, tab: str | None = None):
        """Write the figure of a tab to ``path`` as PNG."""
        with open(path, "wb") as fh:
            fh.write(self.figure_png(tab))

    def config(self) -> dict:
        """The current settings as plain JSON-able values (a custom image appears as its name and shape)."""
        out = {}
        for key, value in self.state.items():
            out[key] = list(value) if isinstance(value, tuple) else value
        if self.state["image"] == "custom":
            out["image"] = {"custom": self._custom_name or "array", "shape": list(self._custom.shape)}
        r = self._resize()
        if r is not None:
            out["call"] = r.call()
        return out

    def config_json(self) -> str:
        return json.dumps(self.config(), indent=2)

    def fix_code(self) -> str:
        """The code of the advisor's fixes for the current backend setup (empty when nothing needs fixing)."""
        t = self.tabs["backends"]
        t.refresh()
        return fix_code(t.data)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    # ------------------------------------------------------------------ changes
    def _validate(self, changes):
        changes = dict(changes)
        image = changes.get("image")
        if isinstance(image, str) and image == "custom":
            if self._custom is None:
                raise ArgumentValueError("image='custom' is not valid: no custom image was given; pass an array, "
                                 "bytes or a pathlib.Path")
            changes.pop("image")
        valid = self.state.validate(changes)
        if isinstance(valid.get("image"), np.ndarray):
            img, note = fit_image(valid["image"], APP_MAX_SIDE)
            img.setflags(write=False)
            self._custom, self._custom_name = img, self._incoming_name
            self._pending_note = note
            valid["image"] = "custom"
            self._image_token += 1
        elif "image" in valid and valid["image"] != self.state["image"]:
            self._image_token += 1
        return valid

    def _after_change(self, keys):
        self._sync_widgets(keys)
        self._update_readout()
        self._refresh()

    def _refresh(self):
        """Redraw the visible tab if it needs it; then say what could not be computed, or the pending note."""
        tab = self.visible_tab
        t0 = time.perf_counter()
        note, self._pending_note = self._pending_note, ""
        try:
            refreshed = tab.refresh()
        except Exception as exc:  # noqa: BLE001 - the app must keep working: say what failed
            tab.drawn_key = None
            self._show(f"{tab.title} could not be drawn: {type(exc).__name__}: {exc}", error=True)
            self.last_timing = {"tab": tab.name, "refreshed": False, "total": time.perf_counter() - t0}
            return
        problems = tab.problems(tab.data) if tab.data is not None else []
        if problems:
            self._show("; ".join(problems), error=True)
        else:
            self._show(note)
        self.last_timing = dict(tab.timing if refreshed else {}, total=time.perf_counter() - t0, tab=tab.name,
                                refreshed=refreshed)

    def _resize(self, mode=None):
        s = self.state
        try:
            return ImageResize(mode or s["mode"], scale=s["scale"], size=s["size"],
                               align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"])
        except ValueError:
            return None

    def _update_readout(self):
        s, img = self.state, self.image
        name = (self._custom_name or "custom image") if s["image"] == "custom" else s["image"]
        r = self._resize()
        out = "" if r is None else "{}×{}".format(*r.output_size(img.shape))
        how = f"scale {s['scale']:g}" if s["scale"] is not None else f"size {s['size'][0]}×{s['size'][1]}"
        self.readout.value = (f"<b>{html.escape(name)}</b> {img.shape[0]}×{img.shape[1]} → {out} ({how}) · "
                              f"{html.escape(s['mode'])} · {html.escape(s['library'])} convention")

    def _show(self, text, error=False):
        self.message_text = text
        colour = "#b00000" if error else "#444444"
        self.message.value = f"<span style='color:{colour}'>{html.escape(text)}</span>" if text else ""

    # ------------------------------------------------------------------ widgets
    def _observe(self):
        for name, control in self.controls.items():
            if name == "upload":
                control.widget.observe(self._on_upload, "value")
            else:
                control.widget.observe(lambda change, c=control, n=name: self._on_widget(c, n, change), "value")
        self.tab_widget.observe(self._on_tab, "selected_index")

    def _on_widget(self, control, name, change):
        if self._syncing:
            return
        try:
            value = control.from_widget(change["new"])
            if name in ("crop_x", "crop_y"):
                value = crop_from_centre(self.state["crop"], 1 if name == "crop_x" else 0, value)
            self.set(**{control.key: value})
        except ValueError as exc:
            self._show(str(exc), error=True)
            self._sync_widgets({control.key})  # back to the state's value; the message says why

    def _on_upload(self, change):
        if self._syncing or not change["new"]:
            return
        item = change["new"][0]
        name = str(item.get("name", "upload"))
        self._incoming_name = name
        try:
            self.set(image=bytes(item["content"]))
        except ValueError as exc:
            self._show(f"{name}: {exc}", error=True)
        finally:
            self._incoming_name = "array"

    def _on_tab(self, change):
        if self._syncing or change["new"] is None:
            return
        self.set(tab=TABS[change["new"]])

    def _sync_widgets(self, keys):
        self._syncing = True
        try:
            if "backend" in keys:
                self._sync_backend_options()
            if "image" in keys:
                options = list(TEST_IMAGES) + (["custom"] if self._custom is not None else [])
                if list(self.controls["image"].widget.options) != options:
                    self.controls["image"].widget.options = options
            for name, control in self.controls.items():
                if control.key in keys and name != "upload":
                    value = self.state[control.key]
                    if control.key == "scale" and value is None:
                        control.widget.disabled = True
                        continue
                    if control.key in ("scale", "size"):
                        self.controls["scale"].widget.disabled = self.state["scale"] is None
                    if control.key == "sample" and value is None:
                        continue
                    control.widget.value = control.to_widget(value)
            if "tab" in keys:
                self.tab_widget.selected_index = TABS.index(self.state["tab"])
        finally:
            self._syncing = False

    def _sync_backend_options(self):
        """The version, opset and device choices of the backend: the eras and opsets where some answer of the
        knowledge base changes (labelled by the releases each covers), and the backend's devices."""
        entry = self.state.backends.get(self.state["backend"])
        info = entry[3] if entry else None
        versions = info.version_choices if info else []
        opsets = [(str(o), o) for o in entry[2]] if entry else []
        devices = [(d, d) for d in entry[1]] if entry else []
        was = self._syncing
        self._syncing = True
        try:
            for key, extra, values in (("version", LATEST, versions), ("opset", DEFAULT, opsets),
                                       ("device", DEFAULT, devices)):
                control = self.controls[key]
                control.widget.options = [(extra, extra), *values]
                control.widget.value = control.to_widget(self.state[key])
                if key == "opset":
                    control.widget.disabled = not values
        finally:
            self._syncing = was

    def sync_sample_slider(self, m, sample):
        """Keep the Kernels tab's output slider within the axis's output samples."""
        w = self.controls["sample"].widget
        was = self._syncing
        self._syncing = True
        try:
            w.max = max(m - 1, 1)
            w.value = int(sample)
        finally:
            self._syncing = was

    # ------------------------------------------------------------------ export
    def _export_png(self, _=None):
        data = self.figure_png()
        link = base64.b64encode(data).decode()
        self.export_area.value = (f"<a download='explorer-{self.state['tab']}.png' "
                                  f"href='data:image/png;base64,{link}'>download the {self.state['tab']} figure "
                                  f"(PNG, {len(data) // 1024} KiB)</a>")
        self.export_text.layout.display = "none"

    def _export_text(self, text, filename, what):
        self.export_text.value = text
        self.export_text.layout.display = None
        link = base64.b64encode(text.encode()).decode()
        self.export_area.value = (f"{what}: select the text below and copy it, or "
                                  f"<a download='{filename}' href='data:text/plain;base64,{link}'>download it</a>")

    def _export_config(self, _=None):
        self._export_text(self.config_json(), "explorer-config.json", "configuration")

    def _export_code(self, _=None):
        code = self.fix_code()
        if not code:
            code = "# no fixes: the advisor found nothing to fix for this backend setup"
        self._export_text(code, "explorer-fixes.txt", "fix code")


def explore(image=None, **settings) -> App:
    """Open the explorer on ``image`` (a built-in name, an (H, W[, C]) array, image bytes or a path; default:
    the photo) with any settings of :class:`App`; in a notebook the returned App displays itself."""
    return App(image, **settings)

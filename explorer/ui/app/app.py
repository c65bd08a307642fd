"""The interactive explorer: six tabs over one state, figures drawn as they change, errors shown in the app.

>>> app = App()
>>> app.set(mode="bicubic", scale=0.37).state["scale"]
0.37
>>> app.set(scale=0)
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7
>>> app.message_text
'scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7'
>>> app.set(size=(64, 48)).set(size=None).state["scale"], app.message_text   # clearing the size: the scale again
(0.37, '')
"""

from __future__ import annotations

import contextlib
import html
import json
import threading
from typing import NamedTuple

import ipywidgets as W
import numpy as np

from ...conventions.image_resize import ImageResize
from ...errors import ArgumentValueError, choice_error
from ...images import TEST_IMAGES, fit_image, read_image, test_image
from ...limits import APP_MAX_SIDE
from ..engine import CachedEngine
from ..scenarios import LESSONS, SCENARIOS
from ..views.html_figure import STYLE
from . import page_load
from .applies import disabled
from .controls import DEFAULT, LATEST, build_controls, crop_from_centre
from .downloads import Downloads
from .links import config_settings, query_settings, view_query
from .declared import tab_classes
from .state import DEFAULTS, State, check_budget, is_image_file
from .tabs import fix_code

_SHARED_ROWS = (("image", "upload"), ("resize_by", "scale", "scale_text", "size", "align_corners", "antialias"))


class App:
    """The explorer.  Display it in a notebook (it is its own widget); drive it from code with :meth:`set`.

    ``app.state`` is a read-only mapping of every setting (:data:`explorer.ui.app.state.DEFAULTS`):
    ``tab, image, mode, modes, reference, scale, size, align_corners, antialias, library, libraries,
    same_options, backend, version, opset, device, training, upstream, seed, rect, crop, length, sample, content,
    priorities, targets, frameworks``.  ``app.set(**changes)`` validates every change first (a bad value
    raises a ValueError naming the key, the value and the choices, and shows the same message in the app),
    then redraws the visible tab; errors while computing appear in the panels and in the message area, and the
    app keeps working.  ``app.scenario(name)`` opens a lesson; ``App(config=...)`` reopens an exported
    configuration and ``App(query="scenario=aliasing&scale=0.25")`` a link's settings.

    In a Jupyter kernel a worker thread computes and draws (the newest change wins, hidden tabs are prepared
    when idle, "updating…" shows after 150 ms; ``worker=True`` asks for it inside any running event loop);
    elsewhere every change is drawn before :meth:`set` returns.

    Stable CSS classes for browser tests are listed in :data:`explorer.ui.app.controls.CSS_CLASSES`.
    """

    def __init__(self, image=None, *, config=None, query=None, worker: bool | None = None, **settings):
        self.state = State()
        self.engine = CachedEngine()
        self._custom, self.image_token, self.image_name, self.image_note = None, 0, "photo", ""
        self._incoming_name, self._pending_note, self._syncing = "array", "", False
        self.message_text, self.last_timing = "", {}
        self.controls = build_controls(self.state)
        self.tabs = {cls.name: cls(self) for cls in tab_classes()}
        self.downloads = Downloads(self)
        self.widget = self._build_layout()
        self.renderer = _renderer(self, worker)
        self._unsent_tabs = set()  # tabs to send again when first shown after a page loaded (see page_load)
        if self.renderer is not None:
            page_load.watch(self)
        self._observe()
        self._sync_backend_options()
        self._open(image, config, query, settings)

    def _build_layout(self):
        self.message, self.readout, self.busy_mark, self.lesson = W.HTML(), W.HTML(), W.HTML(), W.HTML()
        self.link = W.HTML()
        for w, name in ((self.message, "message"), (self.readout, "readout"), (self.busy_mark, "busy-mark"),
                        (self.lesson, "scenario-text"), (self.link, "link")):
            w.add_class(f"explorer-{name}")
        titles = [(LESSONS[name][0], name) for name in LESSONS]  # a lesson's numbers wait until it is opened
        self.scenario_menu = W.Dropdown(options=[("lessons…", "")] + titles, value="", description="open a lesson",
                                        style={"description_width": "initial"}, layout=W.Layout(width="560px"))
        self.scenario_menu.add_class("explorer-scenario")
        self.tab_widget = W.Tab(children=[t.widget(self.controls) for t in self.tabs.values()],
                                titles=[t.title for t in self.tabs.values()])
        self.tab_widget.add_class("explorer-tabs")
        rows = [W.HBox([self.controls[k].view for k in row], layout=W.Layout(flex_flow="row wrap"))
                for row in _SHARED_ROWS]
        rows[0].children = (self.scenario_menu,) + rows[0].children
        shared = W.VBox(rows)
        shared.add_class("explorer-controls")
        style = W.HTML(f"<style>{STYLE}</style>{SCALE_VALUETEXT}",
                       layout=W.Layout(height="0px", margin="0", overflow="hidden"))
        self.greyed = W.HTML()
        self.greyed.add_class("explorer-greyed")
        root = W.VBox([style, shared, self.greyed, W.HBox([self.readout, self.link, self.busy_mark]), self.lesson,
                       self.message, self.tab_widget, self.downloads.widget], layout=W.Layout(width="100%"))
        root.add_class("explorer-root")
        no_null_tooltips(root)
        return root

    def _open(self, image, config, query, settings):
        """The first state: a configuration, then a link's scenario and settings, then ``settings``; problems
        with a configuration or a link are shown, not raised (the app opens anyway)."""
        problems, initial, lesson = [], {}, None
        if config is not None:
            initial, problems = config_settings(config)
        if query:
            lesson, linked, bad = query_settings(query)
            problems += bad
            if lesson is not None and lesson not in LESSONS:
                problems.append(str(choice_error("scenario", lesson, LESSONS)))
                lesson = None
            initial.update(({} if lesson is None else LESSONS[lesson][1]) | linked)
        initial.update(settings)
        if image is not None:
            initial["image"] = image
        name = initial.get("image")
        if isinstance(name, str) and name in TEST_IMAGES and "scale" not in initial and "size" not in initial:
            initial["scale"] = TEST_IMAGES[name].suggested_scale
        if config is None and not query:
            if initial:
                self.set(**initial)
            else:
                self._after_change(set(DEFAULTS))
        else:
            problems += self._set_what_can_be(initial)
        if lesson is not None:  # its explanation before the page shows
            with self._quiet():
                self.scenario_menu.value = lesson
            self._show_lesson(lesson)
        if problems:
            where = "the link" if query else "the configuration"
            self._show(f"Opened without what {where} could not use: " + "; ".join(problems), error=True)

    def _set_what_can_be(self, settings) -> list:
        """Set every valid setting of ``settings`` (from a link or a configuration); the problems of the rest."""
        problems, good = [], {}
        for key, value in settings.items():
            try:
                self._validate({key: value})
                good[key] = value
            except ValueError as exc:
                problems.append(str(exc))
        try:
            self.set(**good)
        except ValueError as exc:  # valid one by one, not together (e.g. a size too large for the image)
            problems.append(str(exc))
            self._after_change(set(DEFAULTS))
        return problems

    # ------------------------------------------------------------------ public
    @property
    def image(self) -> np.ndarray:
        """The current input image, (H, W, C) float32 in [0, 1]."""
        return self._custom if self.state["image"] == "custom" else test_image(self.state["image"])

    @property
    def visible_tab(self):
        return self.tabs[self.state["tab"]]

    def set(self, **changes) -> App:
        """Change settings (see the class docstring); returns the app.  Raises ValueError on a bad value."""
        try:
            valid = self._validate(changes)
        except ValueError as exc:
            self._show(str(exc), error=True)
            raise
        self._commit_image(valid)
        self.state.apply(valid)
        self._after_change(set(valid))
        return self

    def scenario(self, name: str) -> App:
        """Open the lesson ``name`` (see :func:`explorer.scenarios`): its settings, and its explanation."""
        if name not in LESSONS:
            error = choice_error("scenario", name, LESSONS)
            self._show(str(error), error=True)
            raise error
        title, changes, _ = LESSONS[name]
        self.set(**changes)
        self.lesson.value = f"<b>{html.escape(title)}</b>: …"
        with self._quiet():
            self.scenario_menu.value = name
        if self.renderer is None:
            self._show_lesson(name)
        else:  # a lesson computes its numbers the first time (up to seconds): not on the widgets' thread
            threading.Thread(target=self._explain, args=(name,), name="explorer-lesson", daemon=True).start()
        return self

    def figure(self, tab: str | None = None, dpi: int = 100):
        """The figure of a tab (default: the visible one) for the current state, as a matplotlib Figure with
        the settings stamped on it: what :meth:`save_png` writes."""
        t = self._tab(tab)
        with self._render_lock():
            t.refresh()
            return self._export(t, dpi)

    def figure_bytes(self, tab: str | None = None, *, fmt: str = "png", dpi: int = 150, slide: bool = False,
                     caption: bool = True) -> bytes:
        """The figure of a tab as PNG (at ``dpi``), SVG or PDF bytes, the configuration stored in the file;
        ``slide``: on a 16:9 slide (13.33 x 7.5 inches, landscape for every tab), ``caption``: with the caption."""
        from ..views.export import figure_bytes

        t = self._tab(tab)
        with self._render_lock():
            t.refresh()
            fig = self._export(t, dpi, slide, caption)
        meta = {"Software": "interpolation-explorer", "Title": f"explorer: {t.title}",
                "explorer-config": json.dumps(dict(self.config(), tab=t.name), sort_keys=True)}
        return figure_bytes(fig, fmt, dpi, meta)

    def _export(self, t, dpi, slide=False, caption=True):
        from ..views.export import frame_figure, panel_export, slide_frame
        from ..views.panels import PanelFigure
        from .tabs import Snapshot

        stamp, text = self.stamp(t.name), (t.caption_text if caption else "")
        if isinstance(t.shown, PanelFigure):
            return panel_export(t.shown, stamp, dpi, slide=slide, caption=caption)
        height = slide_frame(stamp, text, dpi)[0] if slide else None  # the plot drawn at its size on the slide
        fig = t.export_figure(t.data, Snapshot(self), slide=slide, height=height)
        fig.set_dpi(dpi)
        return frame_figure(fig, stamp, text, slide=slide)

    def save_png(self, path, tab: str | None = None, dpi: int = 150):
        """Write the figure of a tab (default: the visible one) to ``path`` as a PNG at ``dpi`` (at least 1600
        pixels wide), the settings stamped on it and the configuration in its ``explorer-config`` text."""
        self.save(path, tab, dpi, "png")

    def save(self, path, tab: str | None = None, dpi: int = 150, fmt: str | None = None):
        """Write the figure of a tab to ``path``: PNG, SVG or PDF (from ``fmt`` or the file's suffix)."""
        fmt = fmt or str(path).rsplit(".", 1)[-1].lower()
        with open(path, "wb") as fh:
            fh.write(self.figure_bytes(tab, fmt=fmt, dpi=dpi))

    def stamp(self, tab: str | None = None) -> str:
        """The settings a figure of ``tab`` depends on, in one line (stamped on exported figures)."""
        t = self._tab(tab)
        img = self.image
        out = self._resize().output_size(img.shape) if self._resize() else ("?", "?")
        parts = [f"interpolation-explorer · {t.title}", (f"{self.image_name} {img.shape[0]}×{img.shape[1]} → "
                 f"{out[0]}×{out[1]}")]
        hidden = {"image", "image_width", "rect", "crop"} | ({"seed"} if self.state["upstream"] != "random" else set())
        for key in t.keys:
            if key in hidden:
                continue
            value = self.state[key]
            if value is None:
                continue
            parts.append(f"{key} {', '.join(map(str, value)) if isinstance(value, tuple) else value}")
        return " · ".join(parts)

    def config(self) -> dict:
        """The current settings as plain JSON-able values (a custom image appears as its name and shape)."""
        out = {key: list(value) if isinstance(value, tuple) else value for key, value in self.state.items()}
        if self.state["image"] == "custom":
            out["image"] = {"custom": self.image_name, "shape": list(self._custom.shape)}
        r = self._resize()
        if r is not None:
            out["call"] = r.call()
        return out

    def config_json(self) -> str:
        return json.dumps(self.config(), indent=2)

    def fix_code(self) -> str:
        """The code of the advisor's fixes for the current backend setup (empty when nothing needs fixing)."""
        t = self.tabs["backends"]
        with self._render_lock():
            t.refresh()
        return fix_code(t.data)

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)

    def _tab(self, tab):
        name = tab or self.state["tab"]
        if name not in self.tabs:
            raise choice_error("tab", name, list(self.tabs))
        return self.tabs[name]

    def _render_lock(self):
        return self.renderer.lock if self.renderer is not None else contextlib.nullcontext()

    # ------------------------------------------------------------------ changes
    def _validate(self, changes):
        changes = dict(changes)
        if isinstance(changes.get("image"), str) and changes["image"] == "custom":
            if self._custom is None:
                raise ArgumentValueError("image='custom' is not valid: no custom image was given; pass an array, "
                                         "bytes or a pathlib.Path")
            changes.pop("image")
        decoded = ()
        if is_image_file(changes.get("image")):
            changes["image"], decoded = read_image(changes["image"])
        valid = self.state.validate(changes)
        image = valid.get("image")
        if isinstance(image, np.ndarray):
            valid["image"] = image = self._fitted(image, decoded)
        shape = (image.array.shape if isinstance(image, Upload) else test_image(image).shape if image is not None
                 else self.image.shape)
        size = valid["size"] if "size" in valid else self.state["size"]
        scale = valid["scale"] if "scale" in valid else self.state["scale"]
        check_budget(shape, scale if size is None else None, size)
        return valid

    def _fitted(self, img, decoded: tuple[str, ...] = ()) -> Upload:
        """A new custom image, reduced to :data:`APP_MAX_SIDE` when larger; the note says what was done to the
        file when it was decoded (``images.read_image``) and any reduction (the readout keeps saying so)."""
        h, w = img.shape[:2]
        img, reduced = fit_image(img, APP_MAX_SIDE)
        img.setflags(write=False)
        notes = list(decoded)
        if reduced:
            notes.append(f"reduced from {h}×{w} by an area average (antialiased) to stay within the explorer's "
                         f"{APP_MAX_SIDE}-pixel side")
        return Upload(img, self._incoming_name, "; ".join(notes))

    def _commit_image(self, valid):
        image = valid.get("image")
        if isinstance(image, Upload):
            self._custom, self.image_name, self.image_note = image.array, image.name, image.note
            valid["image"] = "custom"
            self._pending_note = f"{image.name}: {image.note}" if image.note else ""
            self.image_token += 1
        elif image is not None and image != self.state["image"]:
            self.image_token += 1
            self.image_name, self.image_note = image, ""

    def page_loaded(self):
        """A page is loading the widgets (see :mod:`.page_load`): send them all again once it has had time to,
        and each tab again when it is first shown."""
        self._unsent_tabs = set(self.tabs)
        self.renderer.loop.call_later(page_load.SETTLE_S, page_load.resend, self.widget)

    def _after_change(self, keys):
        if "tab" in keys and self.state["tab"] in self._unsent_tabs:
            self._unsent_tabs.discard(self.state["tab"])
            page_load.resend(self.tab_widget.children[list(self.tabs).index(self.state["tab"])])
        self._sync_widgets(keys)
        self._sync_enabled()
        self._update_readout()
        r = self._resize()
        if r is not None:
            self.engine.retain(r.output_size(self.image.shape))
        self._refresh()

    def _refresh(self):
        """Draw the visible tab if it needs it (now, or through the worker); then report."""
        if self.renderer is not None:
            if not self.renderer.request() and self.visible_tab.data is not None:
                self.report(self.visible_tab)
            return
        tab = self.visible_tab
        try:
            refreshed = tab.refresh()
        except Exception as exc:  # noqa: BLE001 - the app must keep working: say what failed
            tab.drawn_key = None
            self.report_failure(tab, exc)
            return
        self.report(tab, refreshed)

    def report(self, tab, refreshed: bool = True):
        """After the visible tab was drawn: what could not be computed, or the pending note."""
        note, self._pending_note = self._pending_note, ""
        problems = tab.problems(tab.data) if tab.data is not None else []
        if problems:
            self._show("; ".join(problems), error=True)
        else:
            self._show(note)
        self.last_timing = dict(tab.timing if refreshed else {}, tab=tab.name, refreshed=refreshed)

    def report_failure(self, tab, exc):
        self._show(f"{tab.title} could not be drawn: {type(exc).__name__}: {exc}", error=True)
        self.last_timing = {"tab": tab.name, "refreshed": False}

    def set_busy(self, on: bool):
        """Say that the visible figure is being updated (dimmed, "updating…")."""
        self.busy_mark.value = "updating…" if on else ""
        (self.widget.add_class if on else self.widget.remove_class)("explorer-busy")

    def _resize(self, mode=None):
        s = self.state
        try:
            return ImageResize(mode or s["mode"], scale=s["scale"], size=s["size"],
                               align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"])
        except ValueError:
            return None

    def link_query(self) -> str:
        """The query string of a link to this view (``?`` + it after the page's address opens the same
        settings); see :func:`explorer.ui.app.links.view_query`."""
        return view_query(self.state)[0]

    def _update_link(self):
        query, notes = view_query(self.state)
        note = f" title='{html.escape(notes[0])}'" if notes else ""
        copy = ("navigator.clipboard.writeText(location.origin + location.pathname + '?' + this.dataset.query)"
                ".then(() => { this.textContent = 'link copied'; "
                "setTimeout(() => { this.textContent = 'copy link to this view'; }, 1500); })")
        self.link.value = (f"<button class='explorer-copy-link' data-query='{html.escape(query)}'{note} "
                           f"onclick=\"{html.escape(copy)}\">copy link to this view</button> "
                           f"<a class='explorer-view-link' href='?{html.escape(query)}'>link</a>")

    def _update_readout(self):
        self._update_link()
        s, img = self.state, self.image
        r = self._resize()
        out = "" if r is None else "{}×{}".format(*r.output_size(img.shape))
        how = f"scale {s['scale']:g}" if s["scale"] is not None else f"size {s['size'][0]}×{s['size'][1]}"
        origin = f" ({html.escape(self.image_note)})" if self.image_note else ""
        self.readout.value = (f"<b>{html.escape(self.image_name)}</b> {img.shape[0]}×{img.shape[1]}{origin} → "
                              f"{out} ({how})")

    def _show(self, text, error=False):
        self.message_text = text
        colour = "#b00000" if error else "#444444"
        self.message.value = f"<span style='color:{colour}'>{html.escape(text)}</span>" if text else ""

    def _explain(self, name):
        try:
            SCENARIOS[name]
            self.renderer.loop.call_soon_threadsafe(self._show_lesson, name)
        except Exception as exc:  # noqa: BLE001 - shown in the app by the main thread
            self.renderer.loop.call_soon_threadsafe(self._show, f"lesson {name!r}: {exc}", True)

    def _show_lesson(self, name):
        if self.scenario_menu.value != name:  # another lesson was opened meanwhile
            return
        s = SCENARIOS[name]
        if s.steps is None:
            self.lesson.value = f"<b>{html.escape(s.title)}</b>: {html.escape(s.explanation)}"
            return
        self.lesson.value = (
            f"<b>{html.escape(s.title)}</b><ol class='explorer-steps'>"
            f"<li><b>Look at</b> {html.escape(s.steps.look)}.</li>"
            f"<li><b>Now change:</b> {html.escape(s.steps.now)}.</li>"
            f"<li><details><summary><b>What happened</b></summary>{html.escape(s.explanation)}</details></li></ol>")

    # ------------------------------------------------------------------ widgets
    def _observe(self):
        handlers = {"upload": self._on_upload, "resize_by": self._on_resize_by}
        for name, control in self.controls.items():
            handler = handlers.get(name) or (lambda change, c=control, n=name: self._on_widget(c, n, change))
            control.widget.observe(handler, "value")
        self.tab_widget.observe(self._on_tab, "selected_index")
        self.scenario_menu.observe(self._on_scenario, "value")

    def _on_widget(self, control, name, change):
        if self._syncing:
            return
        try:
            value = control.from_widget(change["new"])
            if name == "scale" and _snapped(control.widget, change["old"], value):
                return  # the page rounding the slider's value to its step (also while a size is set): no change
            if name in ("crop_x", "crop_y"):
                value = crop_from_centre(self.state["crop"], 1 if name == "crop_x" else 0, value)
            self.set(**{control.key: value})
        except ValueError as exc:
            self._show(str(exc), error=True)
            self._sync_widgets({control.key})  # back to the state's value; the message says why

    def _on_resize_by(self, change):
        if self._syncing:
            return
        if change["new"] == "scale":
            self.set(scale=self.state.last_scale)
        elif self.state["size"] is None:
            self.set(size=self._resize().output_size(self.image.shape))

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
        except Exception as exc:  # noqa: BLE001 - a stranger's file never breaks the handler: it is refused
            self._show(f"{name}: this file cannot be used ({type(exc).__name__}: {exc})", error=True)
        finally:
            self._incoming_name = "array"

    def _on_tab(self, change):
        if not self._syncing and change["new"] is not None:
            self.set(tab=list(self.tabs)[change["new"]])

    def _on_scenario(self, change):
        if not self._syncing and change["new"]:
            self.scenario(change["new"])

    @contextlib.contextmanager
    def _quiet(self):
        """Widget values set inside do not come back as changes."""
        was, self._syncing = self._syncing, True
        try:
            yield
        finally:
            self._syncing = was

    def _sync_widgets(self, keys):
        with self._quiet():
            if "backend" in keys:
                self._sync_backend_options()
            if "image" in keys:
                options = list(TEST_IMAGES) + (["custom"] if self._custom is not None else [])
                if list(self.controls["image"].widget.options) != options:
                    self.controls["image"].widget.options = options
            for name, control in self.controls.items():
                if control.key in keys and name not in ("upload", "resize_by"):
                    value = self.state[control.key]
                    if (control.key == "scale" and value is None) or (control.key == "sample" and value is None):
                        continue
                    control.widget.value = control.to_widget(value)
            self.controls["resize_by"].widget.value = "size" if self.state["size"] is not None else "scale"
            if "tab" in keys:
                self.tab_widget.selected_index = list(self.tabs).index(self.state["tab"])

    def _sync_enabled(self):
        reasons = disabled(self.state, self.state["tab"], self.state.backends)
        keys = ("align_corners", "antialias", "seed", "version", "opset", "device")
        for key in keys:
            self.controls[key].disable(reasons.get(key, ""))
        shown = [k for k in keys if k in reasons and k in self.visible_tab.controls + _SHARED_ROWS[1]]
        text = "; ".join(f"<b>{html.escape(k)}</b>: {html.escape(reasons[k])}" for k in shown)
        value = f"greyed out — {text}" if text else ""
        if self.greyed.value != value:
            self.greyed.value = value

    def _sync_backend_options(self):
        """The version, opset and device choices of the backend: the eras and opsets where some answer of the
        knowledge base changes (labelled by the releases each covers), and the backend's devices."""
        entry = self.state.backends.get(self.state["backend"])
        versions = entry[3].version_choices if entry else []
        opsets = [(str(o), o) for o in entry[2]] if entry else []
        devices = [(d, d) for d in entry[1]] if entry else []
        with self._quiet():
            for key, extra, values in (("version", LATEST, versions), ("opset", DEFAULT, opsets),
                                       ("device", DEFAULT, devices)):
                control = self.controls[key]
                control.widget.options = [(extra, extra), *values]
                control.widget.value = control.to_widget(self.state[key])

    def sync_sample_slider(self, m, sample):
        """Keep the Kernels tab's output slider within the axis's output samples."""
        w = self.controls["sample"].widget
        with self._quiet():
            w.max = max(m - 1, 1)
            w.value = int(sample)

    def show_priorities(self, used):
        """Show the priorities the Pick tab used: chosen ones, or those its content implies."""
        w = self.controls["priorities"].widget
        with self._quiet():
            w.value = tuple(used)
            w.description = "matters (chosen)" if self.state["priorities"] is not None else "matters (for this content)"


def no_null_tooltips(widget):
    """Give every widget under ``widget`` without a tooltip an empty one: ipywidgets writes a None tooltip into
    the page as the text "null" (the title of a description label)."""
    if "tooltip" in getattr(widget, "keys", ()) and widget.tooltip is None:
        widget.tooltip = ""
    for child in getattr(widget, "children", ()):
        no_null_tooltips(child)


#: The scale slider moves on log10(scale); this makes it announce the scale itself to screen readers
#: (aria-valuetext "scale 0.4x", not "-0.39794"): the exact scale of the typed-scale box when the slider sits on
#: it (its step rounds the scale), else the slider's own to 3 digits; an observer of the slider's handle,
#: installed once per page by the load event of a one-pixel image (HTML widgets run no <script>).
SCALE_VALUETEXT = (
    "<img alt='' width='1' height='1' src='data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==' "
    "onload=\"const root = this.closest('.explorer-root'); if (!root || root.dataset.scaleText) return; "
    "root.dataset.scaleText = '1'; const fix = () => root.querySelectorAll('.explorer-scale [role=slider]')"
    ".forEach(h => { const v = Number(h.getAttribute('aria-valuetext')); "
    "if (h.getAttribute('aria-valuetext') === null || Number.isNaN(v)) return; "
    "const box = root.querySelector('.explorer-scale-text input'), typed = box ? Number(box.value) : NaN; "
    "const scale = typed > 0 && Math.abs(Math.log10(typed) - v) <= 0.0011 ? typed "
    ": Number(Math.pow(10, v).toPrecision(3)); h.setAttribute('aria-valuetext', 'scale ' + scale + 'x'); }); "
    "new MutationObserver(fix).observe(root, {subtree: true, childList: true, attributes: true, "
    "attributeFilter: ['aria-valuetext']}); fix();\">")


def _snapped(slider, old, new) -> bool:
    """Whether ``new`` is only ``old`` rounded to a log slider's step (the page echoes such a rounding)."""
    import math

    return old is not None and abs(math.log10(new) - math.log10(old)) <= slider.step / 2 + 1e-12


class Upload(NamedTuple):
    """A custom image on its way into the state: the array, its name and what was done to it."""

    array: np.ndarray
    name: str
    note: str


def _renderer(app, worker):
    """The worker-thread renderer when ``worker`` (default: inside a running Jupyter kernel, whose event loop
    delivers its results), else None: every change is drawn before ``set`` returns."""
    import asyncio

    if worker is None:
        from IPython import get_ipython

        worker = getattr(get_ipython(), "kernel", None) is not None
    if not worker:
        return None
    from .render import Renderer

    return Renderer(app, asyncio.get_running_loop())


def explore(image=None, *, config=None, query=None, worker=None, **settings) -> App:
    """Open the explorer on ``image`` (a built-in name, an (H, W[, C]) array, image bytes or a path; default:
    the photo) with any settings of :class:`App`; ``config``: a configuration exported by the app (dict, JSON
    or a path); ``query``: a link's query string, e.g. ``"scenario=aliasing"``.  In a notebook the returned
    App displays itself."""
    return App(image, config=config, query=query, worker=worker, **settings)

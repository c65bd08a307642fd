"""The six tabs, each one declaration: its name and title, the state it redraws on, its own controls and
settings, how it computes and draws, what it shows besides the figure.  :func:`register_tab` places a tab in
the app; the app's tab list, defaults, checks and controls are derived from the declarations
(:mod:`explorer.ui.app.declared`).

A tab redraws only when one of its keys changed since it last drew.  Drawing is split in two so that a worker
thread can do the slow part: :meth:`Tab.prepare` (compute and render to HTML; touches no widget) and
:meth:`Tab.apply` (set the widgets; the kernel's main thread).  :meth:`Tab.refresh` does both at once.
"""

from __future__ import annotations

import html
import time

from ...advisor.pick import CONTENTS, PRIORITIES, PRIORITY_LABELS
from ...conventions.image_resize import MODES
from ...conventions.mode_names import libraries as library_ids
from ...engine.threads import blas_threads
from ...limits import APP_MAX_LENGTH
from ..defaults import DEFAULT_RECT, UPSTREAMS
from ..views.html_figure import KERNELS_NARROW_MAX_PX, KERNELS_WIDE_PX, figure_parts, template_columns
from . import settings as S
from .declared import Setting, register_tab
from .working_copy import working_copy

RESIZE_KEYS = ("image", "scale", "size", "align_corners", "antialias")


class Snapshot:
    """What a tab computes from, copied on the main thread: the settings, the image and the engine (a worker
    then computes from it while the widgets keep changing)."""

    def __init__(self, app):
        self.state = dict(app.state)
        self.image = app.image
        self.engine = app.engine
        self.image_token = app.image_token
        self.image_name = app.image_name

    def key_of(self, name):
        if name == "image":
            return self.image_token, self.state["image"]
        if name == "image_width":
            return self.image.shape[1]
        return self.state[name]


class Payload:
    """A tab's figure prepared for one state: its key, data, HTML, caption, what was drawn, timings."""

    __slots__ = ("caption", "data", "html", "key", "later", "shown", "timing")

    def __init__(self, key, data, html_, caption, shown, timing, later=None):
        self.key, self.data, self.html, self.caption, self.shown, self.timing = (key, data, html_, caption,
                                                                                shown, timing)
        #: a part of the figure drawn after the rest is shown (any thread; None: nothing left): a callable
        #: returning what :meth:`Tab.apply_later` shows
        self.later = later


class Tab:
    """One tab (subclass it and register it with :func:`register_tab`)."""

    name = ""
    title = ""
    keys: tuple = ()      # the state it redraws on (a key changed since it last drew: it redraws)
    controls: tuple = ()  # this tab's own controls, shown above its figure
    settings: tuple = ()  # the settings only this tab uses (:class:`~explorer.ui.app.declared.Setting`)

    @classmethod
    def option_targets(cls, state) -> tuple:
        """(modes, libraries) the shared options align_corners and antialias act on in this tab (an option that
        acts on none of them is greyed out with the reason)."""
        return (state["mode"],), (state["library"],)

    def __init__(self, app):
        import ipywidgets as W

        self.app = app
        self.figure = self.make_figure()
        self.figure.add_class("explorer-figure")
        self.figure.add_class(f"explorer-figure-{self.name}")
        self.caption = W.HTML(layout=W.Layout(width="100%"))
        self.caption.add_class("explorer-caption")
        self.extras = self.make_extras()
        self.data = self.shown = None
        self.caption_text = ""
        self.drawn_key = None
        self.failed_keys = set()
        self.later = None  # (key, callable): the part of the figure still to draw for the shown key
        self.timing = {}

    # ------------------------------------------------------------------ to implement
    def make_figure(self):
        """The widget the figure is shown in: one HTML element."""
        import ipywidgets as W

        return W.HTML(layout=W.Layout(width="100%"))

    def show_figure(self, markup):
        if self.figure.value != markup:
            self.figure.value = markup

    @property
    def markup(self) -> str:
        """The figure's HTML as the page receives it."""
        return self.figure.value

    def make_extras(self) -> list:
        return []

    def compute(self, snap):
        raise NotImplementedError

    def draw(self, data, snap):
        """(HTML of the figure, caption, what was drawn: a PanelFigure or a view); any thread."""
        raise NotImplementedError

    def draw_later(self, data, snap):
        """A callable drawing a part of the figure the page may not show (any thread), run after the rest is
        shown so that it never delays it; None when there is none."""
        return None

    def apply_later(self, key, markup):
        """Show what :meth:`draw_later`'s callable returned for ``key`` (the main thread)."""

    def show(self, data):
        """Update the extra widgets (tables, code) for ``data``; the main thread."""

    def export_figure(self, data, snap, slide=False, height=None):
        """A matplotlib Figure of ``data`` for slides, when the figure is not image panels (those are exported
        from the :class:`~explorer.ui.views.panels.PanelFigure` shown); ``slide``: laid out for a 16:9 slide,
        ``height`` inches tall (what the slide's stamp and caption leave)."""
        raise NotImplementedError

    def problems(self, data) -> list:
        """What could not be computed, one sentence each (shown in the app's message area)."""
        return []

    # ------------------------------------------------------------------ shared
    def widget(self, controls):
        import ipywidgets as W

        own = W.HBox([controls[k].view for k in self.controls], layout=W.Layout(flex_flow="row wrap"))
        own.add_class("explorer-tab-controls")
        box = W.VBox([own, self.figure, self.caption] + self.extras, layout=W.Layout(width="100%"))
        box.add_class(f"explorer-tab-{self.name}")
        return box

    def key(self, snap):
        return tuple(snap.key_of(k) for k in self.keys)

    def prepare(self, snap) -> Payload:
        """Compute and draw for ``snap``; touches no widget, so a worker thread may run it."""
        key = self.key(snap)
        t0 = time.perf_counter()
        with blas_threads():  # the engine's own setting: small arrays, no waiting for a busy core
            data = self.compute(snap)
            t1 = time.perf_counter()
            markup, caption, shown = self.draw(data, snap)
            later = self.draw_later(data, snap)
        return Payload(key, data, markup, caption, shown,
                       {"compute": t1 - t0, "draw": time.perf_counter() - t1}, later)

    def apply(self, p: Payload):
        """Show a prepared payload (the kernel's main thread)."""
        t0 = time.perf_counter()
        self.show_figure(p.html)
        self.show(p.data)
        text = html.escape(p.caption)
        if self.caption.value != text:
            self.caption.value = text
        self.data, self.shown, self.drawn_key, self.caption_text = p.data, p.shown, p.key, p.caption
        self.later = (p.key, p.later) if p.later is not None else None
        self.timing = dict(p.timing, apply=time.perf_counter() - t0)

    def refresh(self, force: bool = False) -> bool:
        """Recompute and redraw now when a key changed (or ``force``); True when it did."""
        snap = Snapshot(self.app)
        if self.key(snap) == self.drawn_key and not force:
            return False
        self.apply(self.prepare(snap))
        self.finish_later()
        return True

    def finish_later(self):
        """Draw and show the part left for later now (no worker: a script, a test, an export)."""
        if self.later is not None:
            key, later = self.later
            self.later = None
            self.apply_later(key, later())


class PanelTab(Tab):
    """A tab whose figure is image panels (:class:`~explorer.ui.views.panels.PanelFigure`): a CSS grid whose
    cells come in two HTML parts, the panels that change only with the image and the zoom box, and the rest (an
    unchanged part is not sent again)."""

    def make_figure(self):
        import ipywidgets as W

        self.parts = (W.HTML(), W.HTML())
        for part in self.parts:
            part.add_class("xf-part")
        grid = W.GridBox(list(self.parts), layout=W.Layout(width="100%", overflow="auto", grid_gap="10px"))
        grid.add_class("xf-grid")
        return grid

    def show_figure(self, markup):
        columns, static, dynamic = markup
        if self.figure.layout.grid_template_columns != columns:
            self.figure.layout.grid_template_columns = columns
        for part, value in zip(self.parts, (static, dynamic)):
            if part.value != value:
                part.value = value

    @property
    def markup(self) -> str:
        return "".join(part.value for part in self.parts)

    def panels(self, data, snap):
        raise NotImplementedError

    def draw(self, data, snap):
        fig = self.panels(data, snap)
        return (template_columns(fig), *figure_parts(fig, f".explorer-figure-{self.name}")), fig.caption, fig


def _seed_box(value, state):
    import ipywidgets as W

    return W.BoundedIntText(value=value, min=0, max=2**31 - 1, description="seed", style=S.STYLE,
                            layout=W.Layout(width="180px"))


def _sample_slider(value, state):
    import ipywidgets as W

    return W.IntSlider(value=0, min=0, max=max(1, value or 1), description="output sample", continuous_update=True,
                       style=S.STYLE)


def _priorities(state, value, changes):
    return None if value is None else S.subset(tuple(PRIORITIES), "priorities", allow_empty=True)(state, value, changes)



def _errors(items) -> list:
    return [f"{label}: {value}" for label, value in items if isinstance(value, Exception)]


@register_tab
class ModesTab(PanelTab):
    name, title = "modes", "Modes"
    keys = RESIZE_KEYS + ("modes", "reference", "library", "crop")
    controls = ("modes", "reference", "library", "crop_x", "crop_y")
    settings = (Setting("reference", "lanczos", S.choice(MODES, "reference"), S.dropdown(MODES, "reference")),)

    @classmethod
    def option_targets(cls, state):
        return (*state["modes"], state["reference"]), (state["library"],)

    def compute(self, snap):
        from ..compute.modes import compute_modes

        s = snap.state
        return compute_modes(snap.image, s["modes"], s["reference"], scale=s["scale"], size=s["size"],
                             align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                             crop=s["crop"], engine=snap.engine)

    def panels(self, data, snap):
        from ..views.modes import modes_panels

        return modes_panels(data)

    def problems(self, data):
        items = list(data.outputs.items())
        if data.reference not in data.outputs:
            items.append((f"reference {data.reference}", data.reference_output))
        return _errors(items)


@register_tab
class GradientsTab(PanelTab):
    name, title = "gradients", "Gradients"
    keys = RESIZE_KEYS + ("modes", "library", "upstream", "seed", "rect", "crop")
    controls = ("modes", "library", "upstream", "seed", "crop_x", "crop_y")
    settings = (
        Setting("upstream", "ones", S.choice(tuple(UPSTREAMS), "upstream"),
                S.dropdown(list(UPSTREAMS), "upstream gradient", "300px")),
        Setting("seed", 0, S.int_range("seed", 0, 2**31 - 1), _seed_box),
        Setting("rect", DEFAULT_RECT, S.fractions("rect")),
    )

    @classmethod
    def option_targets(cls, state):
        return tuple(state["modes"]), (state["library"],)

    def compute(self, snap):
        from ..compute.gradients import compute_gradients

        s = snap.state
        return compute_gradients(snap.image, s["modes"], s["upstream"], scale=s["scale"], size=s["size"],
                                 align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                                 seed=s["seed"], rect=s["rect"], crop=s["crop"], engine=snap.engine)

    def panels(self, data, snap):
        from ..views.gradients import gradients_panels

        return gradients_panels(data)

    def problems(self, data):
        return _errors(data.results.items())


@register_tab
class KernelsTab(Tab):
    name, title = "kernels", "Kernels"
    keys = ("scale", "size", "align_corners", "antialias", "mode", "modes", "library", "length", "sample",
            "image_width")
    controls = ("mode", "modes", "library", "length", "sample")
    settings = (
        Setting("length", 8, S.int_range("length", 2, APP_MAX_LENGTH), S.int_slider("samples", 2, APP_MAX_LENGTH)),
        Setting("sample", None, S.int_range("sample", 0, 10 * APP_MAX_LENGTH, allow_none=True), _sample_slider),
    )

    @classmethod
    def option_targets(cls, state):
        return (state["mode"], *state["modes"]), (state["library"],)

    #: the figure is as wide as the app (never wider: no scrolling inside its box); from this width on, in CSS
    #: pixels, its smallest text (9.5 pt of 864) is 12 px or more; narrower (a sidebar, a browser zoom) the
    #: page shows the stacked layout instead (10.5 pt of 360: 12 px from 412 px on), at most NARROW_MAX_WIDTH
    #: wide (its text 22 px at most)
    READABLE_WIDTH, NARROW_MAX_WIDTH = KERNELS_WIDE_PX, KERNELS_NARROW_MAX_PX

    def __init__(self, app):
        super().__init__(app)
        self.views = None  # the wide and the narrow matplotlib figures, made when the tab is first drawn

    def compute(self, snap):
        from ..compute.kernels import compute_kernels

        s = snap.state
        return compute_kernels(s["mode"], s["modes"], n=s["length"], scale=s["scale"], size=s["size"],
                               align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                               sample=s["sample"], image_length=snap.image.shape[1])

    @property
    def view(self):
        """The wide figure (what the page shows in a wide window, and the page export)."""
        return self.views[0] if self.views else None

    def make_figure(self):
        """Both layouts, each in its own HTML element, the container's width picking one (:data:`STYLE`'s
        kernels rules): the narrow one is drawn after the wide one is shown (:meth:`draw_later`), so a wide
        page never waits for the figure it does not show, and a narrow page gets it right after."""
        import ipywidgets as W

        self.layouts = (W.HTML(), W.HTML())
        for part, name in zip(self.layouts, ("xf-svg-wide", "xf-svg-narrow")):
            part.add_class(name)
        box = W.Box(list(self.layouts), layout=W.Layout(width="100%", display="block"))
        box.add_class("xf-svg")
        return box

    def show_figure(self, markup):
        if self.layouts[0].value != markup:
            self.layouts[0].value = markup

    @property
    def markup(self) -> str:
        return "".join(part.value for part in self.layouts)

    def _views(self):
        from ..views.kernels import KernelsView

        if self.views is None:
            self.views = (KernelsView(), KernelsView(layout="narrow"))
        return self.views

    @staticmethod
    def _svg(view) -> str:
        from ..views.kernels import svg_markup

        label = html.escape(view.caption, quote=True)  # what is drawn, for a screen reader
        return f"<div role='img' aria-label='{label}'>{svg_markup(view.fig)}</div>"

    def draw(self, data, snap):
        wide = self._views()[0].update(data)
        return self._svg(wide), wide.caption, wide

    def draw_later(self, data, snap):
        narrow = self._views()[1]
        return lambda: self._svg(narrow.update(data))

    def apply_later(self, key, markup):
        if key == self.drawn_key and self.layouts[1].value != markup:
            self.layouts[1].value = markup

    def export_figure(self, data, snap, slide=False, height=None):
        from ..views.kernels import KernelsView

        return KernelsView(layout="slide" if slide else "wide", height=height).update(data).fig

    def show(self, data):
        self.app.sync_sample_slider(data.m, data.sample)

    def problems(self, data):
        out = [f"{data.mode}: {data.error}"] if data.error is not None else []
        return out + [p for p in _errors(data.responses.items()) if not p.startswith(f"{data.mode}:")]


@register_tab
class LibrariesTab(PanelTab):
    name, title = "libraries", "Libraries"
    keys = RESIZE_KEYS + ("mode", "libraries", "same_options", "training", "crop")
    controls = ("mode", "libraries", "same_options", "training", "crop_x", "crop_y")
    settings = (
        Setting("libraries", ("torch", "tensorflow", "jax", "opencv", "pillow"), S.subset(library_ids, "libraries"),
                S.multi(lambda state: library_ids(), "libraries"), to_widget=lambda v: tuple(v or ()),
                from_widget=tuple),
        Setting("same_options", False, S.flag("same_options"),
                S.toggle([("each library's defaults", False), ("same options for all", True)], "options")),
    )

    @classmethod
    def option_targets(cls, state):
        return (state["mode"],), tuple(state["libraries"])

    def make_extras(self):
        import ipywidgets as W

        self.calls = W.HTML(layout=W.Layout(width="100%"))
        self.calls.add_class("explorer-library-calls")
        self.table = W.HTML()
        self.table.add_class("explorer-metrics")
        return [self.table, self.calls]

    def compute(self, snap):
        from ..compute.libraries import compute_libraries

        s = snap.state
        work = working_copy(snap.image, s["scale"], s["size"])
        data = compute_libraries(work.image, s["mode"], s["libraries"], scale=work.scale, size=work.size,
                                 align_corners=s["align_corners"], antialias=s["antialias"],
                                 training=s["training"], same_options=s["same_options"])
        data.working_note = work.note
        return data

    def panels(self, data, snap):
        from ..views.libraries import libraries_panels

        fig = libraries_panels(data, snap.state["crop"])
        if data.working_note:
            fig.caption = f"{data.working_note}  {fig.caption}"
        return fig

    def show(self, data):
        from ..views.libraries import calls_html, metrics_rows

        self.table.value = html_table(metrics_rows(data))
        self.calls.value = calls_html(data)

    def problems(self, data):
        return _errors(data.outputs.items())


@register_tab
class BackendsTab(Tab):
    name, title = "backends", "Backends"
    keys = RESIZE_KEYS + ("backend", "version", "opset", "device", "training", "mode")
    controls = ("mode", "backend", "version", "opset", "device", "training")
    settings = (
        Setting("backend", "torch", S.backend_check, S.dropdown(S.backend_ids, "backend")),
        Setting("version", None, S.version_check, S.dropdown([S.LATEST], "version"), *S.none_as(S.LATEST)),
        Setting("opset", None, S.opset_check, S.dropdown([S.DEFAULT], "opset", "180px"), *S.none_as(S.DEFAULT)),
        Setting("device", None, S.device_check, S.dropdown([S.DEFAULT], "device"), *S.none_as(S.DEFAULT)),
    )

    @classmethod
    def option_targets(cls, state):
        return (state["mode"],), ("torch",)

    def make_extras(self):
        import ipywidgets as W

        self.findings = W.HTML(layout=W.Layout(width="100%"))
        self.findings.add_class("explorer-findings")
        self.code = W.Textarea(layout=W.Layout(width="100%", height="160px"), description="fix code",
                               style={"description_width": "initial"})
        self.code.add_class("explorer-fix-code")
        from .model_panel import ModelPanel

        self.model = ModelPanel(lambda: self.app.state)
        return [self.findings, self.code, self.model.widget]

    def compute(self, snap):
        from ..compute.backends import compute_backends

        s = snap.state
        work = working_copy(snap.image, s["scale"], s["size"])
        data = compute_backends(MODES, s["backend"], version=s["version"], device=s["device"],
                                training=s["training"], align_corners=s["align_corners"], antialias=s["antialias"],
                                mode=s["mode"], image=work.image, scale=work.scale, size=work.size,
                                opset=s["opset"])
        data.working_note = work.note
        return data

    def draw(self, data, snap):
        from ..views.backends import backends_html

        caption = ("Each cell is the worst finding of explorer.check for that mode and use on this backend, "
                   "version and device (green ok, amber warning, orange differs from PyTorch, red error); hover "
                   "a cell for the reason.  Below: the findings for the current mode and the fixes of "
                   "explorer.suggest_fixes, measured on this image.")
        if data.working_note:
            caption += "  " + data.working_note
        return backends_html(data), caption, data

    def export_figure(self, data, snap, slide=False, height=None):
        from ..views.backends import BackendsView

        return BackendsView(findings=True, slide=slide, height=height).update(data).fig

    def show(self, data):
        self.findings.value = findings_html(data)
        self.code.value = fix_code(data)
        # an empty code box says why it is empty (nothing to fix), and takes one line instead of eight
        empty = not self.code.value
        self.code.placeholder = (f"no fix code: {data.mode} neither fails nor differs on {data.backend} here"
                                 if empty and data.nothing_to_fix else "")
        self.code.layout.height = "40px" if empty else "160px"
        try:
            self.model.refresh()  # the uploaded model, for this backend, version, device and training
        except (ValueError, TypeError) as exc:
            self.model.error = str(exc)
            self.model.render()

    def problems(self, data):
        return []  # a fix that cannot be measured is said in the findings panel, with why


@register_tab
class PickTab(Tab):
    name, title = "pick", "Pick a mode"
    keys = ("image", "scale", "size", "align_corners", "targets", "training", "content", "priorities",
            "frameworks", "backend", "version", "device")
    controls = ("content", "priorities", "training", "targets", "frameworks")
    settings = (
        Setting("content", "photo", S.choice(tuple(CONTENTS), "content"), S.dropdown(list(CONTENTS), "content")),
        Setting("priorities", None, _priorities, S.multi([(PRIORITY_LABELS[p], p) for p in PRIORITIES], "matters (for this content)", "560px"),
                to_widget=lambda v: tuple(v or ()), from_widget=tuple),
        Setting("targets", ("torch",), S.backend_list("targets"), S.tags(S.backend_ids, "targets (where the model runs)"),
                to_widget=lambda v: tuple(v or ()), from_widget=tuple),
        Setting("frameworks", ("torch", "tensorflow", "jax"), S.backend_list("frameworks"),
                S.tags(S.backend_ids, "code for"), to_widget=lambda v: tuple(v or ()), from_widget=tuple),
    )

    @classmethod
    def option_targets(cls, state):
        return (), (state["library"],)

    def make_extras(self):
        import ipywidgets as W

        self.why = W.HTML(layout=W.Layout(width="100%"))
        self.why.add_class("explorer-pick-why")
        self.table = W.HTML()
        self.table.add_class("explorer-pick-table")
        self.code = W.Textarea(layout=W.Layout(width="100%", height="170px"), description="code",
                               style={"description_width": "initial"})
        self.code.add_class("explorer-pick-code")
        self._measured, self._measured_key = None, None
        return [self.why, self.code, self.table]

    def compute(self, snap):
        from ...advisor.pick import measure_candidates, pick

        s = snap.state
        work = working_copy(snap.image, s["scale"], s["size"])
        key = (snap.key_of("image"), s["scale"], s["size"], s["align_corners"])
        if self._measured_key != key:  # the figures depend on the image and the resize only
            self._measured = measure_candidates(work.image, scale=work.scale, size=work.size,
                                                align_corners=s["align_corners"])
            self._measured_key = key
        same = tuple(s["targets"]) == (s["backend"],)
        result = pick(work.image, scale=work.scale, size=work.size, targets=s["targets"], training=s["training"],
                      content=s["content"], priorities=s["priorities"], frameworks=s["frameworks"],
                      align_corners=s["align_corners"], version=s["version"] if same else None,
                      device=s["device"] if same else None, measured=self._measured)
        result.working_note = work.note
        return result

    def draw(self, data, snap):
        from ..views.pick import pick_html

        caption = ("Each candidate is run on this image and on a zone plate.  The bar is the score, split into "
                   "what each criterion contributes (bold: what matters, weight 1; the others 0.2).  Each cell "
                   "holds the measured figure and is coloured by its goodness: aliasing energy on the zone "
                   "plate, contrast kept (sharpness), overshoot beyond the input's range, the share of input "
                   "pixels that get gradient (coverage), misalignment in output pixels, taps per output.")
        if data.working_note:
            caption += "  " + data.working_note
        return pick_html(data), caption, data

    def export_figure(self, data, snap, slide=False, height=None):
        from ..views.pick import PickView

        return PickView(slide=slide, height=height).update(data).fig

    def show(self, data):
        from ..views.pick import pick_rows

        self.app.show_priorities(data.priorities)
        self.table.value = html_table(pick_rows(data))
        self.why.value = f"<p>{html.escape(data.why)}</p>"
        self.code.value = "\n\n".join(f"# --- {fw}\n{code}" for fw, code in data.code.items())

    def problems(self, data):
        return [] if data.winner is not None else [data.why]




def fix_code(data) -> str:
    """The code of every measured fix, best first, each under a comment line."""
    blocks = [f"# {k}. {fx.description}\n{fx.code}" for k, fx in enumerate(data.fixes, 1) if fx.code]
    if not blocks and data.error is not None and not data.nothing_to_fix:
        return f"# no fix could be measured on this image: {data.error}"
    if not blocks and not data.nothing_to_fix and data.rejected:
        return "# no candidate fix runs on this setup:\n" + "\n".join(
            f"#   {what}: {why}" for what, why in data.rejected[:5])
    return "\n\n".join(blocks)


def findings_html(data) -> str:
    """The findings of the current mode on the backend, with the exact error text, and the measured fixes."""
    parts = [f"<b>{html.escape(data.mode)} on {html.escape(data.backend)}</b>"]
    items = []
    for f in data.findings:
        colour = {"error": "#b00000", "differs": "#c05000", "warning": "#8a6d00"}.get(f.severity, "#444")
        text = f"<span style='color:{colour}'><b>{f.severity}</b></span>: {html.escape(f.message)}"
        if f.error_text:
            text += f"<br><code>{html.escape(f.error_text)}</code>"
        if f.versions:
            text += f"<br><span style='color:#555'>releases: {html.escape(f.versions)}</span>"
        if f.evidence_text:
            text += f"<br><span style='color:#555'>evidence: {html.escape(f.evidence_text)}</span>"
        items.append(f"<li>{text}</li>")
    parts.append("<ul>" + "".join(items) + "</ul>" if items else "<p>no findings</p>")
    if data.fixes:
        parts.append("<b>fixes, measured on this image</b><ol>"
                     + "".join(f"<li>{html.escape(str(fx))}</li>" for fx in data.fixes) + "</ol>")
    if getattr(data, "device_fixes", None):
        names = ", ".join(fx.description for fx in data.device_fixes)
        parts.append(f"<p style='color:#555'>fixes for one device ({html.escape(names)}) are offered once a "
                     f"device is chosen above (the device is the backend's default here)</p>")
    if data.nothing_to_fix:
        parts.append(f"<p>nothing to fix: {html.escape(data.mode)} neither fails nor differs here</p>")
    elif data.error is not None:
        parts.append(f"<p style='color:#555'>no fix could be measured on this image: "
                     f"{html.escape(str(data.error))}</p>")
    elif not data.fixes and data.rejected:
        parts.append("<p style='color:#555'>no candidate fix runs on this setup:</p><ul>" + "".join(
            f"<li style='color:#555'>{html.escape(what)}: {html.escape(why)}</li>" for what, why in data.rejected[:5])
                     + "</ul>")
    return "".join(parts)


def html_table(rows) -> str:
    """Rows of strings (header first) as a small HTML table."""
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f"<table class='xf-table'><tr>{head}</tr>{body}</table>"

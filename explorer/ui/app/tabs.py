"""The six tabs: what state each depends on, how it computes its data, and what it shows besides the figure.

A tab recomputes only when one of its keys changed since it last drew (:meth:`Tab.refresh`); the app refreshes
the visible tab at once and the others when they are opened.
"""

from __future__ import annotations

import html
import time

import ipywidgets as W

from ...conventions.image_resize import MODES
from ...engine.threads import blas_threads
from .hosts import FigureHost

RESIZE_KEYS = ("image", "scale", "size", "align_corners", "antialias")


class Tab:
    name = ""
    title = ""
    keys: tuple = ()
    control_keys: tuple = ()

    def __init__(self, app, display):
        self.app = app
        self.host = FigureHost(display, "explorer-figure")
        self.host.widget.add_class(f"explorer-figure-{self.name}")
        self.view = self.make_view(self.host.figure)
        self.caption = W.HTML(layout=W.Layout(max_width="1100px"))
        self.caption.add_class("explorer-caption")
        self.extras = self.make_extras()
        self.data = None
        self.drawn_key = None
        self.timing = {}

    # ------------------------------------------------------------------ to implement
    def make_view(self, fig):
        raise NotImplementedError

    def make_extras(self) -> list:
        return []

    def compute(self):
        raise NotImplementedError

    def show(self, data):
        """Update the extra widgets (tables, code) for ``data``."""

    def caption_text(self) -> str:
        return getattr(self.view, "caption", "")

    def problems(self, data) -> list:
        """What could not be computed, one sentence each (shown in the app's message area)."""
        return []

    # ------------------------------------------------------------------ shared
    def widget(self, controls):
        rows = [W.HBox([controls[k].widget for k in self.control_keys])] if self.control_keys else []
        box = W.VBox(rows + [self.host.widget, self.caption] + self.extras)
        box.add_class(f"explorer-tab-{self.name}")
        return box

    def key(self):
        return tuple(self.app.key_of(k) for k in self.keys)

    def refresh(self, force: bool = False) -> bool:
        """Recompute and redraw when a key changed (or ``force``); True when it did."""
        key = self.key()
        if key == self.drawn_key and not force:
            return False
        t0 = time.perf_counter()
        with blas_threads():  # the engine's own setting: small arrays, no waiting for a busy core
            data = self.compute()
            t1 = time.perf_counter()
            self.view.update(data)
            self.show(data)
        self.caption.value = f"<div style='font-size:90%'>{html.escape(self.caption_text())}</div>"
        t2 = time.perf_counter()
        self.host.refresh()
        t3 = time.perf_counter()
        self.data, self.drawn_key = data, key
        self.timing = {"compute": t1 - t0, "update": t2 - t1, "draw": t3 - t2}
        return True


def _errors(items) -> list:
    return [f"{label}: {value}" for label, value in items if isinstance(value, Exception)]


class ModesTab(Tab):
    name, title = "modes", "Modes"
    keys = RESIZE_KEYS + ("modes", "reference", "library", "crop")

    def make_view(self, fig):
        from ..views.modes import ModesView

        return ModesView(fig)

    def compute(self):
        from ..views.modes import compute_modes

        s = self.app.state
        return compute_modes(self.app.image, s["modes"], s["reference"], scale=s["scale"], size=s["size"],
                             align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                             crop=s["crop"], engine=self.app.engine)

    def problems(self, data):
        items = list(data.outputs.items())
        if data.reference not in data.outputs:
            items.append((f"reference {data.reference}", data.reference_output))
        return _errors(items)


class GradientsTab(Tab):
    name, title = "gradients", "Gradients"
    keys = RESIZE_KEYS + ("modes", "library", "upstream", "seed", "rect", "crop")
    control_keys = ("upstream", "seed")

    def make_view(self, fig):
        from ..views.gradients import GradientsView

        return GradientsView(fig)

    def compute(self):
        from ..views.gradients import compute_gradients

        s = self.app.state
        return compute_gradients(self.app.image, s["modes"], s["upstream"], scale=s["scale"], size=s["size"],
                                 align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                                 seed=s["seed"], rect=s["rect"], crop=s["crop"], engine=self.app.engine)

    def problems(self, data):
        return _errors(data.results.items())


class KernelsTab(Tab):
    name, title = "kernels", "Kernels"
    keys = ("scale", "size", "align_corners", "antialias", "mode", "modes", "library", "length", "sample",
            "image_width")
    control_keys = ("length", "sample")

    def make_view(self, fig):
        from ..views.anatomy import AnatomyView

        return AnatomyView(fig)

    def compute(self):
        from ..views.anatomy import compute_anatomy

        s = self.app.state
        return compute_anatomy(s["mode"], s["modes"], n=s["length"], scale=s["scale"], size=s["size"],
                               align_corners=s["align_corners"], antialias=s["antialias"], library=s["library"],
                               sample=s["sample"], image_length=self.app.image.shape[1])

    def show(self, data):
        self.app.sync_sample_slider(data.m, data.sample)

    def problems(self, data):
        out = [f"{data.mode}: {data.error}"] if data.error is not None else []
        return out + [p for p in _errors(data.responses.items()) if not p.startswith(f"{data.mode}:")]


class LibrariesTab(Tab):
    name, title = "libraries", "Libraries"
    keys = RESIZE_KEYS + ("mode", "libraries", "training")
    control_keys = ("libraries",)

    def make_view(self, fig):
        from ..views.libraries import LibrariesView

        return LibrariesView(fig)

    def make_extras(self):
        self.table = W.HTML()
        self.table.add_class("explorer-metrics")
        return [self.table]

    def compute(self):
        from ..views.libraries import compute_libraries

        s = self.app.state
        return compute_libraries(self.app.image, s["mode"], s["libraries"], scale=s["scale"], size=s["size"],
                                 align_corners=s["align_corners"], antialias=s["antialias"], training=s["training"])

    def show(self, data):
        from ..views.libraries import metrics_rows

        self.table.value = html_table(metrics_rows(data))

    def problems(self, data):
        return _errors(data.outputs.items())

    def caption_text(self):
        return ("The same nominal mode under each library's convention (explorer.library_resize), every library "
                "called with the same explicit output size (a scale becomes floor(n × scale)), and each output "
                "minus the reference (the first library that runs), mean over channels, on one signed scale.  "
                "The table compares outputs and gradients (one seeded random upstream gradient) with the "
                "reference.")


class BackendsTab(Tab):
    name, title = "backends", "Backends"
    keys = RESIZE_KEYS + ("backend", "version", "opset", "device", "training", "mode")

    def make_view(self, fig):
        from ..views.backends import BackendsView

        return BackendsView(fig)

    def make_extras(self):
        self.findings = W.HTML(layout=W.Layout(max_width="1100px"))
        self.findings.add_class("explorer-findings")
        self.code = W.Textarea(layout=W.Layout(width="900px", height="140px"), description="fix code")
        self.code.add_class("explorer-fix-code")
        from .model_panel import ModelPanel

        self.model = ModelPanel(lambda: self.app.state)
        return [self.findings, self.code, self.model.widget]

    def compute(self):
        from ..views.backends import compute_backends

        s = self.app.state
        return compute_backends(MODES, s["backend"], version=s["version"], device=s["device"],
                                training=s["training"], align_corners=s["align_corners"], antialias=s["antialias"],
                                mode=s["mode"], image=self.app.image, scale=s["scale"], size=s["size"],
                                opset=s["opset"])

    def show(self, data):
        parts = [f"<b>{html.escape(data.mode)} on {html.escape(data.backend)}</b>"]
        items = []
        for f in data.findings:
            colour = {"error": "#b00000", "differs": "#c05000", "warning": "#8a6d00"}.get(f.severity, "#444")
            text = f"<span style='color:{colour}'><b>{f.severity}</b></span>: {html.escape(f.message)}"
            if f.error_text:
                text += f"<br><code>{html.escape(f.error_text)}</code>"
            if f.versions:
                text += f"<br><small>releases: {html.escape(f.versions)}</small>"
            items.append(f"<li>{text}</li>")
        parts.append("<ul>" + "".join(items) + "</ul>" if items else "<p>no findings</p>")
        if data.fixes:
            parts.append("<b>fixes, measured on this image</b><ol>"
                         + "".join(f"<li>{html.escape(str(fx))}</li>" for fx in data.fixes) + "</ol>")
        if data.error is not None:
            parts.append(f"<p>fixes could not be measured: {html.escape(str(data.error))}</p>")
        self.findings.value = "".join(parts)
        self.code.value = fix_code(data)
        try:
            self.model.refresh()  # the uploaded model, for this backend, version, device and training
        except (ValueError, TypeError) as exc:
            self.model.error = str(exc)
            self.model.render()

    def problems(self, data):
        return [f"fixes could not be measured: {data.error}"] if data.error is not None else []

    def caption_text(self):
        return ("Each cell is the worst finding of explorer.check for that mode and use on this backend, version "
                "and device (green ok, amber warning, orange differs from PyTorch, red error).  Below: the "
                "findings for the current mode and the fixes of explorer.suggest_fixes, measured on this image.")


class PickTab(Tab):
    name, title = "pick", "Pick a mode"
    keys = ("image", "scale", "size", "align_corners", "targets", "training", "content", "priorities",
            "frameworks", "backend", "version", "device")
    control_keys = ("content", "priorities", "targets", "frameworks")

    def make_view(self, fig):
        from ..views.pick import PickView

        return PickView(fig, values=False)

    def make_extras(self):
        self.why = W.HTML(layout=W.Layout(max_width="1100px"))
        self.why.add_class("explorer-pick-why")
        self.table = W.HTML()
        self.table.add_class("explorer-pick-table")
        self.code = W.Textarea(layout=W.Layout(width="900px", height="160px"), description="code")
        self.code.add_class("explorer-pick-code")
        self._measured, self._measured_key = None, None
        return [self.why, self.table, self.code]

    def compute(self):
        from ...advisor.pick import measure_candidates, pick

        s = self.app.state
        key = (self.app.key_of("image"), s["scale"], s["size"], s["align_corners"])
        if self._measured_key != key:  # the figures depend on the image and the resize only
            self._measured = measure_candidates(self.app.image, scale=s["scale"], size=s["size"],
                                                align_corners=s["align_corners"])
            self._measured_key = key
        same = tuple(s["targets"]) == (s["backend"],)
        return pick(self.app.image, scale=s["scale"], size=s["size"], targets=s["targets"], training=s["training"],
                    content=s["content"], priorities=s["priorities"], frameworks=s["frameworks"],
                    align_corners=s["align_corners"], version=s["version"] if same else None,
                    device=s["device"] if same else None, measured=self._measured)

    def show(self, data):
        from ..views.pick import pick_rows

        self.table.value = html_table(pick_rows(data))
        self.why.value = f"<p>{html.escape(data.why)}</p>"
        self.code.value = "\n\n".join(f"# --- {fw}\n{code}" for fw, code in data.code.items())

    def problems(self, data):
        return [] if data.winner is not None else [data.why]

    def caption_text(self):
        return ("Each candidate is run on this image and on a zone plate.  Left: the score, split into what each "
                "criterion contributes (bold: what matters, weight 1; the others 0.2).  Right: each criterion's "
                "goodness from red (0) to green (1); the table below gives the measured figures (aliasing energy, "
                "contrast kept, overshoot, share of pixels with gradient, misalignment in output pixels, taps per "
                "output).")


TAB_CLASSES = (ModesTab, GradientsTab, KernelsTab, LibrariesTab, BackendsTab, PickTab)


def fix_code(data) -> str:
    """The code of every measured fix, best first, each under a comment line."""
    blocks = [f"# {k}. {fx.description}\n{fx.code}" for k, fx in enumerate(data.fixes, 1) if fx.code]
    return "\n\n".join(blocks)


def html_table(rows) -> str:
    """Rows of strings (header first) as a small HTML table."""
    if not rows:
        return ""
    head = "".join(f"<th style='padding:2px 8px'>{html.escape(str(c))}</th>" for c in rows[0])
    body = "".join("<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in r)
                   + "</tr>" for r in rows[1:])
    return f"<table><tr>{head}</tr>{body}</table>"


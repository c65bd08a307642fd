"""Figures for slides: a tab's figure as PNG, SVG or PDF at a chosen dpi, with the settings stamped on it and the
whole configuration stored in the file (PNG text chunk ``explorer-config``; SVG description; PDF subject).

Image panels (:class:`~explorer.ui.views.panels.PanelFigure`) are placed with ``figimage`` at a whole zoom in
pixels of the chosen dpi, so an exported PNG shows every image pixel as a k x k square, as the app does;
plots (the Kernels, Backends and Pick figures) are matplotlib figures framed with the same stamp and caption.
Text is at least :data:`MIN_TEXT_PT` points: 12.5 pixels at the lowest dpi offered, 100.

>>> import numpy as np
>>> from explorer.ui.views.panels import PanelFigure, grey_bar, whole_panel
>>> fig = PanelFigure("demo", [("inputs", ["a"])], {"a": whole_panel(np.zeros((4, 6, 1)), "a 4×6", "grey")},
...                   {0: grey_bar()}, "caption")
>>> data = figure_bytes(panel_export(fig, "stamp", dpi=100), "png", 100, {"explorer-config": "{}"})
>>> png_size(data)[0] >= 1600, png_text(data)["explorer-config"]
(True, '{}')
"""

from __future__ import annotations

import io
import textwrap

from typing import TYPE_CHECKING

import numpy as np

from . import pixels as P
from .panels import PanelFigure

if TYPE_CHECKING:  # imported when a figure is exported (the app imports this module for its choices)
    from matplotlib.figure import Figure

FORMATS = ("png", "svg", "pdf")
DPIS = (100, 150, 200, 300)
#: Width of an exported figure in inches: 1600 pixels at 100 dpi, 4800 at 300.
WIDTH_IN = 16.0
#: The smallest text of an exported figure, in points (12.5 px at 100 dpi).
MIN_TEXT_PT = 9.0
TITLE_PT, TEXT_PT, STAMP_PT = 11.0, 10.0, 10.0
#: Tallest a panel is zoomed to, in inches.
PANEL_IN = 4.0


def px(points: float, dpi: float) -> float:
    return points * dpi / 72.0


def wrap(text: str, width_px: float, points: float, dpi: float) -> list[str]:
    """Lines of ``text`` that fit ``width_px`` at ``points`` (an average glyph is ~0.55 em wide)."""
    chars = max(8, int(width_px / (0.56 * px(points, dpi))))
    return textwrap.wrap(text, chars) or [""]


class _Layout:
    """Where each panel, title, row label and colour bar of a PanelFigure goes, in pixels from the top."""

    def __init__(self, fig: PanelFigure, stamp: str, dpi: float):
        self.dpi = dpi
        self.margin, self.gap, self.bar_w = px(14, dpi), px(10, dpi), px(120, dpi)
        n = fig.columns
        widest = max((p.rgb.shape[1] for p in fig.panels.values() if p.rgb is not None), default=1)
        self.col = max((WIDTH_IN * dpi - 2 * self.margin - self.bar_w - n * self.gap) / n, widest)
        self.width = round(2 * self.margin + self.bar_w + n * (self.col + self.gap))
        self.items = []  # (kind, x, y, payload)
        y = self._lines("stamp", stamp, self.margin, self.width - 2 * self.margin, STAMP_PT) + self.gap
        for i, (label, keys) in enumerate(fig.rows):
            if label:
                y = self._lines("row", label, y, self.width, TEXT_PT) + self.gap / 2
            bottom = max([y] + [self._panel(fig.panels[k], j, y) for j, k in enumerate(keys) if k is not None])
            bar = fig.bars.get(i)
            if bar is not None:
                height = max(bottom - y, px(120, dpi))
                self.items.append(("bar", self.margin + n * (self.col + self.gap), y, (bar, height)))
                bottom = y + height
            y = bottom + 1.5 * self.gap
        y = self._lines("caption", fig.caption, y, self.width - 2 * self.margin, TEXT_PT)
        self.height = round(y + self.margin)

    def _line(self, points):
        return px(points, self.dpi) * 1.35

    def _lines(self, kind, text, y, width, points, x=None) -> float:
        """Place ``text`` wrapped to ``width`` from ``y`` down; returns the y below it."""
        for line in wrap(text, width, points, self.dpi):
            self.items.append((kind, self.margin if x is None else x, y, line))
            y += self._line(points)
        return y

    def _panel(self, panel, j, top) -> float:
        """Place one panel (its title, then its pixels at the largest whole zoom that fits); returns its bottom."""
        x = self.margin + j * (self.col + self.gap)
        y = self._lines("title", panel.title, top, self.col, TITLE_PT, x)
        if panel.rgb is None:
            return self._lines("error", panel.error, y, self.col, TEXT_PT, x)
        h, w = panel.rgb.shape[:2]
        k = max(1, int(min(self.col // w, PANEL_IN * self.dpi // h)))
        self.items.append(("image", x, y + 2, P.zoom(panel.rgb, k)))
        return y + 2 + h * k


def panel_export(fig: PanelFigure, stamp: str, dpi: float = 150) -> Figure:
    """``fig`` as a matplotlib Figure at ``dpi``: every panel at a whole zoom, each row's colour bar with its
    label, ticks and special colours, ``stamp`` (the settings) on top and the caption below."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    layout = _Layout(fig, stamp, dpi)
    W, Hpx = layout.width, layout.height
    from matplotlib.figure import Figure

    out = Figure(figsize=(W / dpi, Hpx / dpi), dpi=dpi)
    FigureCanvasAgg(out)
    styles = {"stamp": {"fontsize": STAMP_PT, "weight": "bold"}, "row": {"fontsize": TEXT_PT, "color": "#555555"},
              "title": {"fontsize": TITLE_PT}, "error": {"fontsize": TEXT_PT, "color": "#b00000"},
              "caption": {"fontsize": TEXT_PT, "color": "#333333"}}
    for kind, x, y, payload in layout.items:
        if kind == "image":
            out.figimage(payload, xo=round(x), yo=round(Hpx - y - payload.shape[0]), origin="upper")
        elif kind == "bar":
            _colour_bar(out, payload[0], x, y, payload[1], layout)
        else:
            out.text(x / W, 1 - y / Hpx, payload, va="top", ha="left", **styles[kind])
    return out


def _colour_bar(out, bar, x, y, height, layout):
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    dpi, W, Hpx = layout.dpi, layout.width, layout.height
    lines = wrap(bar.label, layout.bar_w, TEXT_PT, dpi)
    for i, text in enumerate(lines):
        out.text(x / W, 1 - (y + i * px(TEXT_PT, dpi) * 1.35) / Hpx, text, fontsize=TEXT_PT, va="top")
    top = y + len(lines) * px(TEXT_PT, dpi) * 1.35 + px(TEXT_PT, dpi)  # room for the top tick label
    line = px(TEXT_PT, dpi) * 1.35
    marks_h = len(bar.marks) * line + (line if bar.marks else 0)
    strip_h = max(height - (top - y) - marks_h, px(60, dpi))
    cax = out.add_axes((x / W, 1 - (top + strip_h) / Hpx, px(12, dpi) / W, strip_h / Hpx))
    mappable = ScalarMappable(Normalize(bar.lo, bar.hi), P.CMAPS[bar.scale])
    cb = out.colorbar(mappable, cax=cax, ticks=[bar.lo, (bar.lo + bar.hi) / 2, bar.hi])
    cb.ax.tick_params(labelsize=TEXT_PT)
    for i, (colour, text) in enumerate(bar.marks):
        ty = top + strip_h + line + i * line  # below the lowest tick label
        out.text(x / W, 1 - ty / Hpx, "■", color=colour, fontsize=TEXT_PT, va="top")
        out.text((x + px(TEXT_PT, dpi)) / W, 1 - ty / Hpx, text, fontsize=TEXT_PT, va="top")


def frame_figure(fig: Figure, stamp: str, caption: str) -> Figure:
    """A matplotlib figure made at least :data:`WIDTH_IN` wide (in proportion) and taller to hold ``stamp``
    above and ``caption`` below its content (every axes and figure text is moved, not redrawn)."""
    dpi = fig.dpi
    w, h = fig.get_size_inches()
    if w < WIDTH_IN:  # as wide as the panel figures: 1600 px at 100 dpi
        w, h = WIDTH_IN, h * WIDTH_IN / w
        fig.set_size_inches(w, h)
    line = px(TEXT_PT, dpi) * 1.35 / dpi
    head_lines = wrap(stamp, w * dpi, STAMP_PT, dpi)
    foot_lines = wrap(caption, w * dpi, TEXT_PT, dpi) if caption else []
    head, foot = (len(head_lines) + 1) * line, (len(foot_lines) + 0.5) * line
    total = h + head + foot
    for ax in fig.axes:
        box = ax.get_position()
        ax.set_position((box.x0, (box.y0 * h + foot) / total, box.width, box.height * h / total))
    for text in fig.texts:
        x, y = text.get_position()
        text.set_position((x, (y * h + foot) / total))
    fig.set_size_inches(w, total)
    for i, text in enumerate(head_lines):
        fig.text(0.01, 1 - (0.4 + i) * line / total, text, fontsize=STAMP_PT, weight="bold", va="top")
    for i, text in enumerate(foot_lines):
        fig.text(0.01, (foot - (0.2 + i) * line) / total, text, fontsize=TEXT_PT, color="#333333", va="top")
    return fig


def figure_bytes(fig: Figure, fmt: str, dpi: float, metadata: dict) -> bytes:
    """``fig`` saved as ``fmt`` (png, svg or pdf) at ``dpi``, with ``metadata`` in the file: PNG text chunks;
    for SVG and PDF the ``explorer-config`` entry becomes the description / subject."""
    if fmt not in FORMATS:
        from ...errors import choice_error

        raise choice_error("format", fmt, FORMATS)
    config = metadata.get("explorer-config", "")
    meta = {"png": dict(metadata),
            "svg": {"Title": metadata.get("Title", ""), "Description": config},
            "pdf": {"Title": metadata.get("Title", ""), "Subject": config}}[fmt]
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=dpi, metadata=meta)
    return buf.getvalue()


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of PNG bytes, from the header."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def png_text(data: bytes) -> dict:
    """The text chunks of PNG bytes."""
    from PIL import Image

    return dict(Image.open(io.BytesIO(data)).text)


def smallest_text_px(fig: Figure) -> float:
    """The smallest font of every visible text of ``fig`` (titles, labels, ticks, figure texts), in pixels at
    the figure's dpi."""
    fig.canvas.draw()
    sizes = [t.get_fontsize() for t in fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text"))
             if t.get_visible() and t.get_text().strip()]
    return min(sizes, default=np.inf) * fig.dpi / 72.0

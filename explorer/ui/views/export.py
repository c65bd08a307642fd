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


#: A 16:9 slide, in inches (PowerPoint's and Keynote's wide format), and its smallest text in points.
SLIDE_IN = (13.333, 7.5)
SLIDE_PT = 18.0


class _Layout:
    """Where each panel, title, row label and colour bar of a PanelFigure goes, in pixels from the top.
    ``text_pt``: the size of every text (None: the page sizes); ``rows``: how many rows to place;
    ``panel_px``: the tallest a panel is zoomed to; ``caption``: whether the caption is placed."""

    def __init__(self, fig: PanelFigure, stamp: str, dpi: float, *, width_in=WIDTH_IN, text_pt=None, rows=None,
                 panel_px=None, caption=True):
        self.dpi = dpi
        self.sizes = ((TITLE_PT, TEXT_PT, STAMP_PT) if text_pt is None else (text_pt,) * 3)
        self.title_pt, self.text_pt, self.stamp_pt = self.sizes
        self.panel_px = PANEL_IN * dpi if panel_px is None else panel_px
        scale = self.text_pt / TEXT_PT
        self.margin, self.gap, self.bar_w = px(14, dpi), px(10, dpi), px(120 * scale, dpi)
        n = fig.columns
        widest = max((p.rgb.shape[1] for p in fig.panels.values() if p.rgb is not None), default=1)
        self.col = max((width_in * dpi - 2 * self.margin - self.bar_w - n * self.gap) / n, widest)
        self.width = round(2 * self.margin + self.bar_w + n * (self.col + self.gap))
        self.items = []  # (kind, x, y, payload)
        y = self._lines("stamp", stamp, self.margin, self.width - 2 * self.margin, self.stamp_pt) + self.gap
        for i, (label, keys) in enumerate(fig.rows[:rows]):
            if label:
                y = self._lines("row", label, y, self.width, self.text_pt) + self.gap / 2
            sizes = [fig.panels[k].rgb.shape[:2] for k in keys if k is not None and fig.panels[k].rgb is not None]
            rw, rh = (max(w for _, w in sizes), max(h for h, _ in sizes)) if sizes else (1, 1)
            k = max(1, int(min(self.col // rw, self.panel_px // rh)))  # one zoom for the row, as in the app
            bottom = max([y] + [self._panel(fig.panels[key], j, y, k) for j, key in enumerate(keys)
                                if key is not None])
            bar = fig.bars.get(i)
            if bar is not None:
                height = max(bottom - y, px(120 * scale, dpi))
                self.items.append(("bar", self.margin + n * (self.col + self.gap), y, (bar, height)))
                bottom = y + height
            y = bottom + 1.5 * self.gap
        if caption:
            y = self._lines("caption", fig.caption, y, self.width - 2 * self.margin, self.text_pt)
        self.height = round(y + self.margin)

    def _line(self, points):
        return px(points, self.dpi) * 1.35

    def _lines(self, kind, text, y, width, points, x=None) -> float:
        """Place ``text`` wrapped to ``width`` from ``y`` down; returns the y below it."""
        for line in wrap(text, width, points, self.dpi):
            self.items.append((kind, self.margin if x is None else x, y, line))
            y += self._line(points)
        return y

    def _panel(self, panel, j, top, k) -> float:
        """Place one panel (its title, then its pixels at the row's whole zoom ``k``); returns its bottom."""
        x = self.margin + j * (self.col + self.gap)
        y = self._lines("title", panel.title, top, self.col, self.title_pt, x)
        if panel.rgb is None:
            return self._lines("error", panel.error, y, self.col, self.text_pt, x)
        h, w = panel.rgb.shape[:2]
        self.items.append(("image", x, y + 2, P.zoom(panel.rgb, k)))
        return y + 2 + h * k


def slide_layout(fig: PanelFigure, stamp: str, dpi: float, caption: bool = False) -> _Layout:
    """The layout of ``fig`` on a 16:9 slide (:data:`SLIDE_IN`) with every text at :data:`SLIDE_PT`: as many of
    its rows as fit with panels at least an inch tall, each panel at the largest whole zoom that fits."""
    width, height = (v * dpi for v in SLIDE_IN)
    for rows in range(len(fig.rows), 0, -1):
        for panel_in in (3.0, 2.0, 1.0):
            layout = _Layout(fig, stamp, dpi, width_in=SLIDE_IN[0], text_pt=SLIDE_PT, rows=rows,
                             panel_px=panel_in * dpi, caption=caption)
            if layout.height <= height and layout.width <= width + 1:
                layout.rows = rows
                return layout
    layout.rows = 1
    return layout


def panel_export(fig: PanelFigure, stamp: str, dpi: float = 150, *, slide: bool = False,
                 caption: bool = True) -> Figure:
    """``fig`` as a matplotlib Figure at ``dpi``: every panel at a whole zoom, each row's colour bar with its
    label, ticks and special colours, ``stamp`` (the settings) on top and, with ``caption``, the caption below.
    ``slide``: a 16:9 slide of 13.33 x 7.5 inches, every text 18 pt, the rows that fit (the first ones).

    >>> import numpy as np
    >>> from explorer.ui.views.panels import PanelFigure, grey_bar, whole_panel
    >>> fig = PanelFigure("demo", [("inputs", ["a"])], {"a": whole_panel(np.zeros((40, 60, 1)), "a", "grey")},
    ...                   {0: grey_bar()}, "caption")
    >>> [float(round(v, 2)) for v in panel_export(fig, "stamp", 100, slide=True).get_size_inches()]
    [13.33, 7.5]
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if slide:
        layout = slide_layout(fig, stamp, dpi, caption)
        W, Hpx = round(SLIDE_IN[0] * dpi), round(SLIDE_IN[1] * dpi)
    else:
        layout = _Layout(fig, stamp, dpi, caption=caption)
        W, Hpx = layout.width, layout.height
    from matplotlib.figure import Figure

    title_pt, text_pt, stamp_pt = layout.sizes
    out = Figure(figsize=(W / dpi, Hpx / dpi), dpi=dpi)
    FigureCanvasAgg(out)
    styles = {"stamp": {"fontsize": stamp_pt, "weight": "bold"}, "row": {"fontsize": text_pt, "color": "#555555"},
              "title": {"fontsize": title_pt}, "error": {"fontsize": text_pt, "color": "#b00000"},
              "caption": {"fontsize": text_pt, "color": "#333333"}}
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

    dpi = layout.dpi
    W, Hpx = out.get_size_inches() * dpi
    pt = layout.text_pt
    lines = wrap(bar.label, layout.bar_w, pt, dpi)
    for i, text in enumerate(lines):
        out.text(x / W, 1 - (y + i * px(pt, dpi) * 1.35) / Hpx, text, fontsize=pt, va="top")
    top = y + len(lines) * px(pt, dpi) * 1.35 + px(pt, dpi)  # room for the top tick label
    line = px(pt, dpi) * 1.35
    marks_h = len(bar.marks) * line + (line if bar.marks else 0)
    strip_h = max(height - (top - y) - marks_h, px(60, dpi))
    cax = out.add_axes((x / W, 1 - (top + strip_h) / Hpx, px(12, dpi) / W, strip_h / Hpx))
    mappable = ScalarMappable(Normalize(bar.lo, bar.hi), P.CMAPS[bar.scale])
    cb = out.colorbar(mappable, cax=cax, ticks=[bar.lo, (bar.lo + bar.hi) / 2, bar.hi])
    cb.ax.tick_params(labelsize=pt)
    for i, (colour, text) in enumerate(bar.marks):
        ty = top + strip_h + line + i * line  # below the lowest tick label
        out.text(x / W, 1 - ty / Hpx, "■", color=colour, fontsize=pt, va="top")
        out.text((x + px(pt, dpi)) / W, 1 - ty / Hpx, text, fontsize=pt, va="top")


#: The share of a framed figure's width its stamp and caption lines may fill (they start at 1% from the left).
TEXT_SPAN = 0.96


def frame_figure(fig: Figure, stamp: str, caption: str, slide: bool = False) -> Figure:
    """A matplotlib figure made at least :data:`WIDTH_IN` wide (in proportion) and taller to hold ``stamp``
    above and ``caption`` below its content (every axes and figure text is moved, not redrawn); ``slide``:
    made 16:9 (:data:`SLIDE_IN`, landscape) with the stamp and caption inside."""
    dpi = fig.dpi
    w, h = fig.get_size_inches()
    if slide:
        line = px(TEXT_PT, dpi) * 1.35 / dpi
        lines = (len(wrap(stamp, TEXT_SPAN * SLIDE_IN[0] * dpi, STAMP_PT, dpi)) + 1.5
                 + (len(wrap(caption, TEXT_SPAN * SLIDE_IN[0] * dpi, TEXT_PT, dpi)) if caption else 0))  # as placed below
        w, h = SLIDE_IN[0], SLIDE_IN[1] - lines * line
        fig.set_size_inches(w, h)
    elif w < WIDTH_IN:  # as wide as the panel figures: 1600 px at 100 dpi
        w, h = WIDTH_IN, h * WIDTH_IN / w
        fig.set_size_inches(w, h)
    line = px(TEXT_PT, dpi) * 1.35 / dpi
    head_lines = wrap(stamp, TEXT_SPAN * w * dpi, STAMP_PT, dpi)
    foot_lines = wrap(caption, TEXT_SPAN * w * dpi, TEXT_PT, dpi) if caption else []
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

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


def glyph_px(points: float, dpi: float, bold: bool = False) -> float:
    """The width of an average glyph at ``points`` in pixels: ~0.56 em, a bold one ~0.62 em (the stamp)."""
    return (0.62 if bold else 0.56) * px(points, dpi)


def wrap(text: str, width_px: float, points: float, dpi: float, bold: bool = False) -> list[str]:
    """Lines of ``text`` that fit ``width_px`` at ``points`` (:func:`glyph_px` a character)."""
    chars = max(8, int(width_px / glyph_px(points, dpi, bold)))
    return textwrap.wrap(text, chars) or [""]


#: A 16:9 slide, in inches (PowerPoint's and Keynote's wide format), and its smallest text in points.
SLIDE_IN = (13.333, 7.5)
SLIDE_PT = 18.0


class _Layout:
    """Where each panel, title, row label and colour bar of a PanelFigure goes, in pixels from the top.
    ``text_pt``: the size of every text (None: the page sizes); ``rows``: how many rows to place;
    ``panel_px``: the tallest a panel is zoomed to; ``caption``: whether the caption is placed."""

    def __init__(self, fig: PanelFigure, stamp: str, dpi: float, *, width_in=WIDTH_IN, text_pt=None, rows=None,
                 panel_px=None, caption=True, zooms=None, bar_px=None, max_height=None):
        self.dpi = dpi
        self.sizes = ((TITLE_PT, TEXT_PT, STAMP_PT) if text_pt is None else (text_pt,) * 3)
        self.title_pt, self.text_pt, self.stamp_pt = self.sizes
        self.spacing = 1.35 if text_pt is None else 1.25  # line height in ems (a slide's lines are tighter)
        self.panel_px = PANEL_IN * dpi if panel_px is None else panel_px
        scale = self.text_pt / TEXT_PT
        self.margin, self.gap, self.bar_w = px(14, dpi), px(10, dpi), px(120 * scale, dpi)
        if not any(i in fig.bars for i in range(len(fig.rows[:rows]))):
            self.bar_w = 0  # no colour bar among the rows placed: the panels take its column
        n = fig.columns
        free = width_in * dpi - 2 * self.margin - self.bar_w - n * self.gap
        if len(fig.widths) == n and text_pt is not None and free > sum(fig.widths):
            # a slide: each column its panel's width and an equal share of the rest, so the space left by a
            # row at a small zoom sits evenly between the panels (not as one gap after the widest) and the
            # narrow columns of shrunk outputs still hold their 18 pt titles on a line
            titles = [max((len(fig.panels[keys[j]].title) for _, keys in fig.rows[:rows]
                           if j < len(keys) and keys[j] is not None), default=0) for j in range(n)]
            # a column first grows to hold its longest title on one line (wrap's glyph width; a title longer
            # than an equal share of the width wraps), then the rest of the width is shared equally
            needs = [max(w, min((t + 1) * glyph_px(text_pt, dpi), free / n)) for w, t in zip(fig.widths, titles)]
            base = needs if sum(needs) <= free else list(fig.widths)
            spare = (free - sum(base)) / n
            self.cols = [w + spare for w in base]
        elif len(fig.widths) == n:  # as in the app: the columns share the width in proportion to their panels
            total = max(sum(fig.widths), 1)
            self.cols = [max(w, free * w / total) for w in fig.widths]
        else:
            widest = max((p.rgb.shape[1] for p in fig.panels.values() if p.rgb is not None), default=1)
            self.cols = [max(free / n, widest)] * n
        self.xs = [self.margin + sum(self.cols[:j]) + j * self.gap for j in range(n)]
        self.bar_x = self.margin + sum(self.cols) + n * self.gap
        self.width = round(self.bar_x + self.bar_w + self.margin)
        self.items = []  # (kind, x, y, payload)
        self.zooms = []  # each placed row's zoom
        bar_px = px(120 * scale, dpi) if bar_px is None else bar_px
        #: the stamp (the settings) is bold on a page; on a slide, in the regular weight: a line less, for the panels
        self.bold = text_pt is None
        y = self._lines("stamp", stamp, self.margin, self.width - 2 * self.margin, self.stamp_pt, bold=self.bold)
        y += self.gap
        for i, (label, keys) in enumerate(fig.rows[:rows]):
            if label:
                y = self._lines("row", label, y, self.width, self.text_pt) + self.gap / 2
            k = max(1, min(self.fit(fig, keys), int(self.panel_px // row_size(fig, keys)[1])))  # one zoom a row
            if zooms is not None:
                k = zooms[i]
            self.zooms.append(k)
            titles = [len(wrap(fig.panels[key].title, self.cols[j], self.title_pt, dpi)) for j, key in enumerate(keys)
                      if key is not None]
            image_top = y + max(titles, default=0) * self._line(self.title_pt)  # a row's images level
            bottom = max([y] + [self._panel(fig.panels[key], j, y, k, image_top) for j, key in enumerate(keys)
                                if key is not None])
            bar = fig.bars.get(i)
            if bar is not None:
                height = max(bottom - y, bar_px)
                self.items.append(("bar", self.bar_x, y, (bar, height)))
                bottom = y + height
            y = bottom + 1.5 * self.gap
        if caption:
            room = None if max_height is None else int((max_height - self.margin - y) // self._line(self.text_pt))
            y = self._lines("caption", fig.caption, y, self.width - 2 * self.margin, self.text_pt, room=room)
        self.height = round(y + self.margin)

    def fit(self, fig: PanelFigure, keys) -> int:
        """The largest whole zoom at which every panel of a row fits its column (at least 1)."""
        zooms = [int(self.cols[j] // fig.panels[key].rgb.shape[1]) for j, key in enumerate(keys)
                 if key is not None and fig.panels[key].rgb is not None]
        return max(1, min(zooms, default=1))

    def _line(self, points):
        return px(points, self.dpi) * self.spacing

    def _lines(self, kind, text, y, width, points, x=None, room=None, bold=False) -> float:
        """Place ``text`` wrapped to ``width`` from ``y`` down (at most ``room`` lines: :func:`cut`); returns the
        y below it."""
        lines = wrap(text, width, points, self.dpi, bold)
        for line in lines if room is None else cut(lines, room):
            self.items.append((kind, self.margin if x is None else x, y, line))
            y += self._line(points)
        return y

    def _panel(self, panel, j, top, k, image_top=None) -> float:
        """Place one panel (its title, then its pixels at the row's whole zoom ``k``, from ``image_top`` down
        when given); returns its bottom."""
        x, col = self.xs[j], self.cols[j]
        y = self._lines("title", panel.title, top, col, self.title_pt, x)
        y = max(y, image_top or y)
        if panel.rgb is None:
            return self._lines("error", panel.error, y, col, self.text_pt, x)
        h, w = panel.rgb.shape[:2]
        self.items.append(("image", x, y + 2, P.zoom(panel.rgb, k)))
        return y + 2 + h * k


def cut(lines: list[str], room: int) -> list[str]:
    """The first ``room`` of ``lines``, the last of them ending in "…" when some are left out.

    >>> cut(["one two", "three four", "five"], 2), cut(["one"], 2)
    (['one two', 'three …'], ['one'])
    """
    if len(lines) <= room:
        return lines
    kept = lines[:max(room, 0)]
    if kept:  # its last word gives way to the mark, so the line is no longer than it was
        words = kept[-1].split()
        kept[-1] = " ".join(words[:-1] + ["…"]) if len(words) > 1 else "…"
    return kept


def row_size(fig: PanelFigure, keys) -> tuple[int, int]:
    """(width, height) in pixels of the largest panel of a row."""
    sizes = [fig.panels[k].rgb.shape[:2] for k in keys if k is not None and fig.panels[k].rgb is not None]
    return (max(w for _, w in sizes), max(h for h, _ in sizes)) if sizes else (1, 1)


#: On a slide, the least a zoomed row's panels are drawn (inches: about an inch, a 32-pixel crop at 3x at
#: 100 dpi) and the least a colour bar is tall (inches: its label, its three ticks and a strip).
SLIDE_PANEL_IN, SLIDE_BAR_IN = 0.9, 1.6


def slide_layout(fig: PanelFigure, stamp: str, dpi: float, caption: bool = False) -> _Layout:
    """The layout of ``fig`` on a 16:9 slide (:data:`SLIDE_IN`) with every text at :data:`SLIDE_PT`: as many of
    its rows (the first ones) as fit with each zoomed row at least :data:`SLIDE_PANEL_IN` tall, then the rows
    zoomed up by whole factors, the least tall first, while they fit, so the slide is filled."""
    width, height = (v * dpi for v in SLIDE_IN)

    def layout(rows, zooms, cut=False):  # cut: the caption cut to the lines that fit the slide
        return _Layout(fig, stamp, dpi, width_in=SLIDE_IN[0], text_pt=SLIDE_PT, rows=rows, caption=caption,
                       zooms=zooms, bar_px=SLIDE_BAR_IN * dpi, max_height=height if cut else None)

    def fits(lay):
        return lay.height <= height and lay.width <= width + 1

    for rows in range(len(fig.rows), 0, -1):
        sizes = [row_size(fig, keys) for _, keys in fig.rows[:rows]]
        columns = layout(rows, None)  # the columns of these rows (with the colour bars' column or not)
        widest = [columns.fit(fig, keys) for _, keys in fig.rows[:rows]]  # the largest zoom fitting each row
        zooms = [min(top, max(1, -(-int(SLIDE_PANEL_IN * dpi) // h))) for (_, h), top in zip(sizes, widest)]
        best = layout(rows, zooms)
        if not fits(best):
            if rows > 1:
                continue
            best = layout(rows, zooms, cut=True)  # the first row and as much of the caption as fits
        while fits(best):  # zoom up the least tall row that can grow and still fits
            growable = sorted((zooms[i] * sizes[i][1], i) for i in range(rows) if zooms[i] < widest[i])
            for _, i in growable:
                trial = layout(rows, zooms[:i] + [zooms[i] + 1] + zooms[i + 1:])
                if fits(trial):
                    zooms, best = trial.zooms, trial
                    break
            else:
                break
        best.rows = rows
        return best
    best.rows = 1
    return best


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
    styles = {"stamp": {"fontsize": stamp_pt, "weight": "bold" if layout.bold else "normal"}, "row": {"fontsize": text_pt, "color": "#555555"},
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
#: On a slide, the least height a plot keeps (inches): a caption longer than the rest is cut (:func:`cut`).
SLIDE_PLOT_IN = 4.8


def slide_frame(stamp: str, caption: str, dpi: float) -> tuple[float, list[str], list[str]]:
    """A plot on a slide: its height in inches (what the stamp and the caption leave of the slide), the stamp's
    lines and the caption's (those that leave the plot :data:`SLIDE_PLOT_IN`), every text :data:`SLIDE_PT`.

    >>> h, head, foot = slide_frame("stamp", "a caption " * 200, 100)
    >>> h >= SLIDE_PLOT_IN, len(head), foot[-1].endswith("…")
    (True, 1, True)
    """
    line = px(SLIDE_PT, dpi) * 1.35 / dpi
    span = TEXT_SPAN * SLIDE_IN[0] * dpi
    head = wrap(stamp, span, SLIDE_PT, dpi)  # in the regular weight, as on a slide of image panels
    foot = wrap(caption, span, SLIDE_PT, dpi) if caption else []
    foot = cut(foot, int((SLIDE_IN[1] - SLIDE_PLOT_IN) / line - len(head) - 1.5))
    return SLIDE_IN[1] - (len(head) + 1.5 + len(foot)) * line, head, foot


def frame_figure(fig: Figure, stamp: str, caption: str, slide: bool = False) -> Figure:
    """A matplotlib figure made at least :data:`WIDTH_IN` wide (in proportion) and taller to hold ``stamp``
    above and ``caption`` below its content (every axes and figure text is moved, not redrawn); ``slide``:
    made 16:9 (:data:`SLIDE_IN`, landscape) with the stamp and caption inside, at :data:`SLIDE_PT` (the view
    drew its own text for a slide); a figure with a layout engine (constrained) is laid out once at its size
    on the slide, then kept there."""
    dpi = fig.dpi
    w, h = fig.get_size_inches()
    stamp_pt, text_pt = (SLIDE_PT, SLIDE_PT) if slide else (STAMP_PT, TEXT_PT)
    line = px(text_pt, dpi) * 1.35 / dpi
    if slide:  # the plot as tall as the stamp and the caption (cut to what fits) leave
        h, head_lines, foot_lines = slide_frame(stamp, caption, dpi)
        w = SLIDE_IN[0]
        fig.set_size_inches(w, h)
    else:
        if w < WIDTH_IN:  # as wide as the panel figures: 1600 px at 100 dpi
            w, h = WIDTH_IN, h * WIDTH_IN / w
            fig.set_size_inches(w, h)
        head_lines = wrap(stamp, TEXT_SPAN * w * dpi, stamp_pt, dpi, bold=True)
        foot_lines = wrap(caption, TEXT_SPAN * w * dpi, text_pt, dpi) if caption else []
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.draw_without_rendering()  # the layout at the content's size, then frozen: the frame moves it
        positions = [(ax, ax.get_position(original=True)) for ax in fig.axes]
        fig.set_layout_engine("none")
        for ax, box in positions:
            ax.set_position(box)
    head, foot = (len(head_lines) + 1) * line, (len(foot_lines) + 0.5) * line
    total = h + head + foot
    for ax in fig.axes:
        box = ax.get_position(original=True)
        ax.set_position((box.x0, (box.y0 * h + foot) / total, box.width, box.height * h / total))
    for text in fig.texts:
        x, y = text.get_position()
        text.set_position((x, (y * h + foot) / total))
    fig.set_size_inches(w, total)
    for i, text in enumerate(head_lines):
        fig.text(0.01, 1 - (0.4 + i) * line / total, text, fontsize=stamp_pt, weight="normal" if slide else "bold",
                 va="top")
    for i, text in enumerate(foot_lines):
        fig.text(0.01, (foot - (0.2 + i) * line) / total, text, fontsize=text_pt, color="#333333", va="top")
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

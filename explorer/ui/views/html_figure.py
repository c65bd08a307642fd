"""A :class:`~explorer.ui.views.panels.PanelFigure` as one HTML element: a CSS grid of panels, each a PNG shown
at the largest whole zoom that fits its cell (``image-rendering: pixelated``: the browser repeats pixels,
never resamples them), with a labelled colour bar per row.

The whole figure is one string, sent as one message (a figure built from one widget per panel updates
panel by panel, and costs a message each).  :data:`STYLE` is the stylesheet the app puts on its page.

>>> import numpy as np
>>> from explorer.ui.views.panels import PanelFigure, grey_bar, whole_panel
>>> fig = PanelFigure("demo", [("inputs", ["a"])], {"a": whole_panel(np.zeros((4, 6, 1)), "a 4×6", "grey")},
...                   {0: grey_bar()}, "caption")
>>> html = figure_html(fig)
>>> "data:image/png;base64," in html and "round(down" in html and "pixel value" in html
True
"""

from __future__ import annotations

import base64
import hashlib
import html as H
from collections import OrderedDict

import numpy as np

from . import pixels as P
from .panels import BAR_COLUMN, GAP, ColourBar, Panel, PanelFigure

#: Text sizes of the page, in CSS pixels, at the least (a laptop's window); the figure's text grows with the
#: window's width up to :data:`PROJECTOR_PX` (18 px and more on a 1920-pixel projector), the controls' to 18 px.
TITLE_PX, TEXT_PX = 14, 13
PROJECTOR_PX = 24
FIGURE_TITLE = f"clamp({TITLE_PX}px, 1vw, {PROJECTOR_PX}px)"
FIGURE_TEXT = f"clamp({TEXT_PX}px, 0.95vw, {PROJECTOR_PX}px)"
CONTROL_TEXT = f"clamp({TEXT_PX}px, 0.95vw, 20px)"  # 18 px at 1920
#: The Kernels figure: its wide layout from this width of its box on (its 9.5 pt text 12 px and more), its
#: stacked layout below it, at most this wide (explorer.ui.app.tabs.KernelsTab)
KERNELS_WIDE_PX, KERNELS_NARROW_MAX_PX = 1100, 760
#: The tallest a panel may be zoomed to, as a share of the window's height.
ZOOM_FRACTION = 0.6
ZOOM_HEIGHT = f"{ZOOM_FRACTION * 100:g}vh"

STYLE = f"""
.explorer-root {{ font-size: {CONTROL_TEXT}; }}
.explorer-root .widget-label, .explorer-root .widget-inline-hbox .widget-label,
.explorer-root .widget-html-content, .explorer-root select, .explorer-root input,
.explorer-root button, .explorer-root .lm-TabBar-tab,
.explorer-root .jupyter-widgets.widget-inline-hbox input, .explorer-root .jupyter-widgets.widget-inline-hbox textarea,
.explorer-root .widget-checkbox .widget-label-basic span, .explorer-root .widget-readout {{ font-size: {CONTROL_TEXT}; }}
.explorer-root .xf-toggle-list .widget-toggle-button.mod-active {{ background: #1f5fa0; color: #fff; }}
.explorer-root .xf-toggle-list .widget-toggle-button {{ margin: 1px; padding: 0 8px; }}
.explorer-root .xf-toggle-label {{ min-width: 0; margin-right: 4px; }}
.explorer-scenario-text .widget-html-content {{ font-size: {FIGURE_TEXT}; line-height: 1.35; }}
.explorer-steps {{ margin: 2px 0; padding-left: 1.4em; }}
.explorer-steps details summary {{ cursor: pointer; }}
.xf-figure, .xf-grid {{ width: 100%; overflow-x: auto; container-type: inline-size; }}
.xf-grid {{ display: grid; gap: {GAP}px {GAP}px; align-items: start; width: 100%; }}
.xf-part, .xf-part > .widget-html-content {{ display: contents; }}
.xf-part > .widget-label {{ display: none; }}
.xf-row {{ grid-column: 1 / -1; font-size: {FIGURE_TEXT}; color: #444; border-bottom: 1px solid #ddd;
           margin-top: 4px; }}
/* a panel spans its row's title and image grid rows (a subgrid): a title that wraps onto two lines moves the
   images of its whole row down together, never its own image alone */
.xf-cell {{ min-width: 0; display: grid; grid-template-rows: subgrid; align-content: start; }}
.xf-title {{ font-size: {FIGURE_TITLE}; line-height: 1.3; overflow-wrap: anywhere; margin-bottom: 3px;
             align-self: end; }}
.xf-error {{ color: #b00000; font-size: {FIGURE_TEXT}; overflow-wrap: anywhere; }}
.xf-cell img {{ image-rendering: pixelated; max-width: none !important; height: auto; display: block; }}
.xf-bar {{ font-size: {FIGURE_TEXT}; align-self: center; overflow-wrap: anywhere; }}
.xf-bar-body {{ display: flex; gap: 4px; align-items: stretch; }}
.xf-bar-body img {{ width: 16px; height: 160px; image-rendering: pixelated; display: block; }}
.xf-ticks {{ display: flex; flex-direction: column; justify-content: space-between; }}
.xf-mark {{ display: inline-block; width: 11px; height: 11px; margin-right: 4px; vertical-align: -1px; }}
.xf-svg svg {{ width: 100%; height: auto; display: block; }}
.xf-table {{ border-collapse: separate; border-spacing: 2px; font-size: {FIGURE_TEXT}; }}
.xf-table th, .xf-table td {{ padding: 3px 8px; }}
.xf-table small {{ font-size: max({TEXT_PX - 1}px, 0.85em); }}
.explorer-caption {{ font-size: {FIGURE_TEXT}; color: #333; }}
.explorer-busy-mark {{ color: #8a6d00; min-height: 18px; }}
.explorer-greyed .widget-html-content {{ color: #555; font-size: {CONTROL_TEXT}; }}
/* the narrow layout (a sidebar, a browser zoom): rows of controls wrap, no widget wider than the app, the tabs
   wrap onto a second line instead of cutting their titles, tables tighten */
.explorer-root .widget-box > *, .explorer-root .widget-inline-hbox > select {{
  max-width: calc(100% - 2 * var(--jp-widgets-margin, 2px)); }}
.explorer-root .widget-html-content {{ overflow-wrap: anywhere; }}
.explorer-root .xf-table {{ max-width: 100%; }}
.explorer-root .xf-table th, .explorer-root .xf-table td {{ overflow-wrap: anywhere; }}
.explorer-root .widget-hbox {{ flex-wrap: wrap; }}
.explorer-root .widget-toggle-buttons .widget-toggle-button {{ width: auto; min-width: 4em; }}
.explorer-tabs > .lm-TabBar .lm-TabBar-content {{ flex-wrap: wrap; }}
.explorer-tabs > .lm-TabBar .lm-TabBar-tab {{ flex: 0 1 auto; width: auto; min-width: max-content; }}
.xf-svg {{ width: 100%; container: xf-kernels / inline-size; }}
.xf-svg > .xf-svg-wide {{ display: block; width: 100%; margin: 0; }}
.xf-svg > .xf-svg-narrow {{ display: none; }}
.xf-svg > div > .widget-label {{ display: none; }}
@container xf-kernels (max-width: {KERNELS_WIDE_PX - 1}px) {{
  .xf-svg > .xf-svg-wide {{ display: none; }}
  .xf-svg > .xf-svg-narrow {{ display: block; max-width: {KERNELS_NARROW_MAX_PX}px; margin: 0 auto; }}
}}
[class*='explorer-tab-']:has(> .xf-grid) {{ container: xf-tab / inline-size; }}
@container (max-width: 760px) {{
  .xf-table th, .xf-table td {{ padding: 2px 3px; }}
  .xf-table {{ border-spacing: 1px; }}
}}
.explorer-busy .explorer-figure {{ opacity: 0.55; transition: opacity 0.1s; }}
"""


class Base64Cache:
    """PNG data URLs of recent panels, by content (a panel that did not change is not encoded again);
    bounded by bytes."""

    def __init__(self, budget: int = 32 * 2**20):
        self.budget, self.bytes = budget, 0
        self._store = OrderedDict()

    def url(self, rgb) -> str:
        key = (rgb.shape, hashlib.blake2b(memoryview(P.contiguous(rgb)), digest_size=16).digest())
        if key in self._store:
            self._store.move_to_end(key)
            return self._store[key]
        url = "data:image/png;base64," + base64.b64encode(P.png(rgb)).decode()
        self._store[key] = url
        self.bytes += len(url)
        while self.bytes > self.budget and len(self._store) > 1:
            _, old = self._store.popitem(last=False)
            self.bytes -= len(old)
        return url


_URLS = Base64Cache()


def row_ratio(fig: PanelFigure, keys) -> float:
    """For a row of ``fig``: the zoom of its panels per CSS pixel of the grid's free width (its width less
    the colour-bar column and the gaps), the least over its panels of its column's share of that width
    divided by the panel's own width.  Columns share the free width in proportion to their widths at 1:1
    (:func:`template_columns`; equal columns when ``fig.widths`` is not given), so the row's whole zoom
    at a grid of free width ``w`` is ``floor(w * ratio)``."""
    widths = fig.widths or [1] * fig.columns
    total = sum(widths)
    ratios = [widths[j] / fig.panels[k].rgb.shape[1] for j, k in enumerate(keys)
              if k is not None and j < len(widths) and fig.panels[k].rgb is not None]
    return min(ratios, default=0.0) / max(total, 1e-12)


def row_zoom(fig: PanelFigure, keys, grid_width: float, window_height: float) -> int:
    """The whole zoom every panel of a row takes in a grid ``grid_width`` CSS pixels wide, in a window
    ``window_height`` tall: the largest at which each of its panels fits its column and the row's tallest
    fits :data:`ZOOM_HEIGHT`, at least 1 (what the CSS of :func:`zoom_width` computes).

    >>> import numpy as np
    >>> from explorer.ui.views.panels import PanelFigure, whole_panel
    >>> panels = {"a": whole_panel(np.zeros((256, 256, 1)), "a", "grey", limits=(420, 256)),
    ...           "b": whole_panel(np.zeros((102, 102, 1)), "b", "grey", limits=(420, 102))}
    >>> fig = PanelFigure("demo", [("", ["a", "b"])], panels, widths=[256, 102])
    >>> row_zoom(fig, ["a", "b"], 1880, 1080), row_zoom(fig, ["a", "b"], 1240, 720)  # 60% of the height
    (2, 1)
    """
    free = grid_width - (BAR_COLUMN + GAP * fig.columns)
    extent = row_extent(fig, keys)
    tallest = ZOOM_FRACTION * window_height / extent[1] if extent else 1
    return max(1, int(np.floor(min(free * row_ratio(fig, keys), tallest) + 1e-9)))


def zoom_width(width: int, ratio: float, columns: int = 1, height: int = 1) -> str:
    """CSS width of a panel image ``width`` pixels wide in a row whose tallest panel is ``height`` pixels, at
    the row's zoom: the largest whole zoom at which every panel of the row fits its column (``ratio``:
    :func:`row_ratio`) and the tallest fits :data:`ZOOM_HEIGHT`; every panel of a row takes that one zoom (an
    output is never drawn larger than the input it was shrunk from), never less than 1:1 (below it only in
    the narrow layout: :func:`narrow_style`).  ``100cqw`` is the grid's width (its container)."""
    free = f"calc((100cqw - {BAR_COLUMN + GAP * columns}px) * {ratio:.9f})"
    tallest = f"calc({ZOOM_HEIGHT} / {max(height, 1)})"
    return f"calc(max(1px, round(down, min({free}, {tallest}), 1px)) * {width})"


def narrow_style(fig: PanelFigure, scope: str) -> str:
    """A stylesheet for the figure in a window too narrow for its panels at 1:1 (a sidebar, a browser zoom):
    below that width (a container query on the tab), every column shrinks by one factor, the window's share
    of the 1:1 width, and each row of panels by one factor to fit those columns (the whole images by that
    share, the zoom rows less), so the figure fits and never scrolls sideways.  ``scope``: a CSS selector
    of the figure's grid."""
    widths = fig.widths or []
    total = sum(widths)
    if not total:
        return ""
    fixed = BAR_COLUMN + GAP * len(widths) + 8  # the colour bars, the gaps, the grid's margins
    avail = f"(100cqw - {fixed}px)"
    columns = " ".join(f"calc({avail} * {w / total:.6f})" for w in widths) + f" {BAR_COLUMN}px"
    rules = [f"{scope} {{ grid-template-columns: {columns} !important; }}"]
    for _, keys in fig.rows:
        shown = [(j, k) for j, k in enumerate(keys) if k is not None and fig.panels[k].rgb is not None]
        if not shown:
            continue
        # one factor for the row: the largest at which each of its panels fits its (shrunk) column
        factor = min(widths[j] / fig.panels[k].rgb.shape[1] for j, k in shown) / total
        for _, key in shown:
            rules.append(f"{scope} img[data-key='{H.escape(key)}'] {{ width: calc({avail} * "
                         f"{fig.panels[key].rgb.shape[1] * factor:.6f}) !important; }}")
    return (f"<style>@container xf-tab (max-width: {total + fixed}px) {{ {' '.join(rules)} }}</style>")


def alt_text(panel: Panel, row_label: str = "") -> str:
    """What a panel image shows, for a screen reader: its title, then its row's label (what the row draws).

    >>> from explorer.ui.views.panels import Panel
    >>> alt_text(Panel("nearest, zoom"), "zoom on the orange box: every pixel")
    'nearest, zoom: zoom on the orange box: every pixel'
    """
    return f"{panel.title}: {row_label}" if row_label else panel.title


def panel_html(panel: Panel, key: str = "", ratio: float = 0.0, columns: int = 1, row_label: str = "",
               tallest: int = 0) -> str:
    title = f"<div class='xf-title'>{H.escape(panel.title)}</div>"
    if panel.rgb is None:
        return f"<div class='xf-cell'>{title}<div class='xf-error'>{H.escape(panel.error)}</div></div>"
    h, w = panel.rgb.shape[:2]
    ratio = ratio or 1.0 / (w * max(columns, 1))
    return (f"<div class='xf-cell'>{title}<img data-key='{H.escape(key)}' alt='{H.escape(alt_text(panel, row_label))}' "
            f"width='{w}' height='{h}' style='width:{zoom_width(w, ratio, columns, tallest or h)}' "
            f"src='{_URLS.url(panel.rgb)}'></div>")


def row_extent(fig: PanelFigure, keys) -> tuple[int, int] | None:
    """(width, height) of the largest panel of a row: the panel whose whole zoom sets the row's zoom."""
    sizes = [fig.panels[k].rgb.shape[:2] for k in keys if k is not None and fig.panels[k].rgb is not None]
    if not sizes:
        return None
    return max(w for _, w in sizes), max(h for h, _ in sizes)


def bar_html(bar: ColourBar) -> str:
    strip = _URLS.url(P.colour_strip(bar.scale))
    mid = (bar.lo + bar.hi) / 2
    ticks = "".join(f"<div>{v:+.3g}</div>" if bar.scale == "signed" else f"<div>{v:.3g}</div>"
                    for v in (bar.hi, mid, bar.lo))
    marks = "".join(f"<div><span class='xf-mark' style='background:{c}'></span>{H.escape(t)}</div>"
                    for c, t in bar.marks)
    return (f"<div class='xf-bar'><div>{H.escape(bar.label)}</div><div class='xf-bar-body'>"
            f"<img src='{strip}'><div class='xf-ticks'>{ticks}</div></div>{marks}</div>")


def _cells(fig: PanelFigure):
    """(panel key or None, grid row, grid column, markup) of every cell: row labels span the figure, each
    row's colour bar sits in the last column."""
    n = fig.columns
    for i, (label, keys) in enumerate(fig.rows):
        row = 3 * i + 1  # three grid rows a figure row: its label, the panels' titles, their images
        if label:
            yield None, row, "1 / -1", f"<div class='xf-row'>{H.escape(label)}</div>"
        extent, ratio = row_extent(fig, keys), row_ratio(fig, keys)
        for j, key in enumerate(keys):
            if key is not None:
                yield (key, f"{row + 1} / span 2", j + 1,
                       panel_html(fig.panels[key], key, ratio, n, label, extent and extent[1]))
        bar = fig.bars.get(i)
        if bar is not None:
            yield None, f"{row + 1} / span 2", n + 1, bar_html(bar)


def template_columns(fig: PanelFigure) -> str:
    """The grid's columns: each at least as wide as its widest panel at 1:1, sharing the width in proportion
    to those widths, so that a row of an input and its shrunk outputs zooms as a whole (in a narrower window:
    :func:`narrow_style`); equal columns when the widths are not given."""
    if not fig.widths:
        return " ".join(["minmax(0, 1fr)"] * fig.columns) + f" {BAR_COLUMN}px"
    return " ".join(f"minmax({w}px, {w}fr)" for w in fig.widths) + f" {BAR_COLUMN}px"


def figure_parts(fig: PanelFigure, scope: str = ".xf-grid") -> tuple[str, str]:
    """The cells of the figure in two strings, each cell placed in the grid by its row and column: the panels
    of ``fig.static`` (they change only with the image and the zoom box, so an update of the others does not
    send them again) and the rest, which begins with the figure's narrow layout (:func:`narrow_style` for the
    grid ``scope``)."""
    parts = ([], [narrow_style(fig, scope)])
    for key, row, col, markup in _cells(fig):
        cell = markup.replace("class='", f"style='grid-row:{row};grid-column:{col}' class='", 1)
        parts[key is not None and key not in fig.static].append(cell)
    return "".join(parts[0]), "".join(parts[1])


def figure_html(fig: PanelFigure) -> str:
    """The figure as one HTML string (panels, titles, colour bars; the caption is shown apart)."""
    static, dynamic = figure_parts(fig)
    return (f"<div class='xf-figure'><div class='xf-grid' style='grid-template-columns:{template_columns(fig)}'>"
            f"{static}{dynamic}</div></div>")

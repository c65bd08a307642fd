"""The figure of an image tab as data: rows of panels, each an array of numbers and the pixels that show them,
with the colour bar its colours are read on.

A :class:`PanelFigure` is drawn in two ways from the same panels: as one HTML element in the app
(:mod:`explorer.ui.views.html_figure`, each panel at an integer zoom chosen by the browser) and as a
matplotlib figure for slides (:mod:`explorer.ui.views.export`).  Both show every pixel of a panel as a
square of whole screen pixels:

* a panel shows its array 1:1 (any zoom is an integer repetition);
* an array too large for its cell is shown as an *overview*, every f x f block averaged, and its title says
  so (``overview ÷f``); the zoom row next to it shows exact pixels, and aliasing is judged there;
* a zoom panel shows the pixels of a box (fractions of the image) exactly; a box too large for the cell is
  cut to its centre, and the title says so.

>>> import numpy as np
>>> p = whole_panel(np.zeros((600, 300, 1), np.float32), "output 600×300", "grey", limits=(400, 280))
>>> p.factor, p.values.shape, p.title
(2, (300, 150, 1), 'output 600×300 · overview ÷2')
>>> z = zoom_panel(np.zeros((64, 64, 1), np.float32), (0.25, 0.25, 0.5, 0.5), "zoom", "grey")
>>> z.region, z.values.shape
((16, 32, 16, 32), (16, 16, 1))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..defaults import LAYOUT_WIDTH, PANEL_HEIGHT
from . import pixels as P
from . import style as S

#: width of the colour-bar column and the gap between cells, in CSS pixels (the layout's arithmetic)
BAR_COLUMN, GAP = 120, 10


@dataclass
class Panel:
    """One image panel.  ``values``: the numbers shown (after any block average or crop), ``rgb``: their
    pixels, ``scale``: the colour bar they are read on (None: a colour image shown as it is), ``factor``: 1,
    or f for an overview of f x f block averages, ``region``: (r0, r1, c0, c1) of the source array when the
    panel shows a part of it, ``source_shape``: the (H, W) of that array."""

    title: str
    values: np.ndarray | None = None
    rgb: np.ndarray | None = None
    scale: str | None = None
    factor: int = 1
    region: tuple | None = None
    source_shape: tuple = ()
    error: str = ""

    @property
    def overview(self) -> bool:
        return self.factor > 1


@dataclass
class ColourBar:
    """What the colours of a row mean: colour scale ``scale`` (see :mod:`explorer.ui.views.pixels`) from
    ``lo`` to ``hi``, what it measures in ``label`` (with units), and ``marks``: special colours, as
    (hex colour, meaning) pairs."""

    scale: str
    lo: float
    hi: float
    label: str
    marks: tuple = ()


@dataclass
class PanelFigure:
    """Rows of panels: ``rows`` is a list of (row label, [panel key or None, ...]); ``bars`` maps a row's
    index to its :class:`ColourBar`; ``caption`` says what everything is, every number in a title included."""

    name: str
    rows: list
    panels: dict
    bars: dict = field(default_factory=dict)
    caption: str = ""
    widths: list = field(default_factory=list)  # each column's width in pixels at 1:1 (the least it takes)
    static: frozenset = frozenset()  # panels that change only with the image and the zoom box

    @property
    def columns(self) -> int:
        return max((len(keys) for _, keys in self.rows), default=1)

    def panel_keys(self):
        return [k for _, keys in self.rows for k in keys if k is not None]


def column_limits(shapes, width: int = LAYOUT_WIDTH) -> list[tuple[int, int]]:
    """(height, width) in pixels that the panels of each column may take, for columns whose largest arrays
    have ``shapes`` (H, W), in a figure laid out for a page ``width`` CSS pixels wide: every column 1:1 when
    they all fit; else the widest column is halved, thirded, ... until they do (its panels become overviews).
    A wider page zooms the panels up by whole factors; a narrower one scrolls.

    >>> column_limits([(256, 256), (102, 102), (102, 102)])
    [(420, 256), (420, 102), (420, 102)]
    >>> column_limits([(1024, 1024)] * 4)
    [(420, 256), (420, 256), (420, 256), (420, 256)]
    """
    usable = width - BAR_COLUMN - GAP * len(shapes)
    factors = [max(1, -(-int(h) // PANEL_HEIGHT)) for h, _ in shapes]
    shown = [-(-int(w) // f) for (_, w), f in zip(shapes, factors)]
    while sum(shown) > usable and max(shown) > 16:
        widest = max(shown)
        for j in [j for j, s in enumerate(shown) if s == widest]:  # equal columns stay equal (compared)
            factors[j] += 1
            shown[j] = -(-int(shapes[j][1]) // factors[j])
    return [(PANEL_HEIGHT, s) for s in shown]


def cell_limits(columns: int, width: int = LAYOUT_WIDTH) -> tuple[int, int]:
    """(height, width) in pixels of one of ``columns`` equal columns."""
    usable = width - BAR_COLUMN - GAP * columns
    return PANEL_HEIGHT, max(32, usable // max(columns, 1))


# ------------------------------------------------------------------------------------------------ colours
def _rgb(values, scale, limit):
    if scale == "grey":
        return P.grey_rgb(values)
    if scale == "signed":
        return P.signed_rgb(values, limit)
    return P.coverage_rgb(values, limit)


def colour_scale_of(image: np.ndarray) -> str | None:
    """The colour scale of an image's panels: ``grey`` for one channel, None (true colour) for three."""
    return "grey" if image.ndim == 2 or image.shape[2] == 1 else None


def grey_bar(label="pixel value (0 black, 1 white)") -> ColourBar:
    mark = P.OVERSHOOT_MARK
    return ColourBar("grey", 0.0, 1.0, label, (("#ff7f0e", f"above {1 + mark:g} (overshoot)"),
                                               ("#1f77b4", f"below {-mark:g}")))


# ------------------------------------------------------------------------------------------------ panels
def overview(values, limits, mean_channels: bool = False) -> tuple[np.ndarray, int]:
    """(what a whole panel of ``values`` shows, f): the array itself when it fits ``limits`` (height, width),
    else the means of its f x f blocks; ``mean_channels``: then averaged over channels (for signed panels)."""
    f = P.reduction(np.shape(values), *limits)
    shown = P.block_mean(values, f)
    if mean_channels and shown.ndim == 3:
        shown = S.channel_mean(shown)
    return shown, f


def whole_panel(values, title, scale, *, limit=1.0, limits=None, box=None, mean_channels=False) -> Panel:
    """An array shown whole: 1:1 when it fits ``limits`` (height, width), else as an overview of f x f block
    averages, said in the title.  ``box``: (top, left, bottom, right) fractions outlined in orange."""
    values = np.asarray(values)
    shown, f = overview(values, limits or cell_limits(1), mean_channels)
    rgb = _rgb(shown, scale or "grey", limit)
    if box is not None:
        rgb = P.outline(rgb, box)
    if f > 1:
        title = f"{title} · overview ÷{f}"
    return Panel(title, shown, rgb, scale, f, None, tuple(values.shape[:2]))


def box_region(shape, box) -> tuple[int, int, int, int]:
    """(r0, r1, c0, c1): every row and column of an (H, W) array any part of which lies in ``box`` =
    (top, left, bottom, right) fractions.

    >>> box_region((10, 10), (0.25, 0.25, 0.5, 0.5))
    (2, 5, 2, 5)
    """
    h, w = shape[:2]
    top, left, bottom, right = box
    r0, c0 = int(np.floor(top * h)), int(np.floor(left * w))
    r1 = min(h, max(int(np.ceil(bottom * h)), r0 + 1))
    c1 = min(w, max(int(np.ceil(right * w)), c0 + 1))
    return min(r0, h - 1), r1, min(c0, w - 1), c1


def zoom_panel(values, box, title, scale, *, limit=1.0, limits=None) -> Panel:
    """The exact pixels of ``values`` inside ``box``; a box larger than ``limits`` is cut to its centre."""
    values = np.asarray(values)
    limits = limits or cell_limits(1)
    r0, r1, c0, c1 = box_region(values.shape, box)
    spans, cut = [[r0, r1], [c0, c1]], False
    for axis in (0, 1):
        a, b = spans[axis]
        if b - a > limits[axis]:
            a = (a + b - limits[axis]) // 2
            spans[axis], cut = [a, a + limits[axis]], True
    (r0, r1), (c0, c1) = spans
    if cut:
        title = f"{title} · centre {r1 - r0}×{c1 - c0} of the box"
    part = values[r0:r1, c0:c1]
    return Panel(title, part, _rgb(part, scale or "grey", limit), scale, 1, (r0, r1, c0, c1),
                 tuple(values.shape[:2]))


def error_panel(title, error) -> Panel:
    """A panel that could not be computed: its title and the reason, no pixels."""
    return Panel(title, None, None, None, error=str(error))


symmetric_limit = S.symmetric_limit


def recolour(panel: Panel, limit: float) -> Panel:
    """``panel`` re-coloured on a shared limit (rows of signed panels share one scale)."""
    if panel.values is not None and panel.scale in ("signed", "coverage"):
        panel.rgb = _rgb(panel.values, panel.scale, limit)
    return panel

"""A matplotlib figure as a reader sees it in a notebook: text size on screen, a labelled colorbar for every
colour-mapped image, titles and labels clear of other panels, and a width that fits the notebook's column.

:func:`install` runs inside a notebook kernel (tests/ui/test_notebooks.py injects it): every figure the inline
backend displays is checked as it is turned into a PNG, and the problems are collected in
:data:`FIGURE_PROBLEMS`.
"""

from __future__ import annotations

import base64
import struct

import numpy as np
from matplotlib.image import AxesImage
from matplotlib.text import Text

#: The width of a notebook's output column in a 1400 px wide window (JupyterLab, file browser open), px.
DISPLAY_WIDTH = 1000
#: The smallest text a reader should meet on screen, px.
MIN_TEXT_PX = 12.0

FIGURE_PROBLEMS: list[str] = []
CHECKED: list[str] = []


def drawn_texts(fig) -> list:
    """The Text artists a draw of ``fig`` actually renders (visible, non-empty, in visible axes)."""
    drawn, original = [], Text.draw

    def record(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    Text.draw = record
    try:
        fig.canvas.draw()
    finally:
        Text.draw = original
    return drawn


def _label(fig) -> str:
    titles = [fig.get_suptitle()] + [ax.get_title() for ax in fig.axes]
    return next((t for t in titles if t), "untitled figure").replace("\n", " ")[:60]


def _overlap(a, b) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def _colorbars(fig) -> list:
    return [ax._colorbar for ax in fig.axes if getattr(ax, "_colorbar", None) is not None]


def _explained(image, colorbars) -> list:
    """The colorbars that give ``image``'s colours: its own, or one with the same norm, or cmap and limits."""
    return [cb for cb in colorbars if cb.mappable is image or cb.mappable.norm is image.norm
            or (cb.mappable.cmap.name == image.cmap.name
                and np.allclose(cb.mappable.get_clim(), image.get_clim()))]


def figure_problems(fig, width_px: float, display_width: float = DISPLAY_WIDTH) -> list[str]:
    """What a reader would find wrong with ``fig`` shown as a PNG ``width_px`` wide in a column of
    ``display_width`` px."""
    problems = []
    scale = min(1.0, display_width / width_px)
    if width_px > display_width:
        problems.append(f"{width_px:.0f} px wide: shrunk to the {display_width} px column, which resamples it")
    texts = drawn_texts(fig)
    renderer = fig.canvas.get_renderer()
    for text in texts:
        size = text.get_fontsize() * fig.dpi / 72 * scale
        if size < MIN_TEXT_PX - 0.05:
            problems.append(f"text {text.get_text()[:40]!r} is {size:.1f} px on screen (< {MIN_TEXT_PX:g})")
    colorbars = _colorbars(fig)
    cbar_axes = {cb.ax for cb in colorbars}
    for image in fig.findobj(AxesImage):
        if image.axes is None or not image.get_visible() or np.ndim(image.get_array()) != 2:
            continue  # RGB(A) pixels are not colour-mapped
        found = _explained(image, colorbars)
        if not found:
            problems.append(f"a colour-mapped image in {image.axes.get_title()[:40]!r} has no colorbar")
        elif not any(cb.ax.get_ylabel() or cb.ax.get_xlabel() for cb in found):
            problems.append(f"the colorbar of {image.axes.get_title()[:40]!r} has no label")
    panels = [ax for ax in fig.axes if ax.get_visible() and ax not in cbar_axes]
    labels = [(ax, text) for ax in panels for text in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label)
              if text in texts]
    for ax, text in labels:
        box = text.get_window_extent(renderer)
        for other in fig.axes:
            if other is not ax and other.get_visible() and _overlap(box, other.get_window_extent(renderer)) > 2:
                problems.append(f"{text.get_text()[:40]!r} overlaps the panel "
                                f"{other.get_title()[:30] or 'next to it'!r}")
        for other_ax, other in labels:
            if other_ax is not ax and _overlap(box, other.get_window_extent(renderer)) > 2:
                problems.append(f"{text.get_text()[:40]!r} overlaps {other.get_text()[:40]!r}")
    return problems


def png_width(png) -> int:
    """The width of a PNG given as bytes or base64 text."""
    data = base64.b64decode(png) if isinstance(png, str) else png
    return struct.unpack(">I", data[16:20])[0]


def install(display_width: float = DISPLAY_WIDTH):
    """Check every figure the notebook displays (call after ``%matplotlib inline``)."""
    from IPython import get_ipython
    from matplotlib.figure import Figure

    formatter = get_ipython().display_formatter.formatters["image/png"]
    original = formatter.lookup_by_type(Figure)

    def checked(fig, *args, **kwargs):
        png = original(fig, *args, **kwargs)
        label = f"figure {len(CHECKED) + 1} ({_label(fig)})"
        CHECKED.append(label)
        FIGURE_PROBLEMS.extend(f"{label}: {p}" for p in figure_problems(fig, png_width(png), display_width))
        return png

    formatter.for_type(Figure, checked)

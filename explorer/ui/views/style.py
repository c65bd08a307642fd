"""Shared looks: figure creation, colour maps and the norms that keep panels comparable.

Conventions every view follows:

* image values use one fixed scale, 0 (black) to 1 (white); grey values beyond the input range are painted
  in :data:`OVER` / :data:`UNDER` colours, so overshoot is visible;
* signed quantities (differences, gradients, weights) use one symmetric scale per row of panels, shared by
  every panel of the row, with a labelled colour bar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib import colormaps

if TYPE_CHECKING:  # matplotlib's figures are imported only by what draws one (the Kernels plot, slides)
    from matplotlib.figure import Figure

DPI = 100
OVER, UNDER = "#ff7f0e", "#1f77b4"  # grey overshoot above 1 / below 0
DEAD = "#d62728"  # input pixels that receive no gradient
GREY = colormaps["gray"].with_extremes(over=OVER, under=UNDER, bad="#ffffff")
SIGNED = colormaps["RdBu_r"].with_extremes(bad="#ffffff")
POSITIVE = colormaps["viridis"].with_extremes(under=DEAD, bad="#ffffff")


def new_figure(width: float, height: float, fig: Figure | None = None) -> Figure:
    """A blank figure of ``width`` x ``height`` inches: ``fig`` cleared when given (keeps its canvas), else a new
    Figure on the Agg canvas (no pyplot, nothing global)."""
    if fig is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(width, height), dpi=DPI)
        FigureCanvasAgg(fig)
    else:
        fig.clear()
        fig.set_size_inches(width, height, forward=True)
    return fig


def channel_mean(a: np.ndarray) -> np.ndarray:
    """(H, W, C) -> (H, W): the mean over channels (what signed panels show), summed plane by plane (the
    engine's HWC results are views of channel-first arrays, where a reduction over axis 2 is slow)."""
    a = np.asarray(a)
    if a.ndim == 2:
        return a
    if a.shape[2] == 1:
        return a[:, :, 0]
    total = a[:, :, 0].astype(np.float32 if a.dtype == np.float32 else np.float64)
    for c in range(1, a.shape[2]):
        total += a[:, :, c]
    total /= a.shape[2]
    return total


def symmetric_limit(arrays, floor: float = 1e-12) -> float:
    """The largest absolute finite value over ``arrays`` (at least ``floor``): the half-range of a shared
    symmetric norm."""
    best = 0.0
    for a in arrays:
        if a is None:
            continue
        a = np.asarray(a)
        if a.size:
            finite = a[np.isfinite(a)]
            if finite.size:
                best = max(best, float(np.abs(finite).max()))
    return max(best, floor)


def wrap(text: str, width: int = 28) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(str(text), width)) if text else ""

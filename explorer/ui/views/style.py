"""Shared looks: figure creation, colour maps and the norms that keep panels comparable.

Conventions every view follows:

* images are drawn in *input pixel coordinates* (``extent``), so an output of any size lies exactly over the
  input it came from, pixels as squares (``interpolation="nearest"``);
* image values use one fixed norm, 0 (black) to 1 (white); grey values beyond the input range are painted in
  :data:`OVER` / :data:`UNDER` colours, so overshoot is visible;
* signed quantities (differences, gradients, weights) use one symmetric norm per row of panels, shared by
  every panel of the row.
"""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

DPI = 72
OVER, UNDER = "#ff7f0e", "#1f77b4"  # grey overshoot above 1 / below 0
DEAD = "#d62728"  # input pixels that receive no gradient
GREY = colormaps["gray"].with_extremes(over=OVER, under=UNDER, bad="#ffffff")
SIGNED = colormaps["RdBu_r"].with_extremes(bad="#ffffff")
POSITIVE = colormaps["viridis"].with_extremes(under=DEAD, bad="#ffffff")


def new_figure(width: float, height: float, fig: Figure | None = None) -> Figure:
    """A blank figure of ``width`` x ``height`` inches: ``fig`` cleared when given (keeps its canvas, e.g. an
    ipympl widget), else a new Figure on the Agg canvas (no pyplot, nothing global)."""
    if fig is None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        fig = Figure(figsize=(width, height), dpi=DPI)
        FigureCanvasAgg(fig)
    else:
        fig.clear()
        fig.set_size_inches(width, height, forward=True)
    return fig


def image_norm() -> Normalize:
    return Normalize(0.0, 1.0, clip=False)


def display_image(img: np.ndarray) -> np.ndarray:
    """What an image panel shows: grey images as 2-D values (the norm paints overshoot), RGB clipped to
    [0, 1] (matplotlib cannot show out-of-range colours)."""
    img = np.asarray(img)
    if img.ndim == 3 and img.shape[2] == 1:
        return img[:, :, 0]
    return np.clip(img, 0.0, 1.0)


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


def extent(shape) -> tuple[float, float, float, float]:
    """Input pixel coordinates of an (H, W) grid: pixel centres at integers, y downwards."""
    h, w = shape[:2]
    return (-0.5, w - 0.5, h - 0.5, -0.5)


def bare(ax):
    """No axis lines, ticks or labels: an image panel (also the cheapest to draw)."""
    ax.set_axis_off()
    return ax


def blank_like(shape) -> np.ndarray:
    """An all-NaN (H, W) array: an empty panel drawn in the 'bad' colour."""
    return np.full(tuple(shape[:2]), np.nan, dtype=np.float32)


def panel_pixels(ax) -> tuple[int, int]:
    """The on-screen size (height, width) of an axes, in pixels."""
    bbox = ax.get_window_extent()
    return max(int(bbox.height), 8), max(int(bbox.width), 8)


def fit(array: np.ndarray, pixels: tuple[int, int]) -> np.ndarray:
    """``array`` (H, W[, C]) area-averaged down to at most ``pixels`` (height, width), keeping its aspect;
    unchanged when it already fits (NaN spreads over its averaging cell).  A panel smaller than its data
    would otherwise be resampled by the display, which aliases (or costs as much as the resize itself); the
    zoom panels always show every pixel.
    """
    h, w = array.shape[:2]
    f = min(pixels[0] / h, pixels[1] / w)
    if f >= 1.0:
        return array
    from ...engine.resize import resize
    from ...engine.spec import Spec

    size = (max(1, int(h * f)), max(1, int(w * f)))
    a = np.asarray(array, dtype=np.float32)
    if a.ndim == 3:  # resize the channel-first view: contiguous for the engine's HWC results
        out = resize(np.moveaxis(a, 2, 0), size, Spec("area"), axes=(1, 2))
        return np.moveaxis(out, 0, 2)
    return resize(a, size, Spec("area"), axes=(0, 1))


def crop(array: np.ndarray, image_shape, box) -> tuple[np.ndarray, tuple]:
    """The part of ``array`` (any resolution over the input ``image_shape``) inside ``box`` = (top, left,
    bottom, right) fractions, and the extent of that part in input pixel coordinates.  Every pixel any part
    of which lies in the box is kept, so the zoom shows exact pixels."""
    H, W = image_shape[:2]
    h, w = array.shape[:2]
    top, left, bottom, right = box
    r0, r1 = int(np.floor(top * h)), max(int(np.ceil(bottom * h)), int(np.floor(top * h)) + 1)
    c0, c1 = int(np.floor(left * w)), max(int(np.ceil(right * w)), int(np.floor(left * w)) + 1)
    r1, c1 = min(r1, h), min(c1, w)
    sy, sx = H / h, W / w
    ext = (c0 * sx - 0.5, c1 * sx - 0.5, r1 * sy - 0.5, r0 * sy - 0.5)
    return array[r0:r1, c0:c1], ext


def wrap(text: str, width: int = 28) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(str(text), width)) if text else ""


class ScaleBar:
    """A light colour bar for a symmetric (or [lo, hi]) norm: a gradient strip and two end labels.

    Cheaper to draw than ``Figure.colorbar`` (no tick machinery); :meth:`set` updates the labels."""

    def __init__(self, ax, cmap, label: str = ""):
        self.ax = bare(ax)
        ax.imshow(np.linspace(1.0, 0.0, 64)[:, None], cmap=cmap, aspect="auto", extent=(0, 1, 0, 1),
                  interpolation="nearest")
        kw = dict(transform=ax.transAxes, fontsize=7, ha="center")
        self.top = ax.text(0.5, 1.01, "", va="bottom", **kw)
        self.bottom = ax.text(0.5, -0.01, "", va="top", **kw)
        if label:
            ax.text(-0.3, 0.5, label, transform=ax.transAxes, rotation=90, fontsize=7, ha="center",
                    va="center")

    def set(self, lo: float, hi: float):
        self.top.set_text(f"{hi:+.2g}")
        self.bottom.set_text(f"{lo:+.2g}")


class Panel:
    """One image panel: its axes, image artist and message text."""

    __slots__ = ("ax", "image", "text", "box")

    def __init__(self, ax, image, text):
        self.ax, self.image, self.text, self.box = ax, image, text, None


class PanelPool:
    """Image panels kept across layouts: a new layout moves existing axes instead of creating them
    (creating or clearing a matplotlib Axes costs about 10 ms; moving one costs nothing)."""

    def __init__(self, fig):
        self.fig = fig
        self.free = []
        self.used = []

    def start(self):
        """Begin a new layout: every panel becomes free (and hidden until taken again)."""
        for panel in self.used:
            panel.ax.set_visible(False)
        self.free = self.used + self.free
        self.used = []

    def take(self, spec, cmap, norm) -> Panel:
        """A panel at GridSpec cell ``spec`` drawn with ``cmap`` and ``norm``."""
        if self.free:
            panel = self.free.pop(0)
            panel.ax.set_subplotspec(spec)
            panel.ax.set_visible(True)
            panel.image.set_cmap(cmap)
            panel.image.set_norm(norm)
            panel.text.set_text("")
            panel.ax.set_title("")
            if panel.box is not None:
                panel.box.set_visible(False)
        else:
            ax = bare(self.fig.add_subplot(spec))
            image = ax.imshow(np.zeros((2, 2)), cmap=cmap, norm=norm, interpolation="nearest", resample=False)
            text = ax.text(0.5, 0.5, "", transform=ax.transAxes, ha="center", va="center", fontsize=7,
                           color="#b00000")
            panel = Panel(ax, image, text)
        self.used.append(panel)
        return panel

    def box(self, panel, colour):
        """The rectangle drawn on ``panel`` (created on first use)."""
        if panel.box is None:
            from matplotlib.patches import Rectangle

            panel.box = Rectangle((0, 0), 1, 1, fill=False, edgecolor=colour, linewidth=1.1)
            panel.ax.add_patch(panel.box)
        panel.box.set_visible(True)
        return panel.box

"""Gradients: what flows back to the input, for an upstream gradient of your choice, per mode.

Rows: the upstream gradient (output space), the gradient with respect to the input (``W.T @ g``), a zoom on
it, and a zoom on the *coverage* ``W.T @ 1`` (how much each input pixel feeds the output).  Input pixels
with zero coverage never receive any gradient: nearest downsampling leaves most pixels dead, bilinear
downsampling without antialias skips whole rows and columns, and nearest upsampling by a non-integer factor
gives a checkerboard of 1s and 2s.

>>> import numpy as np
>>> from explorer.images import impulse
>>> data = compute_gradients(impulse(9), ["nearest"], "ones", scale=0.5)
>>> r = data.results["nearest"]
>>> r.grad.shape, int((r.coverage == 0).sum()), r.dead
((9, 9, 1), 65, 65)
>>> view = GradientsView().update(data)
>>> bool(np.array_equal(view.images["grad:nearest"].get_array(), r.grad[:, :, 0]))
True
"""

from __future__ import annotations



from ..defaults import UPSTREAMS
from ..compute.gradients import GradientResult, GradientsData, compute_gradients
from . import style as S


class GradientsView:
    """The Gradients figure; ``images`` maps ``"upstream:<mode>"``, ``"grad:<mode>"``,
    ``"grad_zoom:<mode>"`` and ``"coverage_zoom:<mode>"`` to their ``AxesImage``.  Each row shares one
    norm; coverage 0 (dead pixels) is painted red."""

    ROWS = ("upstream", "grad", "grad_zoom", "coverage_zoom")

    def __init__(self, fig=None):
        self.fig = fig
        self.layout = None
        self.pool = None

    def _build(self, labels):
        from matplotlib.colors import Normalize

        k = len(labels)
        size = (2.1 * k + 0.9, 8.0)
        cmaps = {"upstream": S.SIGNED, "grad": S.SIGNED, "grad_zoom": S.SIGNED, "coverage_zoom": S.POSITIVE}
        if self.pool is None:  # first layout: a clean figure, norms, scale bars
            self.fig = S.new_figure(*size, self.fig)
            self.pool = S.PanelPool(self.fig)
            self.norms = {"upstream": Normalize(-1, 1), "grad": Normalize(-1, 1),
                          "coverage_zoom": Normalize(1e-12, 1)}
            self.norms["grad_zoom"] = self.norms["grad"]
            self.bars = {name: S.ScaleBar(self.fig.add_axes((0, 0, 1, 1)), cmaps[name])
                         for name in ("upstream", "grad", "coverage_zoom")}
        else:  # later layouts move the existing panels
            self.fig.set_size_inches(*size, forward=True)
        gs = self.fig.add_gridspec(4, k + 1, width_ratios=[1] * k + [0.06], left=0.01, right=0.93, top=0.96,
                                   bottom=0.01, wspace=0.08, hspace=0.3)
        self.pool.start()
        self.images, self.axes, self.texts, self.crop_boxes = {}, {}, {}, {}
        for col, label in enumerate(labels):
            for row, name in enumerate(self.ROWS):
                key = f"{name}:{label}"
                panel = self.pool.take(gs[row, col], cmaps[name], self.norms[name])
                self.images[key], self.axes[key], self.texts[key] = panel.image, panel.ax, panel.text
                if name == "grad":
                    self.crop_boxes[label] = self.pool.box(panel, S.OVER)
        for row, name in enumerate(("upstream", "grad", None, "coverage_zoom")):
            if name:
                self.bars[name].ax.set_subplotspec(gs[row, k])
        self.caption = ""
        self.pixels = {}
        self.layout = tuple(labels)

    def update(self, data: GradientsData) -> "GradientsView":
        labels = tuple(data.results)
        if self.layout != labels:
            self._build(labels)
        image = data.image
        H, W = image.shape[:2]
        full = S.extent(image.shape)
        top, left, bottom, right = data.crop
        box = (left * W - 0.5, right * W - 0.5, bottom * H - 0.5, top * H - 0.5)
        ok = {k: v for k, v in data.results.items() if isinstance(v, GradientResult)}
        shown_up = {k: S.channel_mean(v.upstream) for k, v in ok.items()}
        shown_grad = {k: S.channel_mean(v.grad) for k, v in ok.items()}
        lim_up = S.symmetric_limit(shown_up.values())
        lim_grad = S.symmetric_limit(shown_grad.values())
        cov_max = max([float(v.coverage.max()) for v in ok.values()] + [1e-12])
        self.norms["upstream"].vmin, self.norms["upstream"].vmax = -lim_up, lim_up
        self.norms["grad"].vmin, self.norms["grad"].vmax = -lim_grad, lim_grad
        self.norms["coverage_zoom"].vmin = min(1e-9, cov_max * 1e-9)
        self.norms["coverage_zoom"].vmax = cov_max
        self.bars["upstream"].set(-lim_up, lim_up)
        self.bars["grad"].set(-lim_grad, lim_grad)
        self.bars["coverage_zoom"].set(0.0, cov_max)
        for label in labels:
            result = data.results[label]
            if not isinstance(result, GradientResult):
                for name in self.ROWS:
                    self._set(f"{name}:{label}", S.blank_like((2, 2)), full,
                              f"{label}: not available" if name == "upstream" else "",
                              error=result if name == "upstream" else None)
                continue
            self._set(f"upstream:{label}", S.fit(shown_up[label], self._pixels(f"upstream:{label}")), full,
                      f"{label}{' *' if result.notes else ''}")
            lo, hi = float(shown_grad[label].min()), float(shown_grad[label].max())
            self._set(f"grad:{label}", S.fit(shown_grad[label], self._pixels(f"grad:{label}")), full,
                      f"[{lo:.3g}, {hi:.3g}]")
            part, ext = S.crop(shown_grad[label], image.shape, data.crop)
            self._set(f"grad_zoom:{label}", part, ext, "", box)
            part, ext = S.crop(result.coverage, image.shape, data.crop)
            self._set(f"coverage_zoom:{label}", part, ext,
                      f"dead {100.0 * result.dead / (H * W):.1f}% cv {result.variation:.2f}", box)
            self.crop_boxes[label].set_bounds(box[0], box[3], box[1] - box[0], box[2] - box[3])
        self.caption = gradients_caption(data)
        return self

    def _pixels(self, key):
        if key not in self.pixels:
            self.pixels[key] = S.panel_pixels(self.axes[key])
        return self.pixels[key]

    def _set(self, key, array, ext, title, box=None, error=None):
        im, ax = self.images[key], self.axes[key]
        im.set_data(array)
        im.set_extent(ext)
        lims = box if box is not None else ext
        ax.set_xlim(lims[:2])
        ax.set_ylim(lims[2:])
        if ax.get_title() != title:
            ax.set_title(title, fontsize=8, pad=2, y=1.0)
        self.texts[key].set_text(S.wrap(error, 24) if error is not None else "")


def gradients_caption(data: GradientsData) -> str:
    """What the Gradients figure shows, in words, with the dead-pixel counts."""
    H, W = data.image.shape[:2]
    text = (f"Upstream gradient = {data.upstream}: {UPSTREAMS[data.upstream]}.  Rows: the upstream gradient "
            "(output space), the gradient with respect to the input (Wᵀ g; its range in the title), a zoom on "
            "it (the orange box), and a zoom on the coverage Wᵀ 1 with dead pixels in red (they never receive "
            "any gradient).  Every row is on one scale (mean over channels).")
    parts = []
    for label, r in data.results.items():
        if isinstance(r, GradientResult):
            part = f"{label}: {r.dead} of {H * W} input pixels dead, coverage variation {r.variation:.2f}"
            if r.notes:
                part += f" (* {r.notes})"
            parts.append(part)
        else:
            parts.append(f"{label}: {r}")
    return text + "  " + "; ".join(parts) + "."


def gradients_figure(image, modes, upstream="ones", *, fig=None, **options):
    """Compute and draw the Gradients view; returns the Figure.  ``options`` as in
    :func:`compute_gradients`."""
    return GradientsView(fig).update(compute_gradients(image, modes, upstream, **options)).fig

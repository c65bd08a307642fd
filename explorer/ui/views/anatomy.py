"""Kernels: the 1-D anatomy of one resized axis, and the frequency response of every mode's kernel.

* where each output sample lands on the input grid (its source coordinate) and which inputs it reads, line
  width proportional to the weight (red positive, blue negative);
* the kernel around one chosen output sample and the weights it takes (stems);
* the weight matrix ``W`` (forward, ``y = W x``) and its transpose (backward, ``dx = W.T dy``) on one
  signed scale;
* the frequency response of each mode's kernel, stretched as the engine stretches it under antialias,
  against the output's Nyquist limit: what lies right of it folds back as aliasing.

>>> import numpy as np
>>> data = compute_anatomy("bilinear", ["nearest", "bilinear"], n=8, scale=0.5)
>>> data.weights.shape, data.coordinates.tolist()
((4, 8), [0.5, 2.5, 4.5, 6.5])
>>> view = AnatomyView().update(data)
>>> bool(np.array_equal(view.images["weights"].get_array(), data.weights))
True
"""

from __future__ import annotations


import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle

from ..compute.anatomy import AnatomyData, compute_anatomy
from . import style as S

_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


class AnatomyView:
    """The Kernels figure.  ``images`` holds ``"weights"`` (W) and ``"transpose"`` (W.T); ``lines`` holds
    the ``"taps"`` LineCollection, ``"outputs"`` markers, ``"kernel"`` curve, ``"stems"`` and one
    ``"response:<mode>"`` line per compared mode."""

    def __init__(self, fig=None):
        self.fig = fig
        self.layout = None

    def _build(self, labels=()):
        from matplotlib.colors import Normalize

        fig = S.new_figure(10.0, 7.6, self.fig)
        self.fig = fig
        gs = fig.add_gridspec(3, 3, height_ratios=[1.0, 0.9, 1.4], left=0.05, right=0.98, top=0.94,
                              bottom=0.07, hspace=0.45, wspace=0.25)
        ax0 = fig.add_subplot(gs[0, :])
        ax1 = fig.add_subplot(gs[1, :], sharex=ax0)
        axw, axt, axf = fig.add_subplot(gs[2, 0]), fig.add_subplot(gs[2, 1]), fig.add_subplot(gs[2, 2])
        self.axes = {"anatomy": ax0, "kernel": ax1, "weights": axw, "transpose": axt, "response": axf}
        self.lines = {}
        ax0.set_yticks([0, 1], ["input", "output"])
        ax0.set_ylim(-0.35, 1.35)
        ax0.tick_params(labelbottom=True)
        self.lines["taps"] = ax0.add_collection(LineCollection([], linewidths=1, zorder=1))
        self.lines["inputs"] = ax0.plot([], [], "o", color="black", ms=5, zorder=3)[0]
        self.lines["outputs"] = ax0.plot([], [], "s", color=S.OVER, ms=5, zorder=3)[0]
        self.lines["chosen"] = ax0.plot([], [], "s", color="#d62728", ms=8, zorder=4, mfc="none")[0]
        _title(ax0, "output samples on the input grid")
        ax1.axhline(0, color="#999999", lw=0.8)
        self.lines["kernel"] = ax1.plot([], [], "-", color="#555555", lw=1.2)[0]
        self.lines["stems"] = ax1.add_collection(LineCollection([], colors="#d62728", linewidths=2))
        self.lines["stem_heads"] = ax1.plot([], [], "o", color="#d62728", ms=4)[0]
        self.lines["centre"] = ax1.axvline(0, color=S.OVER, lw=1, ls="--")
        ax1.tick_params(labelbottom=False)
        ax1.set_yticks([0.0, 0.5, 1.0])
        self.norm = Normalize(-1, 1)
        self.images = {
            "weights": axw.imshow(np.zeros((2, 2)), cmap=S.SIGNED, norm=self.norm, interpolation="nearest",
                                  aspect="auto"),
            "transpose": axt.imshow(np.zeros((2, 2)), cmap=S.SIGNED, norm=self.norm, interpolation="nearest",
                                    aspect="auto"),
        }
        S.bare(axw)
        S.bare(axt)
        _title(axw, "W (forward)")
        _title(axt, "Wᵀ (backward)")
        for ax in self.axes.values():
            ax.tick_params(labelsize=7)
        self.curves, self.legend_texts = [], []  # a pool of response lines, relabelled per update
        for i, colour in enumerate(_COLOURS):
            self.curves.append(axf.plot([], [], lw=1.3, color=colour)[0])
            self.legend_texts.append(axf.text(0.98, 0.80 - 0.075 * i, "", transform=axf.transAxes, ha="right",
                                              va="top", fontsize=7, color=colour))
        axf.axhline(0, color="#999999", lw=0.6)
        self.lines["nyquist"] = axf.axvline(0.5, color="black", lw=1, ls="--")
        self.alias_zone = axf.add_patch(Rectangle((0.5, 0), 0.5, 1, transform=axf.get_xaxis_transform(),
                                                  color="#d62728", alpha=0.08, lw=0))
        axf.set_xlim(0, 1)
        axf.set_ylim(-0.25, 1.1)
        axf.set_xticks([0.0, 0.25, 0.5, 0.75, 1.0])
        axf.set_yticks([0.0, 0.5, 1.0])
        _title(axf, "kernel gain")
        self.caption = ""
        self.error = ax0.text(0.5, 0.5, "", transform=ax0.transAxes, ha="center", va="center", fontsize=9,
                              color="#b00000")
        self.layout = True

    def update(self, data: AnatomyData) -> "AnatomyView":
        labels = tuple(data.responses)[:len(_COLOURS)]
        if self.layout is None:
            self._build(labels)
        self.legend = {}
        for i, curve in enumerate(self.curves):
            label = labels[i] if i < len(labels) else None
            if label is None:
                curve.set_data([], [])
                self.legend_texts[i].set_text("")
                continue
            self.lines[f"response:{label}"] = curve
            self.legend[label] = self.legend_texts[i]
        n, m, w = data.n, data.m, data.weights
        ax0, ax1 = self.axes["anatomy"], self.axes["kernel"]
        self.error.set_text(S.wrap(data.error, 80) if data.error is not None else "")
        x = data.coordinates
        rows, cols = np.nonzero(w)
        segments = [((x[i] if np.isfinite(x[i]) else cols_i, 1.0), (cols_i, 0.0))
                    for i, cols_i in zip(rows, cols)]
        values = w[rows, cols]
        limit = S.symmetric_limit([w])
        taps = self.lines["taps"]
        taps.set_segments(segments)
        taps.set_linewidths(0.4 + 3.0 * np.abs(values) / limit)
        taps.set_colors([S.SIGNED(0.85) if v > 0 else S.SIGNED(0.15) for v in values])
        self.lines["inputs"].set_data(np.arange(n), np.zeros(n))
        finite = np.isfinite(x)
        self.lines["outputs"].set_data(x[finite], np.ones(int(finite.sum())))
        chosen = data.sample
        xs = x[chosen] if np.isfinite(x[chosen]) else float(np.argmax(np.abs(w[chosen])))
        self.lines["chosen"].set_data([xs], [1.0])
        lo = min(-0.5, float(np.nanmin(x)) - 0.5) if finite.any() else -0.5
        hi = max(n - 0.5, float(np.nanmax(x)) + 0.5) if finite.any() else n - 0.5
        t, k = data.curve
        if len(t):
            lo, hi = min(lo, float(t.min())), max(hi, float(t.max()))
        ax0.set_xlim(lo, hi)
        ticks = list(range(n)) if n <= 24 else np.linspace(0, n - 1, 9).round().tolist()
        if list(ax0.get_xticks()) != ticks:
            ax0.set_xticks(ticks)
        self.lines["kernel"].set_data(t, k)
        row = w[chosen]
        js = np.nonzero(row)[0]
        self.lines["stems"].set_segments([((j, 0.0), (j, row[j])) for j in js])
        self.lines["stem_heads"].set_data(js, row[js])
        self.lines["centre"].set_xdata([xs, xs])
        ymin = min(-0.2, float(row.min()) - 0.1, float(k.min()) - 0.1 if len(k) else 0)
        ymax = max(1.05, float(row.max()) + 0.1, float(k.max()) + 0.1 if len(k) else 0)
        ax1.set_ylim(ymin, ymax)
        _title(ax1, f"output {chosen} at x = {xs:.4g}")
        self.norm.vmin, self.norm.vmax = -limit, limit
        self.images["weights"].set_data(w)
        self.images["weights"].set_extent((-0.5, n - 0.5, m - 0.5, -0.5))
        self.images["transpose"].set_data(w.T)
        self.images["transpose"].set_extent((-0.5, m - 0.5, n - 0.5, -0.5))
        self.axes["weights"].set_xlim(-0.5, n - 0.5)
        self.axes["weights"].set_ylim(m - 0.5, -0.5)
        self.axes["transpose"].set_xlim(-0.5, m - 0.5)
        self.axes["transpose"].set_ylim(n - 0.5, -0.5)
        nyq = data.output_nyquist
        self.lines["nyquist"].set_xdata([nyq, nyq])
        self.alias_zone.set_x(nyq)
        self.alias_zone.set_width(max(0.0, 1.0 - nyq))
        for key in [k for k in self.lines if k.startswith("response:") and k[9:] not in labels]:
            del self.lines[key]
        for label in labels:
            resp = data.responses[label]
            line = self.lines[f"response:{label}"]
            if isinstance(resp, np.ndarray):
                line.set_data(data.frequencies, resp)
                line.set_linewidth(2.6 if label == data.mode else 1.2)
                self.legend[label].set_text(label)
            else:
                line.set_data([], [])
                self.legend[label].set_text(f"{label}: not available")
        self.caption = anatomy_caption(data)
        return self


def anatomy_caption(data: AnatomyData) -> str:
    """What the Kernels figure shows, in words (the figure itself keeps its text short: text is the most
    expensive thing matplotlib draws)."""
    direction = "down" if data.step > 1 else ("up" if data.step < 1 else "same size")
    text = (f"{data.mode} ({data.kernel_name} kernel) on one axis: {data.n} → {data.m} samples ({direction}); "
            f"step {data.step:.4g} input samples per output; kernel stretch {data.stretch:.4g}.  Top: where "
            "each output sample lands on the input grid and the inputs it reads (line width ∝ |weight|, red "
            "positive, blue negative).  Middle: the kernel around the chosen output and the weights it takes "
            "(stems).  Bottom: W (rows outputs, columns inputs; forward y = W x), its transpose (backward "
            f"∂x = Wᵀ ∂y) and each kernel's gain per frequency (cycles per input sample): right of the dashed "
            f"output Nyquist limit ({data.output_nyquist:.3g}), whatever passes folds back as aliasing.")
    if data.notes:
        text += f"  Note: {data.notes}."
    if data.error is not None:
        text += f"  Error: {data.error}"
    return text


def _title(ax, text):
    if ax.get_title() != text:
        ax.set_title(text, fontsize=9, y=1.0, pad=3)  # a fixed y skips the costly auto-placement


def anatomy_figure(mode, modes=(), *, fig=None, **options):
    """Compute and draw the Kernels view; returns the Figure.  ``options`` as in :func:`compute_anatomy`."""
    return AnatomyView(fig).update(compute_anatomy(mode, modes, **options)).fig

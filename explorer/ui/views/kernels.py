"""Kernels: one resized axis drawn sample by sample, and the frequency response of every mode's kernel.

* where each output sample lands on the input grid (its source coordinate) and which inputs it reads, line
  width proportional to the weight (red positive, blue negative);
* the kernel around one chosen output sample and the weights it takes (stems);
* the weight matrix ``W`` (forward, ``y = W x``) and its transpose (backward, ``dx = W.T dy``) on one
  signed scale, with its colour bar;
* the frequency response of each mode's kernel, stretched as the engine stretches it under antialias,
  against the output's Nyquist limit: what lies right of it folds back as aliasing.

The app shows the figure as SVG (text stays text at any width); slides get PNG, SVG or PDF.

>>> import numpy as np
>>> data = compute_kernels("bilinear", ["nearest", "bilinear"], n=8, scale=0.5)
>>> data.weights.shape, data.coordinates.tolist()
((4, 8), [0.5, 2.5, 4.5, 6.5])
>>> view = KernelsView().update(data)
>>> bool(np.array_equal(view.images["weights"].get_array(), data.weights))
True
"""

from __future__ import annotations

import io
import re

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle

from ..compute.kernels import KernelsData, compute_kernels
from . import style as S

_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
#: Font sizes of the figure, in points: 12.5 px and more at 100 dpi, and in the app's SVG at its minimum width.
TITLE_PT, TEXT_PT = 11, 9.5
#: Width and height of the figure, in inches.
SIZE = (12.0, 8.6)
#: The figure's layouts: its size in inches and its title, text and tick-label sizes in points.  ``wide``: the
#: page and the app in a wide window, the three bottom panels side by side; ``narrow``: the app in a narrow
#: window (a sidebar, a browser zoom), stacked: the bottom row's gain plot below W and Wᵀ, 5 inches wide so
#: that its text is 12 CSS px and more from 420 px on; ``slide``: a 16:9 slide, two columns, 18 pt text
#: (tick labels 14 pt), sized by :func:`explorer.ui.views.export.frame_figure`.
LAYOUTS = {"wide": (SIZE, TITLE_PT, TEXT_PT, TEXT_PT),
           "narrow": ((5.0, 10.4), 12.5, 12.0, 12.0),
           "slide": ((13.333, 6.4), 18.0, 18.0, 14.0)}
#: The gain plot's legend: one line per mode, in the plot's height.
LEGEND_STEP = {"wide": 0.085, "narrow": 0.1, "slide": 0.15}


class KernelsView:
    """The Kernels figure.  ``images`` holds ``"weights"`` (W) and ``"transpose"`` (W.T); ``lines`` holds
    the ``"taps"`` LineCollection, ``"outputs"`` markers, ``"kernel"`` curve, ``"stems"`` and one
    ``"response:<mode>"`` line per compared mode."""

    def __init__(self, fig=None, layout: str = "wide", height: float | None = None):
        self.fig = fig
        self.layout = None
        self.kind = layout
        size, self.title_pt, self.text_pt, self.tick_pt = LAYOUTS[layout]
        self.size = (size[0], height or size[1])  # ``height``: on a slide, what its stamp and caption leave

    # ------------------------------------------------------------------ layout
    def _grid(self, fig):
        """The axes of the layout: (axis, kernel, W, Wᵀ, W's colour bar, gain)."""
        if self.kind == "narrow":  # stacked: the top two, W and Wᵀ side by side, the gain below them
            gs = fig.add_gridspec(4, 4, height_ratios=[1.0, 0.9, 1.1, 1.3], width_ratios=[1, 1, 0.07, 0.32],
                                  left=0.16, right=0.94, top=0.95, bottom=0.06, hspace=0.75, wspace=0.8)
            return (fig.add_subplot(gs[0, :]), gs[1, :], fig.add_subplot(gs[2, 0]), fig.add_subplot(gs[2, 1]),
                    fig.add_subplot(gs[2, 2]), fig.add_subplot(gs[3, :]))
        if self.kind == "slide":  # two columns: the axis above the kernel, the gain above W and Wᵀ
            fig.set_layout_engine("constrained", h_pad=0.06, w_pad=0.08)
            gs = fig.add_gridspec(2, 4, width_ratios=[2.2, 0.75, 0.75, 0.06])
            return (fig.add_subplot(gs[0, 0]), gs[1, 0], fig.add_subplot(gs[1, 1]), fig.add_subplot(gs[1, 2]),
                    fig.add_subplot(gs[1, 3]), fig.add_subplot(gs[0, 1:]))
        # columns: W, Wᵀ, W's colour bar, room for the bar's label, the gain plot
        gs = fig.add_gridspec(3, 5, height_ratios=[1.0, 0.9, 1.5], width_ratios=[1, 1, 0.05, 0.22, 1.25],
                              left=0.07, right=0.98, top=0.95, bottom=0.08, hspace=0.55, wspace=0.3)
        return (fig.add_subplot(gs[0, :]), gs[1, :], fig.add_subplot(gs[2, 0]), fig.add_subplot(gs[2, 1]),
                fig.add_subplot(gs[2, 2]), fig.add_subplot(gs[2, 4]))

    def _build(self):
        fig = self.fig = S.new_figure(*self.size, self.fig)
        ax0, kernel_cell, axw, axt, cax, axf = self._grid(fig)
        ax1 = fig.add_subplot(kernel_cell, sharex=ax0)
        self.axes = {"axis": ax0, "kernel": ax1, "weights": axw, "transpose": axt, "bar": cax,
                     "response": axf}
        self.lines = {}
        self._build_axis(ax0)
        self._build_kernel(ax1)
        self._build_matrices(axw, axt, cax)
        self._build_response(axf)
        for ax in self.axes.values():
            ax.tick_params(labelsize=self.tick_pt)
        self.error = ax0.text(0.5, 0.5, "", transform=ax0.transAxes, ha="center", va="center",
                              fontsize=self.text_pt, color="#b00000")
        self.caption = ""
        self.layout = True

    def _title(self, ax, text):
        """``ax``'s title, wrapped to the axes' width (the narrow and slide layouts have narrow panels); a title
        that does not fit one line breaks after its first ", " (never inside the equation that follows)."""
        if self.kind != "wide":
            width_pt = ax.get_position().width * self.size[0] * 72
            chars = max(12, int(width_pt / (0.5 * self.title_pt)))
            parts = text.split(", ", 1) if len(text) > chars and ", " in text else [text]
            if len(parts) == 2:
                parts[0] += ","
            text = "\n".join(S.wrap(part, chars) for part in parts)
        _title(ax, text, self.title_pt)

    def _build_axis(self, ax):
        ax.set_yticks([0, 1], ["input", "output"])
        ax.set_ylim(-0.35, 1.35)
        ax.tick_params(labelbottom=True)
        ax.set_xlabel("position on the input axis (input sample index)", fontsize=self.text_pt)
        self.lines["taps"] = ax.add_collection(LineCollection([], linewidths=1, zorder=1))
        self.lines["inputs"] = ax.plot([], [], "o", color="black", ms=5, zorder=3)[0]
        self.lines["outputs"] = ax.plot([], [], "s", color=S.OVER, ms=5, zorder=3)[0]
        self.lines["chosen"] = ax.plot([], [], "s", color="#d62728", ms=9, zorder=4, mfc="none")[0]
        self._title(ax, "where each output sample lands, and the inputs it reads")

    def _build_kernel(self, ax):
        ax.axhline(0, color="#999999", lw=0.8)
        self.lines["kernel"] = ax.plot([], [], "-", color="#555555", lw=1.2)[0]
        self.lines["stems"] = ax.add_collection(LineCollection([], colors="#d62728", linewidths=2))
        self.lines["stem_heads"] = ax.plot([], [], "o", color="#d62728", ms=4)[0]
        self.lines["centre"] = ax.axvline(0, color=S.OVER, lw=1, ls="--")
        ax.tick_params(labelbottom=False)
        ax.set_yticks([0.0, 0.5, 1.0])
        ax.set_ylabel("weight", fontsize=self.text_pt)

    def _build_matrices(self, axw, axt, cax):
        from matplotlib.colors import Normalize

        self.norm = Normalize(-1, 1)
        self.images = {name: ax.imshow(np.zeros((2, 2)), cmap=S.SIGNED, norm=self.norm, interpolation="none",
                                       aspect="auto") for name, ax in (("weights", axw), ("transpose", axt))}
        from matplotlib.ticker import MaxNLocator

        for ax in (axw, axt):  # sample indices: whole numbers, few enough not to collide
            ax.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
        axw.set_xlabel("input sample", fontsize=self.text_pt)
        axw.set_ylabel("output sample", fontsize=self.text_pt)
        axt.set_xlabel("output sample", fontsize=self.text_pt)
        axt.set_ylabel("input sample", fontsize=self.text_pt)
        self._title(axw, "W: forward, y = W x")
        self._title(axt, "Wᵀ: backward, ∂x = Wᵀ ∂y")
        self.bar = self.fig.colorbar(self.images["weights"], cax=cax)
        self.bar.set_label("weight (red +, blue −)", fontsize=self.text_pt)

    def _build_response(self, ax):
        self.curves, self.legend_texts = [], []  # a pool of response lines, relabelled per update
        for i, colour in enumerate(_COLOURS):
            self.curves.append(ax.plot([], [], lw=1.3, color=colour)[0])
            self.legend_texts.append(ax.text(0.98, 0.97 - LEGEND_STEP[self.kind] * i, "", transform=ax.transAxes,
                                             ha="right",
                                             va="top", fontsize=self.text_pt, color=colour))
        ax.axhline(0, color="#999999", lw=0.6)
        self.lines["nyquist"] = ax.axvline(0.5, color="black", lw=1, ls="--")
        self.alias_zone = ax.add_patch(Rectangle((0.5, 0), 0.5, 1, transform=ax.get_xaxis_transform(),
                                                 color="#d62728", alpha=0.08, lw=0))
        ax.set_xlim(0, 1)
        ax.set_ylim(-0.25, 1.1)
        ax.set_xticks([0.0, 0.25, 0.5, 0.75, 1.0])
        ax.set_yticks([0.0, 0.5, 1.0])
        ax.set_xlabel("frequency (cycles per input sample)", fontsize=self.text_pt)
        ax.set_ylabel("gain", fontsize=self.text_pt)
        self._title(ax, "kernel gain; right of the dashed line: aliasing")

    # ------------------------------------------------------------------ update
    def update(self, data: KernelsData) -> KernelsView:
        if self.layout is None:
            self._build()
        self.error.set_text(S.wrap(data.error, 80) if data.error is not None else "")
        limit = S.symmetric_limit([data.weights])
        xs = self._update_axis(data, limit)
        self._update_kernel(data, xs)
        self._update_matrices(data, limit)
        self._update_response(data)
        self.caption = kernels_caption(data)
        return self

    def _update_axis(self, data, limit) -> float:
        """The top panel; returns the chosen output's position."""
        n, w, x = data.n, data.weights, data.coordinates
        rows, cols = np.nonzero(w)
        taps = self.lines["taps"]
        taps.set_segments([((x[i] if np.isfinite(x[i]) else j, 1.0), (j, 0.0)) for i, j in zip(rows, cols)])
        values = w[rows, cols]
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
        t = data.curve[0]
        if len(t):
            lo, hi = min(lo, float(t.min())), max(hi, float(t.max()))
        ax = self.axes["axis"]
        ax.set_xlim(lo, hi)
        ticks = list(range(n)) if n <= 24 else np.linspace(0, n - 1, 9).round().tolist()
        if list(ax.get_xticks()) != ticks:
            ax.set_xticks(ticks)
        return xs

    def _update_kernel(self, data, xs):
        t, k = data.curve
        row = data.weights[data.sample]
        js = np.nonzero(row)[0]
        self.lines["kernel"].set_data(t, k)
        self.lines["stems"].set_segments([((j, 0.0), (j, row[j])) for j in js])
        self.lines["stem_heads"].set_data(js, row[js])
        self.lines["centre"].set_xdata([xs, xs])
        ymin = min(-0.2, float(row.min()) - 0.1, float(k.min()) - 0.1 if len(k) else 0)
        ymax = max(1.05, float(row.max()) + 0.1, float(k.max()) + 0.1 if len(k) else 0)
        self.axes["kernel"].set_ylim(ymin, ymax)
        self._title(self.axes["kernel"], f"output {data.sample} at x = {xs:.4g}: the kernel and the weights it takes")

    def _update_matrices(self, data, limit):
        n, m, w = data.n, data.m, data.weights
        self.norm.vmin, self.norm.vmax = -limit, limit
        for name, array, rows, cols in (("weights", w, m, n), ("transpose", w.T, n, m)):
            self.images[name].set_data(array)
            self.images[name].set_extent((-0.5, cols - 0.5, rows - 0.5, -0.5))
            self.axes[name].set_xlim(-0.5, cols - 0.5)
            self.axes[name].set_ylim(rows - 0.5, -0.5)

    def _update_response(self, data):
        labels = tuple(data.responses)[:len(_COLOURS)]
        for key in [k for k in self.lines if k.startswith("response:")]:
            del self.lines[key]
        self.legend = {}
        for i, (curve, text) in enumerate(zip(self.curves, self.legend_texts)):
            label = labels[i] if i < len(labels) else None
            resp = data.responses.get(label) if label else None
            if label is None:
                curve.set_data([], [])
                text.set_text("")
                continue
            self.lines[f"response:{label}"], self.legend[label] = curve, text
            if isinstance(resp, np.ndarray):
                curve.set_data(data.frequencies, resp)
                curve.set_linewidth(2.6 if label == data.mode else 1.2)
                text.set_text(label)
            else:
                curve.set_data([], [])
                text.set_text(f"{label}: not available")
        nyq = data.output_nyquist
        self.lines["nyquist"].set_xdata([nyq, nyq])
        self.alias_zone.set_x(nyq)
        self.alias_zone.set_width(max(0.0, 1.0 - nyq))


def kernels_caption(data: KernelsData) -> str:
    """What the Kernels figure shows, in words."""
    direction = "down" if data.step > 1 else ("up" if data.step < 1 else "same size")
    text = (f"{data.mode} ({data.kernel_name} kernel) on one axis: {data.n} → {data.m} samples ({direction}); "
            f"step {data.step:.4g} input samples per output; kernel stretch {data.stretch:.4g}.  Top: where "
            "each output sample lands on the input grid and the inputs it reads (line width ∝ |weight|, red "
            "positive, blue negative); x is the chosen output's source coordinate.  Middle: the kernel around "
            "the chosen output and the weights it takes (stems).  Bottom: W (rows outputs, columns inputs; "
            "forward y = W x), its transpose (backward ∂x = Wᵀ ∂y), on one signed scale, and each kernel's gain "
            "per frequency (cycles per input sample): right of the dashed output Nyquist limit "
            f"({data.output_nyquist:.3g}), whatever passes folds back as aliasing.")
    if data.notes:
        text += f"  Note: {data.notes}."
    if data.error is not None:
        text += f"  Error: {data.error}"
    return text


def _title(ax, text, points=TITLE_PT):
    if ax.get_title() != text:
        ax.set_title(text, fontsize=points, y=1.0, pad=4)  # a fixed y skips the costly auto-placement


def svg_markup(fig) -> str:
    """``fig`` as inline SVG markup (text kept as text, the XML prologue removed), scaling to its container."""
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "explorer"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})  # the same figure is the same markup
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    return re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"', r'<svg\1', svg, count=1)


def kernels_figure(mode, modes=(), *, fig=None, **options):
    """Compute and draw the Kernels view; returns the Figure.  ``options`` as in :func:`compute_kernels`."""
    return KernelsView(fig).update(compute_kernels(mode, modes, **options)).fig

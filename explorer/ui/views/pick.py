"""Pick a mode: the ranking of :func:`explorer.pick` as a figure.

Left: each candidate's score, split into what each criterion contributes (criteria that matter are weighted
1, the others 0.2); excluded candidates are grey with the reason.  Right: the goodness of every candidate
on every criterion (0 red to 1 green), with the measured figure in the cell.

>>> from explorer.images import zone_plate
>>> from explorer.advisor.pick import pick
>>> p = pick(zone_plate(64), scale=0.25)
>>> view = PickView().update(p)
>>> view.images["goodness"].get_array().shape
(8, 6)
>>> [t.get_text() for t in view.labels][0] == p.ranking[0].label
True
"""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps
from matplotlib.collections import PolyCollection

from ...advisor.pick import OTHER_WEIGHT, PRIORITIES, Pick
from . import style as S

CRITERIA = tuple(PRIORITIES)
_FIGURE_OF = {"no_aliasing": ("aliasing", "{:.2f}"), "sharpness": ("sharpness", "{:.2f}"),
              "no_overshoot": ("overshoot", "{:.1%}"), "exact_gradients": ("coverage", "{:.0%}"),
              "alignment": ("misalignment", "{:.2f}px"), "speed": ("taps", "{:.0f}")}
_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


class PickView:
    """``images["goodness"]`` (candidates x criteria), ``bars`` (one PolyCollection: a rectangle per candidate
    and criterion, row by row, each as wide as the criterion's share of the score) and ``labels`` (candidate
    names, best first)."""

    def __init__(self, fig=None, values: bool = True):
        self.fig = fig
        self.layout = None
        self.values = values  # the measured figure written in each cell (the app shows them in a table)

    def _build(self, count):
        height = 0.36 * count + 1.3
        fig = S.new_figure(10.0, height, self.fig)
        self.fig = fig
        gs = fig.add_gridspec(1, 2, width_ratios=[1.0, 1.25], left=0.17, right=0.99, top=1 - 0.75 / height,
                              bottom=0.35 / height, wspace=0.06)
        ax, axh = fig.add_subplot(gs[0]), fig.add_subplot(gs[1])
        # one collection of rectangles (count x criteria), far cheaper to draw than a Rectangle each
        self.bars = ax.add_collection(PolyCollection(np.zeros((count * len(CRITERIA), 4, 2)), linewidths=0,
                                                     facecolors=_COLOURS[:len(CRITERIA)] * count))
        ax.set_ylim(count - 0.5, -0.5)
        ax.set_xlim(0, 1)
        ax.set_yticks([])
        ax.set_xticks([0, 0.5, 1])
        ax.tick_params(labelsize=7)
        self.labels = [ax.text(-0.02, i, "", transform=ax.get_yaxis_transform(), ha="right", va="center",
                               fontsize=8) for i in range(count)]
        self.scores = [ax.text(0.0, i, "", va="center", fontsize=7) for i in range(count)]
        self.excluded = [ax.text(0.02, i, "", va="center", fontsize=7, color="#555555") for i in range(count)]
        self.images = {"goodness": axh.imshow(np.zeros((count, len(CRITERIA))), cmap=colormaps["RdYlGn"],
                                              vmin=0, vmax=1, aspect="auto")}
        axh.set_xticks(range(len(CRITERIA)), [c.replace("_", " ") for c in CRITERIA], fontsize=7)
        axh.xaxis.tick_top()
        axh.set_yticks([])
        axh.tick_params(length=0)
        self.cells = [[axh.text(j, i, "", ha="center", va="center", fontsize=7) for j in range(len(CRITERIA))]
                      for i in range(count)] if self.values else []
        ax.set_title("score (weighted mean of the goodness)", fontsize=8, y=1.0, pad=3)
        self.legend, x = [], 0.17
        for k, c in enumerate(CRITERIA):
            self.legend.append(fig.text(x, 1 - 0.3 / height, c.replace("_", " "), fontsize=7, color=_COLOURS[k],
                                        va="top"))
            x += 0.0062 * (len(c) + 4)
        self.axes = {"score": ax, "goodness": axh}
        self.layout = count

    def update(self, result: Pick) -> "PickView":
        ranking = result.ranking
        count = len(ranking)
        if self.layout != count:
            self._build(count)
        weights = {c: (1.0 if c in result.priorities else OTHER_WEIGHT) for c in CRITERIA}
        if not result.training and "exact_gradients" not in result.priorities:
            weights["exact_gradients"] = 0.0
        total = sum(weights.values())
        widths = np.array([[(weights[c] * cand.goodness.get(c, 0.0) / total) if cand.excluded is None else 0.0
                            for c in CRITERIA] for cand in ranking]).reshape(count, len(CRITERIA))
        right = np.cumsum(widths, axis=1)
        boxes = []
        for i in range(count):
            for j in range(len(CRITERIA)):
                x0, x1 = right[i, j] - widths[i, j], right[i, j]
                boxes.append(((x0, i - 0.35), (x1, i - 0.35), (x1, i + 0.35), (x0, i + 0.35)))
        self.bars.set_verts(boxes)
        self.widths = widths
        left = right[:, -1] if count else np.zeros(0)
        goodness = np.full((count, len(CRITERIA)), np.nan)
        for i, cand in enumerate(ranking):
            self.labels[i].set_text(cand.label)
            self.labels[i].set_fontweight("bold" if result.winner is cand else "normal")
            self.scores[i].set_x(left[i] + 0.01)
            self.scores[i].set_text(f"{cand.score:.3f}" if cand.excluded is None else "")
            self.excluded[i].set_text(S.wrap("excluded: " + cand.excluded, 70).split("\n")[0]
                                      if cand.excluded else "")
            for j, c in enumerate(CRITERIA):
                if c in cand.goodness:
                    goodness[i, j] = cand.goodness[c]
                if self.cells:
                    name, fmt = _FIGURE_OF[c]
                    self.cells[i][j].set_text(fmt.format(cand.figures[name]) if c in cand.goodness else "")
        self.images["goodness"].set_data(goodness)
        for k, c in enumerate(CRITERIA):
            self.legend[k].set_fontweight("bold" if c in result.priorities else "normal")
        return self


def pick_rows(result: Pick) -> list:
    """The ranking as rows of strings (a header first): score and measured figures per candidate."""
    rows = [["mode", "score"] + [_FIGURE_OF[c][0] for c in CRITERIA] + ["support / excluded"]]
    for cand in result.ranking:
        figs = [(_FIGURE_OF[c][1].format(cand.figures[_FIGURE_OF[c][0]]) if cand.figures else "")
                for c in CRITERIA]
        support = "; ".join(f"{b}: {st}" for b, (st, _) in cand.support.items())
        rows.append([cand.label, f"{cand.score:.3f}" if cand.excluded is None else "--"] + figs
                    + [f"excluded: {cand.excluded}" if cand.excluded else support])
    return rows


def pick_figure(image=None, *, fig=None, **options):
    """Run :func:`explorer.pick` and draw its ranking; returns the Figure."""
    from ...advisor.pick import pick

    return PickView(fig).update(pick(image, **options)).fig

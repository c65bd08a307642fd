"""Pick a mode: the ranking of :func:`explorer.pick`, as an HTML table in the app and a figure for slides.

Left: each candidate's score, split into what each criterion contributes (criteria that matter are weighted
1, the others 0.2); excluded candidates are grey with the reason.  Right: the goodness of every candidate
on every criterion: the number in each cell is the goodness its colour shows (0 dark blue to 1 yellow, cividis:
readable under the common colour-vision deficiencies and in grey), the measured figure it comes from under it.

>>> from explorer.images import zone_plate
>>> from explorer.advisor.pick import pick
>>> p = pick(zone_plate(64), scale=0.25)
>>> view = PickView().update(p)
>>> view.images["goodness"].get_array().shape
(8, 6)
>>> [t.get_text() for t in view.labels][0] == p.ranking[0].label
True
>>> "goodness" in pick_html(p)
True
"""

from __future__ import annotations

import html as H

import numpy as np
from matplotlib import colormaps
from matplotlib.collections import PolyCollection

from ...advisor.pick import OTHER_WEIGHT, PRIORITIES, PRIORITY_LABELS, Pick
from . import style as S

CRITERIA = tuple(PRIORITIES)
FIGURE_OF = {"no_aliasing": ("aliasing", "{:.2f}"), "sharpness": ("sharpness", "{:.2f}"),
             "no_overshoot": ("overshoot", "{:.1%}"), "exact_gradients": ("coverage", "{:.0%}"),
             "alignment": ("misalignment", "{:.2f}px"), "speed": ("taps", "{:.0f}")}
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
#: the goodness colours: lightness rises monotonically from 0 to 1, so no two goodness values look alike under
#: deuteranopia or protanopia (red-yellow-green gave the best and the worst cell the same olive)
GOODNESS = colormaps["cividis"]
TEXT_PT = 10
#: The slide's figure: its size in inches (what the frame leaves of a 16:9 slide), its text and tick labels
#: in points.
SLIDE_SIZE, SLIDE_PT, SLIDE_TICK_PT = (13.333, 6.4), 18.0, 14.0


def weights(result: Pick) -> dict:
    """The weight of each criterion in the score: 1 for what matters, :data:`OTHER_WEIGHT` for the rest,
    0 for gradients when not training (unless asked for)."""
    w = {c: (1.0 if c in result.priorities else OTHER_WEIGHT) for c in CRITERIA}
    if not result.training and "exact_gradients" not in result.priorities:
        w["exact_gradients"] = 0.0
    return w


def label(criterion: str) -> str:
    """A criterion as the screen names it: ``label("no_aliasing") == "little aliasing"``."""
    return PRIORITY_LABELS.get(criterion, criterion.replace("_", " "))


def ink(rgba) -> str:
    """Black or white text, whichever reads on a cell of colour ``rgba``."""
    r, g, b = (float(v) for v in rgba[:3])
    return "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "#ffffff"


def _hex(rgba) -> str:
    return "#{:02x}{:02x}{:02x}".format(*tuple(round(255 * float(v)) for v in rgba[:3]))


def pick_html(result: Pick) -> str:
    """The ranking as an HTML table: name, stacked score bar and score, then one coloured goodness cell per
    criterion with the measured figure; a legend of the bar colours and the goodness colour bar on top."""
    w = weights(result)
    total = sum(w.values())
    legend = " &nbsp; ".join(
        f"<span style='color:{COLOURS[k]};font-weight:{'bold' if c in result.priorities else 'normal'}'>"
        f"■ {label(c)} (×{w[c]:g})</span>" for k, c in enumerate(CRITERIA))
    scale = "".join(f"<span style='display:inline-block;width:14px;height:12px;background:{_hex(GOODNESS(v))}'>"
                    f"</span>" for v in np.linspace(0, 1, 11))
    head = "".join(f"<th>{label(c)}</th>" for c in CRITERIA)
    rows = [_candidate_row(cand, result, w, total) for cand in result.ranking]
    return (f"<div class='xf-figure'><div>score bar, weighted mean of the goodness (bold: what matters): "
            f"{legend}</div><div>goodness, the number in each cell: 0 (worst) {scale} 1 (best); under it the "
            f"measured figure it comes from</div>"
            f"<table class='xf-table' style='width:100%'><tr><th>mode</th><th>score</th>{head}</tr>"
            f"{''.join(rows)}</table></div>")


def _candidate_row(cand, result, w, total) -> str:
    name = H.escape(cand.label)
    if result.winner is cand:
        name = f"<b>{name} ★</b>"
    if cand.excluded is None:
        segs = "".join(f"<span style='display:inline-block;height:14px;background:{COLOURS[j]};"
                       f"width:calc(min(240px, 22cqw) * {w[c] * cand.goodness.get(c, 0.0) / total:.4f})'></span>"
                       for j, c in enumerate(CRITERIA))
        bar = f"<span style='white-space:nowrap'>{segs} {cand.score:.3f}</span>"
    else:
        bar = f"<span style='color:#555'>excluded: {H.escape(cand.excluded)}</span>"
    cells = []
    for c in CRITERIA:
        if c in cand.goodness:
            name_, fmt = FIGURE_OF[c]
            g = cand.goodness[c]
            colour = GOODNESS(g)
            cells.append(f"<td class='xf-goodness' style='background:{_hex(colour)};color:{ink(colour)};"
                         f"text-align:center'><b>{g:.2f}</b><br><small>{name_} "
                         f"{fmt.format(cand.figures[name_])}</small></td>")
        else:
            cells.append("<td></td>")
    return f"<tr><td style='white-space:nowrap'>{name}</td><td>{bar}</td>{''.join(cells)}</tr>"


class PickView:
    """``images["goodness"]`` (candidates x criteria), ``bars`` (one PolyCollection: a rectangle per candidate
    and criterion, row by row, each as wide as the criterion's share of the score) and ``labels`` (candidate
    names, best first); the goodness has its colour bar."""

    def __init__(self, fig=None, values: bool = True, slide: bool = False, height: float | None = None):
        self.fig = fig
        self.layout = None
        self.values = values  # the measured figure written in each cell
        #: a slide: :data:`SLIDE_SIZE`, text :data:`SLIDE_PT`, tick labels (the scale's numbers, the criteria
        #: over the columns, two lines each) :data:`SLIDE_TICK_PT`
        self.slide = slide
        self.height = height or SLIDE_SIZE[1]  # on a slide: the figure's height in inches
        self.pt, self.tick_pt = (SLIDE_PT, SLIDE_TICK_PT) if slide else (TEXT_PT, TEXT_PT)

    def _build(self, count):
        pt, tick_pt = self.pt, self.tick_pt
        if self.slide:
            width, height = SLIDE_SIZE[0], self.height
            left, top, bottom, ratios = 0.225, 1 - 1.75 / height, 0.45 / height, [0.7, 1.6, 0.04]
        else:
            width, height = 13.0, 0.42 * count + 1.8
            left, top, bottom, ratios = 0.16, 1 - 1.0 / height, 0.4 / height, [1.0, 1.3, 0.04]
        fig = self.fig = S.new_figure(width, height, self.fig)
        gs = fig.add_gridspec(1, 3, width_ratios=ratios, left=left, right=0.92 if self.slide else 0.94, top=top,
                              bottom=bottom, wspace=0.08)
        ax, axh, cax = fig.add_subplot(gs[0]), fig.add_subplot(gs[1]), fig.add_subplot(gs[2])
        n = len(CRITERIA)
        self.bars = ax.add_collection(PolyCollection(np.zeros((count * n, 4, 2)), linewidths=0,
                                                     facecolors=COLOURS[:n] * count))
        ax.set_ylim(count - 0.5, -0.5)
        ax.set_xlim(0, 1.3 if self.slide else 1)  # on a slide, room for the score's number after its bar
        ax.set_yticks([])
        ax.set_xticks([0, 0.5, 1])
        ax.tick_params(labelsize=tick_pt)
        self.labels = [ax.text(-0.02, i, "", transform=ax.get_yaxis_transform(), ha="right", va="center",
                               fontsize=pt) for i in range(count)]
        self.scores = [ax.text(0.0, i, "", va="center", fontsize=pt) for i in range(count)]
        self.excluded = [ax.text(0.02, i, "", va="center", fontsize=pt, color="#555555") for i in range(count)]
        self.images = {"goodness": axh.imshow(np.zeros((count, n)), cmap=GOODNESS, vmin=0, vmax=1, aspect="auto")}
        names = [label(c).replace(" ", "\n") if self.slide else label(c) for c in CRITERIA]
        axh.set_xticks(range(n), names, fontsize=tick_pt)
        axh.xaxis.tick_top()
        axh.set_yticks([])
        axh.tick_params(length=0)
        bar = fig.colorbar(self.images["goodness"], cax=cax)
        bar.set_label("goodness (0 worst, 1 best)", fontsize=pt)
        bar.ax.tick_params(labelsize=tick_pt)
        self.cells = [[axh.text(j, i, "", ha="center", va="center", fontsize=pt) for j in range(n)]
                      for i in range(count)] if self.values else []
        ax.set_title("score: weighted mean\nof the goodness" if self.slide else "score: weighted mean of the goodness",
                     fontsize=pt, y=1.0, pad=4)
        self.legend, x, y = [], 0.01 if self.slide else 0.16, 1 - 0.25 / height
        for k, c in enumerate(CRITERIA):
            if self.slide and k == 3:  # two lines of three on a slide
                x, y = 0.01, y - pt * 1.4 / 72 / height
            self.legend.append(fig.text(x, y, "■ " + label(c), fontsize=pt, color=COLOURS[k], va="top"))
            x += (0.0072 * (len(c) + 5)) * (pt / TEXT_PT) * (13.0 / width)
        self.axes = {"score": ax, "goodness": axh, "bar": cax}
        self.layout = count

    def update(self, result: Pick) -> PickView:
        ranking = result.ranking
        count = len(ranking)
        if self.layout != count:
            self._build(count)
        w = weights(result)
        total = sum(w.values())
        widths = np.array([[(w[c] * cand.goodness.get(c, 0.0) / total) if cand.excluded is None else 0.0
                            for c in CRITERIA] for cand in ranking]).reshape(count, len(CRITERIA))
        right = np.cumsum(widths, axis=1)
        self.bars.set_verts([((x0, i - 0.35), (x1, i - 0.35), (x1, i + 0.35), (x0, i + 0.35))
                             for i in range(count) for x0, x1 in zip(right[i] - widths[i], right[i])])
        self.widths = widths
        goodness = np.full((count, len(CRITERIA)), np.nan)
        for i, cand in enumerate(ranking):
            self._update_row(i, cand, result, right[i, -1] if len(CRITERIA) else 0.0, goodness)
        self.images["goodness"].set_data(goodness)
        for k, c in enumerate(CRITERIA):
            self.legend[k].set_fontweight("bold" if c in result.priorities else "normal")
        return self

    def _update_row(self, i, cand, result, end, goodness):
        self.labels[i].set_text(cand.label)
        self.labels[i].set_fontweight("bold" if result.winner is cand else "normal")
        self.scores[i].set_x(end + 0.01)
        self.scores[i].set_text(f"{cand.score:.3f}" if cand.excluded is None else "")
        self.excluded[i].set_text(S.wrap("excluded: " + cand.excluded, 70).split("\n")[0] if cand.excluded else "")
        for j, c in enumerate(CRITERIA):
            if c in cand.goodness:
                goodness[i, j] = cand.goodness[c]
            if self.cells:  # the goodness the colour shows, black or white to read on it
                g = cand.goodness.get(c)
                self.cells[i][j].set_text("" if g is None else f"{g:.2f}")
                if g is not None:
                    self.cells[i][j].set_color(ink(GOODNESS(g)))


def pick_rows(result: Pick) -> list:
    """The ranking as rows of strings (a header first): score and measured figures per candidate."""
    rows = [["mode", "score"] + [FIGURE_OF[c][0] for c in CRITERIA] + ["support / excluded"]]
    for cand in result.ranking:
        figs = [(FIGURE_OF[c][1].format(cand.figures[FIGURE_OF[c][0]]) if cand.figures else "") for c in CRITERIA]
        support = "; ".join(f"{b}: {st}" for b, (st, _) in cand.support.items())
        rows.append([cand.label, f"{cand.score:.3f}" if cand.excluded is None else "--"] + figs
                    + [f"excluded: {cand.excluded}" if cand.excluded else support])
    return rows


def pick_figure(image=None, *, fig=None, **options):
    """Run :func:`explorer.pick` and draw its ranking; returns the Figure."""
    from ...advisor.pick import pick

    return PickView(fig).update(pick(image, **options)).fig

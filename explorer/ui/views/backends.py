"""Backends: what a backend, version and device support, per mode, and the advisor's findings and fixes.

The grid has one row per mode and one column per use (forward; backward when training; backward under
deterministic algorithms; ONNX export for PyTorch backends), coloured by the worst finding of
:func:`explorer.check` for that use: error (red), differs from PyTorch (orange), warning (amber), ok (green).
Each cell says why it is not ok (a tooltip in the app, a list below the grid).  The fixes come from
:func:`explorer.suggest_fixes`, measured on the current image.

>>> from explorer.images import checkerboard
>>> data = compute_backends(["nearest", "bicubic"], "torch", device="mps", antialias=True,
...                         mode="bicubic", image=checkerboard(16), scale=0.5)
>>> data.status[("bicubic", "backward")], data.status[("nearest", "forward")]
('error', 'ok')
>>> print(data.fixes[0])
set PYTORCH_ENABLE_MPS_FALLBACK=1 ...: identical output and gradient for this 0.5x downscale
>>> "✗" in backends_html(data) and "title=" in backends_html(data)
True
>>> view = BackendsView().update(data)
>>> view.images["grid"].get_array().shape
(2, 4)
"""

from __future__ import annotations

import html as H

import numpy as np
from matplotlib.colors import BoundaryNorm, ListedColormap

from ..compute.backends import STATUSES, BackendsData, compute_backends
from . import style as S

COLOURS = {"ok": "#2ca02c", "warning": "#ffbf00", "differs": "#ff7f0e", "error": "#d62728"}
SYMBOLS = {"ok": "✓", "warning": "!", "differs": "≠", "error": "✗"}
MEANINGS = {"ok": "ok", "warning": "warning", "differs": "differs from PyTorch", "error": "error"}
TEXT_PT = 10
#: The slide's figure: its size in inches (unless told its height: what the frame leaves of a 16:9 slide),
#: text in points, a grid row's height in inches, and the findings' and title's line lengths.
SLIDE = {"size": (13.333, 6.4), "pt": 18.0, "row_in": 0.42, "chars": 78, "title_chars": 92}


def reason(data: BackendsData, mode: str, use: str) -> str:
    """Why the cell (mode, use) is not ok, in one sentence (empty when it is)."""
    if data.status[(mode, use)] == "ok":
        return ""
    if (mode, use) in data.reasons:
        return data.reasons[(mode, use)]
    return " ".join(data.messages.get((mode, use), [])) or MEANINGS[data.status[(mode, use)]]


def legend_html() -> str:
    return " &nbsp; ".join(f"<span style='background:{COLOURS[s]};color:white;padding:1px 6px'>{SYMBOLS[s]}</span> "
                           f"{MEANINGS[s]}" for s in STATUSES)


def backends_html(data: BackendsData) -> str:
    """The support grid as an HTML table: a coloured cell with a symbol per mode and use, the reason as its
    tooltip; the current mode's row in bold; below, why the current mode's cells are not ok."""
    head = "".join(f"<th>{H.escape(u)}</th>" for u in data.uses)
    rows = []
    for m in data.modes:
        cells = "".join(
            f"<td style='background:{COLOURS[data.status[(m, u)]]};color:white;text-align:center;font-size:16px' "
            f"title='{H.escape(reason(data, m, u) or 'ok')}'>{SYMBOLS[data.status[(m, u)]]}</td>" for u in data.uses)
        weight = "bold" if m == data.mode else "normal"
        rows.append(f"<tr><th style='text-align:right;font-weight:{weight}'>{H.escape(m)}</th>{cells}</tr>")
    where = " ".join(str(v) for v in (data.backend, data.version, data.device) if v is not None)
    why = [f"<li><b>{H.escape(u)}</b>: {H.escape(reason(data, data.mode, u))}</li>"
           for u in data.uses if data.mode in data.modes and data.status[(data.mode, u)] != "ok"]
    notes = (f"<div>why {H.escape(data.mode)} is not ok here:<ul>{''.join(why)}</ul></div>" if why else "")
    return (f"<div class='xf-figure'><div style='margin:4px 0'><b>{H.escape(where)}</b>: {legend_html()}</div>"
            f"<div class='explorer-grid-settings' style='margin:4px 0'>{H.escape(grid_settings_text(data))}</div>"
            f"<table class='xf-table' style='width:100%'><tr><th></th>{head}</tr>{''.join(rows)}</table>"
            f"{notes}</div>")


def grid_settings_text(data: BackendsData) -> str:
    """Which shared settings decide the grid, and for which of its modes (visible on the tab even where the
    control is greyed out for the current mode, which does not take it)."""
    from ..compute.backends import call_options

    parts = []
    for option, index in (("antialias", 1), ("align_corners", 0)):
        groups = {}  # the value each mode of the grid is called with -> those modes (lanczos: always antialiased)
        for m in data.modes:
            value = call_options(m, data.align_corners, data.antialias)[index]
            if value is not None and (option != "antialias" or _takes_antialias(m)):
                groups.setdefault(bool(value), []).append(m)
        if not groups:
            continue
        takers = [m for ms in groups.values() for m in ms]
        greyed = "" if data.mode in takers else f"; greyed out above because {data.mode} does not take it"
        parts.append(", ".join(f"{option}={v} for {', '.join(ms)}" for v, ms in groups.items()) + greyed)
    return ("the grid is judged with the shared settings " + " · ".join(parts)) if parts else ""


def _takes_antialias(mode: str) -> bool:
    from ..app.applies import takes

    return takes("antialias", mode, "torch")


class BackendsView:
    """The support grid as a matplotlib figure (for slides): ``images["grid"]`` holds status codes 0..3 (see
    :data:`STATUSES`), a symbol per cell, the legend on top; with ``findings=True`` also the findings and
    fixes as text below."""

    def __init__(self, fig=None, findings: bool = False, slide: bool = False, height: float | None = None):
        self.fig = fig
        self.layout = None
        self.show_findings = findings
        #: a slide (:data:`SLIDE`): 18 pt text in 13.3 inches by ``height`` (6.4), the grid filling what the
        #: title and the findings leave, the findings cut to the lines that fit
        self.slide = slide
        self.height = height or SLIDE["size"][1]
        self.pt, self.row_in, self.width_chars = (SLIDE["pt"], SLIDE["row_in"], SLIDE["chars"]) if slide else \
            (TEXT_PT, 0.5, 110)

    def _build(self, modes, uses, lines, title_lines=1):
        rows, cols = len(modes), len(uses)
        line_in = self.pt * 1.3 / 72
        label_in = (0.14 * self.pt / 10) * max(len(m) for m in modes) + 0.3
        head_in = self._head_in(title_lines)
        text_h = line_in * lines + 0.2 if self.show_findings else 0.0
        grid_h = max(self.row_in * rows, self.height - head_in - text_h - 0.1) if self.slide else self.row_in * rows
        height = grid_h + head_in + text_h + 0.1
        width = SLIDE["size"][0] if self.slide else 2.0 * cols + 2.2
        fig = self.fig = S.new_figure(width, height, self.fig)
        grid_w = (width - label_in - 0.2) if self.slide else 1.9 * cols
        ax = fig.add_axes((label_in / width, (text_h + 0.1) / height, grid_w / width, grid_h / height))
        cmap = ListedColormap([COLOURS[s] for s in STATUSES])
        norm = BoundaryNorm(np.arange(len(STATUSES) + 1) - 0.5, len(STATUSES))
        self.images = {"grid": ax.imshow(np.zeros((rows, cols)), cmap=cmap, norm=norm, aspect="auto")}
        names = [u.replace(" ", "\n", 1) if self.slide and len(u) > 14 else u for u in uses]
        ax.set_xticks(range(cols), names, fontsize=self.pt)
        ax.set_yticks(range(rows), modes, fontsize=self.pt)
        ax.xaxis.tick_top()
        ax.tick_params(length=0)
        self.cells = {(m, u): ax.text(j, i, "", ha="center", va="center", fontsize=max(13, self.pt + 4),
                                      color="white") for i, m in enumerate(modes) for j, u in enumerate(uses)}
        self.title = fig.text(0.01, 1 - 0.1 / height, "", fontsize=self.pt, va="top")
        self.text = (fig.text(0.01, (text_h - 0.05) / height, "", fontsize=self.pt, va="top", family="monospace")
                     if self.show_findings else None)
        self.axes = {"grid": ax}
        self.layout = (tuple(modes), tuple(uses), lines, title_lines)

    def _head_in(self, title_lines):
        """The height above the grid (inches): the title and the uses over the columns."""
        return 0.3 + (title_lines + (2 if self.slide else 1)) * self.pt * 1.3 / 72

    def update(self, data: BackendsData) -> BackendsView:
        text = findings_text(data, width=self.width_chars, limit=10) if self.show_findings else ""
        where = " ".join(str(v) for v in (data.backend, data.version, data.device) if v is not None)
        title = (f"{where}:  " + "   ".join(f"{SYMBOLS[s]} {MEANINGS[s]}" for s in STATUSES)
                 + "  (colour of each cell: the worst finding of explorer.check)")
        if self.slide:  # what fits the slide below the grid, and the title wrapped to its width
            title = S.wrap(title, SLIDE["title_chars"])
            free = self.height - self._head_in(title.count("\n") + 1) - self.row_in * len(data.modes) - 0.3
            room = max(1, int(free / (self.pt * 1.3 / 72)))
            kept = text.split("\n")
            if len(kept) > room:  # never a lone "…" or a cut sentence: what the app's panel lists, counted
                summary = findings_summary(data)
                kept = S.wrap(summary, self.width_chars).split("\n")
                if len(kept) > room:
                    kept = S.wrap(summary.split("; ")[0], self.width_chars).split("\n")[:room]
            text = "\n".join(kept)
        lines = text.count("\n") + 1 if text else 0
        title_lines = title.count("\n") + 1
        if self.layout != (tuple(data.modes), tuple(data.uses), lines, title_lines):
            self._build(data.modes, data.uses, lines, title_lines)
        codes = np.array([[STATUSES.index(data.status[(m, u)]) for u in data.uses] for m in data.modes],
                         dtype=float).reshape(len(data.modes), len(data.uses))
        self.images["grid"].set_data(codes)
        for (m, u), t in self.cells.items():
            t.set_text(SYMBOLS[data.status[(m, u)]])
        self.title.set_text(title)
        if self.text is not None:
            self.text.set_text(text)
        return self


def findings_summary(data: BackendsData) -> str:
    """The findings and fixes of the current configuration counted in one line (where the list does not fit).

    >>> from types import SimpleNamespace as N
    >>> print(findings_summary(N(mode="bilinear", backend="torch", findings=[N(severity="info")] * 3,
    ...                          fixes=[], error=None, nothing_to_fix=True)))
    bilinear on torch: 3 findings (3 info), no fix needed; listed in the app
    """
    counts: dict = {}
    for f in data.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    found = (f"{len(data.findings)} finding{'s' if len(data.findings) != 1 else ''} ("
             + ", ".join(f"{n} {severity}" for severity, n in counts.items()) + ")") if counts else "no findings"
    fixes = (f"{len(data.fixes)} measured fix{'es' if len(data.fixes) != 1 else ''}" if data.fixes
             else "no fix needed" if data.nothing_to_fix
             else "no measured fix" if data.error is None else "fixes not measured")
    return f"{data.mode} on {data.backend}: {found}, {fixes}; listed in the app"


def findings_text(data: BackendsData, width: int = 100, limit: int | None = None) -> str:
    """The findings and measured fixes of the current configuration as plain text."""
    lines = [f"{data.mode} on {data.backend}:"]
    for f in data.findings[:limit]:
        lines.append(S.wrap(f"{f.severity}: {f.message}", width))
        if f.error_text:
            lines.append(S.wrap(f"    raises: {f.error_text}", width))
        if f.versions:
            lines.append(S.wrap(f"    releases: {f.versions}", width))
    if not data.findings:
        lines.append("no findings")
    for k, fix in enumerate(data.fixes[:limit], 1):
        lines.append(S.wrap(f"fix {k}. {fix}", width))
    if data.error is not None:
        lines.append(S.wrap(f"fixes could not be measured: {data.error}", width))
    return "\n".join(lines)


def backends_figure(modes, backend, *, fig=None, **options):
    """Compute and draw the Backends view with its findings; returns the Figure."""
    return BackendsView(fig, findings=True).update(compute_backends(modes, backend, **options)).fig

"""Images in a grid at honest sizes: every image pixel is drawn as ``zoom`` x ``zoom`` screen pixels, an
integer, so a figure about resampling never resamples what it shows.  One labelled colorbar explains the
colours; titles sit in their own band above each panel.  The teaching notebooks draw their image figures
with it.

>>> import numpy as np
>>> fig, axes = pixel_grid([(np.zeros((64, 64)), "64×64"), (np.zeros((16, 16)), "16×16")], label="value")
>>> [round(ax.get_window_extent().width) for ax in axes]
[256, 256]
"""

from __future__ import annotations

import numpy as np

#: Screen pixels: the widest a figure may be (a notebook's output column) and the gaps around panels.
WIDTH, GAP, MARGIN = 960, 16, 12
TITLE_PT, LABEL_PT = 11.0, 10.0


def _zoom(image, size):
    return max(1, int(size // max(image.shape[:2])))


def _title_height(title, dpi):
    lines = title.count("\n") + 1 if title else 0
    return lines * TITLE_PT * 1.3 * dpi / 72 + (6 if title else 0)


def _rows(panels, width):
    """Panels (image, title, zoom) packed into rows no wider than ``width`` px."""
    rows, row, used = [], [], 0
    for p in panels:
        w = p[0].shape[1] * p[2]
        if row and used + GAP + w > width:
            rows.append(row)
            row, used = [], 0
        used += (GAP if row else 0) + w
        row.append(p)
    return rows + ([row] if row else [])


def pixel_grid(panels, *, size=256, width=WIDTH, cmap="gray", vmin=None, vmax=None, label="pixel value",
               title=None, dpi=100, colorbar=True, extend="neither"):
    """``(figure, axes)``: ``panels`` of ``(image, title)`` or ``(image, title, zoom)`` drawn at an integer
    ``zoom`` (default: the largest that fits ``size`` px), in rows no wider than ``width`` px, sharing ``cmap``
    from ``vmin`` to ``vmax`` (default: the range of all panels) with one colorbar labelled ``label``
    (``extend="max"`` when brighter values are clipped).  RGB panels are drawn as they are."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize

    panels = [(np.asarray(p[0]), p[1], p[2] if len(p) > 2 else _zoom(np.asarray(p[0]), size)) for p in panels]
    grey = [p[0] for p in panels if p[0].ndim == 2]
    lo = min(float(np.nanmin(g)) for g in grey) if vmin is None and grey else vmin
    hi = max(float(np.nanmax(g)) for g in grey) if vmax is None and grey else vmax
    norm = Normalize(lo, hi) if grey else None
    rows = _rows(panels, width - 2 * MARGIN)
    heights = [max(_title_height(t, dpi) for _, t, _ in r) + max(i.shape[0] * z for i, _, z in r) for r in rows]
    top = _title_height(title, dpi) * 1.1 if title else 0
    bar = 80 if colorbar and grey else 0
    fig_w = max(sum(i.shape[1] * z for i, _, z in r) + GAP * (len(r) - 1) for r in rows) + 2 * MARGIN
    fig_h = top + sum(heights) + GAP * (len(rows) - 1) + bar + 2 * MARGIN
    fig = plt.figure(figsize=(fig_w / dpi, fig_h / dpi), dpi=dpi, layout="none")
    if title:
        fig.suptitle(title, fontsize=TITLE_PT + 1, y=1 - MARGIN / fig_h, va="top")
    axes, y = [], fig_h - MARGIN - top
    for r, h in zip(rows, heights):
        x = MARGIN
        for image, text, zoom in r:
            ph, pw = image.shape[0] * zoom, image.shape[1] * zoom
            title_h = max(_title_height(t, dpi) for _, t, _ in r)
            ax = fig.add_axes((x / fig_w, (y - title_h - ph) / fig_h, pw / fig_w, ph / fig_h))
            ax.imshow(image, cmap=cmap, norm=norm if image.ndim == 2 else None, interpolation="nearest")
            ax.set_xticks([]), ax.set_yticks([])
            ax.set_title(text, fontsize=TITLE_PT, pad=4)
            axes.append(ax)
            x += pw + GAP
        y -= h + GAP
    if bar:
        cax = fig.add_axes((MARGIN / fig_w, (MARGIN + 40) / fig_h, min(360, fig_w - 2 * MARGIN) / fig_w,
                            14 / fig_h))
        cb = fig.colorbar(plt.cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax, orientation="horizontal",
                          extend=extend)
        cb.set_label(label, fontsize=LABEL_PT)
        cb.ax.tick_params(labelsize=LABEL_PT - 0.5)
    return fig, axes

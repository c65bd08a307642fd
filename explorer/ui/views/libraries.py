"""Libraries: the same nominal mode under several libraries' conventions, what a port changes.

Each library's output comes from :func:`explorer.library_resize` at one explicit output size (its gradient
from :func:`explorer.library_resize_backward`, for one seeded random upstream gradient shared by all); the
first library that runs is the reference.  Rows: the outputs, their differences from the reference on one signed
scale, and (standalone figure) a metrics table; the app shows the table as HTML.
"""

from __future__ import annotations


import numpy as np

from ..compute.libraries import LibrariesData, compute_libraries
from . import style as S


class LibrariesView:
    """``images["output:<library>"]`` and ``images["diff:<library>"]`` (difference from the reference, mean
    over channels); with ``table=True`` a metrics table below."""

    def __init__(self, fig=None, table: bool = False):
        self.fig = fig
        self.layout = None
        self.with_table = table

    def _build(self, libs):
        from matplotlib.colors import Normalize

        k = len(libs)
        extra = 0.3 * (k + 1) + 0.3 if self.with_table else 0.0
        fig = S.new_figure(max(2.0 * k + 0.6, 6.0), 4.4 + extra, self.fig)
        self.fig = fig
        height = 4.4 + extra
        gs = fig.add_gridspec(2, k + 1, width_ratios=[1] * k + [0.06], left=0.01, right=0.93,
                              top=1 - 0.35 / height, bottom=(extra + 0.05) / height, wspace=0.08, hspace=0.2)
        self.norm = Normalize(-1, 1)
        self.images, self.axes, self.texts = {}, {}, {}
        for col, lib in enumerate(libs):
            for row, kind in enumerate(("output", "diff")):
                key = f"{kind}:{lib}"
                ax = S.bare(fig.add_subplot(gs[row, col]))
                self.images[key] = ax.imshow(np.zeros((2, 2)), cmap=S.SIGNED if kind == "diff" else S.GREY,
                                             norm=self.norm if kind == "diff" else S.image_norm(),
                                             interpolation="nearest")
                self.axes[key] = ax
                self.texts[key] = ax.text(0.5, 0.5, "", transform=ax.transAxes, ha="center", va="center",
                                          fontsize=7, color="#b00000")
        self.bar = S.ScaleBar(fig.add_subplot(gs[1, k]), S.SIGNED)
        self.table_ax = fig.add_axes((0.02, 0.02, 0.96, (extra - 0.1) / height)) if self.with_table else None
        if self.table_ax is not None:
            self.table_ax.set_axis_off()
        self.pixels = {}
        self.layout = tuple(libs)

    def update(self, data: LibrariesData) -> "LibrariesView":
        libs = tuple(data.outputs)
        if self.layout != libs:
            self._build(libs)
        full = S.extent(data.image.shape)
        ref = data.outputs.get(data.reference) if data.reference else None
        diffs, limit = {}, 0.0
        for lib in libs:
            y = data.outputs[lib]
            ok = isinstance(y, np.ndarray)
            key = f"output:{lib}"
            if key not in self.pixels:
                self.pixels[key] = S.panel_pixels(self.axes[key])
            title = f"{lib}{' (reference)' if lib == data.reference else ''}"
            self._set(key, S.display_image(S.fit(y, self.pixels[key])) if ok else S.blank_like((2, 2)), full,
                      title + (f" {y.shape[0]}×{y.shape[1]}" if ok else ""), None if ok else y)
            if ok and ref is not None and y.shape == ref.shape:
                d = S.fit(S.channel_mean(y) - S.channel_mean(ref), self.pixels[key])
                diffs[lib] = d
                limit = max(limit, float(np.nanmax(np.abs(d))))
        limit = max(limit, 1e-12)
        self.norm.vmin, self.norm.vmax = -limit, limit
        self.bar.set(-limit, limit)
        for lib in libs:
            m = data.metrics.get(lib, {})
            if lib in diffs:
                psnr = m.get("psnr", np.nan)
                self._set(f"diff:{lib}", diffs[lib], full, "identical" if psnr == np.inf else f"PSNR {psnr:.1f} dB")
            else:
                y = data.outputs[lib]
                why = "" if not isinstance(y, np.ndarray) else "another output size"
                self._set(f"diff:{lib}", S.blank_like((2, 2)), full, why)
        if self.table_ax is not None:
            self.table_ax.clear()
            self.table_ax.set_axis_off()
            rows = metrics_rows(data)
            if rows:
                table = self.table_ax.table(cellText=[r[1:] for r in rows[1:]], colLabels=rows[0][1:],
                                            rowLabels=[r[0] for r in rows[1:]], loc="upper center")
                table.auto_set_font_size(False)
                table.set_fontsize(7)
        return self

    def _set(self, key, array, ext, title, error=None):
        im, ax = self.images[key], self.axes[key]
        im.set_data(array)
        im.set_extent(ext)
        ax.set_xlim(ext[:2])
        ax.set_ylim(ext[2:])
        if ax.get_title() != title:
            ax.set_title(title, fontsize=8, y=1.0, pad=2)
        self.texts[key].set_text(S.wrap(error, 24) if error is not None else "")


def metrics_rows(data: LibrariesData) -> list:
    """The metrics table as rows of strings, a header first."""
    rows = [["library", "output", "max |Δ|", "RMSE", "PSNR dB", "changed", "grad cosine"]]
    for lib, y in data.outputs.items():
        if not isinstance(y, np.ndarray):
            rows.append([lib, "error", "", "", "", "", S.wrap(str(y), 40).split("\n")[0]])
            continue
        m = data.metrics.get(lib, {})

        def fmt(v, spec):
            return "" if v is None or (isinstance(v, float) and np.isnan(v)) else format(v, spec)

        rows.append([lib, m.get("shape", ""), fmt(m.get("max_abs"), ".3g"), fmt(m.get("rmse"), ".3g"),
                     "inf" if m.get("psnr") == np.inf else fmt(m.get("psnr"), ".1f"), fmt(m.get("changed"), ".0%"),
                     fmt(m.get("grad_cosine"), ".4f")])
    return rows


def libraries_figure(image, mode, libraries, *, fig=None, **options):
    """Compute and draw the Libraries view with its metrics table; returns the Figure."""
    return LibrariesView(fig, table=True).update(compute_libraries(image, mode, libraries, **options)).fig

"""Modes: the input and each mode's output side by side, a zoomed crop, and differences against a reference.

>>> import numpy as np
>>> from explorer.images import checkerboard
>>> data = compute_modes(checkerboard(32, 4), ["nearest", "bilinear"], reference="bicubic", scale=0.5)
>>> view = ModesView().update(data)
>>> view.images["output:bilinear"].get_array().shape
(16, 16)
>>> bool(np.allclose(view.images["diff:nearest"].get_array(),
...                  (data.outputs["nearest"] - data.reference_output).mean(axis=2)))
True
"""

from __future__ import annotations


import numpy as np

from ..compute.modes import ModesData, compute_modes
from . import style as S


class ModesView:
    """The Modes figure.  Artists are created once per set of modes; :meth:`update` only sets data, extents,
    limits, titles and norms.  ``images`` maps ``"input"``, ``"output:<mode>"``, ``"crop:<mode>"``,
    ``"input_crop"``, ``"reference"`` and ``"diff:<mode>"`` to their ``AxesImage``.

    Full panels larger than their on-screen size hold the data area-averaged to that size (see
    :func:`explorer.ui.views.style.fit`); the zoom panels hold the exact pixels of the crop."""

    def __init__(self, fig=None):
        self.fig = fig
        self.layout = None
        self.pool = None
        self.images, self.texts, self.axes = {}, {}, {}

    # ------------------------------------------------------------------ layout
    def _build(self, labels):
        from matplotlib.colors import Normalize

        k = len(labels)
        size = (1.9 * (k + 1) + 0.5, 6.2)
        if self.pool is None:  # first layout: a clean figure, norms, the scale bar
            self.fig = S.new_figure(*size, self.fig)
            self.pool = S.PanelPool(self.fig)
            self.image_norm, self.diff_norm = S.image_norm(), Normalize(-1, 1)
            self.scale_bar = S.ScaleBar(self.fig.add_axes((0, 0, 1, 1)), S.SIGNED)
        else:  # later layouts move the existing panels
            self.fig.set_size_inches(*size, forward=True)
        gs = self.fig.add_gridspec(3, k + 2, width_ratios=[1] * (k + 1) + [0.06], left=0.01, right=0.95,
                                   top=0.95, bottom=0.03, wspace=0.06, hspace=0.28)
        self.pool.start()
        self.images, self.texts, self.axes = {}, {}, {}
        names = ["input"] + [f"output:{m}" for m in labels]
        crops = ["input_crop"] + [f"crop:{m}" for m in labels]
        diffs = ["reference"] + [f"diff:{m}" for m in labels]
        for col, keys in enumerate(zip(names, crops, diffs)):
            for row, key in enumerate(keys):
                signed = key.startswith("diff:")
                panel = self.pool.take(gs[row, col], S.SIGNED if signed else S.GREY,
                                       self.diff_norm if signed else self.image_norm)
                self.images[key], self.axes[key], self.texts[key] = panel.image, panel.ax, panel.text
                if key == "input":
                    self.crop_box = self.pool.box(panel, S.OVER)
        self.scale_bar.ax.set_subplotspec(gs[2, k + 1])
        self.caption = ""
        self.pixels = {}
        self.layout = tuple(labels)

    # ------------------------------------------------------------------ update
    def update(self, data: ModesData) -> "ModesView":
        labels = tuple(data.outputs)
        if self.layout != labels:
            self._build(labels)
        image = data.image
        full = S.extent(image.shape)
        h, w = image.shape[:2]
        top, left, bottom, right = data.crop
        box = (left * w - 0.5, right * w - 0.5, bottom * h - 0.5, top * h - 0.5)
        self._full("input", S.display_image(image), full, f"input {h}×{w}")
        self._zoom("input_crop", image, image.shape, data.crop, box)
        self.crop_box.set_bounds(box[0], box[3], box[1] - box[0], box[2] - box[3])
        pixels = self._pixels("reference")
        ref = data.reference_output
        ref_ok = isinstance(ref, np.ndarray)
        ref_fit = S.fit(ref, pixels) if ref_ok else None
        self._full("reference", S.display_image(ref_fit) if ref_ok else S.blank_like((2, 2)), full,
                   f"ref: {data.reference}", error=None if ref_ok else ref)
        diffs, limit = {}, 0.0
        for label in labels:
            out = data.outputs[label]
            ok = isinstance(out, np.ndarray)
            title = f"{label} {out.shape[0]}×{out.shape[1]}" if ok else f"{label}: not available"
            fitted = S.fit(out, pixels) if ok else None
            if data.notes.get(label):
                title += " *"
            self._full(f"output:{label}", S.display_image(fitted) if ok else S.blank_like((2, 2)), full,
                       title, error=None if ok else out)
            self._zoom(f"crop:{label}", out if ok else S.blank_like((2, 2)), image.shape, data.crop, box)
            if ok and ref_ok and out.shape == ref.shape:
                d = S.channel_mean(out) - S.channel_mean(ref)
                rms = float(np.sqrt(np.vdot(d, d) / d.size))
                # the area average is linear: fit(out) - fit(ref) is the fitted difference
                shown = S.channel_mean(fitted - ref_fit)
                limit = max(limit, float(np.nanmax(np.abs(shown))))
                diffs[label] = (shown, rms)
        self.caption = modes_caption(data)
        limit = max(limit, 1e-12)
        self.diff_norm.vmin, self.diff_norm.vmax = -limit, limit
        self.scale_bar.set(-limit, limit)
        for label in labels:
            if label in diffs:
                d, rms = diffs[label]
                self._full(f"diff:{label}", d, full, f"rms {rms:.3g}")
            else:
                self._full(f"diff:{label}", S.blank_like((2, 2)), full, "")
        return self

    def _pixels(self, key):
        if key not in self.pixels:
            self.pixels[key] = S.panel_pixels(self.axes[key])
        return self.pixels[key]

    def _full(self, key, array, ext, title, error=None):
        im, ax = self.images[key], self.axes[key]
        im.set_data(S.fit(array, self._pixels(key)))
        im.set_extent(ext)
        ax.set_xlim(ext[:2])
        ax.set_ylim(ext[2:])
        self._title(ax, title)
        self.texts[key].set_text(S.wrap(error, 24) if error is not None else "")

    def _zoom(self, key, array, image_shape, box_fractions, box):
        im, ax = self.images[key], self.axes[key]
        part, ext = S.crop(array, image_shape, box_fractions)
        im.set_data(S.display_image(part))
        im.set_extent(ext)
        ax.set_xlim(box[:2])
        ax.set_ylim(box[2:])

    @staticmethod
    def _title(ax, title):
        if ax.get_title() != title:
            ax.set_title(title, fontsize=9, pad=2, y=1.0)  # a fixed y skips the costly auto-placement


def modes_caption(data: ModesData) -> str:
    """What the Modes figure shows, in words."""
    text = ("Top: the input and each mode's output, on one grey scale (orange / blue: above 1 / below 0, i.e. "
            "overshoot).  Middle: the zoomed crop (the orange box), every pixel shown.  Bottom: each output "
            f"minus the reference ({data.reference}), mean over channels, on one signed scale.  Panels larger "
            "than the screen show their pixels area-averaged.")
    notes = [f"{label}: {data.notes[label]}" for label in data.outputs if data.notes.get(label)]
    if notes:
        text += "  * " + "; ".join(notes) + "."
    return text


def modes_figure(image, modes, reference="bilinear", *, fig=None, **options):
    """Compute and draw the Modes view; returns the Figure.  ``options`` as in :func:`compute_modes`."""
    return ModesView(fig).update(compute_modes(image, modes, reference, **options)).fig

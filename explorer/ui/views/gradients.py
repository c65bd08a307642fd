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

from dataclasses import dataclass

import numpy as np

from ...conventions.image_resize import ImageResize
from ...errors import ArgumentValueError, choice_error
from ..defaults import DEFAULT_CROP, DEFAULT_RECT, UPSTREAMS
from ..engine import DIRECT
from . import style as S


@dataclass
class GradientResult:
    """One mode's backward pass: the upstream gradient ``upstream`` (h, w, C), the input gradient ``grad``
    (H, W, C) and the coverage ``W.T @ 1`` (H, W)."""

    upstream: np.ndarray
    grad: np.ndarray
    coverage: np.ndarray
    notes: str = ""

    @property
    def dead(self) -> int:
        """Input pixels that receive no gradient whatever the upstream."""
        return int(np.count_nonzero(self.coverage == 0))

    @property
    def variation(self) -> float:
        """Coefficient of variation of the coverage over live pixels (0: every pixel weighs the same)."""
        live = self.coverage[self.coverage != 0]
        if live.size == 0:
            return float("nan")
        return float(live.std() / abs(live.mean()))


@dataclass
class GradientsData:
    image: np.ndarray
    upstream: str
    results: dict
    crop: tuple = DEFAULT_CROP


def upstream_gradient(kind: str, output: np.ndarray, *, target=None, seed: int = 0,
                      rect=DEFAULT_RECT) -> np.ndarray:
    """The upstream gradient ``dL/dy`` of kind ``kind`` (see :data:`UPSTREAMS`) for the output ``output``.

    >>> upstream_gradient("rectangle", np.zeros((4, 4, 1)), rect=(0, 0, 0.5, 0.5))[..., 0].tolist()
    [[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    """
    dtype = output.dtype if output.dtype.kind == "f" else np.float32
    if kind == "ones":
        return np.ones(output.shape, dtype)
    if kind == "mse":
        if target is None:
            raise ArgumentValueError("upstream='mse' needs a target of the output's shape")
        return (output - target).astype(dtype, copy=False)
    if kind == "random":
        return np.random.default_rng(seed).standard_normal(output.shape).astype(dtype)
    if kind == "rectangle":
        h, w = output.shape[:2]
        top, left, bottom, right = rect
        g = np.zeros(output.shape, dtype)
        r0, r1 = int(round(top * h)), max(int(round(bottom * h)), int(round(top * h)) + 1)
        c0, c1 = int(round(left * w)), max(int(round(right * w)), int(round(left * w)) + 1)
        g[r0:r1, c0:c1] = 1
        return g
    raise choice_error("upstream", kind, UPSTREAMS)


def mse_target(*, scale=None, size=None) -> ImageResize:
    """How the target of the ``mse`` upstream is made: the image resized with antialiased Lanczos-3 (PyTorch
    ``mode="lanczos"``), a careful resize every mode is compared with."""
    return ImageResize("lanczos", scale=scale, size=size, antialias=True)


def compute_gradients(image, modes, upstream="ones", *, scale=None, size=None, align_corners=False,
                      antialias=False, library="torch", seed=0, rect=DEFAULT_RECT,
                      crop=DEFAULT_CROP, engine=DIRECT) -> GradientsData:
    """Forward and backward of every mode on ``image``; errors are kept (shown in the panel), not raised."""
    if upstream not in UPSTREAMS:
        raise choice_error("upstream", upstream, UPSTREAMS)
    target = None
    results, upstreams = {}, {}
    for mode in modes:
        try:
            r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=antialias,
                            library=library)
            y = engine.forward(r, image)
            if upstream == "mse" and target is None:
                target = engine.forward(mse_target(scale=scale, size=size), image)
            if upstream == "mse":
                g = upstream_gradient(upstream, y, target=target)
            else:  # the same for every mode of this output shape: made once
                key = (y.shape, y.dtype.str)
                if key not in upstreams:
                    upstreams[key] = upstream_gradient(upstream, y, seed=seed, rect=rect)
                g = upstreams[key]
            notes = list(r.notes)
            try:
                grad = engine.backward(r, g, image.shape)
            except NotImplementedError as exc:  # a library without this gradient: show where values came from
                grad = engine.transpose(r, g, image.shape)
                notes.append(f"{str(exc).rstrip('.')}; shown: Wᵀ g, the transpose of its forward")
            coverage = engine.coverage(r, image.shape, y.shape)
            results[mode] = GradientResult(g, grad, coverage, "; ".join(notes))
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            results[mode] = exc
    return GradientsData(image, upstream, results, tuple(crop))


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

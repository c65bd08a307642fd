"""Gradients: the upstream gradients dL/dy and every mode's gradient with respect to the input (W^T g), with coverage.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...conventions.image_resize import ImageResize
from ...errors import ArgumentValueError, choice_error
from ..defaults import DEFAULT_CROP, DEFAULT_RECT, UPSTREAMS
from ..engine import DIRECT


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
        return planar_ones(tuple(output.shape), np.dtype(dtype).str)
    if kind == "mse":
        if target is None:
            raise ArgumentValueError("upstream='mse' needs a target of the output's shape")
        g = planar(output.shape, dtype)
        np.subtract(output, target, out=g)
        return g
    if kind == "random":
        h, w, c = output.shape
        return np.moveaxis(np.random.default_rng(seed).standard_normal((c, h, w)).astype(dtype), 0, 2)
    if kind == "rectangle":
        h, w = output.shape[:2]
        top, left, bottom, right = rect
        g = planar(output.shape, dtype, 0)
        r0, r1 = round(top * h), max(round(bottom * h), round(top * h) + 1)
        c0, c1 = round(left * w), max(round(right * w), round(left * w) + 1)
        g[r0:r1, c0:c1] = 1
        return g
    raise choice_error("upstream", kind, UPSTREAMS)


def planar(shape, dtype, fill=None) -> np.ndarray:
    """An (h, w, C) array stored as C contiguous planes, as the engine's results are (the backward pass then
    reads it without a transposing copy).

    >>> planar((2, 3, 4), np.float32, 1).strides
    (12, 4, 24)
    """
    h, w, c = shape
    planes = np.empty((c, h, w), dtype) if fill is None else np.full((c, h, w), fill, dtype)
    return np.moveaxis(planes, 0, 2)


@lru_cache(maxsize=1)
def planar_ones(shape, dtype) -> np.ndarray:
    """A read-only :func:`planar` array of ones, kept for the last output shape (every mode reads it)."""
    a = planar(shape, np.dtype(dtype), 1)
    a.setflags(write=False)
    return a


def output_like(resize: ImageResize, image: np.ndarray) -> np.ndarray:
    """A stand-in of the forward's output (its shape and dtype, no memory): what an upstream gradient other
    than ``mse`` needs.

    >>> output_like(ImageResize("bilinear", size=(3, 5)), np.zeros((6, 10, 2), np.float32)).shape
    (3, 5, 2)
    """
    shape = tuple(resize.output_size(image.shape)) + tuple(image.shape[2:])
    return np.broadcast_to(np.zeros((), image.dtype), shape)


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
            if upstream == "mse":  # the only upstream that reads the output
                y = engine.forward(r, image)
                if target is None:
                    target = engine.forward(mse_target(scale=scale, size=size), image)
                g = upstream_gradient(upstream, y, target=target)
            else:  # the same for every mode of this output shape: made once, without running the forward
                y = output_like(r, image)
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

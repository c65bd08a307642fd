"""Measured figures of merit of one resize (an :class:`~explorer.conventions.image_resize.ImageResize`), for ranking modes.

Every figure is measured by running the engine, never looked up:

``aliasing``       energy left in the part of the zone plate the output cannot represent (its local frequency
                   is above the output's Nyquist limit): 0 = flat grey there (ideal), 1 = full-contrast
                   false rings.  0 when not downsampling.
``sharpness``      contrast kept in the upper half of the representable band of the zone plate (1 = all).
``overshoot``      how far the output leaves the input's value range on the image, as a fraction of that
                   range (ringing of negative kernel lobes).
``coverage``       fraction of input pixels that receive any gradient (``W.T @ 1 != 0``).
``uniformity``     1 - coefficient of variation of ``W.T @ 1`` over live pixels (1: every input pixel weighs
                   the same in the gradient; nearest upsampling by 1.5 gives a checkerboard of 1s and 2s).
``misalignment``   mean distance, in output pixels, between the centroid of each output's weights and the
                   centre ``(i + 0.5) step - 0.5`` of its cell at the resize's own step (nearest's floor rule
                   and align_corners shift content by up to half an output pixel).
``taps``           input samples read per output sample (both axes): the cost.
``keeps_values``   every output is a copy of one input (what label masks need).

>>> from explorer.conventions.image_resize import ImageResize
>>> from explorer.images import zone_plate
>>> f = measure(ImageResize("nearest", scale=0.25), zone_plate(64))
>>> f["aliasing"] > 0.5, f["taps"], f["keeps_values"], f["misalignment"]
(True, 1.0, True, 0.375)
>>> round(measure(ImageResize("bilinear", scale=0.25, antialias=True), zone_plate(64))["aliasing"], 3) < 0.1
True
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..conventions.image_resize import ImageResize
from ..images import zone_plate
from ..limits import QUALITY_MAX_OUTPUT_PIXELS

#: Side of the zone plate used for the aliasing and sharpness figures.
ZONE_PLATE_SIZE = 256
ZONE_PLATE_MAX_OUTPUT = QUALITY_MAX_OUTPUT_PIXELS
FIGURES = ("aliasing", "sharpness", "overshoot", "coverage", "uniformity", "misalignment", "taps", "keeps_values")


def _zone_resize(resize: ImageResize, image_shape, n: int) -> ImageResize:
    """The same resize applied to an n x n zone plate: same scale, or the image's size ratio."""
    if resize.size is None:
        return resize
    h, w = resize.size
    return resize.replace(size=(max(1, round(n * h / image_shape[0])), max(1, round(n * w / image_shape[1]))))


def zone_plate_figures(resize: ImageResize, image_shape=None, n: int = ZONE_PLATE_SIZE) -> dict:
    """``aliasing`` and ``sharpness`` of ``resize`` measured on an ``n`` x ``n`` zone plate (cached: they do
    not depend on the image, only on its shape when the resize gives a size).  A zone plate holds every
    frequency up to Nyquist at any size: when the resize enlarges it past :data:`ZONE_PLATE_MAX_OUTPUT`
    pixels, a smaller one is measured."""
    shape = tuple(image_shape[:2]) if (image_shape is not None and resize.size is not None) else None
    h, w = _zone_resize(resize, shape or (n, n), n).output_size((n, n))
    if h * w > ZONE_PLATE_MAX_OUTPUT:
        n = max(16, int(n * (ZONE_PLATE_MAX_OUTPUT / (h * w)) ** 0.5))
    return dict(_zone_plate_figures(resize, shape, n))


@lru_cache(maxsize=256)
def _zone_plate_figures(resize, image_shape, n):
    r = _zone_resize(resize, image_shape or (n, n), n)
    y = r.forward(_zone_plate(n))[:, :, 0].astype(np.float64)
    h, w = y.shape
    nu = _output_frequencies(n, h, w)
    nyquist = 0.5 * min(h, w) / n  # cycles per input pixel the output can hold
    limit = min(nyquist, 0.5)
    inside = _interior(h, w)
    contrast = 0.125  # mean of (0.5 cos)^2
    alias_zone = inside & (nu > 1.1 * nyquist) & (nu < 0.5)
    aliasing = float(np.mean((y[alias_zone] - 0.5) ** 2) / contrast) if alias_zone.any() else 0.0
    band = inside & (nu > 0.5 * limit) & (nu < 0.8 * limit)
    sharpness = float(np.sqrt(np.mean((y[band] - 0.5) ** 2) / contrast)) if band.any() else 1.0
    return (("aliasing", min(aliasing, 1.0)), ("sharpness", min(sharpness, 1.0)))


@lru_cache(maxsize=4)
def _zone_plate(n):
    z = zone_plate(n)
    z.setflags(write=False)
    return z


def _output_frequencies(n, h, w):
    """The zone plate's local frequency at every output sample's half-pixel centre."""
    ys = (np.arange(h) + 0.5) * n / h - 0.5
    xs = (np.arange(w) + 0.5) * n / w - 0.5
    c = (n - 1) / 2.0
    r = np.sqrt((ys[:, None] - c) ** 2 + (xs[None, :] - c) ** 2)
    return r / (n * np.sqrt(2.0))


def _interior(h, w, border=2):
    mask = np.zeros((h, w), bool)
    mask[border:h - border, border:w - border] = True
    return mask if mask.any() else np.ones((h, w), bool)


def overshoot(image: np.ndarray, output: np.ndarray) -> float:
    """How far ``output`` leaves ``image``'s value range, as a fraction of that range."""
    lo, hi = float(image.min()), float(image.max())
    span = max(hi - lo, 1e-12)
    return max(float(output.max()) - hi, lo - float(output.min()), 0.0) / span


def gradient_figures(resize: ImageResize, image_shape) -> dict:
    """``coverage`` and ``uniformity`` of ``W.T @ 1`` for an input of ``image_shape``."""
    h, w = resize.output_size(image_shape)
    cov = resize.backward(np.ones((h, w, 1), np.float32), tuple(image_shape[:2]) + (1,))[:, :, 0]
    live = cov[cov != 0]
    coverage = live.size / cov.size
    uniformity = max(0.0, 1.0 - float(live.std() / abs(live.mean()))) if live.size else 0.0
    return {"coverage": float(coverage), "uniformity": uniformity}


def plan_figures(resize: ImageResize, image_shape) -> dict:
    """``misalignment``, ``taps`` and ``keeps_values`` from the weights of both axes."""
    out = resize.output_size(image_shape)
    shifts, taps, keeps = [], 1.0, True
    for n, m in zip(image_shape[:2], out):
        plan = resize.plan(int(n), int(m))
        w = plan.band.dense()
        j = np.arange(n)
        total = w.sum(axis=1)
        centroid = (w @ j) / np.where(total == 0, 1, total)
        centre = (np.arange(m) + 0.5) * plan.step - 0.5  # where a half-pixel resize with this step samples
        shifts.append(np.abs(centroid - centre) / max(float(plan.step), 1e-12))
        nonzero = w != 0
        taps *= float(nonzero.sum(axis=1).mean())
        keeps &= bool(np.all(nonzero.sum(axis=1) == 1) and np.allclose(w[nonzero], 1.0))
    return {"misalignment": float(np.mean(np.concatenate(shifts))), "taps": taps, "keeps_values": keeps}


def measure(resize: ImageResize, image: np.ndarray, output: np.ndarray | None = None) -> dict:
    """Every figure of :data:`FIGURES` for ``resize`` on ``image`` (``output``: its forward, if known)."""
    figures = zone_plate_figures(resize, image.shape)
    if output is None:
        output = resize.forward(image)
    figures["overshoot"] = overshoot(image, output)
    figures.update(gradient_figures(resize, image.shape))
    figures.update(plan_figures(resize, image.shape))
    return figures

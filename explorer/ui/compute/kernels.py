"""The Kernels tab's numbers for one axis: where output samples land, the weights each takes, the kernel, and
its frequency response.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ...conventions.image_resize import ImageResize
from ...engine.kernels import KERNELS

FREQUENCIES = np.linspace(0.0, 1.0, 201)  # cycles per input sample


@dataclass
class KernelsData:
    """One axis of ``n`` input samples resized to ``m`` under ``mode``; ``responses`` maps each compared mode
    to its frequency response over :data:`FREQUENCIES` (or the exception that prevented it)."""

    mode: str
    n: int
    m: int
    coordinates: np.ndarray
    weights: np.ndarray
    step: float
    stretch: float
    sample: int
    curve: tuple  # (t, k) of the continuous kernel around the chosen sample; empty arrays when discrete
    responses: dict
    kernel_name: str
    notes: str = ""
    error: object = None
    frequencies: np.ndarray = field(default_factory=lambda: FREQUENCIES)

    @property
    def output_nyquist(self) -> float:
        """The highest frequency the output can hold, in cycles per input sample: 0.5 / max(step, 1)."""
        return 0.5 / max(self.step, 1.0) if self.step > 0 else 0.5


def kernel_response(spec, step: float, frequencies=FREQUENCIES) -> np.ndarray:
    """The frequency response (gain, 1 at 0) of the continuous kernel of ``spec`` at input step ``step``,
    stretched by ``max(step, 1)`` under antialias.  ``nearest`` is a unit box (its piecewise-constant
    reconstruction), ``area`` a box of width ``max(step, 1)`` over that reconstruction.

    >>> from explorer import Spec
    >>> kernel_response(Spec("linear"), 1.0, np.array([0.0, 0.5, 1.0])).round(4).tolist()
    [1.0, 0.4053, -0.0]
    """
    nu = np.asarray(frequencies, dtype=np.float64)
    if nu is FREQUENCIES or np.array_equal(nu, FREQUENCIES):
        return _default_response(spec, float(step)).copy()
    return _response(spec, step, nu)


@lru_cache(maxsize=256)
def _default_response(spec, step):
    return _response(spec, step, FREQUENCIES)


def _response(spec, step, nu):
    if spec.kernel == "nearest":
        return np.sinc(nu)
    if spec.kernel in ("area", "adaptive_area"):
        return np.sinc(nu) * np.sinc(nu * max(step, 1.0))
    kernel = KERNELS[spec.kernel]
    stretch = max(step, 1.0) if spec.antialias else 1.0
    radius = kernel.radius * stretch
    t = np.linspace(-radius, radius, 1201)
    k = kernel(t / stretch, spec.cubic_coeff_a)
    area = np.trapezoid(k, t)
    return np.trapezoid(k[None, :] * np.cos(2 * np.pi * nu[:, None] * t[None, :]), t, axis=1) / area


def compute_kernels(mode, modes=(), *, n=8, scale=None, size=None, align_corners=False, antialias=False,
                    library="torch", sample=None, image_length=None) -> KernelsData:
    """Where the samples of ``mode`` land on an axis of ``n`` samples, and the responses of ``modes``.  With ``size``,
    the axis keeps the image's ratio ``size[1] / image_length``.  When ``n`` samples would give no output at
    this scale, the axis is lengthened to the shortest that gives one (said in ``notes``)."""
    responses = {}
    lengthened = ""
    if scale is not None and scale > 0 and int(n * scale) < 1:
        n, was = int(math.ceil(1.0 / scale)), n
        while int(n * scale) < 1:
            n += 1
        lengthened = f"{was} samples give no output at scale {scale:g}; the axis has {n}"
    for label in dict.fromkeys([*modes, mode]):
        try:
            r = ImageResize(label, scale=scale, size=size, align_corners=align_corners, antialias=antialias,
                            library=library)
            m = r.axis_lengths(n, image_length)
            plan = r.plan(n, m)
            responses[label] = kernel_response(r.spec(np.float64), plan.step)
        except Exception as exc:  # noqa: BLE001 - shown in the legend
            responses[label] = exc
    try:
        r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=antialias,
                        library=library)
        m = r.axis_lengths(n, image_length)
        plan = r.plan(n, m)
    except Exception as exc:  # noqa: BLE001 - shown in the figure
        empty = np.zeros((1, n))
        return KernelsData(mode, n, 1, np.zeros(1), empty, 1.0, 1.0, 0, (np.zeros(0), np.zeros(0)),
                           responses, "", "", exc)
    spec = r.spec(np.float64)
    w = plan.band.dense()
    step = float(plan.step)
    stretch = max(step, 1.0) if spec.antialias else 1.0
    sample = m // 2 if sample is None else int(np.clip(sample, 0, m - 1))
    x = float(plan.coordinates[sample])
    if spec.kernel in KERNELS and np.isfinite(x):
        kernel = KERNELS[spec.kernel]
        t = np.linspace(x - kernel.radius * stretch, x + kernel.radius * stretch, 241)
        k = kernel((t - x) / stretch, spec.cubic_coeff_a)
        taps = np.arange(np.floor(x - kernel.radius * stretch) + 1, x + kernel.radius * stretch + 1e-9)
        total = kernel((taps - x) / stretch, spec.cubic_coeff_a).sum()
        curve = (t, k / total if total else k)
    else:
        curve = (np.zeros(0), np.zeros(0))
    notes = "; ".join([*r.notes, lengthened] if lengthened else r.notes)
    return KernelsData(mode, n, m, np.asarray(plan.coordinates, dtype=np.float64), w, step, stretch, sample,
                       curve, responses, spec.kernel, notes)

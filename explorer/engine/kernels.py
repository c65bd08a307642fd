"""One-dimensional interpolation kernels, as small pure functions in a registry.

Each kernel ``K(t)`` is evaluated at ``t = (tap - x) / stretch`` where ``x`` is the source coordinate of an
output sample and ``stretch = max(step, 1)`` under antialiasing (1 otherwise).

Invariants of the registry (checked in ``tests/engine/test_kernels.py``):

* ``K`` is even and vanishes for ``|t| >= radius`` (``box`` keeps the half-open ``(-1/2, 1/2]`` of Pillow).
* ``interpolating`` kernels have ``K(0) = 1`` and ``K(k) = 0`` at every other integer ``k``: resizing to the
  same size with them is the identity.  ``gaussian`` and ``mitchell`` are not interpolating.
* Weights are normalised to sum to one per output sample by the plan builder (``plan.py``), so a kernel need
  not be a partition of unity itself (Lanczos and Hamming are not).

``nearest``, ``area`` and ``adaptive_area`` are not continuous filters: their weights are built directly in
``plan.py`` (``PLAN_BUILDERS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Kernel:
    """A continuous 1-D filter: ``fn(t, a)`` with support ``(-radius, radius)``."""

    name: str
    radius: float
    fn: Callable[[np.ndarray, float], np.ndarray]
    interpolating: bool
    description: str

    def __call__(self, t, a: float = -0.75) -> np.ndarray:
        return self.fn(np.asarray(t, dtype=np.float64), a)


def triangle(t, a=None):
    """Linear interpolation: ``max(0, 1 - |t|)``."""
    return np.maximum(0.0, 1.0 - np.abs(t))


def keys_cubic(t, a=-0.75):
    """Keys (1981) cubic convolution with parameter ``a`` (-0.75 PyTorch/OpenCV, -0.5 Catmull-Rom/PIL)."""
    t = np.abs(t)
    near = ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0
    far = ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a
    return np.where(t <= 1.0, near, np.where(t < 2.0, far, 0.0))


def _sinc(t):
    return np.sinc(t)  # sin(pi t) / (pi t), 1 at 0


def lanczos(radius: int):
    """Lanczos window of the given radius: ``sinc(t) sinc(t / r)`` for ``|t| < r``."""

    def fn(t, a=None):
        return np.where(np.abs(t) < radius, _sinc(t) * _sinc(t / radius), 0.0)

    fn.__name__ = f"lanczos{radius}"
    return fn


def keys_cubic_table1024(t, a=-0.75):
    """TensorFlow ``ResizeBicubic``: Keys cubic read from a 1025-entry float32 table, ``|t|`` rounded to 1/1024.

    TF indexes the table with ``lrintf(delta * 1024)`` (round half to even) for the fractional part ``delta``
    of the source coordinate, so every tap's distance is quantised to a multiple of 1/1024.
    """
    q = np.rint(np.abs(t) * 1024.0) / 1024.0
    return keys_cubic(q, a).astype(np.float32).astype(np.float64)


def box(t, a=None):
    """Pillow's BOX: 1 on ``(-1/2, 1/2]``."""
    return np.where((t > -0.5) & (t <= 0.5), 1.0, 0.0)


# Pillow writes the Hamming constants as float literals (src/libImaging/Resample.c, hamming_filter):
# 0.54f = 0.5400000214576721 and 0.46f = 0.4600000083446503, the rest in double.
_HAMMING_A = float(np.float32(0.54))
_HAMMING_B = float(np.float32(0.46))


def hamming(t, a=None):
    """Pillow's HAMMING: ``sinc(t) (0.54f + 0.46f cos(pi t))`` on ``|t| < 1`` (float32 literals, as Pillow)."""
    return np.where(np.abs(t) < 1.0, _sinc(t) * (_HAMMING_A + _HAMMING_B * np.cos(np.pi * t)), 0.0)


def mitchell(t, a=None):
    """Mitchell-Netravali cubic with B = C = 1/3 (TensorFlow ``mitchellcubic``)."""
    t = np.abs(t)
    near = ((7.0 / 6.0) * t - 2.0) * t * t + 8.0 / 9.0
    far = (((-7.0 / 18.0) * t + 2.0) * t - 10.0 / 3.0) * t + 16.0 / 9.0
    return np.where(t < 1.0, near, np.where(t < 2.0, far, 0.0))


def gaussian(t, a=None):
    """TensorFlow's ``gaussian``: radius 1.5, sigma = radius / 3 = 0.5."""
    sigma = 0.5
    return np.where(np.abs(t) < 1.5, np.exp(-(t * t) / (2.0 * sigma * sigma)), 0.0)


def _bspline(order: int):
    """The centred B-spline basis of ``order`` (2..5): ``order + 1`` pieces on ``|t| < (order + 1) / 2``, the
    polynomials of scipy's ``get_spline_interpolation_weights`` (ni_splines.c).  Not interpolating: scipy
    prefilters the samples into coefficients first (``Spec.prefilter``)."""

    def fn(t, a=None):
        t = np.abs(t)
        if order == 2:
            return np.where(t < 0.5, 0.75 - t * t, np.where(t < 1.5, 0.5 * (1.5 - t) ** 2, 0.0))
        if order == 3:
            return np.where(t < 1.0, (t * t * (t - 2.0) * 3.0 + 4.0) / 6.0,
                            np.where(t < 2.0, (2.0 - t) ** 3 / 6.0, 0.0))
        if order == 4:
            y = t * t
            near = y * (y * 0.25 - 0.625) + 115.0 / 192.0
            mid = t * (t * (t * (5.0 - t) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0
            return np.where(t < 0.5, near, np.where(t < 1.5, mid, np.where(t < 2.5, (2.5 - t) ** 4 / 24.0, 0.0)))
        y = t * t
        near = y * (y * (0.25 - t / 12.0) - 0.5) + 0.55
        mid = t * (t * (t * (t * (t / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
        return np.where(t < 1.0, near, np.where(t < 2.0, mid, np.where(t < 3.0, (3.0 - t) ** 5 / 120.0, 0.0)))

    fn.__name__ = f"bspline{order}"
    return fn


KERNELS: dict[str, Kernel] = {
    k.name: k
    for k in [
        Kernel("linear", 1.0, triangle, True, "triangle (tent), 2 taps"),
        Kernel("cubic", 2.0, keys_cubic, True, "Keys cubic convolution with cubic_coeff_a, 4 taps"),
        Kernel("lanczos3", 3.0, lanczos(3), True, "Lanczos windowed sinc, radius 3, 6 taps"),
        Kernel("lanczos4", 4.0, lanczos(4), True, "Lanczos windowed sinc, radius 4, 8 taps (OpenCV)"),
        Kernel("lanczos5", 5.0, lanczos(5), True, "Lanczos windowed sinc, radius 5, 10 taps"),
        Kernel("box", 0.5, box, True, "Pillow BOX: 1 on (-1/2, 1/2]"),
        Kernel("hamming", 1.0, hamming, True, "Pillow HAMMING windowed sinc, radius 1"),
        Kernel("mitchell", 2.0, mitchell, False, "Mitchell-Netravali cubic, B = C = 1/3"),
        Kernel("gaussian", 1.5, gaussian, False, "TensorFlow gaussian, radius 1.5, sigma 0.5"),
        *[Kernel(f"bspline{k}", (k + 1) / 2, _bspline(k), False,
                 f"B-spline of order {k}, {k + 1} taps (scipy.ndimage, scikit-image; interpolating once prefiltered)")
          for k in (2, 3, 4, 5)],
        Kernel("keys_cubic_table1024", 2.0, keys_cubic_table1024, True,
               "TensorFlow ResizeBicubic: Keys cubic from a float32 table, distances rounded to 1/1024"),
    ]
}

# Kernels whose weights are not a sampled continuous filter; plan.py builds them directly.
DISCRETE_KERNELS = {
    "nearest": "one input sample per output sample, chosen by nearest_mode",
    "area": "exact overlap of the output cell with each input cell (OpenCV INTER_AREA, TF, JAX)",
    "adaptive_area": "adaptive average pooling bins (PyTorch 'area')",
    "opencv_area_upscale": "OpenCV INTER_AREA when some axis grows: two taps at floor(i*step) weighted by the "
                           "part of the output cell past the next input boundary (exact overlap on growing axes)",
}

KERNEL_NAMES = tuple(sorted([*KERNELS, *DISCRETE_KERNELS]))

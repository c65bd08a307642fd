"""Library presets: the Spec each library computes, and resizing arrays exactly as each library does.

Library ids: ``torch``, ``tensorflow``, ``jax``, ``onnx``, ``opencv``, ``pillow``, ``burn`` (aliases such as
'PyTorch', 'tf', 'cv2', 'PIL' work).  Modes take the library's own spelling, case-insensitively
("INTER_CUBIC", "NearestExact", "nearest_exact"); options take the library's own names.  Import from this
package with ``from explorer.conventions import ...``: ``explorer.conventions`` itself is the :func:`presets` function.

How close each library is (measured by ``python tests/measure_presets.py`` against PyTorch 2.13, TensorFlow
2.21, JAX 0.10.2, ONNX Runtime 1.32, OpenCV 5.0, Pillow 13.0 on CPU):

* nearest indices are identical everywhere, float32 ties included: TensorFlow's float32 coordinates, JAX's
  ``(i + 0.5) * (n * (1/m))`` under XLA, ONNX Runtime's division by a float32 scale and its 1e-6 tie window,
  OpenCV's ``1 / (m/n)`` in double, Pillow's and OpenCV INTER_NEAREST_EXACT's accumulated ``x += n/m``;
* float results agree to float32 rounding (about 5e-6 at most on [0, 1] images; 1e-14 with float64 in JAX and
  PyTorch; 1e-6 with float64 in OpenCV, whose coefficients stay float32);
* uint8 is bit-exact for Pillow (22-bit weights, a rounded pass per axis, its pass order), PyTorch bilinear,
  bicubic, antialiased and lanczos (int16 weights), OpenCV INTER_NEAREST(_EXACT), INTER_LINEAR, INTER_LANCZOS4
  and growing INTER_AREA; OpenCV INTER_CUBIC and shrinking INTER_AREA are the float result rounded (within
  1 LSB, OpenCV's own rounding was not reproduced); OpenCV INTER_LINEAR_EXACT and ONNX integer linear/cubic
  raise TypeError; TensorFlow and JAX return float32 for integer images, as they do.

Not modelled: Pillow ``box``/``reducing_gap`` and premultiplied alpha (LA/RGBA), TensorFlow
``preserve_aspect_ratio``, JAX ``scale_and_translate``, ONNX ``axes``; TensorFlow returns float32 for float64
input where the explorer keeps float64.  TensorFlow/JAX Lanczos set the kernel to 1 for ``|t| <= 1e-3``
(weights differ by < 2e-6).  Burn was read, not run.  PyTorch 2.13's antialiased and uint8 CPU kernels give
wrong values when the output width is 1 and the height changes: every row repeats row 0.  The explorer
reproduces that for float input (``explorer.interpolate``; the backward is the true transpose, as in
PyTorch) and returns the intended result for uint8.

>>> from explorer.conventions import equivalent, preset, presets
>>> preset("pillow", "BILINEAR")
Spec(kernel='linear', exclude_outside=True, antialias=True)
>>> equivalent(preset("tensorflow", "bilinear", antialias=True), preset("pillow", "BILINEAR"), 17, 5)
True
>>> len([p for p in presets() if p.library == "opencv"])
7
"""

from __future__ import annotations

from ..engine.spec import Spec
from . import burn, jax, onnx, opencv, pillow, pytorch, tensorflow  # noqa: F401 - each registers its library
from .equivalence import equivalent, weight_difference
from .library_resize import (
    NoGradientError,
    library_resize,
    library_resize_backward,
    library_resize_transpose,
)
from .registry import Preset, all_libraries, library, resolve
from .table import conventions_table

__all__ = ["preset", "presets", "equivalent", "weight_difference", "library_resize", "library_resize_backward",
           "library_resize_transpose", "NoGradientError", "Preset", "library", "conventions_table"]


def preset(library: str, mode: str, **options) -> Spec:
    """The Spec that reproduces ``library``'s ``mode`` with the library's own ``options``.

    >>> preset("jax", "cubic", antialias=False)
    Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True)
    >>> preset("opencv", "inter_area")
    Spec(kernel='area')
    """
    lib, native, resolved = resolve(library, mode, options)
    return lib.spec(native, resolved)


def presets(library: str | None = None) -> list[Preset]:
    """Every listed preset as (library, mode, options, spec, description) rows, optionally for one library.

    >>> row = presets("burn")[0]
    >>> row.library, row.mode, row.options, row.spec.kernel
    ('burn', 'Nearest', {}, 'nearest')
    """
    libs = all_libraries() if library is None else [_library(library)]
    rows = []
    for lib in libs:
        for mode, options, description in lib.rows():
            spec = lib.spec(mode, lib.resolve_options(mode, options))
            rows.append(Preset(lib.id, mode, dict(options), spec, description or lib.title))
    return rows


def _library(name):
    return library(name)

"""Library presets: the Spec each library computes, and resizing arrays exactly as each library does.

Library ids: ``torch``, ``tensorflow``, ``jax``, ``onnx``, ``opencv``, ``pillow``, ``burn`` (aliases such as
'PyTorch', 'tf', 'cv2', 'PIL' work).  Modes take the library's own spelling, case-insensitively
("INTER_CUBIC", "NearestExact", "nearest_exact"); options take the library's own names.  Import from this
package with ``from explorer.conventions import ...``: ``explorer.conventions`` itself is the :func:`presets` function.

How close each library is: ``tests/conventions/test_fidelity_*.py`` compare every library and mode with the real one
(PyTorch 2.13, TensorFlow 2.21, JAX 0.10.2, ONNX Runtime 1.32, OpenCV 5.0, Pillow 13.0 on CPU) at sizes drawn
up to 8192 per axis (100 000 in 1-D), forward and gradient; the README's fidelity table has the worst errors.
In short:

* nearest indices are identical everywhere, float32 ties included: TensorFlow's float32 coordinates, JAX's
  ``(i + 0.5) * (n * (1/m))`` under XLA, ONNX Runtime's division by a float32 scale and its 1e-6 tie window,
  OpenCV's ``1 / (m/n)`` in double, Pillow's and OpenCV INTER_NEAREST_EXACT's accumulated ``x += n/m``;
* float weights are computed in each library's own types where they differ from float64 at large sizes
  (PyTorch, JAX, TensorFlow, OpenCV, ONNX Runtime antialias: ``explorer.engine.native``), so results agree to
  float32 rounding of the contraction; float64 agrees to 1e-12 (OpenCV: 1e-6, its coefficients are float32);
* uint8 is bit-exact for Pillow (22-bit weights, a rounded pass per axis, its pass order, premultiplied
  RGBA/LA), PyTorch (int16 weights, its one-pixel-wide outputs included), OpenCV INTER_NEAREST(_EXACT),
  INTER_LINEAR, INTER_LANCZOS4 and INTER_AREA; OpenCV INTER_CUBIC is the float result rounded (within 1 LSB:
  IPP's rounding is not reproduced); OpenCV INTER_LINEAR_EXACT and ONNX integer linear/cubic raise
  TypeError; TensorFlow and JAX return float32 for integer images, as they do.

Not modelled: Pillow ``box``/``reducing_gap``, TensorFlow ``preserve_aspect_ratio``, JAX
``scale_and_translate``, ONNX ``axes``; TensorFlow returns float32 for float64 input where the explorer keeps
float64.  TensorFlow/JAX Lanczos set the kernel to 1 for ``|t| <= 1e-3`` (weights differ by < 2e-6).  Burn
was read, not run: its rows are checked against the expected values of Burn's own tests
(``tests/conventions/test_conventions_burn.py``).  PyTorch 2.13's separable CPU kernel gives wrong values when the output
width is 1 and the height changes (every row repeats row 0); the explorer reproduces that where PyTorch runs
that kernel (Note [antialias output width 1] in ``explorer.conventions.pytorch``).

Note [rules across axes]: :func:`preset` returns the Spec of one axis.  :func:`explorer.library_resize` also
applies the rules that look at every resized axis, which a Spec given to :func:`explorer.resize` cannot:
OpenCV INTER_AREA (one growing axis switches every axis to a two-tap rule; whole steps on every axis take
``resizeAreaFast``'s uint8 rounding), OpenCV's choice between IPP and its own code (from the image's sides and
dtype), PyTorch's one-pixel-wide outputs and same-size axes, ONNX Runtime's unit-scale axes, Pillow's uint8
pass order and premultiplied alpha, and every library's integer rounding.  Use ``library_resize`` to resize
as a library does; use a preset to read, compare or teach one axis's weights.

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
from . import libraries  # noqa: F401 - each module registers its library or runtime
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
    """The Spec of one axis of ``library``'s ``mode`` with the library's own ``options``.

    Rules that look at several axes at once are not in it (Note [rules across axes]):
    :func:`explorer.library_resize` applies them.

    >>> preset("jax", "cubic", antialias=False)
    Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, index_arithmetic='jax_float32')
    >>> preset("opencv", "inter_area")
    Spec(kernel='area', index_arithmetic='opencv')
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

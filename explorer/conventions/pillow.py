"""Pillow 13 ``Image.resize`` as Spec rows.

Every filter but NEAREST is the F2 construction: centre ``(i + 0.5) * n / m``, support widened by the scale
when shrinking (always antialiased), out-of-image taps dropped and the rest renormalised.  NEAREST walks
``x += n / m`` from ``n / (2m)`` in double (``index_arithmetic="incremental"``).  uint8 images ("L", "RGB")
use 22-bit fixed-point weights and round after each pass; Pillow resizes the width first unless the height
shrinks by more than twice as many pixels as the width (then the height first) [measured, Pillow 13.0].

>>> from explorer.conventions import preset
>>> preset("pillow", "BICUBIC")
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
"""

from __future__ import annotations

import numpy as np

from ..engine import fixed_point
from ..engine.spec import Spec
from .registry import Library, register

_FILTER = dict(exclude_outside=True, antialias=True)
_MODES = {
    "NEAREST": dict(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="floor",
                    index_arithmetic="incremental"),
    "BOX": dict(kernel="box", **_FILTER),
    "BILINEAR": dict(kernel="linear", **_FILTER),
    "HAMMING": dict(kernel="hamming", **_FILTER),
    "BICUBIC": dict(kernel="cubic", cubic_coeff_a=-0.5, **_FILTER),
    "LANCZOS": dict(kernel="lanczos3", **_FILTER),
}


def vertical_first(height: int, width: int, new_height: int, new_width: int) -> bool:
    """Whether Pillow 13 resizes the height before the width.

    >>> vertical_first(100, 20, 10, 18), vertical_first(100, 20, 96, 10)
    (True, False)
    """
    return new_height < height and (height - new_height) > 2 * (width - new_width)


class Pillow(Library):
    id = "pillow"
    title = "Pillow Image.resize"
    options = ()
    unsupported = {"reducing_gap": "Image.reduce before resampling is not modelled (use the default None)",
                   "box": "a source region is not modelled; crop the array first",
                   "resample": "give the filter as the mode"}
    aliases = {"antialias": "LANCZOS", "cubic": "BICUBIC", "linear": "BILINEAR"}
    gradient_modes = ()
    no_gradient = ("Pillow has no gradient for Image.resize; explorer.library_resize_transpose gives the "
                   "transpose W^T g of its forward")

    def spec(self, mode, options):
        return Spec(**_MODES[mode])

    def pass_order(self, call):
        """The order Pillow resamples the (height, width) axes in (indices into the resized axes)."""
        if len(call.lengths) == 2:
            (h, nh), (w, nw) = call.lengths
            return [0, 1] if vertical_first(h, w, nh, nw) else [1, 0]
        return list(range(len(call.lengths)))[::-1]

    def resize_integer(self, call, x, plans, specs):
        """uint8 ("L", "RGB"): 22-bit fixed-point weights, a rounded pass per axis, in Pillow's order."""
        if x.dtype != np.uint8:
            return super().resize_integer(call, x, plans, specs)
        return fixed_point.resample_uint8(x, [plans[k] for k in self.pass_order(call)], fixed_point.pillow_bits)


LIBRARY = register(Pillow())

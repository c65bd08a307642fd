"""Pillow 13 ``Image.resize`` as Spec rows.

Every filter but NEAREST is the F2 construction: centre ``(i + 0.5) * n / m``, support widened by the scale
when shrinking (always antialiased), out-of-image taps dropped and the rest renormalised.  NEAREST walks
``x += n / m`` from ``n / (2m)`` in double (``index_arithmetic="incremental"``).  uint8 images ("L", "RGB")
use 22-bit fixed-point weights and round after each pass; Pillow resizes the width first unless the height
shrinks by more than twice as many pixels as the width (then the height first) [measured, Pillow 13.0].

Note [image modes]: ``image_mode`` says which Pillow image an array stands for; by default what
``Image.fromarray`` makes of it (the axis after the resized ones holds the bands: none or 1 band "L", 2 "LA",
3 "RGB", 4 "RGBA").  "RGBA" and "LA" are resampled with premultiplied alpha by every filter but NEAREST
(PIL/Image.py ``resize`` converts to "RGBa"/"La" and back; libImaging/Convert.c: premultiply
``((c*a + 128 >> 8) + c*a + 128) >> 8``, unpremultiply ``255 * c // a`` clipped, alpha 0 and 255 kept);
"RGBX" and "CMYK" resample each band alone.  NEAREST on 16-bit images ("I;16", uint16) takes
``ImagingGenericTransform``, which computes ``(x + 0.5) * n / m`` for every pixel in double instead of
accumulating it (Geometry.c ``affine_transform`` / ``nearest_filter16``).

>>> from explorer.conventions import preset
>>> preset("pillow", "BICUBIC")
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
"""

from __future__ import annotations

import numpy as np

from ...engine import fixed_point
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Backend, Runtime, same_mode
from ..registry import Api, Closest, Library, Option, Request, register

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


IMAGE_MODES = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4, "RGBX": 4, "CMYK": 4}
_INFERRED = {1: "L", 2: "LA", 3: "RGB", 4: "RGBA"}
_PREMULTIPLIED = ("RGBA", "LA")


def bands(call: Request) -> int | None:
    """The length of the band axis (the axis right after the last resized one), or None when there is none."""
    axis = max(call.axes) + 1
    return call.shape[axis] if axis == len(call.shape) - 1 else None


def image_mode(call: Request) -> str:
    """The Pillow mode the array stands for (Note [image modes])."""
    given = call.options.get("image_mode")
    count = bands(call)
    if given is None:
        return _INFERRED.get(count or 1, "L") if count in (None, 1, 2, 3, 4) else "L"
    if (count or 1) != IMAGE_MODES[given]:
        raise ArgumentValueError(f"image_mode={given!r} has {IMAGE_MODES[given]} band(s), but the axis after the "
                                 f"resized ones has {count or 'no'} entries; put the bands last (H, W, bands)")
    return given


def _muldiv255(c, a):
    t = c * a + 128
    return ((t >> 8) + t) >> 8


def premultiply(x: np.ndarray) -> np.ndarray:
    """Pillow's RGBA -> RGBa (and LA -> La): every colour band times alpha / 255, rounded its way."""
    out = x.astype(np.int64)
    out[..., :-1] = _muldiv255(out[..., :-1], out[..., -1:])
    return out.astype(np.uint8)


def unpremultiply(x: np.ndarray) -> np.ndarray:
    """Pillow's RGBa -> RGBA: ``255 * c // alpha`` clipped to 255; alpha 0 and 255 keep ``c``."""
    out = x.astype(np.int64)
    alpha = out[..., -1:]
    keep = (alpha == 0) | (alpha == 255)
    out[..., :-1] = np.where(keep, out[..., :-1], np.minimum(255 * out[..., :-1] // np.where(keep, 1, alpha), 255))
    return out.astype(np.uint8)


class Pillow(Library):
    id = "pillow"
    title = "Pillow Image.resize"
    aliases = ("pil",)
    order = 50
    mode_names = {"NEAREST": "nearest-exact", "BOX": "box", "BILINEAR": "linear", "HAMMING": "hamming",
                  "BICUBIC": "cubic", "LANCZOS": "lanczos3"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {"area": Closest(
        "BOX", {},
        "Pillow has no area mode: BOX, a box filter widened by the downscale factor, is the closest it has")}
    toggle_notes = {("align_corners", True): "Pillow's Image.resize has no align_corners; left out",
                    ("antialias", False): "Pillow's filters always antialias when shrinking (it has no antialias "
                                          "option)"}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("PIL.Image.Image.resize", ("size", "resample", "box", "reducing_gap"), mode_param="resample",
            defaults={"mode": "BICUBIC", "align_corners": None, "antialias": False}, runs="host", codes="pillow",
            rank=2),
        Api("PIL.Image.Image.thumbnail", ("size", "resample", "reducing_gap"), mode_param="resample",
            defaults={"mode": "BICUBIC", "align_corners": None, "antialias": False}, runs="host", codes="pillow",
            rank=2),
    )
    constants = {ns: ("pillow", {"NEAREST": "NEAREST", "BOX": "BOX", "BILINEAR": "BILINEAR", "LINEAR": "BILINEAR",
                                 "HAMMING": "HAMMING", "BICUBIC": "BICUBIC", "CUBIC": "BICUBIC", "LANCZOS": "LANCZOS",
                                 "ANTIALIAS": "LANCZOS"})
                 for ns in ("PIL.Image", "PIL.Image.Resampling")}
    codes = {0: "NEAREST", 1: "LANCZOS", 2: "BILINEAR", 3: "BICUBIC", 4: "BOX", 5: "HAMMING"}
    options = (Option("image_mode", None, (None, *IMAGE_MODES),
                      "the Pillow image the array stands for; None: as Image.fromarray infers it"),)
    unsupported = {"reducing_gap": "Image.reduce before resampling is not modelled (use the default None)",
                   "box": "a source region is not modelled; crop the array first",
                   "resample": "give the filter as the mode"}
    mode_aliases = {"antialias": "LANCZOS", "cubic": "BICUBIC", "linear": "BILINEAR"}
    gradient_modes = ()
    no_gradient = ("Pillow has no gradient for Image.resize; explorer.library_resize_transpose gives the "
                   "transpose W^T g of its forward")


    def code(self, mode, options, h, w):
        return "python", f"y = img.resize(({w}, {h}), resample=Image.Resampling.{mode})  # size is (width, height)"

    def spec(self, mode, options):
        return Spec(**_MODES[mode])

    def validate_call(self, call):
        mode = image_mode(call)
        if mode in _PREMULTIPLIED and call.options.get("image_mode") and call.dtype != np.uint8:
            raise ArgumentTypeError(f"Pillow {mode} images are 8-bit: pass a uint8 array (got {call.dtype})")

    def call_spec(self, call):
        spec = self.spec(call.mode, call.options)
        if call.mode == "NEAREST" and call.dtype == np.uint16:  # Note [image modes]: I;16
            return spec.replace(index_arithmetic="float64")
        return spec

    def pass_order(self, call):
        """The order Pillow resamples the (height, width) axes in (indices into the resized axes)."""
        if len(call.lengths) == 2:
            (h, nh), (w, nw) = call.lengths
            return [0, 1] if vertical_first(h, w, nh, nw) else [1, 0]
        return list(range(len(call.lengths)))[::-1]

    def resize_integer(self, call, x, plans, specs):
        """uint8: 22-bit fixed-point weights, a rounded pass per axis, in Pillow's order; "RGBA" and "LA"
        with premultiplied alpha (Note [image modes])."""
        if x.dtype != np.uint8:
            return super().resize_integer(call, x, plans, specs)
        premultiplied = image_mode(call) in _PREMULTIPLIED
        y = fixed_point.resample_uint8(premultiply(x) if premultiplied else x,
                                       [plans[k] for k in self.pass_order(call)], fixed_point.pillow_bits)
        return unpremultiply(y) if premultiplied else y


LIBRARY = register(Pillow())


# ------------------------------------------------------------------------------------------------ the runtime
def _writes(q, h, w, size, scale_factor):
    return "python", f"y = img.resize(({w}, {h}), resample=Image.Resampling.{q.mode})"


RUNTIME = register(Runtime(
    id="pillow", title="Pillow", order=60,
    backends=(Backend("pillow", "PIL.Image.resize", ("cpu",), "python", aliases=("pil",), spelling="pillow",
                      computes=same_mode("pillow"), writes=_writes),),
    words=("pil", "pillow", "resampling"), version_markers=("pillow==",)))

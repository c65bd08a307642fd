"""scikit-image 0.26 ``transform.resize`` and ``transform.rescale``: scipy.ndimage's zoom on pixel centres, after
a Gaussian anti-aliasing filter.

``resize(image, output_shape, order=None, mode='reflect', cval=0, clip=True, preserve_range=False,
anti_aliasing=None)`` (scikit-image/scikit-image ``src/skimage/transform/_warps.py`` and
``src/skimage/_shared/utils.py`` @ v0.26.0):

* ``order`` None is 1 (0 for booleans); the modes are numpy.pad's names, translated for ndimage: ``constant ->
  grid-constant``, ``edge -> nearest``, ``symmetric -> reflect``, ``reflect -> mirror``, ``wrap -> grid-wrap``;
* ``anti_aliasing`` None is True when some axis shrinks (and the image is not an integer one resized with
  order 0); then ``ndi.gaussian_filter(image, sigma, mode=ndi_mode)`` with ``sigma = max(0, (n / m - 1) / 2)``
  per axis (truncate 4: radius ``int(4 sigma + 0.5)``);
* ``ndi.zoom(filtered, m / n, order=order, mode=ndi_mode, grid_mode=True)`` (explorer.conventions.libraries.
  scipy; prefiltered B-splines for orders 2-5);
* ``clip``: the output is clipped to the input's range (widened to include ``cval`` when mode ``constant``
  brought it in): not linear; the gradient below is the resampling's;
* integers (order > 0) become float64, divided by 255 (uint8) or 65535 (uint16) unless ``preserve_range``;
  float32 stays float32 (computed in double by scipy).

``rescale(image, scale)`` is ``resize`` to ``max(1, round(scale * n))`` (``layer="rescale"`` here: the library
then takes a scale factor).

>>> from explorer.conventions import preset
>>> preset("skimage", "order1")  # anti_aliasing=None: decided by the sizes of a call
Spec(kernel='linear', index_arithmetic='ndimage', boundary='mirror')
>>> preset("skimage", "order3", anti_aliasing=True)
Spec(kernel='bspline3', antialias=True, index_arithmetic='ndimage', boundary='mirror', prefilter=True)
"""

from __future__ import annotations

import numpy as np

from ...engine.execute import execute
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register
from .scipy import FAMILIES, ORDER_ALIASES, ORDER_MODES, spline_spec, zoom_every_axis

NDIMAGE_MODE = {"constant": "grid-constant", "edge": "nearest", "symmetric": "reflect", "reflect": "mirror",
                "wrap": "grid-wrap"}
_SCALE = {np.dtype(np.uint8): 255.0, np.dtype(np.uint16): 65535.0}


class Skimage(Library):
    id = "skimage"
    title = "scikit-image transform.resize"
    aliases = ("scikit-image", "skimage.transform", "scikitimage")
    order = 65
    mode_names = {**FAMILIES, "order0": "nearest-exact"}  # order 0 on pixel centres: floor((i + 1/2) n / m)
    mode_aliases = dict(ORDER_ALIASES)
    options = (
        Option("boundary", "reflect", tuple(NDIMAGE_MODE), "resize's mode=: numpy.pad's name of the border extension"),
        Option("anti_aliasing", None, (None, False, True), "None: True when some axis shrinks"),
        Option("clip", True, (False, True), "clip the output to the input's range"),
        Option("preserve_range", False, (False, True), "integers keep their range (else / 255 or / 65535)"),
        Option("cval", 0.0, (0, 0.0), "the value past the border (mode 'constant'); only 0 is linear"),
        Option("function", "resize", ("resize", "rescale"), "rescale takes a scale factor"),
    )
    unsupported = {"anti_aliasing_sigma": "the default sigma max(0, (n/m - 1) / 2) is modelled",
                   "order": "give the order as the mode (order1)", "output_shape": "give it as the size",
                   "channel_axis": "give the resized axes (axes=)"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "nearest": Closest("order0", {}, "scikit-image's order 0 rounds on pixel centres (PyTorch's nearest-exact); "
                                         "it has no floor nearest"),
        "area": Closest("order1", {"anti_aliasing": True}, "scikit-image's resize has no area mode: order 1 after its "
                                                          "Gaussian anti-aliasing is shown (resize_local_mean is not "
                                                          "modelled)"),
        "lanczos": Closest("order3", {}, "scikit-image has no Lanczos: order 3, a prefiltered cubic B-spline, is shown"),
    }
    toggle_options = {"antialias": {True: {"anti_aliasing": True}, False: {"anti_aliasing": False}}}
    toggle_notes = {("align_corners", True): "scikit-image resizes on pixel centres (grid_mode=True): no "
                                             "align_corners; left out"}
    shown = {"boundary": None}

    apis = (
        Api("skimage.transform.resize",
            ("image", "output_shape", "order", "mode", "cval", "clip", "preserve_range", "anti_aliasing",
             "anti_aliasing_sigma"), mode_param="order",
            defaults={"mode": "order1", "align_corners": False, "antialias": "downscale"}, runs="host",
            input="image"),
        Api("skimage.transform.rescale",
            ("image", "scale", "order", "mode", "cval", "clip", "preserve_range", "anti_aliasing",
             "anti_aliasing_sigma"), mode_param="order",
            defaults={"mode": "order1", "align_corners": False, "antialias": "downscale"}, runs="host",
            scale_param="scale", input="image"),
    )
    codes = {k: f"order{k}" for k in range(6)}
    gradient_modes = ()
    no_gradient = ("scikit-image has no gradient; explorer.library_resize_transpose gives the transpose W^T g of "
                   "its resampling")

    def code(self, mode, options, h, w):
        extra = "".join(f", {'mode' if k == 'boundary' else k}={v!r}" for k, v in options.items()
                        if k in ("boundary", "anti_aliasing", "clip", "preserve_range"))
        return "python", f"y = skimage.transform.resize(image, ({h}, {w}), order={ORDER_MODES[mode]}{extra})"

    def validate(self, mode, options):
        if float(options["cval"]) != 0.0:
            raise ArgumentValueError("cval other than 0 makes the resize affine, not linear; it is not modelled")

    def _antialias(self, call) -> bool:
        wanted = call.options["anti_aliasing"]
        if wanted is not None:
            return bool(wanted)
        if call.dtype.kind in "iu" and call.mode == "order0":
            return False
        return any(m < n for n, m in call.lengths)

    def spec(self, mode, options):
        antialias = bool(options["anti_aliasing"])  # None: decided by the sizes (call_spec)
        return spline_spec(ORDER_MODES[mode], NDIMAGE_MODE[options["boundary"]], True, True, antialias)

    def call_spec(self, call):
        return spline_spec(ORDER_MODES[call.mode], NDIMAGE_MODE[call.options["boundary"]], True, True,
                           self._antialias(call))

    def rows(self):
        out = []
        for mode in ORDER_MODES:
            out.append((mode, {}, "anti_aliasing when shrinking (the default)"))
            out.append((mode, {"anti_aliasing": False}, ""))
        for boundary in ("constant", "edge", "symmetric"):  # wrap (grid-wrap) reaches across the axis: not listed
            out.append(("order1", {"boundary": boundary}, ""))
            out.append(("order3", {"boundary": boundary}, ""))
        return out

    def output_length(self, n, factor, options):
        if options["function"] != "rescale":
            raise ArgumentValueError("skimage.transform.resize takes an output shape; rescale (function='rescale') "
                                     "takes a scale")
        return max(1, int(np.round(float(factor) * n)))

    def validate_call(self, call):
        if call.dtype.kind == "b":
            raise ArgumentTypeError("boolean images are not modelled; pass uint8 with order0")
        if call.dtype.kind in "iu" and call.mode == "order0" and call.options["anti_aliasing"]:
            raise ArgumentValueError("anti_aliasing of an integer image with order 0 filters in the integer type; "
                                     "not modelled")
        if call.dtype.kind in "iu" and call.mode != "order0" and not call.options["preserve_range"] \
                and call.dtype not in _SCALE:
            raise ArgumentTypeError(f"img_as_float of {call.dtype} is not modelled; pass uint8, uint16 or float, or "
                                    "preserve_range=True")

    def kernel_scales(self, call):
        return [None] * len(call.lengths)

    def adjust_plans(self, call, plans):
        return zoom_every_axis(call, plans)  # Note [every axis is zoomed] in explorer.conventions.libraries.scipy

    def resize_integer(self, call, x, plans, specs):
        """Order 0 copies samples (the dtype stays); other orders resample ``img_as_float(x)`` in float64."""
        if call.mode == "order0":
            return np.rint(execute(x.astype(np.float64), plans)).astype(x.dtype)
        scale = 1.0 if call.options["preserve_range"] else _SCALE[x.dtype]
        return execute(x.astype(np.float64) / scale, plans)

    def finish(self, call, x, y):
        """``_clip_warp_output``: ``y`` clipped to the input's range (with 0 when mode 'constant' brought it in)."""
        if not call.options["clip"] or y.size == 0:
            return y
        x = x.astype(np.float64) / (1.0 if call.options["preserve_range"] or x.dtype.kind == "f"
                                    or call.mode == "order0" else _SCALE[x.dtype])
        low, high = np.nanmin(x), np.nanmax(x)
        if call.options["boundary"] == "constant" and not low <= 0.0 <= high and np.nanmin(y) <= 0.0 <= np.nanmax(y):
            low, high = min(low, 0.0), max(high, 0.0)
        return np.clip(y, y.dtype.type(low), y.dtype.type(high))


LIBRARY = register(Skimage())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    return Computation("skimage", q.mode, {"anti_aliasing": bool(q.antialias)})


def _writes(q, h, w, size, scale_factor):
    return "python", (f"y = skimage.transform.resize(x, x.shape[:2] + ({h}, {w}), "
                      f"order={ORDER_MODES.get(q.mode, 1)}, anti_aliasing={bool(q.antialias)})")


RUNTIME = register(Runtime(
    id="skimage", title="scikit-image", order=86,
    backends=(Backend("skimage", "skimage.transform.resize / rescale", ("cpu",), "python",
                      aliases=("scikit-image",), spelling="skimage", computes=_computes, writes=_writes),),
    words=("skimage", "scikit-image"), version_markers=("scikit-image==",)))

"""scipy.ndimage 1.17 ``zoom``: B-spline interpolation of orders 0-5, with its prefilter and boundary modes.

``zoom(input, zoom, order=3, mode='constant', cval=0.0, prefilter=True, grid_mode=False)`` (scipy/scipy
``scipy/ndimage/_interpolation.py`` and ``src/ni_interpolation.c`` @ v1.17.1): the output length is
``round(n * zoom)``; the kernel steps by the lengths, ``(n - 1) / (m - 1)`` from sample 0 (``grid_mode=False``:
align-corners coordinates) or ``n / m`` at pixel centres (``grid_mode=True``: half-pixel).  Orders 2-5 first
turn the samples into B-spline coefficients (``spline_filter``, exact recursions per pole) unless
``prefilter=False``; order 0 rounds the coordinate half up; every order reads past the border by the mode.
Each axis is one linear map, built by explorer.engine.native.ndimage (Spec row ``index_arithmetic="ndimage"``).

Everything is computed in double: float32 input is returned as float32, integers are rounded half up (unsigned:
clamped at 0 and the type's maximum; signed: half away from zero), as ``CASE_INTERP_OUT_UINT`` / ``_INT`` do.

Note [every axis is zoomed]
    ``zoom`` prefilters and resamples every axis, those of zoom factor 1 included.  There the spline is read
    at the samples themselves, which gives them back, except on short lines with ``mode='reflect'`` (Note
    [reflect prefilter]): an axis of 2 or 3 channels comes out changed by up to 5e-4.  ``adjust_plans`` adds
    the plan of every such axis the call does not resize.

Note [reflect prefilter]
    ``_init_causal_reflect`` (ni_splines.c) adds ``z^i (c[i] + z^n c[n-1-i])`` for ``i = 1 ... n-1`` into
    ``c[0]`` in place, so its last term reads the partial sum, not the sample ``c[0]``: on short lines (n < 10)
    the coefficients differ from the symmetric-extension formula by up to 6e-4.  The port keeps it.

>>> from explorer.conventions import preset
>>> preset("scipy", "order3")
Spec(kernel='bspline3', coordinate_transformation_mode='align_corners', index_arithmetic='ndimage', boundary='constant', prefilter=True)
"""

from __future__ import annotations

import numpy as np

from ...engine.execute import execute
from ...engine.plan import axis_plan
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register

MODES = ("constant", "grid-constant", "nearest", "mirror", "reflect", "grid-mirror", "wrap", "grid-wrap")
ORDER_MODES = {f"order{k}": k for k in range(6)}
_KERNELS = {0: "nearest", 1: "linear", 2: "bspline2", 3: "bspline3", 4: "bspline4", 5: "bspline5"}
FAMILIES = {"order0": "nearest", "order1": "linear", "order2": "bspline", "order3": "cubic", "order4": "bspline",
            "order5": "bspline"}
ORDER_ALIASES = {"0": "order0", "1": "order1", "2": "order2", "3": "order3", "4": "order4", "5": "order5",
                 "nearest": "order0", "linear": "order1", "bilinear": "order1", "cubic": "order3",
                 "bicubic": "order3", "quadratic": "order2", "quartic": "order4", "quintic": "order5"}


def spline_spec(order: int, boundary: str, grid_mode: bool, prefilter: bool = True, antialias: bool = False) -> Spec:
    """The Spec of scipy.ndimage's spline resampling of ``order`` with the ``boundary`` mode."""
    boundary = "reflect" if boundary == "grid-mirror" else boundary
    fields = dict(kernel=_KERNELS[order], boundary=boundary, prefilter=prefilter and order > 1,
                  antialias=antialias, index_arithmetic="ndimage",
                  coordinate_transformation_mode="half_pixel" if grid_mode else "align_corners")
    if order == 0:
        fields["nearest_mode"] = "round_prefer_ceil"  # start = floor(cc + 0.5)
    return Spec(**fields)


def round_like_ndimage(y: np.ndarray, dtype) -> np.ndarray:
    """``CASE_INTERP_OUT_UINT`` / ``CASE_INTERP_OUT_INT``: half up (away from zero), unsigned clamped."""
    dtype = np.dtype(dtype)
    info = np.iinfo(dtype)
    if dtype.kind == "u":
        return np.clip(np.floor(np.maximum(y, 0.0) + 0.5), 0, info.max).astype(dtype)
    return np.trunc(np.where(y > 0, y + 0.5, y - 0.5)).astype(dtype)


def zoom_every_axis(call, plans: list) -> list:
    """Note [every axis is zoomed]: ``plans`` with the plan of each axis the call does not resize, where that
    axis's prefiltered zoom by 1 is not the identity (beyond 1e-15)."""
    spec = call.library.call_spec(call)
    if not spec.prefilter:
        return plans
    out = list(plans)
    for axis, n in enumerate(call.shape):
        if axis in call.axes or n <= 1:
            continue
        plan = axis_plan(n, n, spec.replace(antialias=False))
        r, c, w = plan.band.triplets()
        if np.abs(w - (r == c)).max(initial=0.0) > 1e-15:
            out.append((axis, plan))
    return out


class Scipy(Library):
    id = "scipy"
    title = "scipy.ndimage.zoom"
    aliases = ("ndimage", "scipy.ndimage", "scipy-ndimage")
    order = 60
    mode_names = dict(FAMILIES)
    mode_aliases = dict(ORDER_ALIASES)
    options = (
        Option("boundary", "constant", MODES, "zoom's mode=: how the input is extended past its border"),
        Option("grid_mode", False, (False, True), "True: pixel centres (half-pixel); False: sample 0 to n-1"),
        Option("prefilter", True, (False, True), "orders 2-5: B-spline coefficients first (interpolating)"),
        Option("cval", 0.0, (0, 0.0), "the value past the border (constant modes); only 0 keeps the map linear"),
    )
    unsupported = {"output": "the output dtype follows the input", "order": "give the order as the mode (order3)",
                   "zoom": "give the factors as scale_factor"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "nearest-exact": Closest("order0", {"grid_mode": True, "boundary": "nearest"},
                                 "scipy's order 0 on pixel centres (grid_mode=True) rounds (i+½)·n/m − ½ half up: "
                                 "PyTorch's nearest-exact"),
        "area": Closest("order1", {"grid_mode": True, "boundary": "nearest"},
                        "scipy.ndimage.zoom has no area mode: order 1 (linear, no antialias) is shown"),
        "lanczos": Closest("order3", {"grid_mode": True, "boundary": "nearest"},
                           "scipy.ndimage.zoom has no Lanczos: order 3, a prefiltered cubic B-spline, is shown"),
    }
    toggle_options = {"align_corners": {True: {"grid_mode": False}, False: {"grid_mode": True}}}
    toggle_notes = {("antialias", True): "scipy.ndimage.zoom has no antialias (filter with gaussian_filter first); "
                                         "left out"}
    shown = {"boundary": None, "grid_mode": None}

    apis = (
        Api("scipy.ndimage.zoom", ("input", "zoom", "output", "order", "mode", "cval", "prefilter", "grid_mode"),
            mode_param="order", defaults={"mode": "order3", "align_corners": True, "antialias": False},
            runs="host", scale_param="zoom", input="input", aliases=("scipy.ndimage.interpolation.zoom",)),
    )
    codes = {k: f"order{k}" for k in range(6)}
    gradient_modes = ()
    no_gradient = ("scipy.ndimage has no gradient; explorer.library_resize_transpose gives the transpose W^T g of "
                   "its forward")

    def code(self, mode, options, h, w):
        extra = "".join(f", {'mode' if k == 'boundary' else k}={v!r}" for k, v in options.items()
                        if k in ("boundary", "grid_mode", "prefilter"))
        return "python", (f"y = scipy.ndimage.zoom(x, ({h} / x.shape[0], {w} / x.shape[1]), "
                          f"order={ORDER_MODES[mode]}{extra})  # output round(n * zoom)")

    def spec(self, mode, options):
        return spline_spec(ORDER_MODES[mode], options["boundary"], options["grid_mode"], options["prefilter"])

    def rows(self):
        out = []
        for mode in ORDER_MODES:
            out.append((mode, {}, ""))
            out.append((mode, {"grid_mode": True, "boundary": "grid-constant"}, "pixel centres"))
            if mode in ("order1", "order3"):  # grid-wrap's prefilter reaches across the axis: no band, not listed
                for boundary in ("nearest", "mirror", "reflect", "wrap"):
                    out.append((mode, {"boundary": boundary}, ""))
        out.append(("order3", {"prefilter": False}, "the B-spline smooths: not interpolating"))
        return out

    def output_length(self, n, factor, options):
        return int(round(n * float(factor)))

    def validate_call(self, call):
        if call.dtype.kind == "b":
            raise ArgumentTypeError("scipy.ndimage.zoom of a boolean array is not modelled; pass uint8")

    def kernel_scales(self, call):
        return [None] * len(call.lengths)  # zoom recomputes its factors from the shapes

    def adjust_plans(self, call, plans):
        return zoom_every_axis(call, plans)  # Note [every axis is zoomed]

    def resize_integer(self, call, x, plans, specs):
        """Computed in double, rounded half up (away from zero) into the input's dtype."""
        return round_like_ndimage(execute(x.astype(np.float64), plans), x.dtype)

    def validate(self, mode, options):
        if float(options["cval"]) != 0.0:
            raise ArgumentValueError("cval other than 0 makes the zoom affine, not linear; it is not modelled")


LIBRARY = register(Scipy())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    return Computation("scipy", q.mode, {"grid_mode": not q.align_corners} if q.align_corners is not None else {})


def _writes(q, h, w, size, scale_factor):
    return "python", (f"y = scipy.ndimage.zoom(x, (1, 1, {h} / x.shape[2], {w} / x.shape[3]), "
                      f"order={ORDER_MODES.get(q.mode, 3)})")


RUNTIME = register(Runtime(
    id="scipy", title="SciPy", order=85,
    backends=(Backend("scipy", "scipy.ndimage.zoom", ("cpu",), "python", aliases=("ndimage", "scipy-ndimage"),
                      spelling="scipy", computes=_computes, writes=_writes),),
    words=("scipy", "ndimage"), version_markers=("scipy==",)))

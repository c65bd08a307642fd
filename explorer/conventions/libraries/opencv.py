"""OpenCV 5 ``cv2.resize`` as Spec rows, plus its size, scale and dispatch rules.

* ``dsize`` given: the kernels step by ``1 / (dsize / ssize)`` computed in double; ``fx``/``fy`` given: the
  output is ``cvRound(n * fx)`` (round half to even) and the kernels step by ``1 / fx``.
  ``INTER_NEAREST_EXACT`` ignores ``fx`` and steps by ``n / m``, accumulated (``index_arithmetic="incremental"``).
* When the output size equals the input size the image is copied, whatever ``fx``.
* Note [which code runs]: the wheels ship the IPP HAL (``hal/ipp/src/resize_ipp.cpp``), which takes
  INTER_LINEAR on float32/float64 images whose source sides are all at least 2, and INTER_CUBIC on float32
  and uint8 images whose sides are all at least 4; it computes double coordinates
  (``index_arithmetic="float64"``).  Everything else runs OpenCV's ``resizeGeneric``, which stores the
  coordinate as float (``"float64_to_float32"``): one-row or one-column images, small images, float64
  INTER_CUBIC, INTER_LANCZOS4, uint8 INTER_LINEAR.  uint8 INTER_LINEAR at exactly 2x on both axes becomes
  INTER_AREA.  The option ``ipp=False`` models ``cv2.ipp.setUseIPP(False)``.  The resized axes are the
  image's sides (one resized axis: a one-row image).  [measured, OpenCV 5.0.0.93]
* ``INTER_AREA`` shrinking: ``computeResizeAreaTab`` (``index_arithmetic="opencv"``, explorer.engine.native.
  opencv): a cell that overhangs the image averages its in-image part, partial overlaps under 1e-3 px are
  dropped; integer steps on both axes run ``resizeAreaFast`` (the same cells, its own uint8 rounding).  When
  any axis grows every axis uses the two-tap ``opencv_area_upscale`` rule (the exact overlap on growing axes).

>>> from explorer.conventions import preset
>>> preset("opencv", "INTER_NEAREST")
Spec(kernel='nearest', coordinate_transformation_mode='asymmetric', nearest_mode='floor', index_arithmetic='opencv')
"""

from __future__ import annotations

import numpy as np

from ...engine import fixed_point
from ...engine.execute import execute
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError, UnsupportedError
from ..declarations import Backend, Runtime, same_mode
from ..registry import Api, Closest, Library, Option, Request, register

_MODES = {
    "INTER_NEAREST": dict(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor",
                          index_arithmetic="opencv"),
    "INTER_NEAREST_EXACT": dict(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn",
                                nearest_mode="floor", index_arithmetic="incremental"),
    "INTER_LINEAR": dict(kernel="linear"),
    "INTER_LINEAR_EXACT": dict(kernel="linear"),
    "INTER_CUBIC": dict(kernel="cubic", cubic_coeff_a=-0.75, index_arithmetic="float64_to_float32"),
    "INTER_AREA": dict(kernel="area", index_arithmetic="opencv"),
    "INTER_LANCZOS4": dict(kernel="lanczos4", index_arithmetic="float64_to_float32"),
}
_DESCRIPTIONS = {
    "INTER_LINEAR_EXACT": "float input: INTER_LINEAR; its bit-exact uint8 rounding is not modelled",
    "INTER_AREA": "cell averages when shrinking; see opencv_area_upscale when an axis grows",
}


_IPP_SIDES = {"INTER_LINEAR": 2, "INTER_LINEAR_EXACT": 2, "INTER_CUBIC": 4}
_IPP_DTYPES = {"INTER_LINEAR": ("float32", "float64"), "INTER_LINEAR_EXACT": ("float32", "float64"),
               "INTER_CUBIC": ("float32", "uint8")}


def takes_ipp(call: Request) -> bool:
    """Whether the IPP HAL computes this call (Note [which code runs])."""
    sides = [n for n, _ in call.lengths] + ([1] if len(call.lengths) == 1 else [])
    return (call.options.get("ipp", True) and call.mode in _IPP_SIDES and call.dtype.name in _IPP_DTYPES[call.mode]
            and min(sides) >= _IPP_SIDES[call.mode])


def steps(call: Request, scales) -> list[float]:
    """OpenCV's ``scale_x``/``scale_y`` of each resized axis: ``1 / inv_scale`` (input samples per output)."""
    return [1.0 / s if s is not None else n / m for (n, m), s in zip(call.lengths, scales)]


def area_fast_steps(call: Request, scales) -> list[int] | None:
    """The integer steps of ``resizeAreaFast`` when every axis shrinks by a whole factor, else None."""
    exact = steps(call, scales)
    whole = [round(step) for step in exact]
    if all(abs(step - k) < np.finfo(np.float64).eps and k >= 1 for step, k in zip(exact, whole)):
        return whole
    return None


def channels(call: Request) -> int:
    """The interleaved channels of the image: the axes after the last resized one (HWC: C)."""
    return int(np.prod(call.shape[max(call.axes) + 1:], dtype=np.int64))


class OpenCV(Library):
    id = "opencv"
    title = "OpenCV cv2.resize"
    aliases = ("cv2",)
    order = 40
    mode_names = {"INTER_NEAREST": "nearest", "INTER_NEAREST_EXACT": "nearest-exact", "INTER_LINEAR": "linear",
                  "INTER_LINEAR_EXACT": "linear", "INTER_CUBIC": "cubic", "INTER_AREA": "area",
                  "INTER_LANCZOS4": "lanczos4"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {"lanczos": Closest(
        "INTER_LANCZOS4", {},
        "OpenCV has no Lanczos-3 filter: INTER_LANCZOS4 (radius 4, 8 taps, never antialiased, so it aliases "
        "when shrinking) is the closest it has")}
    toggle_notes = {("align_corners", True): "cv2.resize has no align_corners; left out",
                    ("antialias", True): "cv2.resize has no antialias (INTER_AREA is its only averaging mode); "
                                         "left out"}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("cv2.resize", ("src", "dsize", "dst", "fx", "fy", "interpolation"), mode_param="interpolation",
            defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host",
            codes="opencv", rank=2),
        Api("albumentations.Resize", ("height", "width", "interpolation"), mode_param="interpolation",
            defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host",
            codes="opencv", rank=2,
            aliases=("albumentations.augmentations.Resize",
                     "albumentations.augmentations.geometric.resize.Resize")),
        Api("albumentations.SmallestMaxSize", ("max_size", "interpolation"), mode_param="interpolation",
            defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host",
            codes="opencv", rank=2),
        Api("albumentations.LongestMaxSize", ("max_size", "interpolation"), mode_param="interpolation",
            defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host",
            codes="opencv", rank=2),
    )
    constants = {"cv2": ("opencv", {m: m for m in ("INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR",
                                                   "INTER_LINEAR_EXACT", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4")})}
    codes = {0: "INTER_NEAREST", 1: "INTER_LINEAR", 2: "INTER_CUBIC", 3: "INTER_AREA", 4: "INTER_LANCZOS4",
             5: "INTER_LINEAR_EXACT", 6: "INTER_NEAREST_EXACT"}
    options = (Option("ipp", True, (True, False), "False: as after cv2.ipp.setUseIPP(False)"),)
    unsupported = {"dsize": "pass size=", "fx": "pass scale_factor=", "fy": "pass scale_factor=",
                   "interpolation": "give the interpolation as the mode"}
    gradient_modes = ()
    no_gradient = ("OpenCV has no gradient for cv2.resize; explorer.library_resize_transpose gives the "
                   "transpose W^T g of its forward")


    def code(self, mode, options, h, w):
        return "python", f"y = cv2.resize(img, ({w}, {h}), interpolation=cv2.{mode})  # dsize is (width, height)"

    def spec(self, mode, options):
        return Spec(**_MODES[mode])

    def rows(self):
        return [(mode, {}, _DESCRIPTIONS.get(mode, "")) for mode in self.modes]

    def output_length(self, n, factor, options):
        m = int(np.rint(n * factor))  # cvRound: half to even
        if m < 1:
            raise ArgumentValueError(f"OpenCV rounds {n} * {factor} to an empty size (cvRound gives {m})")
        return m

    def kernel_scales(self, call):
        if all(n == m for n, m in call.lengths) or call.mode == "INTER_NEAREST_EXACT":
            return [None] * len(call.lengths)  # a plain copy / n/m accumulated
        return [float(f) if f is not None else m / n for (n, m), f in zip(call.lengths, call.factors)]

    def axis_specs(self, call, spec, scales):
        """Note [which code runs]: the coordinate arithmetic of IPP or resizeGeneric; INTER_AREA's two-tap
        rule on every axis when any axis grows."""
        if call.mode == "INTER_AREA":
            if all(step >= 1 for step in steps(call, scales)):
                return [spec] * len(call.lengths)
            return [spec.replace(kernel="opencv_area_upscale")] * len(call.lengths)
        if call.mode in ("INTER_LINEAR", "INTER_LINEAR_EXACT", "INTER_CUBIC"):
            row = "float64" if takes_ipp(call) else "float64_to_float32"
            return [spec.replace(index_arithmetic=row)] * len(call.lengths)
        return [spec] * len(call.lengths)

    def validate_call(self, call):
        """resizeArea (INTER_AREA shrinking by steps that are not whole) takes at most 4 channels [measured,
        OpenCV 5.0.0.93: ``(-215:Assertion failed) func != 0 && cn <= 4 in function 'resize'``]."""
        if call.mode != "INTER_AREA" or channels(call) <= 4 or all(n == m for n, m in call.lengths):
            return
        scales = self.kernel_scales(call)
        shrinking = steps(call, scales)
        if all(step >= 1 for step in shrinking) and area_fast_steps(call, scales) is None:
            shown = ", ".join(f"{step:.4g}" for step in shrinking)
            raise UnsupportedError(f"OpenCV INTER_AREA shrinking by steps that are not whole ({shown}) takes at most "
                                   f"4 channels, got {channels(call)} (cv2.error: Assertion failed func != 0 && "
                                   "cn <= 4); resize the channels in groups of 4")

    def resize_integer(self, call, x, plans, specs):
        """uint8: OpenCV's own arithmetic, bit-exact for INTER_NEAREST(_EXACT), INTER_LINEAR (its 11-bit fixed
        point; exactly 2x on both axes: resizeAreaFast), INTER_LANCZOS4 and INTER_AREA (resizeAreaFast's
        integer box, resizeArea's float32 accumulation in table order, or the growing two-tap rule);
        INTER_CUBIC is the float result rounded half to even (within 1 LSB: IPP's rounding is not modelled)."""
        if x.dtype != np.uint8:
            return super().resize_integer(call, x, plans, specs)
        mode, scales = call.mode, self.kernel_scales(call)
        if all(p.n == p.m for _, p in plans):
            return x.copy()
        fast = area_fast_steps(call, scales)
        shrinking_area = mode == "INTER_AREA" and specs[0].kernel != "opencv_area_upscale"
        if (mode == "INTER_LINEAR" and fast == [2, 2]) or (shrinking_area and fast is not None):
            boxes = [(axis, step) for (axis, _), step in zip(plans, fast)]
            return fixed_point.opencv_area_fast_uint8(x, boxes, channels(call))
        if shrinking_area:
            return fixed_point.float32_passes_uint8(x, plans[::-1])  # the row pass, then the column pass
        two_tap = mode == "INTER_LINEAR" or mode == "INTER_AREA"
        if (two_tap or mode == "INTER_LANCZOS4") and len(plans) <= 2:
            extra = (mode == "INTER_AREA",) if two_tap else ()
            entries = [(axis, p.n, p.m, s) + extra for (axis, p), s in zip(plans, scales)]
            vertical, horizontal = (entries[0], entries[1]) if len(entries) == 2 else (None, entries[0])
            if two_tap:
                return fixed_point.opencv_linear_uint8(x, vertical, horizontal)
            return fixed_point.opencv_lanczos4_uint8(x, vertical, horizontal)
        if mode == "INTER_LINEAR_EXACT":
            raise ArgumentTypeError("OpenCV INTER_LINEAR_EXACT's uint8 rounding is not modelled; use INTER_LINEAR "
                                    "or float input")
        y = execute(x.astype(np.float32), plans)
        return np.clip(np.rint(y), 0, 255).astype(np.uint8)


LIBRARY = register(OpenCV())


# ------------------------------------------------------------------------------------------------ the runtime
def _writes(q, h, w, size, scale_factor):
    return "python", f"y = cv2.resize(img, ({w}, {h}), interpolation=cv2.{q.mode})"


RUNTIME = register(Runtime(
    id="opencv", title="OpenCV", order=50,
    backends=(Backend("opencv", "cv2.resize", ("cpu",), "python", aliases=("cv2",), spelling="opencv",
                      computes=same_mode("opencv"), writes=_writes),),
    words=("cv2", "opencv"), version_markers=("opencv(",)))

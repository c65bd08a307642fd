"""OpenCV 5 ``cv2.resize`` as Spec rows, plus its size and scale rules.

* ``dsize`` given: the kernels step by ``1 / (dsize / ssize)`` computed in double; ``fx``/``fy`` given: the
  output is ``cvRound(n * fx)`` (round half to even) and the kernels step by ``1 / fx``.
  ``INTER_NEAREST_EXACT`` ignores ``fx`` and steps by ``n / m``, accumulated (``index_arithmetic="incremental"``).
* When the output size equals the input size the image is copied, whatever ``fx``.
* INTER_CUBIC and INTER_LANCZOS4 store the source coordinate as float (``"float64_to_float32"``) and all
  coefficients are float32, also for float64 images; INTER_LINEAR keeps a double coordinate for images wider
  than one column (a one-column image takes a float path that differs by ~1e-6).
* ``INTER_AREA`` integrates exact overlaps when no axis grows; when any axis grows every axis uses the
  two-tap ``opencv_area_upscale`` rule (the same as the overlap on growing axes).

>>> from explorer.conventions import preset
>>> preset("opencv", "INTER_NEAREST")
Spec(kernel='nearest', coordinate_transformation_mode='asymmetric', nearest_mode='floor')
"""

from __future__ import annotations

import numpy as np

from ..engine import fixed_point
from ..engine.execute import execute
from ..engine.spec import Spec
from ..errors import ArgumentTypeError, ArgumentValueError
from .registry import Library, register

_MODES = {
    "INTER_NEAREST": dict(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    "INTER_NEAREST_EXACT": dict(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn",
                                nearest_mode="floor", index_arithmetic="incremental"),
    "INTER_LINEAR": dict(kernel="linear"),
    "INTER_LINEAR_EXACT": dict(kernel="linear"),
    "INTER_CUBIC": dict(kernel="cubic", cubic_coeff_a=-0.75, index_arithmetic="float64_to_float32"),
    "INTER_AREA": dict(kernel="area"),
    "INTER_LANCZOS4": dict(kernel="lanczos4", index_arithmetic="float64_to_float32"),
}
_DESCRIPTIONS = {
    "INTER_LINEAR_EXACT": "float input: INTER_LINEAR; its bit-exact uint8 rounding is not modelled",
    "INTER_AREA": "exact overlap when shrinking; see opencv_area_upscale when an axis grows",
}


class OpenCV(Library):
    id = "opencv"
    title = "OpenCV cv2.resize"
    options = ()
    unsupported = {"dsize": "pass size=", "fx": "pass scale_factor=", "fy": "pass scale_factor=",
                   "interpolation": "give the interpolation as the mode"}
    gradient_modes = ()
    no_gradient = ("OpenCV has no gradient for cv2.resize; explorer.library_resize_transpose gives the "
                   "transpose W^T g of its forward")

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
        if call.mode != "INTER_AREA":
            return [spec] * len(call.lengths)
        steps = [1.0 / s if s is not None else n / m for (n, m), s in zip(call.lengths, scales)]
        if all(step >= 1 for step in steps):
            return [spec] * len(call.lengths)
        return [spec.replace(kernel="opencv_area_upscale")] * len(call.lengths)

    def resize_integer(self, call, x, plans, specs):
        """uint8: OpenCV's fixed point (INTER_LINEAR, growing INTER_AREA, INTER_LANCZOS4 bit-exact); INTER_CUBIC
        and shrinking INTER_AREA: the float result rounded half to even (within 1 LSB)."""
        if x.dtype != np.uint8:
            return super().resize_integer(call, x, plans, specs)
        mode, scales = call.mode, self.kernel_scales(call)
        two_tap = mode == "INTER_LINEAR" or (mode == "INTER_AREA" and specs[0].kernel == "opencv_area_upscale")
        if (two_tap or mode == "INTER_LANCZOS4") and len(plans) <= 2:
            if all(p.n == p.m for _, p in plans):
                return x.copy()
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

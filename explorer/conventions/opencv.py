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

from ..engine.spec import Spec
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
    integer_rule = "opencv_fixed_point"
    no_gradient = ("OpenCV has no gradient for cv2.resize; explorer.library_resize_transpose gives the "
                   "transpose W^T g of its forward")

    def spec(self, mode, options):
        return Spec(**_MODES[mode])

    def rows(self):
        return [(mode, {}, _DESCRIPTIONS.get(mode, "")) for mode in self.modes]

    def output_length(self, n, factor, options):
        m = int(np.rint(n * factor))  # cvRound: half to even
        if m < 1:
            raise ValueError(f"OpenCV rounds {n} * {factor} to an empty size (cvRound gives {m})")
        return m

    def kernel_scales(self, mode, lengths, factors, options):
        if all(n == m for n, m in lengths) or mode == "INTER_NEAREST_EXACT":
            return [None] * len(lengths)  # a plain copy / n/m accumulated
        return [float(f) if f is not None else m / n for (n, m), f in zip(lengths, factors)]

    def axis_specs(self, spec, mode, lengths, scales, options):
        if mode != "INTER_AREA":
            return [spec] * len(lengths)
        steps = [1.0 / s if s is not None else n / m for (n, m), s in zip(lengths, scales)]
        if all(step >= 1 for step in steps):
            return [spec] * len(lengths)
        return [spec.replace(kernel="opencv_area_upscale")] * len(lengths)


LIBRARY = register(OpenCV())

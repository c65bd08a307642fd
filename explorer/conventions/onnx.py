"""ONNX ``Resize`` by opset, as ONNX Runtime 1.32 (CPU) computes it.

Options are the operator's attributes (``coordinate_transformation_mode``, ``nearest_mode``,
``cubic_coeff_a``, ``exclude_outside``, ``antialias``, ``extrapolation_value``), ``roi`` for
``tf_crop_and_resize``, ``keep_aspect_ratio_policy`` and the ``opset`` (10, 11, 13, 18, 19; default 19).
Note [unit-scale axes]: ONNX Runtime maps output ``i`` to input ``i`` on every axis whose float32 scale is
exactly 1, whatever the coordinate transform and the roi (``scale == 1 ? i : get_original_coordinate(...)`` in
upsample.cc and upsample_antialias.h @0797d77), and its antialiased passes copy an axis whose length does not
change; an output length of 0 (``keep_aspect_ratio_policy``) gives an empty tensor.  Antialias weights follow
``SetupUpsampleFilterAntiAlias`` (explorer.engine.native.onnxruntime): the kernel is stretched by ``n / m``
whatever the transform.

Opset 10 has no attributes but ``mode``: coordinates are asymmetric and ONNX Runtime's nearest rounds up
when downsampling and truncates when upsampling (``nearest_mode="simple"``).  Coordinates are float32,
``x = (i + 0.5) / scale - 0.5`` (``index_arithmetic="onnxruntime"``).

Note [antialias with align_corners]: with ``antialias=1`` and ``align_corners`` ONNX Runtime places the
samples at ``i * (n-1)/(m-1)`` but stretches the kernel by the scale, ``n/m`` (or ``1/scale``), not by the
sample spacing ``(n-1)/(m-1)`` (measured against ONNX Runtime 1.32, CPU); taps outside the image follow
``exclude_outside`` as usual.

>>> from explorer.conventions import preset
>>> spec = preset("onnx", "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
>>> spec.coordinate_transformation_mode, spec.nearest_mode, spec.index_arithmetic
('asymmetric', 'floor', 'onnxruntime')
>>> preset("onnx", "nearest", opset=10).nearest_mode
'simple'
"""

from __future__ import annotations

import math

import numpy as np

from ..engine.spec import Spec
from ..errors import ArgumentValueError, choice_error
from .registry import Library, Option, register

OPSETS = (10, 11, 13, 18, 19)
_TRANSFORMS = {
    11: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_half_pixel_for_nn",
         "tf_crop_and_resize"),
    13: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    18: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize"),
    19: ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize",
         "half_pixel_symmetric"),
}
_NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
_KERNELS = {"nearest": "nearest", "linear": "linear", "cubic": "cubic"}
_COPY = Spec(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")


def _copied_axes(call) -> list[bool]:
    """Note [unit-scale axes]: per resized axis, whether ONNX Runtime copies it."""
    if all(n == m for n, m in call.lengths):  # an unchanged shape is copied, ignoring scales and roi
        return [True] * len(call.lengths)
    antialias = bool(call.options["antialias"])
    copies = []
    for (n, m), f in zip(call.lengths, call.factors):
        scale = np.float32(f) if f is not None else np.float32(m) / np.float32(n)
        copies.append(bool(scale == 1) or (antialias and n == m))
    return copies


class Onnx(Library):
    id = "onnx"
    title = "ONNX Resize (ONNX Runtime)"
    options = (
        Option("opset", 19, OPSETS),
        Option("coordinate_transformation_mode", "half_pixel"),
        Option("nearest_mode", "round_prefer_floor", _NEAREST_MODES),
        Option("cubic_coeff_a", -0.75),
        Option("exclude_outside", 0, (0, 1, False, True)),
        Option("antialias", 0, (0, 1, False, True)),
        Option("extrapolation_value", 0.0),
        Option("roi", None, help="(start, end) pairs in normalised coordinates, for tf_crop_and_resize"),
        Option("keep_aspect_ratio_policy", "stretch", ("stretch", "not_larger", "not_smaller")),
    )
    no_gradient = ("ONNX Runtime has no Resize gradient on CPU; its training build registers ResizeGrad only "
                   "for CUDA/ROCm, linear mode without antialias")

    def gradient_error(self, mode, options, dtype=None):
        return None if mode == "linear" and not options["antialias"] else self.no_gradient

    def resolve_options(self, mode, given):
        opset = given.get("opset", 19)
        if opset == 10:
            extra = sorted(set(given) - {"opset"})
            if extra:
                raise ArgumentValueError(f"ONNX Resize-10 has only the 'mode' attribute; {', '.join(extra)} need "
                                 "opset 11 or later")
        return super().resolve_options(mode, given)

    def validate(self, mode, options):
        opset = options["opset"]
        if mode == "cubic" and opset == 10:
            raise ArgumentValueError("ONNX Resize-10 supports mode 'nearest' and 'linear' only; cubic needs opset 11")
        if opset >= 11:
            allowed = _TRANSFORMS[opset]
            if options["coordinate_transformation_mode"] not in allowed:
                raise choice_error("coordinate_transformation_mode", options["coordinate_transformation_mode"],
                                   allowed, context=f"for ONNX Resize-{opset}")
        if opset < 18:
            for name in ("antialias", "keep_aspect_ratio_policy"):
                default = next(o.default for o in self.options if o.name == name)
                if options[name] != default:
                    raise ArgumentValueError(f"{name} needs ONNX opset 18 or later (opset={opset})")
        if options["antialias"] and mode == "nearest":
            raise ArgumentValueError("when anti-aliasing is set, Resize only supports mode `LINEAR` and `CUBIC`.")
        if options["exclude_outside"] and not (mode == "cubic" or (mode == "linear" and options["antialias"])):
            raise ArgumentValueError("exclude_outside can be set to 1 when (1) mode is CUBIC, or (2) mode is LINEAR when "
                             f"anti-aliasing is enabled. Current mode is set to {mode} and anti-aliasing is set "
                             f"to {int(options['antialias'])}")
        if not math.isfinite(float(options["cubic_coeff_a"])):
            raise ArgumentValueError(f"cubic_coeff_a must be finite, got {options['cubic_coeff_a']!r}")

    def spec(self, mode, options):
        if options["opset"] == 10:
            return Spec(kernel=_KERNELS[mode], coordinate_transformation_mode="asymmetric", nearest_mode="simple",
                        index_arithmetic="onnxruntime")
        fields = dict(kernel=_KERNELS[mode],
                      coordinate_transformation_mode=options["coordinate_transformation_mode"],
                      cubic_coeff_a=float(options["cubic_coeff_a"]),
                      exclude_outside=bool(options["exclude_outside"]),
                      antialias=bool(options["antialias"]),
                      extrapolation_value=float(options["extrapolation_value"]),
                      index_arithmetic="onnxruntime")
        if mode == "nearest":
            fields["nearest_mode"] = options["nearest_mode"]
        if fields["antialias"] and fields["coordinate_transformation_mode"] == "align_corners":
            # Note [antialias with align_corners]: the stretch is the sizes' ratio, not (n-1)/(m-1)
            fields["coordinate_transformation_mode"] = "onnx_antialias_align_corners"
        if options["roi"] is not None:
            fields["roi"] = options["roi"]
        return Spec(**fields)

    def rows(self):
        out = [("nearest", {}, "default: half_pixel + round_prefer_floor")]
        for transform in _TRANSFORMS[19]:
            for rule in _NEAREST_MODES:
                if (transform, rule) != ("half_pixel", "round_prefer_floor"):
                    out.append(("nearest", {"coordinate_transformation_mode": transform, "nearest_mode": rule}, ""))
            if transform != "half_pixel":
                out.append(("linear", {"coordinate_transformation_mode": transform}, ""))
                out.append(("cubic", {"coordinate_transformation_mode": transform}, ""))
        out.append(("nearest", {"opset": 11, "coordinate_transformation_mode": "tf_half_pixel_for_nn",
                                "nearest_mode": "floor"}, "opset 11 only"))
        out += [("linear", {}, ""), ("cubic", {}, ""),
                ("cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}, "= TF2/JAX cubic without antialias"),
                ("linear", {"antialias": 1}, "antialias keeping edge-padded taps"),
                ("linear", {"antialias": 1, "exclude_outside": 1}, "= PyTorch/PIL antialiased bilinear"),
                ("cubic", {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1},
                 "= PyTorch/PIL antialiased bicubic"),
                ("nearest", {"opset": 10}, "ONNX Runtime opset-10 rounding"),
                ("linear", {"opset": 10}, "asymmetric")]
        return out

    # ------------------------------------------------------------------ library-level rules
    def output_length(self, n, factor, options):
        with np.errstate(over="ignore"):  # a product beyond float32 is inf, and int(inf) an OverflowError
            return int(np.float32(factor) * np.float32(n))  # static_cast<int64_t>(scales[i] * input_dims[i])

    def kernel_scales(self, call):
        return [None if copy else (float(np.float32(f)) if f is not None else None)
                for copy, f in zip(_copied_axes(call), call.factors)]

    def axis_specs(self, call, spec, scales):
        """Note [unit-scale axes]: the axes ONNX Runtime copies."""
        copy = _COPY.replace(extrapolation_value=spec.extrapolation_value)  # other axes may extrapolate
        return [copy if copied else spec for copied in _copied_axes(call)]

    def output_is_empty(self, call):
        return any(m == 0 for _, m in call.lengths)

    def policy_lengths(self, lengths, options):
        """``keep_aspect_ratio_policy``: one scale for every resized axis, output ``std::round(scale * n)``."""
        policy = options["keep_aspect_ratio_policy"]
        if policy == "stretch":
            return lengths, [None] * len(lengths)
        ratios = [np.float32(m) / np.float32(n) for n, m in lengths]
        scale = min(ratios) if policy == "not_larger" else max(ratios)
        return ([(n, math.floor(float(np.float32(scale * np.float32(n))) + 0.5)) for n, _ in lengths],
                [float(scale)] * len(lengths))


LIBRARY = register(Onnx())

"""OpenVINO ``Interpolate`` (opset 4 and 11) as its CPU plugin computes it, and OpenVINO as a runtime.

Read in openvinotoolkit/openvino ``src/plugins/intel_cpu/src/nodes/interpolate.cpp`` @01277783 and
``src/core/shape_inference/include/interpolate_shape_inference.hpp`` @042888ed; measured against the ``openvino``
2026.4.1 wheel (the op built with ``openvino.opset11.interpolate`` / ``openvino.opset10.interpolate`` -- the
Python factory of Interpolate-4 -- compiled on "CPU" with ``INFERENCE_PRECISION_HINT=f32``).

Modes are the op's: ``nearest``, ``linear``, ``linear_onnx``, ``cubic`` (opset 4 and 11), ``bilinear_pillow``,
``bicubic_pillow`` (opset 11).  Options are its attributes: ``coordinate_transformation_mode``, ``nearest_mode``
(``simple`` included: ceil when the scale is below 1, else truncation), ``cube_coeff``, ``antialias``,
``pads_begin`` / ``pads_end`` (one entry per resized axis: zeros added before resampling), and ``opset``.  A
``size`` is the op's ``sizes`` mode (scale ``m / (n + pads)`` in float32); a ``scale_factor`` its ``scales`` mode
(the given float32 scale steps the kernel; output length ``floor(n * (scale + 1e-6))`` in float32 -- so a scale a
hair below ``k / n`` still gives ``k`` samples, where ONNX gives ``k - 1``).  Coordinates are float32
(``index_arithmetic="openvino"``, explorer.engine.native.openvino for the weights).

Note [linear below 5-D]: the CPU plugin computes Interpolate-4 ``linear`` as ``linear_onnx`` on tensors of rank
below 5 (``Interpolate::Interpolate``: ``dataRank < 5 ? linear_onnx : linear``); the triangle filter of
``linear`` (inputs outside the axis dropped, the rest renormalised) runs on 5-D tensors only.  Here the rank of
the array decides, as it does in the plugin.

Note [antialias]: only ``linear`` on 5-D tensors reads ``antialias``: its triangle is scaled by the axis's scale
on every resized axis, so it widens when shrinking and *narrows* when growing (measured, 2026.4.1; upsampled
axes then read only the inputs within ``1 / scale``).  ``linear_onnx``, ``cubic`` and ``nearest`` ignore it on the
CPU (the ONNX frontend sets it from Resize-18's antialias since 2025.4; the output is the plain resize); the
``*_pillow`` modes always widen their filter when shrinking, whatever it says.

Note [pillow]: ``bilinear_pillow`` / ``bicubic_pillow`` are Pillow's BILINEAR / BICUBIC filters (``a = -0.5``
whatever ``cube_coeff`` says) with Pillow's centres ``(i + 0.5) n / m`` whatever coordinate transform the node
names, and a scale always taken from the sizes (``index_arithmetic="openvino_pillow"``).

Note [integer images]: uint8 and int8 tensors are resampled in float32 and rounded half to even with saturation
(``linear_onnx``, ``cubic``, ``linear``: the JIT kernels' store); the ``*_pillow`` modes accumulate each pass
(the width, then the height) tap by tap with float32 fused multiply-adds and round it half to even, saturated
(``pillow_by_channel``); ``nearest`` copies.  Bit-exact [measured, 2026.4.1].  Other integer types are not
modelled.  float64 (accepted from 2026.4) is computed in float32 by the plugin; the explorer computes it in
float64 (within float32 rounding of the plugin).

Note [bf16 hint]: on CPUs with AVX512_BF16 or AMX the plugin's default ``INFERENCE_PRECISION_HINT`` is bf16: the
input is rounded to bfloat16, resampled in float32 and the output rounded to bfloat16 again (for ``nearest``,
``linear_onnx`` and ``cubic``: ``bf16(resize(bf16(x)))`` exactly, measured on 2026.4.1), about 4e-3 relative.
What is modelled here is the float32 result: compile with ``{"INFERENCE_PRECISION_HINT": "f32"}`` to get it.

>>> from explorer.conventions import preset
>>> preset("openvino", "linear_onnx").index_arithmetic, preset("openvino", "bicubic_pillow").cubic_coeff_a
('openvino', -0.5)
>>> preset("openvino", "nearest", nearest_mode="simple").nearest_mode
'simple'
"""

from __future__ import annotations

import math

import numpy as np

from ...engine import fixed_point
from ...engine.execute import execute
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError, choice_error
from ...versions import parse_version
from ..declarations import Backend, Computation, Runtime
from ..registry import Api, Closest, Library, Option, register
from .onnx import resize_version, write_node

OPSETS = (4, 11)
TRANSFORMS = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
_PILLOW = ("bilinear_pillow", "bicubic_pillow")
_MODES_4 = ("nearest", "linear", "linear_onnx", "cubic")
#: the most axes each mode's CPU executor resamples (cubic and the pillow modes: the last two)
_MOST_AXES = {"nearest": 3, "linear": 3, "linear_onnx": 3, "cubic": 2, "bilinear_pillow": 2, "bicubic_pillow": 2}
#: scales mode: output length floor(n * (scale + SCALE_EPSILON)) in float32 [measured, 2026.4.1]
SCALE_EPSILON = np.float32(1e-6)


def _pairs(options) -> tuple | None:
    begin, end = options["pads_begin"], options["pads_end"]
    if begin is None and end is None:
        return None
    for name, value in (("pads_begin", begin), ("pads_end", end)):
        if value is not None and (isinstance(value, (str, bytes)) or not hasattr(value, "__len__")
                                  or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0
                                             for v in value)):
            raise ArgumentValueError(f"{name}={value!r} is not valid; give a list of non-negative integers, one per "
                                     "resized axis")
    begin = tuple(int(v) for v in begin) if begin is not None else (0,) * len(end)
    end = tuple(int(v) for v in end) if end is not None else (0,) * len(begin)
    if len(begin) != len(end):
        raise ArgumentValueError(f"pads_begin={begin!r} and pads_end={end!r} must have one entry per resized axis "
                                 "each (the same length)")
    return tuple(zip(begin, end))


class OpenVINO(Library):
    id = "openvino"
    title = "OpenVINO Interpolate (CPU plugin)"
    aliases = ("ov", "openvino-cpu", "interpolate")
    order = 35
    mode_names = {"nearest": "nearest-exact", "linear_onnx": "linear", "linear": "linear", "cubic": "cubic",
                  "bilinear_pillow": "linear", "bicubic_pillow": "cubic"}
    mode_aliases = {"bilinear": "linear_onnx", "bicubic": "cubic", "linearonnx": "linear_onnx"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "nearest": Closest("nearest", {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"},
                           "PyTorch's nearest is Interpolate nearest with asymmetric coordinates and floor "
                           "rounding (what OpenVINO's PyTorch frontend writes)"),
        "nearest-exact": Closest("nearest", {"nearest_mode": "round_prefer_ceil"},
                                 "PyTorch's nearest-exact is half_pixel + round_prefer_ceil (OpenVINO's PyTorch "
                                 "frontend has no conversion rule for it; write the Interpolate yourself)"),
        "area": Closest("linear_onnx", {},
                        "Interpolate has no area mode (OpenVINO's PyTorch frontend converts area to "
                        "AdaptiveAvgPool); shown with linear_onnx"),
        "lanczos": Closest("bicubic_pillow", {},
                           "Interpolate has no Lanczos filter: bicubic_pillow, Pillow's antialiased bicubic, is the "
                           "closest it has"),
    }
    toggle_options = {"align_corners": {True: {"coordinate_transformation_mode": "align_corners"},
                                        False: {"coordinate_transformation_mode": "pytorch_half_pixel"}}}
    toggle_notes = {("antialias", True): "OpenVINO's CPU plugin antialiases only bilinear_pillow / bicubic_pillow "
                                         "(what its PyTorch frontend writes for antialias=True); linear_onnx and "
                                         "cubic ignore the attribute (Note [antialias])"}
    shown = {"coordinate_transformation_mode": None, "nearest_mode": ("nearest-exact",), "cube_coeff": ("cubic",)}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("openvino.opset11.interpolate", ("image", "scales_or_sizes", "mode", "shape_calculation_mode",
                                             "pads_begin", "pads_end", "coordinate_transformation_mode",
                                             "nearest_mode", "antialias", "cube_coeff", "axes"),
            defaults={"mode": "linear_onnx", "align_corners": None, "antialias": False},
            aliases=("openvino.runtime.opset11.interpolate",)),
        Api("openvino.opset10.interpolate", ("image", "output_shape", "scales", "mode", "shape_calculation_mode",
                                             "pads_begin", "pads_end", "coordinate_transformation_mode",
                                             "nearest_mode", "antialias", "cube_coeff", "axes"),
            defaults={"mode": "linear_onnx", "align_corners": None, "antialias": False},
            aliases=("openvino.runtime.opset10.interpolate", "openvino.runtime.opset4.interpolate")),
    )
    options = (
        Option("opset", 11, OPSETS, "4: Interpolate-4 (openvino.opset10.interpolate), 11: Interpolate-11"),
        Option("coordinate_transformation_mode", "half_pixel", TRANSFORMS),
        Option("nearest_mode", "round_prefer_floor", NEAREST_MODES),
        Option("cube_coeff", -0.75),
        Option("antialias", False, (False, True)),
        Option("pads_begin", None, help="zeros added before each resized axis (one entry per resized axis)"),
        Option("pads_end", None, help="zeros added after each resized axis (one entry per resized axis)"),
    )
    unsupported = {"shape_calculation_mode": "give size= (sizes) or scale_factor= (scales)",
                   "axes": "give the resized axes as axes=",
                   "inference_precision": "the float32 result is modelled (Note [bf16 hint])"}
    gradient_modes = ()
    no_gradient = ("OpenVINO is an inference runtime: Interpolate has no gradient; "
                   "explorer.library_resize_transpose gives the transpose W^T g of its forward")

    def code(self, mode, options, h, w):
        opset = options.get("opset", 11)
        attrs = "".join(f", {k}={v!r}" for k, v in options.items()
                        if k not in ("opset", "pads_begin", "pads_end") and v is not None)
        pads = "".join(f", {k}=[0, 0, *{list(v)!r}]" for k, v in options.items()
                       if k in ("pads_begin", "pads_end") and v is not None)
        if opset == 4:
            call = (f"ops.interpolate(x, np.array([{h}, {w}], np.int64), np.array([1.0, 1.0], np.float32), "
                    f'mode="{mode}", shape_calculation_mode="sizes"{attrs}{pads}, axes=np.array([2, 3]))')
            module = "openvino.opset10 as ops  # Interpolate-4"
        else:
            call = (f'ops.interpolate(x, np.array([{h}, {w}], np.int64), mode="{mode}", '
                    f'shape_calculation_mode="sizes"{attrs}{pads}, axes=np.array([2, 3]))')
            module = "openvino.opset11 as ops"
        return "python", (f"import {module}\n"
                          f"x = ops.parameter([1, c, height, width], ov.Type.f32)\n"
                          f"y = {call}\n"
                          f'compiled = ov.Core().compile_model(ov.Model([y], [x]), "CPU", '
                          f'{{"INFERENCE_PRECISION_HINT": "f32"}})')

    def validate(self, mode, options):
        if options["opset"] == 4 and mode in _PILLOW:
            raise ArgumentValueError(f"mode={mode!r} needs Interpolate-11 (opset=11); Interpolate-4 has "
                                     f"{', '.join(_MODES_4)}")
        a = options["cube_coeff"]
        if isinstance(a, bool) or not isinstance(a, (int, float, np.floating, np.integer)) or not math.isfinite(a):
            raise ArgumentValueError(f"cube_coeff={a!r} is not valid; give a finite number (OpenVINO's default is "
                                     "-0.75)")
        _pairs(options)

    def spec(self, mode, options):
        pads = _pairs(options)
        transform = options["coordinate_transformation_mode"]
        if mode == "nearest":
            return Spec("nearest", coordinate_transformation_mode=transform, nearest_mode=options["nearest_mode"],
                        index_arithmetic="openvino", pads=pads)
        if mode == "linear_onnx":
            return Spec("linear", coordinate_transformation_mode=transform, index_arithmetic="openvino", pads=pads)
        if mode == "cubic":
            return Spec("cubic", coordinate_transformation_mode=transform, cubic_coeff_a=float(options["cube_coeff"]),
                        index_arithmetic="openvino", pads=pads)
        if mode == "linear":  # Note [linear below 5-D]: this is its 5-D filter
            return Spec("linear", coordinate_transformation_mode=transform, exclude_outside=True,
                        antialias=bool(options["antialias"]), index_arithmetic="openvino", pads=pads)
        kernel = dict(kernel="linear") if mode == "bilinear_pillow" else dict(kernel="cubic", cubic_coeff_a=-0.5)
        return Spec(**kernel, exclude_outside=True, antialias=True, index_arithmetic="openvino_pillow", pads=pads)

    def rows(self):
        out = []
        for transform in TRANSFORMS:
            for rule in NEAREST_MODES:
                out.append(("nearest", {"coordinate_transformation_mode": transform, "nearest_mode": rule},
                            "default" if (transform, rule) == ("half_pixel", "round_prefer_floor") else ""))
            out.append(("linear_onnx", {"coordinate_transformation_mode": transform}, ""))
            out.append(("cubic", {"coordinate_transformation_mode": transform}, ""))
        out += [("cubic", {"cube_coeff": -0.5}, ""),
                ("linear", {}, "5-D tensors only (below 5-D the plugin runs linear_onnx)"),
                ("linear", {"antialias": True}, "5-D: the triangle scaled by the scale, both ways"),
                ("bilinear_pillow", {}, "= Pillow BILINEAR"), ("bicubic_pillow", {}, "= Pillow BICUBIC")]
        return out

    # ------------------------------------------------------------------ sizes
    def output_length(self, n, factor, options):
        with np.errstate(over="ignore"):  # a product beyond float32 is inf, and int(inf) an OverflowError
            return int(np.floor(np.float32(n) * (np.float32(factor) + SCALE_EPSILON)))

    def validate_call(self, call):
        most = _MOST_AXES[call.mode]
        if len(call.axes) > most:
            raise ArgumentValueError(f"OpenVINO's CPU {call.mode} resamples at most {most} axes (the last "
                                     f"{most} of the 5-D form); {len(call.axes)} axes were given")
        pads = _pairs(call.options)
        if pads is not None:
            if len(pads) != len(call.axes):
                raise ArgumentValueError(f"pads_begin / pads_end have {len(pads)} entries but {len(call.axes)} axes "
                                         "are resized; give one entry per resized axis")
            if not call.size_given and any(p != (0, 0) for p in pads):
                raise ArgumentValueError("pads with scale_factor are not modelled (the output length would be "
                                         "floor((n + pads) * scale)); give size= instead")
        if call.dtype.kind in "iu" and call.dtype not in (np.dtype(np.uint8), np.dtype(np.int8)) \
                and call.mode != "nearest":
            raise ArgumentTypeError(f"OpenVINO {call.mode}: {call.dtype} input is not modelled (uint8 and int8 are; "
                                    "Note [integer images]); convert with x.astype(np.float32)")

    # ------------------------------------------------------------------ weights
    def call_spec(self, call):
        if call.mode == "linear" and len(call.shape) < 5:  # Note [linear below 5-D]
            return self.spec("linear_onnx", call.options)
        return self.spec(call.mode, call.options)

    def kernel_scales(self, call):
        if call.mode in _PILLOW:  # always m / n from the sizes
            return [None] * len(call.lengths)
        return [None if f is None else float(np.float32(f)) for f in call.factors]

    def pass_order(self, call):
        """The pillow modes resample the width, then the height (their uint8 passes round in between)."""
        return list(range(len(call.lengths)))[::-1] if call.mode in _PILLOW else None

    def resize_integer(self, call, x, plans, specs):
        """Note [integer images]."""
        if x.dtype not in (np.dtype(np.uint8), np.dtype(np.int8)):
            return super().resize_integer(call, x, plans, specs)
        info = np.iinfo(x.dtype)
        if call.mode in _PILLOW:
            return fixed_point.float32_fma_passes(x, [plans[k] for k in self.pass_order(call)])
        y = execute(x.astype(np.float32), plans)
        return np.clip(np.rint(y), info.min, info.max).astype(x.dtype)


LIBRARY = register(OpenVINO())


# ------------------------------------------------------------------------------------------------ the ONNX frontend
def onnx_interpolate(mode: str, attributes: dict, opset: int, version: str | None = None) -> tuple[str, dict]:
    """``(Interpolate mode, attributes)`` OpenVINO's ONNX frontend writes for a Resize node (``attributes`` as in
    the node, ``opset`` the model's, ``version`` the openvino release; None: the newest checked).

    Resize-10 becomes nearest with ``simple`` rounding (linear: linear_onnx), asymmetric; Resize-11+ maps one to
    one (nearest, linear -> linear_onnx, cubic; the transform; nearest_mode; cubic_coeff_a -> cube_coeff) and
    refuses tf_crop_and_resize and half_pixel_symmetric; exclude_outside, extrapolation_value and
    keep_aspect_ratio_policy are not read, and antialias only from 2025.4 [measured: read_model(...).get_ops()
    on 2026.4.1; openvinotoolkit/openvino src/frontends/onnx/frontend/src/op/resize.cpp @019873bb].

    >>> mode, attributes = onnx_interpolate("cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}, 13)
    >>> mode, attributes["cube_coeff"], attributes["antialias"], "exclude_outside" in attributes
    ('cubic', -0.5, False, False)
    """
    target = {"nearest": "nearest", "linear": "linear_onnx", "cubic": "cubic"}
    if mode not in target:
        raise choice_error("mode", mode, target, context="for an ONNX Resize node")
    if resize_version(opset) == 10:
        return target[mode], {"coordinate_transformation_mode": "asymmetric",
                              "nearest_mode": "simple" if mode == "nearest" else "round_prefer_floor",
                              "cube_coeff": -0.75, "antialias": False}
    transform = attributes.get("coordinate_transformation_mode", "half_pixel")
    if transform not in TRANSFORMS:
        raise ArgumentValueError(f"{transform} - this type of coordinate transformation mode is not supported. "
                                 "Choose one of the following modes: tf_half_pixel_for_nn, asymmetric, align_corners, "
                                 "pytorch_half_pixel, half_pixel")
    reads_antialias = version is None or parse_version(version) >= parse_version("2025.4")
    return target[mode], {"coordinate_transformation_mode": transform,
                          "nearest_mode": attributes.get("nearest_mode", "round_prefer_floor"),
                          "cube_coeff": float(attributes.get("cubic_coeff_a", -0.75)),
                          "antialias": bool(attributes.get("antialias", 0)) and reads_antialias}


# ------------------------------------------------------------------------------------------------ the runtime
def _device(q):
    if q.device not in (None, "cpu"):
        raise ArgumentValueError(f"OpenVINO's {q.device.upper()} plugin is not modelled (not run); the CPU plugin "
                                 "is")


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    _device(q)
    options = {}
    if q.align_corners and q.mode != "nearest":
        options["coordinate_transformation_mode"] = "align_corners"
    if q.antialias and q.mode == "linear":
        options["antialias"] = True
    return Computation("openvino", q.mode, options)


def _computes_onnx(q, spatial=None, out=None, intended=True) -> Computation:
    """An ONNX Resize read by the ONNX frontend and run on the CPU plugin (:func:`onnx_interpolate`)."""
    _device(q)
    attributes = {"coordinate_transformation_mode": "align_corners"} if q.align_corners and q.mode != "nearest" \
        else {}
    if q.antialias:
        attributes["antialias"] = 1
    mode, attrs = onnx_interpolate(q.mode, attributes, q.opset if q.opset is not None else 13, q.version)
    options = {k: v for k, v in attrs.items() if k != "antialias"}  # Note [antialias]: the CPU ignores it here
    if mode != "nearest":
        options.pop("nearest_mode")
    if mode != "cubic":
        options.pop("cube_coeff")
    return Computation("openvino", mode, options)


def _writes(q, h, w, size, scale_factor):
    return LIBRARY.code(q.mode, {}, h, w)


RUNTIME = register(Runtime(
    id="openvino", title="OpenVINO", order=65,
    backends=(Backend("openvino", "OpenVINO Interpolate (opset 4/11) compiled by a device plugin",
                      ("cpu", "gpu", "npu"), "python", aliases=("ov", "openvino-cpu"), spelling="openvino",
                      computes=_computes, writes=_writes),
              Backend("openvino-onnx", "an ONNX Resize read by OpenVINO's ONNX frontend (read_model), run by a device "
                      "plugin", ("cpu", "gpu", "npu"), "onnx", aliases=("ov-onnx",), spelling="onnx",
                      computes=_computes_onnx, writes=write_node)),
    words=("openvino", "openvinotoolkit", "intel_cpu", "ov::"),
    version_markers=("openvino==", "openvino version: ", "openvino-")))

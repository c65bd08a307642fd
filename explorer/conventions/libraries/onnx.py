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

Note [bfloat16]: ONNX Runtime 1.32's CPU provider registers no bfloat16 Resize kernel: a session with a
bfloat16 Resize fails to build ("NOT_IMPLEMENTED : Could not find an implementation for Resize(19) node")
[measured]; the explorer refuses it with that reason.

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

from ... import validate
from ...engine.spec import Spec
from ...errors import ArgumentValueError, UnsupportedError, choice_error
from ..declarations import Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register

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
    aliases = ("onnxruntime", "ort")
    order = 30
    mode_names = {"nearest": "nearest-exact", "linear": "linear", "cubic": "cubic"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "lanczos": Closest(
            "cubic", {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1},
            "ONNX Resize has no Lanczos filter (and torch.onnx cannot export lanczos): antialiased cubic with "
            "cubic_coeff_a=-0.5 and exclude_outside=1, PyTorch's antialiased bicubic, is the closest it has"),
        "area": Closest(
            "adaptive_avg_pool2d", {},
            "ONNX Resize has no area mode: torch.onnx's dynamo exporter writes area as adaptive_avg_pool2d "
            "decomposed into Gather/Where/Div nodes, which ONNX Runtime computes as PyTorch does (measured with "
            "torch 2.13 and ONNX Runtime 1.32: 6e-8 on 9×13 → 4×5); shown with PyTorch's area",
            runs=("torch", "area", {}), no_gradient="the exported area graph is run forward by ONNX Runtime; its "
                                                    "gradient is not modelled"),
    }
    toggle_options = {"align_corners": {True: {"coordinate_transformation_mode": "align_corners"},
                                        False: {"coordinate_transformation_mode": "half_pixel"}},
                      "antialias": {True: {"antialias": 1}, False: {"antialias": 0}}}
    shown = {"coordinate_transformation_mode": None, "nearest_mode": ("nearest-exact",),
             "cubic_coeff_a": ("cubic",), "exclude_outside": ("cubic",), "antialias": ("linear", "cubic")}
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


    def code(self, mode, options, h, w):
        if mode == "adaptive_avg_pool2d":
            return "python", ("torch.onnx.export(model, (x,), \"model.onnx\", dynamo=True)\n"
                              "# F.interpolate(mode=\"area\") has no Resize node: it is exported as "
                              "adaptive_avg_pool2d decomposed into Gather/Where/Div nodes")
        attrs = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", (f'node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="{mode}"{attrs})\n'
                          f"# sizes: an int64 initializer [n, c, {h}, {w}]")

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

    def validate_call(self, call):
        """Note [bfloat16]."""
        if validate.is_bfloat16(call.dtype):
            raise UnsupportedError(
                f"ONNX Runtime has no bfloat16 Resize on CPU: creating the session fails with "
                f"\"[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for "
                f"Resize({resize_version(call.options['opset'])}) node\" (measured, ONNX Runtime 1.32); "
                "cast to float32 before the Resize")

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


# ------------------------------------------------------------------------------------------------ the runtime
_ONNX_NEAREST = {"nearest": ("asymmetric", "floor"), "nearest-exact": ("half_pixel", "round_prefer_ceil")}


def resize_node_code(family: str, align_corners=None, antialias=False) -> str:
    """ONNX ``Resize`` attributes for a PyTorch-convention mode family.

    >>> resize_node_code("nearest-exact")
    'Resize(mode="nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")'
    """
    if family in _ONNX_NEAREST:
        transform, rounding = _ONNX_NEAREST[family]
        return f'Resize(mode="nearest", coordinate_transformation_mode="{transform}", nearest_mode="{rounding}")'
    mode = {"linear": "linear", "cubic": "cubic"}.get(family, family)
    transform = "align_corners" if align_corners else "half_pixel"
    attrs = [f'mode="{mode}"', f'coordinate_transformation_mode="{transform}"']
    if mode == "cubic":
        attrs.append(f"cubic_coeff_a={-0.5 if antialias else -0.75}")
    if antialias:
        attrs += ["antialias=1", "exclude_outside=1"]
    return "Resize(" + ", ".join(attrs) + ")"


def write_node(q, h, w, size, scale_factor):
    """The ``Resize`` node a backend that runs ONNX nodes is given for a question."""
    return "onnx", resize_node_code(q.family, q.align_corners, q.antialias)


def resize_version(opset: int) -> int:
    """The ``Resize`` operator version in force at an opset (ValueError before opset 10)."""
    versions = [v for v in OPSETS if v <= opset]
    if not versions:
        raise ArgumentValueError(f"opset {opset} has no Resize operator (it starts at opset 10)")
    return versions[-1]


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    options = {}
    if q.opset is not None:
        options["opset"] = resize_version(q.opset)
    if q.align_corners and q.mode != "nearest":
        options["coordinate_transformation_mode"] = "align_corners"
    if q.antialias:
        options["antialias"] = 1
    for name, value in q.attributes:  # the node's own attributes, when the question gives them
        if name != "nearest_mode" or q.mode == "nearest":
            options[name] = value
    return Computation("onnx", q.mode, options)


def node_spec(q, **fixed) -> Spec:
    """The Spec of the ``Resize`` node a question describes: its ``attributes`` (``Question.attributes``),
    else ONNX's defaults, with ``align_corners=True`` read as ``coordinate_transformation_mode="align_corners"``;
    ``fixed`` overrides what a runtime hard-codes (MNN's ``cubic_coeff_a=-0.75``).  Run as a bare Spec, the
    engine samples with ``in/out`` of the integer sizes (what runtimes that turn ``scales`` into sizes first,
    TVM, OpenCV DNN, MNN, compute).

    >>> from explorer.advisor.question import Question
    >>> node_spec(Question.of(mode="nearest", backend="tvm-relay", attributes={"nearest_mode": "floor"})).nearest_mode
    'floor'
    """
    kernel = _KERNELS.get(q.mode) or {"nearest": "nearest", "nearest-exact": "nearest", "linear": "linear",
                                      "cubic": "cubic"}.get(q.family)
    if kernel is None:
        raise ArgumentValueError(f"{q.backend.id} has no ONNX Resize mode for {q.mode!r}")
    attrs = dict(q.attributes)
    transform = attrs.get("coordinate_transformation_mode") or ("align_corners" if q.align_corners else "half_pixel")
    fields = dict(kernel=kernel, coordinate_transformation_mode=transform,
                  cubic_coeff_a=float(attrs.get("cubic_coeff_a", -0.75)),
                  exclude_outside=bool(attrs.get("exclude_outside", 0)),
                  extrapolation_value=float(attrs.get("extrapolation_value", 0.0)))
    if kernel == "nearest":
        fields["nearest_mode"] = attrs.get("nearest_mode", "round_prefer_floor")
    fields.update(fixed)
    if kernel != "nearest":
        fields.pop("nearest_mode", None)
    return Spec(**fields)


def _ep(backend_id, description, devices, aliases=()):
    """An execution provider of ONNX Runtime: it runs the node (or hands it to the next provider); what it
    computes is not modelled (nothing was run on its device), its records say where it refuses or differs."""
    return Backend(backend_id, description, devices, "onnx", aliases=aliases, spelling="onnx", writes=write_node,
                   runs_nodes=True)


RUNTIME = register(Runtime(
    id="onnxruntime", title="ONNX Runtime", order=40,
    backends=(Backend("onnxruntime", "ONNX Resize run by ONNX Runtime", ("cpu", "cuda", "rocm"), "onnx",
                      aliases=("ort", "onnx", "onnxruntime-cpu", "cpuexecutionprovider"), spelling="onnx", computes=_computes,
                      writes=write_node, runs_nodes=True),
              _ep("onnxruntime-cuda", "ONNX Runtime's CUDA execution provider", ("cuda",),
                  ("ort-cuda", "cudaexecutionprovider", "onnxruntime-gpu")),
              _ep("onnxruntime-rocm", "ONNX Runtime's ROCm execution provider (removed in 1.23)", ("rocm",),
                  ("ort-rocm", "rocmexecutionprovider")),
              _ep("onnxruntime-directml", "ONNX Runtime's DirectML execution provider (Windows GPUs)", ("gpu",),
                  ("ort-dml", "dml", "dmlexecutionprovider", "onnxruntime-dml")),
              _ep("onnxruntime-coreml", "ONNX Runtime's CoreML execution provider (Apple)", ("cpu", "gpu", "ane"),
                  ("ort-coreml", "coremlexecutionprovider")),
              _ep("onnxruntime-js", "onnxruntime-web's WebGPU backend (JSEP)", ("gpu",),
                  ("jsep", "onnxruntime-web-webgpu", "onnxruntime-web")),
              _ep("onnxruntime-webgpu", "ONNX Runtime's native WebGPU execution provider (1.22+)", ("gpu",),
                  ("webgpuexecutionprovider",)),
              _ep("onnxruntime-webgl", "onnxruntime-web's WebGL backend", ("gpu",), ("onnxruntime-web-webgl",)),
              _ep("onnxruntime-nnapi", "ONNX Runtime's NNAPI execution provider (Android)", ("npu",),
                  ("nnapiexecutionprovider",)),
              _ep("onnxruntime-xnnpack", "ONNX Runtime's XNNPACK execution provider", ("cpu",),
                  ("xnnpackexecutionprovider",)),
              _ep("onnxruntime-migraphx", "ONNX Runtime's MIGraphX execution provider (AMD GPUs)", ("rocm",),
                  ("migraphxexecutionprovider",)),
              _ep("onnxruntime-tensorrt", "ONNX Runtime's TensorRT execution provider", ("cuda",),
                  ("ort-trt", "tensorrtexecutionprovider")),
              _ep("onnxruntime-openvino", "ONNX Runtime's OpenVINO execution provider", ("cpu", "gpu", "npu"),
                  ("openvinoexecutionprovider",))),
    words=("onnxruntime", "onnxruntimeerror", "ort", "onnxruntime_pybind11_state", "directml", "dmlexecutionprovider",
           "jsep", "webgpu", "webgl", "webglinferencehandler", "nnapi", "xnnpack", "executionprovider",
           "sequential_executor", "coremlexecutionprovider", "cudaexecutionprovider"),
    version_markers=("onnxruntime==", "onnxruntime version: ", "/onnxruntime-")))

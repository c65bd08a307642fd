"""The probe's framework cases: one resize *call* of a framework (``F.interpolate``, ``tf.image.resize``, ...), as data.

A call case is a plain dict like an ONNX case (:mod:`explorer.probe.cases`), with ``kind`` naming the adapter
family that runs it and, instead of a node, the call in the explorer's words: ``library`` (the explorer library
whose computation the output is compared with, :func:`explorer.library_resize`), ``mode`` (that library's mode
name, which is also the framework's), ``options`` (the library's options: ``align_corners``, ``antialias`` ...),
``input_shape``, ``dtype``, ``size`` (the resized axes' lengths) or ``scale_factor``, ``axes`` (the resized axes)
and ``output_shape``.  ``train`` says whether the adapter takes the gradient of ``sum(Y * G)``.  Export cases
(kind ``torch-onnx``) add ``exporter`` (``torchscript``/``dynamo``) and ``opset``.

Pruning rule, as in :mod:`explorer.probe.cases`: a full product of the options that interact (mode x
align_corners x antialias) over four geometries (non-integer up and down, by size and by scale factor) in
float32 with the gradient; one factor at a time elsewhere (dtypes, ranks, size 1, recompute_scale_factor).

>>> table = torch_cases()
>>> c = by_id(table)["torch/bilinear/align_corners/float32/up-size"]
>>> c["input_shape"], c["size"], c["output_shape"], c["train"]
([1, 2, 5, 7], [8, 11], [1, 2, 8, 11], True)
>>> len({c["id"] for c in torch_onnx_cases()}) == len(torch_onnx_cases())
True
"""

from __future__ import annotations

import math

#: name -> (input shape, "size"|"scale_factor", value): 2-D spatial, N=1, C=2
GEOMETRIES_2D = {
    "up-size": ([1, 2, 5, 7], "size", [8, 11]),
    "down-size": ([1, 2, 9, 13], "size", [4, 6]),
    "up-scale": ([1, 2, 4, 5], "scale_factor", 1.5),
    "down-scale": ([1, 2, 10, 9], "scale_factor", 0.6),
}
TORCH_DTYPES = ("float16", "bfloat16", "float64", "uint8")
#: (mode, options) of F.interpolate in 2-D: every mode, align_corners where it applies, antialias where it applies
TORCH_2D = (
    ("nearest", {}), ("nearest-exact", {}), ("area", {}),
    ("bilinear", {}), ("bilinear", {"align_corners": True}), ("bilinear", {"antialias": True}),
    ("bilinear", {"antialias": True, "align_corners": True}),
    ("bicubic", {}), ("bicubic", {"align_corners": True}), ("bicubic", {"antialias": True}),
    ("bicubic", {"antialias": True, "align_corners": True}),
    ("lanczos", {"antialias": True}),
)
TORCH_1D = (("nearest", {}), ("nearest-exact", {}), ("area", {}), ("linear", {}), ("linear", {"align_corners": True}))
TORCH_3D = (("nearest", {}), ("nearest-exact", {}), ("area", {}), ("trilinear", {}),
            ("trilinear", {"align_corners": True}))
#: the F.interpolate calls exported to ONNX (2-D; trilinear in 3-D)
EXPORTED = (("nearest", {}), ("nearest-exact", {}), ("bilinear", {}), ("bilinear", {"align_corners": True}),
            ("bilinear", {"antialias": True}), ("bicubic", {}), ("bicubic", {"align_corners": True}),
            ("area", {}))
TORCHSCRIPT_OPSETS = tuple(range(9, 21))
DYNAMO_OPSETS = (17, 18, 20, 21, 23)


def _short(options: dict) -> str:
    parts = []
    if options.get("align_corners"):
        parts.append("align_corners")
    if options.get("antialias"):
        parts.append("aa")
    if options.get("recompute_scale_factor"):
        parts.append("recompute")
    if options.get("antialias") is False:
        parts.append("no-aa")
    if options.get("version") == 1:
        parts.insert(0, "v1")
    if options.get("half_pixel_centers"):
        parts.append("half_pixel_centers")
    return "+".join(parts) or "default"


def output_shape(input_shape, how, value, axes) -> list[int]:
    """The output shape a call asks for: the sizes, or floor(n * scale_factor) in double (PyTorch's rule)."""
    out = list(input_shape)
    for k, a in enumerate(axes):
        if how == "size":
            out[a] = int(value[k])
        else:
            factor = value[k] if isinstance(value, (list, tuple)) else value
            out[a] = int(math.floor(float(input_shape[a]) * float(factor)))
    return out


def call_case(kind, library, mode, options, geometry, dtype="float32", group=None, tag="", train=None,
              axes=None, prefix=None, **extra) -> dict:
    """One call case (see the module docstring); ``geometry`` is a name of :data:`GEOMETRIES_2D` or a
    ``(shape, how, value)`` triple."""
    shape, how, value = geometry if isinstance(geometry, tuple) else GEOMETRIES_2D[geometry]
    name = tag or geometry
    spatial = len(shape) - 2
    axes = list(axes) if axes is not None else list(range(2, 2 + spatial))
    train = (dtype in ("float32", "float64")) if train is None else train
    group = group or kind
    head = prefix or kind
    case = {"id": f"{head}/{mode}/{_short(options)}/{dtype}/{name}", "kind": kind, "group": group,
            "library": library, "mode": mode, "options": dict(options), "input_shape": list(shape), "dtype": dtype,
            "size": list(value) if how == "size" else None,
            "scale_factor": value if how == "scale_factor" else None, "axes": axes, "train": train,
            "wrapped": False, "attributes": {}}
    case.update(extra)
    case["output_shape"] = output_shape(shape, how, value, axes)
    return case


def torch_cases() -> list[dict]:
    """``F.interpolate``: every 2-D mode/option x the four geometries (float32, with the gradient); each mode in
    float16/bfloat16/float64/uint8 up and down by size; 1-D and 3-D modes up and down; an output of length 1;
    ``recompute_scale_factor=True`` with a non-integer factor."""
    out = []
    for mode, options in TORCH_2D:
        for geometry in GEOMETRIES_2D:
            out.append(call_case("torch", "torch", mode, options, geometry))
        out.append(call_case("torch", "torch", mode, options, ([1, 2, 7, 6], "size", [1, 1]), tag="7x6-to-1x1"))
        if mode not in ("area", "lanczos") and not options.get("antialias"):
            out.append(call_case("torch", "torch", mode, {**options, "recompute_scale_factor": True},
                                 ([1, 2, 4, 5], "scale_factor", 1.7), tag="up-scale1.7"))
    for dtype in TORCH_DTYPES:
        for mode, options in TORCH_2D:
            for geometry in ("up-size", "down-size"):
                out.append(call_case("torch", "torch", mode, options, geometry, dtype=dtype))
    for mode, options in TORCH_1D:
        out.append(call_case("torch", "torch", mode, options, ([1, 2, 7], "size", [11]), tag="1d-up"))
        out.append(call_case("torch", "torch", mode, options, ([1, 2, 13], "size", [5]), tag="1d-down"))
    for mode, options in TORCH_3D:
        out.append(call_case("torch", "torch", mode, options, ([1, 1, 4, 5, 6], "size", [6, 7, 9]), tag="3d-up"))
        out.append(call_case("torch", "torch", mode, options, ([1, 1, 7, 8, 9], "size", [3, 4, 5]), tag="3d-down"))
    return out


def torch_export_cases() -> list[dict]:
    """``torch.export.export`` of every 2-D :data:`TORCH_2D` call x the four geometries, and the 1-D and 3-D
    modes up and down (float32; the exported program run, and decomposed to the core ATen op set)."""
    out = []
    for mode, options in TORCH_2D:
        for geometry in GEOMETRIES_2D:
            out.append(call_case("torch-export", "torch", mode, options, geometry, train=False))
    for mode, options in TORCH_1D:
        out.append(call_case("torch-export", "torch", mode, options, ([1, 2, 7], "size", [11]), tag="1d-up",
                             train=False))
        out.append(call_case("torch-export", "torch", mode, options, ([1, 2, 13], "size", [5]), tag="1d-down",
                             train=False))
    for mode, options in TORCH_3D:
        out.append(call_case("torch-export", "torch", mode, options, ([1, 1, 4, 5, 6], "size", [6, 7, 9]),
                             tag="3d-up", train=False))
        out.append(call_case("torch-export", "torch", mode, options, ([1, 1, 7, 8, 9], "size", [3, 4, 5]),
                             tag="3d-down", train=False))
    return out


def torch_onnx_cases() -> list[dict]:
    """``torch.onnx.export`` of :data:`EXPORTED` calls: the TorchScript exporter at every opset 9-20 (down by a
    size, and up by a non-integer scale factor), the dynamo exporter at :data:`DYNAMO_OPSETS` (down by a size);
    trilinear 3-D at each exporter's opsets too."""
    out = []
    for exporter, opsets, geometries in (("torchscript", TORCHSCRIPT_OPSETS, ("down-size", "up-scale")),
                                         ("dynamo", DYNAMO_OPSETS, ("down-size",))):
        for opset in opsets:
            prefix = f"torch-onnx/{exporter}/opset{opset}"
            for mode, options in EXPORTED:
                for geometry in geometries:
                    out.append(call_case("torch-onnx", "torch", mode, options, geometry, train=False,
                                         prefix=prefix, exporter=exporter, opset=opset))
            out.append(call_case("torch-onnx", "torch", "trilinear", {}, ([1, 1, 7, 8, 9], "size", [3, 4, 5]),
                                 tag="3d-down", train=False, prefix=prefix, exporter=exporter, opset=opset))
    return out


#: NHWC geometries (TensorFlow, Keras channels_last, LiteRT): name -> (input shape, "size", lengths)
GEOMETRIES_NHWC = {
    "up-size": ([1, 5, 7, 2], "size", [8, 11]),
    "down-size": ([1, 9, 13, 2], "size", [4, 6]),
    "7x6-to-1x1": ([1, 7, 6, 2], "size", [1, 1]),
}
TF_MODES = ("nearest", "bilinear", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
TF_ANTIALIASED = ("bilinear", "bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
#: tf.compat.v1.image.resize_* (version 1) with align_corners / half_pixel_centers
TF_V1 = tuple((mode, {"version": 1, **flags}) for mode in ("nearest", "bilinear", "bicubic", "area")
              for flags in ({}, {"align_corners": True}, {"half_pixel_centers": True})
              if not (mode == "area" and flags.get("half_pixel_centers")))
#: ``tf.function(jit_compile=True)`` around the call and its gradient (``variant="xla"``): the methods, the
#: antialiased bilinear (ScaleAndTranslate) and the v1 bilinear with align_corners / half_pixel_centers
TF_XLA = (("nearest", {}), ("bilinear", {}), ("bilinear", {"antialias": True}), ("bicubic", {}), ("area", {}),
          ("lanczos3", {}), ("bilinear", {"version": 1, "align_corners": True}),
          ("bilinear", {"version": 1, "half_pixel_centers": True}))
#: the second derivative through the gradient op by nested ``tf.GradientTape`` (``variant="second-order"``)
TF_SECOND_ORDER = ("nearest", "bilinear", "bicubic", "area")
JAX_METHODS = ("nearest", "linear", "cubic", "lanczos3", "lanczos5")
#: methods of later releases (cubic-pytorch from 0.10.0, area from 0.10.1) and their options: an older release
#: measures the refusal
JAX_LATER_METHODS = (("cubic-pytorch", ({}, {"antialias": False})), ("area", ({},)))
REDUCED_AND_INTEGER = ("float16", "bfloat16", "float64", "uint8")


def tensorflow_cases() -> list[dict]:
    """``tf.image.resize`` (NHWC): every method x antialias where it applies, up, down and to 1x1, float32 with
    the gradient; every method in float16/bfloat16/float64/uint8 up and down; the v1 functions
    (``tf.compat.v1.image.resize_*``) with align_corners and half_pixel_centers, up and down; the calls of
    :data:`TF_XLA` compiled by XLA, up and down with the gradient; the second derivative of each mode of
    :data:`TF_SECOND_ORDER`, up.  A case with a ``variant`` answers only a question about that variant."""
    out = []
    configurations = [(m, {}) for m in TF_MODES] + [(m, {"antialias": True}) for m in TF_ANTIALIASED]
    for mode, options in configurations:
        for name, geometry in GEOMETRIES_NHWC.items():
            out.append(call_case("tensorflow", "tensorflow", mode, options, geometry, tag=name, axes=(1, 2)))
        for dtype in REDUCED_AND_INTEGER:
            for name in ("up-size", "down-size"):
                out.append(call_case("tensorflow", "tensorflow", mode, options, GEOMETRIES_NHWC[name], dtype=dtype,
                                     tag=name, axes=(1, 2)))
    for mode, options in TF_V1:
        for name in ("up-size", "down-size"):
            out.append(call_case("tensorflow", "tensorflow", mode, options, GEOMETRIES_NHWC[name], tag=name,
                                 axes=(1, 2), prefix="tensorflow/v1"))
    for mode, options in TF_XLA:
        for name in ("up-size", "down-size"):
            head = "tensorflow/xla/v1" if options.get("version") == 1 else "tensorflow/xla"
            out.append(call_case("tensorflow", "tensorflow", mode, options, GEOMETRIES_NHWC[name], tag=name,
                                 axes=(1, 2), prefix=head, variant="xla"))
    for mode in TF_SECOND_ORDER:
        out.append(call_case("tensorflow", "tensorflow", mode, {}, GEOMETRIES_NHWC["up-size"], tag="up-size",
                             axes=(1, 2), prefix="tensorflow/second-order", variant="second-order"))
    return out


def jax_cases() -> list[dict]:
    """``jax.image.resize`` under ``jax.jit`` (NCHW, the shape naming every axis): every method x antialias,
    up, down and to 1x1 in float32 with ``jax.grad``; every method in float16/bfloat16/float64/uint8 up and down;
    ``jax.image.scale_and_translate`` with the scale m/n and no translation (the same resize) for each method,
    up and down; the later methods (:data:`JAX_LATER_METHODS`) up and down in float32 with ``jax.grad``."""
    out = []
    for method in JAX_METHODS:
        for options in ({}, {"antialias": False}) if method != "nearest" else ({},):
            for geometry in ("up-size", "down-size"):
                out.append(call_case("jax", "jax", method, options, geometry, call="resize"))
            out.append(call_case("jax", "jax", method, options, ([1, 2, 7, 6], "size", [1, 1]), tag="7x6-to-1x1",
                                 call="resize"))
            for dtype in REDUCED_AND_INTEGER:
                for geometry in ("up-size", "down-size"):
                    out.append(call_case("jax", "jax", method, options, geometry, dtype=dtype, call="resize"))
            for geometry in ("up-size", "down-size"):
                out.append(call_case("jax", "jax", method, options, geometry, call="scale_and_translate",
                                     prefix="jax/scale_and_translate"))
    for method, variants in JAX_LATER_METHODS:
        for options in variants:
            for geometry in ("up-size", "down-size"):
                out.append(call_case("jax", "jax", method, options, geometry, call="resize"))
    return out


KERAS_BACKENDS = ("tensorflow", "jax", "torch")
KERAS_MODES = ("nearest", "bilinear", "bicubic", "lanczos3", "lanczos5", "area")
KERAS_ANTIALIASED = ("bilinear", "bicubic", "lanczos3")


def keras_cases() -> list[dict]:
    """Keras 3 on each backend (kind ``keras-<backend>``, channels_last): ``keras.ops.image.resize`` with every
    interpolation (x antialias where it applies) up, down and to 1x1, and uint8 up and down; ``layers.Resizing``
    with the same configurations up and down; ``layers.UpSampling2D`` nearest and bilinear by 2 and 3; nearest
    on a 4-channel image (the torch backend's channels-last kernel).  The same case on the three backends
    differs only in ``options["backend"]``: the explorer computes each with that backend's convention."""
    out = []
    configurations = [(m, {}) for m in KERAS_MODES] + [(m, {"antialias": True}) for m in KERAS_ANTIALIASED]
    for backend in KERAS_BACKENDS:
        kind = f"keras-{backend}"
        for mode, options in configurations:
            opts = {"backend": backend, **options}
            for name, geometry in GEOMETRIES_NHWC.items():
                out.append(call_case(kind, "keras", mode, opts, geometry, tag=name, axes=(1, 2), train=False,
                                     group="keras", prefix=f"{kind}/ops.image.resize", call="ops.image.resize"))
                if name != "7x6-to-1x1":
                    out.append(call_case(kind, "keras", mode, opts, geometry, tag=name, axes=(1, 2), train=False,
                                         group="keras", prefix=f"{kind}/layers.Resizing", call="layers.Resizing"))
            if not options:
                for name in ("up-size", "down-size"):
                    out.append(call_case(kind, "keras", mode, opts, GEOMETRIES_NHWC[name], dtype="uint8", tag=name,
                                         axes=(1, 2), train=False, group="keras",
                                         prefix=f"{kind}/ops.image.resize", call="ops.image.resize"))
        for mode in ("nearest", "bilinear"):
            for factor in (2, 3):
                out.append(call_case(kind, "keras", mode, {"backend": backend, "layer": "UpSampling2D"},
                                     ([1, 4, 5, 2], "size", [4 * factor, 5 * factor]), tag=f"x{factor}",
                                     axes=(1, 2), train=False, group="keras", prefix=f"{kind}/layers.UpSampling2D",
                                     call="layers.UpSampling2D"))
        for name, geometry in (("4ch-up", ([1, 5, 7, 4], "size", [8, 11])),
                               ("4ch-down", ([1, 9, 13, 4], "size", [4, 6]))):
            out.append(call_case(kind, "keras", "nearest", {"backend": backend}, geometry, tag=name, axes=(1, 2),
                                 train=False, group="keras", prefix=f"{kind}/ops.image.resize",
                                 call="ops.image.resize"))
    return out


LITERT_FLAGS = ({}, {"align_corners": True}, {"half_pixel_centers": True},
                {"align_corners": True, "half_pixel_centers": True})


def litert_cases() -> list[dict]:
    """LiteRT through TensorFlow's converter: ``RESIZE_BILINEAR`` and ``RESIZE_NEAREST_NEIGHBOR`` (from
    ``tf.compat.v1.image.resize_bilinear`` / ``resize_nearest_neighbor``) x every align_corners /
    half_pixel_centers pair x the interpreter's default kernels (XNNPACK) and its builtin kernels, float32 and
    full-integer int8, up, down and to 1x1 (NHWC)."""
    out = []
    for mode in ("RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"):
        for flags in LITERT_FLAGS:
            for kernels in ("xnnpack", "builtin"):
                for dtype in ("float32", "int8"):
                    for name, geometry in GEOMETRIES_NHWC.items():
                        tag = f"{kernels}/{name}"
                        out.append(call_case("litert", "litert", mode, {**flags, "kernels": kernels}, geometry,
                                             dtype=dtype, tag=tag, axes=(1, 2), train=False))
    return out


#: NHWC geometries by a scale factor (MLX's Upsample takes a factor only)
GEOMETRIES_NHWC_SCALE = {
    "x2-scale": ([1, 4, 5, 2], "scale_factor", 2.0),
    "up-scale": ([1, 4, 6, 2], "scale_factor", 1.5),
    "down-scale": ([1, 10, 9, 2], "scale_factor", 0.6),
}


def mlx_cases() -> list[dict]:
    """``mlx.nn.Upsample`` (channels last): nearest, linear and cubic x align_corners and antialias where they
    apply, by an integer, a non-integer up and a down factor, float32 with ``mx.grad``; float16 and bfloat16
    by the non-integer factors."""
    out = []
    configurations = (("nearest", {}), ("linear", {}), ("linear", {"align_corners": True}),
                      ("linear", {"antialias": True}), ("cubic", {}), ("cubic", {"align_corners": True}),
                      ("cubic", {"antialias": True}))
    for mode, options in configurations:
        for name, geometry in GEOMETRIES_NHWC_SCALE.items():
            out.append(call_case("mlx", "mlx", mode, options, geometry, tag=name, axes=(1, 2)))
        for dtype in ("float16", "bfloat16"):
            for name in ("up-scale", "down-scale"):
                out.append(call_case("mlx", "mlx", mode, options, GEOMETRIES_NHWC_SCALE[name], dtype=dtype,
                                     tag=name, axes=(1, 2)))
    return out


COREML_TARGETS = ("mlprogram", "neuralnetwork")


def coreml_cases() -> list[dict]:
    """coremltools conversion of a traced ``F.interpolate`` (:data:`EXPORTED` calls and trilinear 3-D) to each
    target (``convert_to="mlprogram"`` / ``"neuralnetwork"``): down by a size, up by a non-integer and by an
    integer scale factor.  Conversion only (Core ML prediction needs macOS)."""
    out = []
    for target in COREML_TARGETS:
        prefix = f"coreml/{target}"
        for mode, options in EXPORTED:
            for geometry in ("down-size", "up-scale", ([1, 2, 4, 5], "scale_factor", 2.0)):
                tag = "x2-scale" if isinstance(geometry, tuple) else ""
                out.append(call_case("coreml", "torch", mode, options, geometry, tag=tag, train=False, prefix=prefix,
                                     target=target))
        out.append(call_case("coreml", "torch", "trilinear", {}, ([1, 1, 7, 8, 9], "size", [3, 4, 5]),
                             tag="3d-down", train=False, prefix=prefix, target=target))
    return out


def by_id(table) -> dict:
    return {c["id"]: c for c in table}


#: group name -> the function making its cases (merged into :data:`explorer.probe.cases.GROUPS`)
CALL_GROUPS = {"torch": torch_cases, "torch-export": torch_export_cases, "torch-onnx": torch_onnx_cases,
               "tensorflow": tensorflow_cases,
               "jax": jax_cases, "keras": keras_cases, "litert": litert_cases,
               "mlx": mlx_cases, "coreml": coreml_cases}

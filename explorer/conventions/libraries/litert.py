"""LiteRT (TensorFlow Lite) ``RESIZE_BILINEAR`` and ``RESIZE_NEAREST_NEIGHBOR``, float32 and 8/16-bit quantized,
and LiteRT as a runtime.

Read in google-ai-edge/LiteRT ``tflite/kernels/resize_bilinear.cc``, ``tflite/kernels/resize_nearest_neighbor.cc``,
``tflite/kernels/internal/reference/resize_bilinear.h``, ``tflite/kernels/internal/reference/
resize_nearest_neighbor.h``, ``tflite/kernels/internal/optimized/resize_bilinear.h`` and ``optimized_ops.h``
(``ResizeNearestNeighbor``) @v2.2.0 (the files TensorFlow kept as tensorflow/lite/kernels/...), the XNNPACK delegate
``tflite/delegates/xnnpack/xnnpack_delegate.cc`` @v2.2.0 and google/XNNPACK ``src/indirection.c`` @75db3c09;
measured against the ``ai-edge-litert`` 2.3.0 interpreter on models converted by TensorFlow 2.21's converter
(float32 and full-integer int8 by ``tf.lite.TFLiteConverter``, uint8 by the TF1 converter with
``inference_type=tf.uint8``).

Options: ``align_corners``, ``half_pixel_centers`` (the op's), and ``kernels``, which of the interpreter's kernels
runs the op:

* ``"xnnpack"`` (default): what ``Interpreter(...)`` runs by default -- the XNNPACK delegate takes every float32,
  int8 and uint8 RESIZE_BILINEAR (explorer.engine.native.xnnpack: half-pixel coordinates ``i * s + (0.5 s - 0.5)``
  in float32; 8-bit weights in 1/2048); RESIZE_NEAREST_NEIGHBOR and int16 stay on the builtin kernels;
* ``"builtin"``: ``OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES`` (TensorFlow's float32 coordinates
  ``(i + 0.5f) * s - 0.5f``, ``index_arithmetic="tensorflow"``);
* ``"reference"``: ``OpResolverType.BUILTIN_REF``.

Bilinear: ``s = n / m`` (``(n-1)/(m-1)`` with align_corners and ``m > 1``), half-pixel or ``i * s``, taps
``max(floor(x), 0)`` and ``min(ceil(x), n - 1)``.  Nearest: ``min(floor((i + 0.5?) s), n - 1)``, ``round`` half
away from zero with align_corners (``TfLiteRound``), in float32; the 8-bit builtin kernel without either flag uses
a 16.16 fixed-point step instead (``(i * ((n << 16) / m + 1)) >> 16``, ``index_arithmetic="tflite_fixed16"``).

Note [quantized kernels]: int8 / uint8 / int16 tensors are resampled on their stored integers (RESIZE_* keep the
input's scale and zero point) and rounded once, after both axes (explorer.engine.fixed_point
``litert_bilinear_integer``): XNNPACK (int8, uint8) in 11-bit fixed point rounded half up; the builtin uint8
kernel in float32 plus 0.5, truncated; the builtin int8 and every int16 kernel (``ResizeBilinearInteger``) in
10-bit fixed point rounded half away from zero.  All bit-exact [measured, ai-edge-litert 2.3.0].  The 10-bit
kernel does not clamp its lower tap: when its rounded scale overshoots (large upscales without half_pixel_centers,
e.g. 1000 -> 4097), the last outputs read the next row's first pixel -- modelled, on the array's (N, H, W, C)
layout -- and, on the last row of the last image, memory past the tensor: refused with an error.  The integer
paths need the resized axes to be consecutive (H, W of an NHWC layout; one axis is the width).

Note [float types]: LiteRT's resize kernels take float32 only (a float16 or float64 model is converted to
float32); float16 and float64 arrays are resampled here with the float32 kernels' weights, in their own
precision, so the convention can be compared with other libraries' (data/litert.toml, litert-resize-dtypes).

Note [align_corners and half_pixel_centers]: the builtin RESIZE_BILINEAR's Prepare refuses the pair ("If
half_pixel_centers is True, align_corners must be False."), but the XNNPACK delegate takes the node first and
computes align_corners (its flags: ``align_corners ? XNN_FLAG_ALIGN_CORNERS : ...``), so the default interpreter
runs it [measured, ai-edge-litert 2.3.0]; RESIZE_NEAREST_NEIGHBOR computes ``round((i + 0.5) (n-1)/(m-1))`` for
the pair (coordinate ``align_corners_half_pixel_for_nn``).  TensorFlow refuses the pair at run time, but its
converter writes it.

>>> from explorer.conventions import preset
>>> preset("litert", "RESIZE_BILINEAR", half_pixel_centers=True).index_arithmetic
'xnnpack'
>>> preset("litert", "RESIZE_BILINEAR", half_pixel_centers=True, kernels="builtin").index_arithmetic
'tensorflow'
"""

from __future__ import annotations

import numpy as np

from ...engine import fixed_point
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register

KERNELS = fixed_point.LITERT_KERNELS
BILINEAR, NEAREST = "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"
_INTEGERS = (np.dtype(np.uint8), np.dtype(np.int8), np.dtype(np.int16))
_OPS = {BILINEAR: "ResizeBilinear", NEAREST: "ResizeNearestNeighbor"}


def transform(options) -> str:
    """The coordinate transform of the op's flags."""
    if options["align_corners"]:
        return "align_corners_half_pixel_for_nn" if options["half_pixel_centers"] else "align_corners"
    return "half_pixel" if options["half_pixel_centers"] else "asymmetric"


class LiteRT(Library):
    id = "litert"
    title = "LiteRT (TFLite) RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR"
    aliases = ("tflite", "tensorflow lite", "ai-edge-litert", "tfl")
    order = 45
    mode_names = {BILINEAR: "linear", NEAREST: "nearest"}
    mode_aliases = {"bilinear": BILINEAR, "nearest": NEAREST, "nearestneighbor": NEAREST}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "nearest-exact": Closest(NEAREST, {"half_pixel_centers": True},
                                 "LiteRT's nearest with half_pixel_centers=True is floor((i + 0.5) n / m), PyTorch's "
                                 "nearest-exact (what TensorFlow 2's tf.image.resize nearest converts to)"),
        "bicubic": Closest(BILINEAR, {"half_pixel_centers": True},
                           "LiteRT has no bicubic builtin (TensorFlow's ResizeBicubic converts only as a Flex op, "
                           "which needs the Select TF ops delegate): RESIZE_BILINEAR is the closest builtin"),
        "area": Closest(BILINEAR, {"half_pixel_centers": True},
                        "LiteRT has no area resize (tf.image.resize area does not convert, even as a Flex op): "
                        "RESIZE_BILINEAR is the closest builtin (AVERAGE_POOL_2D for integer factors)"),
        "lanczos": Closest(BILINEAR, {"half_pixel_centers": True},
                           "LiteRT has no Lanczos or antialiased resize (ScaleAndTranslate does not convert): "
                           "RESIZE_BILINEAR is the closest builtin"),
    }
    toggle_options = {"align_corners": {True: {"align_corners": True}, False: {"half_pixel_centers": True}}}
    toggle_notes = {("antialias", True): "LiteRT has no antialiased resize (tf.image.resize(antialias=True) runs "
                                         "ScaleAndTranslate, which does not convert); left out"}
    shown = {"half_pixel_centers": None, "align_corners": None}

    options = (
        Option("align_corners", False, (False, True)),
        Option("half_pixel_centers", False, (False, True)),
        Option("kernels", "xnnpack", KERNELS, "xnnpack: the interpreter's default (XNNPACK delegate); builtin: "
               "BUILTIN_WITHOUT_DEFAULT_DELEGATES; reference: BUILTIN_REF"),
    )
    unsupported = {"antialias": "LiteRT has no antialiased resize"}
    gradient_modes = ()
    no_gradient = ("LiteRT runs inference only: RESIZE_* have no gradient; explorer.library_resize_transpose "
                   "gives the transpose W^T g of its forward")

    def code(self, mode, options, h, w):
        flags = ", ".join(f"{k}={options.get(k, False)!r}" for k in ("align_corners", "half_pixel_centers"))
        resolver = {"xnnpack": "", "builtin": ", experimental_op_resolver_type=OpResolverType."
                    "BUILTIN_WITHOUT_DEFAULT_DELEGATES", "reference": ", experimental_op_resolver_type="
                    "OpResolverType.BUILTIN_REF"}[options.get("kernels", "xnnpack")]
        return "python", (f"f = tf.function(lambda x: tf.raw_ops.{_OPS[mode]}(images=x, size=({h}, {w}), {flags}))\n"
                          "tflite = tf.lite.TFLiteConverter.from_concrete_functions(\n"
                          "    [f.get_concrete_function(tf.TensorSpec(x_nhwc.shape, tf.float32))], f).convert()\n"
                          f"interpreter = ai_edge_litert.interpreter.Interpreter(model_content=tflite{resolver})")

    def validate(self, mode, options):
        """Note [align_corners and half_pixel_centers]."""
        if mode == BILINEAR and options["align_corners"] and options["half_pixel_centers"] \
                and options["kernels"] != "xnnpack":
            raise ArgumentValueError("If half_pixel_centers is True, align_corners must be False.")

    def spec(self, mode, options):
        t = transform(options)
        if mode == NEAREST:  # x = (i + 0.5) * s under half_pixel_centers: floor, not round
            rounding = "round_half_away" if options["align_corners"] else "floor"
            t = "tf_half_pixel_for_nn" if t == "half_pixel" else t
            return Spec("nearest", coordinate_transformation_mode=t, nearest_mode=rounding,
                        index_arithmetic="float32")
        if options["align_corners"]:  # XNNPACK takes align_corners and drops half_pixel_centers
            t = "align_corners"
        return Spec("linear", coordinate_transformation_mode=t,
                    index_arithmetic="xnnpack" if options["kernels"] == "xnnpack" else "tensorflow")

    def rows(self):
        out = []
        for mode in self.modes:
            for flags in ({}, {"half_pixel_centers": True}, {"align_corners": True}):
                for kernels in (KERNELS if mode == BILINEAR and "align_corners" not in flags else ("xnnpack",)):
                    options = dict(flags, **({"kernels": kernels} if kernels != "xnnpack" else {}))
                    out.append((mode, options, ""))
        out.append((NEAREST, {"align_corners": True, "half_pixel_centers": True},
                    "round((i + 0.5) (n-1)/(m-1))"))
        out.append((BILINEAR, {"align_corners": True, "half_pixel_centers": True},
                    "XNNPACK: align_corners (the builtin kernel refuses the pair)"))
        return out

    # ------------------------------------------------------------------ shapes and dtypes
    def resized_axes(self, ndim):
        return (1, 2) if ndim == 4 else None

    def validate_call(self, call):
        if call.dtype.kind in "iub" and call.dtype not in _INTEGERS:  # resize_nearest_neighbor.cc Eval
            raise ArgumentTypeError(f"Output type is {call.dtype}, requires float, uint8, int8 or int16. (LiteRT's "
                                    "RESIZE_* take float32, uint8, int8 or int16 tensors: convert with "
                                    "x.astype(np.float32))")
        if call.dtype.kind in "iu" and call.mode == BILINEAR:
            axes = sorted(call.axes)
            if len(axes) > 2 or (len(axes) == 2 and axes[1] != axes[0] + 1):
                raise ArgumentValueError(f"integer RESIZE_BILINEAR resamples the H and W axes of an NHWC tensor: "
                                         f"give two consecutive axes (or one), not axes={tuple(call.axes)}")
        if len(call.axes) > 2:
            raise ArgumentValueError(f"LiteRT's RESIZE_* resample two axes (H and W); {len(call.axes)} were given")

    def call_spec(self, call):
        spec = self.spec(call.mode, call.options)
        if call.mode == NEAREST and call.dtype.itemsize == 1 and call.options["kernels"] != "reference" \
                and spec.coordinate_transformation_mode == "asymmetric":
            return spec.replace(index_arithmetic="tflite_fixed16")  # the 8-bit optimized kernel
        return spec

    def resize_integer(self, call, x, plans, specs):
        """Note [quantized kernels]."""
        axes = sorted(call.axes)
        lengths = dict(zip(call.axes, call.lengths))
        first = axes[0]
        shape = x.shape
        before = int(np.prod(shape[:first], dtype=np.int64))
        if len(axes) == 2:
            (h, out_h), (w, out_w) = lengths[axes[0]], lengths[axes[1]]
            after = int(np.prod(shape[axes[1] + 1:], dtype=np.int64))
        else:
            (h, out_h), (w, out_w) = (1, 1), lengths[first]
            after = int(np.prod(shape[first + 1:], dtype=np.int64))
        x4 = np.ascontiguousarray(x).reshape(before, h, w, after)
        y4 = fixed_point.litert_bilinear_integer(x4, out_h, out_w, specs[0].coordinate_transformation_mode,
                                                 call.options["kernels"])
        return y4.reshape(call.output_shape)


LIBRARY = register(LiteRT())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes(kernels):
    def computes(q, spatial=None, out=None, intended=True) -> Computation:
        options = {"kernels": kernels}
        if q.align_corners:
            options["align_corners"] = True
        elif q.align_corners is False:  # PyTorch's half-pixel convention
            options["half_pixel_centers"] = True
        return Computation("litert", q.mode, options)
    return computes


def _writes(kernels):
    def writes(q, h, w, size, scale_factor):
        options = {"kernels": kernels, "align_corners": bool(q.align_corners),
                   "half_pixel_centers": q.align_corners is False}
        return LIBRARY.code(q.mode, options, h, w)
    return writes


RUNTIME = register(Runtime(
    id="litert", title="LiteRT (TensorFlow Lite)", order=70,
    backends=(Backend("litert", "the LiteRT interpreter's default CPU kernels (XNNPACK delegate for RESIZE_BILINEAR)",
                      ("cpu",), "python", aliases=("tflite", "tflite-xnnpack"), spelling="litert",
                      computes=_computes("xnnpack"), writes=_writes("xnnpack")),
              Backend("litert-builtin", "LiteRT's builtin CPU kernels without the default delegates",
                      ("cpu",), "python", aliases=("tflite-builtin",), spelling="litert",
                      computes=_computes("builtin"), writes=_writes("builtin"))),
    words=("litert", "tflite", "ai_edge_litert", "tflite_runtime", "tfliteconverter"),
    version_markers=("ai-edge-litert==", "ai_edge_litert==", "litert version: ")))

"""TensorFlow 2.21 ``tf.image.resize`` (v2) and the v1 ops ``tf.compat.v1.image.resize_*`` as Spec rows.

TensorFlow computes coordinates in float32: ``index_arithmetic="tensorflow"`` for ResizeBilinear,
ResizeBicubic and ResizeArea (a port of their weight code, explorer.engine.native.tensorflow), ``"float32"``
for ResizeNearestNeighbor, ``"tf_scale_and_translate"`` for the ScaleAndTranslate op.  v2 ``bilinear``/``bicubic``
without antialias run ``ResizeBilinear``/``ResizeBicubic`` with half-pixel centres; every antialiased mode and
``lanczos3/5``, ``gaussian``, ``mitchellcubic`` run ``ScaleAndTranslate`` (drop out-of-image taps and
renormalise).  ``ResizeBicubic`` reads Keys' cubic from a 1024-entry table (kernel ``keys_cubic_table1024``).

Note [reduced floats]
    A float16 or bfloat16 image: every method but ``nearest`` returns float32, computed as for the float32
    image of the same values (the ops read the input as float); ``nearest`` gathers and keeps the dtype, and its
    gradient (ResizeNearestNeighborGrad) adds into the image's dtype output by output, rounding each addition.
    The gradient TensorFlow returns for a reduced image through ResizeBilinear is the float32 gradient rounded
    once to that dtype; ResizeBicubic returns none (its gradient is registered for float32 and float64 only)
    and ScaleAndTranslateGrad refuses it.  [measured, TF 2.21 CPU]

>>> from explorer.conventions import preset
>>> preset("tensorflow", "bicubic").kernel, preset("tensorflow", "bicubic", antialias=True).kernel
('keys_cubic_table1024', 'cubic')
>>> preset("tensorflow", "bilinear", version=1, align_corners=True).coordinate_transformation_mode
'align_corners'
"""

from __future__ import annotations

import numpy as np

from ... import validate
from ...engine.execute import execute, scatter_rounded
from ...engine.spec import Spec
from ...errors import ArgumentValueError
from ..library_resize import promote_to_float32
from ..declarations import Backend, Runtime, same_mode
from ..registry import Api, Library, Option, register

#: Methods tf.image.resize's antialias acts on (measured, tensorflow 2.21: a 12 -> 5 downscale with
#: antialias=True equals antialias=False for nearest and area; every other method changes).
_ANTIALIASED = ("bilinear", "bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")

_RENORMALISE = dict(exclude_outside=True)
_TF1_METHODS = {"bilinear": "BILINEAR", "nearest": "NEAREST_NEIGHBOR", "bicubic": "BICUBIC", "area": "AREA"}

# v2 method -> (Spec fields without antialias, Spec fields with antialias)
_V2 = {
    "bilinear": (dict(kernel="linear"), dict(kernel="linear", antialias=True, **_RENORMALISE)),
    "nearest": (dict(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn",
                     nearest_mode="floor"),) * 2,
    "bicubic": (dict(kernel="keys_cubic_table1024", cubic_coeff_a=-0.5, **_RENORMALISE),
                dict(kernel="cubic", cubic_coeff_a=-0.5, antialias=True, **_RENORMALISE)),
    "area": (dict(kernel="area"),) * 2,
    "lanczos3": (dict(kernel="lanczos3", **_RENORMALISE), dict(kernel="lanczos3", antialias=True, **_RENORMALISE)),
    "lanczos5": (dict(kernel="lanczos5", **_RENORMALISE), dict(kernel="lanczos5", antialias=True, **_RENORMALISE)),
    "gaussian": (dict(kernel="gaussian", **_RENORMALISE), dict(kernel="gaussian", antialias=True, **_RENORMALISE)),
    "mitchellcubic": (dict(kernel="mitchell", **_RENORMALISE),
                      dict(kernel="mitchell", antialias=True, **_RENORMALISE)),
}
_V1_METHODS = ("bilinear", "nearest", "bicubic", "area")


def _v1_fields(mode, align_corners, half_pixel_centers):
    """The v1 ops: legacy asymmetric coordinates, align_corners, or v2's half-pixel centres."""
    if half_pixel_centers:
        return dict(_V2[mode][0])
    transform = "align_corners" if align_corners else "asymmetric"
    if mode == "bilinear":
        return dict(kernel="linear", coordinate_transformation_mode=transform)
    if mode == "nearest":
        return dict(kernel="nearest", coordinate_transformation_mode=transform,
                    nearest_mode="round_half_away" if align_corners else "floor")
    if mode == "bicubic":  # legacy table: a = -0.75, clamped taps, no renormalisation
        return dict(kernel="keys_cubic_table1024", cubic_coeff_a=-0.75, coordinate_transformation_mode=transform)
    return dict(kernel="area", coordinate_transformation_mode=transform)


class TensorFlow(Library):
    id = "tensorflow"
    title = "TensorFlow tf.image.resize"
    aliases = ("tf", "tf2")
    order = 10
    mode_names = {"nearest": "nearest-exact", "bilinear": "linear", "bicubic": "cubic", "area": "area",
                  "lanczos3": "lanczos3", "lanczos5": "lanczos5", "mitchellcubic": "mitchellcubic",
                  "gaussian": "gaussian"}

    # ported from PyTorch (explorer.conventions.native_call)
    toggle_options = {"align_corners": {True: {"version": 1, "align_corners": True}, False: {}},
                      "antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    toggle_notes = {("align_corners", True): "TensorFlow 2's tf.image.resize has no align_corners: "
                                             "tf.compat.v1.image.resize(align_corners=True) is used (version=1)"}
    shown = {"antialias": ("linear", "cubic", "lanczos3")}
    exclusive = {"antialias": ("version", 1)}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("tensorflow.image.resize", ("images", "size", "method", "preserve_aspect_ratio", "antialias"),
            mode_param="method", defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2,
            antialias_modes=_ANTIALIASED, aliases=("tensorflow.compat.v2.image.resize",)),
        Api("tensorflow.image.resize_with_pad", ("image", "target_height", "target_width", "method", "antialias"),
            mode_param="method", defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2,
            antialias_modes=_ANTIALIASED, aliases=("tensorflow.compat.v2.image.resize_with_pad",)),
        # TensorFlow 1 (tf.compat.v1.image.*, tf.raw_ops.Resize*): integer method codes, legacy coordinates
        Api("tensorflow.compat.v1.image.resize", ("images", "size", "method", "align_corners",
                                                  "preserve_aspect_ratio", "name"),
            mode_param="method", defaults={"mode": "bilinear", "align_corners": False, "antialias": False},
            rank=2, codes="tensorflow", coordinates="tf1",
            aliases=("tensorflow.compat.v1.image.resize_images", "tensorflow.image.resize_images")),
        *(Api(f"tensorflow.compat.v1.image.resize_{name}", ("images", "size", "align_corners", "name",
                                                           "half_pixel_centers"),
              mode_param=None, fixed={"mode": mode}, defaults={"align_corners": False, "antialias": False}, rank=2,
              coordinates="tf1", aliases=(f"tensorflow.image.resize_{name}",))
          for name, mode in (("bilinear", "bilinear"), ("nearest_neighbor", "nearest"), ("bicubic", "bicubic"),
                             ("area", "area"))),
        *(Api(f"tensorflow.raw_ops.{op}", ("images", "size", "align_corners", "half_pixel_centers", "name"),
              mode_param=None, fixed={"mode": mode}, defaults={"align_corners": False, "antialias": False}, rank=2,
              coordinates="tf1")
          for op, mode in (("ResizeBilinear", "bilinear"), ("ResizeNearestNeighbor", "nearest"),
                           ("ResizeBicubic", "bicubic"), ("ResizeArea", "area"))),
    )
    constants = {"tensorflow.image.ResizeMethod": ("tensorflow", {
        "NEAREST_NEIGHBOR": "nearest", "BILINEAR": "bilinear", "BICUBIC": "bicubic", "AREA": "area",
        "LANCZOS3": "lanczos3", "LANCZOS5": "lanczos5", "MITCHELLCUBIC": "mitchellcubic", "GAUSSIAN": "gaussian"}),
        "tensorflow.compat.v1.image.ResizeMethod": ("tensorflow", {
            "NEAREST_NEIGHBOR": "nearest", "BILINEAR": "bilinear", "BICUBIC": "bicubic", "AREA": "area"})}
    # tf.compat.v1.image.ResizeMethod's integer values (tensorflow 2.21: BILINEAR=0 ... AREA=3)
    codes = {0: "bilinear", 1: "nearest", 2: "bicubic", 3: "area"}
    options = (
        Option("antialias", False, (False, True)),
        Option("version", 2, (1, 2), "1 selects tf.compat.v1.image.resize_* (legacy coordinates)"),
        Option("align_corners", False, (False, True), "v1 only"),
        Option("half_pixel_centers", False, (False, True), "v1 only"),
    )
    unsupported = {"preserve_aspect_ratio": "pass the output size you want",
                   "method": "give the method as the mode"}
    mode_aliases = {"nearestneighbor": "nearest", "resizemethodnearestneighbor": "nearest"}
    gradient_modes = ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


    def code(self, mode, options, h, w):
        if options.get("version") == 1:
            rest = "".join(f", {k}={v!r}" for k, v in options.items() if k != "version")
            return "python", (f"y = tf.compat.v1.image.resize(x_nhwc, ({h}, {w}), "
                              f"method=tf.compat.v1.image.ResizeMethod.{_TF1_METHODS[mode]}{rest})")
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", f'y = tf.image.resize(x_nhwc, ({h}, {w}), method="{mode}"{opts})'

    float_dtypes = ("float16", "bfloat16", "float32", "float64")  # Note [reduced floats]

    def resize_integer(self, call, x, plans, specs):
        """Integer images are computed and returned in float32."""
        return promote_to_float32(call, x, plans, specs)

    def resize_reduced(self, call, x, plans, specs):
        """Note [reduced floats]: float32 out, but for nearest."""
        return None if all(plan.nearest for _, plan in plans) else promote_to_float32(call, x, plans, specs)

    def transpose_reduced(self, call, grad, plans):
        """Note [reduced floats]: nearest accumulates in the dtype; the other methods' upstream is float32."""
        if all(plan.nearest for _, plan in plans):
            return scatter_rounded(grad, plans, call.shape)
        return execute(grad.astype(np.float32), plans, transpose=True)
    no_gradient = "TensorFlow registers no gradient for ResizeArea (LookupError: gradient registry has no " \
                  "entry for: ResizeArea)"

    def gradient_error(self, mode, options, dtype=None):
        """ResizeArea has no gradient; ScaleAndTranslateGrad takes float32 only [measured, TF 2.21: float64 input
        raises InvalidArgumentError "cannot compute ScaleAndTranslateGrad as input #1(zero-based) was expected
        to be a float tensor but is a double tensor"]."""
        reason = super().gradient_error(mode, options, dtype)
        if reason is None and dtype is not None and validate.is_float(dtype) and np.dtype(dtype) != np.float32 \
                and self.spec(mode, options).index_arithmetic == "tf_scale_and_translate":
            return (f"TensorFlow's ScaleAndTranslateGrad (antialias, lanczos, gaussian, mitchellcubic) takes float32 "
                    f"only: a {np.dtype(dtype)} image raises InvalidArgumentError; cast to float32")
        return reason

    def validate(self, mode, options):
        if options["version"] == 1:
            if mode not in _V1_METHODS:
                raise ArgumentValueError(f"mode={mode!r} is not a TensorFlow v1 method; v1 has "
                                 f"{', '.join(_V1_METHODS)} (use version=2)")
            if options["antialias"]:
                raise ArgumentValueError("antialias is a TensorFlow v2 option (version=2)")
            if options["align_corners"] and options["half_pixel_centers"]:
                raise ArgumentValueError("TensorFlow rejects half_pixel_centers=True together with align_corners=True")
        elif options["align_corners"] or options["half_pixel_centers"]:
            raise ArgumentValueError("align_corners and half_pixel_centers are TensorFlow v1 options: pass version=1")

    def spec(self, mode, options):
        if options["version"] == 1:
            fields = _v1_fields(mode, options["align_corners"], options["half_pixel_centers"])
        else:
            fields = dict(_V2[mode][1 if options["antialias"] else 0])
            if fields.get("exclude_outside") and fields["kernel"] != "keys_cubic_table1024":  # ScaleAndTranslate
                return Spec(**fields, index_arithmetic="tf_scale_and_translate")
        arithmetic = "float32" if fields["kernel"] == "nearest" else "tensorflow"
        return Spec(**fields, index_arithmetic=arithmetic)

    def rows(self):
        out = []
        for mode in self.modes:
            out.append((mode, {}, ""))
            if mode not in ("nearest", "area"):
                out.append((mode, {"antialias": True}, ""))
        for mode in _V1_METHODS:
            out.append((mode, {"version": 1}, "v1 legacy (asymmetric) coordinates"))
            out.append((mode, {"version": 1, "align_corners": True}, ""))
            if mode != "area":
                out.append((mode, {"version": 1, "half_pixel_centers": True}, ""))
        return out

    def axis_specs(self, call, spec, scales):
        # CalculateResizeScale: align_corners applies only when the output has more than one sample
        return [spec.replace(coordinate_transformation_mode="asymmetric")
                if spec.coordinate_transformation_mode == "align_corners" and m == 1 else spec
                for n, m in call.lengths]


LIBRARY = register(TensorFlow())


# ------------------------------------------------------------------------------------------------ the runtime
def _antialias(q) -> dict:
    return {"antialias": q.antialias}


def _writes(q, h, w, size, scale_factor):
    aa = ", antialias=True" if q.antialias else ""
    return "python", f'y = tf.image.resize(x_nhwc, ({h}, {w}), method="{q.mode}"{aa})'


RUNTIME = register(Runtime(
    id="tensorflow", title="TensorFlow", order=20,
    backends=(Backend("tensorflow", "tf.image.resize (TensorFlow 2)", ("cpu", "gpu"), "python", aliases=("tf", "tf2"),
                      spelling="tensorflow", computes=same_mode("tensorflow", _antialias), writes=_writes),),
    words=("tensorflow", "tf", "tf2xla", "xla_cpu_jit", "xla_gpu_jit", "tflite"),
    version_markers=("tensorflow==", "tensorflow version: ", "tensorflow-cpu==")))

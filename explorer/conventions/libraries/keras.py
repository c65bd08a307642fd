"""Keras 3.15 ``keras.ops.image.resize``, ``layers.Resizing`` and ``layers.UpSampling2D`` on its three backends.

The same Keras call computes with its backend's own resize (keras-team/keras ``keras/src/backend/{tensorflow,
jax,torch}/image.py`` @ v3.15.1), so the ``backend`` option selects the convention:

* ``tensorflow``: ``tf.image.resize(images, size, method=interpolation, antialias=antialias)`` (the TensorFlow
  library's rows: ``bicubic`` is ResizeBicubic's table, antialiased methods ScaleAndTranslate);
* ``jax``: ``jax.image.resize(images, shape, method=interpolation, antialias=antialias)``; Keras passes its own
  default ``antialias=False`` (JAX's is True); ``bicubic`` is JAX's ``cubic`` (a = -0.5, renormalised border);
  no ``area``;
* ``torch``: ``F.interpolate(images, size, mode=RESIZE_INTERPOLATIONS[interpolation], align_corners=False,
  antialias=antialias)`` with ``nearest -> nearest-exact``; no Lanczos and no ``area``; antialias only for
  bilinear and bicubic (Keras sets it False for nearest).

Integer images: every backend computes in float32 and ``keras/src/ops/image.py`` ``_resize`` rounds half to
even and saturates back to the input dtype (the torch backend does the same inside ``_cast_squeeze_out``, with
a clamp first for bicubic) [measured, Keras 3.15.1: uint8 in, uint8 out on every backend].  Float64 images keep
their dtype on tensorflow and torch; JAX without ``jax_enable_x64`` computes them in float32 (the explorer
computes with JAX's float32 weights and keeps float64).

Note [keras torch channels-last]
    With ``data_format="channels_last"`` (Keras's default) the torch backend permutes NHWC to NCHW without a
    copy, so ``F.interpolate`` receives a channels-last tensor: its 2-D nearest kernel is then ``nearest_idx``
    for more than 3 channels (Note [nearest_idx] in explorer.conventions.libraries.pytorch), a float32 scale
    with a double product, instead of the generic kernel's float32 arithmetic.

``UpSampling2D(size=(fh, fw), interpolation=...)`` (``layer="UpSampling2D"``) takes integer factors: ``nearest``
is ``ops.repeat`` on each axis (output ``i`` copies input ``i // f``: the floor of the asymmetric coordinate,
PyTorch's ``nearest``, on every backend), any other interpolation is ``ops.image.resize`` to ``(fh*h, fw*w)``.

>>> from explorer.conventions import preset
>>> preset("keras", "bicubic", backend="jax").kernel, preset("keras", "bicubic").kernel
('cubic', 'keys_cubic_table1024')
>>> preset("keras", "nearest", layer="UpSampling2D")
Spec(kernel='nearest', coordinate_transformation_mode='asymmetric', nearest_mode='floor', index_arithmetic='exact')
"""

from __future__ import annotations

import numpy as np

from ...engine.execute import execute
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..library_resize import float32_plans
from ..registry import Closest, Library, Option, Request, library, register
from .pytorch import interpolate_options, nearest_kernel_is_indexed, torch_spec

BACKENDS = ("tensorflow", "jax", "torch")
_METHODS = {  # Keras interpolation -> the backend library's mode (None: the backend rejects it)
    "tensorflow": {"bilinear": "bilinear", "nearest": "nearest", "bicubic": "bicubic", "lanczos3": "lanczos3",
                   "lanczos5": "lanczos5", "area": "area"},
    "jax": {"bilinear": "linear", "nearest": "nearest", "bicubic": "cubic", "lanczos3": "lanczos3",
            "lanczos5": "lanczos5"},
    "torch": {"bilinear": "bilinear", "nearest": "nearest-exact", "bicubic": "bicubic"},
}
#: the choices each backend's RESIZE_INTERPOLATIONS lists, as its error prints them
_CHOICES = {"tensorflow": "('bilinear', 'nearest', 'lanczos3', 'lanczos5', 'bicubic', 'area')",
            "jax": "('bilinear', 'nearest', 'lanczos3', 'lanczos5', 'bicubic')",
            "torch": "{'bilinear': 'bilinear', 'nearest': 'nearest-exact', 'bicubic': 'bicubic'}"}
_REPEAT = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor",
               index_arithmetic="exact")
LAYERS = ("Resizing", "UpSampling2D")


class Keras(Library):
    id = "keras"
    title = "Keras 3 keras.ops.image.resize"
    aliases = ("keras3", "tf.keras")
    order = 25
    mode_names = {"nearest": "nearest-exact", "bilinear": "linear", "bicubic": "cubic", "lanczos3": "lanczos3",
                  "lanczos5": "lanczos5", "area": "area"}
    options = (
        Option("backend", "tensorflow", BACKENDS, "KERAS_BACKEND: the framework that computes the resize"),
        Option("antialias", False, (False, True)),
        Option("layer", "Resizing", LAYERS, "Resizing (= keras.ops.image.resize) takes a size; UpSampling2D "
                                            "integer factors, nearest by ops.repeat"),
        Option("data_format", "channels_last", ("channels_last", "channels_first")),
    )
    unsupported = {"crop_to_aspect_ratio": "crop the array first", "pad_to_aspect_ratio": "pad the array first",
                   "fill_mode": "only 'constant' exists (with no padding it does nothing)",
                   "fill_value": "no padding is modelled", "interpolation": "give the interpolation as the mode"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {"nearest": Closest("nearest", {"layer": "UpSampling2D"},
                                  "Keras's resize nearest is half-pixel (nearest-exact); UpSampling2D's ops.repeat floors, "
                                  "for integer factors only")}
    toggle_options = {"antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    toggle_notes = {("align_corners", True): "Keras 3 has no align_corners; left out"}
    shown = {"backend": None}

    apis = (
        Api("keras.ops.image.resize",
            ("images", "size", "interpolation", "antialias", "crop_to_aspect_ratio", "pad_to_aspect_ratio",
             "fill_mode", "fill_value", "data_format"), mode_param="interpolation",
            defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2,
            aliases=("keras.src.ops.image.resize",)),
        Api("keras.layers.Resizing",
            ("height", "width", "interpolation", "crop_to_aspect_ratio", "pad_to_aspect_ratio", "fill_mode",
             "fill_value", "antialias"), mode_param="interpolation",
            defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2,
            aliases=("tensorflow.keras.layers.Resizing", "tensorflow.keras.layers.experimental.preprocessing.Resizing",
                     "keras.layers.experimental.preprocessing.Resizing")),
        # UpSampling*D's nearest repeats each pixel (keras 3.15: ops.repeat; measured equal to np.repeat); Keras 2 also
        # exported the layers from keras.layers.convolutional
        Api("keras.layers.UpSampling2D", ("size", "data_format", "interpolation"), mode_param="interpolation",
            defaults={"mode": "nearest", "align_corners": None, "antialias": False}, rank=2, coordinates="repeat",
            aliases=("tensorflow.keras.layers.UpSampling2D", "keras.layers.convolutional.UpSampling2D",
                     "tensorflow.keras.layers.convolutional.UpSampling2D")),
        Api("keras.layers.UpSampling1D", ("size",), mode_param=None, fixed={"mode": "nearest"},
            defaults={"align_corners": None, "antialias": False}, rank=1, coordinates="repeat",
            aliases=("tensorflow.keras.layers.UpSampling1D", "keras.layers.convolutional.UpSampling1D",
                     "tensorflow.keras.layers.convolutional.UpSampling1D")),
        Api("keras.layers.UpSampling3D", ("size", "data_format"), mode_param=None, fixed={"mode": "nearest"},
            defaults={"align_corners": None, "antialias": False}, rank=3, coordinates="repeat",
            aliases=("tensorflow.keras.layers.UpSampling3D", "keras.layers.convolutional.UpSampling3D",
                     "tensorflow.keras.layers.convolutional.UpSampling3D")),
        # Keras 2's backend function behind UpSampling2D (tf-keras 2.15 tf_keras/src/backend.py resize_images:
        # tf.image.resize to the shape times the integer factors, nearest or bilinear): the same computation
        Api("keras.backend.resize_images", ("x", "height_factor", "width_factor", "data_format", "interpolation"),
            mode_param="interpolation", defaults={"mode": "nearest", "align_corners": None, "antialias": False},
            rank=2, coordinates="repeat",
            aliases=("tensorflow.keras.backend.resize_images", "tf_keras.backend.resize_images")),
    )
    gradient_modes = None

    def code(self, mode, options, h, w):
        backend = options.get("backend", "tensorflow")
        head = f'# KERAS_BACKEND="{backend}"\n'
        if options.get("layer") == "UpSampling2D":
            return "python", (head + f'y = keras.layers.UpSampling2D(size=({h} // h, {w} // w), '
                              f'interpolation="{mode}")(x_nhwc)  # integer factors')
        aa = ", antialias=True" if options.get("antialias") else ""
        return "python", head + f'y = keras.ops.image.resize(x_nhwc, ({h}, {w}), interpolation="{mode}"{aa})'

    # ---------------------------------------------------------------- options
    def validate(self, mode, options):
        backend = options["backend"]
        if options["layer"] == "UpSampling2D" and mode == "nearest":
            return  # ops.repeat: no backend resize
        if mode not in _METHODS[backend]:
            if backend == "torch" and mode.startswith("lanczos"):
                raise ArgumentValueError("Resizing with Lanczos interpolation is not supported by the PyTorch "
                                         f"backend. Received: interpolation={mode}.")
            raise ArgumentValueError("Invalid value for argument `interpolation`. Expected of one "
                                     f"{_CHOICES[backend]}. Received: interpolation={mode} (Keras backend {backend})")

    def backend_call(self, mode: str, options: dict) -> tuple[Library, str, dict]:
        """(the backend's library, its mode, its options) for a Keras interpolation."""
        backend, antialias = options["backend"], options["antialias"]
        lib = library(backend)
        native = _METHODS[backend][mode]
        if backend == "torch":
            opts = interpolate_options(native, False, antialias and native in ("bilinear", "bicubic"))
        else:
            opts = {"antialias": antialias}
        return lib, native, lib.resolve_options(native, opts)

    def _repeats(self, mode, options) -> bool:
        return options["layer"] == "UpSampling2D" and mode == "nearest"

    def spec(self, mode, options):
        if self._repeats(mode, options):
            return _REPEAT
        lib, native, opts = self.backend_call(mode, options)
        return lib.spec(native, opts)

    def rows(self):
        out = []
        for backend in BACKENDS:
            for mode in _METHODS[backend]:
                out.append((mode, {"backend": backend}, ""))
                if mode in ("bilinear", "bicubic", "lanczos3") and not (backend == "torch" and mode == "lanczos3"):
                    out.append((mode, {"backend": backend, "antialias": True}, ""))
        out.append(("nearest", {"layer": "UpSampling2D"}, "ops.repeat on every backend"))
        return out

    # ---------------------------------------------------------------- sizes
    def resized_axes(self, ndim):
        return (1, 2) if ndim == 4 else (0, 1) if ndim == 3 else None

    def output_length(self, n, factor, options):
        if options["layer"] != "UpSampling2D":
            raise ArgumentValueError("keras.ops.image.resize and layers.Resizing take an output size, not a scale "
                                     "factor; pass size= (UpSampling2D, layer='UpSampling2D', takes integer "
                                     "factors)")
        if float(factor) != int(factor) or factor < 1:
            raise ArgumentValueError(f"UpSampling2D takes positive integer factors, got {factor!r}")
        return n * int(factor)

    def validate_call(self, call):
        if call.options["layer"] == "UpSampling2D":
            bad = [(n, m) for n, m in call.lengths if m % n]
            if bad:
                raise ArgumentValueError(f"UpSampling2D multiplies each axis by an integer factor: {bad[0][0]} -> "
                                         f"{bad[0][1]} is not one")
        if not self._repeats(call.mode, call.options):
            inner = self._inner(call)
            inner.library.validate_call(inner)

    # ---------------------------------------------------------------- the backend's own hooks
    def _channels(self, call: Request) -> int:
        if call.options["data_format"] == "channels_last":
            axis = max(call.axes) + 1
            return call.shape[axis] if axis < len(call.shape) else 1
        axis = min(call.axes) - 1
        return call.shape[axis] if axis >= 0 else 1

    def _inner(self, call: Request) -> Request:
        """The call as the backend's library sees it (torch: an (N, C, H, W) tensor of Keras's channels)."""
        lib, native, opts = self.backend_call(call.mode, call.options)
        shape, axes = call.shape, call.axes
        if lib.id == "torch":
            spatial = tuple(call.shape[a] for a in call.axes)
            channels = self._channels(call)
            batch = int(np.prod(call.shape)) // (int(np.prod(spatial)) * channels)
            shape, axes = (batch, channels, *spatial), tuple(range(2, 2 + len(spatial)))
        dtype = np.dtype(np.float32) if call.dtype.kind in "iub" else call.dtype
        return Request(lib, native, opts, shape, dtype, axes, call.lengths, call.factors, call.direction,
                       size_given=True)

    def call_spec(self, call):
        if self._repeats(call.mode, call.options):
            return _REPEAT
        inner = self._inner(call)
        if inner.library.id == "torch" and inner.mode == "nearest-exact":  # Note [keras torch channels-last]
            channels_last = call.options["data_format"] == "channels_last" and inner.shape[1] > 3
            indexed = call.direction == "backward" or channels_last or nearest_kernel_is_indexed(
                inner.shape, [m for _, m in call.lengths], call.direction)
            return torch_spec("nearest-exact", False, False, inner.dtype, indexed)
        return inner.library.call_spec(inner)

    def kernel_scales(self, call):
        return [None] * len(call.lengths)  # Keras always passes the output size

    def axis_specs(self, call, spec, scales):
        if self._repeats(call.mode, call.options):
            return [spec] * len(call.lengths)
        inner = self._inner(call)
        return inner.library.axis_specs(inner, spec, scales)

    def adjust_plans(self, call, plans):
        if self._repeats(call.mode, call.options):
            return plans
        inner = self._inner(call)
        return inner.library.adjust_plans(inner, plans)

    def pass_order(self, call):
        return None

    def resize_integer(self, call, x, plans, specs):
        """Computed in float32, rounded half to even and saturated to the input's dtype (``ops.image._resize``)."""
        if x.dtype.kind not in "iu":
            raise ArgumentTypeError(f"Keras resizes float and integer images, not {x.dtype}")
        y = execute(x.astype(np.float32), float32_plans(call))
        info = np.iinfo(x.dtype)
        return np.clip(np.rint(y), info.min, info.max).astype(x.dtype)

    def gradient_error(self, mode, options, dtype=None):
        if self._repeats(mode, options):
            return None
        lib, native, opts = self.backend_call(mode, options)
        return lib.gradient_error(native, opts, dtype)


LIBRARY = register(Keras())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes_with(backend):
    def computes(q, spatial=None, out=None, intended=True) -> Computation:
        mode = q.mode
        if mode not in _METHODS[backend]:
            if backend == "torch" and intended and mode in _METHODS["tensorflow"]:
                backend_used = "tensorflow"  # what the method means in Keras: its TensorFlow backend's
            else:
                raise ArgumentValueError(f"Keras's {backend} backend has no {mode!r} (it resizes with "
                                         f"{', '.join(_METHODS[backend])})")
        else:
            backend_used = backend
        return Computation("keras", mode, {"backend": backend_used, "antialias": bool(q.antialias)})
    return computes


def _writes(q, h, w, size, scale_factor):
    return "python", (f'y = keras.ops.image.resize(x, ({h}, {w}), interpolation="{q.mode}", '
                      f"antialias={q.antialias})")


def _backend(bid, devices, backend, framework, **more) -> Backend:
    return Backend(bid, f"keras.ops.image.resize / layers.Resizing on the {framework} backend", devices, "python",
                   spelling="tensorflow", computes=_computes_with(backend), writes=_writes, **more)


RUNTIME = register(Runtime(
    id="keras", title="Keras 3", order=70,
    backends=(_backend("keras-tensorflow", ("cpu", "gpu"), "tensorflow", "TensorFlow", aliases=("keras", "keras-tf")),
              _backend("keras-jax", ("cpu", "gpu", "tpu"), "jax", "JAX"),
              _backend("keras-torch", ("cpu", "cuda", "mps"), "torch", "PyTorch")),
    words=("keras", "upsampling2d"), version_markers=("keras==",)))


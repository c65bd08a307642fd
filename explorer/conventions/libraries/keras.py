"""Keras 3 ``keras.ops.image.resize`` / ``layers.Resizing`` on its three backends, as a runtime.

Keras has no convention of its own here: each backend computes with its framework's resize (read in
keras-team/keras ``keras/src/backend/{tensorflow,jax,torch}/image.py`` at v3.15.1).  ``keras-tensorflow`` and
``keras-jax`` run the TensorFlow / JAX preset of the same method (Keras passes ``antialias`` through, False by
default); ``keras-torch`` maps ``nearest`` to PyTorch ``nearest-exact`` and ``bilinear``/``bicubic`` to
PyTorch's with ``align_corners=False`` (its other methods mean what the TensorFlow backend computes).
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..mode_names import library_mode
from ..registry import register
from .pytorch import interpolate_options

_TORCH_MODES = {"nearest": "nearest-exact", "bilinear": "bilinear", "bicubic": "bicubic"}


def _framework(target):
    def computes(q, spatial=None, out=None, intended=True) -> Computation:
        return Computation(target, library_mode(target, q.mode), {"antialias": q.antialias})
    return computes


def _torch(q, spatial=None, out=None, intended=True) -> Computation:
    torch_mode = _TORCH_MODES.get(q.mode)
    if torch_mode is None and intended:  # what the method means in Keras: its TensorFlow backend's
        return Computation("tensorflow", q.mode, {"antialias": q.antialias})
    if torch_mode is None:
        raise ArgumentValueError(f"Keras's torch backend has no {q.mode!r} (it maps nearest, bilinear and bicubic "
                                 "only)")
    return Computation("torch", torch_mode, interpolate_options(torch_mode, False, q.antialias))


def _writes(q, h, w, size, scale_factor):
    return "python", (f'y = keras.ops.image.resize(x, ({h}, {w}), interpolation="{q.mode}", '
                      f"antialias={q.antialias})")


def _backend(bid, devices, computes, framework, **more) -> Backend:
    return Backend(bid, f"keras.ops.image.resize / layers.Resizing on the {framework} backend", devices, "python",
                   spelling="tensorflow", computes=computes, writes=_writes, **more)


RUNTIME = register(Runtime(
    id="keras", title="Keras 3", order=70,
    backends=(_backend("keras-tensorflow", ("cpu", "gpu"), _framework("tensorflow"), "TensorFlow",
                       aliases=("keras", "keras-tf")),
              _backend("keras-jax", ("cpu", "gpu", "tpu"), _framework("jax"), "JAX"),
              _backend("keras-torch", ("cpu", "cuda", "mps"), _torch, "PyTorch")),
    apis=(
        Api("keras.layers.Resizing",
            ("height", "width", "interpolation", "crop_to_aspect_ratio", "pad_to_aspect_ratio", "fill_mode",
         "fill_value", "antialias"),
            library="tensorflow", mode_param="interpolation",
            defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2,
            aliases=("tensorflow.keras.layers.Resizing", "tensorflow.keras.layers.experimental.preprocessing.Resizing",
                     "keras.layers.experimental.preprocessing.Resizing")),
        Api("keras.layers.UpSampling2D", ("size", "data_format", "interpolation"), library="tensorflow",
            mode_param="interpolation", defaults={"mode": "nearest", "align_corners": None, "antialias": False},
            rank=2, aliases=("tensorflow.keras.layers.UpSampling2D",)),
        Api("keras.layers.UpSampling1D", ("size",), library="tensorflow", mode_param=None,
            fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False}, rank=1,
            aliases=("tensorflow.keras.layers.UpSampling1D",)),
        Api("keras.layers.UpSampling3D", ("size", "data_format"), library="tensorflow", mode_param=None,
            fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False}, rank=3,
            aliases=("tensorflow.keras.layers.UpSampling3D",)),
    ),
    words=("keras", "upsampling2d"), version_markers=("keras==",)))

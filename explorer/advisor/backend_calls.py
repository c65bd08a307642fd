"""What a backend computes for a setup, forward and backward, on a numpy array (N, C, *spatial).

:func:`library_call` turns a :class:`~explorer.advisor.target.Setup` into a library preset (library, native
mode, the library's own options) and :func:`forward` / :func:`backward` run it with
:func:`explorer.library_resize` / :func:`explorer.library_resize_backward`, so the advisor computes exactly what
``explorer.preset`` describes: every size, scale, arithmetic and gradient rule lives in
:mod:`explorer.conventions`.  That covers PyTorch, TensorFlow, JAX, ONNX Runtime, OpenCV, Pillow and every Burn
backend (``burn-flex`` -> ``backend="flex"``, ``burn-ndarray`` -> ``"ndarray"``, ``burn-tch`` -> ``"tch"``, the
cubecl backends ``burn-wgpu``/``-cuda``/``-rocm``/``-cpu`` -> ``"cubecl"``).

Backends without presets keep a small mapping, read from their sources and not measured:

* ``keras-tensorflow`` / ``keras-jax``: the TensorFlow / JAX preset of the same method (Keras passes
  ``antialias`` through, False by default); ``keras-torch``: PyTorch ``nearest-exact`` for ``nearest``, and
  ``bilinear``/``bicubic`` with ``align_corners=False`` (its other methods intend the TensorFlow backend's);
* ``tensorrt``: ONNX ``Resize`` with IResizeLayer's defaults (asymmetric coordinates, floor rounding);
* ``mlx``: PyTorch's linear/cubic (``scale_factor`` only: output ``int(n * f)``, step ``1/f``), and for nearest
  a Spec of its own (half-pixel, round half to even when every axis grows, else floor);
* ``coreml`` and ``candle``: a Spec (floor of ``i * n/m`` in double; linear with half-pixel or align-corners
  coordinates); ``burn-candle`` runs candle's nearest, which is burn-ndarray's arithmetic.

``intended=False`` also reproduces the known silent bugs of the setup's version (v0.22.0-pre.1's
NearestExact -> Nearest under fusion); ``intended=True`` computes what the mode means in its library, on a
backend that runs it when the setup's does not (Burn NearestExact on burn-tch: the cubecl arithmetic).

>>> import numpy as np
>>> from explorer.advisor.target import Setup
>>> x = np.arange(4.0).reshape(1, 1, 1, 4)
>>> y, gx = compute(Setup.of(mode="NearestExact", backend="burn-wgpu"), x, (1, 8), grad_output=np.ones((1, 1, 1, 8)))
>>> y[0, 0, 0].tolist(), gx[0, 0, 0].tolist()
([0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0])
>>> call = library_call(Setup.of(mode="INTER_NEAREST_EXACT", backend="opencv"))
>>> call.library, call.mode, call.spec.index_arithmetic
('opencv', 'INTER_NEAREST_EXACT', 'incremental')
>>> print(library_call(Setup.of(mode="bilinear", backend="burn-flex")))
burn Bilinear (backend='flex', align_corners=True): Spec(kernel='linear', coordinate_transformation_mode='align_corners')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import validate
from ..conventions import (
    NoGradientError,
    library_resize,
    library_resize_backward,
    library_resize_transpose,
    preset,
)
from ..conventions import mode_names as names
from ..conventions.burn import forward_backends
from ..conventions.onnx import OPSETS
from ..conventions.pytorch import ALIGN_CORNERS_MODES, ANTIALIAS_MODES
from ..conventions.registry import Library, library
from ..engine.resize import resize, resize_backward
from ..engine.spec import Spec
from ..errors import ArgumentValueError, brief
from .target import Setup
from .versions import parse_version

_BURN_BACKENDS = {"burn-flex": "flex", "burn-ndarray": "ndarray", "burn-tch": "tch", "burn-wgpu": "cubecl",
                  "burn-cuda": "cubecl", "burn-rocm": "cubecl", "burn-cpu": "cubecl",
                  "burn-candle": "ndarray"}  # candle's upsample_nearest2d floors o * (in/out) in f64
_TORCH_LINEAR = {1: "linear", 2: "bilinear", 3: "trilinear"}
_FLOOR_NEAREST = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")


@dataclass(frozen=True)
class LibraryCall:
    """A library preset (``library``, native ``mode``, the library's ``options``), or for a backend the presets
    do not cover, a bare ``spec`` run by the engine (with ``steps_by_factor`` when its kernel steps by
    ``1/scale_factor``)."""

    library: str | None
    mode: str | None
    options: dict = field(default_factory=dict)
    spec_only: Spec | None = None
    steps_by_factor: bool = False

    @property
    def spec(self) -> Spec:
        return self.spec_only if self.spec_only is not None else preset(self.library, self.mode, **self.options)

    @property
    def rules(self) -> Library | None:
        return None if self.library is None else library(self.library)

    def takes_scale_factor(self) -> bool:
        """Whether the library turns a scale factor into the output size itself (else the size is given)."""
        if self.library is None:
            return self.steps_by_factor
        return type(self.rules).output_length is not Library.output_length

    def __str__(self):
        if self.library is None:
            return repr(self.spec)
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{self.library} {self.mode}{f' ({opts})' if opts else ''}: {self.spec!r}"


def library_call(setup: Setup, spatial=None, out=None, intended=True) -> LibraryCall:
    """The preset (or, for a backend without presets, the Spec) that computes what ``setup`` computes.

    ``spatial`` and ``out`` (input and output sizes) matter only for MLX nearest; raises ValueError when the
    setup has no numeric model.
    """
    b, mode = setup.backend, setup.mode
    lib = b.library
    if lib == "torch":
        return LibraryCall("torch", mode, _torch_options(mode, setup.align_corners, setup.antialias))
    if lib == "burn":
        return _burn_call(setup, intended)
    if lib in ("tensorflow", "jax"):
        return LibraryCall(lib, mode, {"antialias": setup.antialias})
    if lib == "onnxruntime":
        return LibraryCall("onnx", mode, _onnx_options(setup))
    if lib in ("opencv", "pillow"):
        return LibraryCall(lib, mode, {})
    # backends without presets: mapped onto one (see the module's docstring)
    family = setup.family
    if b.id in ("keras-tensorflow", "keras-jax"):
        target = "tensorflow" if b.id == "keras-tensorflow" else "jax"
        return LibraryCall(target, names.library_mode(target, mode), {"antialias": setup.antialias})
    if b.id == "keras-torch":
        torch_mode = {"nearest": "nearest-exact", "bilinear": "bilinear", "bicubic": "bicubic"}.get(mode)
        if torch_mode is None and intended:  # what the method means in Keras: its TensorFlow backend's
            return LibraryCall("tensorflow", mode, {"antialias": setup.antialias})
        if torch_mode is None:
            raise ArgumentValueError(f"Keras's torch backend has no {mode!r} (it maps nearest, bilinear and bicubic only)")
        return LibraryCall("torch", torch_mode, _torch_options(torch_mode, False, setup.antialias))
    if lib == "tensorrt":
        if family == "nearest":
            return LibraryCall("onnx", "nearest", {"coordinate_transformation_mode": "asymmetric",
                                                   "nearest_mode": "floor"})
        return LibraryCall("onnx", family, {"coordinate_transformation_mode":
                                            "align_corners" if setup.align_corners else "asymmetric"})
    if lib == "mlx":
        if family == "nearest":
            growing = spatial is not None and out is not None and all(m > n for n, m in zip(spatial, out))
            spec = (Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_half_even")
                    if growing else _FLOOR_NEAREST)
            return LibraryCall(None, None, spec_only=spec, steps_by_factor=True)
        torch_mode = _TORCH_LINEAR.get(setup.spatial_dims) if family == "linear" else "bicubic"
        return LibraryCall("torch", torch_mode, _torch_options(torch_mode, setup.align_corners, setup.antialias))
    if lib in ("candle", "coreml"):
        if family == "nearest":
            return LibraryCall(None, None, spec_only=_FLOOR_NEAREST)
        transform = "align_corners" if setup.align_corners else "half_pixel"
        return LibraryCall(None, None, spec_only=Spec("linear", coordinate_transformation_mode=transform))
    raise ArgumentValueError(f"no numeric model for {b.id} mode {mode!r}")


def _torch_options(mode, align_corners, antialias) -> dict:
    """F.interpolate's options for ``mode``: align_corners and antialias only where the mode takes them."""
    options = {}
    if mode in ALIGN_CORNERS_MODES:
        options["align_corners"] = align_corners
    if mode in ANTIALIAS_MODES:
        options["antialias"] = True if mode == "lanczos" else bool(antialias)
    return options


def _onnx_options(setup: Setup) -> dict:
    options = {}
    if setup.opset is not None:  # the Resize version in force at this opset
        versions = [v for v in OPSETS if v <= setup.opset]
        if not versions:
            raise ArgumentValueError(f"opset {setup.opset} has no Resize operator (it starts at opset 10)")
        options["opset"] = versions[-1]
    if setup.align_corners and setup.mode != "nearest":
        options["coordinate_transformation_mode"] = "align_corners"
    if setup.antialias:
        options["antialias"] = 1
    return options


def _burn_call(setup: Setup, intended: bool) -> LibraryCall:
    backend = _BURN_BACKENDS[setup.backend.id]
    mode = setup.mode
    if not intended and mode == "NearestExact" and setup.version == "0.22.0-pre.1" and backend == "cubecl":
        mode = "Nearest"  # the fusion IR's NearestExact -> Nearest (fixed in 0.22.0-pre.2)
    runs = forward_backends(mode)
    if intended and backend not in runs and runs:
        backend = runs[0]  # what the mode means in Burn, on a backend that has it
    options = {"backend": backend}
    if mode not in ("Nearest", "NearestExact"):  # nearest ignores align_corners
        options["align_corners"] = _burn_align_corners(setup)
    return LibraryCall("burn", mode, options)


def _burn_align_corners(setup: Setup) -> bool:
    if setup.version is not None and parse_version(setup.version) < parse_version("0.21.0-pre.2"):
        return True  # hard-coded before the option existed
    return True if setup.align_corners is None else bool(setup.align_corners)


# ------------------------------------------------------------------------------------------------ sizes
def _factors(scale_factor, count):
    """One positive finite factor per spatial axis (a number is repeated)."""
    return tuple(validate.scale_factors(scale_factor, count))


def output_size(setup: Setup, spatial, size=None, scale_factor=None) -> tuple[int, ...]:
    """The output size the backend produces for ``size`` or ``scale_factor`` (the library's own rule:
    PyTorch/MLX/Burn floor, ONNX ``int(float32(f) * n)``, OpenCV cvRound; libraries that take only a size get
    ``floor(n * f)``)."""
    if size is not None:
        size = (size,) * len(spatial) if validate.is_integer(size) else validate.lengths(size)
        if len(size) != len(spatial):
            raise ArgumentValueError(f"size={size} has {len(size)} entries but the input has {len(spatial)} spatial axes "
                             f"{tuple(spatial)}")
        return validate.lengths(size)
    factors = _factors(scale_factor, len(spatial))
    try:
        call = library_call(setup)
        rules = call.rules if call.library is not None and call.takes_scale_factor() else None
        options = None if rules is None else rules.resolve_options(rules.mode(call.mode), call.options)
    except ValueError:
        rules = None  # no numeric model for these options: the size the user would compute
    try:
        if rules is not None:
            out = tuple(rules.output_length(int(n), f, options) for n, f in zip(spatial, factors))
        else:
            out = tuple(int(math.floor(n * f)) for n, f in zip(spatial, factors))
    except OverflowError:
        raise ArgumentValueError(f"scale_factor={brief(scale_factor)} makes the output of an input of size "
                                 f"{tuple(spatial)} too long to allocate") from None
    if any(m < 1 for m in out):  # a factor such as 1e-300: the library refuses an empty output
        raise ArgumentValueError(f"scale_factor={brief(scale_factor)} gives an empty output {out} for an input of "
                                 f"size {tuple(spatial)}; give a factor that leaves at least one sample on every axis")
    return out


def _arguments(call: LibraryCall, dims, out, scale_factor) -> dict:
    """The size arguments of the call: the scale factor where the library takes one, else the size."""
    axes = tuple(range(2, 2 + dims))
    if scale_factor is not None and call.takes_scale_factor():
        factors = _factors(scale_factor, dims)
        if call.library is None:
            return dict(size=out, axes=axes, scale_factor=factors)
        return dict(axes=axes, scale_factor=factors)
    return dict(size=out, axes=axes)


# ------------------------------------------------------------------------------------------------ compute
def forward(setup: Setup, x, size=None, scale_factor=None, intended=True) -> np.ndarray:
    """The setup's output for ``x`` (N, C, *spatial)."""
    x = np.asarray(x)
    spatial = x.shape[2:]
    out = output_size(setup, spatial, size, scale_factor)
    call = library_call(setup, spatial, out, intended)
    args = _arguments(call, x.ndim - 2, out, scale_factor)
    if call.library is None:
        return resize(x, args.pop("size"), call.spec, **args)
    return library_resize(x, library=call.library, mode=call.mode, **args, **call.options)


def backward(setup: Setup, grad_output, input_shape, size=None, scale_factor=None, intended=True,
             transpose=True) -> np.ndarray:
    """The gradient the setup's library returns for ``grad_output``.

    Where the library computes no gradient (OpenCV, Pillow, TensorFlow area, ONNX Runtime on CPU, some Burn
    backends) this is ``W^T grad_output``, the transpose of its forward, with ``transpose=True``; with
    ``transpose=False`` it raises :class:`explorer.conventions.NoGradientError` naming the library.
    """
    input_shape = tuple(int(s) for s in input_shape)
    spatial = input_shape[2:]
    out = output_size(setup, spatial, size, scale_factor)
    call = library_call(setup, spatial, out, intended)
    args = _arguments(call, len(spatial), out, scale_factor)
    if call.library is None:
        return resize_backward(grad_output, input_shape, args.pop("size"), call.spec, **args)
    kwargs = dict(library=call.library, mode=call.mode, **args, **call.options)
    try:
        return library_resize_backward(grad_output, input_shape, **kwargs)
    except NoGradientError:
        if not transpose:
            raise
        return library_resize_transpose(grad_output, input_shape, **kwargs)


def compute(setup: Setup, x, size=None, scale_factor=None, grad_output=None, intended=True):
    """``(y, grad_x)`` of the setup's resize; ``grad_x`` is None without ``grad_output`` (and ``W^T grad_output``
    where the library has no gradient, see :func:`backward`)."""
    x = np.asarray(x)
    y = forward(setup, x, size, scale_factor, intended)
    g = None if grad_output is None else backward(setup, grad_output, x.shape, size, scale_factor, intended)
    return y, g

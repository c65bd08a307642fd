"""What a backend computes for a setup, forward and backward, on a numpy array (N, C, *spatial).

PyTorch runs through :func:`explorer.interpolate`; Burn through PyTorch's conventions for an explicit size
(``Nearest`` = ``nearest``, ``NearestExact`` = ``nearest-exact``, ``Bilinear``/``Bicubic`` with
``align_corners`` defaulting to true, ``Lanczos3`` = a 6-tap renormalised Lanczos-3 without widening); the
other libraries through one :class:`~explorer.Spec` per mode.  ``intended=False`` also reproduces the known
silent bugs of the setup's version (v0.22.0-pre.1's NearestExact -> Nearest under fusion).

>>> import numpy as np
>>> from explorer.compat.setup import Setup
>>> x = np.arange(4.0).reshape(1, 1, 1, 4)
>>> y, gx = compute(Setup.of(mode="NearestExact", backend="burn-wgpu"), x, (1, 8), grad_output=np.ones((1, 1, 1, 8)))
>>> y[0, 0, 0].tolist(), gx[0, 0, 0].tolist()
([0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0])
"""

from __future__ import annotations

import math

import numpy as np

from ..apply import resize, resize_backward
from ..spec import Spec
from ..torch_api import interpolate, interpolate_backward
from .setup import Setup
from .versions import parse_version

_BURN_TORCH = {"Nearest": "nearest", "NearestExact": "nearest-exact", "Bilinear": "bilinear",
               "Bicubic": "bicubic"}
_FUSION_BUG = ("burn-wgpu", "burn-cuda", "burn-rocm", "burn-cpu")


def output_size(setup: Setup, spatial, size=None, scale_factor=None) -> tuple[int, ...]:
    """The output size the backend produces for ``size`` or ``scale_factor``."""
    if size is not None:
        size = (size,) * len(spatial) if isinstance(size, (int, np.integer)) else tuple(int(s) for s in size)
        if len(size) != len(spatial):
            raise ValueError(f"size={size} has {len(size)} entries but the input has {len(spatial)} spatial axes "
                             f"{tuple(spatial)}")
        return size
    factors = _factors(scale_factor, len(spatial))
    if setup.backend.library == "opencv":
        return tuple(int(round(n * f)) for n, f in zip(spatial, factors))  # cvRound: half to even
    return tuple(int(math.floor(n * f)) for n, f in zip(spatial, factors))


def _factors(scale_factor, count):
    if isinstance(scale_factor, (int, float, np.integer, np.floating)) and not isinstance(scale_factor, bool):
        return (float(scale_factor),) * count
    factors = tuple(float(f) for f in scale_factor)
    if len(factors) != count:
        raise ValueError(f"scale_factor={scale_factor} has {len(factors)} entries for {count} spatial axes")
    return factors


def _kernel_steps_by_factor(setup: Setup) -> bool:
    """Whether the backend's kernel steps by 1/scale_factor (else by n/m from the output size)."""
    return setup.backend.library in ("torch", "onnxruntime", "tensorrt", "opencv", "mlx")


def compute(setup: Setup, x, size=None, scale_factor=None, grad_output=None, intended=True):
    """``(y, grad_x)`` of the setup's resize; ``grad_x`` is None without ``grad_output``."""
    x = np.asarray(x)
    dims = x.ndim - 2
    spatial = x.shape[2:]
    out = output_size(setup, spatial, size, scale_factor)
    steps = scale_factor if scale_factor is not None and _kernel_steps_by_factor(setup) else None
    library = setup.backend.library
    if library == "torch" or setup.backend.id == "keras-torch":
        mode, ac, aa = _torch_call(setup)
        kwargs = dict(mode=mode, align_corners=ac, antialias=aa)
        if steps is not None:
            kwargs["scale_factor"] = steps
        else:
            kwargs["size"] = out
        y = interpolate(x, **kwargs)
        g = None if grad_output is None else interpolate_backward(grad_output, x.shape, **kwargs)
        return y, g
    if library == "burn" and setup.mode in _BURN_TORCH:
        mode = _BURN_TORCH[setup.mode]
        if (not intended and mode == "nearest-exact" and setup.version == "0.22.0-pre.1"
                and setup.backend.id in _FUSION_BUG):
            mode = "nearest"
        ac = None
        if mode in ("bilinear", "bicubic"):
            ac = _burn_align_corners(setup)
        y = interpolate(x, size=out, mode=mode, align_corners=ac)
        g = None if grad_output is None else interpolate_backward(grad_output, x.shape, size=out, mode=mode,
                                                                     align_corners=ac)
        return y, g
    spec = library_spec(setup, spatial, out)
    axes = tuple(range(2, 2 + dims))
    factor = _factors(steps, dims) if steps is not None else None
    y = resize(x, out, spec, axes=axes, scale_factor=factor)
    g = None if grad_output is None else resize_backward(grad_output, x.shape, out, spec, axes=axes,
                                                         scale_factor=factor)
    return y, g


def _torch_call(setup: Setup):
    mode = setup.mode
    if setup.backend.id == "keras-torch":
        mode = {"nearest": "nearest-exact", "bilinear": "bilinear", "bicubic": "bicubic"}.get(mode, mode)
        ac = False if mode in ("bilinear", "bicubic") else None
        return mode, ac, setup.antialias and mode in ("bilinear", "bicubic")
    if mode in ("nearest", "nearest-exact", "area"):
        return mode, None, False
    if mode == "lanczos":
        return mode, None, True
    aa = setup.antialias and mode in ("bilinear", "bicubic")
    return mode, setup.align_corners, aa


def _burn_align_corners(setup: Setup) -> bool:
    if setup.version is not None and parse_version(setup.version) < parse_version("0.21.0-pre.2"):
        return True  # hard-coded before the option existed
    return True if setup.align_corners is None else bool(setup.align_corners)


def library_spec(setup: Setup, spatial=None, out=None) -> Spec:
    """The Spec of a non-PyTorch setup (the convention its library documents for this mode)."""
    lib, mode, aa, ac = setup.backend.library, setup.mode, setup.antialias, bool(setup.align_corners)
    transform = "align_corners" if ac else "half_pixel"
    nearest_exact = Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")
    nearest_floor = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    family = setup.family
    if lib == "burn":  # Lanczos3: 6 taps, out-of-image taps dropped and renormalised, never widened
        return Spec("lanczos3", coordinate_transformation_mode="align_corners" if _burn_align_corners(setup)
                    else "half_pixel", exclude_outside=True)
    if lib in ("tensorflow", "jax", "keras"):
        if family in ("nearest", "nearest-exact"):
            return nearest_exact
        if family == "area":
            return Spec("area")
        if lib == "jax" and mode == "cubic-pytorch" and not aa:
            return Spec("cubic", cubic_coeff_a=-0.75)
        kernel = {"linear": "linear", "cubic": "cubic", "mitchellcubic": "mitchell"}.get(family, family)
        return Spec(kernel, cubic_coeff_a=-0.5, exclude_outside=True, antialias=aa)
    if lib == "pillow":
        if family == "nearest-exact":
            return nearest_exact
        kernel = {"linear": "linear", "cubic": "cubic"}.get(family, family)
        return Spec(kernel, cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
    if lib == "opencv":
        if mode == "INTER_NEAREST":
            return nearest_floor
        if mode == "INTER_NEAREST_EXACT":
            return nearest_exact
        if family == "area":
            return Spec("area")
        return Spec({"linear": "linear", "cubic": "cubic", "lanczos4": "lanczos4"}[family], cubic_coeff_a=-0.75)
    if lib == "onnxruntime":  # Resize with its default attributes
        if family in ("nearest", "nearest-exact"):
            return Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_floor")
        return Spec(family, coordinate_transformation_mode=transform, cubic_coeff_a=-0.75, antialias=aa)
    if lib == "tensorrt":  # IResizeLayer defaults: asymmetric coordinates, floor rounding
        if family == "nearest":
            return nearest_floor
        return Spec(family, coordinate_transformation_mode="align_corners" if ac else "asymmetric",
                    cubic_coeff_a=-0.75)
    if lib == "mlx":
        if family == "nearest":
            upsampling = spatial is not None and out is not None and all(m > n for n, m in zip(spatial, out))
            return (Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_half_even")
                    if upsampling else nearest_floor)
        if aa:
            return Spec(family, cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
        return Spec(family, coordinate_transformation_mode=transform, cubic_coeff_a=-0.75)
    if lib in ("candle", "coreml"):
        if family == "nearest":
            return nearest_floor
        return Spec("linear", coordinate_transformation_mode=transform)
    raise ValueError(f"no numeric model for {setup.backend.id} mode {mode!r}")

"""``torch.nn.functional.interpolate`` (PyTorch 2.13, CPU) on numpy arrays, forward and autograd backward.

The mode table below turns PyTorch's arguments into a :class:`~explorer.engine.spec.Spec`; everything PyTorch
does differently from its own mathematics is one of the per-axis *scale rules* further down, each citing the
kernel behaviour it reproduces.  No formula lives here: weights come from ``plan.py``.

>>> import numpy as np, explorer
>>> x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
>>> explorer.interpolate(x, size=(3, 3), mode="bilinear")[0, 0, 0].round(6).tolist()
[0.833333, 2.166667, 3.5]
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ..errors import choice_error
from ..engine.execute import _as_array, _run, check_memory
from ..engine.band import Band
from ..engine.plan import AxisPlan, axis_plan
from ..engine.spec import Spec

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos")

# mode -> Spec fields (align_corners and antialias adjust these; see torch_spec)
_MODE_TABLE = {
    "nearest": dict(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    "nearest-exact": dict(kernel="nearest", coordinate_transformation_mode="half_pixel",
                          nearest_mode="round_prefer_ceil"),
    "linear": dict(kernel="linear"),
    "bilinear": dict(kernel="linear"),
    "trilinear": dict(kernel="linear"),
    "bicubic": dict(kernel="cubic", cubic_coeff_a=-0.75),
    "area": dict(kernel="adaptive_area"),
    "lanczos": dict(kernel="lanczos3", antialias=True, exclude_outside=True),
}
_RANK = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5, "lanczos": 4}
_ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")
UINT8_MODES = ("bilinear", "bicubic", "lanczos")  # interpolating modes PyTorch computes on uint8 (CPU)


def torch_spec(mode: str, align_corners: bool = False, antialias: bool = False, dtype=np.float32,
               indexed_nearest: bool = False) -> Spec:
    """The Spec PyTorch's CPU kernels use for ``mode`` (arguments already validated).

    ``indexed_nearest`` selects PyTorch's ``nearest_idx`` kernels for the nearest modes (see
    :func:`nearest_kernel_is_indexed`); the generic kernels compute indices in the input's precision.

    >>> torch_spec("bicubic", antialias=True)
    Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
    """
    fields = dict(_MODE_TABLE[mode])
    if antialias:
        fields.update(antialias=True, exclude_outside=True)
        if mode == "bicubic":
            fields["cubic_coeff_a"] = -0.5  # "compatibility with PIL"
    if align_corners:
        fields["coordinate_transformation_mode"] = ("pytorch_antialias_align_corners" if antialias
                                                    else "align_corners")
    if fields["kernel"] == "nearest":
        if indexed_nearest:
            # nearest_idx / nearest_exact_idx: a float32 scale, floorf(i * s) and floorf((i + 0.5) * s)
            # with a double product
            fields["index_arithmetic"] = "float32_scale"
            if mode == "nearest-exact":
                fields.update(coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="floor")
        else:
            # the generic 1-D/3-D kernels compute in the input's opmath type
            # (floorf: the coordinate is narrowed to float32 before rounding, even for doubles)
            fields["index_arithmetic"] = "float64_floorf" if np.dtype(dtype) == np.float64 else "float32"
    return Spec(**fields)


def nearest_kernel_is_indexed(shape, output_size, direction: str) -> bool:
    """Whether PyTorch 2.13's CPU nearest kernels use ``nearest_idx`` for this call (UpSampleKernel.cpp).

    Every nearest backward kernel does.  Forward, the 2-D kernel does when the output is small
    (``H_out + W_out <= 128``) or the input is channels-last with more than 3 channels (for a C-contiguous
    array: a 1x1 image), the 3-D kernel only in that channels-last case, the 1-D kernel never; otherwise the
    generic kernel computes indices in the input's precision and has no ``m == n`` / ``m == 2n`` shortcut.
    """
    if direction == "backward":
        return True
    dim = len(shape) - 2
    channels_last = shape[1] > 3 and all(s == 1 for s in shape[2:])
    if dim == 2:
        return channels_last or sum(output_size) <= 128
    if dim == 3:
        return channels_last
    return False


class InvalidSizeError(ValueError, RuntimeError):
    """An empty input or output size (PyTorch raises RuntimeError; this is also a ValueError)."""


def _resolve(shape, dtype, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias,
             direction):
    """Validate like ``F.interpolate`` and return (spec, [(axis, plan), ...])."""
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a string, got {mode!r}")
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
        align_corners = False
    elif align_corners is None:
        align_corners = False
    if not isinstance(align_corners, (bool, np.bool_)):
        raise TypeError(f"align_corners must be True, False or None, got {align_corners!r}")
    ndim = len(shape)
    dim = ndim - 2
    spatial = list(shape[2:])

    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {spatial} and output size of {size}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(s) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(s) for s in size]}")
            output_size = [int(s) for s in size]
        elif _is_integer(size):
            output_size = [int(size)] * dim
        else:
            raise TypeError(f"size must be an int or a tuple of ints, got {size!r}")
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input "
                    f"with spatial dimensions of {spatial} and scale_factor of shape {scale_factor}. Please "
                    "provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
                    "(s1, s2, ...,sK) format.")
            scale_factors = list(scale_factor)
        else:
            scale_factors = [scale_factor] * dim
        for f in scale_factors:
            if isinstance(f, bool) or not isinstance(f, numbers.Real):
                raise TypeError(f"scale_factor must be a number or a tuple of numbers, got {scale_factor!r}")
            if not math.isfinite(f) or f <= 0:
                raise ValueError(f"scale_factor must be positive and finite, got {scale_factor!r}")
        scale_factors = [float(f) for f in scale_factors]
    else:
        raise ValueError("either size or scale_factor should be defined")

    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if output_size is None:
        output_size = [int(n * f) for n, f in zip(spatial, scale_factors)]
        if recompute_scale_factor:
            scale_factors = None

    if antialias and not (mode in _ANTIALIAS_MODES and ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires "
                         "a 4-D tensor as input")
    if mode not in MODES:
        raise choice_error("mode", mode, MODES, kind=NotImplementedError,
                           context=f"for a {ndim}-D input")
    if ndim not in (3, 4, 5):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
            f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})")
    want = _RANK.get(mode)
    if want is not None and want != ndim:
        if mode in ("bicubic", "lanczos"):
            raise NotImplementedError(
                f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
                f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                f"(got {mode}); {mode} needs a 4D input")
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {want}D input")
    if mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")

    if any(n < 1 for n in spatial) or any(m < 1 for m in output_size):
        names = "DHW"[-dim:] if dim <= 3 else None
        fmt = (lambda v: ", ".join(f"{a}: {s}" for a, s in zip(names, v))) if names else str
        raise InvalidSizeError(
            f"Input and output sizes should be greater than 0, but got input ({fmt(spatial)}) output "
            f"({fmt(output_size)}); check size={size!r} / scale_factor={scale_factor!r}")
    _check_dtype(dtype, mode, antialias, direction)

    indexed = mode in ("nearest", "nearest-exact") and nearest_kernel_is_indexed(shape, output_size, direction)
    spec = torch_spec(mode, align_corners, antialias, dtype, indexed)
    scales = list(scale_factors) if scale_factors is not None else [None] * dim
    # --- per-axis scale rules: what the kernels really do with a user scale factor ---------------------
    for k, (n, m) in enumerate(zip(spatial, output_size)):
        if scales[k] is None:
            continue
        if mode in ("linear", "bilinear", "trilinear") and not antialias and m == n:
            scales[k] = None  # compute_source_index_and_lambda copies when sizes match
        elif antialias and m == n and direction == "forward":
            scales[k] = None  # the separable AA forward skips same-size axes; its backward does not
        elif mode == "nearest" and indexed and m in (n, 2 * n):
            scales[k] = None  # nearest_idx: m == n -> i, m == 2n -> i >> 1, whatever the scale
    if (mode == "bicubic" and not antialias and direction == "backward"
            and all(m == n for n, m in zip(spatial, output_size))):
        scales = [None] * dim  # upsample_bicubic2d_backward copies the gradient when no size changes
    start, changes = (shape, output_size) if direction == "forward" else (
        tuple(shape[:2]) + tuple(output_size), spatial)
    check_memory(start, {2 + k: v for k, v in enumerate(changes)}, max(np.dtype(dtype).itemsize, 4),
                 "output" if direction == "forward" else "gradient")
    plans = [(2 + k, axis_plan(n, m, spec, f, axis_index=k))
             for k, (n, m, f) in enumerate(zip(spatial, output_size, scales))]
    if (antialias and direction == "forward" and output_size[-1] == 1
            and output_size[-2] != spatial[-2]):
        # The separable AA forward's vertical pass, on an output one pixel wide, applies the weights of
        # output row 0 to every row (every row repeats row 0); its backward is the true transpose.
        plans[-2] = (plans[-2][0], _first_row_everywhere(plans[-2][1]))
    return spec, plans


def _first_row_everywhere(plan: AxisPlan) -> AxisPlan:
    band = plan.band
    taps = np.arange(band.length[0])
    rows = np.repeat(np.arange(plan.m), len(taps))
    cols = np.tile(band.start[0] + taps, plan.m)
    values = np.tile(band.weights[0, :len(taps)], plan.m)
    return AxisPlan(plan.n, plan.m, Band.from_triplets(rows, cols, values, plan.m, plan.n),
                    np.full(plan.m, plan.coordinates[0]), plan.step, plan.outside)


def _is_integer(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


_TORCH_DTYPE_NAMES = {"float16": "Half", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
                      "int64": "Long", "bool": "Bool", "uint16": "UInt16", "uint32": "UInt32",
                      "uint64": "UInt64", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _check_dtype(dtype, mode, antialias, direction):
    dtype = np.dtype(dtype)
    if dtype in (np.float32, np.float64):
        return
    name = _TORCH_DTYPE_NAMES.get(dtype.name, dtype.name)
    if direction == "backward" and dtype.kind != "f":
        raise TypeError(f"only floating point gradients exist: grad_output has dtype {dtype} "
                        "(PyTorch: only Tensors of floating point dtype can require gradients)")
    if dtype == np.float16:
        if antialias or mode == "lanczos":
            raise NotImplementedError(f'"compute_index_ranges_weights" not implemented for \'{name}\' '
                                      f"(PyTorch has no float16 {mode} antialias kernel on CPU)")
        return
    if dtype == np.uint8:
        if mode in ("nearest", "nearest-exact"):
            return
        if mode in UINT8_MODES:
            return  # PyTorch's int16 fixed-point kernels, reproduced in explorer.engine.fixed_point
        if mode == "area":
            raise NotImplementedError("\"adaptive_avg_pool2d\" not implemented for 'Byte'")
        raise NotImplementedError(f'"compute_indices_weights_linear" not implemented for \'Byte\' '
                                  f"(PyTorch has no uint8 {mode} kernel; convert with x.astype(np.float32))")
    raise NotImplementedError(f'"{mode}" not implemented for \'{name}\' (PyTorch resizes float32, float64, '
                              "float16 and, for most modes, uint8)")


def interpolate(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> np.ndarray:
    """Down/up-sample ``input`` of shape (N, C, *spatial) exactly like ``torch.nn.functional.interpolate``.

    Modes: ``nearest``, ``nearest-exact``, ``linear`` (3-D), ``bilinear``/``bicubic``/``lanczos`` (4-D),
    ``trilinear`` (5-D), ``area``.  With ``scale_factor`` the output size is ``floor(n * scale_factor)``
    and, unless ``recompute_scale_factor``, the kernel steps by ``1/scale_factor``.  float32 and float64 keep
    their dtype; float16 is computed in float32; uint8 follows PyTorch's CPU kernels bit for bit (nearest
    modes gather; bilinear, bicubic and lanczos use its int16 fixed point); other dtypes raise as PyTorch does.

    >>> import numpy as np
    >>> x = np.random.rand(1, 3, 37, 53).astype(np.float32)
    >>> interpolate(x, scale_factor=1.7, mode="bicubic").shape
    (1, 3, 62, 90)
    """
    x = _as_array(input, "input")
    spec, plans = _resolve(x.shape, x.dtype, size, scale_factor, mode, align_corners,
                           recompute_scale_factor, antialias, "forward")
    if x.dtype == np.uint8 and mode in UINT8_MODES:
        from ..engine import fixed_point

        # int16 weights with adaptive precision, the width pass then the height pass, each rounded
        return fixed_point.resample_uint8(x, plans[::-1], fixed_point.torch_bits)
    return _run(x, plans, spec, transpose=False, out=None)


def interpolate_backward(grad_output, input_shape, size=None, scale_factor=None, mode: str = "nearest",
                         align_corners=None, recompute_scale_factor=None, antialias: bool = False) -> np.ndarray:
    """The gradient with respect to the input that PyTorch autograd returns for ``interpolate``.

    It equals ``W.T @ grad_output`` for the weights of the *backward* kernel, which PyTorch does not always
    build like the forward one: with a ``scale_factor`` that leaves an axis's size unchanged, antialiased
    modes copy that axis forward but not backward, and ``bicubic`` does the opposite when no size changes.

    >>> import numpy as np
    >>> g = np.ones((1, 1, 8), np.float32)
    >>> interpolate_backward(g, (1, 1, 5), size=8, mode="nearest").tolist()
    [[[2.0, 2.0, 1.0, 2.0, 1.0]]]
    """
    g = _as_array(grad_output, "grad_output")
    try:
        input_shape = tuple(int(s) for s in input_shape)
    except TypeError:
        raise TypeError(f"input_shape must be a sequence of ints, got {input_shape!r}") from None
    if len(input_shape) != g.ndim:
        raise ValueError(f"grad_output has {g.ndim} dimensions but input_shape {input_shape} has "
                         f"{len(input_shape)}")
    spec, plans = _resolve(input_shape, g.dtype, size, scale_factor, mode, align_corners,
                           recompute_scale_factor, antialias, "backward")
    expected = input_shape[:2] + tuple(p.m for _, p in plans)
    if g.shape != expected:
        raise ValueError(f"grad_output has shape {g.shape}, but interpolating an input of shape {input_shape} "
                         f"gives {expected}")
    return _run(g, plans, spec, transpose=True, out=None)

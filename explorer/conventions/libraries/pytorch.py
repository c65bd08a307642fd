"""PyTorch 2.13 ``torch.nn.functional.interpolate`` (CPU), forward and autograd backward, as a library row.

PyTorch is a library like the others: a mode table giving a Spec, option rules, and the hooks of
:class:`~explorer.conventions.registry.Library`.  :func:`interpolate` and :func:`interpolate_backward` are
thin wrappers that check arguments in ``F.interpolate``'s order (with its messages and exception types) and
run the same path as :func:`explorer.library_resize`.

Where PyTorch's kernels compute something other than their own mathematics, a hook reproduces it; each
quirk is written once, as a named note, and the hooks cite the notes:

Note [nearest_idx]
    PyTorch 2.13's CPU nearest kernels (UpSampleKernel.cpp) come in two kinds.  ``nearest_idx`` computes a
    float32 scale and ``floorf(i * s)`` (``floorf((i + 0.5) * s)`` for nearest-exact) with a double product,
    and shortcuts ``m == n`` (``i``) and ``m == 2n`` (``i >> 1``) whatever the scale.  The generic kernels
    compute indices in the input's own precision (a fused multiply-add for float32) with no shortcut.  Every
    nearest *backward* uses ``nearest_idx``; forward, the 2-D kernel does when ``H_out + W_out <= 128`` or
    the input is channels-last with more than 3 channels (for a C-contiguous array: a 1x1 image), the 3-D
    kernel only in that channels-last case, the 1-D kernel never.  So the backward of a nearest resize by
    ``scale_factor=1.1`` in 1-D or 3-D is not the transpose of its forward.

Note [same-size axes]
    An axis whose length does not change: linear modes (no antialias) copy it whatever the ``scale_factor``
    (compute_source_index_and_lambda), the separable antialiased forward skips it but its backward does
    not, and ``upsample_bicubic2d_backward`` copies the gradient when no length changes.

Note [float arithmetic]
    The float kernels compute scales, source coordinates and weights in their own types: float32 input in
    float32 (a fused multiply-add for the coordinate, except in the bicubic backward), float64 in double
    with ``floorf`` narrowing the coordinate, antialias weights in the input's type.  The Spec's arithmetic
    row ``"torch"`` reproduces them (explorer.engine.native.pytorch); at 100 000 -> 99 999 float64 weights
    would be off by 5e-3.

Note [antialias output width 1]
    The separable kernel's vertical pass (``separable_upsample_generic_Nd_kernel_impl``), on an output one
    pixel wide, applies the weights of output row 0 to every row (every row repeats row 0) when the height
    changes.  It runs the antialiased float forward, and every uint8 forward with more than 4 channels
    (antialiased or not); uint8 with at most 4 channels takes the AVX2 kernel (UpSampleKernelAVXAntialias.h),
    which is right, except that a 3-channel image resized to 1x1 fails its internal assert
    (``num_channels == unpacked_output.size(0)``).  Backward is the true transpose.  [measured, torch 2.13.0
    CPU with AVX2]

Note [reduced floats]
    float16 and bfloat16 are computed as PyTorch 2.13's CPU kernels compute them (opmath float): nearest
    gathers; the generic linear and bicubic kernels round their weights to the input's type, then multiply and
    sum in float and round once (explorer.engine.native.pytorch); the channels-last linear kernel (2-D when
    ``H_out + W_out <= 128``, the rule of Note [nearest_idx]; 3-D in its channels-last case) keeps float
    weights.  Adaptive average pooling (``area``) sums in float and divides by ``kh`` then ``kw`` in float in
    1-D and 2-D (AdaptiveAvgPoolKernel.cpp), but in 3-D sums in the input's type, rounding after every
    addition and after each division by ``kd``, ``kh``, ``kw``; to one output per plane it is ``input.mean()``
    (a float sum divided by the count: AdaptiveAveragePooling.cpp, AdaptiveAveragePooling3d.cpp).  Backward:
    the interpolating and nearest kernels accumulate in a float buffer and round once; ``area``'s backward
    rounds ``grad / kh / kw`` after each division and adds it into the gradient in the input's type, output
    by output (``mean``'s: the gradient divided by the count, rounded once).  Antialias has no reduced kernel
    (``"compute_index_ranges_weights" not implemented``).  [measured against torch 2.13.0 CPU
    bit for bit; PyTorch running on one thread with exactly 3 channels takes the channels-last bilinear kernel
    at any size, which is not modelled]

>>> import numpy as np, explorer
>>> x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
>>> explorer.interpolate(x, size=(3, 3), mode="bilinear")[0, 0, 0].round(6).tolist()
[0.833333, 2.166667, 3.5]
>>> from explorer.conventions import preset
>>> preset("torch", "bicubic", antialias=True)
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True, index_arithmetic='torch')
"""

from __future__ import annotations

import math

import numpy as np

from ... import validate
from ...engine import fixed_point
from ...engine.band import Band
from ...engine.execute import scatter_rounded, window_sums_rounded
from ...engine.plan import AxisPlan
from ...engine.spec import Spec
from ...errors import (
    ArgumentTypeError,
    ArgumentValueError,
    InvalidSizeError,
    UnsupportedError,
    choice_error,
)
from ..library_resize import prepare, run_backward, run_forward
from ..declarations import Backend, Computation, Runtime
from ..registry import Api, Library, Option, Request, register

MODES = ("nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos")
ALIGN_CORNERS_MODES = ("linear", "bilinear", "bicubic", "trilinear")
ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")
UINT8_MODES = ("bilinear", "bicubic", "lanczos")  # interpolating modes PyTorch computes on uint8 (CPU)
_LINEAR_MODES = ("linear", "bilinear", "trilinear")

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
_MODE_LIST = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def torch_spec(mode: str, align_corners: bool = False, antialias: bool = False, dtype=np.float32,
               indexed_nearest: bool = False) -> Spec:
    """The Spec PyTorch's CPU kernels use for ``mode`` (arguments already validated).

    ``indexed_nearest`` selects the ``nearest_idx`` kernels for the nearest modes (Note [nearest_idx]); the
    generic kernels compute indices in the input's precision.

    >>> torch_spec("bicubic", antialias=True)
    Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True, index_arithmetic='torch')
    """
    fields = dict(_MODE_TABLE[mode])
    if antialias:
        fields.update(antialias=True, exclude_outside=True)
        if mode == "bicubic":
            fields["cubic_coeff_a"] = -0.5  # "compatibility with PIL"
    if align_corners:
        fields["coordinate_transformation_mode"] = ("pytorch_antialias_align_corners" if antialias
                                                    else "align_corners")
    if fields["kernel"] != "nearest" and fields["kernel"] != "adaptive_area":
        fields["index_arithmetic"] = "torch"  # Note [float arithmetic]; the plan reads the dtype
    if fields["kernel"] == "nearest":
        if indexed_nearest:  # a float32 scale, floorf(i * s) and floorf((i + 0.5) * s) with a double product
            fields["index_arithmetic"] = "float32_scale"
            if mode == "nearest-exact":
                fields.update(coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="floor")
        else:  # the generic kernels: the input's opmath type; floorf narrows the coordinate even for doubles
            fields["index_arithmetic"] = "float64_floorf" if np.dtype(dtype) == np.float64 else "float32"
    return Spec(**fields)


def nearest_kernel_is_indexed(shape, output_size, direction: str) -> bool:
    """Whether PyTorch 2.13 uses ``nearest_idx`` for this (N, C, *spatial) call (Note [nearest_idx])."""
    if direction == "backward":
        return True
    dim = len(shape) - 2
    channels_last = shape[1] > 3 and all(s == 1 for s in shape[2:])
    if dim == 2:
        return channels_last or sum(output_size) <= 128
    if dim == 3:
        return channels_last
    return False


# ------------------------------------------------------------------------------------------------ checks
# F.interpolate's own checks, with its messages and exception types, in the order it makes them.
def _check_mode_type(mode):
    if not isinstance(mode, str):
        raise ArgumentTypeError(f"mode must be a string, got {mode!r}")


def _check_align_corners(mode: str, align_corners) -> bool:
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ArgumentValueError("align_corners option can only be set with the interpolating modes: "
                                     "linear | bilinear | bicubic | trilinear")
        return False
    if align_corners is None:
        return False
    if not isinstance(align_corners, (bool, np.bool_)):
        raise ArgumentTypeError(f"align_corners must be True, False or None, got {align_corners!r}")
    return bool(align_corners)


def _output_size(spatial, size, scale_factor):
    """F.interpolate's output size and the user's factors (None when the size is given)."""
    dim = len(spatial)
    if size is not None and scale_factor is not None:
        raise ArgumentValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ArgumentValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(spatial)} and output size of {size}. Please provide input "
                    "tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(validate.is_integer(s) for s in size):
                raise ArgumentTypeError(
                    "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], "
                    f"but got size with types {[type(s) for s in size]}")
            return [int(s) for s in size], None
        if validate.is_integer(size) or (isinstance(size, np.ndarray) and size.ndim == 0
                                         and size.dtype.kind in "iu"):
            return [int(size)] * dim, None
        raise ArgumentTypeError(f"size must be an int or a tuple of ints, got {size!r}")
    if scale_factor is None:
        raise ArgumentValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ArgumentValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                f"spatial dimensions of {list(spatial)} and scale_factor of shape {scale_factor}. Please "
                "provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) "
                "format.")
        factors = list(scale_factor)
    else:
        factors = [scale_factor] * dim
    for f in factors:
        if not validate.is_number(f):
            raise ArgumentTypeError(f"scale_factor must be a number or a tuple of numbers, got {scale_factor!r}")
        if not math.isfinite(f) or f <= 0:
            raise ArgumentValueError(f"scale_factor must be positive and finite, got {scale_factor!r}")
    factors = [float(f) for f in factors]
    output = []
    for n, f in zip(spatial, factors):
        m = n * f
        if not math.isfinite(m) or m > 2**62:
            raise ArgumentValueError(f"scale_factor={scale_factor!r} gives an output length of {n} * {f}, "
                                     "too large to allocate")
        output.append(int(m))
    return output, factors


def _check_recompute(recompute_scale_factor, size_given: bool):
    if recompute_scale_factor and size_given:
        raise ArgumentValueError("recompute_scale_factor is not meaningful with an explicit size.")


def _check_antialias(mode: str, antialias, ndim: int | None):
    if antialias and (mode not in ANTIALIAS_MODES or (ndim is not None and ndim != 4)):
        raise ArgumentValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
                                 "requires a 4-D tensor as input")


def _check_rank(mode: str, ndim: int):
    if ndim not in (3, 4, 5):
        raise UnsupportedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the "
                               f"modes: {_MODE_LIST} (got {mode})")
    want = _RANK.get(mode)
    if want is not None and want != ndim:
        if mode in ("bicubic", "lanczos"):
            raise UnsupportedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for "
                                   f"the modes: {_MODE_LIST} (got {mode}); {mode} needs a 4D input")
        raise UnsupportedError(f"Got {ndim}D input, but {mode} mode needs {want}D input")


def _check_lanczos(mode: str, align_corners, antialias):
    if mode == "lanczos":
        if align_corners:
            raise ArgumentValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ArgumentValueError("Lanczos mode requires antialias=True")


def _check_sizes(spatial, output_size, hint: str = ""):
    if any(n < 1 for n in spatial) or any(m < 1 for m in output_size):
        dim = len(spatial)
        names = "DHW"[-dim:] if 1 <= dim <= 3 else None
        fmt = (lambda v: ", ".join(f"{a}: {s}" for a, s in zip(names, v))) if names else str
        raise InvalidSizeError(f"Input and output sizes should be greater than 0, but got input "
                               f"({fmt(spatial)}) output ({fmt(output_size)}){hint}")


_TORCH_DTYPE_NAMES = {"float16": "Half", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int",
                      "bfloat16": "BFloat16", "int64": "Long", "bool": "Bool", "uint16": "UInt16", "uint32": "UInt32",
                      "uint64": "UInt64", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _check_dtype(dtype, mode, antialias, direction):
    dtype = np.dtype(dtype)
    if dtype in (np.float32, np.float64):
        return
    name = _TORCH_DTYPE_NAMES.get(dtype.name, dtype.name)
    if direction == "backward" and not validate.is_float(dtype):
        raise ArgumentTypeError(f"only floating point gradients exist: grad_output has dtype {dtype} "
                                "(PyTorch: only Tensors of floating point dtype can require gradients)")
    if validate.is_reduced_float(dtype):
        if antialias or mode == "lanczos":
            raise UnsupportedError(f'"compute_index_ranges_weights" not implemented for \'{name}\' '
                                   f"(PyTorch has no {dtype} {mode} antialias kernel on CPU)")
        return
    if dtype == np.uint8:
        if mode in ("nearest", "nearest-exact") or mode in UINT8_MODES:
            return  # a gather, or PyTorch's int16 fixed point (explorer.engine.fixed_point)
        if mode == "area":
            raise UnsupportedError("\"adaptive_avg_pool2d\" not implemented for 'Byte'")
        raise UnsupportedError(f'"compute_indices_weights_linear" not implemented for \'Byte\' '
                               f"(PyTorch has no uint8 {mode} kernel; convert with x.astype(np.float32))")
    raise UnsupportedError(f'"{mode}" not implemented for \'{name}\' (PyTorch resizes float32, float64, '
                           "float16, bfloat16 and, for most modes, uint8)")


# ------------------------------------------------------------------------------------------------ the library
def _nc_shape(call: Request) -> tuple:
    """The (N, C, *spatial) shape F.interpolate sees: the array itself when its resized axes are its trailing
    spatial axes after N and C, else the other axes folded into N with one channel."""
    dim = len(call.axes)
    if len(call.shape) == dim + 2 and call.axes == tuple(range(2, dim + 2)):
        return call.shape
    rest = [s for k, s in enumerate(call.shape) if k not in call.axes]
    return (math.prod(rest), 1) + tuple(call.shape[a] for a in call.axes)


_COPY = Spec(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
_AVX_CHANNELS = 4  # uint8 images with at most this many channels take the AVX2 kernel


def _repeats_first_row(call: Request) -> bool:
    """Whether the vertical pass repeats output row 0 (Note [antialias output width 1])."""
    if call.direction != "forward" or len(call.lengths) != 2:
        return False
    (n_rows, m_rows), (_, m_cols) = call.lengths
    if m_cols != 1 or m_rows == n_rows:
        return False
    if validate.is_float(call.dtype):
        return bool(call.options["antialias"])
    return _nc_shape(call)[1] > _AVX_CHANNELS


def _check_channels(call: Request):
    """Zero channels: the upsample kernels' ``upsample_Nd_common_check`` and adaptive average pooling's
    non-batch-dimension checks refuse them [measured, torch 2.13.0: the texts below]."""
    shape = list(_nc_shape(call))
    if shape[1] != 0:
        return
    if call.mode != "area":
        raise InvalidSizeError(f"Non-empty {len(shape)}D data tensor expected but got a tensor with sizes {shape}")
    if len(shape) == 5:
        raise InvalidSizeError(f"adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {shape} with dimension 1 being empty")
    if call.direction == "backward":  # 1-D pools as 2-D on (N, C, 1, L)
        grad = shape[:2] + [1] * (len(shape) == 3) + [m for _, m in call.lengths]
        raise InvalidSizeError(f"adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for "
                               f"non-batch dimensions, but grad_output has sizes {grad} with dimension 1 being empty")


def _check_avx_uint8(call: Request):
    """The AVX2 uint8 kernel's failing assert (Note [antialias output width 1])."""
    if call.dtype != np.uint8 or call.direction != "forward" or call.mode not in UINT8_MODES:
        return
    if len(call.lengths) == 2 and _nc_shape(call)[1] == 3 and [m for _, m in call.lengths] == [1, 1] \
            and call.lengths[0][0] != 1:
        raise UnsupportedError("PyTorch 2.13's AVX2 uint8 kernel fails an internal assert for a 3-channel image "
                               "resized to 1x1 (RuntimeError: num_channels == unpacked_output.size(0) INTERNAL "
                               "ASSERT FAILED); convert with x.astype(np.float32) or use another size")


def _pools_to_one(call: Request) -> bool:
    """``adaptive_avg_pool2d/3d`` to an output of one element per plane is ``input.mean()`` (1-D pools as 2-D
    on (N, C, 1, L), so an output length 1 counts too)."""
    return all(m == 1 for _, m in call.lengths)


def _divide_by_windows(values, plans, dtype):
    """``values`` divided by each output's window length along every resized axis in turn, rounded to
    ``dtype`` after each division (``sum / kd / kh / kw``)."""
    out = values.astype(dtype)
    for axis, plan in plans:
        view = [1] * out.ndim
        view[axis] = plan.m
        lengths = np.asarray(plan.band.length, np.float32).reshape(view)
        out = (out.astype(np.float32) / lengths).astype(dtype)
    return out


def _first_row_everywhere(plan: AxisPlan) -> AxisPlan:
    band = plan.band
    taps = np.arange(band.length[0])
    rows = np.repeat(np.arange(plan.m), len(taps))
    cols = np.tile(band.start[0] + taps, plan.m)
    values = np.tile(band.weights[0, :len(taps)], plan.m)
    return AxisPlan(plan.n, plan.m, Band.from_triplets(rows, cols, values, plan.m, plan.n),
                    np.full(plan.m, plan.coordinates[0]), plan.step, plan.outside)

_INTERPOLATE = {"mode": "nearest", "align_corners": None, "antialias": False}

class PyTorch(Library):
    id = "torch"
    title = "PyTorch torch.nn.functional.interpolate"
    aliases = ("pytorch", "libtorch")
    order = 0
    mode_names = {"nearest": "nearest", "nearest-exact": "nearest-exact", "linear": "linear", "bilinear": "linear",
                  "bicubic": "cubic", "trilinear": "linear", "area": "area", "lanczos": "lanczos3"}

    # ported from PyTorch (explorer.conventions.native_call): the reference every port starts from
    toggle_options = {"align_corners": {True: {"align_corners": True}, False: {"align_corners": False}},
                      "antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    shown = {"align_corners": ("linear", "cubic"), "antialias": ("linear", "cubic", "lanczos3")}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("torch.nn.functional.interpolate",
            ("input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias"),
            defaults=_INTERPOLATE, size_params=("size", "scale_factor"), scale_param="scale_factor",
            input="input"),
        Api("torch.nn.functional.upsample", ("input", "size", "scale_factor", "mode", "align_corners"),
            defaults=_INTERPOLATE, size_params=("size", "scale_factor"), scale_param="scale_factor",
            input="input"),
        Api("torch.nn.functional.upsample_bilinear", ("input", "size", "scale_factor"),
            fixed={"mode": "bilinear", "align_corners": True}, defaults={"antialias": False}, rank=2,
            scale_param="scale_factor"),
        Api("torch.nn.functional.upsample_nearest", ("input", "size", "scale_factor"), fixed={"mode": "nearest"},
            defaults={"align_corners": None, "antialias": False}, size_params=("size", "scale_factor"),
            scale_param="scale_factor"),
        Api("torch.nn.Upsample", ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"),
            defaults=_INTERPOLATE, size_params=("size", "scale_factor"), scale_param="scale_factor",
            aliases=("torch.nn.modules.upsampling.Upsample", "torch.nn.modules.Upsample")),
        Api("torch.nn.UpsamplingBilinear2d", ("size", "scale_factor"),
            fixed={"mode": "bilinear", "align_corners": True}, defaults={"antialias": False}, rank=2,
            scale_param="scale_factor", aliases=("torch.nn.modules.upsampling.UpsamplingBilinear2d",)),
        Api("torch.nn.UpsamplingNearest2d", ("size", "scale_factor"), fixed={"mode": "nearest"},
            defaults={"align_corners": None, "antialias": False}, rank=2, scale_param="scale_factor",
            aliases=("torch.nn.modules.upsampling.UpsamplingNearest2d",)),
        Api("kornia.geometry.transform.resize",
            ("input", "size", "interpolation", "align_corners", "side", "antialias"), mode_param="interpolation",
            defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2, input="input",
            aliases=("kornia.geometry.resize",)),
        Api("kornia.geometry.transform.rescale",
            ("input", "factor", "interpolation", "align_corners", "antialias"), mode_param="interpolation",
            defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2, scale_param="factor",
            aliases=("kornia.geometry.rescale",)),
    )
    options = (
        Option("align_corners", None, (None, False, True), modes=ALIGN_CORNERS_MODES),
        Option("antialias", False, (False, True), modes=ANTIALIAS_MODES, required={"lanczos": True}),
        Option("recompute_scale_factor", None, (None, False, True),
               "with scale_factor: True steps by n/m instead of 1/scale_factor"),
    )
    gradient_modes = None  # every mode has a backward kernel on CPU
    image_scale = "scale_factor"
    float_dtypes = ("float16", "bfloat16", "float32", "float64")  # Note [reduced floats]


    def code(self, mode, options, h, w):
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", f'y = F.interpolate(x, size=({h}, {w}), mode="{mode}"{opts})  # x: (N, C, H, W)'

    def validate(self, mode, options):
        _check_align_corners(mode, options["align_corners"])
        _check_antialias(mode, options["antialias"], None)
        _check_lanczos(mode, options["align_corners"], options["antialias"])

    def spec(self, mode, options):
        return torch_spec(mode, bool(options["align_corners"]), options["antialias"])

    def rows(self):
        out = []
        for mode in self.modes:
            if mode == "lanczos":
                out.append((mode, {"antialias": True}, "Lanczos-3, antialiased (PIL LANCZOS)"))
                continue
            out.append((mode, {}, ""))
            if mode in ALIGN_CORNERS_MODES:
                out.append((mode, {"align_corners": True}, ""))
            if mode in ("bilinear", "bicubic"):
                out.append((mode, {"antialias": True}, ""))
                out.append((mode, {"antialias": True, "align_corners": True}, ""))
        return out

    # ---------------------------------------------------------------- sizes
    def resized_axes(self, ndim):
        return tuple(range(2, ndim))  # one size or factor applies to every spatial axis of (N, C, *spatial)

    def output_length(self, n, factor, options):
        return int(n * factor)

    def validate_call(self, call):
        options, ndim = call.options, len(call.axes) + 2
        _check_recompute(options["recompute_scale_factor"], call.size_given)
        _check_antialias(call.mode, options["antialias"], ndim)
        _check_rank(call.mode, ndim)
        _check_lanczos(call.mode, options["align_corners"], options["antialias"])
        _check_sizes([n for n, _ in call.lengths], [m for _, m in call.lengths])
        _check_dtype(call.dtype, call.mode, options["antialias"], call.direction)
        _check_channels(call)
        _check_avx_uint8(call)

    # ---------------------------------------------------------------- weights
    def _indexed(self, call) -> bool:
        return call.mode in ("nearest", "nearest-exact") and nearest_kernel_is_indexed(
            _nc_shape(call), [m for _, m in call.lengths], call.direction)

    def call_spec(self, call):
        spec = torch_spec(call.mode, bool(call.options["align_corners"]), call.options["antialias"], call.dtype,
                          self._indexed(call))
        if call.mode in ("bilinear", "trilinear") and validate.is_reduced_float(call.dtype) \
                and nearest_kernel_is_indexed(_nc_shape(call), [m for _, m in call.lengths], call.direction):
            spec = spec.replace(index_arithmetic="torch_opmath")  # Note [reduced floats]: the channels-last kernel
        return spec

    def resize_reduced(self, call, x, plans, specs):
        """Note [reduced floats]: adaptive average pooling sums window by window."""
        if call.mode != "area":
            return None
        if _pools_to_one(call):  # input.mean(): a float sum divided by the count, rounded once
            axes = tuple(axis for axis, _ in plans)
            total = x.astype(np.float32).sum(axis=axes, keepdims=True, dtype=np.float32)
            return (total / np.float32(math.prod(n for n, _ in call.lengths))).astype(x.dtype)
        if len(plans) == 3:  # the 3-D kernel sums and divides in the input's type
            total = window_sums_rounded(x, plans)
            return _divide_by_windows(total, plans, x.dtype)
        total = window_sums_rounded(x.astype(np.float32), plans)  # a float sum, divided in float
        return _divide_by_windows(total, plans, np.float32).astype(x.dtype)

    def transpose_reduced(self, call, grad, plans):
        """Note [reduced floats]: ``grad / kh / kw`` added into the gradient in its own type."""
        if call.mode != "area":
            return None
        if _pools_to_one(call):  # mean's backward: grad / count, rounded once, to every input
            share = (grad.astype(np.float32) / np.float32(math.prod(n for n, _ in call.lengths))).astype(grad.dtype)
            return np.broadcast_to(share, call.shape).copy()
        return scatter_rounded(_divide_by_windows(grad, plans, grad.dtype), plans, call.shape)

    def kernel_scales(self, call):
        """The user's factors, except where PyTorch's kernels step by ``n/m`` (Notes [nearest_idx] and
        [same-size axes]); with ``recompute_scale_factor`` (always for ``area``) every axis steps by ``n/m``."""
        mode, antialias, forward = call.mode, call.options["antialias"], call.direction == "forward"
        recompute = call.options["recompute_scale_factor"] or mode == "area"
        if call.size_given or recompute:
            scales = [None] * len(call.lengths)
        else:
            indexed = self._indexed(call)
            scales = []
            for (n, m), f in zip(call.lengths, call.factors):
                copies = ((mode in _LINEAR_MODES and not antialias and m == n)
                          or (antialias and m == n and forward)
                          or (mode == "nearest" and indexed and m in (n, 2 * n)))
                scales.append(None if copies else f)
        if mode == "bicubic" and not antialias and not forward and all(m == n for n, m in call.lengths):
            scales = [None] * len(call.lengths)
        return scales

    def axis_specs(self, call, spec, scales):
        """Note [same-size axes]: the axes PyTorch's kernels copy get a copying Spec."""
        forward = call.direction == "forward"
        unchanged = [n == m for n, m in call.lengths]
        if spec.antialias and forward:
            return [_COPY if same else spec for same in unchanged]
        if call.mode == "bicubic" and not spec.antialias and not forward and all(unchanged):
            return [_COPY] * len(unchanged)  # kernel_scales gives these axes no factor: a plain copy
        return [spec] * len(unchanged)

    def adjust_plans(self, call, plans):
        """Note [antialias output width 1]."""
        if _repeats_first_row(call):
            plans = list(plans)
            plans[-2] = (plans[-2][0], _first_row_everywhere(plans[-2][1]))
        return plans

    def resize_integer(self, call, x, plans, specs):
        """uint8 bilinear, bicubic and lanczos: int16 weights with adaptive precision, the width pass then the
        height pass, each rounded (``_compute_index_ranges_int16_weights``)."""
        return fixed_point.resample_uint8(x, plans[::-1], fixed_point.torch_bits)


LIBRARY = register(PyTorch())


# ------------------------------------------------------------------------------------------------ F.interpolate
def _empty_pooling(mode, spatial, output_size) -> bool:
    """PyTorch's ``area`` is adaptive average pooling, which returns an empty tensor for an output length 0."""
    return (mode == "area" and all(n >= 1 for n in spatial) and all(m >= 0 for m in output_size)
            and 0 in output_size)


def _interpolate_call(shape, dtype, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias,
                      direction) -> Request | tuple:
    """Check the arguments in F.interpolate's order, then prepare the call like every library's (a tuple: the
    shape of the empty result of ``area`` to an output length 0, as PyTorch returns it)."""
    _check_mode_type(mode)
    align_corners = _check_align_corners(mode, align_corners)
    ndim = len(shape)
    output_size, _ = _output_size(shape[2:], size, scale_factor)
    _check_recompute(recompute_scale_factor, size is not None)
    _check_antialias(mode, antialias, ndim)
    if mode not in MODES:
        raise choice_error("mode", mode, MODES, kind=UnsupportedError, context=f"for a {ndim}-D input")
    _check_rank(mode, ndim)
    _check_lanczos(mode, align_corners, antialias)
    if _empty_pooling(mode, shape[2:], output_size):
        if ndim == 5 and shape[1] == 0:  # the forward refuses zero channels first
            raise InvalidSizeError(f"adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch "
                                   f"dimensions, but input has sizes {list(shape)} with dimension 1 being empty")
        if direction == "backward":
            grad_shape = list(shape[:2]) + list(output_size)
            empty = next(k for k, m in enumerate(grad_shape) if k >= 1 and m == 0)
            if ndim == 3:  # adaptive_avg_pool1d runs as 2-D on (N, C, 1, L)
                grad_shape, empty = grad_shape[:2] + [1] + grad_shape[2:], empty + (empty >= 2)
            raise InvalidSizeError(f"adaptive_avg_pool{max(ndim - 2, 2)}d_backward(): Expected grad_output to have "
                                   f"non-zero size for non-batch dimensions, but grad_output has sizes {grad_shape} "
                                   f"with dimension {empty} being empty")
        if ndim == 5 and not validate.is_float(dtype):  # adaptive_avg_pool3d checks the dtype even then
            name = _TORCH_DTYPE_NAMES.get(np.dtype(dtype).name, np.dtype(dtype).name)
            raise UnsupportedError(f'"adaptive_avg_pool3d_cpu" not implemented for \'{name}\'')
        return tuple(shape[:2]) + tuple(output_size)
    _check_sizes(list(shape[2:]), output_size, f"; check size={size!r} / scale_factor={scale_factor!r}")
    options = {"align_corners": align_corners if mode in ALIGN_CORNERS_MODES else None,
               "antialias": bool(antialias), "recompute_scale_factor": recompute_scale_factor}
    size = output_size if size is not None else None
    return prepare(LIBRARY, mode, options, shape, dtype, size, scale_factor, tuple(range(2, ndim)), direction)


def interpolate(input, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                recompute_scale_factor=None, antialias: bool = False) -> np.ndarray:
    """Down/up-sample ``input`` of shape (N, C, *spatial) exactly like ``torch.nn.functional.interpolate``.

    Modes: ``nearest``, ``nearest-exact``, ``linear`` (3-D), ``bilinear``/``bicubic``/``lanczos`` (4-D),
    ``trilinear`` (5-D), ``area``.  With ``scale_factor`` the output size is ``floor(n * scale_factor)``
    and, unless ``recompute_scale_factor``, the kernel steps by ``1/scale_factor``.  float32 and float64 keep
    their dtype; float16 and bfloat16 (ml_dtypes) are computed in float32 and rounded where PyTorch's kernels
    round (Note [reduced floats]); uint8 follows PyTorch's CPU kernels bit for bit (nearest
    modes gather; bilinear, bicubic and lanczos use its int16 fixed point, the output one pixel wide of Note
    [antialias output width 1] included); other dtypes raise as PyTorch does.  ``area`` to an output length 0
    returns an empty array, as PyTorch's adaptive average pooling does (every other mode raises).

    >>> import numpy as np
    >>> x = np.random.rand(1, 3, 37, 53).astype(np.float32)
    >>> interpolate(x, scale_factor=1.7, mode="bicubic").shape
    (1, 3, 62, 90)
    """
    x = validate.array(input, "input")
    call = _interpolate_call(x.shape, x.dtype, size, scale_factor, mode, align_corners, recompute_scale_factor,
                             antialias, "forward")
    if isinstance(call, tuple):
        return np.zeros(call, x.dtype)
    return run_forward(call, x)


def interpolate_backward(grad_output, input_shape, size=None, scale_factor=None, mode: str = "nearest",
                         align_corners=None, recompute_scale_factor=None, antialias: bool = False) -> np.ndarray:
    """The gradient with respect to the input that PyTorch autograd returns for ``interpolate``.

    It equals ``W.T @ grad_output`` for the weights of the *backward* kernel, which PyTorch does not always
    build like the forward one (Notes [nearest_idx] and [same-size axes]).

    >>> import numpy as np
    >>> g = np.ones((1, 1, 8), np.float32)
    >>> interpolate_backward(g, (1, 1, 5), size=8, mode="nearest").tolist()
    [[[2.0, 2.0, 1.0, 2.0, 1.0]]]
    """
    g = validate.array(grad_output, "grad_output")
    input_shape = validate.shape(input_shape, g.ndim, "input_shape", "grad_output")
    call = _interpolate_call(input_shape, g.dtype, size, scale_factor, mode, align_corners, recompute_scale_factor,
                             antialias, "backward")
    expected = call.output_shape
    if g.shape != expected:
        raise ArgumentValueError(f"grad_output has shape {g.shape}, but interpolating an input of shape "
                                 f"{input_shape} gives {expected}")
    return run_backward(call, g)


# ------------------------------------------------------------------------------------------------ the runtime
def interpolate_options(mode: str, align_corners, antialias) -> dict:
    """F.interpolate's options for ``mode``: align_corners and antialias only where the mode takes them."""
    options = {}
    if mode in ALIGN_CORNERS_MODES:
        options["align_corners"] = align_corners
    if mode in ANTIALIAS_MODES:
        options["antialias"] = True if mode == "lanczos" else bool(antialias)
    return options


def interpolate_code(mode: str, family: str, align_corners, antialias, device, size=None, scale_factor=None) -> str:
    """The ``F.interpolate`` call for a mode and its toggles (``device="cpu"``: run on the host, as a fix)."""
    args = [f"size=({', '.join(str(int(s)) for s in size)})" if size is not None else
            (f"scale_factor={scale_factor}" if scale_factor is not None else "size=(h_out, w_out)"),
            f'mode="{mode}"']
    if align_corners is not None and family in ("linear", "cubic"):
        args.append(f"align_corners={align_corners}")
    if antialias or mode == "lanczos":
        args.append("antialias=True")
    x = "x.cpu()" if device == "cpu" else "x"
    code = f"y = F.interpolate({x}, " + ", ".join(args) + ")"
    if device == "cpu":
        code += ".to(x.device)"
    return code


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    return Computation("torch", q.mode, interpolate_options(q.mode, q.align_corners, q.antialias))


def _writes(q, h, w, size, scale_factor):
    return "python", interpolate_code(q.mode, q.family, q.align_corners, q.antialias, q.device, size, scale_factor)


RUNTIME = register(Runtime(
    id="torch", title="PyTorch", order=10,
    backends=(Backend("torch", "torch.nn.functional.interpolate", ("cpu", "cuda", "mps", "xpu", "xla", "tpu"), "python",
                      aliases=("pytorch", "libtorch", "torch-xla", "torch_xla"), spelling="torch", computes=_computes,
                      writes=_writes),),
    words=("torch", "pytorch", "aten", "libtorch", "torchvision", "torch_xla"),
    version_markers=("torch.onnx.export version ", "torch==", "pytorch version: ", "torch version: ", "/torch-")))

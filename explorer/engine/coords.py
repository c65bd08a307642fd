"""Where each output sample lands on the input grid: coordinate transforms and nearest rounding rules.

Names follow ONNX ``Resize`` (``coordinate_transformation_mode``, ``nearest_mode``); the few rows that ONNX
lacks carry the name of the library that needs them.  Everything here is data: a table of transforms and a
table of rounding rules, read by ``plan.py``.

Notation: ``n`` input length, ``m`` output length, ``i`` output index, ``f`` the user's scale factor
(output / input) when the scale comes from a factor instead of the sizes, ``step`` the input distance between
two output samples (``1/f`` or ``n/m``; ``(n-1)/(m-1)`` for align_corners).  ``step`` also sets the antialias
stretch ``max(step, 1)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import validate
from ..errors import choice_error


@dataclass(frozen=True)
class Geometry:
    """Everything a transform may read for one axis."""

    n: int
    m: int
    f: float | None  # user scale factor (output/input) or None when the scale comes from the sizes
    roi: tuple[float, float] | None
    dtype: type  # float32 or float64: the arithmetic the library uses for coordinates


def _step_from_sizes_or_factor(g: Geometry):
    if g.f is not None and g.f > 0:
        return g.dtype(1.0 / g.f)  # PyTorch/ONNX: 1/scale in double, then the opmath type
    return g.dtype(g.n) / g.dtype(g.m)


def _step_align_corners(g: Geometry):
    return g.dtype(g.n - 1) / g.dtype(g.m - 1) if g.m > 1 else g.dtype(0.0)


def _roi(g: Geometry):
    return g.roi if g.roi is not None else (0.0, 1.0)


def _step_crop(g: Geometry):
    start, end = _roi(g)
    return g.dtype((end - start) * (g.n - 1) / (g.m - 1)) if g.m > 1 else g.dtype(0.0)


def _half_pixel(i, s, g):
    return (i + g.dtype(0.5)) * s - g.dtype(0.5)


def _pytorch_half_pixel(i, s, g):
    return _half_pixel(i, s, g) if g.m > 1 else np.zeros_like(i)


def _align_corners(i, s, g):
    return i * s


def _align_corners_own_step(i, s, g):
    return i * _step_align_corners(g)


def _asymmetric(i, s, g):
    return i * s


def _tf_half_pixel_for_nn(i, s, g):
    return (i + g.dtype(0.5)) * s


def _step_align_corners_or_sizes(g: Geometry):
    return g.dtype(g.n - 1) / g.dtype(g.m - 1) if g.m > 1 else g.dtype(g.n) / g.dtype(g.m)


def _half_pixel_symmetric(i, s, g):
    f = g.f if g.f is not None else g.m / g.n
    adjustment = g.m / (f * g.n)
    offset = (g.n / 2.0) * (1.0 - adjustment)
    return g.dtype(offset) + (i + g.dtype(0.5)) / g.dtype(f) - g.dtype(0.5)


def _mlx_centred(i, s, g):
    # MLX _scaled_indices: start = ((m - 1) * step - n + 1) / 2 in double (step = 1/f), x = i * step - start
    f = g.f if g.f is not None and g.f > 0 else g.m / g.n
    start = ((g.m - 1) * (1.0 / f) - g.n + 1) / 2
    return i * s - g.dtype(start)


def _tf_crop_and_resize(i, s, g):
    start, end = _roi(g)
    if g.m > 1:
        return g.dtype(start * (g.n - 1)) + i * s
    return np.full_like(i, 0.5 * (start + end) * (g.n - 1))


@dataclass(frozen=True)
class Transform:
    name: str
    step: Callable[[Geometry], float]
    coordinate: Callable[[np.ndarray, float, Geometry], np.ndarray]
    formula: str
    used_by: str


TRANSFORMS: dict[str, Transform] = {
    t.name: t
    for t in [
        Transform("half_pixel", _step_from_sizes_or_factor, _half_pixel, "x = (i + 0.5) * step - 0.5",
                  "PyTorch align_corners=False, TF2, JAX, OpenCV, Pillow, ONNX default"),
        Transform("pytorch_half_pixel", _step_from_sizes_or_factor, _pytorch_half_pixel,
                  "half_pixel, but x = 0 when m == 1", "ONNX only (modern PyTorch uses half_pixel)"),
        Transform("align_corners", _step_align_corners, _align_corners,
                  "x = i * (n - 1) / (m - 1)  (0 when m == 1)", "align_corners=True in PyTorch, TF1, ONNX"),
        Transform("asymmetric", _step_from_sizes_or_factor, _asymmetric, "x = i * step",
                  "PyTorch 'nearest', OpenCV INTER_NEAREST, TF1 legacy, ONNX opset 10"),
        Transform("tf_half_pixel_for_nn", _step_from_sizes_or_factor, _tf_half_pixel_for_nn,
                  "x = (i + 0.5) * step", "TF2 nearest; ONNX opset 11"),
        Transform("half_pixel_symmetric", _step_from_sizes_or_factor, _half_pixel_symmetric,
                  "x = (n/2)(1 - m/(f n)) + (i + 0.5)/f - 0.5", "ONNX opset 19"),
        Transform("tf_crop_and_resize", _step_crop, _tf_crop_and_resize,
                  "x = start (n-1) + i (end - start)(n-1)/(m-1); outside [0, n-1] gives extrapolation_value",
                  "ONNX roi, TF crop_and_resize"),
        Transform("mlx_centred", _step_from_sizes_or_factor, _mlx_centred,
                  "x = i * step - ((m - 1) * step - n + 1) / 2 (half_pixel when m = n / step exactly)",
                  "MLX nn.Upsample linear and cubic"),
        Transform("pytorch_antialias_align_corners", _step_align_corners, _half_pixel,
                  "x = (i + 0.5) * (n-1)/(m-1) - 0.5", "PyTorch antialias=True with align_corners=True"),
        Transform("align_corners_half_pixel_for_nn", _step_align_corners_or_sizes, _tf_half_pixel_for_nn,
                  "x = (i + 0.5) * (n-1)/(m-1)  (n/m when m == 1)",
                  "LiteRT RESIZE_NEAREST_NEIGHBOR with align_corners and half_pixel_centers"),
        Transform("onnx_antialias_align_corners", _step_from_sizes_or_factor, _align_corners_own_step,
                  "x = i * (n-1)/(m-1); the antialias stretch is n/m (or 1/f)",
                  "ONNX Runtime antialias=1 with align_corners"),
    ]
}


def _rule(offset, op):
    def rule(x, step, narrow):
        v = x + x.dtype.type(offset) if offset else x
        return op(narrow(v))
    return rule


def _round_half_away(x, step, narrow):
    v = narrow(x)
    return np.sign(v) * np.floor(np.abs(v) + v.dtype.type(0.5))


def _simple(x, step, narrow):
    # ONNX Runtime opset <= 10: ceil when downsampling, truncation when upsampling.
    return np.ceil(narrow(x)) if step > 1 else np.trunc(narrow(x))


# Each rule rounds ``x + offset`` with one operation; ``narrow`` is applied to ``x + offset`` just before
# the rounding (PyTorch computes ``floorf(x + 0.5)``: the sum is narrowed to float32 even for doubles).
ROUNDING = {
    "round_prefer_floor": _rule(-0.5, np.ceil),
    "round_prefer_ceil": _rule(0.5, np.floor),
    "floor": _rule(0.0, np.floor),
    "ceil": _rule(0.0, np.ceil),
    "round_half_even": _rule(0.0, np.rint),
    "round_half_away": _round_half_away,
    "simple": _simple,
}

# How coordinates are computed: (dtype of the step, dtype of the coordinate arithmetic, dtype the coordinate
# is rounded to once computed, whether ``x + offset`` is narrowed to float32 just before rounding to an index).
ARITHMETIC = {
    "float64": (np.float64, np.float64, np.float64, False),
    # PyTorch's float32 kernels: float step, coordinate from a fused multiply-add (one rounding)
    "float32": (np.float32, np.float64, np.float32, False),
    # PyTorch nearest_idx: float step, double product, floorf
    "float32_scale": (np.float32, np.float64, np.float64, True),
    # PyTorch's generic nearest kernels on float64: double arithmetic, floorf
    "float64_floorf": (np.float64, np.float64, np.float64, True),
    # OpenCV resizeGeneric: double step and coordinate, stored as float (fx = (float)((dx + 0.5) * scale_x - 0.5))
    "float64_to_float32": (np.float64, np.float64, np.float32, False),
    # Pillow NEAREST (ImagingScaleAffine) and OpenCV 5 INTER_NEAREST_EXACT (resizeNN_bitexact_tab): x_0 from
    # the transform, then x_{i+1} = x_i + step accumulated in double; at exact ties the sum can fall short
    "incremental": (np.float64, np.float64, np.float64, False),
    # ONNX Runtime: a float32 scale s = m/n (or the given scale), x = (i + 0.5f) / s - 0.5f with one float32
    # rounding per operation; a coordinate within 1e-6 of a half-integer rounds as an exact tie [measured, 1.32]
    "onnxruntime": (np.float32, np.float32, np.float32, False),
    # JAX nearest under XLA: the division by the output length is folded into a multiplication by its float32
    # reciprocal, so step = n * (1/m) in float32, and x = (i + 0.5) * step in float32
    "xla_float32": (np.float32, np.float64, np.float32, False),
    # TensorFlow ScaleAndTranslate: inv_scale = 1 / (m/n as float32) as float32, the sample point
    # (i + 0.5) * inv_scale rounded to float32, and the tap distance (j + 0.5) - sample taken exactly; it
    # decides whether a tap lands exactly on the support edge of a kernel that is not zero there (gaussian)
    "tf_scale_and_translate": (np.float32, np.float64, np.float64, False),
    # Burn cubecl/flex nearest: the exact rational coordinate (integer arithmetic), one correctly rounded
    # division; falls back to float64 when the step comes from a scale factor
    "exact": (np.float64, np.float64, np.float64, False),
    # OpenCV: inv_scale = the user's fx or m/n, step = 1.0 / inv_scale in double (INTER_NEAREST's index
    # floor(i * step) differs from floor(i * n / m) on some size pairs); INTER_AREA's cell table
    "opencv": (np.float64, np.float64, np.float64, False),
    # Rows whose filter weights are built by a port of the library's own code (explorer.engine.native), in its
    # float types; the tuple is what the generic builder uses for the kernels a port leaves to it.
    # PyTorch's float kernels (float32 opmath with a fused coordinate, or double with floorf); uint8 input
    # takes the generic float64 weights, as PyTorch's int16 path computes its weights in double
    "torch": (np.float64, np.float64, np.float64, False),
    # PyTorch's channels-last linear kernels: the same, with float weights for float16 and bfloat16 input too
    "torch_opmath": (np.float64, np.float64, np.float64, False),
    # JAX with 64-bit mode off: the whole weight matrix in float32
    "jax_float32": (np.float32, np.float64, np.float32, False),
    # TensorFlow ResizeBilinear / ResizeBicubic / ResizeArea: float32 scale and coordinates, never fused
    "tensorflow": (np.float32, np.float64, np.float32, False),
    # OpenVINO's CPU plugin (Interpolate-4/11, coordTransToInput): a float32 scale s (the given one, or m/n from the
    # sizes), x = (i + 0.5f) / s - 0.5f with one float32 rounding per operation, align_corners as
    # i * ((n-1)/(m-1)) with the ratio rounded first, and x = i on an axis whose scale is 1 or whose length does
    # not change (whatever the transform); exact float32 ties, no tolerance.  Its linear, cubic and antialiased
    # linear weights are a port (explorer.engine.native.openvino)
    "openvino": (np.float32, np.float32, np.float32, False),
    # OpenVINO's bilinear_pillow / bicubic_pillow (buildTblPillow): Pillow's filter in float32, centres
    # (i + 0.5f) / (m/n as float32) whatever coordinate transform the node names
    "openvino_pillow": (np.float32, np.float32, np.float32, False),
    # XNNPACK's resize-bilinear (LiteRT's default CPU delegate): half-pixel coordinates i * s + (0.5f * s - 0.5f),
    # each operation rounded to float32, clamped to [0, n - 1] (explorer.engine.native.xnnpack)
    "xnnpack": (np.float32, np.float32, np.float32, False),
    # LiteRT's 8-bit RESIZE_NEAREST_NEIGHBOR without align_corners or half_pixel_centers: a 16.16 fixed-point step
    # S = (n << 16) / m + 1 (integer division), input index (i * S) >> 16; the coordinate is that exact rational
    "tflite_fixed16": (np.float64, np.float64, np.float64, False),
    # MLX: float32 arrays and Python scalars taken as float32, every operation rounded to float32
    "float32_unfused": (np.float32, np.float32, np.float32, False),
    # scipy.ndimage zoom (and scikit-image resize): double coordinates, the Spec's boundary mode, the B-spline
    # prefilter, and scikit-image's Gaussian for antialias (explorer.engine.native.ndimage)
    "ndimage": (np.float64, np.float64, np.float64, False),
}

# How samples past the border are read (``Spec.boundary``; None: ``exclude_outside`` decides, drop or clamp).
# scipy.ndimage's names; the ``ndimage`` arithmetic row computes them (explorer.engine.native.ndimage).
BOUNDARIES = {
    "constant": "an output whose coordinate leaves [0, n-1] is the extrapolation value; taps past the border "
                "mirror (scipy 'constant')",
    "grid-constant": "taps past the border read the extrapolation value (scipy 'grid-constant', scikit-image "
                     "'constant')",
    "nearest": "the border sample repeats (scipy 'nearest', scikit-image 'edge')",
    "mirror": "reflected about the border sample: d c b | a b c d | c b a (scipy 'mirror', scikit-image 'reflect')",
    "reflect": "reflected about the border edge: b a | a b c d | d c (scipy 'reflect', scikit-image 'symmetric')",
    "wrap": "periodic with period n - 1 for coordinates, mirrored taps (scipy 'wrap')",
    "grid-wrap": "periodic with period n (scipy 'grid-wrap', scikit-image 'wrap')",
}

# transform -> (numerator(i), denominator) of the exact rational coordinate, for the "exact" row
_EXACT_COORDINATES = {
    "asymmetric": lambda i, n, m: (i * n, m),
    "tf_half_pixel_for_nn": lambda i, n, m: ((2 * i + 1) * n, 2 * m),
    "half_pixel": lambda i, n, m: ((2 * i + 1) * n - m, 2 * m),
    "pytorch_half_pixel": lambda i, n, m: ((2 * i + 1) * n - m, 2 * m) if m > 1 else (0 * i, 1),
    "align_corners": lambda i, n, m: (i * (n - 1), m - 1) if m > 1 else (0 * i, 1),
}


def _onnxruntime_coordinates(t, g: Geometry, scale, outputs=None):
    """ONNX Runtime's ``get_original_coordinate`` (upsamplebase.h), float32 as in its C++, for every output or
    for the output indices ``outputs``."""
    f32 = np.float32
    i = np.arange(g.m, dtype=f32) if outputs is None else np.asarray(outputs).astype(f32)
    half = f32(0.5)
    if t.name == "asymmetric":
        return i / scale
    if t.name in ("half_pixel", "pytorch_half_pixel"):
        if t.name == "pytorch_half_pixel" and g.m == 1:
            return np.zeros(1, f32)
        return (i + half) / scale - half
    if t.name == "tf_half_pixel_for_nn":
        return (i + half) / scale
    if t.name in ("align_corners", "onnx_antialias_align_corners"):  # the latter differs in its stretch only
        return np.zeros(1, f32) if g.m == 1 else (i * f32(g.n - 1)) / f32(g.m - 1)
    if t.name == "half_pixel_symmetric":
        adjustment = f32(g.m) / (scale * f32(g.n))
        offset = (f32(g.n) / f32(2)) * (f32(1) - adjustment)
        return (np.float64(offset) + (i.astype(np.float64) + 0.5) / np.float64(scale) - 0.5).astype(f32)
    if t.name == "tf_crop_and_resize":
        start, end = (f32(v) for v in _roi(g))
        if g.m == 1:
            return np.full(1, 0.5 * (float(start) + float(end)) * (g.n - 1), dtype=f32)
        return start * f32(g.n - 1) + (i * (end - start) * f32(g.n - 1)) / f32(g.m - 1)
    step = t.step(Geometry(g.n, g.m, g.f, g.roi, f32))
    return np.asarray(t.coordinate(i, f32(step), Geometry(g.n, g.m, g.f, g.roi, f32)), dtype=f32)


def onnxruntime_coordinates(n: int, m: int, transform: str, scale, roi=None, outputs=None) -> np.ndarray:
    """ONNX Runtime's float32 source coordinate of every output (or of the indices ``outputs``) for the float32
    ONNX ``scale`` of the axis.

    >>> onnxruntime_coordinates(4, 3, "half_pixel", np.float32(0.75)).tolist()
    [0.1666666865348816, 1.5, 2.8333332538604736]
    """
    return _onnxruntime_coordinates(TRANSFORMS[transform], Geometry(n, m, None, roi, np.float32), np.float32(scale),
                                    outputs)


def _openvino_coordinates(t, g: Geometry, scale, outputs=None):
    """OpenVINO's ``coordTransToInput`` (src/plugins/intel_cpu/src/nodes/interpolate.cpp), float32, for every
    output or for the output indices ``outputs``; a transform the plugin lacks takes the generic float32 formula."""
    f32 = np.float32
    i = np.arange(g.m, dtype=f32) if outputs is None else np.asarray(outputs).astype(f32)
    half = f32(0.5)
    if scale == 1 or g.n == g.m:
        return i
    if t.name == "half_pixel" or (t.name == "pytorch_half_pixel" and g.m > 1):
        return (i + half) / scale - half
    if t.name == "asymmetric":
        return i / scale
    if t.name == "tf_half_pixel_for_nn":
        return (i + half) / scale
    if t.name in ("align_corners", "pytorch_half_pixel"):
        return np.zeros_like(i) if g.m == 1 else i * (f32(g.n - 1) / f32(g.m - 1))
    geometry = Geometry(g.n, g.m, g.f, g.roi, f32)
    return np.asarray(t.coordinate(i, f32(t.step(geometry)), geometry), dtype=f32)


def openvino_coordinates(n: int, m: int, transform: str, scale=None, outputs=None) -> np.ndarray:
    """OpenVINO's float32 source coordinate of every output (or of the indices ``outputs``); ``scale`` is the
    Interpolate scale of the axis (None: ``m / n`` in float32, as the plugin computes it from the sizes).

    >>> openvino_coordinates(4, 3, "half_pixel").tolist()
    [0.1666666865348816, 1.5, 2.8333332538604736]
    """
    s = np.float32(scale) if scale is not None else np.float32(m) / np.float32(n)
    return _openvino_coordinates(TRANSFORMS[transform], Geometry(n, m, None, None, np.float32), s, outputs)


def xnnpack_coordinates(n: int, m: int, transform: str, outputs=None) -> np.ndarray:
    """XNNPACK's float32 source coordinate of every output, clamped to [0, n - 1] (src/indirection.c
    ``xnn_indirection_init_resize_bilinear2d_hwc_f32``): ``align_corners`` and the legacy ``asymmetric`` rule
    take ``i * s``, every other transform XNNPACK's half-pixel ``i * s + (0.5 s - 0.5)``.

    >>> xnnpack_coordinates(4, 3, "half_pixel").tolist()
    [0.1666666865348816, 1.5, 2.8333334922790527]
    """
    f32 = np.float32
    i = np.arange(m, dtype=f32) if outputs is None else np.asarray(outputs).astype(f32)
    adjustment = 1 if transform == "align_corners" and m != 1 else 0
    s = f32(n - adjustment) / f32(m - adjustment)
    if transform in ("align_corners", "asymmetric"):
        return np.minimum(i * s, f32(n - 1))
    offset = f32(0.5) * s - f32(0.5)
    return np.clip(i * s + offset, f32(0), f32(n - 1))


def _special_coordinates(t, arithmetic, g: Geometry, step):
    """Coordinates for the arithmetic rows that are not one formula per sample in a single dtype."""
    if arithmetic == "incremental":
        first = t.coordinate(np.zeros(1), np.float64(step), g)
        increments = np.full(g.m, np.float64(step))
        increments[0] = first[0]
        return np.add.accumulate(increments), step
    if arithmetic == "onnxruntime":
        scale = np.float32(g.f) if g.f is not None and g.f > 0 else np.float32(g.m) / np.float32(g.n)
        return _onnxruntime_coordinates(t, g, scale), step
    if arithmetic == "tf_scale_and_translate":
        scale = np.float32(g.f) if g.f is not None and g.f > 0 else np.float32(g.m) / np.float32(g.n)
        inverse = np.float32(1.0 / np.float64(scale))
        sample = (np.arange(g.m, dtype=np.float32) + np.float32(0.5)) * inverse
        return sample.astype(np.float64) - 0.5, inverse
    if arithmetic in ("openvino", "openvino_pillow"):
        scale = np.float32(g.f) if g.f is not None and g.f > 0 else np.float32(g.m) / np.float32(g.n)
        if arithmetic == "openvino_pillow":  # fixed tf_half_pixel_for_nn centres; x = centre - 0.5
            scale = np.float32(g.m) / np.float32(g.n)
            centre = _openvino_coordinates(TRANSFORMS["tf_half_pixel_for_nn"], g, scale)
            return centre.astype(np.float64) - 0.5, 1.0 / float(scale)
        return _openvino_coordinates(t, g, scale), 1.0 / float(scale)
    if arithmetic == "xnnpack" and t.name in ("half_pixel", "align_corners", "asymmetric"):
        return xnnpack_coordinates(g.n, g.m, t.name), step
    if arithmetic == "xnnpack":  # a transform XNNPACK does not have: the generic float32 formula
        geometry = Geometry(g.n, g.m, g.f, g.roi, np.float32)
        x = t.coordinate(np.arange(g.m, dtype=np.float32), np.float32(t.step(geometry)), geometry)
        return np.asarray(x, dtype=np.float32), step
    if arithmetic == "tflite_fixed16":
        if t.name != "asymmetric":
            return t.coordinate(np.arange(g.m, dtype=np.float64), np.float64(step), g), step
        fixed = (g.n << 16) // g.m + 1
        return np.arange(g.m, dtype=np.int64) * fixed / 65536.0, step
    if arithmetic == "exact":
        exact = _EXACT_COORDINATES.get(t.name)
        if exact is not None and not (g.f is not None and g.f > 0):
            numerator, denominator = exact(np.arange(g.m, dtype=np.int64), g.n, g.m)
            return numerator / denominator, step
        return t.coordinate(np.arange(g.m, dtype=np.float64), np.float64(step), g), step
    if arithmetic == "opencv":
        inverse = g.f if g.f is not None and g.f > 0 else g.m / g.n
        step = 1.0 / inverse
        return t.coordinate(np.arange(g.m, dtype=np.float64), np.float64(step), g), step
    # xla_float32
    if t.step is _step_from_sizes_or_factor and not (g.f is not None and g.f > 0):
        step = np.float32(g.n) * (np.float32(1.0) / np.float32(g.m))
    x = t.coordinate(np.arange(g.m, dtype=np.float64), np.float64(step), g)
    return np.asarray(x, dtype=np.float64).astype(np.float32), step


# Rows of ARITHMETIC handled by _special_coordinates, and the tie tolerance some of them round with.
SPECIAL_ARITHMETIC = ("incremental", "onnxruntime", "xla_float32", "tf_scale_and_translate", "exact", "opencv",
                      "openvino", "openvino_pillow", "xnnpack", "tflite_fixed16")
TIE_TOLERANCE = {"onnxruntime": 1e-6}
# Rows whose kernel argument (tap distance / stretch) is computed in float32, as the library does
FLOAT32_KERNEL_ARGUMENT = ("tf_scale_and_translate",)


def source_coordinates(n: int, m: int, transform: str, arithmetic: str = "float64",
                       f: float | None = None, roi=None) -> tuple[np.ndarray, float]:
    """Source coordinate of every output sample, and the step, for one axis.

    Every argument is checked (lengths from 1 to MAX_AXIS_LENGTH, a known transform and arithmetic, a positive
    finite factor) and the memory of the ``m`` coordinates before they are allocated.

    >>> x, step = source_coordinates(4, 3, "half_pixel")
    >>> x.round(4).tolist(), round(float(step), 4)
    ([0.1667, 1.5, 2.8333], 1.3333)
    >>> source_coordinates(4, 0, "half_pixel")
    Traceback (most recent call last):
    ...
    explorer.errors.ArgumentValueError: m must be at least 1, got 0
    """
    from .memory import require

    n, m = validate.length(n, "n"), validate.length(m, "m")
    if not isinstance(transform, str) or transform not in TRANSFORMS:
        raise choice_error("transform", transform, TRANSFORMS)
    if not isinstance(arithmetic, str) or arithmetic not in ARITHMETIC:
        raise choice_error("arithmetic", arithmetic, ARITHMETIC)
    if f is not None:
        f = validate.positive_number(f, "f")
    require(3 * 8 * m, f"the source coordinates of {m} output samples", hint="choose a smaller m")
    return coordinates(n, m, transform, arithmetic, f, roi)


def coordinates(n: int, m: int, transform: str, arithmetic: str = "float64", f: float | None = None,
                roi=None) -> tuple[np.ndarray, float]:
    """:func:`source_coordinates` for arguments already checked (the plan builder's call)."""
    t = TRANSFORMS[transform]
    step_dtype, dtype, coordinate_dtype, _ = ARITHMETIC[arithmetic]
    step = t.step(Geometry(n, m, f, roi, step_dtype))
    if arithmetic in SPECIAL_ARITHMETIC:
        x, step = _special_coordinates(t, arithmetic, Geometry(n, m, f, roi, dtype), step)
        return np.asarray(x).astype(coordinate_dtype, copy=False), step
    x = t.coordinate(np.arange(m, dtype=dtype), dtype(step), Geometry(n, m, f, roi, dtype))
    return np.asarray(x, dtype=dtype).astype(coordinate_dtype, copy=False), step


def nearest_indices(x: np.ndarray, n: int, rule: str, step: float, arithmetic: str = "float64") -> np.ndarray:
    """Round source coordinates to input indices and clamp them to ``[0, n-1]``.

    >>> x, s = source_coordinates(4, 3, "half_pixel")
    >>> nearest_indices(x, 4, "round_prefer_ceil", s).tolist(), nearest_indices(x, 4, "round_prefer_floor", s).tolist()
    ([0, 2, 3], [0, 1, 3])
    """
    narrow = (lambda v: v.astype(np.float32)) if ARITHMETIC[arithmetic][3] else (lambda v: v)
    tolerance = TIE_TOLERANCE.get(arithmetic)
    if tolerance is not None:  # snap near-ties to the exact half-integer
        half = np.floor(x) + x.dtype.type(0.5)
        x = np.where(np.abs(x.astype(np.float64) - half) <= tolerance, half, x)
    idx = ROUNDING[rule](x, step, narrow)
    return np.clip(idx, 0, n - 1).astype(np.int64)

"""MLX 0.32 ``mlx.nn.Upsample`` (nearest, linear, cubic; ``align_corners``; ``antialias`` from 0.32.1) as a library
and a runtime (ml-explore/mlx ``python/mlx/nn/layers/upsample.py`` read at every tag v0.5.0 ... v0.32.1; run
0.25.2 and 0.32.4 on Linux CPU).

``Upsample(scale_factor, mode, align_corners, antialias)`` takes channels-last arrays ``(B, *spatial, C)`` and a
scale factor only: output ``int(scale * n)`` (a size given here stands for the factor ``m / n``).  Every coordinate is float32 (``mx.arange(M, dtype=float32)``
times Python scalars taken as float32, each operation rounded: ``index_arithmetic="float32_unfused"``):

* ``linear`` / ``cubic``: ``x = i * step - ((M - 1) * step - N + 1) / 2`` with ``step = 1 / scale``
  (``_scaled_indices``: the coordinate transform ``mlx_centred``, half-pixel only when ``M = N * scale``
  exactly), or ``i * (N - 1) / max(M - 1, 1)`` with ``align_corners``; linear clamps the coordinate to
  ``[0, N - 1]``, cubic is Keys ``a = -0.75`` with clamped taps;
* ``antialias=True`` (linear, cubic; not with align_corners): the kernel widened by ``1 / scale`` when
  shrinking, out-of-image taps dropped and the rest renormalised, cubic with ``a = -0.5``;
* ``nearest``: integer factors on every axis repeat each sample (``i // f``, exact); otherwise, per axis,
  ``round_half_even((i + 0.5) * N / M - 0.5)`` when the axis grows and ``floor(i * N / M)`` when it does not.

>>> from explorer.conventions import preset
>>> preset("mlx", "linear")
Spec(kernel='linear', coordinate_transformation_mode='mlx_centred', index_arithmetic='float32_unfused')
"""

from __future__ import annotations


from ...engine.spec import Spec
from ...errors import ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register

_F32 = dict(index_arithmetic="float32_unfused")
_REPEAT = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor",
               index_arithmetic="exact")
_GROWING = Spec("nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_half_even", **_F32)
_SHRINKING = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor", **_F32)
#: floor of the asymmetric coordinate in double (what Core ML's and candle's nearest compute)
FLOOR_NEAREST = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")


class Mlx(Library):
    id = "mlx"
    title = "MLX mlx.nn.Upsample"
    aliases = ("mlx.nn", "mlx-nn")
    order = 80
    mode_names = {"nearest": "nearest", "linear": "linear", "cubic": "cubic"}
    mode_aliases = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}
    options = (
        Option("align_corners", False, (False, True), modes=("linear", "cubic")),
        Option("antialias", False, (False, True), "0.32.1+: linear and cubic, not with align_corners",
               modes=("linear", "cubic")),
    )
    unsupported = {"mode": "give the mode as the mode"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "nearest-exact": Closest("nearest", {}, "MLX has one nearest: integer factors repeat, a growing axis rounds "
                                                "(i+½)·n/m − ½ half to even, a shrinking one floors i·n/m"),
        "area": Closest("linear", {"antialias": True}, "MLX has no area mode: linear with antialias (0.32.1+) is shown"),
        "lanczos": Closest("cubic", {"antialias": True}, "MLX has no Lanczos: cubic with antialias (0.32.1+) is shown"),
    }
    toggle_options = {"align_corners": {True: {"align_corners": True}, False: {"align_corners": False}},
                      "antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    shown = {"align_corners": ("linear", "cubic")}
    image_scale = "scale_factor"

    apis = (
        Api("mlx.nn.Upsample", ("scale_factor", "mode", "align_corners", "antialias"),
            defaults={"mode": "nearest", "align_corners": False, "antialias": False}, scale_param="scale_factor",
            aliases=("mlx.nn.layers.upsample.Upsample",)),
        Api("mlx.nn.layers.upsample.upsample_linear", ("x", "scale_factor", "align_corners", "antialias"),
            mode_param=None, fixed={"mode": "linear"}, defaults={"align_corners": False, "antialias": False},
            scale_param="scale_factor", input="x"),
        Api("mlx.nn.layers.upsample.upsample_cubic", ("x", "scale_factor", "align_corners", "antialias"),
            mode_param=None, fixed={"mode": "cubic"}, defaults={"align_corners": False, "antialias": False},
            scale_param="scale_factor", input="x"),
        Api("mlx.nn.layers.upsample.upsample_nearest", ("x", "scale_factor"), mode_param=None,
            fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False},
            scale_param="scale_factor", input="x"),
    )
    gradient_modes = None  # mx.grad through take / gather and arithmetic

    def code(self, mode, options, h, w):
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", (f'y = mlx.nn.Upsample(scale_factor=({h} / h, {w} / w), mode="{mode}"{opts})(x_nhwc)'
                          "  # output int(scale * n)")

    def validate(self, mode, options):
        if options["antialias"] and options["align_corners"]:
            raise ArgumentValueError("[Upsample] antialias=True with align_corners=True is not supported. Use "
                                     "align_corners=False for antialiased interpolation.")

    def spec(self, mode, options):
        if mode == "nearest":
            return _GROWING
        transform = "align_corners" if options["align_corners"] else "mlx_centred"
        if options["antialias"]:
            return Spec(mode, coordinate_transformation_mode=transform, cubic_coeff_a=-0.5, antialias=True,
                        exclude_outside=True, **_F32)
        return Spec(mode, coordinate_transformation_mode=transform, cubic_coeff_a=-0.75, **_F32)

    def rows(self):
        out = [("nearest", {}, "a non-integer factor that grows the axis (see the docstring)")]
        for mode in ("linear", "cubic"):
            out += [(mode, {}, ""), (mode, {"align_corners": True}, ""), (mode, {"antialias": True}, "0.32.1+")]
        return out

    # ---------------------------------------------------------------- sizes
    def resized_axes(self, ndim):
        return tuple(range(1, ndim - 1)) if ndim >= 3 else None  # (B, *spatial, C)

    def output_length(self, n, factor, options):
        return int(float(factor) * n)

    def _repeats(self, call) -> bool:
        """Integer factors on every axis (a size stands for the factor m / n)."""
        if call.size_given:
            return all(m % n == 0 for n, m in call.lengths)
        return all(float(f) == int(f) for f in call.factors)

    def kernel_scales(self, call):
        if call.mode == "nearest":
            return [None] * len(call.lengths)  # N / M from the lengths
        return list(call.factors)

    def axis_specs(self, call, spec, scales):
        if call.mode != "nearest":
            return [spec] * len(call.lengths)
        if self._repeats(call):
            return [_REPEAT] * len(call.lengths)
        return [_GROWING if m > n else _SHRINKING for n, m in call.lengths]


LIBRARY = register(Mlx())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    options = {}
    if q.family in ("linear", "cubic"):
        options = {"align_corners": bool(q.align_corners), "antialias": bool(q.antialias)}
    return Computation("mlx", q.mode, options)


def _writes(q, h, w, size, scale_factor):
    factor = scale_factor if scale_factor is not None else "scale_factor"
    return "python", (f'y = mlx.nn.Upsample(scale_factor={factor}, mode="{q.mode}", '
                      f"align_corners={bool(q.align_corners)}, antialias={q.antialias})(x_nhwc)")


RUNTIME = register(Runtime(
    id="mlx", title="MLX", order=80,
    backends=(Backend("mlx", "mlx.nn.Upsample", ("cpu", "gpu"), "python", spelling="mlx", computes=_computes,
                      writes=_writes),),
    words=("mlx",), version_markers=("mlx-", "mlx==")))

"""JAX 0.10 ``jax.image.resize`` as Spec rows (``antialias`` defaults to True, as in JAX).

Every method but ``nearest`` builds a weight matrix the F2 way: half-pixel sample points, taps outside the
image dropped and the rest renormalised, the kernel widened by the scale when ``antialias`` and downscaling.
With 64-bit mode off (JAX's default) that matrix is computed in float32 (``index_arithmetic="jax_float32"``,
explorer.engine.native.jax); ``x64=True`` models ``jax_enable_x64``, where it is float64.
``cubic-pytorch`` without antialias is Keys a=-0.75 with a replicate border (clamp); with antialias it is
``cubic``.  ``nearest`` floors ``(i + 0.5) * n / m`` in float32, where XLA replaces the division by the output
length with a multiplication by its float32 reciprocal (``index_arithmetic="xla_float32"``).

>>> from explorer.conventions import preset
>>> preset("jax", "cubic", antialias=False)
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, index_arithmetic='jax_float32')
"""

from __future__ import annotations

from ...engine.spec import Spec
from ..library_resize import promote_to_float32
from ..declarations import Backend, Runtime, same_mode
from ..registry import Api, Library, Option, register

_RENORMALISE = dict(exclude_outside=True)
_MODES = {
    "nearest": dict(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn", nearest_mode="floor",
                    index_arithmetic="xla_float32"),
    "linear": dict(kernel="linear", **_RENORMALISE),
    "cubic": dict(kernel="cubic", cubic_coeff_a=-0.5, **_RENORMALISE),
    "cubic-pytorch": dict(kernel="cubic", cubic_coeff_a=-0.75),
    "lanczos3": dict(kernel="lanczos3", **_RENORMALISE),
    "lanczos5": dict(kernel="lanczos5", **_RENORMALISE),
    "area": dict(kernel="area"),
}


class Jax(Library):
    id = "jax"
    title = "JAX jax.image.resize"
    order = 20
    mode_names = {"nearest": "nearest-exact", "linear": "linear", "cubic": "cubic", "cubic-pytorch": "cubic",
                  "lanczos3": "lanczos3", "lanczos5": "lanczos5", "area": "area"}

    # ported from PyTorch (explorer.conventions.native_call)
    toggle_options = {"antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    toggle_notes = {("align_corners", True): "jax.image.resize has no align_corners (jax.image.scale_and_translate "
                                             "can emulate it); left out"}
    shown = {"antialias": ("linear", "cubic", "lanczos3")}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("jax.image.resize", ("image", "shape", "method", "antialias", "precision"), mode_param="method",
            defaults={"mode": None, "align_corners": None, "antialias": "downscale"},
            antialias_modes=("linear", "cubic", "lanczos3", "lanczos5")),
    )
    constants = {"jax.image.ResizeMethod": ("jax", {"NEAREST": "nearest", "LINEAR": "linear", "CUBIC": "cubic",
                                                    "LANCZOS3": "lanczos3", "LANCZOS5": "lanczos5"})}
    options = (Option("antialias", True, (False, True)),
               Option("x64", False, (False, True), "jax_enable_x64: weights in float64 instead of float32"))
    unsupported = {"precision": "the explorer contracts in the input's own precision",
                   "method": "give the method as the mode"}
    mode_aliases = {"bilinear": "linear", "trilinear": "linear", "triangle": "linear", "bicubic": "cubic",
               "tricubic": "cubic", "bicubicpytorch": "cubic-pytorch"}
    gradient_modes = None  # pure jnp: every method is differentiable


    def code(self, mode, options, h, w):
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", (f'y = jax.image.resize(x_nhwc, (n, {h}, {w}, c), method="{mode}"{opts})'
                          "  # the shape covers every axis")

    def resize_integer(self, call, x, plans, specs):
        """Integer images are computed and returned in float32."""
        return promote_to_float32(call, x, plans, specs)

    def spec(self, mode, options):
        fields = dict(_MODES[mode])
        if options["antialias"] and mode != "nearest":
            if mode == "cubic-pytorch":
                fields = dict(_MODES["cubic"])
            fields["antialias"] = mode != "area"  # area ignores antialias (its weights are the overlaps)
        if mode != "nearest":
            fields["index_arithmetic"] = "float64" if options["x64"] else "jax_float32"
        return Spec(**fields)

    def rows(self):
        out = []
        for mode in self.modes:
            if mode in ("nearest", "area"):
                out.append((mode, {}, ""))
            else:
                out.append((mode, {}, "antialias=True (the JAX default)"))
                out.append((mode, {"antialias": False}, ""))
        return out


LIBRARY = register(Jax())


# ------------------------------------------------------------------------------------------------ the runtime
def _antialias(q) -> dict:
    return {"antialias": q.antialias}


def _writes(q, h, w, size, scale_factor):
    return "python", f'y = jax.image.resize(x, (n, c, {h}, {w}), method="{q.mode}", antialias={q.antialias})'


RUNTIME = register(Runtime(
    id="jax", title="JAX", order=30,
    backends=(Backend("jax", "jax.image.resize / jax.image.scale_and_translate", ("cpu", "gpu", "tpu"), "python",
                      spelling="jax", computes=same_mode("jax", _antialias), writes=_writes),),
    words=("jax", "jaxlib"), version_markers=("jax==",)))

"""JAX 0.10 ``jax.image.resize`` as Spec rows (``antialias`` defaults to True, as in JAX).

Every method but ``nearest`` builds a weight matrix the F2 way: half-pixel sample points, taps outside the
image dropped and the rest renormalised, the kernel widened by the scale when ``antialias`` and downscaling.
With 64-bit mode off (JAX's default) that matrix is computed in float32 (``index_arithmetic="jax_float32"``,
explorer.engine.native.jax); ``x64=True`` models ``jax_enable_x64``, where it is float64.
``cubic-pytorch`` without antialias is Keys a=-0.75 with a replicate border (clamp); with antialias it is
``cubic``.  ``nearest`` floors ``(i + 0.5) * n / m`` in float32, where XLA replaces the division by the output
length with a multiplication by its float32 reciprocal (``index_arithmetic="xla_float32"``).

Note [reduced floats]
    A float16 or bfloat16 image (jax.numpy keeps both): ``_scale_and_translate`` casts each axis's weight matrix
    to the image's dtype (``compute_weight_mat(...).astype(x.dtype)``) and contracts them with one
    ``jnp.einsum``, whose pairwise contractions opt_einsum orders (``optimize="auto"``: the ``optimal`` search
    for up to four operands, cheapest flop count first found); each contraction accumulates in float32 and
    rounds its result to the dtype, so the passes round in that order.  Axes whose length does not change are
    not contracted.  The gradient runs the transposed contractions in the reverse order, each rounded.
    ``nearest`` gathers, and its gradient scatter-adds into the dtype, rounding each addition.  [source:
    jax/_src/image/scale.py, jax/_src/numpy/einsum.py and opt_einsum/paths.py of the installed wheels;
    measured against jax 0.10.2 CPU]

>>> from explorer.conventions import preset
>>> preset("jax", "cubic", antialias=False)
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, index_arithmetic='jax_float32')
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from ... import validate
from ...engine.execute import execute, scatter_rounded
from ...engine.plan import rounded_weights
from ...engine.spec import Spec
from ..library_resize import promote_to_float32
from ..declarations import Backend, Runtime, same_mode
from ..registry import Api, Library, Option, register

_RENORMALISE = dict(exclude_outside=True)
#: The methods antialias applies to, in every spelling ResizeMethod.from_string takes (jax/_src/image/scale.py:
#: 'linear', 'bilinear', 'trilinear', 'triangle'; 'cubic', 'bicubic', 'tricubic'; 'lanczos3'; 'lanczos5').
_ANTIALIASED = ("linear", "bilinear", "trilinear", "triangle", "cubic", "bicubic", "tricubic", "lanczos3", "lanczos5")
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
            antialias_modes=_ANTIALIASED),
        Api("jax.image.scale_and_translate",
            ("image", "shape", "spatial_dims", "scale", "translation", "method", "antialias", "precision"),
            mode_param="method", defaults={"mode": None, "align_corners": None, "antialias": "downscale"},
            antialias_modes=_ANTIALIASED),
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
    float_dtypes = ("float16", "bfloat16", "float32", "float64")  # Note [reduced floats]


    def code(self, mode, options, h, w):
        opts = "".join(f", {k}={v!r}" for k, v in options.items())
        return "python", (f'y = jax.image.resize(x_nhwc, (n, {h}, {w}, c), method="{mode}"{opts})'
                          "  # the shape covers every axis")

    def resize_integer(self, call, x, plans, specs):
        """Integer images are computed and returned in float32."""
        return promote_to_float32(call, x, plans, specs)

    def adjust_plans(self, call, plans):
        """Note [reduced floats]: the weight matrices are cast to the image's dtype."""
        if not validate.is_reduced_float(call.dtype):
            return plans
        return [(axis, plan if plan.nearest else rounded_weights(plan, call.dtype)) for axis, plan in plans]

    def resize_reduced(self, call, x, plans, specs):
        """Note [reduced floats]: one rounding per contraction, in opt_einsum's order."""
        if all(plan.nearest for _, plan in plans):
            return None
        out = x
        for group in einsum_groups(x.shape, plans):
            out = _contract(out, group, transpose=False)
        return out

    def transpose_reduced(self, call, grad, plans):
        if all(plan.nearest for _, plan in plans):  # the gather's transpose: a scatter-add in the dtype
            return scatter_rounded(grad, plans, call.shape)
        out = grad
        for group in reversed(einsum_groups(call.shape, plans)):
            out = _contract(out, group, transpose=True)
        return out

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


# ------------------------------------------------------------------------------------------------ einsum order
def einsum_groups(shape, plans) -> list[list]:
    """The ``(axis, plan)`` groups ``jnp.einsum`` contracts the image with, in order (Note [reduced floats]).

    ``shape`` is the image's (input) shape.  opt_einsum's ``optimal`` search is replayed on the operands
    ``[image, W_a, W_b, ...]`` (axes in increasing order, the unchanged ones left out): every pairwise
    contraction costs the product of the sizes of the indices it touches, times 2 when it sums one out, and
    the first cheapest path found wins.  A group of several plans is an outer product of weight matrices
    formed before it meets the image (only ever chosen for tiny outputs).

    >>> from explorer.engine import Spec, axis_plan
    >>> a, b = axis_plan(17, 13, Spec("linear")), axis_plan(13, 7, Spec("linear"))
    >>> [[axis for axis, _ in group] for group in einsum_groups((2, 17, 13, 3), [(1, a), (2, b)])]
    [[2], [1]]
    """
    resized = sorted(((axis, plan) for axis, plan in plans if not plan.is_identity), key=lambda item: item[0])
    if len(resized) <= 1:
        return [[item] for item in resized]
    sizes = {"rest": max(1, math.prod(shape) // math.prod(plan.n for _, plan in resized))}
    inputs = [frozenset(["rest"] + [("in", axis) for axis, _ in resized])]
    for axis, plan in resized:
        sizes[("in", axis)], sizes[("out", axis)] = plan.n, plan.m
        inputs.append(frozenset([("in", axis), ("out", axis)]))
    output = frozenset(["rest"] + [("out", axis) for axis, _ in resized])
    best = {"flops": math.inf, "path": ()}

    def search(path, inputs, remaining, flops):
        if len(remaining) == 1:
            best["flops"], best["path"] = flops, path
            return
        for i, j in itertools.combinations(sorted(remaining), 2):
            either, shared = inputs[i] | inputs[j], inputs[i] & inputs[j]
            keep = frozenset.union(output, *(inputs[k] for k in remaining - {i, j}))
            cost = math.prod(sizes[k] for k in either) * (2 if shared - keep else 1)
            if flops + cost >= best["flops"]:
                continue
            search(path + ((i, j),), inputs + [either & keep], remaining - {i, j} | {len(inputs)}, flops + cost)

    search((), inputs, set(range(len(inputs))), 0)
    members = {0: None}  # ssa id -> None for the image (or what it became), else its list of (axis, plan)
    members.update({k + 1: [item] for k, item in enumerate(resized)})
    groups = []
    for i, j in best["path"]:
        new = len(members)
        a, b = members[i], members[j]
        if a is None or b is None:
            groups.append(b if a is None else a)
            members[new] = None
        else:
            members[new] = a + b
    return groups


def _contract(x, group, transpose: bool):
    """One contraction of ``x`` with a group's weights, accumulated in float32 and rounded to ``x.dtype``."""
    if len(group) == 1:
        return execute(x, group, transpose=transpose)
    dense = None  # the outer product of the weight matrices, rounded after each product
    for _, plan in group:
        w = plan.band.dense().astype(np.float32)
        w = w.T if transpose else w  # (outputs, inputs) of this direction
        dense = w if dense is None else np.multiply.outer(dense, w).astype(x.dtype).astype(np.float32)
    axes = [axis for axis, _ in group]
    k = len(axes)
    order = [2 * r for r in range(k)] + [2 * r + 1 for r in range(k)]  # (out_a, out_b, ..., in_a, in_b, ...)
    dense = dense.transpose(order)
    moved = np.moveaxis(x.astype(np.float32), axes, range(k))
    out = np.tensordot(dense, moved, axes=(list(range(k, 2 * k)), list(range(k)))).astype(np.float32)
    return np.moveaxis(out, range(k), axes).astype(x.dtype)


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

"""A resize found in a model, as a call of a library preset: what ONNX Runtime (or PyTorch) computes for it.

A node's *problem* is its resized axes with their input and output lengths, laid out as an ``(1, 1, *lengths)``
array (batch and channels do not change the weights).  :class:`PresetResize` is one library's call on that
problem (library, native mode, the library's own options, ``size`` or ``scale_factor``); :func:`onnx_call`
builds it for an ONNX ``Resize``/``Upsample`` node, :meth:`PresetResize.plans` gives the per-axis weights the
library computes, and :func:`plans_agree` compares two calls' weights without building dense matrices.

>>> from explorer.advisor.node_calls import PresetResize
>>> a = PresetResize("onnx", "nearest", {"coordinate_transformation_mode": "half_pixel",
...              "nearest_mode": "round_prefer_ceil"}, (1, 1, 10), (2,), size=(3,))
>>> b = PresetResize("torch", "nearest-exact", {}, (1, 1, 10), (2,), size=(3,))
>>> plans_agree(a.plans(), b.plans())
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..conventions import library_resize
from ..conventions.library_resize import build_plans, prepare
from ..conventions.libraries.onnx import OPSETS
from ..conventions.registry import resolve
from ..errors import ArgumentValueError
from ..limits import MEASURE_BYTES
from .onnx_resize import ResizeNode

#: ONNX Resize attributes each preset opset takes (Resize-10 and Upsample take none but the mode)
_ATTRIBUTES = {
    11: ("coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
         "extrapolation_value"),
    18: ("coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
         "extrapolation_value", "antialias", "keep_aspect_ratio_policy"),
}
_UPSAMPLE_MODES = {"nearest": "nearest", "linear": "linear", "bilinear": "linear"}


@dataclass(frozen=True)
class PresetResize:
    """One library call on a node's problem: ``library_resize(x, library=..., mode=..., **options)``."""

    library: str
    mode: str
    options: dict
    shape: tuple                  # (1, 1, *input lengths of the resized axes)
    axes: tuple                   # the axes of ``shape`` that are resized (2, 3, ...)
    size: tuple | None = None
    scale_factor: tuple | None = None
    notes: tuple = field(default_factory=tuple)

    @property
    def input_lengths(self) -> tuple:
        return tuple(self.shape[a] for a in self.axes)

    def arguments(self) -> dict:
        """The size argument as ``library_resize`` takes it."""
        if self.scale_factor is not None:
            return {"scale_factor": self.scale_factor}
        return {"size": self.size}

    def prepared(self):
        lib, native, options = resolve(self.library, self.mode, dict(self.options))
        return prepare(lib, native, options, self.shape, np.float32, self.size, self.scale_factor, self.axes)

    def output_lengths(self) -> tuple:
        return tuple(m for _, m in self.prepared().lengths)

    def plans(self):
        """``(specs, [(axis, AxisPlan)])`` as the library computes them for this problem."""
        return build_plans(self.prepared())

    def run(self, x: np.ndarray) -> np.ndarray:
        return library_resize(x, library=self.library, mode=self.mode, axes=self.axes, **self.arguments(),
                              **self.options)

    def describe(self) -> dict:
        """``{"library", "mode", "options"}`` with the size argument among the options."""
        options = {k: v for k, v in self.options.items()}
        options.update({k: list(v) for k, v in self.arguments().items()})
        return {"library": self.library, "mode": self.mode, "options": options}


def problem(input_shape, output_shape, resized=None) -> tuple[tuple, tuple, tuple, tuple]:
    """``(shape, axes, output lengths, node axes)`` of the canonical problem of a resize from ``input_shape`` to
    ``output_shape``: the spatial axes of (N, C, *spatial) when only those change, else the changed axes."""
    rank = len(input_shape)
    changed = [a for a, (n, m) in enumerate(zip(input_shape, output_shape)) if n != m]
    if resized is not None:
        changed = sorted(set(changed) | set(resized))
    if rank >= 3 and all(a >= 2 for a in changed):
        kept = list(range(2, rank))
    else:
        kept = changed or list(range(rank))
    lengths = tuple(int(input_shape[a]) for a in kept)
    out = tuple(int(output_shape[a]) for a in kept)
    return (1, 1, *lengths), tuple(range(2, 2 + len(kept))), out, tuple(kept)


def onnx_options(node: ResizeNode) -> tuple[str, dict]:
    """``(mode, options)`` of the ``onnx`` preset for the node's attributes (the Resize version in force)."""
    attributes = node.attributes
    if node.op_type == "Upsample":
        mode = _UPSAMPLE_MODES.get(str(attributes.get("mode", "nearest")).lower())
        if mode is None:
            raise ArgumentValueError(f"Upsample mode={attributes.get('mode')!r} is not valid; choose one of: "
                                     "'nearest', 'linear'")
        return mode, {"opset": 10}
    mode = attributes.get("mode") or "nearest"
    opset = max(v for v in OPSETS if v <= max(node.op_version, OPSETS[0]))
    options = {"opset": opset}
    for name in _ATTRIBUTES.get(18 if opset >= 18 else 11, ()) if opset >= 11 else ():
        value = attributes.get(name)
        if value is None or (name == "nearest_mode" and mode != "nearest"):
            continue
        options[name] = value
    if options.get("coordinate_transformation_mode") == "tf_crop_and_resize" and node.roi:
        options["roi"] = node.roi
    return mode, options


def onnx_call(node: ResizeNode) -> PresetResize:
    """The ``onnx`` preset call that computes ``node`` as ONNX Runtime does.

    Raises ArgumentValueError naming what is missing when the node's shapes or sizes are not known.
    """
    if not node.static:
        raise ArgumentValueError(f"node {node.name!r}: its input and output shapes are not static "
                                 f"({node.input_shape} -> {node.output_shape}); give example_inputs with the "
                                 "input shapes to scan it")
    mode, options = onnx_options(node)
    shape, axes, out, kept = problem(node.input_shape, node.output_shape,
                                     [a for a, s in enumerate(node.scales or ()) if s != 1.0])
    if "roi" in options:
        rank = len(node.input_shape)
        roi = node.roi
        options["roi"] = tuple((roi[a], roi[a + rank]) for a in kept) if len(roi) == 2 * rank else roi
    notes = ()
    if node.scales is not None:
        return PresetResize("onnx", mode, options, shape, axes, scale_factor=tuple(node.scales[a] for a in kept),
                        notes=notes)
    policy = options.get("keep_aspect_ratio_policy", "stretch")
    size = tuple(node.sizes[a] for a in kept) if (node.sizes is not None and policy != "stretch") else out
    return PresetResize("onnx", mode, options, shape, axes, size=size, notes=notes)


def measurable(call: PresetResize, out_lengths) -> bool:
    """Whether one float32 plane in and out fits :data:`explorer.limits.MEASURE_BYTES`."""
    return 4 * (math.prod(call.input_lengths) + math.prod(out_lengths)) <= MEASURE_BYTES


# ------------------------------------------------------------------------------------------------ weights
def _keys_and_values(plan):
    rows, cols, values = plan.band.triplets()
    keep = values != 0
    keys = rows[keep].astype(np.int64) * (plan.n + 1) + cols[keep]
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[keep][order]
    unique, start = np.unique(keys, return_index=True)
    return unique, np.add.reduceat(values, start) if len(values) else values


def plan_difference(a, b) -> float:
    """The largest difference between two axis plans' weights (inf when lengths or extrapolation differ)."""
    if a.n != b.n or a.m != b.m:
        return math.inf
    out_a = a.outside if a.outside is not None else np.zeros(a.m, bool)
    out_b = b.outside if b.outside is not None else np.zeros(b.m, bool)
    if not np.array_equal(out_a, out_b):
        return math.inf
    keys_a, values_a = _keys_and_values(a)
    keys_b, values_b = _keys_and_values(b)
    keys = np.union1d(keys_a, keys_b)
    dense_a = np.zeros(len(keys))
    dense_b = np.zeros(len(keys))
    dense_a[np.searchsorted(keys, keys_a)] = values_a
    dense_b[np.searchsorted(keys, keys_b)] = values_b
    return float(np.abs(dense_a - dense_b).max(initial=0.0))


def _sampled_rows_differ(a, b, atol: float, count: int = 24) -> bool:
    """Whether some of ``count`` evenly spaced outputs already differ by more than ``atol`` (a cheap first look
    before :func:`plan_difference` compares every weight of wide plans)."""
    if a.n != b.n or a.m != b.m:
        return True
    for r in np.unique(np.linspace(0, a.m - 1, min(count, a.m)).astype(np.int64)):
        bands = (a.band, b.band)
        lo = min(int(band.start[r]) for band in bands)
        hi = max(int(band.start[r] + band.length[r]) for band in bands)
        rows = []
        for band in bands:  # the row's weights over the span both rows touch
            dense = np.zeros(max(hi - lo, 1))
            length = int(band.length[r])
            np.add.at(dense, band.start[r] - lo + np.arange(length), band.weights[r, :length])
            rows.append(dense)
        if np.abs(rows[0] - rows[1]).max(initial=0.0) > atol:
            return True
    return False


def plans_agree(first, second, atol: float = 1e-5) -> bool:
    """Whether two ``(specs, plans)`` results compute the same weights on every axis (within ``atol``)."""
    specs_a, plans_a = first
    specs_b, plans_b = second
    if len(plans_a) != len(plans_b):
        return False
    for (axis_a, pa), (axis_b, pb), sa, sb in zip(plans_a, plans_b, specs_a, specs_b):
        if axis_a != axis_b or _sampled_rows_differ(pa, pb, atol) or plan_difference(pa, pb) > atol:
            return False
        if pa.outside is not None and pa.outside.any() and sa.extrapolation_value != sb.extrapolation_value:
            return False
    return True

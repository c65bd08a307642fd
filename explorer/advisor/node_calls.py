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
from .onnx_resize import ResizeNode, output_shape, resize_nodes

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


def roi_pairs(node: ResizeNode, kept) -> tuple:
    """The node's ``roi`` as one (start, end) pair per axis of ``kept``: the roi holds all starts then all ends,
    over every axis of the input or, with the ``axes`` attribute (Resize-18), over those axes in their order; an
    axis it does not cover keeps its whole extent (0, 1).

    >>> node = ResizeNode("r", "Resize", 18, 18, {"axes": (3, 2)}, (), (1, 1, 8, 8), (1, 1, 4, 4),
    ...                   roi=(0.1, 0.2, 0.6, 0.7))
    >>> roi_pairs(node, (2, 3))
    ((0.2, 0.7), (0.1, 0.6))
    """
    rank, roi = len(node.input_shape), node.roi
    if len(roi) == 2 * rank:
        return tuple((roi[a], roi[a + rank]) for a in kept)
    axes = node.attributes.get("axes")
    if axes is not None:
        axes = [int(a) + rank if int(a) < 0 else int(a) for a in (axes if isinstance(axes, (tuple, list)) else (axes,))]
        if len(roi) == 2 * len(axes):
            count = len(axes)
            pairs = {a: (roi[k], roi[k + count]) for k, a in enumerate(axes)}
            return tuple(pairs.get(a, (0.0, 1.0)) for a in kept)
    return roi


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
        options["roi"] = roi_pairs(node, kept)
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


#: float32's machine epsilon (2**-23)
FLOAT32_EPS = 2.0 ** -23


def rounding_atol(*lengths) -> float:
    """The weight difference float32 coordinate rounding alone can make on axes of these lengths.

    A sample coordinate up to ``n`` computed in float32 (a scale, a product, an offset: a few roundings of half
    an ulp, at most ``n * 2**-24`` each) moves a weight by the kernel's slope times that (at most 2 for Keys
    cubic): 16 half-ulps of the longest axis, and never less than 1e-5.  Two conventions that differ (another
    coordinate rule, another cubic coefficient, a nearest rule that picks another index) differ by 1e-2 or
    more, so this tolerance tells rounding apart from convention.

    >>> rounding_atol(10, 3)
    1e-05
    >>> round(rounding_atol(240, 224), 6)
    0.000229
    """
    longest = max((int(n) for n in lengths), default=1)
    return max(1e-5, 8 * longest * FLOAT32_EPS)


def plans_agree(first, second, atol: float | None = None) -> bool:
    """Whether two ``(specs, plans)`` results compute the same weights on every axis (within ``atol``; by default
    :func:`rounding_atol` of each axis' lengths: float32 rounding is not a convention)."""
    specs_a, plans_a = first
    specs_b, plans_b = second
    if len(plans_a) != len(plans_b):
        return False
    for (axis_a, pa), (axis_b, pb), sa, sb in zip(plans_a, plans_b, specs_a, specs_b):
        tol = rounding_atol(pa.n, pa.m) if atol is None else atol
        if axis_a != axis_b or _sampled_rows_differ(pa, pb, tol) or plan_difference(pa, pb) > tol:
            return False
        if pa.outside is not None and pa.outside.any() and sa.extrapolation_value != sb.extrapolation_value:
            return False
    return True


# ------------------------------------------------------------------------------------------------ running a node
def run_resize_node(model_or_node, x, node=None) -> np.ndarray:
    """What the explorer computes for one ONNX ``Resize``/``Upsample`` node on the array ``x``.

    ``model_or_node`` is a model (path, bytes or ``onnx.ModelProto``, read with ``x``'s shape as the first
    input's) or a :class:`~explorer.advisor.onnx_resize.ResizeNode`; ``node`` picks one node of a model by
    name or index (needed when it has several).  The node's attributes, ``roi``, ``scales`` or ``sizes`` and
    ``axes`` run through the ``onnx`` preset (ONNX Runtime's CPU arithmetic) on the node's own axes.

    >>> import numpy as np
    >>> from onnx import TensorProto, helper
    >>> x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])
    >>> y_info = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    >>> scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    >>> resize = helper.make_node("Resize", ["x", "", "scales"], ["y"], mode="linear")
    >>> model = helper.make_model(helper.make_graph([resize], "g", [x_info], [y_info], initializer=[scales]),
    ...                           opset_imports=[helper.make_opsetid("", 13)])
    >>> run_resize_node(model, np.array([[[[0, 1], [2, 3]]]], np.float32))[0, 0].tolist()
    [[0.0, 0.25, 0.75, 1.0], [0.5, 0.75, 1.25, 1.5], [1.5, 1.75, 2.25, 2.5], [2.0, 2.25, 2.75, 3.0]]
    """
    x = np.asarray(x)
    if isinstance(model_or_node, ResizeNode):
        found = model_or_node
        if found.input_shape is None or not found.static:
            found = ResizeNode(**{**found.__dict__, "input_shape": x.shape,
                                  "output_shape": output_shape(found, x.shape)})
        if tuple(found.input_shape) != x.shape:
            raise ArgumentValueError(f"x has shape {x.shape} but node {found.name!r} takes {found.input_shape}; "
                                     "give the model to read the node at x's shape")
    else:
        nodes = resize_nodes(model_or_node, example_inputs=[x.shape])
        found = _pick_node(nodes, node)
    if not found.static:
        raise ArgumentValueError(f"node {found.name!r}: its output shape is not known ({found.input_shape} -> "
                                 f"{found.output_shape}); its scales or sizes are computed at run time")
    mode, options = onnx_options(found)
    _, _, out, kept = problem(found.input_shape, found.output_shape,
                              [a for a, s in enumerate(found.scales or ()) if s != 1.0])
    if "roi" in options:
        options["roi"] = roi_pairs(found, kept)
    if found.scales is not None:
        return library_resize(x, library="onnx", mode=mode, axes=kept,
                              scale_factor=tuple(found.scales[a] for a in kept), **options)
    policy = options.get("keep_aspect_ratio_policy", "stretch")
    if found.sizes is not None and policy != "stretch":
        # the policy's one scale is the least (largest) ratio over every axis it covers, batch and channels too
        rank = len(found.input_shape)
        covered = tuple(a + rank if a < 0 else a for a in (found.attributes.get("axes") or range(rank)))
        return library_resize(x, library="onnx", mode=mode, axes=covered,
                              size=tuple(found.sizes[a] for a in covered), **options)
    return library_resize(x, library="onnx", mode=mode, axes=kept, size=out, **options)


def _pick_node(nodes, node):
    if not nodes:
        raise ArgumentValueError("the model has no Resize or Upsample node")
    if node is None:
        if len(nodes) > 1:
            raise ArgumentValueError(f"the model has {len(nodes)} Resize/Upsample nodes; choose one with node= "
                                     f"(a name or an index): {[n.name for n in nodes]}")
        return nodes[0]
    if isinstance(node, int) and not isinstance(node, bool):
        if not -len(nodes) <= node < len(nodes):
            raise ArgumentValueError(f"node={node} is out of range; the model has {len(nodes)} Resize/Upsample "
                                     "nodes")
        return nodes[node]
    for candidate in nodes:
        if candidate.name == node:
            return candidate
    raise ArgumentValueError(f"node={node!r} is not a Resize/Upsample node of the model; choose one of: "
                             f"{[n.name for n in nodes]}")

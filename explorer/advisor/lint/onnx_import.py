"""ONNX ``Resize`` nodes built in Python (``helper.make_node``) and imported into Burn: what the import writes,
and whether it computes what the node computes.

The node's attributes are read from the call; :mod:`explorer.advisor.onnx_resize` fills in the operator's
defaults and :mod:`explorer.advisor.burn_import` says, for the Burn release asked about, which op the import
generates (or the error that stops it).  The node's computation (``preset("onnx", ...)``) is then compared with
the generated op's (``preset("burn", ...)``) on a few sizes, up and down, odd and with non-integer ratios, since
the call does not say the sizes: a difference is a ``differs`` finding naming the first sizes where the weights
differ.

>>> node = {"mode": "nearest"}
>>> outcome = import_outcome(node, "0.22.0-pre.2")
>>> outcome.mode, outcome.fails
('Nearest', False)
>>> import_difference(node, outcome, "tch", "0.22.0-pre.2").split(":")[0]
'Burn 0.22.0-pre.2 imports this Resize(nearest, half_pixel, round_prefer_floor) as Nearest'
>>> import_difference({"mode": "linear"}, import_outcome({"mode": "linear"}, "0.22.0-pre.2"), "tch") is None
True
"""

from __future__ import annotations

import functools

from ...conventions import preset
from ...conventions.equivalence import weight_difference
from .. import burn_import
from ..onnx_resize import resize_nodes

#: Attributes of a Resize node the comparison reads (the others do not change the weights on a plane).
ATTRIBUTES = ("mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
              "antialias")
#: Burn backend id -> the backend option of explorer.conventions' Burn preset.
BURN_BACKENDS = {"burn-tch": "tch", "burn-flex": "flex", "burn-ndarray": "ndarray", "burn-wgpu": "cubecl",
                 "burn-cuda": "cubecl", "burn-rocm": "cubecl", "burn-cpu": "cubecl", "burn-candle": "flex"}
#: (input, output) lengths the two computations are compared on.
SIZES = ((3, 5), (5, 3), (4, 7), (7, 4), (5, 10), (10, 5), (6, 9), (9, 6))
#: The opset a node built by itself is read at (its model's opset is not in the call).
OPSET = 19


@functools.lru_cache(maxsize=256)
def _resize_node(items: tuple):
    """The node as onnx_resize reads it (defaults filled in), in a one-node model with constant scales."""
    from onnx import TensorProto, helper
    attrs = dict(items)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="node", **attrs)
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[scales]),
                              opset_imports=[helper.make_opsetid("", OPSET)])
    return resize_nodes(model)[0]


def import_outcome(attrs: dict, version: str | None):
    """What Burn's ONNX import of ``version`` (None: the newest known) does with a node of these attributes."""
    items = tuple(sorted((k, v) for k, v in attrs.items() if k in ATTRIBUTES and v is not None))
    try:
        node = _resize_node(items)
    except (ImportError, ValueError, TypeError):
        return None  # no onnx package, or attribute values ONNX rejects: nothing to compare
    era = burn_import.era_for(version) if version else burn_import.eras()[-1]
    return burn_import.import_node(node, era)


def import_difference(attrs: dict, outcome, backend_option: str | None, version: str | None = None) -> str | None:
    """A sentence saying how the generated op differs from the node (None: the same, or not comparable)."""
    if outcome is None or outcome.fails:
        return None
    node = _resize_node(tuple(sorted((k, v) for k, v in attrs.items() if k in ATTRIBUTES and v is not None)))
    options = {"backend": backend_option} if backend_option else {}
    if outcome.align_corners is not None:
        options["align_corners"] = outcome.align_corners
    try:
        ours = preset("onnx", node.mode, **{k: node.attributes[k] for k in ATTRIBUTES[1:] if k in node.attributes})
        theirs = preset("burn", outcome.mode, **options)
    except (ValueError, TypeError):
        return None  # an attribute value or a mode the presets do not take
    for n, m in SIZES:
        difference = weight_difference(ours, theirs, n, m)
        if difference > 1e-5:
            written = outcome.mode
            if outcome.mode != "Nearest":
                written += (f" (align_corners={outcome.align_corners})" if outcome.align_corners is not None
                            else " (align-corners grid)")
            release = version or f"{outcome.era.versions}"
            return (f"Burn {release} imports this {describe(node.attributes)} as {written}: the outputs differ, "
                    f"e.g. resizing {n} -> {m} (weights differ by up to {difference:.3g}). Export the node with "
                    "the attributes the import keeps, or compare the imported model with ONNX Runtime "
                    "(python -m explorer scan model.onnx --backend burn-... measures it).")
    return None


def describe(attributes: dict) -> str:
    """``Resize(nearest, half_pixel, round_prefer_floor)``: the attributes that decide what a node computes."""
    mode = attributes.get("mode", "nearest")
    parts = [mode, str(attributes.get("coordinate_transformation_mode", "half_pixel"))]
    if mode == "nearest":
        parts.append(str(attributes.get("nearest_mode", "round_prefer_floor")))
    if mode == "cubic" and attributes.get("cubic_coeff_a", -0.75) != -0.75:
        parts.append(f"cubic_coeff_a={attributes['cubic_coeff_a']}")
    if attributes.get("antialias"):
        parts.append("antialias=1")
    return f"Resize({', '.join(parts)})"

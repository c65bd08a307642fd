"""ONNX ``Resize`` nodes imported into another library: which op the importer writes, and whether it computes
what the node computes.

An importer maps the node's ``mode`` to one of its library's modes and keeps some attributes; the others are
dropped.  The node's computation (``explorer.conventions.preset("onnx", ...)`` with its attributes) is compared
with the computation of the op the importer writes on a few sizes (up and down, odd, non-integer ratios); a
difference is a ``differs`` finding naming the first sizes where the weights differ.

>>> node = {"mode": "nearest", "coordinate_transformation_mode": "half_pixel", "nearest_mode": "round_prefer_floor"}
>>> imported_mode("burn", node)
('Nearest', None)
>>> differs = import_difference("burn", "tch", node)
>>> differs.split(":")[0]
'burn-onnx imports this Resize(nearest, half_pixel, round_prefer_floor) as Nearest'
>>> import_difference("burn", "tch", {"mode": "linear", "coordinate_transformation_mode": "half_pixel"}) is None
True
"""

from __future__ import annotations

from ...conventions import preset
from ...conventions.equivalence import weight_difference

#: library -> how its ONNX importer writes a Resize node.  ``modes``: node mode -> the library's mode;
#: ``align_corners``: True when the importer sets it from coordinate_transformation_mode == "align_corners";
#: every other attribute (nearest_mode, cubic_coeff_a, antialias, exclude_outside) is dropped.
IMPORTERS = {
    "burn": {
        "name": "burn-onnx",
        "modes": {"nearest": "Nearest", "linear": "Bilinear", "cubic": "Bicubic"},
        "align_corners": True,
        "source": "tracel-ai/burn-onnx crates/burn-onnx/src/burn/node/resize.rs:39-44 @ 7db1e206c9f3 "
                  "(ResizeMode::Nearest/Linear/Cubic -> InterpolateMode::Nearest/Linear/Cubic; "
                  "align_corners = coordinate_transformation_mode == \"align_corners\")",
    },
}
#: Burn backend id -> the backend option of explorer.conventions' Burn preset.
BURN_BACKENDS = {"burn-tch": "tch", "burn-flex": "flex", "burn-ndarray": "ndarray", "burn-wgpu": "cubecl",
                 "burn-cuda": "cubecl", "burn-rocm": "cubecl", "burn-cpu": "cubecl", "burn-candle": "flex"}
#: (input, output) lengths the two computations are compared on.
SIZES = ((3, 5), (5, 3), (4, 7), (7, 4), (5, 10), (10, 5), (6, 9), (9, 6))
NODE_DEFAULTS = {"coordinate_transformation_mode": "half_pixel", "nearest_mode": "round_prefer_floor",
                 "cubic_coeff_a": -0.75, "exclude_outside": 0, "antialias": 0}


def imported_mode(library: str, node: dict) -> tuple[str, bool | None] | None:
    """(the library's mode, align_corners) an importer writes for a node, or None (no importer, or no such mode)."""
    importer = IMPORTERS.get(library)
    if importer is None or node.get("mode") not in importer["modes"]:
        return None
    mode = importer["modes"][node["mode"]]
    if node["mode"] == "nearest" or not importer["align_corners"]:
        return mode, None
    return mode, node.get("coordinate_transformation_mode", NODE_DEFAULTS["coordinate_transformation_mode"]) == \
        "align_corners"


def node_spec(node: dict):
    attrs = {k: node[k] for k in NODE_DEFAULTS if node.get(k) is not None}
    if node.get("opset"):
        attrs["opset"] = node["opset"]
    return preset("onnx", node.get("mode", "nearest"), **attrs)


def import_difference(library: str, backend_option: str | None, node: dict) -> str | None:
    """A sentence saying how the imported op differs from the node (None: the same, or not comparable)."""
    found = imported_mode(library, node)
    if found is None:
        return None
    mode, align = found
    options = {}
    if library == "burn":
        if backend_option:
            options["backend"] = backend_option
        if align is not None:
            options["align_corners"] = align
    try:
        ours, theirs = node_spec(node), preset(library, mode, **options)
    except (ValueError, TypeError):
        return None  # an attribute value or a mode the presets do not take: nothing to compare
    for n, m in SIZES:
        difference = weight_difference(ours, theirs, n, m)
        if difference > 1e-5:
            written = mode + (f" (align_corners={align})" if align is not None else "")
            return (f"{IMPORTERS[library]['name']} imports this {describe(node)} as {written}: the outputs differ, "
                    f"e.g. resizing {n} -> {m} (weights differ by up to {difference:.3g}). Export the node with the "
                    "attributes the importer keeps, or compare the imported model with ONNX Runtime.")
    return None


def describe(node: dict) -> str:
    """``Resize(nearest, half_pixel, round_prefer_floor)``: the attributes that decide what a node computes."""
    mode = node.get("mode", "nearest")
    parts = [mode, str(node.get("coordinate_transformation_mode") or NODE_DEFAULTS["coordinate_transformation_mode"])]
    if mode == "nearest":
        parts.append(str(node.get("nearest_mode") or NODE_DEFAULTS["nearest_mode"]))
    if mode == "cubic" and node.get("cubic_coeff_a") not in (None, -0.75):
        parts.append(f"cubic_coeff_a={node['cubic_coeff_a']}")
    if node.get("antialias"):
        parts.append("antialias=1")
    return f"Resize({', '.join(parts)})"

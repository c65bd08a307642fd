"""The probe's configuration matrix, as data: one case per ONNX ``Resize``/``Upsample`` node to run.

A case is a plain dict (JSON as it stands), so the child process that runs a runtime reads it without the
explorer: ``id``, ``kind`` (``"onnx"``: one node in a one-node model), ``group`` (the sweep it belongs to),
``op`` and ``opset`` (the model's default-domain opset; the operator version in force follows from it),
``mode``, ``attributes`` (the attributes set on the node, nothing else: defaults stay unset as exporters
leave them), ``input_shape``, ``dtype`` (the Resize input's element type), one of ``scales``/``sizes``, ``roi``
(for ``tf_crop_and_resize``), ``output_shape`` (what the explorer computes) and ``wrapped`` (bfloat16 only:
numpy has no bfloat16, so the model takes float32 and ``Cast``\\s to bfloat16 before the node and back after).

Pruning rule (:func:`cases`): a full product only where the attributes interact, one factor at a time around a
baseline elsewhere.

* ``attributes``: opset 13, float32, 2-D spatial (N=1, C=2), every ``mode`` x every
  ``coordinate_transformation_mode`` of Resize-13 x (nearest: every ``nearest_mode``; cubic: ``cubic_coeff_a``
  -0.75 and -0.5, ``exclude_outside`` 0 and 1 with -0.5) x four geometries (non-integer up and down by
  ``sizes``, non-integer up and down by ``scales``); ``tf_crop_and_resize`` with a roi inside the image.
  ``tf_half_pixel_for_nn`` (Resize-11 only) likewise at opset 11.
* ``v19``: ``half_pixel_symmetric`` (Resize-19) x mode x the four geometries.
* ``antialias`` (Resize-18): linear and cubic, ``exclude_outside`` 0/1, ``cubic_coeff_a`` -0.75/-0.5, under
  half_pixel, pytorch_half_pixel and align_corners, down by sizes and scales (and one up).
* ``aspect`` (Resize-18): ``keep_aspect_ratio_policy`` not_larger/not_smaller with and without ``axes``, and
  ``axes`` alone with scales and sizes.
* ``opsets``: the default attributes at every opset 10-23 x mode (cubic from 11), x2 by scales;
  ``Upsample`` at opsets 7 and 9, nearest and linear, up by 2 and by 1.5.
* ``dtypes``: float16, bfloat16, float64, int8, uint8, int32 x mode, up and down by sizes (opset 13; bfloat16 at
  opset 19).
* ``ranks``: 1-D and 3-D spatial, a rank-2 input (no batch or channels) and NHWC, each mode, up and down.
* ``edges``: output length 1 (per mode x transform), input length 1, identity (scales 1 and sizes equal), a
  large ratio (3 -> 17), exact halving.
* ``crop``: ``tf_crop_and_resize`` with a roi reaching outside the image, ``extrapolation_value`` 0 and 7.5.

The framework calls' groups (``torch``, ``torch-onnx`` ...: a case per call, not per node) are declared in
:mod:`explorer.probe.calls` and merged into :data:`GROUPS`; each adapter takes the cases of its ``KINDS``.

>>> table = [c for c in cases() if c["kind"] == "onnx"]
>>> len(table) == len({c["id"] for c in table}), 250 < len(table) < 600
(True, True)
>>> c = by_id(table)["attributes/Resize13/linear/align_corners/float32/up-sizes"]
>>> c["input_shape"], c["sizes"], c["output_shape"]
([1, 2, 5, 7], [1, 2, 8, 11], [1, 2, 8, 11])
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

from .calls import CALL_GROUPS

#: The Resize operator version in force at each default-domain opset
RESIZE_VERSION = {10: 10, 11: 11, 12: 11, 13: 13, 14: 13, 15: 13, 16: 13, 17: 13, 18: 18, 19: 19, 20: 19, 21: 19,
                  22: 19, 23: 19}
TRANSFORMS_13 = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")
CUBIC_VARIANTS = ({}, {"cubic_coeff_a": -0.5}, {"cubic_coeff_a": -0.5, "exclude_outside": 1})
#: roi (starts then ends, normalised) for tf_crop_and_resize on a rank-4 input
ROI_INSIDE = [0.0, 0.0, 0.1, 0.2, 1.0, 1.0, 0.8, 0.9]
ROI_OUTSIDE = [0.0, 0.0, -0.2, 0.1, 1.0, 1.0, 1.2, 1.3]

#: name -> (input shape, "sizes"|"scales", the values over every axis)
GEOMETRIES = {
    "up-sizes": ([1, 2, 5, 7], "sizes", [1, 2, 8, 11]),
    "down-sizes": ([1, 2, 9, 13], "sizes", [1, 2, 4, 6]),
    "up-scales": ([1, 2, 4, 5], "scales", [1.0, 1.0, 1.5, 2.5]),
    "down-scales": ([1, 2, 10, 9], "scales", [1.0, 1.0, 0.6, 0.7]),
    "x2-scales": ([1, 2, 4, 5], "scales", [1.0, 1.0, 2.0, 2.0]),
    "up1.5-scales": ([1, 2, 4, 6], "scales", [1.0, 1.0, 1.5, 1.5]),
}
FOUR = ("up-sizes", "down-sizes", "up-scales", "down-scales")
DTYPES = ("float32", "float16", "bfloat16", "float64", "int8", "uint8", "int32")
TRANSFORM_NAMES = {"half_pixel": "hp", "pytorch_half_pixel": "php", "align_corners": "ac", "asymmetric": "asym",
                   "tf_half_pixel_for_nn": "tfnn", "tf_crop_and_resize": "crop", "half_pixel_symmetric": "hps"}


def _short(attributes: dict) -> str:
    """The attributes set on a node as an id part: ``align_corners``, ``floor``, ``a-0.5+excl`` ..."""
    parts = []
    ctm = attributes.get("coordinate_transformation_mode")
    if ctm:
        parts.append(ctm)
    if "nearest_mode" in attributes:
        parts.append(attributes["nearest_mode"])
    if "cubic_coeff_a" in attributes:
        parts.append(f"a{attributes['cubic_coeff_a']:g}")
    if attributes.get("exclude_outside"):
        parts.append("excl")
    if attributes.get("antialias"):
        parts.append("aa")
    if "keep_aspect_ratio_policy" in attributes:
        parts.append(attributes["keep_aspect_ratio_policy"])
    if "axes" in attributes:
        parts.append("axes" + ",".join(str(a) for a in attributes["axes"]))
    if "extrapolation_value" in attributes:
        parts.append(f"ext{attributes['extrapolation_value']:g}")
    return "+".join(parts) or "default"


def _case(group, opset, mode, attributes, geometry, dtype="float32", op="Resize", roi=None, tag=""):
    shape, how, values = geometry if isinstance(geometry, tuple) else GEOMETRIES[geometry]
    name = tag or geometry
    version = RESIZE_VERSION.get(opset, opset) if op == "Resize" else opset
    attributes = dict(attributes)
    if (attributes.get("coordinate_transformation_mode") == "tf_crop_and_resize") and roi is None:
        roi = ROI_INSIDE if len(shape) == 4 else [0.0] * len(shape) + [1.0] * len(shape)
    axes = attributes.get("axes")
    if axes is not None:  # scales/sizes are given over the listed axes only
        values = [values[a] for a in axes]
    case = {"id": f"{group}/{op}{version}/{mode}/{_short(attributes)}/{dtype}/{name}", "kind": "onnx",
            "group": group, "op": op, "opset": opset, "mode": mode, "attributes": attributes,
            "input_shape": list(shape), "dtype": dtype, how: list(values), "roi": roi,
            "wrapped": dtype == "bfloat16"}
    case.setdefault("scales", None)
    case.setdefault("sizes", None)
    case["output_shape"] = expected_shape(case)
    return case


def expected_shape(case) -> list[int]:
    """The output shape by the spec's rules (sizes, or floor(scale * n) in float32, keep_aspect_ratio_policy)."""
    shape = case["input_shape"]
    rank = len(shape)
    axes = case["attributes"].get("axes", list(range(rank)))
    out = list(shape)
    if case["sizes"] is not None:
        policy = case["attributes"].get("keep_aspect_ratio_policy", "stretch")
        if policy == "stretch":
            for a, m in zip(axes, case["sizes"]):
                out[a] = m
            return out
        ratios = [np.float32(m) / np.float32(shape[a]) for a, m in zip(axes, case["sizes"])]
        scale = min(ratios) if policy == "not_larger" else max(ratios)
        for a in axes:
            out[a] = math.floor(float(np.float32(scale * np.float32(shape[a]))) + 0.5)
        return out
    for a, s in zip(axes, case["scales"]):
        out[a] = int(np.float32(s) * np.float32(shape[a]))
    return out


def _attributes_group():
    out = []
    for ctm in TRANSFORMS_13:
        base = {"coordinate_transformation_mode": ctm} if ctm != "half_pixel" else {}
        for geometry in FOUR:
            for rule in NEAREST_MODES:
                attributes = {**base, "nearest_mode": rule} if rule != "round_prefer_floor" else dict(base)
                out.append(_case("attributes", 13, "nearest", attributes, geometry))
            out.append(_case("attributes", 13, "linear", base, geometry))
            for variant in CUBIC_VARIANTS:
                out.append(_case("attributes", 13, "cubic", {**base, **variant}, geometry))
    for geometry in FOUR:
        base = {"coordinate_transformation_mode": "tf_half_pixel_for_nn"}
        for rule in NEAREST_MODES:
            out.append(_case("attributes", 11, "nearest", {**base, "nearest_mode": rule}, geometry))
        out.append(_case("attributes", 11, "linear", base, geometry))
        out.append(_case("attributes", 11, "cubic", base, geometry))
    return out


def _v19_group():
    base = {"coordinate_transformation_mode": "half_pixel_symmetric"}
    return [_case("v19", 19, mode, base, geometry) for mode in ("nearest", "linear", "cubic") for geometry in FOUR]


def _antialias_group():
    out = []
    variants = (("linear", {}), ("linear", {"exclude_outside": 1}), ("cubic", {}),
                ("cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}))
    for ctm in ("half_pixel", "pytorch_half_pixel", "align_corners"):
        base = {"antialias": 1} if ctm == "half_pixel" else {"coordinate_transformation_mode": ctm, "antialias": 1}
        for mode, variant in variants:
            for geometry in ("down-sizes", "down-scales", "up-sizes"):
                if geometry == "up-sizes" and ctm != "half_pixel":
                    continue
                out.append(_case("antialias", 18, mode, {**base, **variant}, geometry))
    return out


def _aspect_group():
    out = []
    box = ([1, 2, 6, 9], "sizes", [1, 2, 4, 4])
    for policy in ("not_larger", "not_smaller"):
        for mode in ("nearest", "linear"):
            out.append(_case("aspect", 18, mode, {"keep_aspect_ratio_policy": policy}, box, tag="6x9-in-4x4"))
            out.append(_case("aspect", 18, mode, {"keep_aspect_ratio_policy": policy, "axes": [2, 3]}, box,
                             tag="6x9-in-4x4"))
    for mode in ("nearest", "linear"):
        out.append(_case("aspect", 18, mode, {"axes": [2, 3]}, "up-scales"))
        out.append(_case("aspect", 18, mode, {"axes": [2, 3]}, "down-sizes"))
        out.append(_case("aspect", 18, mode, {"axes": [3]}, "up-sizes"))
    return out


def _opsets_group():
    out = []
    for opset in range(10, 24):
        for mode in ("nearest", "linear", "cubic"):
            if mode == "cubic" and opset == 10:
                continue
            out.append(_case("opsets", opset, mode, {}, "x2-scales", tag=f"x2-scales-opset{opset}"))
    for opset in (7, 9):
        for mode in ("nearest", "linear"):
            for geometry in ("x2-scales", "up1.5-scales"):
                out.append(_case("opsets", opset, mode, {}, geometry, op="Upsample"))
    return out


def _dtypes_group():
    out = []
    for dtype in DTYPES:
        if dtype == "float32":
            continue
        opset = 19 if dtype == "bfloat16" else 13
        for mode in ("nearest", "linear", "cubic"):
            for geometry in ("up-sizes", "down-sizes"):
                out.append(_case("dtypes", opset, mode, {}, geometry, dtype=dtype))
    return out


def _ranks_group():
    shapes = {
        "1d": (([1, 2, 7], "sizes", [1, 2, 11]), ([1, 2, 13], "sizes", [1, 2, 5])),
        "3d": (([1, 1, 4, 5, 6], "sizes", [1, 1, 6, 7, 9]), ([1, 1, 7, 8, 9], "sizes", [1, 1, 3, 4, 5])),
        "rank2": (([5, 7], "sizes", [8, 11]), ([9, 13], "sizes", [4, 6])),
        "nhwc": (([1, 5, 7, 3], "sizes", [1, 8, 11, 3]), ([1, 9, 13, 3], "sizes", [1, 4, 6, 3])),
    }
    out = []
    for name, (up, down) in shapes.items():
        for mode in ("nearest", "linear", "cubic"):
            out.append(_case("ranks", 13, mode, {}, up, tag=f"{name}-up"))
            out.append(_case("ranks", 13, mode, {}, down, tag=f"{name}-down"))
    return out


def _edges_group():
    out = []
    to_one = ([1, 2, 7, 6], "sizes", [1, 2, 1, 1])
    from_one = ([1, 2, 1, 1], "sizes", [1, 2, 5, 4])
    for mode in ("nearest", "linear", "cubic"):
        for ctm in ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric"):
            base = {"coordinate_transformation_mode": ctm} if ctm != "half_pixel" else {}
            out.append(_case("edges", 13, mode, base, to_one, tag="7x6-to-1x1"))
        for ctm in ("half_pixel", "align_corners"):
            base = {"coordinate_transformation_mode": ctm} if ctm != "half_pixel" else {}
            out.append(_case("edges", 13, mode, base, from_one, tag="1x1-to-5x4"))
        out.append(_case("edges", 13, mode, {}, ([1, 2, 5, 7], "scales", [1.0, 1.0, 1.0, 1.0]),
                         tag="identity-scales"))
        out.append(_case("edges", 13, mode, {}, ([1, 2, 5, 7], "sizes", [1, 2, 5, 7]), tag="identity-sizes"))
        out.append(_case("edges", 13, mode, {}, ([1, 1, 3, 3], "sizes", [1, 1, 17, 17]), tag="3-to-17"))
        out.append(_case("edges", 13, mode, {}, ([1, 2, 8, 10], "scales", [1.0, 1.0, 0.5, 0.5]), tag="half"))
    return out


def _crop_group():
    out = []
    for mode in ("nearest", "linear", "cubic"):
        for value in (0.0, 7.5):
            attributes = {"coordinate_transformation_mode": "tf_crop_and_resize"}
            if value:
                attributes["extrapolation_value"] = value
            out.append(_case("crop", 13, mode, attributes, "up-sizes", roi=ROI_OUTSIDE, tag="roi-outside"))
    return out


GROUPS = {"attributes": _attributes_group, "v19": _v19_group, "antialias": _antialias_group,
          "aspect": _aspect_group, "opsets": _opsets_group, "dtypes": _dtypes_group, "ranks": _ranks_group,
          "edges": _edges_group, "crop": _crop_group}
GROUPS.update(CALL_GROUPS)  # the framework calls (explorer.probe.calls), run by their own adapters


def cases(subset=None) -> list[dict]:
    """Every case, or those of ``subset``: group names and/or id prefixes (``"attributes"``,
    ``"dtypes/Resize13/linear"``)."""
    out = [case for make in GROUPS.values() for case in make()]
    if subset:
        wanted = [subset] if isinstance(subset, str) else list(subset)
        unknown = [w for w in wanted if w not in GROUPS and not any(c["id"].startswith(w) for c in out)]
        if unknown:
            raise ValueError(f"cases={unknown} match no case; choose groups from {sorted(GROUPS)} or id prefixes")
        out = [c for c in out if c["group"] in wanted or any(c["id"].startswith(w) for w in wanted)]
    return out


def by_id(table) -> dict:
    return {c["id"]: c for c in table}


def case_seed(case_id: str) -> int:
    return int.from_bytes(hashlib.sha256(case_id.encode()).digest()[:4], "little")


def make_input(case) -> np.ndarray:
    """The case's input: uniform in [0, 1) for float types (rounded to the type), the whole range for
    integers; seeded by the case id.  bfloat16 cases get float32 values that bfloat16 holds exactly."""
    rng = np.random.default_rng(case_seed(case["id"]))
    shape = case["input_shape"]
    dtype = case["dtype"]
    if dtype in ("int8", "uint8", "int32"):
        info = np.iinfo(dtype)
        low, high = (info.min, info.max) if dtype != "int32" else (-1000, 1000)
        return rng.integers(low, high, size=shape, endpoint=True).astype(dtype)
    x = rng.random(shape, dtype=np.float64)
    if dtype == "bfloat16":  # keep the top 8 mantissa bits of the float32
        bits = x.astype(np.float32).view(np.uint32) & np.uint32(0xFFFF0000)
        return bits.view(np.float32)
    return x.astype(dtype)


# ------------------------------------------------------------------------------------------------ models
def build_model(case) -> bytes:
    """The case's one-node ONNX model, serialised (needs the onnx package: the parent builds every model)."""
    from onnx import TensorProto, helper, numpy_helper

    element = {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16, "float64": TensorProto.DOUBLE,
               "bfloat16": TensorProto.BFLOAT16, "int8": TensorProto.INT8, "uint8": TensorProto.UINT8,
               "int32": TensorProto.INT32}[case["dtype"]]
    outer = TensorProto.FLOAT if case["wrapped"] else element
    opset, op = case["opset"], case["op"]
    initializers, nodes = [], []
    x_name = "X"
    if case["wrapped"]:
        nodes.append(helper.make_node("Cast", ["X"], ["X_cast"], to=element))
        x_name = "X_cast"
    attributes = dict(case["attributes"])
    if op == "Upsample":
        attributes["mode"] = case["mode"]
        if opset < 9:
            attributes["scales"] = [float(s) for s in case["scales"]]
            inputs = [x_name]
        else:
            initializers.append(numpy_helper.from_array(np.asarray(case["scales"], np.float32), "scales"))
            inputs = [x_name, "scales"]
    else:
        attributes["mode"] = case["mode"]
        version = RESIZE_VERSION[opset]
        scales = None if case["scales"] is None else np.asarray(case["scales"], np.float32)
        sizes = None if case["sizes"] is None else np.asarray(case["sizes"], np.int64)
        if version == 10:
            initializers.append(numpy_helper.from_array(scales, "scales"))
            inputs = [x_name, "scales"]
        else:
            roi_name = scales_name = ""
            if case["roi"] is not None:
                initializers.append(numpy_helper.from_array(np.asarray(case["roi"], np.float32), "roi"))
                roi_name = "roi"
            elif version == 11:  # Resize-11: roi and scales are required inputs (empty tensors when unused)
                initializers.append(numpy_helper.from_array(np.zeros(0, np.float32), "roi"))
                roi_name = "roi"
            if scales is not None:
                initializers.append(numpy_helper.from_array(scales, "scales"))
                scales_name = "scales"
            elif version == 11:
                initializers.append(numpy_helper.from_array(np.zeros(0, np.float32), "scales"))
                scales_name = "scales"
            inputs = [x_name, roi_name, scales_name]
            if sizes is not None:
                initializers.append(numpy_helper.from_array(sizes, "sizes"))
                inputs.append("sizes")
    y_name = "Y_inner" if case["wrapped"] else "Y"
    nodes.append(helper.make_node(op, inputs, [y_name], name="resize", **attributes))
    if case["wrapped"]:
        nodes.append(helper.make_node("Cast", ["Y_inner"], ["Y"], to=TensorProto.FLOAT))
    x_info = helper.make_tensor_value_info("X", outer, case["input_shape"])
    # the output rank only, as symbolic dims: what the runtime computes decides the lengths
    y_info = helper.make_tensor_value_info("Y", outer, [f"y{a}" for a in range(len(case["input_shape"]))])
    graph = helper.make_graph(nodes, "probe", [x_info], [y_info], initializer=initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="interpolation-explorer probe")
    # the oldest IR version that carries the opset: older runtimes reject an IR newer than they know
    model.ir_version = helper.find_min_ir_version_for(list(model.opset_import))
    return model.SerializeToString()

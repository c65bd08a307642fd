"""The explorer's computation of a case, and a runtime's output measured against it.

:func:`reference` runs the case's node through :func:`explorer.run_resize_node` (the ``onnx`` preset: ONNX
Runtime's CPU arithmetic), on the input as the node sees it; a framework call case
(:mod:`explorer.probe.calls`) through :func:`explorer.library_resize` with the case's library, mode and options
(and its gradient through ``library_resize_backward``: :func:`reference_gradient`).  Integer inputs in linear and cubic modes, which
the preset does not model, are computed in float32 and marked ``"float32 of the integer input"``; a runtime's
rounding then shows as a difference of at most one step.

:func:`compare` gives a cell's numbers: ``verdict`` (``exact``: equal in the output's own type; ``close``:
within :data:`TOLERANCE` of the dtype; ``differs``; ``shape``: another output shape; ``no-reference``: the
explorer rejects the case, with its error), ``max_abs_diff``, the output's shape and hash, and ``equals``: the
library conventions (a row of :func:`explorer.presets` of PyTorch, TensorFlow, JAX, ONNX, OpenCV and Pillow)
whose output on the same input and output lengths is within float32 rounding (``EQUALS_ATOL``) of the
runtime's, for float32 cells.

>>> from explorer.probe.cases import cases, make_input
>>> case = next(c for c in cases("edges") if c["id"].endswith("identity-sizes") and c["mode"] == "linear")
>>> x = make_input(case)
>>> fields = compare(case, x, x.copy(), equals=False)
>>> fields["verdict"], fields["max_abs_diff"]
('exact', 0.0)
"""

from __future__ import annotations

import hashlib
import math

import numpy as np

#: a float output within this of the explorer's (inputs lie in [0, 1)) is "close": float rounding (float64
#: too is held to float32 rounding: the onnx preset computes ONNX Runtime's float32 coordinates and weights)
TOLERANCE = {"float32": 1e-5, "float64": 1e-6, "float16": 2e-3, "bfloat16": 1.6e-2,
             "int8": 1.0, "uint8": 1.0, "int32": 1.0}
EQUALS_ATOL = 1e-5
EQUALS_LIBRARIES = ("torch", "tensorflow", "jax", "onnx", "opencv", "pillow")

_reference_cache: dict = {}
_preset_cache: dict = {}




def call_arguments(case) -> dict:
    """The keywords of :func:`explorer.library_resize` for a call case (:mod:`explorer.probe.calls`)."""
    return {"size": case["size"], "scale_factor": case["scale_factor"], "library": case["library"],
            "mode": case["mode"], "axes": tuple(case["axes"]), **case["options"]}


def _call_reference(case, x):
    """A call case through :func:`explorer.library_resize` (bfloat16: computed in float32, the input being
    float32 values bfloat16 holds exactly)."""
    from ..conventions import library_resize

    note = ""
    if case["dtype"] == "bfloat16":
        note = "float32 of the bfloat16 input"
    try:
        y = library_resize(x, **call_arguments(case))
    except Exception as exc:  # noqa: BLE001 - the explorer rejects the call: recorded, not raised
        return None, f"{type(exc).__name__}: {exc}"
    return y, note


def reference_gradient(case, x, g):
    """``(array or None, note)``: the explorer's gradient of ``sum(Y * G)`` for a call case."""
    from ..conventions import library_resize_backward

    try:
        return library_resize_backward(np.asarray(g, np.float64 if x.dtype == np.float64 else np.float32),
                                       tuple(x.shape), **call_arguments(case)), ""
    except Exception as exc:  # noqa: BLE001 - no gradient for the mode, or another rejection: recorded
        return None, f"{type(exc).__name__}: {exc}"


def reference(case, x, model: bytes | None = None):
    """``(array or None, note)``: what the explorer computes for the case (cached by case id)."""
    key = case["id"]
    if key in _reference_cache:
        return _reference_cache[key]
    if case.get("kind", "onnx") != "onnx":
        _reference_cache[key] = _call_reference(case, x)
        return _reference_cache[key]
    from ..advisor.node_calls import run_resize_node
    from .cases import build_model

    model = model if model is not None else build_model(case)
    note = ""
    try:
        y = run_resize_node(model, x)
    except TypeError as exc:  # integer input in a mode the preset does not model
        if x.dtype.kind not in "iu":
            result = (None, f"{type(exc).__name__}: {exc}")
            _reference_cache[key] = result
            return result
        y = run_resize_node(model, x.astype(np.float32))
        note = "float32 of the integer input"
    except Exception as exc:  # noqa: BLE001 - the explorer rejects the case: recorded, not raised
        result = (None, f"{type(exc).__name__}: {exc}")
        _reference_cache[key] = result
        return result
    result = (y, note)
    _reference_cache[key] = result
    return result


def output_hash(y) -> str:
    y = np.ascontiguousarray(y)
    return hashlib.sha256(str(y.dtype).encode() + str(y.shape).encode() + y.tobytes()).hexdigest()[:16]


def compare(case, x, y, model: bytes | None = None, equals: bool = True) -> dict:
    """The numbers of one cell whose runtime returned ``y`` (see the module's docstring)."""
    y = np.asarray(y)
    fields = {"output_shape": list(y.shape), "output_dtype": str(y.dtype), "sha": output_hash(y)}
    ref, note = reference(case, x, model)
    if note:
        fields["reference"] = note
    if ref is None:
        fields.update(verdict="no-reference", reference=note)
        return fields
    if tuple(ref.shape) != tuple(y.shape):
        fields.update(verdict="shape", expected_shape=list(ref.shape))
    else:
        # a runtime's output is data, not arithmetic of ours: memory it never wrote can hold signalling NaNs
        # (OpenVINO's cubic resize of an NHWC input), whose casts raise a floating-point warning
        with np.errstate(all="ignore"):
            fields.update(_differences(case, y, ref, note))
    if equals and case["dtype"] == "float32" and y.dtype == np.float32 and y.size:
        fields["equals"] = equal_conventions(case, x, y)
    return fields


def compare_gradient(case, x, g, grad) -> dict:
    """``gradient_verdict`` (exact/close/differs/shape/no-reference) and ``gradient_max_abs_diff`` of a
    runtime's gradient against the explorer's (:func:`reference_gradient`), for call cases."""
    ref, note = reference_gradient(case, x, g)
    grad = np.asarray(grad)
    if ref is None:
        return {"gradient_verdict": "no-reference", "gradient_reference": note}
    if tuple(ref.shape) != tuple(grad.shape):
        return {"gradient_verdict": "shape"}
    with np.errstate(all="ignore"):
        fields = _differences(case, grad, ref, "")
        # a gradient sums several G (standard normal) per input sample: rounding scales with its magnitude
        scale = max(1.0, float(np.nanmax(np.abs(ref))) if ref.size else 1.0)
    diff = fields.get("max_abs_diff")
    if fields["verdict"] == "differs" and isinstance(diff, float) and diff <= TOLERANCE.get(case["dtype"], 1e-5) * scale:
        fields["verdict"] = "close"
        fields.pop("differing", None)
    return {"gradient_" + k: v for k, v in fields.items()}


def _differences(case, y, ref, note) -> dict:
    """max_abs_diff and verdict of an output ``y`` against the explorer's ``ref`` of the same shape."""
    fields = {}
    a = y.astype(np.float64)
    b = ref.astype(np.float64)
    if a.size == 0:
        diff = 0.0
    else:
        both_nan = np.isnan(a) & np.isnan(b)
        d = np.where(both_nan, 0.0, np.abs(a - b))
        diff = float(np.nanmax(np.where(np.isnan(d), np.inf, d)))
    fields["max_abs_diff"] = diff if math.isfinite(diff) else "inf"
    exact_ref = ref.astype(y.dtype) if (y.dtype.kind == "f" or not note) else np.rint(b)
    if diff == 0.0 or (y.size and np.array_equal(a, exact_ref.astype(np.float64))):
        fields["verdict"] = "exact"
    elif diff <= TOLERANCE.get(case["dtype"], 1e-5):
        fields["verdict"] = "close"
    else:
        fields["verdict"] = "differs"
        fields["differing"] = int(np.count_nonzero(np.abs(a - b) > TOLERANCE.get(case["dtype"], 1e-5)))
    return fields


def _resized_axes(case, out_shape) -> tuple:
    shape = case["input_shape"]
    changed = tuple(a for a, (n, m) in enumerate(zip(shape, out_shape)) if n != m)
    if not changed:
        return ()
    if len(shape) >= 3 and all(a >= 2 for a in changed):
        return tuple(range(2, len(shape)))
    return changed


def _label(row) -> str:
    options = ", ".join(f"{k}={v}" for k, v in row.options.items())
    return f"{row.library}:{row.mode}" + (f"({options})" if options else "")


def preset_outputs(case, x, out_shape) -> list:
    """``[(label, output)]`` of every listed preset of :data:`EQUALS_LIBRARIES` resizing ``x`` to ``out_shape``
    (presets that reject the problem are left out); cached by case and output shape."""
    key = (case["id"], tuple(out_shape))
    if key in _preset_cache:
        return _preset_cache[key]
    from ..conventions import library_resize, presets

    axes = _resized_axes(case, out_shape)
    out = []
    if axes and all(out_shape[a] > 0 for a in axes):
        size = tuple(out_shape[a] for a in axes)
        x32 = x.astype(np.float32)
        for library in EQUALS_LIBRARIES:
            for row in presets(library):
                try:
                    y = library_resize(x32, size, library=row.library, mode=row.mode, axes=axes, **row.options)
                except Exception:  # noqa: BLE001 - a preset that does not take this problem (rank, axes)
                    continue
                if tuple(y.shape) == tuple(out_shape):
                    out.append((_label(row), y.astype(np.float32)))
    _preset_cache[key] = out
    return out


def equal_conventions(case, x, y) -> list[str]:
    """Labels of the presets whose output is within :data:`EQUALS_ATOL` of ``y``."""
    y64 = y.astype(np.float64)
    found = []
    for label, out in preset_outputs(case, x, tuple(y.shape)):
        with np.errstate(invalid="ignore"):
            if np.allclose(out.astype(np.float64), y64, rtol=0, atol=EQUALS_ATOL, equal_nan=True):
                found.append(label)
    return found

"""The CI subset: each runtime that CI installs runs the committed cells of its installed release again, in a
child with this python, and any change of outcome or of difference from the explorer fails (a runtime that
changes behaviour must be measured again, not pass silently).

A release of a runtime that the matrix has no file for fails too, naming the command that measures it.

The ONNX runtimes run every committed cell.  The framework runtimes run a representative subset (``SUBSET``),
chosen to keep this module within about three minutes on a busy two-core machine (a full run of each takes
from 12 s, PyTorch eager, to about 100 s, JAX, which compiles every call): PyTorch eager every mode and option
up by a size in float32 with its gradient, and in float16 and bfloat16 (where the antialiased kernels fail); torch.export every 2-D call up by a size; torch.onnx the TorchScript exporter at opsets 9, 11, 13 and 18 and the dynamo exporter
at 18, down by a size; TensorFlow every method up by a size in float32 with its gradient, and the float64
antialiased gradients that fail; JAX every method up by a size in float32; Keras (installed with TensorFlow)
``ops.image.resize`` on each backend up by a size, and the interpolations a backend rejects; LiteRT every cell
up by a size; MLX every cell (49, 2 s); coremltools (conversion only: prediction needs macOS) every cell.  The full matrix is ``python -m explorer.probe``.
"""

import importlib.metadata
import math
import os
import sys

import numpy as np
import pytest

from explorer.probe import matrix
from explorer.probe.compare import compare, compare_gradient
from explorer.probe.harness import RUNTIMES_DIR, prepare_cases
from explorer.probe.cases import make_input
from explorer.probe.runner import run_cells

pytestmark = pytest.mark.oracle

# adapter name -> (module to import, distribution whose version names the release)
CI_RUNTIMES = {"onnxruntime": ("onnxruntime", "onnxruntime"), "openvino": ("openvino", "openvino"),
               "torch": ("torch", "torch"), "torch-onnx": ("torch", "torch"), "torch-export": ("torch", "torch"),
               "tensorflow": ("tensorflow", "tensorflow-cpu"), "jax": ("jax", "jax"),
               "keras-tensorflow": ("keras", "keras"), "keras-jax": ("keras", "keras"),
               "keras-torch": ("keras", "keras"), "litert": ("ai_edge_litert", "ai-edge-litert"),
               "mlx": ("mlx", "mlx"), "coremltools": ("coremltools", "coremltools")}
# adapter name -> the committed cells it runs here (all when not listed): see the module's docstring
SUBSET = {
    "torch": lambda cid: ("/float32/up-size" in cid or cid.endswith("/float16/up-size")
                          or cid.endswith("/bfloat16/up-size")),
    "torch-export": lambda cid: cid.endswith("/float32/up-size"),
    "torch-onnx": lambda cid: cid.endswith("/down-size") and cid.split("/")[2] in ("opset9", "opset11", "opset13",
                                                                                   "opset18"),
    "tensorflow": lambda cid: cid.endswith("/float32/up-size") or ("/aa/float64/up-size" in cid),
    "jax": lambda cid: cid.startswith("jax/") and not cid.startswith("jax/scale_and_translate")
    and cid.endswith("/float32/up-size"),
    "keras-tensorflow": lambda cid: "/ops.image.resize/" in cid and cid.endswith("/float32/up-size"),
    "keras-jax": lambda cid: "/ops.image.resize/" in cid and cid.endswith("/float32/up-size"),
    "keras-torch": lambda cid: "/ops.image.resize/" in cid and cid.endswith("/float32/up-size"),
    "litert": lambda cid: cid.endswith("/up-size"),
}
AGREES = {"exact", "close"}
DIFF_ATOL = 2e-6


def _label(outcome):
    if outcome.get("status") != "ok":
        return outcome.get("status")
    verdict = outcome.get("verdict")
    return "agrees" if verdict in AGREES else verdict


def _changes(committed, outcome, fields):
    """What differs between a committed cell and the same cell measured now (empty: the same behaviour)."""
    now = dict(outcome, **fields)
    out = []
    for key in ("status", "stage", "error_type"):
        if committed.get(key) != now.get(key):
            out.append(f"{key}: {committed.get(key)!r} -> {now.get(key)!r}")
    if committed.get("status") == "error" and committed.get("error") != now.get("error"):
        out.append(f"error: {committed.get('error')!r} -> {now.get('error')!r}")
    if committed.get("output_shape") != now.get("output_shape"):
        out.append(f"output_shape: {committed.get('output_shape')} -> {now.get('output_shape')}")
    if committed.get("unstable"):
        # measured twice in one process with two outputs (OpenVINO's cubic resize of axes 1-2 of an NHWC input
        # reads memory it never wrote: 1.0095 off in a fresh process, 1e36, inf or signalling NaNs after other
        # models ran, and the right numbers when the memory happens to hold them): its outcome and shape are
        # held, its verdict and numbers cannot be
        return out
    if committed.get("gradient_verdict") in AGREES or now.get("gradient_verdict") in AGREES:
        if (committed.get("gradient_verdict") in AGREES) != (now.get("gradient_verdict") in AGREES):
            out.append(f"gradient: {committed.get('gradient_verdict')!r} -> {now.get('gradient_verdict')!r}")
    elif committed.get("gradient_verdict") != now.get("gradient_verdict"):
        out.append(f"gradient: {committed.get('gradient_verdict')!r} -> {now.get('gradient_verdict')!r}")
    error_of = [(c.get("gradient_error") or {}).get("error") for c in (committed, now)]
    if error_of[0] != error_of[1]:
        out.append(f"gradient error: {error_of[0]!r} -> {error_of[1]!r}")
    if _label(committed) != _label(now):
        out.append(f"verdict: {committed.get('verdict')!r} -> {now.get('verdict')!r}")
    a, b = committed.get("max_abs_diff"), now.get("max_abs_diff")
    if isinstance(a, float) and isinstance(b, float):
        if not (math.isfinite(a) and math.isfinite(b)) or abs(a - b) > DIFF_ATOL:
            out.append(f"max_abs_diff: {a:.3g} -> {b:.3g}")
    elif a != b:
        out.append(f"max_abs_diff: {a!r} -> {b!r}")
    return out


@pytest.mark.parametrize("runtime", sorted(CI_RUNTIMES))
def test_the_installed_release_behaves_as_committed(runtime, tmp_path):
    module, distribution = CI_RUNTIMES[runtime]
    pytest.importorskip(module)
    installed = importlib.metadata.version(distribution).split("+")[0]  # torch's "+cpu" names no other release
    data = matrix.load()
    assert (runtime, installed) in data.releases, (
        f"{runtime} {installed} is installed but the matrix has no file for it: measure it with "
        f"`python -m explorer.probe --runtime {runtime} --python {sys.executable}` and commit the file")
    committed = {c.case["id"]: c for c in data.query(runtime=runtime, release=installed)
                 if SUBSET.get(runtime, lambda cid: True)(c.case["id"])}
    assert committed, f"the matrix file of {runtime} {installed} has no cells (in this test's subset)"
    table = [c.case for c in committed.values()]
    prepared = prepare_cases(table, str(tmp_path / "shared"))
    result = run_cells(str(RUNTIMES_DIR / f"{runtime.replace('-', '_')}.py"), sys.executable, prepared,
                       str(tmp_path / "run"), all_packages=False)
    changed = []
    for case in prepared:
        outcome = result.outcomes.get(case["id"], {"status": "missing"})
        for key in ("error", "message"):
            if isinstance(outcome.get(key), str):
                outcome[key] = outcome[key].replace(str(tmp_path / "shared"), "<cases>").replace(
                    str(tmp_path / "run"), "<work>").replace(sys.prefix, "<venv>")
        output = result.outputs.get(case["id"])
        fields = compare(case, make_input(case), output, equals=False) \
            if output is not None and outcome.get("status") == "ok" else {}
        gradient = result.gradients.get(case["id"])
        if fields and gradient is not None and case["kind"] != "onnx":
            fields.update(compare_gradient(case, make_input(case), np.load(case["input_path"])["G"], gradient))
        for change in _changes(committed[case["id"]].outcome, outcome, fields):
            changed.append(f"{case['id']}: {change}")
    assert not changed, (f"{len(changed)} cell(s) of {runtime} {installed} changed from the committed matrix "
                         f"(measure again with `python -m explorer.probe --runtime {runtime} --python "
                         f"{sys.executable}`):\n" + "\n".join(changed[:40]))


def test_a_changed_cell_is_noticed():
    """The comparison above is not vacuous: a changed error, verdict or difference is reported."""
    committed = {"status": "ok", "stage": "run", "verdict": "exact", "max_abs_diff": 0.0, "output_shape": [1, 2]}
    assert _changes(committed, {"status": "ok", "stage": "run"},
                    {"verdict": "exact", "max_abs_diff": 0.0, "output_shape": [1, 2]}) == []
    assert _changes(committed, {"status": "ok", "stage": "run"},
                    {"verdict": "differs", "max_abs_diff": 0.25, "output_shape": [1, 2]})
    failed = {"status": "error", "stage": "load", "error_type": "Fail", "error": "old text"}
    assert _changes(failed, dict(failed, error="new text"), {})
    assert _changes(failed, {"status": "ok", "stage": "run"}, {"verdict": "exact", "max_abs_diff": 0.0})
    trained = dict(committed, stage="gradient", gradient_verdict="close")
    assert _changes(trained, {"status": "ok", "stage": "gradient"},
                    {"verdict": "exact", "max_abs_diff": 0.0, "output_shape": [1, 2], "gradient_verdict": "exact"}) == []
    assert _changes(trained, {"status": "ok", "stage": "gradient"},
                    {"verdict": "exact", "max_abs_diff": 0.0, "output_shape": [1, 2], "gradient_verdict": "differs"})
    assert _changes(trained, {"status": "ok", "stage": "gradient", "gradient_error": {"error": "no gradient"}},
                    {"verdict": "exact", "max_abs_diff": 0.0, "output_shape": [1, 2]})
    unstable = dict(committed, unstable=True)
    assert _changes(unstable, {"status": "ok", "stage": "run"},
                    {"verdict": "exact", "max_abs_diff": 0.5, "output_shape": [1, 2]}) == []
    assert _changes(unstable, {"status": "error", "stage": "run", "error_type": "Fail", "error": "x"}, {})
    assert os.path.isdir(RUNTIMES_DIR)

"""The CI subset: each runtime that CI installs runs the committed cells of its installed release again, in a
child with this python, and any change of outcome or of difference from the explorer fails (a runtime that
changes behaviour must be measured again, not pass silently).

A release of a runtime that the matrix has no file for fails too, naming the command that measures it.
"""

import importlib.metadata
import math
import os
import sys

import pytest

from explorer.probe import matrix
from explorer.probe.compare import compare
from explorer.probe.harness import RUNTIMES_DIR, prepare_cases
from explorer.probe.cases import make_input
from explorer.probe.runner import run_cells

pytestmark = pytest.mark.oracle

# adapter name -> (module to import, distribution whose version names the release)
CI_RUNTIMES = {"onnxruntime": ("onnxruntime", "onnxruntime"), "openvino": ("openvino", "openvino")}
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
    installed = importlib.metadata.version(distribution)
    data = matrix.load()
    assert (runtime, installed) in data.releases, (
        f"{runtime} {installed} is installed but the matrix has no file for it: measure it with "
        f"`python -m explorer.probe --runtime {runtime} --python {sys.executable}` and commit the file")
    committed = {c.case["id"]: c for c in data.query(runtime=runtime, release=installed)}
    assert committed, f"the matrix file of {runtime} {installed} has no cells"
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
                    str(tmp_path / "run"), "<work>")
        output = result.outputs.get(case["id"])
        fields = compare(case, make_input(case), output, equals=False) \
            if output is not None and outcome.get("status") == "ok" else {}
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
    unstable = dict(committed, unstable=True)
    assert _changes(unstable, {"status": "ok", "stage": "run"},
                    {"verdict": "exact", "max_abs_diff": 0.5, "output_shape": [1, 2]}) == []
    assert _changes(unstable, {"status": "error", "stage": "run", "error_type": "Fail", "error": "x"}, {})
    assert os.path.isdir(RUNTIMES_DIR)

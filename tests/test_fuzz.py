"""Random valid and invalid arguments through the public entry points and the command line, under a memory
limit, with hostile models, source trees, image files and links among them (tests/fuzz_inputs.py): every call
returns or raises a clear error, none runs out of memory, none shows what its input must not reach (see
tests/fuzz_calls.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASES = 800
BUDGET_MIB = 1024  # address space the calls may add to what the process maps after its imports


def test_random_calls_end_in_a_result_or_a_clear_error_within_the_memory_limit():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]),
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    # numpy's RuntimeWarnings (overflow, division by zero) are errors: a call must not print one on its way to a
    # result or a clear error
    proc = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", os.path.join(HERE, "fuzz_calls.py"),
                           "20260601", str(CASES), str(BUDGET_MIB)], capture_output=True, text=True, env=env,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    failures = report["failures"]
    lines = [f"{f['call']} (replay: python tests/fuzz_calls.py replay {f['call'].split()[0]} {f['seed']}): "
             f"{f['problem']}\n{f['detail']}" for f in failures[:5]]
    assert not failures, f"{len(failures)} call(s) ended badly:\n" + "\n\n".join(lines)
    counts = report["counts"]
    # the draw must exercise both sides: results (some large enough to meet the limit) and clear errors
    assert counts["result"] >= CASES // 5 and counts["error"] >= CASES // 5, counts
    assert counts["cli"] >= CASES // 12, counts
    assert counts["hostile"] >= CASES // 4, counts  # scan, lint, read_image and the app on hostile inputs
    assert counts["too_large"] >= 5, counts  # calls that met the limit, refused before allocating
    assert report["peak_rss"] <= report["limit"], report

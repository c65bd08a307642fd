"""Time and peak memory of ``lint`` and ``scan`` on inputs built to make their work grow faster than the input.

    python benchmarks/untrusted_inputs.py [CASE ...] [--scale 1.0] [--timeout 300]
    PYTHONPATH=OTHER_TREE python benchmarks/untrusted_inputs.py   # the same cases on another checkout

Each case writes its input to a temporary directory and runs ``python -m explorer lint|scan`` on it in a fresh
process (wall time, CPU time of the child, its peak resident set, its exit status; a case still running after
``--timeout`` seconds is stopped and reported as such).  ``--scale`` multiplies every case's size; run at 0.5
and 1.0 to see how the time grows (linear work doubles, quadratic work quadruples).

Cases:

* ``rust-templates``: 1,000 ``quote! { ... }`` templates in 2 MB of Rust (each template once copied the file);
* ``rust-nested-quote``: a ``quote!`` inside a ``quote!`` (the lexer once failed with KeyError);
* ``python-statements``: 600,000 module statements and one resize call (a queue popped from its front);
* ``python-calls``: 12,000 interpolate calls in 468 KB (each call located from the module's root);
* ``python-long-line``: 12,000 calls on one line (column and snippet computed from the line's start each time);
* ``onnx-nodes-alike``: 2,000 Resize nodes with the same facts (analysed once);
* ``onnx-nodes-distinct``: 2,000 Resize nodes with different sizes (stopped by the node and time budgets).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rust_templates(d: Path, scale: float) -> list[str]:
    n = int(1000 * scale)
    body = "x" * 1900
    parts = ["use burn::tensor::ops::InterpolateOptions;\n"]
    for k in range(n):
        parts.append(f"fn t{k}() {{ let _ = quote! {{ let a = {body}; }}; }}\n")
    parts.append("fn up() { let o = InterpolateOptions::new(InterpolateMode::NearestExact); }\n")
    (d / "gen.rs").write_text("".join(parts))
    return ["lint", str(d), "--backend", "burn-tch"]


def rust_nested_quote(d: Path, scale: float) -> list[str]:
    (d / "m.rs").write_text("fn f() { quote! { let a = quote! { b }; }; }\n"
                            "fn up() { let o = InterpolateOptions::new(InterpolateMode::NearestExact); }\n")
    return ["lint", str(d), "--backend", "burn-tch"]


def python_statements(d: Path, scale: float) -> list[str]:
    n = int(600_000 * scale)
    text = "import torch.nn.functional as F\n" + "x = 1\n" * n + "y = F.interpolate(x, scale_factor=2)\n"
    (d / "big.py").write_text(text)
    return ["lint", str(d), "--backend", "burn-tch"]


def python_calls(d: Path, scale: float) -> list[str]:
    n = int(12_000 * scale)
    lines = ["import torch.nn.functional as F"] + [f"y{k} = F.interpolate(x, scale_factor=2)" for k in range(n)]
    (d / "calls.py").write_text("\n".join(lines) + "\n")
    return ["lint", str(d), "--backend", "burn-tch"]


def python_long_line(d: Path, scale: float) -> list[str]:
    n = int(12_000 * scale)
    line = "y = [" + ", ".join("F.interpolate(x, scale_factor=2)" for _ in range(n)) + "]"
    (d / "line.py").write_text("import torch.nn.functional as F\n" + line + "\n")
    return ["lint", str(d), "--backend", "burn-tch"]


def _onnx_model(d: Path, n: int, distinct: bool) -> list[str]:
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 64, 64])
    nodes, inits, outs = [], [], []
    for k in range(n):
        side = 32 + (k % 2000) if distinct else 32
        inits.append(helper.make_tensor(f"s{k}", TensorProto.INT64, [4], [1, 3, side, side + 1]))
        nodes.append(helper.make_node("Resize", ["x", "", "", f"s{k}"], [f"y{k}"], name=f"r{k}", mode="linear"))
        outs.append(helper.make_tensor_value_info(f"y{k}", TensorProto.FLOAT, None))
    model = helper.make_model(helper.make_graph(nodes, "g", [x], outs, initializer=inits),
                              opset_imports=[helper.make_opsetid("", 19)])
    path = d / "model.onnx"
    path.write_bytes(model.SerializeToString())
    return ["scan", str(path)]


def onnx_nodes_alike(d: Path, scale: float) -> list[str]:
    return _onnx_model(d, int(2000 * scale), distinct=False)


def onnx_nodes_distinct(d: Path, scale: float) -> list[str]:
    return _onnx_model(d, int(2000 * scale), distinct=True)


CASES = {"rust-templates": rust_templates, "rust-nested-quote": rust_nested_quote,
         "python-statements": python_statements, "python-calls": python_calls,
         "python-long-line": python_long_line, "onnx-nodes-alike": onnx_nodes_alike,
         "onnx-nodes-distinct": onnx_nodes_distinct}


def run(argv: list[str], timeout: float, cwd: Path) -> dict:
    """One fresh ``python -m explorer`` in ``cwd`` (not this checkout: ``-m`` puts the working directory first on
    the path), its wall time, CPU time and peak resident set (``os.wait4``: this child's alone)."""
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT)), OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "explorer", *argv], stdout=subprocess.DEVNULL, stderr=err,
                                text=True, env=env, cwd=cwd)
        status, usage = None, None
        while usage is None:
            pid, code, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid == 0:
                usage = None
                if time.perf_counter() - t0 > timeout:
                    proc.kill()
                    _, code, usage = os.wait4(proc.pid, 0)
                    status = f"stopped after {timeout:g} s"
                else:
                    time.sleep(0.05)
        proc.returncode = os.waitstatus_to_exitcode(code)
        status = status or proc.returncode
        err.seek(0)
        last = (err.read().strip().splitlines() or [""])[-1][:120]
    wall = time.perf_counter() - t0
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024,
            "status": status, "stderr": last}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", choices=[[], *CASES], default=[])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    names = args.cases or list(CASES)
    print(f"| case (scale {args.scale:g}) | wall s | CPU s | peak MiB | exit | last stderr line |")
    print("|---|---:|---:|---:|---|---|")
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            argv = CASES[name](Path(tmp), args.scale)
            r = run(argv, args.timeout, Path(tmp))
        print(f"| {name} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_mib']:.0f} | {r['status']} | {r['stderr']} |",
              flush=True)


if __name__ == "__main__":
    main()

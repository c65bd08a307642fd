"""How long diagnose takes on 10 MB of pasted text, for the shapes a pasted log takes, and on 10 KB pastes.

    python benchmarks/diagnose_speed.py [--mb 10] [--repeat 5] [--section logs|pastes|all]

``logs``: the median wall time of each 10 MB shape (the machine is shared: read the medians, not single runs).
``pastes``: every text of the corpus (tests/data/error_corpus, all sets) in the middle of a 10 KB training log,
each timed the first time this process sees it (what a user waits for), and texts diagnose cannot match that
name an ONNX runner, its node attributes and sizes (the answer computes the configurations recorded as running
that give the same weights), each in a fresh interpreter so nothing derived is cached yet.  The budget is
0.2 s for every 10 KB paste.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

import explorer

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "error_corpus" / "core.json"
SETS = ("core", "extended", "fresh", "heldout", "threads", "threads_heldout")
#: a 10 KB paste is held to this many seconds
PASTE_BUDGET = 0.2
#: unmatched texts naming an ONNX runner, its node's attributes and sizes (the answer computes alternatives)
UNMATCHED = {
    "QNN, nearest": "[E:onnxruntime:, sequential_executor.cc:572] Non-zero status code returned while running Resize "
                    "node. Name:'/up/Resize' Status Message: QNNExecutionProvider mode: 'nearest' "
                    "coordinate_transformation_mode: 'half_pixel' nearest_mode: 'round_prefer_ceil' (1, 16, 32, 32) "
                    "(1, 16, 64, 64)",
    "CPU EP, linear": "onnxruntime CPUExecutionProvider Resize node /up/Resize mode: 'linear' "
                      "coordinate_transformation_mode: 'asymmetric' (1, 3, 10, 10) (1, 3, 20, 20) gave odd edges",
    "TensorRT, nearest": "TensorRT builder: Resize /up/Resize mode: nearest coordinate_transformation_mode: "
                         "'pytorch_half_pixel' nearest_mode: 'floor' (1, 8, 15, 15) (1, 8, 31, 31) looks shifted",
}


def shapes(size: int) -> dict[str, str]:
    entries = {e["id"]: e["text"] for e in json.loads(CORPUS.read_text())}
    error = entries["torch-cuda-det-bilinear-backward-out-cuda-wrapped"]
    rng = random.Random(1)
    words = ["epoch", "loss", "step", "lr", "grad_norm", "images/s", "checkpoint", "val", "acc", "batch"]
    lines, n = [], 0
    while n < size:
        line = f"[10:{rng.randint(0, 59):02d}] " + " ".join(f"{rng.choice(words)}={rng.random():.5f}" for _ in range(8))
        lines.append(line)
        n += len(line) + 1
    log = "\n".join(lines)
    return {
        "training log, error at the end": log + "\n" + error,
        "error, then the log": error + "\n" + log,
        "one traceback repeated": (error + "\n") * (size // len(error)),
        "one long line": "x" * size + " " + error,
        "random characters": "".join(rng.choice("abcdefghij_ 0123\n") for _ in range(size)),
        "an error word everywhere": " ".join(f"error{i} failed" for i in range(size // 14)),
    }


def log_around(text: str, size: int = 10_000) -> str:
    """``text`` in the middle of a training log of about ``size`` characters."""
    rng = random.Random(len(text))
    lines, n = [], 0
    while n < size - len(text):
        line = f"step {rng.randint(0, 99999)} loss={rng.random():.5f} lr={rng.random():.2e} img/s={rng.randint(1, 900)}"
        lines.append(line)
        n += len(line) + 1
    half = len(lines) // 2
    return "\n".join(lines[:half] + [text] + lines[half:])


def pastes() -> bool:
    """Every corpus text in a 10 KB log, and the unmatched texts in fresh interpreters; True when all are within
    the budget."""
    import subprocess
    import sys

    explorer.diagnose("warm up: the index of known texts is built once")
    folder = CORPUS.parent
    times = []
    for name in SETS:
        for entry in json.loads((folder / f"{name}.json").read_text()):
            text = log_around(entry["text"])
            start = time.perf_counter()
            explorer.diagnose(text)
            times.append((time.perf_counter() - start, f"{name}/{entry['id']}", len(text)))
    times.sort(reverse=True)
    print(f"{len(times)} corpus texts in 10 KB logs: median {statistics.median(t for t, *_ in times):.4f} s, "
          f"max {times[0][0]:.4f} s")
    for seconds, entry_id, size in times[:5]:
        print(f"  {seconds:.4f} s  {entry_id} ({size} characters)")
    ok = times[0][0] <= PASTE_BUDGET
    for label, text in UNMATCHED.items():
        paste = log_around(text)
        code = ("import sys, time, explorer\n"
                "explorer.diagnose('warm up: the index of known texts is built once')\n"
                "paste = sys.stdin.read()\n"
                "start = time.perf_counter(); first = explorer.diagnose(paste); t1 = time.perf_counter() - start\n"
                "start = time.perf_counter(); explorer.diagnose(paste); t2 = time.perf_counter() - start\n"
                "print(f'{t1:.4f} {t2:.4f} {first.matched} {\"Configurations\" in first.message or \"closest\" in first.message}')\n")
        out = subprocess.run([sys.executable, "-c", code], input=paste, capture_output=True, text=True, check=True)
        first, again, matched, alternatives = out.stdout.split()
        print(f"unmatched ({label}) in a 10 KB log, fresh interpreter: first {first} s, again {again} s "
              f"(matched {matched}, configurations computed {alternatives})")
        ok = ok and float(first) <= PASTE_BUDGET
    print(f"every 10 KB paste within {PASTE_BUDGET} s: {ok}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--section", choices=("logs", "pastes", "all"), default="all")
    args = parser.parse_args()
    if args.section in ("pastes", "all"):
        pastes()
    if args.section == "pastes":
        return
    explorer.diagnose("warm up: the index of known texts is built once")
    for name, text in shapes(int(args.mb * 1e6)).items():
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            answer = explorer.diagnose(text)
            times.append(time.perf_counter() - start)
        found = answer.findings[0].record_id if answer.matched else "not a known resize error"
        print(f"{name:32s} {len(text) / 1e6:5.1f} MB  median {statistics.median(times):.3f} s  -> {found}")


if __name__ == "__main__":
    main()

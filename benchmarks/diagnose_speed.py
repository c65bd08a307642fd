"""How long diagnose takes on 10 MB of pasted text, for the shapes a pasted log takes.

    python benchmarks/diagnose_speed.py [--mb 10] [--repeat 5]

Prints the median wall time of each shape (the machine is shared: read the medians, not single runs).
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
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

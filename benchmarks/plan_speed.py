"""Time of building plans (the plan cache cleared before each call) and of a cached forward resize, for one or
more checkouts of the explorer in the same run, interleaved; prints medians (ms of CPU time) and the ratio of
each checkout to the first.

    python benchmarks/plan_speed.py PEER_TREE [TREE ...] [--rounds 3]

e.g. ``python benchmarks/plan_speed.py /path/to/main .`` compares this tree with a checkout of main.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_RUNNER = r"""
import json, time
import numpy as np
import explorer
from explorer.engine import plan

def clear():
    if hasattr(plan, "clear_plan_cache"):
        plan.clear_plan_cache()
    else:  # older checkouts: an lru_cache
        plan._cached_plan.cache_clear()

rng = np.random.default_rng(0)
x = rng.random((1, 3, 512, 512), dtype=np.float32)
xl = rng.random((1, 3, 2048, 2048), dtype=np.float32)
builds = {
    "build bilinear 512->1024": lambda: explorer.interpolate(x[:, :1, :8], size=(8, 1024), mode="bilinear"),
    "build lanczos+aa 2048->512": lambda: explorer.interpolate(xl[:, :1, :8], size=(8, 512), mode="lanczos",
                                                               antialias=True),
    "build area 2048->700": lambda: explorer.interpolate(xl[:, :1, :8], size=(8, 700), mode="area"),
}
cached = {
    "fwd bilinear 1x3x512->1024": lambda: explorer.interpolate(x, size=(1024, 1024), mode="bilinear"),
    "fwd bicubic+aa 1x3x2048->512": lambda: explorer.interpolate(xl, size=(512, 512), mode="bicubic",
                                                                 antialias=True),
}
out = {}
for name, call in {**builds, **cached}.items():
    call()
    times = []
    for _ in range(5):
        if name in builds:
            clear()
        t = time.process_time()
        call()
        times.append(time.process_time() - t)
    out[name] = sorted(times)[2] * 1e3
print(json.dumps(out))
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", help="checkouts of the project (the first is the peer)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    runs = {tree: [] for tree in args.trees}
    for _ in range(args.rounds):
        for tree in args.trees:  # interleaved: a busy moment slows every tree alike
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree), OPENBLAS_NUM_THREADS="1")
            proc = subprocess.run([sys.executable, "-P", "-c", _RUNNER], capture_output=True, text=True, env=env,
                                  check=True)
            runs[tree].append(json.loads(proc.stdout.strip().splitlines()[-1]))
    names = list(runs[args.trees[0]][0])
    print("| case | " + " | ".join(f"{t} ms" for t in args.trees) + " | " +
          " | ".join(f"{t} / {args.trees[0]}" for t in args.trees[1:]) + " |")
    print("|---" * (2 * len(args.trees)) + "|")
    for name in names:
        medians = [statistics.median(r[name] for r in runs[t]) for t in args.trees]
        ratios = [f"{m / medians[0]:.2f}" for m in medians[1:]]
        print(f"| {name} | " + " | ".join(f"{m:.2f}" for m in medians) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()

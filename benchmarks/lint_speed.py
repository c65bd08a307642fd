"""CPU time of ``lint`` on real trees, against a peer linter in the same run.

    python benchmarks/lint_speed.py TREE [TREE ...] [--peer FILE | --peer-root DIR] [--repeat 5] [--backend burn-tch]

Each repetition lints every tree with this linter and, when ``--peer`` names a Python file defining
``lint(path, backend, ...)`` (an earlier version of the linter, e.g. ``git show <commit>:explorer/advisor/lint.py``),
with the peer, interleaved; the table gives the median CPU time of the calling process and the ratio.
``--peer-root DIR`` names another checkout of the project (``git worktree add /tmp/before <commit>``): both
linters then run in child processes, interleaved, each timed around its ``lint`` call (imports excluded).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer.advisor.lint import lint


def load_peer(path: Path):
    """The peer's ``lint``, loaded as a module of ``explorer.advisor`` so that its relative imports work."""
    spec = importlib.util.spec_from_file_location("explorer.advisor.lint_peer", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.lint


def cpu(fn, *args, **kwargs) -> float:
    started = time.process_time()
    try:
        fn(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - a peer that crashes on a tree is reported, not fatal
        print(f"  {getattr(fn, '__module__', fn)} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return float("nan")
    return time.process_time() - started


_CHILD = ("import sys, time; sys.path.insert(0, sys.argv[1]); from explorer.advisor.lint import lint; "
          "t = time.process_time(); lint(sys.argv[2], backend=sys.argv[3]); print(time.process_time() - t)")


def child_cpu(root: Path, tree: Path, backend: str) -> float:
    """CPU seconds of one ``lint`` call of the checkout at ``root``, in a child process."""
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(root), str(tree), backend], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        print(f"  {root} failed on {tree}: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return float("nan")
    return float(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--peer", type=Path)
    parser.add_argument("--peer-root", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", default="burn-tch")
    args = parser.parse_args(argv)
    peer = load_peer(args.peer) if args.peer else None
    times = {tree: {"lint": [], "peer": []} for tree in args.trees}
    here = Path(__file__).resolve().parents[1]
    for _ in range(args.repeat):
        for tree in args.trees:
            if args.peer_root is not None:
                times[tree]["lint"].append(child_cpu(here, tree, args.backend))
                times[tree]["peer"].append(child_cpu(args.peer_root, tree, args.backend))
                continue
            times[tree]["lint"].append(cpu(lint, tree, backend=args.backend))
            if peer is not None:
                times[tree]["peer"].append(cpu(peer, tree, backend=args.backend))
    print("| tree | lint CPU s (median) | peer CPU s (median) | ratio |")
    print("|---|---|---|---|")
    for tree, t in times.items():
        ours = statistics.median(t["lint"])
        theirs = statistics.median(t["peer"]) if t["peer"] else float("nan")
        ratio = ours / theirs if not math.isnan(theirs) and theirs > 0 else float("nan")
        print(f"| {tree.name} | {ours:.2f} | {theirs:.2f} | {ratio:.1f} |")


if __name__ == "__main__":
    main()

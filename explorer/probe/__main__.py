"""``python -m explorer.probe``: run the compatibility matrix (see :mod:`explorer.probe`)."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from . import matrix as matrix_io
from .runner import DEFAULT_CELL_TIMEOUT

DOCS = Path(__file__).resolve().parents[2] / "docs" / "compatibility-matrix.md"
README = Path(__file__).resolve().parents[2] / "README.md"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m explorer.probe",
                                description="Run ONNX Resize/Upsample cases on every runtime release, each in its "
                                            "own virtualenv, and write the measured matrix.")
    p.add_argument("--runtime", action="append", metavar="NAME", help="only this runtime (repeatable)")
    p.add_argument("--release", action="append", metavar="V", help="only this release (repeatable)")
    p.add_argument("--current", action="store_true", help="only each runtime's current release (the CI subset)")
    p.add_argument("--cases", action="append", metavar="SUBSET", help="a case group or id prefix (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="releases probed at once (default 1; at most 2 here)")
    p.add_argument("--venvs", default=None,
                   help="where the per-release virtualenvs live (default: $EXPLORER_PROBE_VENVS, else "
                        "~/.cache/interpolation-explorer/probe-venvs)")
    p.add_argument("--out", default=str(matrix_io.DATA), help="the matrix folder to write")
    p.add_argument("--python", help="run the cells with this python instead of a venv per release")
    p.add_argument("--cell-timeout", type=float, default=DEFAULT_CELL_TIMEOUT, help="seconds per cell")
    p.add_argument("--render", action="store_true", help="only write docs/compatibility-matrix.md from the data")
    p.add_argument("--list", action="store_true", help="list the runtimes and their releases")
    p.add_argument("--docs", default=str(DOCS), help="where --render writes the docs page")
    p.add_argument("--readme", default=str(README), help="the README whose scoreboard (between its matrix markers) "
                                                          "is rewritten with the docs ('' to leave it)")
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    from .harness import adapter_paths, current_of, probe
    from .child import load_adapter

    if args.list:
        for name, path in adapter_paths().items():
            adapter = load_adapter(path)
            print(f"{name:<16} current {current_of(adapter):<14} releases {', '.join(adapter.RELEASES)}")
        return 0
    if not args.render:
        if args.jobs < 1:
            print(f"--jobs must be at least 1, got {args.jobs}", file=sys.stderr)
            return 2
        # the interpreter given to --python and the folder given to --venvs are local paths: the committed
        # command names them PYTHON and VENVS
        command = "python -m explorer.probe " + " ".join(
            "PYTHON" if (args.python and a == args.python) else "VENVS" if (args.venvs and a == args.venvs)
            else shlex.quote(a) for a in (argv or sys.argv[1:]))
        start = time.perf_counter()
        try:
            probe(args.runtime, args.release, args.current, args.cases, args.jobs, args.venvs, Path(args.out),
                  args.python, args.cell_timeout, command)
        except ValueError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        print(f"probed in {time.perf_counter() - start:.1f} s")
    if Path(args.out).resolve() == matrix_io.DATA.resolve():
        data = matrix_io.load(args.out)
        Path(args.docs).write_text(matrix_io.render_docs(data))
        print(f"wrote {args.docs}")
        if args.readme:
            readme = Path(args.readme)
            text = readme.read_text()
            updated = matrix_io.update_readme(text, matrix_io.readme_table(data))
            if updated != text:
                readme.write_text(updated)
                print(f"wrote the scoreboard in {args.readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run an adapter's cells for one release: its virtualenv, a child process, timeouts, crashes, outcomes.

:func:`ensure_venv` creates (or reuses) ``VENVS/probe-<runtime>-<release>`` with ``python3 -m venv`` and the
adapter's ``install(release)`` pip commands; :func:`run_cells` writes the job (cases with their model and input
files) and runs :mod:`explorer.probe.child` with that venv's python.  The child appends an event per cell; when
it dies (a signal, an exit, a native abort) the cell it had started is recorded as ``crash`` with the exit
status and the end of its stderr, and a new child goes on with the cells left; a cell that takes longer than
``cell_timeout`` is killed and recorded as ``timeout`` the same way.  Nothing here raises for a runtime's
failure: an install that fails is a result too (:class:`Install`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

import numpy as np

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "child.py")
DEFAULT_CELL_TIMEOUT = 120.0
STARTUP_TIMEOUT = 600.0
INSTALL_TIMEOUT = 1800.0
MARKER = ".probe-install.json"


@dataclass
class Install:
    """How a release's venv was made: ``status`` ok/failed/reused, the pip commands, seconds, the error text."""

    status: str
    python: str | None
    commands: list
    seconds: float = 0.0
    error: str = ""

    def to_dict(self) -> dict:
        out = {"status": self.status, "commands": self.commands, "seconds": round(self.seconds, 1)}
        if self.error:
            out["error"] = self.error
        return out


@dataclass
class ChildRun:
    """Outcomes by case id, outputs and gradients by case id, what the child said of itself, restarts."""

    outcomes: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    gradients: dict = field(default_factory=dict)
    hello: dict = field(default_factory=dict)
    restarts: int = 0
    seconds: float = 0.0


def venv_dir(venvs: str, runtime: str, release: str) -> str:
    return os.path.join(venvs, f"probe-{runtime}-{release}")


def ensure_venv(adapter, release: str, venvs: str, log=print) -> Install:
    """The release's venv, created and installed unless a previous install with the same commands succeeded."""
    commands = [list(c) for c in adapter.install(release)]
    path = venv_dir(venvs, adapter.NAME, release)
    python = os.path.join(path, "bin", "python")
    marker = os.path.join(path, MARKER)
    if os.path.exists(marker):
        try:
            with open(marker) as fh:
                recorded = json.load(fh)
        except (OSError, ValueError):
            recorded = {}
        if recorded.get("commands") == commands and os.path.exists(python):
            return Install("reused", python, commands, recorded.get("seconds", 0.0))
    if os.path.exists(path):
        shutil.rmtree(path)
    os.makedirs(venvs, exist_ok=True)
    start = time.perf_counter()
    log(f"[{adapter.NAME} {release}] creating {path}")
    steps = [[sys.executable if _has_venv() else "python3", "-m", "venv", path]]
    steps += [[python, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-input", *c]
              for c in commands]
    for step in steps:
        try:
            done = subprocess.run(step, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return Install("failed", None, commands, time.perf_counter() - start,
                           f"timed out after {INSTALL_TIMEOUT:.0f} s: {' '.join(step[1:])}")
        if done.returncode != 0:
            text = (done.stderr or done.stdout).strip()
            lines = [ln for ln in text.splitlines() if ln.strip()]
            error = "\n".join(lines[-12:])
            shutil.rmtree(path, ignore_errors=True)  # a broken venv is not reused
            return Install("failed", None, commands, time.perf_counter() - start, error)
    seconds = time.perf_counter() - start
    with open(marker, "w") as fh:
        json.dump({"commands": commands, "seconds": round(seconds, 1)}, fh)
    return Install("ok", python, commands, seconds)


def _has_venv() -> bool:
    try:
        import venv  # noqa: F401
        import ensurepip  # noqa: F401
    except ImportError:
        return False
    return True


def _read_events(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    events = []
    with open(path) as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                events.append(json.loads(line))
            except ValueError:  # a line cut by a crash
                break
    return events


def _tail(path: str, lines: int = 12) -> str:
    try:
        with open(path, errors="replace") as fh:
            text = fh.read()[-20000:]
    except OSError:
        return ""
    kept = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(kept[-lines:])


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def run_cells(adapter_path: str, python: str, cases: list, work_dir: str, cell_timeout: float = DEFAULT_CELL_TIMEOUT,
              all_packages: bool = True, env: dict | None = None) -> ChildRun:
    """Run ``cases`` (each with ``index``, ``model_path``, ``input_path``) through the adapter in children of
    ``python``; every case gets an outcome, whatever the child does."""
    result = ChildRun()
    start = time.perf_counter()
    remaining = list(cases)
    attempt = 0
    child_env = dict(os.environ if env is None else env)
    child_env.pop("PYTHONPATH", None)  # the child sees its venv, not the explorer
    child_env.setdefault("OMP_NUM_THREADS", "1")
    child_env.setdefault("OPENBLAS_NUM_THREADS", "1")
    child_env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    while remaining:
        attempt += 1
        run_dir = os.path.join(work_dir, f"attempt{attempt}")
        os.makedirs(run_dir, exist_ok=True)
        with open(os.path.join(run_dir, "job.json"), "w") as fh:
            json.dump({"adapter": adapter_path, "cases": remaining, "all_packages": all_packages}, fh)
        events_path = os.path.join(run_dir, "events.jsonl")
        stderr_path = os.path.join(run_dir, "stderr.txt")
        with open(stderr_path, "w") as err, open(os.path.join(run_dir, "stdout.txt"), "w") as out:
            proc = subprocess.Popen([python, CHILD, run_dir], stdout=out, stderr=err, env=child_env,
                                    cwd=run_dir, start_new_session=True)
            timed_out = _watch(proc, events_path, cell_timeout)
        events = _read_events(events_path)
        done_ids = set()
        started = None
        stage = None
        for event in events:
            kind = event.get("event")
            if kind == "hello":
                if not result.hello:
                    result.hello = event
                if event.get("import_error"):
                    fields = event["import_error"]
                    for case in remaining:
                        result.outcomes[case["id"]] = {"stage": "import", "status": "error", **fields}
                    remaining = []
                    break
            elif kind == "start":
                started = event["id"]
                stage = None
            elif kind == "stage":
                stage = event.get("stage")
            elif kind == "done":
                result.outcomes[event["id"]] = event["outcome"]
                done_ids.add(event["id"])
                started = None
        if not remaining:
            break
        for case in remaining:
            if case["id"] in done_ids:
                _collect(result, case, run_dir)
        left = [c for c in remaining if c["id"] not in done_ids]
        if not left:
            break
        if started is None:  # died before a cell (startup) or left cells unstarted after exiting cleanly
            reason = "timed out starting" if timed_out else _exit_text(proc.returncode)
            if not result.hello:
                text = _tail(stderr_path)
                for case in left:
                    result.outcomes[case["id"]] = {"stage": "import", "status": "crash",
                                                   "error_type": "ChildStartup", "error": reason,
                                                   "error_text": text}
                break
            started, stage = left[0]["id"], None
        status = "timeout" if timed_out else "crash"
        reason = f"no outcome after {cell_timeout:.0f} s" if timed_out else _exit_text(proc.returncode)
        result.outcomes[started] = {"stage": stage, "status": status, "error_type": status.capitalize(),
                                    "error": reason, "error_text": _tail(stderr_path)}
        remaining = [c for c in left if c["id"] != started]
        result.restarts += 1
    for case in cases:  # outputs of the last attempt
        if case["id"] not in result.outputs:
            for run in sorted(os.listdir(work_dir)):
                _collect(result, case, os.path.join(work_dir, run))
    result.seconds = time.perf_counter() - start
    return result


def _collect(result: ChildRun, case: dict, run_dir: str):
    path = os.path.join(run_dir, "out", f"{case['index']}.npy")
    if os.path.exists(path) and case["id"] not in result.outputs:
        result.outputs[case["id"]] = np.load(path, allow_pickle=False)
    grad = os.path.join(run_dir, "out", f"{case['index']}.grad.npy")
    if os.path.exists(grad) and case["id"] not in result.gradients:
        result.gradients[case["id"]] = np.load(grad, allow_pickle=False)


def _watch(proc, events_path: str, cell_timeout: float) -> bool:
    """Wait for the child; kill its process group when a cell (or the start) runs past its time."""
    last_size, last_change = -1, time.monotonic()
    while True:
        try:
            proc.wait(timeout=0.05)
            return False
        except subprocess.TimeoutExpired:
            pass
        size = os.path.getsize(events_path) if os.path.exists(events_path) else 0
        now = time.monotonic()
        if size != last_size:
            last_size, last_change = size, now
        limit = cell_timeout if size else max(cell_timeout, STARTUP_TIMEOUT)
        if now - last_change > limit:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            return True

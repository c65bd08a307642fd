"""The probe's parent side: every (runtime, release) of the chosen adapters, run, compared and written.

:func:`probe` builds each case's model and input once (in a scratch folder), then for each release: its venv
(:func:`explorer.probe.runner.ensure_venv`), its cells in a child (:func:`explorer.probe.runner.run_cells`),
each output compared with the explorer (:func:`explorer.probe.compare.compare`), and the release file written
(:mod:`explorer.probe.matrix`).  Releases run ``jobs`` at a time; one release failing to install or crashing is
a result like any other and never stops the others.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from . import matrix as matrix_io
from .cases import build_model, cases as all_cases, make_input
from .child import load_adapter
from .compare import compare, compare_gradient
from .runner import DEFAULT_CELL_TIMEOUT, Install, ensure_venv, run_cells

RUNTIMES_DIR = Path(__file__).resolve().parent / "runtimes"
REPO = Path(__file__).resolve().parents[2]
_lock = threading.Lock()


def adapter_paths() -> dict:
    """``{runtime name: adapter file}`` of every adapter in ``explorer/probe/runtimes/``."""
    out = {}
    for path in sorted(RUNTIMES_DIR.glob("*.py")):
        if path.name.startswith("_"):
            continue
        module = load_adapter(str(path))
        out[module.NAME] = str(path)
    return out


def releases_of(adapter) -> list[str]:
    return list(adapter.RELEASES)


def current_of(adapter) -> str:
    return getattr(adapter, "CURRENT", adapter.RELEASES[-1])


def harness_version() -> dict:
    import explorer

    out = {"explorer": explorer.__version__}
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10, check=False).stdout.strip()
        # the code that measures and computes, not the matrix being written
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "explorer/probe",
                                "explorer/advisor", "explorer/conventions", "explorer/engine",
                                ":(exclude)explorer/advisor/data/matrix"],
                               capture_output=True, text=True, timeout=10, check=False).stdout.strip()
        if commit:
            out["commit"] = commit
            out["dirty"] = bool(dirty)
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def prepare_cases(table, work: str) -> list[dict]:
    """The child's copy of each case: with ``index``, ``model_path`` and ``input_path`` (files written once)."""
    models = os.path.join(work, "models")
    os.makedirs(models, exist_ok=True)
    out = []
    for index, case in enumerate(table):
        model_path = os.path.join(models, f"{index}.onnx")
        input_path = os.path.join(models, f"{index}.npz")
        if not os.path.exists(input_path):
            if case["kind"] == "onnx":
                with open(model_path, "wb") as fh:
                    fh.write(build_model(case))
            x = make_input(case)
            rng = np.random.default_rng(index)
            g = rng.standard_normal(case["output_shape"]).astype(np.float32)
            np.savez(input_path, X=x, G=g)
        out.append({**case, "index": index, "model_path": model_path if case["kind"] == "onnx" else None,
                    "input_path": input_path})
    return out


def _normalise(text: str, replacements: dict) -> str:
    for old, new in replacements.items():
        if old:
            text = text.replace(old, new)
    return text


def cell_record(case, outcome, output, replacements, data, gradient=None) -> dict:
    """The committed record of one cell: the child's outcome and the comparison, paths made neutral."""
    record = dict(outcome)
    for key in ("error", "message", "error_text", "where"):
        if key in record and isinstance(record[key], str):
            record[key] = _normalise(record[key], replacements)
    if record.get("error_text") == record.get("error"):
        record.pop("error_text", None)
    if isinstance(record.get("gradient_error"), dict):  # its type and first line (tinygrad's texts run to pages)
        record["gradient_error"] = {k: _normalise(v, replacements) if isinstance(v, str) else v
                                    for k, v in record["gradient_error"].items() if k != "error_text"}
    if output is not None and record.get("status") == "ok":
        x = make_input(case)
        fields = compare(case, x, output)
        if "equals" in fields:
            with _lock:
                fields["equals"] = matrix_io.convention_index(fields["equals"], data)
        record.update(fields)
        if gradient is not None:
            g = np.load(case["input_path"])["G"] if "input_path" in case else None
            record.update(gradient_fields(x, output, g, gradient))
            if case.get("kind", "onnx") != "onnx" and g is not None:
                record.update(compare_gradient(case, x, g, gradient))
    return record


def gradient_fields(x, y, g, grad) -> dict:
    """A runtime's gradient of ``sum(Y * G)``, checked as the transpose of its own forward: for a linear map
    ``<W^T G, x> = <G, W x>``; ``gradient_adjoint_error`` is the difference relative to ``|G| |y|``."""
    grad = np.asarray(grad)
    out = {"gradient_shape": list(grad.shape)}
    if g is None or grad.shape != np.shape(x) or np.shape(y) != g.shape:
        out["gradient_adjoint_error"] = "shape"
        return out
    lhs = float(np.sum(grad.astype(np.float64) * np.asarray(x, np.float64)))
    rhs = float(np.sum(g.astype(np.float64) * np.asarray(y, np.float64)))
    scale = float(np.linalg.norm(g.ravel()) * np.linalg.norm(np.asarray(y, np.float64).ravel())) or 1.0
    out["gradient_adjoint_error"] = float(f"{abs(lhs - rhs) / scale:.3g}")
    return out


def probe_release(adapter_path: str, release: str, prepared, work: str, venvs: str, data, python: str | None = None,
                  cell_timeout: float = DEFAULT_CELL_TIMEOUT, command: str = "", log=print) -> dict:
    """Probe one release and write its file; returns the record written.  ``prepared`` are the cases from
    :func:`prepare_cases` (files under ``work``/shared)."""
    adapter = load_adapter(adapter_path)
    start = time.perf_counter()
    kinds = tuple(getattr(adapter, "KINDS", ("onnx",)))
    child_cases = [c for c in prepared if c["kind"] in kinds]
    if python is None:
        install = ensure_venv(adapter, release, venvs, log=log)
        venv = os.path.dirname(os.path.dirname(install.python)) if install.python else ""
    else:
        install = Install("external", python, [])
        venv = sys.prefix if os.path.realpath(python) == os.path.realpath(sys.executable) else ""
    record = {"format": matrix_io.FORMAT, "runtime": adapter.NAME, "product": getattr(adapter, "PRODUCT", ""),
              "release": release, "install": install.to_dict()}
    provenance = {"command": command, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                      timespec="seconds"),
                  "host_python": platform.python_version(), "platform": platform.platform(),
                  "harness": harness_version(),
                  "adapter_sha": hashlib.sha256(Path(adapter_path).read_bytes()).hexdigest()[:16]}
    cells = {}
    if install.status == "failed":
        log(f"[{adapter.NAME} {release}] install failed: {install.error.splitlines()[-1] if install.error else ''}")
    else:
        run_dir = tempfile.mkdtemp(prefix=f"{adapter.NAME}-{release}-", dir=work)
        result = run_cells(adapter_path, install.python, child_cases, run_dir, cell_timeout=cell_timeout,
                           all_packages=python is None)
        hello = result.hello
        provenance["child_python"] = hello.get("python")
        provenance["runtime_version"] = hello.get("version")
        provenance["packages"] = hello.get("packages", {})
        provenance["runtime_packages"] = runtime_packages(hello.get("packages", {}), getattr(adapter, "PACKAGES", ()))
        provenance["restarts"] = result.restarts
        replacements = {run_dir: "<work>", os.path.join(work, "shared"): "<cases>", venv: "<venv>",
                        str(work): "<work>"}
        for case in child_cases:
            outcome = result.outcomes.get(case["id"], {"status": "crash", "error": "no outcome recorded"})
            cells[case["id"]] = cell_record(case, outcome, result.outputs.get(case["id"]), replacements, data,
                                            result.gradients.get(case["id"]))
        shutil.rmtree(run_dir, ignore_errors=True)
        version = hello.get("version")
        if version and version != release:
            if python is not None:  # an existing python: its file is named by the release it has
                record["release"] = release = version
            else:
                log(f"[{adapter.NAME} {release}] the venv reports version {version}")
    record["provenance"] = provenance
    record["seconds"] = round(time.perf_counter() - start, 1)
    record["cells"] = cells
    matrix_io.write_json(matrix_io.release_path(adapter.NAME, release, data), record)
    labels = {}
    for c in cells.values():
        label = c.get("verdict") if c.get("status") == "ok" else c.get("status")
        labels[label] = labels.get(label, 0) + 1
    log(f"[{adapter.NAME} {release}] {len(cells)} cells in {record['seconds']} s "
        f"(install {install.status} {install.seconds:.0f} s): {labels}")
    return record


def _distribution(name: str) -> str:
    """A distribution's name as pip compares them (``tensorflow_cpu`` is ``tensorflow-cpu``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_packages(packages: dict, names) -> dict:
    """The adapter's own packages (``PACKAGES``) among a venv's, whichever spelling the wheel's metadata uses
    (TensorFlow 2.18+ wheels name themselves ``tensorflow_cpu``)."""
    wanted = {_distribution(n) for n in names}
    return {k: v for k, v in packages.items() if _distribution(k) in wanted}


def default_venvs() -> str:
    """Where the per-release virtualenvs live: ``$EXPLORER_PROBE_VENVS``, else the user's cache folder."""
    return os.environ.get("EXPLORER_PROBE_VENVS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "interpolation-explorer", "probe-venvs")


def probe(runtimes=None, releases=None, current_only=False, subset=None, jobs=1, venvs=None,
          data=matrix_io.DATA, python=None, cell_timeout=DEFAULT_CELL_TIMEOUT, command="", log=print) -> list[dict]:
    """Probe the chosen runtimes' releases (all adapters and all their releases by default); the per-release
    virtualenvs live in ``venvs`` (:func:`default_venvs` when None)."""
    venvs = venvs or default_venvs()
    paths = adapter_paths()
    chosen = list(paths) if not runtimes else list(runtimes)
    unknown = [r for r in chosen if r not in paths]
    if unknown:
        raise ValueError(f"runtime={unknown} has no adapter; choose from {sorted(paths)}")
    table = all_cases(subset)
    matrix_io.write_cases(table, data)
    jobs_list = []
    for name in chosen:
        adapter = load_adapter(paths[name])
        wanted = [current_of(adapter)] if (current_only or python is not None) else releases_of(adapter)
        if releases:
            known = set(releases_of(adapter))
            wanted = [r for r in releases if r in known or python is not None or len(chosen) == 1]
        jobs_list += [(paths[name], r) for r in wanted]
    work = tempfile.mkdtemp(prefix="probe-")
    try:
        prepared = prepare_cases(table, os.path.join(work, "shared"))  # models and inputs once for all
        if jobs <= 1:
            return [probe_release(p, r, prepared, work, venvs, data, python, cell_timeout, command, log)
                    for p, r in jobs_list]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(probe_release, p, r, prepared, work, venvs, data, python, cell_timeout, command,
                                   log) for p, r in jobs_list]
            return [f.result() for f in futures]
    finally:
        shutil.rmtree(work, ignore_errors=True)

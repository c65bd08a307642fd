"""The child side of the probe: runs one adapter's cells in a runtime's own virtualenv, never importing the explorer.

``python child.py WORK_DIR`` (run with the runtime venv's python, by path) reads ``WORK_DIR/job.json``
(``adapter``: the adapter file; ``cases``: the cases to run, each with ``model_path`` and ``input_path``),
loads the adapter with ``importlib.util.spec_from_file_location`` and appends one JSON line per event to
``WORK_DIR/events.jsonl``, flushed at once so that the parent knows which cell a crash or a hang happened in:

* ``{"event": "hello", "version": ..., "packages": {...}, "python": ...}`` once the adapter is loaded;
* ``{"event": "start", "id": ...}`` before a cell, ``{"event": "stage", "id": ..., "stage": ...}`` as it enters
  each stage;
* ``{"event": "done", "id": ..., "outcome": {...}}`` after it, the output saved as ``WORK_DIR/out/<n>.npy``
  (and the gradient as ``<n>.grad.npy``).

An adapter with ``REPEATS = 2`` has each cell run twice in the same process; an outcome or output that changes
marks the cell ``unstable`` (a runtime reading memory it never wrote).

An outcome is :meth:`Cell.outcome`: ``stage`` (the last stage entered: ``convert``, ``load``, ``run``,
``gradient``), ``status`` (``ok``, ``error`` or ``skipped``), ``error_type``, ``error`` (the first line of the
error text), ``message`` (the first line saying what went wrong, when the text opens with where),
``gradient_error`` (the same fields, when the forward ran and only the gradient failed),
``error_text`` (all of it), ``converted`` (what the runtime turned the node into), ``notes`` and
``seconds``.  Only the standard library and numpy are imported here.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import importlib.util
import json
import os
import platform
import re
import sys
import threading
import time
import traceback

STAGES = ("convert", "load", "run", "gradient")
MAX_TEXT = 4000


class Skip(Exception):
    """Raised by an adapter (``cell.skip(reason)``) for a case it does not take; recorded as ``skipped``."""


class Cell:
    """What an adapter's ``run(case, inputs, cell)`` reports: stages entered, the output, what the node became."""

    def __init__(self, case, on_stage=None):
        self.case = case
        self.on_stage = on_stage
        self.stage_name = None
        self.output_array = None
        self.gradient_array = None
        self.converted_to = None
        self.notes = []

    @contextlib.contextmanager
    def stage(self, name):
        """``with cell.stage("load"): ...``: an exception inside is recorded as failing at this stage."""
        if name not in STAGES:
            raise ValueError(f"stage={name!r} is not one of {STAGES}")
        self.stage_name = name
        if self.on_stage is not None:
            self.on_stage(name)
        yield

    def output(self, array):
        self.output_array = array

    def gradient(self, array):
        """The gradient of ``sum(output * g)`` with respect to the input, ``g`` being ``inputs["G"]``."""
        self.gradient_array = array

    def converted(self, description):
        """What the runtime made of the node (a JSON-able dict: layer type, its attributes, ...)."""
        self.converted_to = description

    def note(self, text):
        self.notes.append(str(text))

    def skip(self, reason):
        raise Skip(reason)


def error_fields(exc: BaseException) -> dict:
    text = str(exc).strip() or repr(exc)
    text = _strip_ansi(text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else text
    fields = {"error_type": type(exc).__name__, "error": first[:500], "error_text": text[:MAX_TEXT]}
    message = _message(lines)
    if message and message != first:
        fields["message"] = message[:500]
    return fields


_PREAMBLES = ("Exception from ", "Exception encountered when calling ", "Check '", "While validating", "Traceback",
              "File \"", "Summary:", "-- ")


def _message(lines) -> str:
    """The first line that says what went wrong rather than where (OpenVINO's texts open with a source
    location; some end a line with ':' before the reason)."""
    for line in lines:
        if line.endswith(":") or line.startswith(_PREAMBLES):
            continue
        return line
    return ""


def _strip_ansi(text: str) -> str:
    out, k = [], 0
    while k < len(text):
        if text[k] == "\x1b" and k + 1 < len(text) and text[k + 1] == "[":
            k += 2
            while k < len(text) and not text[k].isalpha():
                k += 1
            k += 1
            continue
        out.append(text[k])
        k += 1
    return "".join(out)


#: held while an adapter or a sibling is looked up, registered and run: the harness's ``--jobs`` threads load
#: the same files (``_keras.py`` for every Keras release), and a module registered before its code has run must
#: not be handed to another thread; re-entrant, for a module whose code loads a sibling
_loading = threading.RLock()


def load_adapter(path: str):
    """The adapter module from its file (any name: it is registered as ``probe_adapter_<stem>``).

    Before its code runs the module is given ``load_sibling(stem)``: another file of the adapters' folder,
    loaded the same way (once), for the code adapters share (``_keras.py``; ``torch.py``'s call keywords).
    A plain ``import`` cannot do it: the folder's files are named after the runtimes they import.
    Loading is serialised (:data:`_loading`): another thread never gets a module whose code is still running,
    and a module whose code raised is taken out again (the one it replaced put back).
    """
    name = "probe_adapter_" + os.path.splitext(os.path.basename(path))[0]
    folder = os.path.dirname(os.path.abspath(path))
    with _loading:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        module.load_sibling = functools.partial(_sibling, folder)
        previous = sys.modules.get(name)
        sys.modules[name] = module  # before its code runs, as import does: a sibling loading it back gets it
        try:
            spec.loader.exec_module(module)
        except BaseException:
            if previous is not None:
                sys.modules[name] = previous
            else:
                sys.modules.pop(name, None)
            raise
        return module


def _sibling(folder: str, stem: str):
    with _loading:
        loaded = sys.modules.get("probe_adapter_" + stem)
        if loaded is not None and os.path.dirname(os.path.abspath(loaded.__file__)) == folder:
            return loaded
        return load_adapter(os.path.join(folder, stem + ".py"))


def packages(names=None) -> dict:
    """``{distribution: version}`` of ``names`` (every installed distribution when None)."""
    if names is None:
        found = {}
        for dist in importlib.metadata.distributions():
            name = dist.metadata["Name"]
            if name:
                found[name] = dist.version
        return dict(sorted(found.items(), key=lambda kv: kv[0].lower()))
    out = {}
    for name in names:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def run_cell(adapter, case, inputs, on_stage=None):
    """(outcome, output, gradient) of one case; any exception is the outcome, never raised."""
    cell = Cell(case, on_stage)
    start = time.perf_counter()
    outcome = {"stage": None, "status": "ok"}
    try:
        adapter.run(case, inputs, cell)
    except Skip as exc:
        outcome.update(status="skipped", error=str(exc))
    except Exception as exc:  # noqa: BLE001 - every failure of a runtime is data
        if cell.stage_name == "gradient" and cell.output_array is not None:
            # the forward ran: its output is compared; the gradient's failure is recorded beside it
            outcome["gradient_error"] = {**error_fields(exc), "where": _where(exc)}
        else:
            outcome.update(status="error", **error_fields(exc))
            outcome["where"] = _where(exc)
    _steady(adapter, outcome)
    outcome["stage"] = cell.stage_name
    outcome["seconds"] = round(time.perf_counter() - start, 4)
    if cell.converted_to is not None:
        outcome["converted"] = cell.converted_to
    if cell.notes:
        outcome["notes"] = cell.notes
    # a copy: some runtimes hand back a view of memory that their next run writes (MNN's Var.read())
    output = None if cell.output_array is None else _copy(cell.output_array)
    gradient = None if cell.gradient_array is None else _copy(cell.gradient_array)
    if outcome["status"] == "ok" and cell.output_array is None:
        outcome.update(status="error", error_type="ProbeError", error="the adapter returned no output",
                       error_text="the adapter returned no output")
    return outcome, output, gradient


def _steady(adapter, outcome):
    """The error texts with the parts an adapter declares volatile replaced (``VOLATILE``: ``(regex,
    replacement)`` pairs, such as a counter that depends on the cells run before in the same process)."""
    patterns = getattr(adapter, "VOLATILE", ())
    for fields in (outcome, outcome.get("gradient_error") or {}):
        for key in ("error", "message", "error_text"):
            if isinstance(fields.get(key), str):
                for pattern, replacement in patterns:
                    fields[key] = re.sub(pattern, replacement, fields[key])


def _copy(array):
    import numpy as np

    try:
        return np.array(array, copy=True)
    except Exception:  # noqa: BLE001 - not an array: main() records that
        return array


def _same(a, b) -> bool:
    import numpy as np

    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


def _difference(a, b) -> str:
    import numpy as np

    if a is None or b is None or np.shape(a) != np.shape(b):
        return "another output shape"
    with np.errstate(all="ignore"):
        return f"outputs differ by up to {float(np.nanmax(np.abs(np.asarray(a, float) - np.asarray(b, float)))):.3g}"


def _where(exc) -> str:
    """The innermost frame of the traceback, as ``file:line in function`` (file name only)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    frame = frames[-1]
    return f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"


def main(work_dir: str) -> int:
    import numpy as np

    with open(os.path.join(work_dir, "job.json")) as fh:
        job = json.load(fh)
    out_dir = os.path.join(work_dir, "out")
    os.makedirs(out_dir, exist_ok=True)
    events = open(os.path.join(work_dir, "events.jsonl"), "a", buffering=1)

    def emit(record):
        events.write(json.dumps(record) + "\n")
        events.flush()
        os.fsync(events.fileno())

    adapter = load_adapter(job["adapter"])
    try:
        version = adapter.version()
    except Exception as exc:  # noqa: BLE001 - the runtime does not import: every cell says so
        emit({"event": "hello", "version": None, "import_error": error_fields(exc)})
        return 3
    emit({"event": "hello", "version": version, "python": platform.python_version(),
          "packages": packages(None if job.get("all_packages") else getattr(adapter, "PACKAGES", None))})
    for case in job["cases"]:
        emit({"event": "start", "id": case["id"]})
        inputs = dict(np.load(case["input_path"]))
        outcome, output, gradient = run_cell(adapter, case, inputs,
                                             lambda name, cid=case["id"]: emit({"event": "stage", "id": cid,
                                                                                  "stage": name}))
        for _ in range(int(getattr(adapter, "REPEATS", 1)) - 1):  # the same cell again: is its output stable?
            again, output_again, _ = run_cell(adapter, case, dict(np.load(case["input_path"])))
            if again.get("status") != outcome.get("status") or not _same(output, output_again):
                outcome["unstable"] = True
                outcome.setdefault("notes", []).append(
                    f"run again in the same process: {again.get('status')}, " + _difference(output, output_again))
                break
        if output is not None:
            try:
                np.save(os.path.join(out_dir, f"{case['index']}.npy"), np.asarray(output))
            except Exception as exc:  # noqa: BLE001 - an output numpy cannot hold
                outcome.update(status="error", error_type="ProbeError", error=f"output not an array: {exc}")
        if gradient is not None:
            np.save(os.path.join(out_dir, f"{case['index']}.grad.npy"), np.asarray(gradient))
        emit({"event": "done", "id": case["id"], "outcome": outcome})
    events.close()
    return 0


if __name__ == "__main__":
    # the child never imports the explorer: drop this file's folder from the path (its modules' names,
    # cases, compare, matrix, would shadow any package of the same name)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.exit(main(sys.argv[1]))

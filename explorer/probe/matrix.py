"""The committed compatibility matrix: reading, writing, querying and rendering it.

The data live in ``explorer/advisor/data/matrix/``: ``cases.json`` (every case, by id, as
:mod:`explorer.probe.cases` made it), ``conventions.json`` (the labels that cells' ``equals`` lists index) and
one ``<runtime>-<release>.json`` per probed release: ``runtime``, ``product``, ``release``, ``install`` (status,
pip commands, seconds, error), ``provenance`` (command, date, host python, the child's python, the exact
package versions of the venv, the explorer's version and commit), ``seconds`` and ``cells`` (case id ->
outcome: ``stage``, ``status``, ``error_type``, ``error``, ``error_text``, ``converted``, ``verdict``,
``max_abs_diff``, ``output_shape``, ``sha``, ``equals``, ``seconds``).

:func:`load` (declared in :mod:`explorer.advisor.matrix_data`, where the advisor reads the matrix, and
re-exported here) returns a :class:`Matrix` whose cells are queryable by runtime, release and case attributes:

>>> m = load()
>>> cells = m.query(runtime="onnxruntime", release=m.current("onnxruntime"), mode="linear",
...                 coordinate_transformation_mode="align_corners", group="attributes")
>>> len(cells) > 0 and all(c.case["mode"] == "linear" for c in cells)
True
>>> sorted({c.status for c in m.query(runtime="onnxruntime", dtype="float64")})
['error']
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

from ..advisor.matrix_data import DATA, Matrix, MatrixCell, load, read_json  # noqa: F401 - the readers, re-exported

FORMAT = 1
_RELEASE_FILE = re.compile(r"^(?P<runtime>[A-Za-z0-9_.]+?)-(?P<release>\d[^/]*)\.json$")


def release_path(runtime: str, release: str, data: Path = DATA) -> Path:
    return Path(data) / f"{runtime}-{release}.json"


# ------------------------------------------------------------------------------------------------ writing
def write_json(path, record) -> None:
    """``record`` as JSON, one line per entry of its ``cells`` or ``cases`` (small diffs between runs)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    lines = ["{"]
    items = list(record.items())
    for k, (key, value) in enumerate(items):
        end = "," if k < len(items) - 1 else ""
        if key == "cells" and isinstance(value, dict):
            inner = [f"  {json.dumps(cid)}: {json.dumps(cell, separators=(',', ':'))}" for cid, cell in value.items()]
            body = ",\n".join(inner)
            lines.append(f" {json.dumps(key)}: {{\n{body}\n }}{end}" if inner else f" {json.dumps(key)}: {{}}{end}")
        elif key == "cases" and isinstance(value, list):
            body = ",\n".join("  " + json.dumps(c, separators=(",", ":")) for c in value)
            lines.append(f" {json.dumps(key)}: [\n{body}\n ]{end}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{end}")
    lines.append("}")
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def write_cases(table, data: Path = DATA) -> None:
    """``cases.json``: the case table, merged with the one there (cases of other kinds kept)."""
    path = Path(data) / "cases.json"
    known = {c["id"]: c for c in read_json(path)["cases"]} if path.exists() else {}
    for case in table:
        known[case["id"]] = {k: v for k, v in case.items() if k not in ("index", "model_path", "input_path")}
    write_json(path, {"format": FORMAT, "cases": [known[k] for k in sorted(known)]})


def convention_index(labels, data: Path = DATA) -> list[int]:
    """Indices of ``labels`` in ``conventions.json``, appending new labels to it."""
    path = Path(data) / "conventions.json"
    known = read_json(path)["labels"] if path.exists() else []
    positions = {label: k for k, label in enumerate(known)}
    out = []
    for label in labels:
        if label not in positions:
            positions[label] = len(known)
            known.append(label)
        out.append(positions[label])
    write_json(path, {"format": FORMAT, "labels": known})
    return out


# ------------------------------------------------------------------------------------------------ rendering
LABELS = ("exact", "close", "differs", "shape", "no-reference", "error", "crash", "timeout", "skipped")
_ABBREVIATION = {"exact": "=", "close": "~", "differs": "≠", "shape": "shape", "no-reference": "?",
                 "error": "✗", "crash": "crash", "timeout": "timeout", "skipped": "–"}


def summary(matrix: Matrix, runtime: str, release: str, group: str | None = None) -> Counter:
    cells = matrix.query(runtime=runtime, release=release, **({"group": group} if group else {}))
    return Counter(c.label for c in cells)


def _count_text(counts: Counter) -> str:
    total = sum(counts.values())
    if not total:
        return ""
    ran = counts["exact"] + counts["close"]
    parts = [f"{ran}/{total}"]
    for label in ("differs", "shape", "error", "crash", "timeout"):
        if counts[label]:
            parts.append(f"{counts[label]}{_ABBREVIATION[label]}")
    return " ".join(parts)


def _gradient_text(cells) -> str:
    """``agreeing/taken`` gradients of call cells (compared with the explorer's backward), and failures."""
    agree = sum(c.outcome.get("gradient_verdict") in ("exact", "close") for c in cells)
    failed = sum(bool(c.outcome.get("gradient_error")) for c in cells)
    taken = sum(bool(c.outcome.get("gradient_verdict") or c.outcome.get("gradient_error")) for c in cells)
    if not taken:
        return ""
    return f"{agree}/{taken}" + (f" ({failed}✗)" if failed else "")


def readme_table(matrix: Matrix) -> str:
    """One row per runtime (its current release): cells agreeing with the explorer, and the rest; the gradients
    compared with the explorer's backward (framework calls)."""
    lines = ["| runtime | releases probed | current | agrees (exact + within rounding) | differs | shape | "
             "fails | crash/timeout | gradient agrees (fails) |", "|---|---|---|---|---|---|---|---|---|"]
    for runtime in matrix.runtimes():
        releases = matrix.release_list(runtime)
        current = releases[-1]
        info = matrix.releases[(runtime, current)]
        if info.get("install", {}).get("status") == "failed":
            lines.append(f"| {runtime} | {', '.join(releases)} | {current} | does not install | | | | | |")
            continue
        c = summary(matrix, runtime, current)
        total = sum(c.values())
        gradient = _gradient_text(matrix.release_cells(runtime, current))
        if c["skipped"] and not (c["exact"] + c["close"] + c["differs"] + c["shape"]):  # conversion only
            lines.append(f"| {runtime} | {', '.join(releases)} | {current} | converts {c['skipped']}/{total} (not run "
                         f"here) | | | {c['error']} | {c['crash'] + c['timeout']} | |")
            continue
        lines.append(f"| {runtime} | {', '.join(releases)} | {current} | {c['exact'] + c['close']}/{total} | "
                     f"{c['differs']} | {c['shape']} | {c['error']} | {c['crash'] + c['timeout']} | {gradient} |")
    return "\n".join(lines)


def groups_table(matrix: Matrix) -> str:
    """Runtime releases x case groups: ``agreeing/total`` and the counts of each other outcome."""
    groups = sorted({c.get("group", "") for c in matrix.cases.values()})
    lines = ["| runtime | release | " + " | ".join(groups) + " |", "|---|---|" + "---|" * len(groups)]
    for runtime in matrix.runtimes():
        for release in matrix.release_list(runtime):
            info = matrix.releases[(runtime, release)]
            if info.get("install", {}).get("status") == "failed":
                lines.append(f"| {runtime} | {release} | does not install: "
                             f"{_one_line(info['install'].get('error', ''))} |" + " |" * (len(groups) - 1))
                continue
            row = [_count_text(summary(matrix, runtime, release, g)) for g in groups]
            lines.append(f"| {runtime} | {release} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def error_line(outcome: dict) -> str:
    """The line of a cell's error a table shows: the first, unless the text opens with a source location
    (OpenVINO's ``Exception from src/...:84:``) or with the layer it happened in (Keras's ``Exception encountered
    when calling Resizing.call().``), then the line saying what went wrong."""
    first = outcome.get("error", "")
    if first.startswith(("Exception from ", "Exception encountered when calling ")) and outcome.get("message"):
        return outcome["message"]
    return first


def _one_line(text: str, width: int = 160) -> str:
    line = " ".join(text.split())
    line = line.replace("|", "\\|")
    return line if len(line) <= width else line[: width - 1] + "…"


def differences_table(matrix: Matrix, runtime: str, release: str) -> str:
    """The cells of one release that do not agree with the explorer: case, outcome, difference or error."""
    lines = ["| case | outcome | max abs diff / error | equals |", "|---|---|---|---|"]
    for cell in sorted(matrix.query(runtime=runtime, release=release), key=lambda c: c.case["id"]):
        if cell.label in ("exact", "close", "skipped"):
            continue
        if cell.status == "ok":
            detail = str(cell.outcome.get("max_abs_diff", ""))
            if cell.label == "shape":
                detail = f"{cell.outcome.get('output_shape')} (explorer: {cell.outcome.get('expected_shape')})"
        else:
            detail = f"{cell.outcome.get('stage') or ''}: {cell.outcome.get('error_type', '')}: " \
                     f"{_one_line(error_line(cell.outcome), 140)}"
        equals = ", ".join(matrix.equals(cell)[:4])
        lines.append(f"| `{cell.case['id']}` | {cell.label} | {detail} | {_one_line(equals, 120)} |")
    return "\n".join(lines) if len(lines) > 2 else "every cell agrees with the explorer"


def attribute_table(matrix: Matrix, group: str = "attributes") -> str:
    """Current releases x (mode, coordinate_transformation_mode) of the ``attributes`` sweep, and x
    ``nearest_mode``: ``agreeing/total`` (``✗`` when every cell fails), the view of which runtime computes which
    ONNX attribute differently from the explorer (ONNX Runtime's arithmetic)."""
    runtimes = [r for r in matrix.runtimes() if matrix.query(runtime=r, release=matrix.current(r), group=group)]
    rows = {}
    for runtime in runtimes:
        for cell in matrix.query(runtime=runtime, release=matrix.current(runtime), group=group):
            attributes = cell.case.get("attributes", {})
            ctm = attributes.get("coordinate_transformation_mode", "half_pixel")
            key = (cell.case["mode"], ctm)
            if cell.case["mode"] == "nearest":
                key += (attributes.get("nearest_mode", "round_prefer_floor"),)
            elif cell.case["mode"] == "cubic":
                key += (f"a={attributes.get('cubic_coeff_a', -0.75)}"
                        + (" excl" if attributes.get("exclude_outside") else ""),)
            else:
                key += ("",)
            rows.setdefault(key, {}).setdefault(runtime, Counter())[cell.label] += 1
    head = "| mode | coordinate_transformation_mode | rounding / cubic | " + " | ".join(
        f"{r} {matrix.current(r)}" for r in runtimes) + " |"
    lines = [head, "|---|---|---|" + "---|" * len(runtimes)]
    for key in sorted(rows):
        texts = []
        for runtime in runtimes:
            counts = rows[key].get(runtime, Counter())
            total = sum(counts.values())
            agree = counts["exact"] + counts["close"]
            fails = counts["error"] + counts["crash"] + counts["timeout"]
            texts.append("" if not total else ("✗" if fails == total else f"{agree}/{total}"))
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(texts) + " |")
    return "\n".join(lines)


KERAS_BACKENDS = ("keras-tensorflow", "keras-jax", "keras-torch")


def keras_backends_table(matrix: Matrix) -> str:
    """The same Keras call on its three backends (current releases), on the rows where they do not compute the
    same: a backend fails where another runs, or the conventions their outputs equal differ (each column shows
    the conventions only its output equals, or ``=`` when it equals every convention the others do)."""
    runtimes = [r for r in KERAS_BACKENDS if matrix.current(r)]
    if len(runtimes) < 2:
        return ""
    calls = {}
    for runtime in runtimes:
        for cell in matrix.query(runtime=runtime, release=matrix.current(runtime)):
            calls.setdefault(cell.case["id"].split("/", 1)[1], {})[runtime] = cell
    lines = ["| call (interpolation / options / dtype / geometry) | " + " | ".join(runtimes) + " |",
             "|---|" + "---|" * len(runtimes)]
    same = 0
    for call in sorted(calls):
        row = calls[call]
        ran = {r: c for r, c in row.items() if c.status == "ok"}
        sets = {r: set(matrix.equals(c)) for r, c in ran.items()}
        if len(ran) == len(row) and (len({frozenset(v) for v in sets.values()}) == 1 or
                                     len({c.outcome.get("sha") for c in ran.values()}) == 1):
            same += 1
            continue
        if not ran:
            same += 1  # fails everywhere: the groups table counts it
            continue
        common = set.intersection(*sets.values()) if sets else set()
        texts = []
        for runtime in runtimes:
            cell = row.get(runtime)
            if cell is None:
                texts.append("")
            elif cell.status != "ok":
                texts.append(f"✗ {_one_line(error_line(cell.outcome), 70)}")
            else:
                own = sorted(sets[runtime] - common)
                texts.append(", ".join(own[:2]) if own else ("=" if common else cell.label))
        lines.append(f"| `{call}` | " + " | ".join(texts) + " |")
    lines.append("")
    lines.append(f"{same} other calls compute the same on every backend (or fail on every one).")
    return "\n".join(lines)


def update_readme(text: str, table: str) -> str:
    """``text`` (the README) with the scoreboard between its ``<!-- matrix:start -->`` and
    ``<!-- matrix:end -->`` markers replaced by ``table``; unchanged when it has no markers."""
    start, end = "<!-- matrix:start -->", "<!-- matrix:end -->"
    if start not in text or end not in text:
        return text
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{table}\n{end}{tail}"


def render_docs(matrix: Matrix) -> str:
    """``docs/compatibility-matrix.md``."""
    out = ["# Compatibility matrix (measured)", "",
           "Every cell of an ONNX runtime is one ONNX `Resize`/`Upsample` node in a one-node model, run on a runtime "
           "release in a virtualenv of its own by `python -m explorer.probe`, and compared with what the explorer "
           "computes for the same node (`explorer.run_resize_node`, ONNX Runtime's CPU arithmetic). Every cell of a "
           "framework (torch, torch-onnx, tensorflow, jax, keras-*, litert) is one call of the framework "
           "(`explorer/probe/calls.py`), compared with the explorer's computation of that call "
           "(`explorer.library_resize` with the library's own options) and, where the framework trains, its "
           "gradient with the transpose of that forward. The data are "
           "`explorer/advisor/data/matrix/*.json` (one file per runtime release, with the exact package versions "
           "and the command that measured it); `explorer.probe.matrix.load()` reads them. The cases and their "
           "pruning rule are in `explorer/probe/cases.py`. The explorer's `onnx` preset was built to ONNX Runtime 1.32's "
           "CPU arithmetic, so the ONNX Runtime rows check the explorer and show what changed between its releases; "
           "the others show where a runtime computes a node otherwise. The ONNX reference evaluator is the spec as "
           "the onnx package writes it in numpy.", "",
           "Counts are `agreeing/total` (agreeing: equal in the output type, or within rounding of the dtype: "
           "1e-5 for float32 inputs in [0, 1), 2e-3 float16, 1.6e-2 bfloat16, one step for integers), then "
           "`N≠` outputs that differ, `Nshape` outputs of another shape, `N✗` cells that fail (convert, load or "
           "run), `Ncrash` / `Ntimeout` cells that killed or hung the runtime.", "",
           "## Summary (current releases)", "", readme_table(matrix), "",
           "## Every release, by case group", "", groups_table(matrix), "",
           "## Which runtime computes which attribute differently (current releases, the attributes sweep)", "",
           "Resize-13 (Resize-11 for `tf_half_pixel_for_nn`), float32, 2-D, four geometries each (up and down, by "
           "`sizes` and by non-integer `scales`): cells agreeing with the explorer out of those run; `✗`: every "
           "cell fails.", "", attribute_table(matrix), ""]
    keras = keras_backends_table(matrix)
    if keras:
        out += ["## The same Keras call on its three backends", "",
                "Each backend's cell is compared with the explorer's model of that backend; this table puts the "
                "backends side by side where the same call does not compute the same: a backend rejects it, or "
                "its output equals other conventions (float32 cells; `=`: only the conventions the others' "
                "outputs equal too).", "", keras, ""]
    for runtime in matrix.runtimes():
        for release in matrix.release_list(runtime):
            info = matrix.releases[(runtime, release)]
            prov = info.get("provenance", {})
            out += [f"## {runtime} {release}", ""]
            if info.get("install", {}).get("status") == "failed":
                out += ["Does not install:", "", "```", info["install"].get("error", ""), "```", ""]
                continue
            versions = ", ".join(f"{k} {v}" for k, v in sorted(prov.get("runtime_packages", {}).items()))
            out += [f"Measured {prov.get('date', '')} with `{prov.get('command', '')}` (python "
                    f"{prov.get('child_python', '')}; {versions}).", ""]
            if release == matrix.current(runtime):
                out += [differences_table(matrix, runtime, release), ""]
            else:
                newer = matrix.current(runtime)
                changed = release_changes(matrix, runtime, release, newer)
                out += [f"Cells whose outcome differs from {newer}: {len(changed)}", ""]
                if changed:
                    out += ["| case | this release | " + newer + " |", "|---|---|---|"]
                    out += [f"| `{cid}` | {a} | {b} |" for cid, a, b in changed[:40]]
                    if len(changed) > 40:
                        out.append(f"| … {len(changed) - 40} more | | |")
                    out.append("")
    return "\n".join(out).rstrip() + "\n"


def _cell_text(cell: MatrixCell | None) -> str:
    if cell is None:
        return "not run"
    if cell.status == "ok":
        diff = cell.outcome.get("max_abs_diff")
        return cell.label + (f" ({diff:.3g})" if isinstance(diff, float) and diff else "")
    return f"{cell.label}: {_one_line(error_line(cell.outcome), 90)}"


def release_changes(matrix: Matrix, runtime: str, release: str, other: str) -> list[tuple[str, str, str]]:
    """``(case id, outcome here, outcome in other)`` for cases whose label or output hash differ."""
    here = {c.case["id"]: c for c in matrix.query(runtime=runtime, release=release)}
    there = {c.case["id"]: c for c in matrix.query(runtime=runtime, release=other)}
    out = []
    for cid in sorted(set(here) | set(there)):
        a, b = here.get(cid), there.get(cid)
        same = a is not None and b is not None and a.label == b.label and \
            a.outcome.get("sha") == b.outcome.get("sha")
        if not same:
            out.append((cid, _cell_text(a), _cell_text(b)))
    return out

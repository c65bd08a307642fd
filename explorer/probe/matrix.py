"""The committed compatibility matrix: reading, writing, querying and rendering it.

The data live in ``explorer/advisor/data/matrix/``: ``cases.json`` (every case, by id, as
:mod:`explorer.probe.cases` made it), ``conventions.json`` (the labels that cells' ``equals`` lists index) and
one ``<runtime>-<release>.json`` per probed release: ``runtime``, ``product``, ``release``, ``install`` (status,
pip commands, seconds, error), ``provenance`` (command, date, host python, the child's python, the exact
package versions of the venv, the explorer's version and commit), ``seconds`` and ``cells`` (case id ->
outcome: ``stage``, ``status``, ``error_type``, ``error``, ``error_text``, ``converted``, ``verdict``,
``max_abs_diff``, ``output_shape``, ``sha``, ``equals``, ``seconds``).

:func:`load` returns a :class:`Matrix` whose cells are queryable by runtime, release and case attributes:

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
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "advisor" / "data" / "matrix"
FORMAT = 1
_RELEASE_FILE = re.compile(r"^(?P<runtime>[A-Za-z0-9_.]+?)-(?P<release>\d[^/]*)\.json$")


@dataclass(frozen=True)
class MatrixCell:
    """One measured cell: the runtime release, the case (a dict) and the outcome (a dict)."""

    runtime: str
    release: str
    case: dict
    outcome: dict

    @property
    def status(self) -> str:
        return self.outcome.get("status", "")

    @property
    def verdict(self) -> str | None:
        return self.outcome.get("verdict")

    @property
    def label(self) -> str:
        """``exact``/``close``/``differs``/``shape``/``no-reference`` when it ran, else its status (``error`` ..)."""
        if self.status == "ok":
            return self.verdict or "ok"
        return self.status

    def attribute(self, name):
        """A case field (``mode``, ``dtype``, ``opset``, ...) or a node attribute as the case sets it
        (``coordinate_transformation_mode`` ...; None when left at its default)."""
        if name in self.case:
            return self.case[name]
        return self.case.get("attributes", {}).get(name)


class Matrix:
    """Every committed cell, with the release files' provenance."""

    def __init__(self, cells, releases, cases, conventions):
        self.cells = list(cells)
        self.releases = releases      # (runtime, release) -> the release file's fields without cells
        self.cases = cases            # case id -> case
        self.conventions = conventions

    def runtimes(self) -> list[str]:
        return sorted({r for r, _ in self.releases})

    def release_list(self, runtime: str) -> list[str]:
        return sorted((v for r, v in self.releases if r == runtime), key=_version_key)

    def current(self, runtime: str) -> str | None:
        """The newest release of ``runtime`` in the matrix."""
        found = self.release_list(runtime)
        return found[-1] if found else None

    def provenance(self, runtime: str, release: str) -> dict:
        return self.releases[(runtime, release)].get("provenance", {})

    def query(self, runtime=None, release=None, **attributes) -> list[MatrixCell]:
        """Cells of ``runtime`` / ``release`` whose case has every given attribute (see
        :meth:`MatrixCell.attribute`); ``status=`` and ``verdict=`` filter on the outcome."""
        status = attributes.pop("status", None)
        verdict = attributes.pop("verdict", None)
        out = []
        for cell in self.cells:
            if runtime is not None and cell.runtime != runtime:
                continue
            if release is not None and cell.release != release:
                continue
            if status is not None and cell.status != status:
                continue
            if verdict is not None and cell.verdict != verdict:
                continue
            if all(cell.attribute(k) == v for k, v in attributes.items()):
                out.append(cell)
        return out

    def cell(self, runtime: str, release: str, case_id: str) -> MatrixCell | None:
        for c in self.cells:
            if c.runtime == runtime and c.release == release and c.case["id"] == case_id:
                return c
        return None

    def equals(self, cell: MatrixCell) -> list[str]:
        """The labels of the conventions the cell's output equals."""
        return [self.conventions[k] for k in cell.outcome.get("equals", ())]


def _version_key(release: str):
    parts = re.split(r"[.\-+]", release)
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts]


def release_path(runtime: str, release: str, data: Path = DATA) -> Path:
    return Path(data) / f"{runtime}-{release}.json"


def read_json(path) -> dict:
    with open(path) as fh:
        return json.load(fh)


def load(data=DATA) -> Matrix:
    """Every committed release file under ``data`` (default: the package's matrix folder)."""
    data = Path(data)
    cases_path = data / "cases.json"
    cases = {c["id"]: c for c in read_json(cases_path)["cases"]} if cases_path.exists() else {}
    conventions_path = data / "conventions.json"
    conventions = read_json(conventions_path)["labels"] if conventions_path.exists() else []
    cells, releases = [], {}
    for path in sorted(data.glob("*.json")):
        if path.name in ("cases.json", "conventions.json"):
            continue
        record = read_json(path)
        key = (record["runtime"], record["release"])
        releases[key] = {k: v for k, v in record.items() if k != "cells"}
        for case_id, outcome in record.get("cells", {}).items():
            case = cases.get(case_id, {"id": case_id})
            cells.append(MatrixCell(record["runtime"], record["release"], case, outcome))
    return Matrix(cells, releases, cases, conventions)


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


def readme_table(matrix: Matrix) -> str:
    """One row per runtime (its current release): cells agreeing with the explorer, and the rest."""
    lines = ["| runtime | releases probed | current | agrees (exact + within rounding) | differs | shape | "
             "fails | crash/timeout |", "|---|---|---|---|---|---|---|---|"]
    for runtime in matrix.runtimes():
        releases = matrix.release_list(runtime)
        current = releases[-1]
        info = matrix.releases[(runtime, current)]
        if info.get("install", {}).get("status") == "failed":
            lines.append(f"| {runtime} | {', '.join(releases)} | {current} | does not install | | | | |")
            continue
        c = summary(matrix, runtime, current)
        total = sum(c.values())
        lines.append(f"| {runtime} | {', '.join(releases)} | {current} | {c['exact'] + c['close']}/{total} | "
                     f"{c['differs']} | {c['shape']} | {c['error']} | {c['crash'] + c['timeout']} |")
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
    (OpenVINO's ``Exception from src/...:84:``), then the line saying what went wrong."""
    first = outcome.get("error", "")
    if first.startswith("Exception from ") and outcome.get("message"):
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


def render_docs(matrix: Matrix) -> str:
    """``docs/compatibility-matrix.md``."""
    out = ["# Compatibility matrix (measured)", "",
           "Every cell is one ONNX `Resize`/`Upsample` node in a one-node model, run on a runtime release in a "
           "virtualenv of its own by `python -m explorer.probe`, and compared with what the explorer computes "
           "for the same node (`explorer.run_resize_node`, ONNX Runtime's CPU arithmetic). The data are "
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

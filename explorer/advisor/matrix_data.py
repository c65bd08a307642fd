"""The committed compatibility matrix as the advisor reads it: :func:`load` gives a :class:`Matrix` of cells.

The data live in ``explorer/advisor/data/matrix/`` (written by ``python -m explorer.probe``; the writing and the
tables are :mod:`explorer.probe.matrix`): ``cases.json`` (every case, by id), ``conventions.json`` (the labels
that cells' ``equals`` lists index) and one ``<runtime>-<release>.json`` per probed release.

>>> m = load()
>>> m.current("torch"), len(m.query(runtime="torch", release="2.13.0", mode="bilinear")) > 0
('2.13.0', True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "matrix"


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
        """A case field (``mode``, ``dtype``, ``opset``, ...), a node attribute as the case sets it
        (``coordinate_transformation_mode`` ...; None when left at its default) or a call case's option."""
        if name in self.case:
            return self.case[name]
        if name in self.case.get("attributes", {}):
            return self.case["attributes"][name]
        return self.case.get("options", {}).get(name)


class Matrix:
    """Every committed cell, with the release files' provenance."""

    def __init__(self, cells, releases, cases, conventions):
        self.cells = list(cells)
        self.releases = releases      # (runtime, release) -> the release file's fields without cells
        self.cases = cases            # case id -> case
        self.conventions = conventions
        self._by_release = None

    def runtimes(self) -> list[str]:
        return sorted({r for r, _ in self.releases})

    def release_list(self, runtime: str) -> list[str]:
        return sorted((v for r, v in self.releases if r == runtime), key=version_key)

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

    def release_cells(self, runtime: str, release: str) -> list[MatrixCell]:
        """The cells of one release (indexed on first use)."""
        if self._by_release is None:
            self._by_release = {}
            for cell in self.cells:
                self._by_release.setdefault((cell.runtime, cell.release), []).append(cell)
        return self._by_release.get((runtime, release), [])

    def cell(self, runtime: str, release: str, case_id: str) -> MatrixCell | None:
        for c in self.cells:
            if c.runtime == runtime and c.release == release and c.case["id"] == case_id:
                return c
        return None

    def equals(self, cell: MatrixCell) -> list[str]:
        """The labels of the conventions the cell's output equals."""
        return [self.conventions[k] for k in cell.outcome.get("equals", ())]


class LazyMatrix(Matrix):
    """The matrix of a folder read one release file at a time, when a question needs it (``check()`` of one
    release reads that file and ``cases.json``, not every file).  The release of a file is in its name,
    ``<runtime>-<release>.json``; :attr:`cells` (every cell) reads them all.

    >>> m = LazyMatrix(DATA)
    >>> ("torch", "2.13.0") in m.releases, len(m.release_cells("torch", "2.13.0")) > 0
    (True, True)
    """

    def __init__(self, data=DATA):
        self._data = Path(data)
        self._paths = {}
        for path in sorted(self._data.glob("*.json")):
            named = re.match(r"(.+?)-(\d.*)$", path.stem)
            if path.name not in ("cases.json", "conventions.json") and named:
                self._paths[(named.group(1), named.group(2))] = path
        self._records, self._cells, self._cases, self._conventions = {}, {}, None, None
        self._by_release = None
        self.releases = _LazyReleases(self)

    @property
    def cases(self) -> dict:
        if self._cases is None:
            path = self._data / "cases.json"
            self._cases = {c["id"]: c for c in read_json(path)["cases"]} if path.exists() else {}
        return self._cases

    @property
    def conventions(self) -> list:
        if self._conventions is None:
            path = self._data / "conventions.json"
            self._conventions = read_json(path)["labels"] if path.exists() else []
        return self._conventions

    def _read(self, key) -> None:
        if key in self._records or key not in self._paths:
            return
        record = read_json(self._paths[key])
        if (record["runtime"], record["release"]) != key:
            raise ValueError(f"{self._paths[key].name} holds {record['runtime']} {record['release']}: a release "
                             "file is named <runtime>-<release>.json")
        self._records[key] = {k: v for k, v in record.items() if k != "cells"}
        self._cells[key] = [MatrixCell(key[0], key[1], self.cases.get(i, {"id": i}), outcome)
                            for i, outcome in record.get("cells", {}).items()]

    @property
    def cells(self) -> list:
        for key in self._paths:
            self._read(key)
        return [c for key in self._paths for c in self._cells[key]]

    def release_cells(self, runtime: str, release: str) -> list[MatrixCell]:
        self._read((runtime, release))
        return self._cells.get((runtime, release), [])


class _LazyReleases(Mapping):
    """(runtime, release) -> the release file's fields without cells, read on first look."""

    def __init__(self, matrix: LazyMatrix):
        self._matrix = matrix

    def __getitem__(self, key):
        self._matrix._read(key)
        return self._matrix._records[key]

    def __iter__(self):
        return iter(self._matrix._paths)

    def __len__(self):
        return len(self._matrix._paths)

    def __contains__(self, key):
        return key in self._matrix._paths


def version_key(release: str):
    parts = re.split(r"[.\-+]", release)
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts]


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

"""The committed matrix parses, every cell names a case of the current case table and has an outcome, and
every release file has its provenance; files stay small enough to commit."""

import json

import pytest

from explorer.probe import matrix
from explorer.probe.cases import cases

DATA = matrix.DATA
RELEASE_FILES = sorted(p for p in DATA.glob("*.json") if p.name not in ("cases.json", "conventions.json"))
STATUSES = {"ok", "error", "crash", "timeout", "skipped"}
VERDICTS = {"exact", "close", "differs", "shape", "no-reference"}


def test_there_is_data():
    assert (DATA / "cases.json").exists() and len(RELEASE_FILES) >= 5


def test_the_case_table_is_what_cases_makes():
    committed = {c["id"]: c for c in json.loads((DATA / "cases.json").read_text())["cases"]}
    made = {c["id"]: c for c in cases()}
    assert set(made) <= set(committed)
    for case_id, case in made.items():
        assert committed[case_id] == case, case_id


@pytest.mark.parametrize("path", RELEASE_FILES, ids=lambda p: p.stem)
def test_release_file(path):
    assert path.stat().st_size < 600_000, f"{path.name} has {path.stat().st_size} bytes"
    record = json.loads(path.read_text())
    assert path.name == f"{record['runtime']}-{record['release']}.json"
    assert record["install"]["status"] in ("ok", "reused", "external", "failed")
    prov = record["provenance"]
    for key in ("command", "date", "host_python", "harness"):
        assert prov.get(key), (path.name, key)
    assert prov["command"].startswith("python -m explorer.probe")
    labels = matrix.read_json(DATA / "conventions.json")["labels"]
    known = {c["id"] for c in json.loads((DATA / "cases.json").read_text())["cases"]}
    if record["install"]["status"] == "failed":
        assert record["install"]["error"] and not record["cells"]
        return
    assert prov.get("packages") and prov.get("child_python")
    assert record["cells"], path.name
    for case_id, cell in record["cells"].items():
        assert case_id in known, case_id
        assert cell["status"] in STATUSES, (case_id, cell)
        if cell["status"] == "ok":
            assert cell["verdict"] in VERDICTS and "output_shape" in cell, (case_id, cell)
            assert all(0 <= k < len(labels) for k in cell.get("equals", ())), case_id
        elif cell["status"] != "skipped":
            assert cell.get("error"), (case_id, cell)


def test_load_queries_by_runtime_release_and_case():
    data = matrix.load()
    runtime = "onnxruntime"
    release = data.current(runtime)
    assert release == data.release_list(runtime)[-1]
    cells = data.query(runtime=runtime, release=release, mode="cubic", dtype="int8")
    assert cells and all(c.case["mode"] == "cubic" and c.case["dtype"] == "int8" for c in cells)
    every = data.query(runtime=runtime, release=release)
    assert len(every) == len({c.case["id"] for c in every})
    assert data.query(runtime=runtime, release=release, coordinate_transformation_mode="align_corners",
                      group="attributes")
    assert not data.query(runtime="no-such-runtime")


def test_the_docs_page_is_rendered_from_the_committed_data():
    page = DATA.parents[2].parent / "docs" / "compatibility-matrix.md"
    assert page.read_text() == matrix.render_docs(matrix.load()), "rewrite it: python -m explorer.probe --render"


def test_no_matrix_file_names_a_folder_of_the_machine_that_measured_it():
    """Texts are kept as the runtime printed them, but the places of the measuring machine's checkout, venvs and
    home are replaced (``<cases>``, ``<work>``, ``PYTHON`` ...): a committed file reads the same from any clone."""
    import re
    from pathlib import Path

    found = []
    for path in sorted(Path(matrix.DATA).glob("*.json")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.name}: {m.group(0)}" for m in re.finditer(r"/(?:work|home|root|Users)/[^\"' ]{0,60}", text)]
    assert not found, found[:10]


def test_the_lazy_matrix_reads_what_load_reads():
    """check() reads the committed matrix one release file at a time: the same releases, provenance and cells."""
    from explorer.advisor.matrix_data import LazyMatrix
    eager, lazy = matrix.load(), LazyMatrix()
    assert set(lazy.releases) == set(eager.releases) and len(lazy.releases) == len(eager.releases)
    key = ("openvino", eager.current("openvino"))
    assert lazy.release_cells(*key) == eager.release_cells(*key) and len(lazy._records) == 1  # one file read
    assert all(lazy.releases[k] == eager.releases[k] for k in eager.releases)
    assert lazy.cells == eager.cells and lazy.conventions == eager.conventions

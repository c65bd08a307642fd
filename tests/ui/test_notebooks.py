"""Every notebook in notebooks/ runs top to bottom in a real kernel, and is committed without outputs.

A cell that raises fails the test with the cell's traceback.  Kernels import this checkout's ``explorer``
(``PYTHONPATH`` is set to the repository root) and use private Jupyter and IPython directories.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK_DIR = REPO / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


@pytest.fixture(scope="module")
def kernel_env():
    """PYTHONPATH -> this checkout, and private IPython/Jupyter dirs, for the kernels nbclient starts."""
    names = ("PYTHONPATH", "IPYTHONDIR", "JUPYTER_RUNTIME_DIR", "MPLBACKEND")
    saved = {k: os.environ.get(k) for k in names}
    with tempfile.TemporaryDirectory(prefix="explorer-nb-") as home:
        os.environ["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [saved["PYTHONPATH"]] if p])
        os.environ["IPYTHONDIR"] = str(Path(home) / "ipython")
        os.environ["JUPYTER_RUNTIME_DIR"] = str(Path(home) / "runtime")
        os.environ.pop("MPLBACKEND", None)  # the notebooks choose their own backend
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def test_there_are_notebooks():
    names = {nb.name for nb in NOTEBOOKS}
    assert "explorer.ipynb" in names, names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path):
    """Outputs and execution counts are cleared, so diffs show only what a person wrote."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    dirty = [i for i, cell in enumerate(nb.cells)
             if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} have outputs; clear them before committing"
    assert "widgets" not in nb.metadata, f"{path.name}: saved widget state in the metadata; clear it"


#: Notebooks whose figures are checked as a reader sees them (tests/figure_checks.py): text of 12 px or more
#: on screen, a labelled colorbar for every colour-mapped image, titles clear of other panels, and a width
#: that fits the notebook's column.
FIGURE_CHECKED = ("tour_of_the_modes", "gradients", "backends_and_fixes", "porting_between_libraries",
                  "scanning_a_model")


def with_figure_checks(nb):
    """``nb`` with figure_checks installed after its ``%matplotlib inline`` cell and a last cell that fails
    with every problem found."""
    first = next(i for i, cell in enumerate(nb.cells)
                 if cell.cell_type == "code" and "%matplotlib inline" in cell.source)
    tests = str(Path(__file__).resolve().parents[1])
    install = (f"import sys\nsys.path.insert(0, {tests!r})\nimport figure_checks\nfigure_checks.install()")
    verdict = ("assert figure_checks.CHECKED, 'no figure was checked'\n"
               "assert not figure_checks.FIGURE_PROBLEMS, '\\n'.join(figure_checks.FIGURE_PROBLEMS)")
    nb.cells.insert(first + 1, nbformat.v4.new_code_cell(install))
    nb.cells.append(nbformat.v4.new_code_cell(verdict))
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path, kernel_env):
    nb = nbformat.read(path, as_version=4)
    if path.stem in FIGURE_CHECKED:
        nb = with_figure_checks(nb)
    started = time.monotonic()
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    errors = [out for cell in nb.cells if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    assert not errors
    print(f"{path.name}: {time.monotonic() - started:.1f} s")

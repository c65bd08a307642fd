"""The README stays true: its code runs, its table is what the presets compute, its test command is CI's."""

import pathlib
import re

import numpy as np

import explorer
from explorer.conventions import conventions_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _python_blocks():
    return re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_python_examples_run():
    blocks = _python_blocks()
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - the README's own examples
    assert namespace["y"].shape == (1, 3, 62, 90) and namespace["gx"].shape == namespace["x"].shape
    assert namespace["W"].shape == (62, 37)


def test_five_line_api_matches_the_engine():
    x = np.random.default_rng(0).random((1, 3, 37, 53)).astype(np.float32)
    y = explorer.interpolate(x, scale_factor=1.7, mode="bicubic")
    assert y.dtype == np.float32 and y.shape == (1, 3, 62, 90)


def test_conventions_table_is_the_one_the_presets_compute():
    assert conventions_table() in README


def test_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    command = "pip install -e '.[lab,test,oracles,browser]' && python -m pytest"
    assert command in README and command in ci


def test_benchmark_table_is_present_with_its_command():
    assert "python benchmarks/bench_resize.py" in README
    assert re.search(r"\| W1 1x3x512²→1024² \| bilinear \|", README)


def test_fidelity_table_is_present_with_its_command():
    assert "python -m pytest tests/conventions/test_fidelity_*.py --fidelity-table" in README
    for library in ("torch", "tensorflow", "jax", "onnxruntime", "opencv", "pillow"):
        assert re.search(rf"\| {library} \| float32 \| [0-9.e+-]+ \|", README), library


def test_the_matrix_scoreboard_is_the_committed_data():
    """`python -m explorer.probe --render` wrote the README's scoreboard from the committed matrix."""
    from explorer.probe import matrix

    table = matrix.readme_table(matrix.load())
    assert f"<!-- matrix:start -->\n{table}\n<!-- matrix:end -->" in README
    assert matrix.update_readme(README, table) == README
    assert matrix.update_readme("no markers", table) == "no markers"

"""A library, a runtime and a tab are each one declaration: a toy of each, declared in this module alone by the
recipes of docs/architecture.md ("Where a new thing goes"), shows up everywhere the package lists or uses them.

The toy library ``toyresize`` has two modes: ``Near`` (PyTorch's nearest: floor of i*n/m) and ``Lin`` (linear
with align_corners).  The toy runtime ``toyrt`` has one backend that computes with it and whose ``Near`` has no
gradient (a record in a data file written here).  The toy tab ``toy`` has one setting of its own.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

import explorer
from explorer.conventions import equivalent, library_resize, preset, presets, registry
from explorer.conventions.declarations import Api, Backend, Computation, Runtime
from explorer.conventions.registry import Library, Option, register
from explorer.engine.spec import Spec

ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
ERROR = "toyrt: Near has no gradient (toy backward missing)"


# --- A library (recipe) ---------------------------------------------------------------------------------------
# 1. Write one module in `conventions/libraries/` with a `Library` subclass.  (Here: this test module.)
class ToyResize(Library):
    # 2. Give it an `id`, a `title`, its `aliases` and its `mode_names` (each native mode name -> its mode family).
    id = "toyresize"
    title = "Toy toyresize.resize"
    aliases = ("toy-resize",)
    mode_names = {"Near": "nearest", "Lin": "linear"}
    # 3. Give it `options` and a `spec(mode, options)` that returns the Spec of each mode.
    options = (Option("corners", True, (True, False)),)

    def spec(self, mode, options):
        if mode == "Near":
            return Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
        return Spec("linear", coordinate_transformation_mode="align_corners" if options["corners"] else "half_pixel")

    # 4. Override only the hooks where it differs from the defaults (`registry.py` lists them all).
    def output_length(self, n, factor, options):
        return int(n * factor)

    # 5. Write its own call as code in `code(mode, options, h, w)`.
    def code(self, mode, options, h, w):
        return "python", f'y = toyresize.resize(x, ({h}, {w}), mode="{mode}")'

    # 6. Declare its public API as `apis` rows (and `constants`, `codes`) so the linter reads calls of it.
    apis = (Api("toyresize.resize", ("x", "size", "mode"),
                defaults={"mode": "Lin", "align_corners": None, "antialias": False}, rank=2),)


# --- A runtime (recipe) ---------------------------------------------------------------------------------------
# 1. In the same module (or its own), declare a `Runtime` with its `id`, `title`, `backends`, and the `words`
#    and `version_markers` of its error texts.
# 2. Give each `Backend` its `devices`, its mode `spelling` (a library id, or its own `modes` table), what it
#    `computes` for a question (a `Computation`: a library preset or a bare Spec) and how it `writes` its call.
def _computes(q, spatial=None, out=None, intended=True):
    return Computation("toyresize", q.mode, {"corners": q.align_corners is not False} if q.mode == "Lin" else {})


def _writes(q, h, w, size, scale_factor):
    return "python", f'y = toyrt.run(x, ({h}, {w}), "{q.mode}")'


def toy_runtime(data_file: str) -> Runtime:
    return Runtime(id="toyrt", title="Toy runtime", data_file=data_file, words=("toyrt",),
                   version_markers=("toyrt==",),
                   backends=(Backend("toyrt", "the toy runtime", ("cpu", "toypu"), "python", spelling="toyresize",
                                     computes=_computes, writes=_writes),))


# 3. Write its knowledge base file `advisor/data/<id>.toml`: a `[runtime]` table (`scope`, `newest`,
#    `scope_source`) and its `[[record]]`s.  (Here a file in a temporary folder, named by `data_file`.)
DATA = f'''
[runtime]
scope = ">=1.0,<2.0"
newest = "1.2.0"
scope_source = "the toy's own releases 1.0.0 ... 1.2.0, invented for this test"

[[record]]
id = "toyrt-near-no-backward"
backends = ["toyrt"]
versions = ">=1.1"
modes = ["Near"]
operation = "backward"
status = "fails"
error_type = "RuntimeError"
error_text = "{ERROR}"
message = "toyrt has no gradient for Near: training stops at the first backward."
source = "measured: the toy runtime of tests/test_declarations.py"
evidence = "measured"
[record.bounds]
since = "the toy's 1.1.0 removed the gradient (invented)"
'''


@pytest.fixture(scope="module")
def toys(tmp_path_factory):
    data = tmp_path_factory.mktemp("toyrt") / "toyrt.toml"
    data.write_text(DATA)
    # 7. Register it: `LIBRARY = register(MyLibrary())`.  (The library's last step.)
    library = register(ToyResize())
    # 4. Register it: `RUNTIME = register(Runtime(...))`.  (The runtime's last step.)
    runtime = register(toy_runtime(str(data)))
    yield library, runtime
    registry.unregister("toyresize")
    registry.unregister("toyrt")


# --- the library shows up ---------------------------------------------------------------------------------------
def test_the_library_is_a_preset_and_resizes(toys):
    assert preset("toyresize", "Lin") == Spec("linear", coordinate_transformation_mode="align_corners")
    assert preset("Toy-Resize", "nearest") == preset("toyresize", "Near")  # an alias, and a family's name
    assert {(r.library, r.mode) for r in presets("toyresize")} == {("toyresize", "Near"), ("toyresize", "Lin")}
    assert "toyresize" in explorer.conventions.conventions_table()
    x = np.random.default_rng(0).random((1, 1, 7, 5))
    got = library_resize(x, (3, 9), library="toyresize", mode="Lin")
    np.testing.assert_allclose(got, library_resize(x, (3, 9), library="torch", mode="bilinear",
                                                   align_corners=True), atol=1e-12)
    assert library_resize(x, library="toyresize", mode="Near", scale_factor=2.0, axes=(2, 3)).shape == (1, 1, 14, 10)
    assert equivalent(preset("toyresize", "Near"), preset("torch", "nearest"), 7, 3)


def test_the_library_is_in_the_explorer_and_writes_its_own_call(toys):
    pytest.importorskip("ipywidgets")
    from explorer.ui.app import App
    from explorer.ui.compute.libraries import compute_libraries

    app = App(worker=False)
    assert "toyresize" in app.controls["library"].widget.options
    assert "toyresize" in app.controls["libraries"].widget.options
    app.set(tab="libraries", libraries=("torch", "toyresize"), mode="bilinear", size=(12, 10))
    assert app.tabs["libraries"].data is not None
    assert 'toyresize.resize(x, (12, 10), mode=&quot;Lin&quot;)' in app.tabs["libraries"].calls.value
    data = compute_libraries(np.random.default_rng(1).random((8, 8, 1)).astype(np.float32), "nearest",
                             ["torch", "toyresize"], size=(4, 4))
    np.testing.assert_array_equal(data.outputs["toyresize"], data.outputs["torch"])


def test_scan_lists_the_library_among_the_equivalents(toys):
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 7, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 3, 9])
    node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="up", mode="nearest",
                            coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[sizes]),
                              opset_imports=[helper.make_opsetid("", 13)])
    [scanned] = explorer.scan(model)
    assert ("toyresize", "Near") in {(e["library"], e["mode"]) for e in scanned.equivalents}
    [on_toy] = explorer.scan(model, backend="toyrt", training=True)
    assert "toyrt-near-no-backward" in {f.record_id for f in on_toy.findings}


# --- the runtime shows up ---------------------------------------------------------------------------------------
def test_check_answers_for_the_runtime_from_its_records(toys):
    errors = [f for f in explorer.check(mode="nearest", backend="toyrt", training=True) if f.severity == "error"]
    assert [f.record_id for f in errors] == ["toyrt-near-no-backward"] and errors[0].error_text == ERROR
    assert not explorer.check(mode="Near", backend="toyrt", training=True, version="1.0.5")  # before the bound
    assert not [f for f in explorer.check(mode="Lin", backend="toyrt") if f.severity == "error"]
    with pytest.raises(ValueError, match="toypu"):
        explorer.check(mode="Near", backend="toyrt", device="mps")
    info = next(b for b in explorer.backends() if b.id == "toyrt")
    assert info.devices == ("cpu", "toypu") and info.newest == "1.2.0" and "1.1" in info.versions


def test_diagnose_knows_the_runtime_and_its_words(toys):
    d = explorer.diagnose(f"Traceback (most recent call last):\n  ...\nRuntimeError: {ERROR}")
    assert d.matched and d.findings[0].record_id == "toyrt-near-no-backward"
    from explorer.advisor.clues import read_clues

    clues = read_clues("toyrt==1.1.3 crashed")
    assert "toyrt" in clues.runtimes and clues.versions.get("toyrt") == "1.1.3"


def test_fixes_and_code_come_from_the_declaration(toys):
    x = np.random.default_rng(2).random((1, 1, 6, 6)).astype(np.float32)
    suggestions = explorer.suggest_fixes(x, mode="Near", backend="toyrt", size=(12, 12), training=False)
    assert suggestions.setup.backend.id == "toyrt"
    from explorer.advisor.question import Question
    from explorer.advisor.snippets import resize_code

    assert resize_code(Question.of(mode="Lin", backend="toyrt"), (4, 5)) == ("python",
                                                                             'y = toyrt.run(x, (4, 5), "Lin")')


def test_lint_reads_calls_of_the_library(toys, tmp_path):
    source = tmp_path / "model.py"
    source.write_text(textwrap.dedent("""
        import toyresize

        def forward(x):
            return toyresize.resize(x, (8, 8), mode="Near")
        """))
    report = explorer.advisor.lint(str(tmp_path), backend="toyrt", training=True)
    assert any(issue.record_id == "toyrt-near-no-backward" for issue in report), list(report)


# --- A tab (recipe) -----------------------------------------------------------------------------------------------
def toy_tab():
    from explorer.ui.app import settings as S
    from explorer.ui.app.declared import Setting, register_tab
    from explorer.ui.app.tabs import Tab

    # 1. Write a `Tab` subclass (in `ui/app/tabs.py`, or any module imported before the app is built).
    class ToyTab(Tab):
        # 2. Give it a `name`, a `title`, the state `keys` it redraws on and its own `controls`.
        name, title = "toy", "Toy"
        keys = ("image", "scale", "toy_level")
        controls = ("toy_level",)
        # 3. Declare the settings only it uses in `settings`, each a `Setting` with its default, check and widget.
        settings = (Setting("toy_level", 2, S.int_range("toy_level", 1, 9), S.int_slider("level", 1, 9)),)

        # 4. Write its `compute` (numbers, from the engine) and `draw` (HTML of the figure, caption, what was
        #    drawn), and `option_targets` when align_corners and antialias act on other modes than the current one.
        def compute(self, snap):
            return {"level": snap.state["toy_level"], "shape": snap.image.shape}

        def draw(self, data, snap):
            return f"<p class='toy'>level {data['level']}</p>", "the toy tab", data

        @classmethod
        def option_targets(cls, state):
            return ("nearest",), ("torch",)

    # 5. Register it with `@register_tab`.
    return register_tab(ToyTab)


@pytest.fixture
def tab():
    pytest.importorskip("ipywidgets")
    from explorer.ui.app.declared import unregister_tab

    cls = toy_tab()
    yield cls
    unregister_tab(cls.name)


def test_the_tab_is_in_the_app_with_its_setting(tab):
    from explorer.ui.app import App, DEFAULTS, TABS
    from explorer.ui.app.applies import disabled

    assert TABS[-1] == "toy" and DEFAULTS["toy_level"] == 2
    app = App(worker=False)
    assert "toy_level" in app.controls and app.controls["toy_level"].widget.value == 2
    app.tab_widget.selected_index = list(app.tabs).index("toy")  # a click on the tab
    assert app.state["tab"] == "toy" and "level 2" in app.tabs["toy"].figure.value
    app.set(toy_level=7)
    assert "level 7" in app.tabs["toy"].figure.value and app.controls["toy_level"].widget.value == 7
    with pytest.raises(ValueError, match="toy_level=12 is not valid"):
        app.set(toy_level=12)
    assert disabled(app.state, "toy")["align_corners"].startswith("align_corners does not apply to nearest")
    assert app.config()["toy_level"] == 7
    reopened = App(worker=False, config=app.config())
    assert reopened.state["toy_level"] == 7 and reopened.state["tab"] == "toy"


# --- the recipes are the ones written down ------------------------------------------------------------------------
def _recipe(title: str) -> list[str]:
    text = ARCHITECTURE.read_text()
    block = text.split(f"- **{title}** (recipe):", 1)[1].split("\n- **", 1)[0]
    steps = re.findall(r"^\s+\d\.\s+(.*?)(?=^\s+\d\.\s|^\s+No other|\Z)", block, re.S | re.M)
    return [" ".join(step.split()) for step in steps]


@pytest.mark.parametrize("title", ["A library", "A runtime", "A tab"])
def test_this_module_follows_each_recipe_word_for_word(title):
    steps = _recipe(title)
    assert len(steps) >= 4, steps
    here = " ".join(re.sub(r"^\s*#\s?", "", line) for line in Path(__file__).read_text().splitlines()
                    if line.strip().startswith("#"))
    here = " ".join(here.split())
    for step in steps:
        assert step in here, f"docs/architecture.md's step is not followed here: {step!r}"

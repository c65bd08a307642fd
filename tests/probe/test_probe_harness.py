"""The probe's core on a fake adapter: one cell raising, one crashing its process, one hanging; the others still
run, every cell is recorded with its exact text, and the release file carries its provenance."""

import json
import os
import sys
import textwrap

import numpy as np
import pytest

from explorer.probe import harness, matrix, runner
from explorer.probe.cases import cases, make_input

FAKE = textwrap.dedent('''
    """A fake runtime: the identity on nearest-mode cases, with planted failures."""
    import os, signal, sys, time

    NAME = "fake"
    PRODUCT = "fake"
    KINDS = ("onnx",)
    PACKAGES = ("numpy",)
    RELEASES = ("1.0",)
    CURRENT = "1.0"
    REPEATS = 2

    def install(release):
        return [["--no-index", "probe-no-such-package==" + release]]

    def version():
        return "1.0"

    def run(case, inputs, cell):
        cell.note("explorer imported: %s" % ("explorer" in sys.modules))
        with cell.stage("load"):
            if case["id"] == os.environ["FAKE_RAISE"]:
                raise ValueError("planted failure\\nsecond line")
        with cell.stage("run"):
            if case["id"] == os.environ["FAKE_CRASH"]:
                os.kill(os.getpid(), signal.SIGSEGV)
            if case["id"] == os.environ["FAKE_HANG"]:
                time.sleep(600)
            if case["id"] == os.environ["FAKE_SKIP"]:
                cell.skip("not this one")
            cell.converted({"layer": "Copy"})
            if case["id"] == os.environ["FAKE_UNSTABLE"]:  # another output each time it runs
                cell.output(inputs["X"] + time.perf_counter_ns() % 1000)
                return
            cell.output(inputs["X"].copy())
        if case["id"] == os.environ["FAKE_GRADIENT"]:
            with cell.stage("gradient"):
                raise NotImplementedError("no gradient here")
''')


@pytest.fixture()
def fake(tmp_path, monkeypatch):
    path = tmp_path / "fake.py"
    path.write_text(FAKE)
    table = [c for c in cases("edges") if c["mode"] == "linear"][:8]
    ids = [c["id"] for c in table]
    monkeypatch.setenv("FAKE_RAISE", ids[1])
    monkeypatch.setenv("FAKE_CRASH", ids[3])
    monkeypatch.setenv("FAKE_HANG", ids[5])
    monkeypatch.setenv("FAKE_SKIP", ids[6])
    monkeypatch.setenv("FAKE_UNSTABLE", ids[7])
    monkeypatch.setenv("FAKE_GRADIENT", ids[4])
    return path, table, ids


def test_one_failing_cell_never_aborts_the_run(fake, tmp_path):
    path, table, ids = fake
    prepared = harness.prepare_cases(table, str(tmp_path / "shared"))
    record = harness.probe_release(str(path), "1.0", prepared, str(tmp_path), str(tmp_path / "venvs"),
                                   tmp_path / "data", python=sys.executable, cell_timeout=5,
                                   command="python -m explorer.probe --runtime fake", log=lambda *a: None)
    cells = record["cells"]
    assert list(cells) == ids                      # every cell has an outcome, in order
    raised = cells[ids[1]]
    assert (raised["status"], raised["stage"], raised["error_type"]) == ("error", "load", "ValueError")
    assert raised["error"] == "planted failure"
    assert raised["error_text"] == "planted failure\nsecond line"
    crashed = cells[ids[3]]
    assert crashed["status"] == "crash" and "SIGSEGV" in crashed["error"]
    assert crashed["stage"] == "run"               # the stage it had entered when the process died
    hung = cells[ids[5]]
    assert hung["status"] == "timeout" and "5 s" in hung["error"] and hung["stage"] == "run"
    assert cells[ids[6]]["status"] == "skipped"
    for k in (0, 2, 4, 7):                         # before and after the crash and the hang
        assert cells[ids[k]]["status"] == "ok", cells[ids[k]]
        assert cells[ids[k]]["converted"] == {"layer": "Copy"}
        assert cells[ids[k]]["notes"][0] == "explorer imported: False"
        assert cells[ids[k]].get("unstable", False) == (k == 7)
    assert "outputs differ by up to" in cells[ids[7]]["notes"][-1]
    # a gradient that fails leaves the forward's outcome and comparison in place
    assert cells[ids[4]]["stage"] == "gradient" and "verdict" in cells[ids[4]]
    assert cells[ids[4]]["gradient_error"]["error"] == "no gradient here"
    # the identity is what the explorer computes only where the output keeps the input's shape
    for k in (0, 2, 4):
        case = table[k]
        same = case["output_shape"] == case["input_shape"]
        assert (cells[ids[k]]["verdict"] == "exact") == same, (case["id"], cells[ids[k]])
    assert record["provenance"]["restarts"] == 2


def test_the_release_file_has_provenance(fake, tmp_path):
    path, table, _ = fake
    prepared = harness.prepare_cases(table[:1], str(tmp_path / "shared"))
    harness.probe_release(str(path), "1.0", prepared, str(tmp_path), str(tmp_path / "venvs"), tmp_path / "data",
                          python=sys.executable, command="python -m explorer.probe --runtime fake",
                          log=lambda *a: None)
    written = json.loads((tmp_path / "data" / "fake-1.0.json").read_text())
    prov = written["provenance"]
    assert prov["command"] == "python -m explorer.probe --runtime fake"
    assert prov["date"][:2] == "20" and prov["host_python"] and prov["child_python"]
    assert prov["runtime_packages"]["numpy"] == np.__version__
    assert prov["harness"]["explorer"] and len(prov["harness"].get("commit", "x" * 40)) == 40
    assert written["install"]["status"] == "external"
    loaded = matrix.load(tmp_path / "data")
    assert loaded.release_list("fake") == ["1.0"]


def test_a_release_that_does_not_install_is_recorded(fake, tmp_path):
    path, table, _ = fake
    adapter = harness.load_adapter(str(path))
    install = runner.ensure_venv(adapter, "1.0", str(tmp_path / "venvs"), log=lambda *a: None)
    assert install.status == "failed" and install.python is None
    assert "probe-no-such-package" in install.error
    assert not os.path.exists(runner.venv_dir(str(tmp_path / "venvs"), "fake", "1.0"))  # not reused broken


def test_a_child_dying_before_any_cell_marks_every_cell(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("NAME = 'broken'\nRELEASES = ('1',)\ndef version():\n    import no_such_runtime_module\n")
    table = cases("crop")[:3]
    prepared = harness.prepare_cases(table, str(tmp_path / "shared"))
    result = runner.run_cells(str(path), sys.executable, prepared, str(tmp_path / "run"), cell_timeout=30)
    assert {o["status"] for o in result.outcomes.values()} == {"error"}
    assert {o["error"] for o in result.outcomes.values()} == {"No module named 'no_such_runtime_module'"}


def test_comparison_finds_a_one_sample_change():
    case = next(c for c in cases("attributes") if c["mode"] == "linear")
    x = make_input(case)
    from explorer.probe.compare import compare, reference

    y = reference(case, x)[0].copy()
    assert compare(case, x, y, equals=False)["verdict"] == "exact"
    y[0, 0, 0, 0] += 0.01
    fields = compare(case, x, y, equals=False)
    assert fields["verdict"] == "differs" and fields["differing"] == 1
    assert abs(fields["max_abs_diff"] - 0.01) < 1e-6


def test_an_output_of_unwritten_memory_is_a_verdict_not_a_warning():
    """OpenVINO's cubic resize of an NHWC input can return memory it never wrote, signalling NaNs included: the
    comparison records the difference (inf) instead of raising a floating-point warning from the casts."""
    import warnings

    from explorer.probe.compare import compare, reference

    case = next(c for c in cases("attributes") if c["mode"] == "linear")
    x = make_input(case)
    y = reference(case, x)[0].astype(np.float32)
    bits = y.view(np.uint32)
    bits.flat[0] = 0x7FA00000  # a signalling NaN
    bits.flat[-1] = 0x00000006  # a denormal, as unwritten memory holds
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fields = compare(case, x, y, equals=False)
    assert fields["verdict"] == "differs" and fields["max_abs_diff"] == "inf"
    assert fields["differing"] >= 1


USER = textwrap.dedent('''
    NAME = "user"

    def install():
        return load_sibling("{stem}").install()  # noqa: F821 (given by the loader)
''')


@pytest.fixture()
def siblings(tmp_path):
    """A folder of adapters sharing a sibling ``stem``.py (``write(stem, code)``); its modules unregistered after."""
    def write(stem, code):
        (tmp_path / f"{stem}.py").write_text(textwrap.dedent(code))
        (tmp_path / "user.py").write_text(USER.format(stem=stem))
        names.append("probe_adapter_" + stem)
        return str(tmp_path / "user.py")

    names = ["probe_adapter_user"]
    yield write
    for name in names:
        sys.modules.pop(name, None)


def test_threads_loading_one_sibling_at_once_each_get_it_whole(siblings):
    """``--jobs`` threads probing releases of one runtime load its shared sibling (``_keras.py``) together: none
    may get the module while its code still runs (``module 'probe_adapter__keras' has no attribute 'install'``),
    and the sibling's code runs once."""
    import threading

    user = siblings("_slow_shared", '''
        import os, time
        with open(os.path.join(os.path.dirname(__file__), "runs.txt"), "a") as f:
            f.write("x")
        time.sleep(0.3)  # the sibling's imports take a while (numpy, the runtime)

        def install():
            return "installed"
    ''')
    start = threading.Barrier(8)
    results, errors = [], []

    def job():
        start.wait()
        try:
            results.append(harness.load_adapter(user).install())
        except Exception as exc:  # noqa: BLE001 - collected, asserted below
            errors.append(f"{type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=job) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert errors == [] and results == ["installed"] * 8
    with open(os.path.join(os.path.dirname(user), "runs.txt")) as f:
        assert f.read() == "x"


def test_a_sibling_whose_code_raised_is_loaded_again(siblings):
    """A sibling whose code fails is not left registered half run: the next call runs it again."""
    user = siblings("_flaky_shared", '''
        import os
        marker = os.path.join(os.path.dirname(__file__), "failed-once")
        if not os.path.exists(marker):
            open(marker, "w").close()
            raise RuntimeError("the first load fails")

        def install():
            return "installed"
    ''')
    adapter = harness.load_adapter(user)
    with pytest.raises(RuntimeError, match="the first load fails"):
        adapter.install()
    assert adapter.install() == "installed"

"""The Backends figure is the advisor's answers: explorer.check per mode and use, suggest_fixes measured."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.conventions.image_resize import MODES  # noqa: E402
from explorer.ui.compute.backends import STATUSES, compute_backends  # noqa: E402
from explorer.ui.views.backends import (BackendsView, backends_figure,  # noqa: E402
                                     findings_text)


IMAGE = np.random.default_rng(1).random((24, 32, 3)).astype(np.float32)
SIZES = dict(input_size=(24, 32), output_size=(12, 16))


def worst(findings, operations):
    levels = [f.severity for f in findings if f.operation in operations and f.severity != "info"]
    return max(levels, key=STATUSES.index, default="ok")


@pytest.mark.parametrize("backend,device", [("torch", "mps"), ("torch", "cuda"), ("burn-wgpu", None),
                                            ("tensorflow", None)])
def test_every_cell_is_the_worst_finding_of_check(backend, device):
    data = compute_backends(MODES, backend, device=device, antialias=True, image=IMAGE, scale=0.5)
    view = BackendsView().update(data)
    grid = view.images["grid"].get_array()
    for i, mode in enumerate(MODES):
        aa = mode in ("bilinear", "bicubic", "lanczos")  # the app's antialias=True where the mode takes it
        fwd = worst(explorer.check(mode=mode, backend=backend, device=device, antialias=aa, training=False,
                                   **SIZES), ("forward", "convention", None))
        bwd = worst(explorer.check(mode=mode, backend=backend, device=device, antialias=aa, training=True,
                                   **SIZES), ("backward",))
        if fwd == "error":
            bwd = "error"
        assert data.status[(mode, "forward")] == fwd
        assert data.status[(mode, "backward")] == bwd
        assert grid[i, data.uses.index("backward")] == STATUSES.index(bwd)
        assert view.cells[(mode, "backward")].get_text() in "✓!≠✗"


def test_lanczos_is_checked_as_the_app_runs_it_antialiased():
    data = compute_backends(["lanczos"], "torch", device="cpu", antialias=False, image=IMAGE, scale=0.5)
    assert data.status[("lanczos", "forward")] == "ok"  # PyTorch lanczos requires antialias=True


def test_known_gaps_show_up():
    mps = compute_backends(MODES, "torch", device="mps", antialias=True)
    assert mps.status[("bicubic", "backward")] == "error"  # AA backward missing on MPS in 2.13
    assert mps.status[("lanczos", "forward")] == "error"  # lanczos is CPU only
    cpu = compute_backends(MODES, "torch", device="cpu", antialias=True)
    assert cpu.status[("bicubic", "backward")] == "ok"


def test_findings_and_measured_fixes_of_the_current_mode():
    data = compute_backends(MODES, "torch", device="mps", antialias=True, mode="bicubic", image=IMAGE,
                            scale=0.5)
    x = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None]
    direct = explorer.suggest_fixes(x, mode="bicubic", backend="torch", device="mps", antialias=True,
                                    scale_factor=0.5)
    assert [str(f) for f in data.fixes] == [str(f) for f in direct]
    assert any(f.exact for f in data.fixes)
    text = findings_text(data)
    assert "error" in text and "fix 1." in text


def test_without_training_only_forward_uses_are_shown():
    data = compute_backends(["nearest"], "torch", training=False)
    assert "backward" not in data.uses and "forward" in data.uses


def test_backends_figure_lists_the_findings():
    fig = backends_figure(["nearest", "bicubic"], "torch", device="mps", antialias=True, mode="bicubic")
    texts = " ".join(t.get_text() for t in fig.texts)
    assert "forward-only on MPS" in texts


def test_fixes_are_offered_only_where_something_fails_and_an_unmeasurable_one_is_said_in_the_panel():
    from explorer.ui.app import App
    from explorer.ui.app.tabs import findings_html, fix_code

    works = compute_backends(["bilinear"], "torch", mode="bilinear", image=IMAGE, scale=0.5)
    assert set(works.status.values()) == {"ok"}
    assert works.fixes == [] and works.nothing_to_fix and "nothing to fix" in findings_html(works)
    fails = compute_backends(["bilinear"], "coreml", mode="bilinear", image=IMAGE, scale=0.5)
    assert fails.status[("bilinear", "backward")] == "error" and fails.fixes  # measured, where it fails
    # a mode the backend does not have: its own modes, measured against the mode it lacks
    ported = compute_backends(["lanczos"], "onnxruntime", mode="lanczos", image=IMAGE, scale=0.5, antialias=True)
    assert ported.status[("lanczos", "forward")] == "error" and ported.error is None
    assert [fx.mode for fx in ported.fixes][:1] == ["cubic"] and "measured against torch lanczos" in str(ported.fixes[0])
    assert "fixes, measured on this image" in findings_html(ported) and "onnx" in fix_code(ported).lower()
    # Core ML has no bicubic, and none of its modes trains: every candidate is said with why, in the panel
    missing = compute_backends(["bicubic"], "coreml", mode="bicubic", image=IMAGE, scale=0.5)
    assert missing.status[("bicubic", "forward")] == "error" and not missing.fixes and missing.rejected
    assert "no candidate fix runs on this setup" in findings_html(missing)
    assert "for inference" in findings_html(missing)
    assert fix_code(missing).startswith("# no candidate fix runs")
    inference = compute_backends(["bicubic"], "coreml", mode="bicubic", image=IMAGE, scale=0.5, training=False)
    assert inference.fixes and inference.fixes[0].backend == "coreml"
    app = App(IMAGE, tab="backends", backend="coreml", mode="bicubic")
    assert app.message_text == ""  # no app-level error: the panel says why


def test_device_fixes_only_for_the_chosen_device():
    """With the backend's default device, no fix for one device (the MPS fallback, moving to the CPU) is offered;
    choosing mps offers them, measured."""
    from explorer.ui.app.tabs import findings_html, fix_code
    from explorer.ui.compute.backends import DEVICE_FIX_KINDS

    default = compute_backends(MODES, "torch", mode="bilinear", antialias=True, image=IMAGE, scale=0.5)
    assert "PYTORCH_ENABLE_MPS_FALLBACK" not in fix_code(default)
    assert not any(fx.kind in DEVICE_FIX_KINDS for fx in default.fixes)
    assert default.device_fixes and "offered once a device is chosen" in findings_html(default)
    mps = compute_backends(MODES, "torch", device="mps", mode="bilinear", antialias=True, image=IMAGE, scale=0.5)
    assert "export PYTORCH_ENABLE_MPS_FALLBACK=1" in fix_code(mps) and mps.device_fixes == []


def test_the_grid_says_which_shared_settings_decide_it():
    """On nearest (antialias greyed out: nearest does not take it) the tab still says the grid's bilinear,
    bicubic and lanczos cells are judged with antialias=True."""
    from explorer.ui.views.backends import backends_html

    data = compute_backends(MODES, "torch", mode="nearest", antialias=True, image=IMAGE, scale=0.5)
    text = backends_html(data)
    assert "antialias=True for bilinear, bicubic, lanczos; greyed out above because nearest does not take it" in text
    off = compute_backends(MODES, "torch", mode="bilinear", antialias=False, image=IMAGE, scale=0.5)
    text = backends_html(off)  # lanczos is always antialiased: said as such
    assert "antialias=False for bilinear, bicubic, antialias=True for lanczos ·" in text and "greyed out" not in text


def test_the_fix_code_box_says_why_it_is_empty():
    """Where nothing fails the code box is one line saying so (it was an empty eight-line box); where fixes
    are measured it holds their code."""
    from explorer.ui.app import App

    app = App(IMAGE, tab="backends", backend="torch", mode="bilinear")
    box = app.tabs["backends"].code
    assert box.value == "" and "neither fails nor differs" in box.placeholder and box.layout.height == "40px"
    app.set(backend="coreml")  # bilinear does not train on Core ML: measured fixes, with code
    assert box.value and box.placeholder == "" and box.layout.height == "160px"

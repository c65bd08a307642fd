"""Real-browser tests: the explorer notebook opened in JupyterLab and served by Voila, driven by Debian's
chromium through Playwright.

Each test waits for the widgets and the figure, changes controls through the page as a person would (the
scale slider's text box, the antialias box, the Kernels tab, the mode dropdown), and waits until the figure
in the page shows exactly the pixels of the same figure rendered in the test process from the engine's
output.  Screenshots go to ``test-artifacts/``; ``UPDATE_DOCS_SCREENSHOT=1`` also copies the Voila one to
``docs/explorer.png``.
"""

from __future__ import annotations

import html
import os
import re
import time
from pathlib import Path

import numpy as np
import pytest

import servers
import ui

pytestmark = [pytest.mark.browser,
              # ipympl's toolbar, built in this process for the replica, passes traitlets an old-style argument
              pytest.mark.filterwarnings("ignore:Passing unrecognized arguments to super\\(Toolbar\\)")]

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "explorer.ipynb"
DOC_SCREENSHOT = REPO / "docs" / "explorer.png"

# What the tests do through the page, in order: (what, value, the tab whose figure must then match).  The
# same changes are applied to the in-process replica with ``app.set``.
STEPS = [("scale", 0.75, "modes"), ("antialias", True, "modes"), ("tab", "kernels", "kernels"),
         ("mode", "nearest-exact", "kernels")]


@pytest.fixture(scope="module", autouse=True)
def _restore_matplotlib_backend():
    """The replicas switch this process to ipympl; later test modules get their backend back."""
    import matplotlib.pyplot as plt

    previous = plt.get_backend()
    yield
    plt.close("all")
    plt.switch_backend(previous)


def replica():
    """The notebook's ``app`` built in this process, with the same backend as the kernel (ipympl), so its
    figure renders to the pixels the page should show."""
    import matplotlib.pyplot as plt
    import nbformat

    plt.switch_backend("module://ipympl.backend_nbagg")

    nb = nbformat.read(NOTEBOOK, as_version=4)
    namespace: dict = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        code = "\n".join(line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!")))
        exec(compile(code, f"<{NOTEBOOK.name}>", "exec"), namespace)
    return namespace["app"]


def apply_in_page(root, name, value):
    """Make one change the way a person would: choose in a dropdown, type in a slider's box, tick a box,
    click a tab."""
    if name == "mode":
        ui.select(root, ".explorer-mode", value)
    elif name == "scale":
        ui.type_slider_value(root, ".explorer-scale", value)
    elif name == "antialias":
        box = root.locator(".explorer-antialias input[type=checkbox]")
        box.set_checked(bool(value))
    elif name == "tab":
        root.locator(".explorer-tabs .lm-TabBar-tab").filter(has_text=re.compile(f"^{value}$", re.I)).click()
    else:
        raise ValueError(name)


def apply_in_replica(app, name, value):
    app.set(**{name: value})


def figure_canvas(root, tab):
    return root.locator(f".explorer-figure-{tab} .jupyter-matplotlib-canvas-div canvas").first


def text_of(markup: str) -> str:
    """The text a browser shows for an HTML widget's value."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", markup))).strip()


def drive(page, name: str, timings: dict, shot: str | None = None):
    """Wait for the explorer, then make each change in the page and wait for the engine's exact figure."""
    from playwright.sync_api import expect

    started = time.monotonic()
    root = page.locator(".explorer-root")
    expect(root).to_have_count(1, timeout=ui.LONG)
    expect(root.locator(".explorer-mode select")).to_be_visible(timeout=ui.LONG)
    canvas = figure_canvas(root, "modes")
    expect(canvas).to_be_visible(timeout=ui.LONG)

    app = replica()
    ui.wait_pixels(lambda: ui.canvas_rgba(canvas), ui.figure_rgba(app.figure()), timeout=60,
                   name=f"{name}-initial")
    timings[f"{name}: widgets and figure drawn"] = time.monotonic() - started
    if shot:
        ui.screenshot(page, f"{shot}-initial.png")

    for control, value, tab in STEPS:
        t = time.monotonic()
        canvas = figure_canvas(root, tab)
        before = ui.figure_rgba(app.figure(tab))
        apply_in_page(root, control, value)
        apply_in_replica(app, control, value)
        expect(root.locator(".explorer-readout")).to_have_text(text_of(app.readout.value), timeout=30_000)
        expected = ui.figure_rgba(app.figure(tab))
        if control != "tab":
            assert not np.array_equal(expected, before), f"changing {control} should change the {tab} figure"
        expect(canvas).to_be_visible(timeout=30_000)
        ui.wait_pixels(lambda: ui.canvas_rgba(canvas), expected, timeout=30, name=f"{name}-{tab}-{control}")
        timings[f"{name}: {control} -> {value}"] = time.monotonic() - t
        if shot:
            root.screenshot(path=str(ui.artifact(f"{shot}-{tab}-after-{control}.png")))
    expect(root.locator(".explorer-message")).to_have_text(text_of(app.message.value))
    assert page.errors == [], page.errors
    return root, app


@pytest.fixture(scope="module")
def timings():
    record: dict = {}
    yield record
    for key, seconds in record.items():
        print(f"  {key}: {seconds:.1f} s")


def test_explorer_in_voila(chromium, timings):
    """The standalone page: ``voila notebooks/explorer.ipynb`` shows the explorer without code cells."""
    from playwright.sync_api import expect

    t = time.monotonic()
    with servers.voila(NOTEBOOK, keep_log=ui.artifact("voila.log")) as server:
        timings["voila: server up"] = time.monotonic() - t
        page = ui.new_page(chromium)
        try:
            page.goto(server.url())
            drive(page, "voila", timings, shot="voila")
            expect(page.locator("body")).not_to_contain_text("import explorer")  # no code cells on the page
            ui.screenshot(page, "voila-after-changes.png")
            # the README's picture: the explorer as the standalone page shows it, on the Modes tab
            # (refreshed only on request, so running the tests leaves the work tree clean)
            if os.environ.get("UPDATE_DOCS_SCREENSHOT") == "1":
                DOC_SCREENSHOT.parent.mkdir(exist_ok=True)
                DOC_SCREENSHOT.write_bytes(ui.artifact("voila-modes-after-antialias.png").read_bytes())
        except Exception:
            ui.screenshot(page, "voila-failure.png")
            raise
        finally:
            page.context.close()
    timings["voila: whole test"] = time.monotonic() - t


def test_explorer_in_jupyterlab(chromium, timings):
    """What the README's `jupyter lab notebooks/explorer.ipynb` opens: Run All, then drive the controls."""
    t = time.monotonic()
    with servers.jupyter_lab(NOTEBOOK, keep_log=ui.artifact("jupyterlab.log")) as server:
        timings["lab: server up"] = time.monotonic() - t
        page = ui.new_page(chromium)
        try:
            ui.open_lab_notebook(page, server, NOTEBOOK.name)
            timings["lab: kernel idle"] = time.monotonic() - t
            ui.lab_run_all(page)
            drive(page, "lab", timings, shot="lab")
            ui.wait_lab_idle(page)
            assert ui.lab_cell_errors(page) == []
            ui.screenshot(page, "lab-after-changes.png")
        except Exception:
            ui.screenshot(page, "lab-failure.png")
            raise
        finally:
            page.context.close()
    timings["lab: whole test"] = time.monotonic() - t

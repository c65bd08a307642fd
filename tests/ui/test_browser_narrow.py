"""The explorer where the window is narrow, and what a screen reader hears, in a real browser (Debian chromium
through Playwright).

* JupyterLab with its file-browser sidebar open at 1280x720, and the same window at 150% browser zoom (a
  853x480 CSS-pixel viewport at device pixel ratio 1.5: what Chromium lays out when zoomed to 150%): on every
  tab nothing in the app scrolls sideways or reaches past its right edge, and the Kernels figure is drawn
  whole inside its box (the narrow layout: panels shrink by one factor per row, rows of controls and the
  tabs wrap, tables tighten).
* Voila: no element has the tooltip "null"; every figure image has a label of what it shows; the log-scale
  slider announces the scale, not its log10; a greyed-out control says why, visibly; the controls' text grows
  to 18 px at 1920 while 1280x720 keeps the figure on the first screen.

Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import servers
import browser_support as ui

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "explorer.ipynb"
TABS = ("Modes", "Gradients", "Kernels", "Libraries", "Backends", "Pick a mode")
NAMES = {"Modes": "modes", "Gradients": "gradients", "Kernels": "kernels", "Libraries": "libraries",
         "Backends": "backends", "Pick a mode": "pick"}


@pytest.fixture(scope="module")
def lab_server():
    with servers.jupyter_lab(NOTEBOOK, keep_log=ui.artifact("jupyterlab-narrow.log")) as server:
        yield server


@pytest.fixture(scope="module")
def voila_server():
    with servers.voila(NOTEBOOK, keep_log=ui.artifact("voila-narrow.log")) as server:
        yield server


def wait_tab(page, root, title):
    """Show a tab and wait until its figure is drawn (panels, the SVG or the table) and the page is still."""
    from playwright.sync_api import expect

    ui.click_tab(root, title)
    figure = root.locator(f".explorer-figure-{NAMES[title]}")
    # the first shown: the Kernels figure holds two layouts, the one the box's width calls for is displayed
    expect(figure.locator("img[data-key], svg, table").filter(visible=True).first).to_be_visible(timeout=ui.LONG)
    expect(root.locator(".explorer-busy-mark")).to_have_text("", timeout=ui.LONG)
    page.wait_for_timeout(400)  # images decoded and laid out
    return figure


@pytest.mark.parametrize("name,width,height,ratio", [("1280x720", 1280, 720, 1), ("1280x720-zoom150", 853, 480, 1.5)])
def test_jupyterlab_with_the_sidebar_never_scrolls_sideways(chromium, lab_server, name, width, height, ratio):
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": width, "height": height}, device_scale_factor=ratio)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    try:
        ui.open_lab_notebook(page, lab_server, NOTEBOOK.name)
        sidebar = page.locator("#jp-left-stack")
        expect(sidebar).to_be_visible()
        assert sidebar.bounding_box()["width"] >= 200, "the file-browser sidebar is not open"
        ui.lab_run_all(page)
        root = page.locator(".explorer-root")
        expect(root).to_have_count(1, timeout=ui.LONG)
        output = page.locator(".jp-OutputArea-output").filter(has=root)
        for title in TABS:
            figure = wait_tab(page, root, title)
            assert ui.sideways_overflow(root) == [], (title, ui.sideways_overflow(root))
            assert ui.beyond_right_edge(root) == [], (title, ui.beyond_right_edge(root))
            assert output.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), title
            if title == "Kernels":  # the whole figure inside its box: not cut off, not scrolled, text readable
                check_kernels_figure(figure)
            ui.shoot_app(page, f"lab-narrow-{name}-{NAMES[title]}.png")  # after measuring: it makes the window tall
        assert ui.lab_cell_errors(page) == []
        assert page.errors == [], page.errors
    finally:
        context.close()


def check_kernels_figure(figure):
    """The Kernels figure drawn whole inside its box, in the layout its width calls for: its smallest text
    12 CSS px or more (a narrow box shows the stacked layout)."""
    box = figure.bounding_box()
    svgs = [s.bounding_box() for s in figure.locator("svg").all()]
    shown = [s for s in svgs if s and s["width"] > 0]
    assert len(shown) == 1, svgs  # one layout shown
    svg = shown[0]
    assert svg["x"] >= box["x"] - 1 and svg["x"] + svg["width"] <= box["x"] + box["width"] + 1, (box, svg)
    assert svg["width"] >= 0.5 * box["width"], (box, svg)
    px, text = ui.min_font_px(figure)
    assert px >= 11.9, f"the Kernels figure's text {text!r} is {px:.1f} CSS px in a {box['width']:.0f} px box"


@pytest.mark.parametrize("name,width,height,ratio", [("1280x720-zoom150", 853, 480, 1.5),
                                                     ("1280x720", 1280, 720, 1), ("1920x1080", 1920, 1080, 1)])
def test_the_kernels_figure_text_stays_readable_at_150_percent_zoom(chromium, voila_server, name, width, height,
                                                                  ratio):
    """Voila at 150% browser zoom (853 CSS px wide): the Kernels figure switches to its stacked layout, whose
    text stays 12 CSS px and more; in a wide window it keeps the wide layout."""
    from playwright.sync_api import expect

    context = chromium.new_context(viewport={"width": width, "height": height}, device_scale_factor=ratio)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    try:
        page.goto(voila_server.url() + "&tab=kernels")
        root = page.locator(".explorer-root")
        expect(root).to_have_count(1, timeout=ui.LONG)
        figure = root.locator(".explorer-figure-kernels")
        expect(figure.locator("svg").first).to_be_attached(timeout=ui.LONG)
        expect(root.locator(".explorer-busy-mark")).to_have_text("", timeout=ui.LONG)
        page.wait_for_timeout(400)
        check_kernels_figure(figure)
        wide = figure.locator(".xf-svg-wide svg").bounding_box()
        assert (wide is not None and wide["width"] > 0) == (width >= 1280), (name, wide)
        ui.screenshot(page, f"voila-kernels-{name}.png")
        assert page.errors == [], page.errors
    finally:
        context.close()


def open_voila(chromium, server, query="", width=1280, height=720):
    from playwright.sync_api import expect

    page = ui.new_page(chromium, width=width, height=height)
    page.goto(server.url() + query)
    root = page.locator(".explorer-root")
    expect(root).to_have_count(1, timeout=ui.LONG)
    return page, root


def test_what_a_screen_reader_hears(chromium, voila_server):
    from playwright.sync_api import expect

    page, root = open_voila(chromium, voila_server)
    try:
        handle = root.locator(".explorer-scale [role=slider]").first
        expect(handle).to_have_attribute("aria-valuetext", "scale 0.4x", timeout=ui.LONG)
        ui.type_text(root, ".explorer-scale-text", "0.75")
        expect(handle).to_have_attribute("aria-valuetext", "scale 0.75x", timeout=30_000)
        for title in TABS:
            figure = wait_tab(page, root, title)
            nulls = page.evaluate("() => document.querySelectorAll('[title=\"null\"]').length")
            assert nulls == 0, f"{title}: {nulls} elements have the tooltip 'null'"
            alts = figure.evaluate("(el) => [...el.querySelectorAll('img[data-key]')].map(i => i.alt)")
            for alt in alts:  # the panel's title, then what its row draws
                assert re.match(r"^.+: .{10,}$", alt), (title, alt)
            if title in ("Modes", "Gradients", "Libraries"):
                assert len(alts) >= 6, (title, alts)
            if title == "Kernels":
                svg = figure.locator("[role=img]:visible")  # the layout shown (the other is display: none)
                expect(svg).to_have_count(1)
                assert "one axis" in svg.get_attribute("aria-label")
        assert page.errors == [], page.errors
    finally:
        page.context.close()


def test_a_greyed_out_control_says_why(chromium, voila_server):
    """On Pick, antialias is greyed out (Pick ranks every mode with and without it): the page says so in words,
    and on Backends with nearest the grid says which antialias setting it is judged with."""
    from playwright.sync_api import expect

    page, root = open_voila(chromium, voila_server, "&tab=pick")
    try:
        wait_tab(page, root, "Pick a mode")
        expect(root.locator(".explorer-antialias input")).to_be_disabled()
        expect(root.locator(".explorer-greyed")).to_contain_text("antialias: Pick a mode ranks every mode both "
                                                                 "with and without antialias")
        disabled = root.evaluate("""(el) => [...el.querySelectorAll('input:disabled, select:disabled')]
            .filter(e => e.getBoundingClientRect().width > 0)
            .map(e => [...e.closest('[class*=explorer-]').classList].find(c => c.startsWith('explorer-')))""")
        greyed = root.locator(".explorer-greyed").inner_text()
        for css in disabled:
            assert css.removeprefix("explorer-").replace("-", "_") in greyed, (css, greyed)
        ui.click_tab(root, "Backends")
        ui.select(root, ".explorer-tab-backends .explorer-mode", "nearest")
        expect(root.locator(".explorer-grid-settings")).to_contain_text(
            "antialias=False for bilinear, bicubic, antialias=True for lanczos; greyed out above because nearest "
            "does not take it",
            timeout=ui.LONG)
        expect(root.locator(".explorer-antialias input")).to_be_disabled()
        ui.screenshot(page, "voila-greyed-backends-nearest.png")
        assert page.errors == [], page.errors
    finally:
        page.context.close()


def control_text_px(root) -> float:
    """The smallest font size of the labels and values of the shared controls and the visible tab's, in CSS
    pixels."""
    return root.evaluate("""(el) => Math.min(...[...el.querySelectorAll(['.widget-label', '.widget-label-basic span',
        'select', 'input[type=text]', 'input[type=number]', 'button', '.widget-readout'].map(s =>
        `.explorer-controls ${s}, .explorer-tab-controls ${s}`).join(', '))]
        .filter(e => e.getBoundingClientRect().width > 0).map(e => parseFloat(getComputedStyle(e).fontSize)))""")


def test_control_text_grows_with_the_window(chromium, voila_server):
    sizes = {}
    for width, height in ((1280, 720), (1920, 1080)):
        page, root = open_voila(chromium, voila_server, "", width, height)
        try:
            wait_tab(page, root, "Modes")
            sizes[width] = control_text_px(root)
            top = root.locator(".explorer-figure-modes img[data-key]").first.evaluate(
                "(el) => el.getBoundingClientRect().top")
            ui.screenshot(page, f"voila-controls-{width}x{height}.png")
            assert ui.sideways_overflow(root) == [], (width, ui.sideways_overflow(root))
            if width == 1280:
                assert top < 720 - 150, f"the first panel starts at y={top:.0f} of 720"
        finally:
            page.context.close()
    assert sizes[1280] >= 13 and sizes[1920] >= 18, sizes

"""The explorer projected in a lecture, in a real browser (Voila, Debian chromium through Playwright): the figure
on the first screen at 1280x720 (also with a lesson open), text that grows with the window (18 px and more at
1920), a link that keeps its size, a plain click in a compare list.  Screenshots at 1280x720 and 1920x1080 go
to ``test-artifacts/``."""

from __future__ import annotations

from pathlib import Path

import pytest
import servers
import browser_support as ui

from explorer.ui.app import App
from explorer.ui.scenarios import SCENARIOS
from explorer.ui.views.html_figure import row_zoom

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "explorer.ipynb"


@pytest.fixture(scope="module")
def voila_server():
    with servers.voila(NOTEBOOK, keep_log=ui.artifact("voila-lecture.log")) as server:
        yield server


def open_page(chromium, server, query="", width=1280, height=720):
    from playwright.sync_api import expect

    page = ui.new_page(chromium, width=width, height=height)
    page.goto(server.url() + query)
    root = page.locator(".explorer-root")
    expect(root).to_have_count(1, timeout=ui.LONG)
    return page, root


def first_figure_top(root, tab="modes") -> float:
    """The page y of the first panel image of ``tab``'s figure (the page scrolled to its top)."""
    from playwright.sync_api import expect

    img = root.locator(f".explorer-figure-{tab} img[data-key]").first
    expect(img).to_be_visible(timeout=ui.LONG)
    return img.evaluate("(el) => el.getBoundingClientRect().top")


def figure_text_px(root, tab="modes") -> float:
    """The smallest font size of the figure's panel titles and row labels, in CSS pixels."""
    return root.locator(f".explorer-figure-{tab}").evaluate("""(el) => Math.min(...[...el.querySelectorAll(
        '.xf-title, .xf-row')].map(e => parseFloat(getComputedStyle(e).fontSize)))""")


def test_the_figure_is_on_the_first_screen_at_1280x720(chromium, voila_server):
    page, root = open_page(chromium, voila_server)
    try:
        top = first_figure_top(root)
        ui.screenshot(page, "lecture-1280x720-modes.png")
        assert top < 720 - 150, f"the first panel starts at y={top:.0f} of 720"
        page.goto(voila_server.url() + "&scenario=aliasing")
        root = page.locator(".explorer-root")
        top = first_figure_top(root)
        ui.screenshot(page, "lecture-1280x720-lesson-aliasing.png")
        assert top < 720 - 150, f"with a lesson open, the first panel starts at y={top:.0f} of 720"
        assert page.errors == [], page.errors
    finally:
        page.context.close()


def test_text_grows_with_the_window(chromium, voila_server):
    sizes = {}
    for width, height in ((1280, 720), (1920, 1080)):
        page, root = open_page(chromium, voila_server, "&scenario=checkerboard", width, height)
        try:
            first_figure_top(root, "gradients")
            sizes[width] = figure_text_px(root, "gradients")
            ui.screenshot(page, f"lecture-{width}x{height}-checkerboard.png")
        finally:
            page.context.close()
    assert sizes[1280] >= 13 and sizes[1920] >= 18, sizes


def test_a_linked_size_opens_at_that_size(chromium, voila_server):
    from playwright.sync_api import expect

    page, root = open_page(chromium, voila_server, "&size=64x48")
    try:
        replica = App(query="size=64x48")
        expect(root.locator(".explorer-readout")).to_contain_text("→ 64×48 (size 64×48)", timeout=ui.LONG)
        page.wait_for_timeout(3000)  # the page's own echo of the widgets' values has arrived by now
        expect(root.locator(".explorer-readout")).to_contain_text("→ 64×48 (size 64×48)")
        expect(root.locator(".explorer-copy-link")).to_have_attribute("data-query", replica.link_query())
    finally:
        page.context.close()


def test_a_plain_click_adds_a_mode_to_compare(chromium, voila_server):
    from playwright.sync_api import expect

    page, root = open_page(chromium, voila_server)
    try:
        first_figure_top(root)
        root.locator(".explorer-tab-modes .explorer-modes button", has_text="area").first.click()
        expect(root.locator(".explorer-figure-modes img[data-key='output:area']")).to_be_visible(timeout=ui.LONG)
        expect(root.locator(".explorer-figure-modes img[data-key='output:nearest']")).to_be_visible()
    finally:
        page.context.close()


@pytest.mark.parametrize("name", ["checkerboard", "clean-fid"])
def test_a_lesson_screenshot_at_1920(chromium, voila_server, name):
    page, root = open_page(chromium, voila_server, f"&scenario={name}", 1920, 1080)
    try:
        first_figure_top(root, SCENARIOS[name].changes["tab"])
        page.wait_for_timeout(1000)
        ui.screenshot(page, f"lecture-1920x1080-{name}.png")
        assert page.errors == [], page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_every_panel_of_a_row_has_one_zoom(chromium, voila_server, width, height):
    """The input and its shrunk outputs at one whole zoom: an output is never drawn larger than its input."""
    page, root = open_page(chromium, voila_server, "", width, height)
    try:
        first_figure_top(root)
        page.wait_for_timeout(500)
        zooms = {key: w / nw for key, nw, nh, w, h in ui.zooms(root, "modes")}
        whole = [zooms[k] for k in zooms if k == "input" or k.startswith("output:") or k == "reference"]
        assert len(set(whole)) == 1 and whole[0] >= 1, zooms
        # the largest whole zoom at which the row fits the figure's width and 60% of the window's height
        grid = root.locator(".explorer-figure-modes").evaluate(
            "(el) => el.getBoundingClientRect().width - parseFloat(getComputedStyle(el).paddingLeft)"
            " - parseFloat(getComputedStyle(el).paddingRight)")
        fig = App().tabs["modes"].shown
        best = row_zoom(fig, fig.rows[0][1], grid, height)
        assert whole[0] == best, (whole[0], best, grid)
        if width >= 1920:
            assert best >= 2, (best, grid)  # 256 + 4 x 102 pixels, 2x, fit a 1920-pixel projector
        crops = [zooms[k] for k in zooms if k.endswith("_crop") or k.startswith("crop:")]
        assert len(set(crops)) == 1, zooms
        # the images of a row start at one height, also where one panel's title wraps onto a second line
        rows = root.locator(".explorer-figure-modes").evaluate("""(el) => {
            const rows = {};
            for (const img of el.querySelectorAll('img[data-key]')) {
                const cell = img.closest('.xf-cell'), r = getComputedStyle(cell).gridRowStart;
                const title = cell.querySelector('.xf-title');
                (rows[r] = rows[r] || []).push([img.dataset.key, Math.round(img.getBoundingClientRect().top),
                                                 Math.round(title.getBoundingClientRect().height)]);
            }
            return rows; }""")
        for row in rows.values():
            assert len({top for _, top, _ in row}) == 1, row
        ui.screenshot(page, f"lecture-{width}x{height}-modes-zoom.png")
    finally:
        page.context.close()

"""Page-level helpers for the browser tests: launch Debian's chromium, drive JupyterLab and Voila, read the
pixels of the explorer's panels as the page holds them, and save screenshots.

Nothing here sleeps for a fixed time: every wait polls a condition on the page (a selector, the kernel
status, or the exact pixels of a panel) until it holds or a timeout expires.
"""

from __future__ import annotations

import base64
import io
import os
import re
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

VIEWPORT = {"width": 1400, "height": 1000}
WIDTHS = (1400, 1920)  # the window widths the figures are checked at
LONG = 90_000  # ms: first page loads start a kernel and import matplotlib


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None when chromium and playwright are both available)."""
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium, or set $CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[browser]')"
    return None


def launch(playwright):
    """Headless Debian chromium; never a browser downloaded by ``playwright install``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def new_page(browser, width: int = VIEWPORT["width"], height: int = VIEWPORT["height"], downloads: bool = False):
    """A page at device pixel ratio 1 (one CSS pixel is one screen pixel, so a whole zoom repeats pixels
    exactly), that records errors."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                  accept_downloads=downloads)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


def screenshot(page, name: str) -> Path:
    path = artifact(name)
    page.screenshot(path=str(path), full_page=True)
    return path


def shoot_app(page, name: str) -> Path:
    """The whole explorer as the page shows it (Voila scrolls inside its own element, so the viewport is made
    tall enough to hold the app first)."""
    root = page.locator(".explorer-root").first
    height = int(page.evaluate("() => document.querySelector('.explorer-root').scrollHeight")) + 200
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], height)})
    path = artifact(name)
    root.screenshot(path=str(path))
    page.set_viewport_size(size)
    return path


# --- JupyterLab ---------------------------------------------------------------------------------------------

def open_lab_notebook(page, server, name: str):
    """Open ``name`` in JupyterLab and wait until its kernel is really idle (not merely 'initializing')."""
    from playwright.sync_api import expect

    page.goto(server.url(f"lab/tree/{name}"))
    expect(page.locator(".jp-Notebook").first).to_be_visible(timeout=LONG)
    expect(page.locator("#jp-main-statusbar")).to_contain_text("| Idle", timeout=LONG)


def lab_run_all(page):
    """Run > Run All Cells, through the menu a person would use."""
    page.locator("#jp-MainMenu .lm-MenuBar-item").filter(has_text=re.compile(r"^Run$")).click()
    page.locator('.lm-Menu-content [data-command="runmenu:run-all"]').click()


def wait_lab_idle(page, timeout: float = LONG):
    from playwright.sync_api import expect

    expect(page.locator("#jp-main-statusbar")).to_contain_text("| Idle", timeout=timeout)


def lab_cell_errors(page) -> list[str]:
    """Tracebacks shown in the notebook's outputs."""
    return page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()


# --- widgets ------------------------------------------------------------------------------------------------

def select(scope, css: str, label: str):
    """Choose ``label`` in the ipywidgets Dropdown (or Select) matched by ``css`` inside ``scope``."""
    scope.locator(f"{css} select").first.select_option(label=label)


def type_slider_value(scope, css: str, value):
    """Type a value into the editable readout of the ipywidgets slider matched by ``css`` and press Enter."""
    readout = scope.locator(f"{css} .widget-readout").first
    readout.click()
    readout.press("Control+a")
    readout.type(str(value))
    readout.press("Enter")


# --- widgets of the explorer --------------------------------------------------------------------------------

def click_tab(root, title: str):
    root.locator(".explorer-tabs .lm-TabBar-tab").filter(has_text=re.compile(f"^{re.escape(title)}$")).click()


def type_text(scope, css: str, text: str):
    """Type ``text`` into the text box matched by ``css`` and press Enter (a change the app receives once)."""
    box = scope.locator(f"{css} input").first
    box.click()
    box.press("Control+a")
    box.press("Delete")
    if text:
        box.type(text)
    box.press("Enter")


def panel_img(root, tab: str, key: str):
    return root.locator(f".explorer-figure-{tab} img[data-key='{key}']").first


def min_font_px(root) -> tuple[float, str]:
    """The smallest computed font size of any visible text in ``root`` (HTML and inline SVG), and that text."""
    return tuple(root.evaluate("""(el) => {
        let best = [1e9, ''];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode, parent = node.parentElement;
            if (!node.textContent.trim() || !parent || parent.closest('style, script')) continue;
            const rect = parent.getBoundingClientRect();
            if (rect.width === 0 || rect.height === 0) continue;
            let px = parseFloat(getComputedStyle(parent).fontSize);
            const svg = parent.closest('svg');
            if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width) {
                px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            }
            if (px < best[0]) best = [px, node.textContent.trim().slice(0, 40)];
        }
        return best;
    }"""))


def zooms(root, tab: str) -> list:
    """(data-key, natural width, natural height, shown width, shown height) of every panel image of a tab."""
    return root.evaluate(f"""(el) => [...el.querySelectorAll('.explorer-figure-{tab} img[data-key]')].map(i => {{
        const r = i.getBoundingClientRect();
        return [i.dataset.key, i.naturalWidth, i.naturalHeight, r.width, r.height];
    }})""")


# --- pixels ----------------------------------------------------------------------------------------------------

def _decode_png(data: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


def img_rgba(img) -> np.ndarray:
    """The pixels of an ``<img>`` element (its natural size), as an (H, W, 4) uint8 array."""
    url = img.evaluate("""async (el) => {
        if (!el.complete) await new Promise(r => el.addEventListener('load', r, {once: true}));
        const c = document.createElement('canvas');
        c.width = el.naturalWidth; c.height = el.naturalHeight;
        c.getContext('2d').drawImage(el, 0, 0);
        return c.toDataURL('image/png');
    }""")
    return _decode_png(base64.b64decode(url.split(",", 1)[1]))


def save_rgba(array: np.ndarray, name: str) -> Path:
    from PIL import Image

    path = artifact(name)
    Image.fromarray(array).save(path)
    return path


def wait_pixels(read, expected: np.ndarray, timeout: float = 30.0, name: str | None = None) -> np.ndarray:
    """Poll ``read()`` until its RGB pixels equal ``expected``.  On failure, ``name`` saves both images as
    ``<name>-expected.png`` and ``<name>-shown.png`` in test-artifacts."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = read()[:, :, :3]
        except Exception:  # noqa: BLE001 - the element may be re-created between polls
            last = None
        if last is not None and last.shape == expected.shape and np.array_equal(last, expected):
            return last
        if time.monotonic() > deadline:
            detail = f"shape {None if last is None else last.shape} vs expected {expected.shape}"
            if name:
                save_rgba(expected, f"{name}-expected.png")
                if last is not None:
                    save_rgba(np.ascontiguousarray(last), f"{name}-shown.png")
                detail += f"; see test-artifacts/{name}-expected.png and -shown.png"
            raise AssertionError(f"the panel never showed the expected pixels within {timeout:.0f} s ({detail})")
        time.sleep(0.15)


def sideways_overflow(root) -> list:
    """Every element in ``root`` (and ``root``) whose content is wider than its box, as (classes, scrollWidth,
    clientWidth): what would scroll sideways or be cut off.  Elements that let content overflow visibly are
    read through their parents; a one-pixel rounding is allowed."""
    return root.evaluate("""(root) => [root, ...root.querySelectorAll('*')].filter(e => {
            if (e.clientWidth === 0 || e.scrollWidth <= e.clientWidth + 1) return false;
            return e === root || getComputedStyle(e).overflowX !== 'visible';
        }).map(e => [e.className.toString().replace(/lm-Widget|lm-Panel|jupyter-widgets|widget-container/g, '')
                      .trim().slice(0, 80), e.scrollWidth, e.clientWidth])""")


def beyond_right_edge(root) -> list:
    """The innermost elements of ``root`` that reach past its right edge (tag, classes, by how many px, text)."""
    return root.evaluate("""(root) => {
        const edge = root.getBoundingClientRect().right;
        const bad = [...root.querySelectorAll('*')].filter(e => {
            const r = e.getBoundingClientRect(); return r.width > 0 && r.right > edge + 1; });
        return bad.filter(e => !bad.some(o => o !== e && e.contains(o))).map(e => [e.tagName,
            e.className.toString().slice(-50), Math.round(e.getBoundingClientRect().right - edge),
            (e.textContent || '').slice(0, 30)]);
    }""")

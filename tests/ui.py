"""Page-level helpers for the browser tests: launch Debian's chromium, drive JupyterLab and Voila, read the
pixels of a matplotlib canvas, and save screenshots.

Nothing here sleeps for a fixed time: every wait polls a condition on the page (a selector, the kernel
status, or the exact pixels of the figure) until it holds or a timeout expires.
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

VIEWPORT = {"width": 1400, "height": 1600}
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


def new_page(browser):
    """A page at device pixel ratio 1, so canvas pixels equal matplotlib's pixels, that records errors."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
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


# --- canvas pixels ------------------------------------------------------------------------------------------

def _decode_png(data: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"))


def canvas_rgba(canvas) -> np.ndarray:
    """The pixels of a ``<canvas>`` element, as an (H, W, 4) uint8 array."""
    url = canvas.evaluate("c => c.toDataURL('image/png')")
    return _decode_png(base64.b64decode(url.split(",", 1)[1]))


def img_rgba(img) -> np.ndarray:
    """The pixels of an ``<img>`` element whose ``src`` is a data URL or a blob (ipywidgets.Image)."""
    url = img.evaluate("""async (el) => {
        if (!el.complete) await new Promise(r => el.addEventListener('load', r, {once: true}));
        const c = document.createElement('canvas');
        c.width = el.naturalWidth; c.height = el.naturalHeight;
        c.getContext('2d').drawImage(el, 0, 0);
        return c.toDataURL('image/png');
    }""")
    return _decode_png(base64.b64decode(url.split(",", 1)[1]))


def figure_rgba(fig) -> np.ndarray:
    """What a matplotlib figure looks like rendered by Agg at its own dpi (what ipympl sends the browser)."""
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def save_rgba(array: np.ndarray, name: str) -> Path:
    from PIL import Image

    path = artifact(name)
    Image.fromarray(array).save(path)
    return path


def wait_pixels(read, expected: np.ndarray, timeout: float = 30.0, tolerance: int = 0,
                name: str | None = None) -> np.ndarray:
    """Poll ``read()`` until its pixels equal ``expected`` (within ``tolerance`` per channel).  On failure,
    ``name`` saves both images as ``<name>-expected.png`` and ``<name>-shown.png`` in test-artifacts."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            last = read()
        except Exception:  # the element may be re-created between polls
            last = None
        if last is not None and last.shape == expected.shape:
            diff = np.abs(last.astype(np.int16) - expected.astype(np.int16)).max()
            if diff <= tolerance:
                return last
        if time.monotonic() > deadline:
            shape = None if last is None else last.shape
            detail = (f"max channel difference {diff}" if last is not None and shape == expected.shape
                      else f"shape {shape} vs expected {expected.shape}")
            if name:
                save_rgba(expected, f"{name}-expected.png")
                if last is not None:
                    save_rgba(last, f"{name}-shown.png")
                detail += f"; see test-artifacts/{name}-expected.png and -shown.png"
            raise AssertionError(f"the figure never showed the expected pixels within {timeout:.0f} s ({detail})")
        time.sleep(0.15)


def wait_pixels_change(read, before: np.ndarray, timeout: float = 30.0) -> np.ndarray:
    deadline = time.monotonic() + timeout
    while True:
        try:
            now = read()
        except Exception:
            now = None
        if now is not None and (now.shape != before.shape or not np.array_equal(now, before)):
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the figure did not change within {timeout:.0f} s")
        time.sleep(0.15)

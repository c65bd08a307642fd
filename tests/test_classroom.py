"""The classroom configuration of Voila (deploy/voila.py), as a class uses it: pages opened in a real browser keep
their kernels, the kernels of closed pages are culled and their memory returned, and a new page past the cap
either takes the place of a page that is gone or is refused with a sentence saying why.

Culling is shortened on the command line (which wins over the file) so a test waits seconds, not the shipped ten
minutes; every wait polls the server until the expected state holds or a generous deadline passes.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

import browser_support as ui
import pytest
import servers

psutil = pytest.importorskip("psutil")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "explorer.ipynb"
DEPLOY = REPO / "deploy"
CULL = ("--MappingKernelManager.cull_idle_timeout=4", "--MappingKernelManager.cull_interval=1")


def kernels(server) -> list:
    """The server's kernel processes."""
    found = []
    for proc in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if "ipykernel_launcher" in " ".join(proc.cmdline()):
                found.append(proc)
        except psutil.Error:
            pass
    return found


def resident(server) -> int:
    """Bytes resident in the server and its kernels."""
    total = psutil.Process(server.process.pid).memory_info().rss
    for proc in kernels(server):
        try:
            total += proc.memory_info().rss
        except psutil.Error:
            pass
    return total


def wait_for(condition, deadline_s: float, what: str, server):
    deadline = time.monotonic() + deadline_s
    while not condition():
        assert server.process.poll() is None, server.log()[-3000:]
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {deadline_s:.0f} s:\n{server.log()[-3000:]}")
        time.sleep(0.5)


def load(server, query: str = "") -> tuple[int, str]:
    """The page as a browser requests it (Voila starts a kernel and runs the notebook), without a browser."""
    try:
        with urllib.request.urlopen(server.url(query), timeout=300) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


@pytest.mark.browser
def test_open_pages_keep_their_kernels_and_closed_pages_are_culled_with_their_memory(chromium):
    with servers.voila(NOTEBOOK, config=DEPLOY, args=CULL, keep_log=ui.artifact("classroom-voila.log")) as server:
        before = resident(server)
        pages = [ui.new_page(chromium) for _ in range(2)]
        for page in pages:
            page.goto(server.url())
        for page in pages:
            page.wait_for_selector(".explorer-figure-modes img", timeout=ui.LONG)
        assert len(kernels(server)) == 2
        assert "Culling kernels with idle durations > 4 seconds" in server.log()  # the file and the options read
        culled_after = time.monotonic() + 4 + 3 * 1  # past the idle timeout and a few culler passes
        while time.monotonic() < culled_after:
            time.sleep(0.5)
        assert len(kernels(server)) == 2, server.log()[-3000:]  # an open page keeps its kernel, idle or not
        assert all(p.errors == [] for p in pages), [p.errors for p in pages]
        for page in pages:
            page.context.close()  # the tab is closed: its websocket goes
        wait_for(lambda: not kernels(server), 120, "the kernels of the closed pages were not culled", server)
        assert "Culling 'idle' kernel" in server.log()
        assert resident(server) - before < 64 * 2**20, (before, resident(server))  # the kernels' memory is back


def test_past_the_cap_a_page_takes_the_place_of_a_gone_page_or_is_refused_with_the_reason():
    cap = ("--ClassroomKernelManager.max_kernels=1",)
    with servers.voila(NOTEBOOK, config=DEPLOY, args=cap + ("--ClassroomKernelManager.evict_after=3600",)) as server:
        status, _ = load(server)
        assert status == 200 and len(kernels(server)) == 1
        first = kernels(server)[0].pid
        status, text = load(server)  # the first page's kernel has been idle for less than an hour: it stays
        assert status == 503, status
        assert "This server already runs 1 explorers, its limit" in text, text[-2000:]
        assert [k.pid for k in kernels(server)] == [first]
    with servers.voila(NOTEBOOK, config=DEPLOY, args=cap + ("--ClassroomKernelManager.evict_after=0",)) as server:
        status, _ = load(server)
        first = kernels(server)[0].pid
        status, page = load(server)  # no page is connected to the first kernel: it makes room
        assert status == 200 and "application/vnd.jupyter.widget-view+json" in page
        assert len(kernels(server)) == 1 and kernels(server)[0].pid != first
        assert "to make room for a new page" in server.log()

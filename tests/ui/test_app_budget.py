"""No value typed in the page can exhaust the kernel: one output budget for every tab, a cache bounded by bytes
that lets go of sizes no longer shown, working copies for the comparing tabs, and every tab answering at
4000 x 4000 within 4 GiB (in a fresh process, so the peak is the app's own).  How long each tab takes there is
measured by ``benchmarks/app_latency.py --large`` (the README's numbers), not asserted here: a test must not fail
because the machine is busy."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from explorer.limits import APP_CACHE_BYTES, APP_CACHE_KEEP_BYTES, APP_WORK_PIXELS
from explorer.ui.app import App

REPO = Path(__file__).resolve().parents[2]
TABS = ("modes", "gradients", "kernels", "libraries", "backends", "pick")


def rss() -> int:
    import psutil

    return psutil.Process().memory_info().rss


def test_the_cache_is_bounded_by_bytes_and_memory_does_not_grow_across_20_large_sizes():
    app = App("photo", modes=("nearest", "bilinear", "bicubic"))
    grown = []
    for i in range(20):
        app.set(size=(1600 + 7 * i, 1500 + 5 * i))  # 4 outputs of ~28 MiB each per size
        assert app.engine.bytes <= APP_CACHE_BYTES
        big_sizes = {out for value, out in app.engine._store.values() if value.nbytes >= APP_CACHE_KEEP_BYTES}
        assert big_sizes <= {(1600 + 7 * i, 1500 + 5 * i)}  # only the size shown keeps its large results
        grown.append(rss())
    assert max(grown[5:]) - grown[4] < 400 * 2**20, [g // 2**20 for g in grown]


def test_small_results_of_earlier_sizes_are_kept_for_going_back():
    app = App("photo")
    app.set(scale=0.5)
    first = app.tabs["modes"].data.outputs["bilinear"]
    app.set(scale=0.25)
    app.set(scale=0.5)
    assert app.tabs["modes"].data.outputs["bilinear"] is first  # 128 x 128: small, kept, reused


@pytest.mark.parametrize("tab", ("libraries", "backends", "pick"))
def test_the_comparing_tabs_measure_a_working_copy_and_say_so(tab):
    app = App("photo", tab=tab, size=(2000, 2000))
    data = app.tabs[tab].data
    assert "Measured on a working copy" in app.tabs[tab].caption_text
    if tab == "libraries":
        assert all(isinstance(y, np.ndarray) and y.shape[0] * y.shape[1] <= APP_WORK_PIXELS
                   for y in data.outputs.values()), {k: getattr(y, "shape", y) for k, y in data.outputs.items()}
    app.set(size=(200, 200))
    assert "working copy" not in app.tabs[tab].caption_text


SCRIPT = textwrap.dedent("""
    import json, sys
    from explorer.ui.app import App
    from explorer.ui.app.tabs import Snapshot

    app = App("photo")
    out = {}
    for tab in %r:
        app.set(tab=tab, scale=0.5)
        app.set(size=(4000, 4000))
        t = app.tabs[tab]
        shapes = sorted({str(getattr(y, "shape", y)) for y in t.data.outputs.values()}) if tab == "modes" else []
        out[tab] = [app.message_text, t.drawn_key == t.key(Snapshot(app)), bool(t.markup), shapes]
    refused = {}
    for tab in %r:
        app.set(tab=tab)
        try:
            app.set(size=(30000, 30000))
            refused[tab] = ""
        except ValueError as exc:
            refused[tab] = str(exc)
        app.set(scale=0.6)  # and the app keeps working
        refused[tab] += " | " + app.message_text
    # VmHWM is this program's own peak: ru_maxrss also counts the parent's (pytest's) resident set before the exec
    peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM:"))
    print(json.dumps({"tabs": out, "refused": refused, "peak": peak}))
""")


@pytest.fixture(scope="module")
def large():
    """One fresh process, so its peak resident memory is the app's own."""
    result = subprocess.run([sys.executable, "-c", SCRIPT % (TABS, TABS)], capture_output=True, text=True,
                            check=False, timeout=1800, env={**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg"})
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("tab", TABS)
def test_every_tab_answers_a_4000_square_output(large, tab):
    message, drawn, markup, shapes = large["tabs"][tab]
    assert message == "" and drawn and markup, (tab, large["tabs"][tab])  # the figure shown is of 4000 x 4000
    if tab == "modes":
        assert shapes == ["(4000, 4000, 3)"], shapes


def test_a_30000_square_size_is_refused_on_every_tab_and_memory_stays_bounded(large):
    for tab, text in large["refused"].items():
        assert "size=(30000, 30000) is too large for the explorer" in text, (tab, text)
        assert text.endswith(" | "), (tab, text)  # the next change worked and cleared the message
    assert large["peak"] < 4 * 2**30, large["peak"] / 2**30

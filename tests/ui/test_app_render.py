"""The render worker, as it runs in a kernel: the newest change wins, hidden tabs are prepared when idle, a busy
mark shows for slow updates, failures are reported, and only the event loop's thread touches widgets."""

import asyncio
import html
import threading
import time

import numpy as np
import pytest

from explorer.ui.app import App, render

IMAGE = np.random.default_rng(4).random((48, 40, 3)).astype(np.float32)


async def settle(app, timeout=60.0):
    """Wait until the worker has nothing to do and every tab is drawn for the current state."""
    from explorer.ui.app.tabs import Snapshot

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        r = app.renderer
        snap = Snapshot(app)
        with r.cv:
            idle = r.pending is None and r.running is None and r.latest is None
        if idle and all(t.drawn_key == t.key(snap) and t.later is None for t in app.tabs.values()):
            return
    raise TimeoutError("the worker never settled")


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 180))


def test_a_burst_of_changes_draws_only_the_newest_state_and_prepares_hidden_tabs():
    async def main():
        app = App(IMAGE, worker=True, scale=0.5)
        await settle(app)
        jobs = app.renderer.stats["jobs"]
        for scale in (0.3, 0.35, 0.4, 0.45, 0.55, 0.6, 0.65, 0.7):  # a slider dragged: 8 changes, no pause
            app.set(scale=scale)
        await settle(app)
        visible = app.tabs["modes"].shown.panels["output:bilinear"].values
        sync = App(IMAGE, scale=0.7)  # the same state drawn without a worker
        np.testing.assert_array_equal(visible, sync.tabs["modes"].shown.panels["output:bilinear"].values)
        modes_jobs = app.renderer.stats["jobs"] - jobs
        assert modes_jobs < 8 + 5  # coalesced: fewer Modes drawings than changes, plus the hidden tabs once
        for name in ("gradients", "kernels", "libraries", "backends", "pick"):  # prepared while idle
            assert app.tabs[name].drawn_key is not None
        jobs = app.renderer.stats["jobs"]
        app.set(tab="pick")  # already prepared: only shown
        assert app.tabs["pick"].markup and app.renderer.pending is None
        await settle(app)
        assert app.renderer.stats["jobs"] == jobs  # nothing was computed for the switch
        return app

    run(main())


def test_the_busy_mark_shows_for_a_slow_update_and_clears(monkeypatch):
    async def main():
        app = App(IMAGE, worker=True)
        await settle(app)
        tab = app.tabs["modes"]
        compute = tab.compute

        def slow(snap):
            time.sleep(3 * render.BUSY_S)
            return compute(snap)

        monkeypatch.setattr(tab, "compute", slow)
        app.set(antialias=True)
        await asyncio.sleep(2 * render.BUSY_S)
        assert app.busy_mark.value == "updating…" and "explorer-busy" in app.widget._dom_classes
        await settle(app)
        assert app.busy_mark.value == "" and "explorer-busy" not in app.widget._dom_classes

    run(main())


def test_a_failure_in_the_worker_is_reported_and_the_next_change_works(monkeypatch):
    async def main():
        app = App(IMAGE, worker=True)
        await settle(app)
        tab = app.tabs["modes"]
        compute = tab.compute

        def broken(snap):
            raise RuntimeError("simulated failure")

        monkeypatch.setattr(tab, "compute", broken)
        app.set(scale=0.9)
        await asyncio.sleep(0.5)
        assert "Modes could not be drawn: RuntimeError: simulated failure" in app.message_text
        monkeypatch.setattr(tab, "compute", compute)
        app.set(scale=0.8)
        await settle(app)
        assert app.message_text == ""
        assert app.tabs["modes"].shown.panels["output:bilinear"].values.shape[:2] == (38, 32)

    run(main())


def test_widgets_are_set_only_on_the_event_loops_thread(monkeypatch):
    from explorer.ui.app.tabs import Tab

    threads = set()
    apply = Tab.apply

    def watched(self, payload):
        threads.add(threading.current_thread().name)
        return apply(self, payload)

    monkeypatch.setattr(Tab, "apply", watched)

    async def main():
        app = App(IMAGE, worker=True)
        for mode in ("nearest", "bicubic", "area"):
            app.set(mode=mode, tab="kernels")
        await settle(app)
        assert app.renderer.thread.name == "explorer-render"

    run(main())
    assert threads == {threading.main_thread().name}


def test_with_the_opened_policy_only_the_tabs_a_page_has_shown_are_prepared(monkeypatch):
    """EXPLORER_PREPARE_HIDDEN=opened (the classroom configuration): a tab never shown is never computed while
    idle; once shown, it is prepared again after each change like every tab under the default policy."""
    monkeypatch.setenv(render.PREPARE_HIDDEN_ENV, "opened")

    async def idle(app, timeout=60.0):
        """Until the worker has nothing to do: every tab the page has shown is drawn for the current state."""
        from explorer.ui.app.tabs import Snapshot

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            r = app.renderer
            snap = Snapshot(app)
            with r.cv:
                quiet = r.pending is None and r.running is None and time.monotonic() - r.quiet_since > 1.0
                drawn = all(app.tabs[t].drawn_key == app.tabs[t].key(snap) for t in r.opened)
            if quiet and drawn:
                return
        raise TimeoutError("the worker never went idle")

    async def main():
        app = App(IMAGE, worker=True, scale=0.5)
        assert app.renderer.policy == "opened"
        await idle(app)
        assert app.tabs["modes"].drawn_key is not None
        assert all(app.tabs[t].drawn_key is None for t in ("gradients", "kernels", "libraries", "backends", "pick"))
        app.set(tab="kernels")
        await idle(app)
        app.set(tab="modes")
        app.set(scale=0.7)
        await idle(app)
        from explorer.ui.app.tabs import Snapshot

        snap = Snapshot(app)
        assert app.tabs["kernels"].drawn_key == app.tabs["kernels"].key(snap)  # shown once: prepared again
        assert app.tabs["gradients"].drawn_key is None  # never shown: never computed

    run(main())


def test_an_unknown_prepare_policy_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="EXPLORER_PREPARE_HIDDEN='some' is not valid; choose one of all, opened"):
        render.prepare_hidden_policy({"EXPLORER_PREPARE_HIDDEN": "some"})


def test_a_lesson_computes_its_explanation_off_the_widgets_thread():
    """Opening a lesson sets its state at once; its numbers (seconds for some) arrive without holding the
    thread that delivers figures, and a lesson opened meanwhile is not overwritten by the older one."""
    from explorer.ui.scenarios import LESSONS, SCENARIOS

    def shown(app, name):
        return SCENARIOS[name].explanation in html.unescape(app.lesson.value)

    def slow():
        computed_on.append(threading.get_ident())
        release.wait(30)  # until the test has seen scenario() return: it must not wait for this
        finished.append(release.is_set())
        return "slow"

    async def main():
        title, changes, _ = LESSONS["checkerboard"]
        LESSONS["slow-lesson"] = (title, changes, slow)
        try:
            app = App(IMAGE, worker=True)
            await settle(app)
            app.scenario("slow-lesson")
            assert not finished and app.state["tab"] == "gradients"  # returned before the numbers were computed
            assert app.lesson.value.endswith(": …")
            app.scenario("aliasing")  # opened before the first one's numbers are shown
            deadline = time.monotonic() + 60
            while not shown(app, "aliasing") and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            release.set()
            while not finished and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # the slow lesson's numbers arrive: they must not replace these
            assert shown(app, "aliasing") and app.scenario_menu.value == "aliasing"
            assert computed_on and computed_on[0] != main_thread and finished == [True]
            await settle(app)
        finally:
            del LESSONS["slow-lesson"]

    main_thread = threading.get_ident()
    computed_on, finished, release = [], [], threading.Event()
    run(main())


def test_a_page_that_loads_the_widgets_gets_every_state_again(monkeypatch):
    """A page asks for the widgets' states on the control channel, then creates their models; what the worker
    sends in between is lost to it.  After the ask, every widget is sent again, and each tab when first shown."""
    import ipywidgets as W
    from ipywidgets import comm

    from explorer.ui.app import page_load

    sent = []
    monkeypatch.setattr(page_load, "SETTLE_S", 0.2)
    monkeypatch.setattr(W.Widget, "send_state", lambda self, key=None: sent.append(self.model_id))

    class PageComm:  # the control channel a page opens
        def on_msg(self, callback):
            self.callback = callback

    async def main():
        app = App(IMAGE, worker=True)
        await settle(app)
        handler = comm.get_comm_manager().targets[page_load.CONTROL_TARGET]
        assert handler is page_load.control_opened
        sent.clear()
        handler(PageComm(), {"metadata": {"version": W.widget.__control_protocol_version__}})
        assert sent == []  # not while the page is creating its models
        await asyncio.sleep(0.5)
        pick = app.tabs["pick"]
        for w in (app.readout, app.message, pick.caption, pick.figure, app.controls["priorities"].widget,
                  app.tabs["kernels"].caption):
            assert w.model_id in sent, w
        sent.clear()
        app.set(tab="pick")  # the first time a tab is shown after the page loaded: its widgets once more
        assert pick.caption.model_id in sent and app.controls["priorities"].widget.model_id in sent
        assert app.tabs["kernels"].caption.model_id not in sent
        sent.clear()
        app.set(tab="modes")
        app.set(tab="pick")
        assert pick.caption.model_id not in sent
        await settle(app)

    run(main())


def test_the_kernels_narrow_layout_is_drawn_after_the_wide_one_is_shown():
    """The Kernels tab draws two layouts (the container's width picks one): the wide one is shown as soon as
    it is drawn, the narrow one follows for the same state, so a wide page never waits for the other."""
    async def main():
        app = App(IMAGE, worker=True, tab="kernels")
        await settle(app)
        tab = app.tabs["kernels"]
        wide, narrow = tab.layouts
        seen = []
        apply_later = tab.apply_later

        def recording(key, markup):
            seen.append((key, wide.value, markup))  # what the page showed when the narrow layout arrived
            apply_later(key, markup)

        tab.apply_later = recording
        app.set(mode="bicubic")
        await settle(app)
        assert len(seen) == 1
        key, shown_wide, narrow_markup = seen[0]
        assert key == tab.drawn_key and "<svg" in shown_wide and "<svg" in narrow.value
        sync = App(IMAGE, tab="kernels", mode="bicubic")  # the same state without a worker: both at once
        assert shown_wide == sync.tabs["kernels"].layouts[0].value
        assert narrow.value == narrow_markup == sync.tabs["kernels"].layouts[1].value
        assert wide.value != narrow.value

    run(main())

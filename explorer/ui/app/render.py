"""Compute and draw off the kernel's main thread: the newest state wins, idle time prepares the hidden tabs, and
a busy mark appears when an update takes longer than :data:`BUSY_S`.

The main thread (where widget messages arrive and leave) only records a change, takes a
:class:`~explorer.ui.app.tabs.Snapshot` and later sets widget values; one worker thread runs
:meth:`Tab.prepare` (engine, colours, PNG encodes, HTML, SVG).  Results come back through
``loop.call_soon_threadsafe``: the worker touches no widget, so no widget message leaves another thread.

* Coalescing: a change that arrives while the worker computes replaces the pending request (one slot); the
  worker always starts from the newest snapshot, and a result that a newer state has superseded is dropped,
  unless the figure has not changed for :data:`PROGRESS_S` (a long slider drag still shows progress).
* Precompute: after :data:`IDLE_S` without changes, the worker prepares each stale hidden tab in turn, Modes
  first and then the nearest, checking for a new request between tabs; a tab switch then only shows what is ready.
  With ``EXPLORER_PREPARE_HIDDEN=opened`` in the kernel's environment (the classroom configurations in
  ``deploy/`` set it) only the tabs this page has shown are prepared: on a server shared by a class, preparing
  the five hidden tabs after every change costs ten times the CPU of the visible one, and a tab never opened never
  imports what it draws with (the Kernels tab's matplotlib).  The first switch to a tab then computes it.
* Outside a running event loop (scripts, tests) there is no worker: the app draws synchronously.
"""

from __future__ import annotations

import os
import threading
import time

from .tabs import Snapshot

BUSY_S, IDLE_S, PROGRESS_S = 0.15, 0.3, 0.25
#: The environment variable choosing which hidden tabs are prepared when idle: every tab, or those shown once.
PREPARE_HIDDEN_ENV, PREPARE_HIDDEN = "EXPLORER_PREPARE_HIDDEN", ("all", "opened")


def prepare_hidden_policy(environ=None) -> str:
    """``all`` (the default) or ``opened``, from :data:`PREPARE_HIDDEN_ENV`.

    >>> prepare_hidden_policy({}), prepare_hidden_policy({"EXPLORER_PREPARE_HIDDEN": "opened"})
    ('all', 'opened')
    """
    value = (os.environ if environ is None else environ).get(PREPARE_HIDDEN_ENV, "").strip() or "all"
    if value not in PREPARE_HIDDEN:
        raise ValueError(f"{PREPARE_HIDDEN_ENV}={value!r} is not valid; choose one of {', '.join(PREPARE_HIDDEN)}")
    return value


class Renderer:
    def __init__(self, app, loop):
        self.app, self.loop = app, loop
        self.cv = threading.Condition()
        self.pending = None  # snapshot of the newest state for the visible tab
        self.latest = None  # snapshot of the newest state, for the hidden tabs
        self.running = None  # (tab name, key) the worker is on
        self.quiet_since = time.monotonic()
        self.last_apply = 0.0
        self.busy = False
        self.stats = {"jobs": 0, "background": 0, "dropped": 0}
        self.policy = prepare_hidden_policy()
        self.opened = {next(iter(app.tabs))}  # the tabs this page has shown (for the "opened" policy)
        self.lock = threading.RLock()  # held while preparing: exports on the main thread take it too
        self.thread = threading.Thread(target=self._run, name="explorer-render", daemon=True)
        self.thread.start()

    # ------------------------------------------------------------------ main thread
    def request(self) -> bool:
        """The state or the tab changed: schedule the visible tab.  False when it is already up to date."""
        snap = Snapshot(self.app)
        tab = self.app.tabs[snap.state["tab"]]
        key = tab.key(snap)
        with self.cv:
            self.opened.add(tab.name)
            self.latest = snap
            self.quiet_since = time.monotonic()
            if key == tab.drawn_key:
                self.pending = None
                self.cv.notify()
                self._set_busy(False)
                return False
            if self.running != (tab.name, key):  # unless the worker is already on it (precomputing)
                self.pending = snap
            self.cv.notify()
        self.loop.call_later(BUSY_S, self._busy_check)
        return True

    def _busy_check(self):
        tab = self.app.visible_tab
        if tab.drawn_key != tab.key(Snapshot(self.app)):
            self._set_busy(True)

    def _set_busy(self, on: bool):
        if on != self.busy:
            self.busy = on
            self.app.set_busy(on)

    def _deliver(self, name, payload, error):
        tab = self.app.tabs[name]
        visible = name == self.app.state["tab"]
        current = tab.key(Snapshot(self.app))
        if error is not None:
            if visible:
                tab.drawn_key = None
                self.app.report_failure(tab, error)
                self._set_busy(False)
            return
        if payload.key != current and (not visible or time.monotonic() - self.last_apply < PROGRESS_S):
            self.stats["dropped"] += 1
            return
        tab.apply(payload)
        if visible:
            self.last_apply = time.monotonic()
            self.app.report(tab)
            if payload.key == current:
                self._set_busy(False)

    # ------------------------------------------------------------------ worker
    def _next(self):
        with self.cv:
            while True:
                if self.pending is not None:
                    snap, self.pending = self.pending, None
                    name = snap.state["tab"]
                    self.running = (name, self.app.tabs[name].key(snap))
                    return snap, name, False
                later = self._later()
                if later is not None:  # a part of a shown figure left for after it: before any hidden tab
                    return later
                if self.latest is not None:
                    wait = self.quiet_since + IDLE_S - time.monotonic()
                    if wait > 0:
                        self.cv.wait(wait)
                        continue
                    job = self._stale_hidden_tab(self.latest)
                    if job is not None:
                        return job
                    self.latest = None  # every tab is up to date for this state
                self.cv.wait()

    def _later(self):
        """(None, tab name, "later") for a tab whose shown figure has a part still to draw, visible tab first."""
        visible = self.app.state["tab"]
        for name in sorted(self.app.tabs, key=lambda t: t != visible):
            tab = self.app.tabs[name]
            if tab.later is not None and tab.later[0] == tab.drawn_key:
                return None, name, "later"
        return None

    def _stale_hidden_tab(self, snap):
        visible = snap.state["tab"]
        names = list(self.app.tabs)
        start = names.index(visible)
        home = names[0]  # the tab a page opens on and people return to: first, then the nearest ones
        for name in sorted(names, key=lambda t: (t != home, abs(names.index(t) - start), names.index(t))):
            tab = self.app.tabs[name]
            key = tab.key(snap)
            if self.policy == "opened" and name not in self.opened:
                continue
            if name != visible and key != tab.drawn_key and key not in tab.failed_keys:
                self.running = (name, key)
                return snap, name, True
        return None

    def _run(self):
        while True:
            snap, name, background = self._next()
            tab = self.app.tabs[name]
            if background == "later":
                self._run_later(tab)
                continue
            payload = error = None
            try:
                with self.lock:
                    payload = tab.prepare(snap)
            except Exception as exc:  # noqa: BLE001 - reported in the app by the main thread
                error = exc
                if background:
                    tab.failed_keys.add(tab.key(snap))
            self.stats["jobs"] += 1
            self.stats["background"] += background
            with self.cv:
                self.running = None
            done = threading.Event()
            self.loop.call_soon_threadsafe(self._deliver_then, done, name, payload, error)
            done.wait(2.0)  # the main thread applies it before the worker judges what is stale next

    def _run_later(self, tab):
        job = tab.later
        if job is None:
            return
        key, later = job
        if tab.later is job:  # taken (a newer figure shown meanwhile keeps its own)
            tab.later = None
        try:
            with self.lock:
                markup = later()
        except Exception as exc:  # noqa: BLE001 - reported in the app by the main thread
            self.loop.call_soon_threadsafe(self.app.report_failure, tab, exc)
            return
        self.stats["jobs"] += 1
        done = threading.Event()

        def show():
            try:
                tab.apply_later(key, markup)
            finally:
                done.set()

        self.loop.call_soon_threadsafe(show)
        done.wait(2.0)

    def _deliver_then(self, done, name, payload, error):
        try:
            self._deliver(name, payload, error)
        finally:
            done.set()

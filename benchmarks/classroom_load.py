"""A class on one server: N students, each on their own explorer page and kernel, each changing a control every
few seconds; the latency from change to repaint, the server's memory, and the kernels left after the pages close.

Starts Voila on ``notebooks/explorer.ipynb`` with the classroom configuration (``deploy/voila.py``) on 127.0.0.1
(a random port, private Jupyter dirs: ``tests/servers.py``).  Each simulated student is what a browser does, on
the wire: it loads the page (Voila starts a kernel and runs the notebook), opens the kernel's websocket, asks for
the widgets' states as the page's widget manager does, and then sends widget updates the way the page sends
them when a person types a size and presses Enter, ticks antialias, picks a reference or an image, or clicks a
tab (``KINDS``: four changes on Modes, another tab opened, a size typed there (training ticked on Backends, whose
grid does not depend on the size), back to Modes).  The kernel
answers with the new figure of the tab shown (its HTML parts); a change's latency is the time from sending it
to receiving the last figure part of that repaint.  A tab switch to a tab already prepared repaints nothing (the
page shows what it has): it is counted apart, not timed.  The browser's own decoding and painting (10-40 ms,
``benchmarks/browser_latency.py``) happen on each student's computer and are not included.

After a change is repainted the student thinks ``--think`` seconds (+-50 %) before the next one.  Students
arrive spread over ``--arrival`` seconds per student; a student who is done keeps the page open until the whole
class is done.  Then the pages close (the websockets are closed, as a closed tab does), and the run waits for the culler (a short ``--cull-timeout`` and
``--cull-interval`` given on the command line, so a run does not wait the shipped 10 minutes) and reports the
kernels still alive and the memory then.

Memory is the resident set of the Voila process and its kernels (sampled every second: the peak; and the
proportional set size, which counts shared pages once, when every page is ready and after the cull).

    python benchmarks/classroom_load.py                          # N = 5, 10, 20, 30: a markdown table
    python benchmarks/classroom_load.py --students 30 --prepare-hidden all   # every hidden tab prepared

Bounded: at most 60 students, at most ``--changes`` changes each, and a deadline per run (``--deadline`` s) after
which the run stops and reports what it measured.  Local addresses only: the server listens on 127.0.0.1 and
the students connect to it alone.  Needs ``pip install -e '.[lab,browser]'`` (Voila, psutil).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import struct
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

import servers  # tests/servers.py: ports, private Jupyter dirs, readiness, stopping

NOTEBOOK = REPO / "notebooks" / "explorer.ipynb"
DEPLOY = REPO / "deploy"
MAX_STUDENTS = 60
TARGET_P95_S = 1.0
IMAGES = ["checkerboard", "text", "zone_plate", "photo"]
TABS = ["modes", "gradients", "kernels", "libraries", "backends", "pick"]  # the order of the tab bar
KINDS = ("size", "antialias", "reference", "image", "tab", "change on tab", "back to modes")
REFERENCES = ["bicubic", "area", "lanczos", "bilinear"]


def now() -> float:
    return time.monotonic()


def message(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": session, "msg_type": msg_type,
                       "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell", "buffers": []}


def decode(frame) -> dict | None:
    """A kernel message from a websocket frame: JSON text, or the binary form (buffer count, offsets, JSON,
    buffers) used when a message carries buffers."""
    if isinstance(frame, str):
        return json.loads(frame)
    if not frame or len(frame) < 8:
        return None
    (count,) = struct.unpack("!I", frame[:4])
    offsets = struct.unpack(f"!{count}I", frame[4:4 + 4 * count])
    end = offsets[1] if count > 1 else len(frame)
    return json.loads(frame[offsets[0]:end].decode())


@dataclass
class Student:
    index: int
    arrive_s: float
    changes: list = field(default_factory=list)  # (what, latency s or None when nothing was repainted)
    page_s: float | None = None  # page request -> every widget's state received and the kernel quiet
    error: str = ""
    kib_in: float = 0.0


class Page:
    """One student's page: the kernel's websocket and the widgets' states, as the page's widget manager holds them."""

    def __init__(self, ws, session):
        self.ws, self.session = ws, session
        self.states = {}
        self.figure_parts = {}  # tab -> the model ids of the widgets its figure is drawn in
        self.visible = "modes"
        self.last_message = now()
        self.updates = asyncio.Queue()  # (arrival time, model id) of every widget update the kernel sends
        self.bytes_in = 0
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self):
        while True:
            frame = await self.ws.read_message()
            if frame is None:
                return
            self.bytes_in += len(frame)
            self.last_message = now()
            msg = decode(frame)
            if not msg or msg.get("msg_type", msg.get("header", {}).get("msg_type")) != "comm_msg":
                continue
            data = msg["content"].get("data", {})
            if data.get("method") == "update_states":
                self.states = data["states"]
            elif data.get("method") in ("update", "echo_update"):
                comm = msg["content"]["comm_id"]
                if comm in self.states:
                    self.states[comm]["state"].update(data.get("state", {}))
                if data["method"] == "update":
                    await self.updates.put((self.last_message, comm))

    def send(self, msg):
        return self.ws.write_message(json.dumps(msg))

    def widget(self, css: str) -> str:
        """The model id of the widget carrying the CSS class ``css``."""
        for model, entry in self.states.items():
            if css in entry["state"].get("_dom_classes", ()):
                return model
        raise KeyError(f"no widget with class {css} among {len(self.states)}")

    async def request_states(self, timeout: float):
        control = uuid.uuid4().hex
        await self.send(message("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                              "data": {}}, self.session, {"version": "1.0.0"}))
        await self.send(message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}},
                                self.session))
        deadline = now() + timeout
        while not self.states:
            if now() > deadline:
                raise TimeoutError("the kernel never sent the widgets' states")
            await asyncio.sleep(0.05)
        for tab in TABS:
            model = self.widget(f"explorer-figure-{tab}")
            children = self.states[model]["state"].get("children") or []
            self.figure_parts[tab] = {c.removeprefix("IPY_MODEL_") for c in children} or {model}

    async def quiet(self, seconds: float, timeout: float):
        deadline = now() + timeout
        while now() - self.last_message < seconds and now() < deadline:
            await asyncio.sleep(0.05)

    async def update(self, model: str, state: dict):
        self.states[model]["state"].update(state)  # the page's model holds what it sends
        await self.send(message("comm_msg", {"comm_id": model, "data": {"method": "update", "state": state,
                                                                        "buffer_paths": []}}, self.session))

    async def repaint(self, sent: float, timeout: float, settle: float = 0.25) -> float | None:
        """Seconds from ``sent`` to the last figure part of the next repaint (None: none within ``timeout``)."""
        last, deadline = None, sent + timeout
        while True:
            wait = (deadline if last is None else last + settle) - now()
            if wait <= 0:
                return None if last is None else last - sent
            try:
                arrived, comm = await asyncio.wait_for(self.updates.get(), wait)
            except TimeoutError:
                continue
            if comm in self.figure_parts[self.visible] and arrived >= sent:
                last = arrived


def change(page: Page, student: int, k: int) -> tuple[str, str, dict]:
    """The k-th change of a student, in turn: on Modes a size typed, antialias ticked, a reference and an image
    chosen; then another tab opened (each of the five in turn), a size typed there, and back to Modes.  Every value
    differs from the one before, so every change but a switch repaints the figure shown; a switch repaints only a
    tab that was not prepared (the first visit, under the classroom configuration)."""
    kind = KINDS[k % len(KINDS)]
    if kind in ("tab", "back to modes"):
        tab = "modes" if kind == "back to modes" else TABS[1 + (k // len(KINDS) + student) % (len(TABS) - 1)]
        page.visible = tab
        return kind, page.widget("explorer-tabs"), {"selected_index": TABS.index(tab)}
    if kind == "change on tab" and page.visible == "backends":  # its grid does not depend on the size
        model = page.widget("explorer-training")
        return kind, model, {"value": not page.states[model]["state"]["value"]}
    if kind in ("size", "change on tab"):  # near 0.45 of the 256-pixel photo, never twice the same for one student
        return kind, page.widget("explorer-size"), {"value": f"{100 + (7 * k + student) % 33}x{100 + (13 * k + 5) % 31}"}
    if kind == "antialias":
        model = page.widget("explorer-antialias")
        return kind, model, {"value": not page.states[model]["state"]["value"]}
    css, names = ("explorer-reference", REFERENCES) if kind == "reference" else ("explorer-image", IMAGES)
    model = page.widget(css)
    state = page.states[model]["state"]
    labels = list(state["_options_labels"])
    current = state.get("index")
    choices = [labels.index(n) for n in names if n in labels and labels.index(n) != current]
    return kind, model, {"index": choices[(k // 4 + student) % len(choices)]}


async def student_run(s: Student, server, args, t0: float, done: asyncio.Event, dismissed: asyncio.Event):
    from tornado.httpclient import AsyncHTTPClient
    from tornado.websocket import websocket_connect

    await asyncio.sleep(max(0.0, t0 + s.arrive_s - now()))
    start, page = now(), None
    try:
        response = await AsyncHTTPClient().fetch(server.url(), request_timeout=args.timeout * 4)
        found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', response.body.decode())
        if not found:
            raise RuntimeError("no kernel id in the page")
        session = uuid.uuid4().hex
        ws_url = (f"ws://127.0.0.1:{server.port}/api/kernels/{found.group(1)}/channels"
                  f"?session_id={session}&token={server.token}")
        ws = await websocket_connect(ws_url, max_message_size=256 * 2**20)
        page = Page(ws, session)
        await page.send(message("kernel_info_request", {}, session))
        await page.request_states(args.timeout)
        await asyncio.sleep(2.0)  # the explorer sends every widget again 2 s after a page asked (page_load.py)
        await page.quiet(1.0, args.timeout)
        s.page_s = now() - start
        for k in range(args.changes):
            kind, model, state = change(page, s.index, k)
            while not page.updates.empty():
                page.updates.get_nowait()
            sent = now()
            await page.update(model, state)
            switch = kind in ("tab", "back to modes")
            latency = await page.repaint(sent, min(args.timeout, 3.0) if switch else args.timeout)
            if switch and latency is None:
                await page.quiet(0.3, args.timeout)  # shown as prepared: nothing to repaint
                kind = "switch (ready)"
            s.changes.append((kind, latency))
            await asyncio.sleep(args.think * random.uniform(0.5, 1.5))
        s.kib_in = page.bytes_in / 1024
        done.set()
        await dismissed.wait()  # the page stays open until the class ends
    except Exception as exc:  # noqa: BLE001 - one student's failure is reported, the class goes on
        s.error = f"{type(exc).__name__}: {exc}"[:300]
    finally:  # the page is closed: its websocket goes, as when a tab is closed
        done.set()
        if page is not None:
            page.ws.close()
            page.reader.cancel()


def kernels(server) -> list:
    import psutil

    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.Error:
        return []
    out = []
    for proc in children:
        try:
            if "ipykernel_launcher" in " ".join(proc.cmdline()):
                out.append(proc)
        except psutil.Error:
            pass
    return out


def memory(server, pss: bool = False) -> dict:
    """Resident bytes of the server and of its kernels (``pss``: proportional, shared pages counted once)."""
    import psutil

    def size(proc):
        try:
            info = proc.memory_full_info() if pss else proc.memory_info()
            return info.pss if pss else info.rss
        except psutil.Error:
            return 0

    def cpu(proc):
        try:
            t = proc.cpu_times()
            return t.user + t.system
        except psutil.Error:
            return 0.0

    ks = kernels(server)
    each = [size(k) for k in ks]
    return {"server": size(psutil.Process(server.process.pid)), "kernels": len(ks), "kernel_bytes": sum(each),
            "kernel_median": statistics.median(each) if each else 0,
            "cpu_s": cpu(psutil.Process(server.process.pid)) + sum(cpu(k) for k in ks)}


async def sampler(server, samples: list, stop: asyncio.Event):
    while not stop.is_set():
        samples.append((now(), memory(server)))
        try:
            await asyncio.wait_for(stop.wait(), 1.0)
        except TimeoutError:
            pass


def percentile(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


async def run_class(n: int, args) -> dict:
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=MAX_STUDENTS)  # every student's page at once, as browsers do
    cull = [f"--MappingKernelManager.cull_idle_timeout={args.cull_timeout}",
            f"--MappingKernelManager.cull_interval={args.cull_interval}",
            f"--ClassroomKernelManager.max_kernels={max(n, 40)}"]
    result = {"students": n, "load_before": os.getloadavg(), "prepare_hidden": args.prepare_hidden}
    saved = os.environ.get("EXPLORER_PREPARE_HIDDEN")
    if args.prepare_hidden:  # the server's environment is every kernel's (deploy/voila.py only sets a default)
        os.environ["EXPLORER_PREPARE_HIDDEN"] = args.prepare_hidden
    try:
        return await _run_class(n, args, cull, result)
    finally:
        if saved is None:
            os.environ.pop("EXPLORER_PREPARE_HIDDEN", None)
        else:
            os.environ["EXPLORER_PREPARE_HIDDEN"] = saved


async def _run_class(n: int, args, cull: list, result: dict) -> dict:
    with servers.voila(NOTEBOOK, config=DEPLOY, args=cull, timeout=120) as server:
        assert urlsplit(server.base).hostname == "127.0.0.1"
        base = memory(server)
        students = [Student(i, i * args.arrival + random.uniform(0, args.arrival)) for i in range(n)]
        samples, stop = [], asyncio.Event()
        watch = asyncio.ensure_future(sampler(server, samples, stop))
        t0 = now()
        done, dismissed = [asyncio.Event() for _ in students], asyncio.Event()
        runs = [asyncio.ensure_future(student_run(s, server, args, t0, d, dismissed)) for s, d in zip(students, done)]
        finished = asyncio.ensure_future(asyncio.gather(*(d.wait() for d in done)))
        await asyncio.wait([finished], timeout=args.deadline)
        result["timed_out"] = not finished.done()
        result["active_s"] = now() - t0
        ready = memory(server, pss=True)  # every page still open
        stop.set()
        await watch
        dismissed.set()
        _, pending = await asyncio.wait(runs, timeout=30)
        for task in pending:
            task.cancel()
        finished.cancel()
        # the pages are closed; wait for the culler
        closed = now()
        while kernels(server) and now() - closed < args.cull_timeout + 3 * args.cull_interval + 60:
            await asyncio.sleep(1.0)
        result["cull_s"] = now() - closed
        await asyncio.sleep(2.0)
        after = memory(server, pss=True)
    latencies = [lat for s in students for _, lat in s.changes if lat is not None]
    kinds = KINDS + ("switch (ready)",)
    result.update(
        load_after=os.getloadavg(), errors=[s.error for s in students if s.error],
        changes=sum(len(s.changes) for s in students),
        missed=sum(lat is None and k != "switch (ready)" for s in students for k, lat in s.changes),
        ready_switches=sum(k == "switch (ready)" for s in students for k, _ in s.changes),
        p50=statistics.median(latencies) if latencies else None,
        p95=percentile(latencies, 0.95) if latencies else None,
        worst=max(latencies) if latencies else None,
        page_p50=statistics.median([s.page_s for s in students if s.page_s]) if any(s.page_s for s in students) else None,
        page_worst=max([s.page_s for s in students if s.page_s], default=None),
        base=base, ready=ready, after=after,
        peak_rss=max((m["server"] + m["kernel_bytes"] for _, m in samples), default=0),
        peak_kernels=max((m["kernels"] for _, m in samples), default=0),
        kernel_rss_median=statistics.median([m["kernel_median"] for _, m in samples if m["kernels"]] or [0]),
        missed_by_kind={kind: sum(k == kind and lat is None for s in students for k, lat in s.changes)
                        for kind in KINDS if any(k == kind and lat is None for s in students for k, lat in s.changes)},
        by_kind={kind: statistics.median([lat for s in students for k, lat in s.changes if k == kind and lat])
                 for kind in kinds if any(k == kind and lat for s in students for k, lat in s.changes)},
    )
    return result


def mib(b) -> str:
    return f"{b / 2**20:,.0f}"


def table(results: list, args) -> list:
    header = ("| students | changes (not repainted) | p50 / p95 / worst s (change -> repaint) | page ready p50 / worst s "
              "| peak RSS MiB (server + kernels) | one kernel RSS MiB | PSS MiB, pages open | kernels after cull "
              "(wait s) | PSS MiB after | load avg before / after |")
    lines = [header, "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        fmt = (lambda v: "—" if v is None else f"{v:.2f}")
        lines.append(
            f"| {r['students']} | {r['changes']} ({r['missed']}) | {fmt(r['p50'])} / {fmt(r['p95'])} / "
            f"{fmt(r['worst'])} | {fmt(r['page_p50'])} / {fmt(r['page_worst'])} | {mib(r['peak_rss'])} | "
            f"{mib(r['kernel_rss_median'])} | {mib(r['ready']['server'] + r['ready']['kernel_bytes'])} | "
            f"{r['after']['kernels']} ({r['cull_s']:.0f}) | {mib(r['after']['server'] + r['after']['kernel_bytes'])} | "
            f"{r['load_before'][0]:.1f} / {r['load_after'][0]:.1f} |")
    lines.append("")
    for r in results:
        per = r["ready"]["cpu_s"] / r["students"]
        lines.append(f"N={r['students']}: CPU of the server and kernels while the class ran: {r['ready']['cpu_s']:.0f} s "
                     f"in {r['active_s']:.0f} s, {per:.1f} s per student, {per / r['active_s']:.3f} cores per student")
    lines.append(f"hidden tabs prepared: {args.prepare_hidden or 'opened (deploy/voila.py)'}; think time {args.think} s (+-50 %), {args.changes} changes per student ({', '.join(KINDS)}, in turn), arrivals "
                 f"{args.arrival} s apart, cull after {args.cull_timeout} s idle checked every {args.cull_interval} s;"
                 f" {os.cpu_count()} CPUs")
    for r in results:
        kinds = ", ".join(f"{k} {v:.2f}" for k, v in r["by_kind"].items())
        missed = ", ".join(f"{k} x{v}" for k, v in r["missed_by_kind"].items()) or "none"
        lines.append(f"N={r['students']}: median s by change: {kinds}; not repainted: {missed}; tab switches shown "
                     f"as prepared: {r['ready_switches']}"
                     + (f"; {len(r['errors'])} students failed: {r['errors'][0]}" if r["errors"] else "")
                     + ("; the run hit its deadline" if r["timed_out"] else ""))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[5, 10, 20, 30])
    parser.add_argument("--changes", type=int, default=14, help="changes per student (default 14: two rounds of "
                        "the seven in KINDS)")
    parser.add_argument("--think", type=float, default=3.0, help="seconds between a repaint and the next change")
    parser.add_argument("--arrival", type=float, default=1.5, help="seconds between students' arrivals")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds a repaint or a page may take")
    parser.add_argument("--deadline", type=float, default=900.0, help="seconds one class may run")
    parser.add_argument("--cull-timeout", type=int, default=20)
    parser.add_argument("--cull-interval", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--prepare-hidden", choices=("all", "opened"), default=None,
                        help="which hidden tabs each kernel prepares (default: deploy/voila.py's choice, opened)")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args(argv)
    if max(args.students) > MAX_STUDENTS or min(args.students) < 1:
        parser.error(f"--students must be between 1 and {MAX_STUDENTS}, got {args.students}")
    if not 1 <= args.changes <= 100:
        parser.error(f"--changes must be between 1 and 100, got {args.changes}")
    random.seed(args.seed)
    results = []
    for n in args.students:
        r = asyncio.run(run_class(n, args))
        results.append(r)
        print(f"N={n}: p95 {r['p95']} s, {r['missed']} missed, {len(r['errors'])} failed, "
              f"{r['after']['kernels']} kernels left", flush=True)
    for line in table(results, args):
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    worst = [r for r in results if r["after"]["kernels"] or r["errors"] or r["missed"]]
    if worst:
        print("FAILED: a kernel was left, a student failed or a change was not repainted")
        sys.exit(1)


if __name__ == "__main__":
    main()

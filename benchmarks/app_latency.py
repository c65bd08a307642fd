"""Latency of the interactive explorer: one control change -> recompute -> redraw, on a 256x256 RGB image.

For each tab and each control that tab depends on, the script applies N changes through ``app.set`` and
times each from the call to a finished frame:

* ``image``  display: ``app.set`` recomputes the affected modes (forward, and backward on the Gradients tab),
  updates the artists in place, renders with Agg and encodes the PNG shown in the Image widget;
* ``ipympl`` display: ``app.set`` plus ``canvas.draw()``, which is what ipympl runs when the browser asks
  for the new frame (Agg render and the PNG diff it sends; ``syncing_data_url`` is off, as with a live
  front end).

Every cache is emptied before each change (engine plans, forward results, zone-plate figures, kernel
responses, advisor grids), so each change is timed as if its value had never been seen; ``--warm`` keeps
them (revisiting a value).  It prints the median and the worst time per control and tab, in milliseconds.

    MPLBACKEND=Agg python benchmarks/app_latency.py [--repeat N] [--display image|ipympl|both] [--warm]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time

os.environ.setdefault("MPLBACKEND", "Agg")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# control -> the values cycled through (each change differs from the previous one)
SWEEPS = {
    "scale": [0.3, 0.37, 0.45, 0.5, 0.63, 0.8, 1.25, 1.5, 1.7, 2.0, 0.25, 0.7],
    "size": [(64, 64), (100, 90), (128, 128), (200, 160), (300, 300), (90, 120)],
    "mode": ["nearest", "bilinear", "bicubic", "area", "nearest-exact", "lanczos"],
    "modes": [("nearest", "bilinear", "bicubic"), ("bilinear", "area", "lanczos"), ("nearest-exact", "bicubic"),
              ("nearest", "nearest-exact", "bilinear", "bicubic")],
    "reference": ["lanczos", "bilinear", "area", "bicubic"],
    "align_corners": [True, False],
    "antialias": [True, False],
    "upstream": ["ones", "mse", "random", "rectangle"],
    "seed": [1, 2, 3, 4],
    "crop": [(0.1, 0.1, 0.225, 0.225), (0.4, 0.5, 0.525, 0.625), (0.7, 0.2, 0.825, 0.325)],
    "length": [8, 12, 16, 6, 10],
    "sample": [0, 1, 2, 3],
    "training": [False, True],
    "device": [None],  # filled from the backend's devices
    "content": ["labels", "features", "photo"],
}
TAB_CONTROLS = {
    "modes": ("scale", "size", "mode", "modes", "reference", "align_corners", "antialias", "crop"),
    "gradients": ("scale", "size", "modes", "align_corners", "antialias", "upstream", "seed", "crop"),
    "kernels": ("scale", "mode", "modes", "align_corners", "antialias", "length", "sample"),
    "backends": ("mode", "antialias", "training", "device"),
    "pick": ("scale", "training", "content"),
}


def clear_caches(app):
    from explorer.engine import plan
    from explorer.advisor import quality
    from explorer.ui.views import anatomy, backends

    app.engine.clear()
    plan.clear_plan_cache()
    quality._zone_plate_figures.cache_clear()
    anatomy._default_response.cache_clear()
    backends.support_grid.cache_clear()


def measure(display: str, repeat: int, warm: bool = False):
    from explorer.ui.app import App

    app = App(image="photo", display=display)
    assert app.image.shape == (256, 256, 3), app.image.shape
    if display == "ipympl":
        for tab in app.tabs.values():
            tab.host.widget.syncing_data_url = False  # a live front end receives diffs, not data URLs
    devices = app.state.backends.get(app.state["backend"], ((), ()))[1]
    sweeps = dict(SWEEPS, device=[None, *devices])
    results = {}
    for tab, controls in TAB_CONTROLS.items():
        app.set(tab=tab, scale=0.5, modes=("nearest", "bilinear", "bicubic"), mode="bilinear")
        for control in controls:
            values = itertools.cycle(sweeps[control])
            times, parts = [], []
            previous = app.state[control]
            for _ in range(repeat):
                value = next(values)
                if value == previous:
                    value = next(values)
                previous = value
                if not warm:
                    clear_caches(app)
                t0 = time.perf_counter()
                app.set(**{control: value})
                if display == "ipympl" and app.last_timing.get("refreshed"):
                    app.visible_tab.host.widget.draw()
                times.append(time.perf_counter() - t0)
                parts.append(app.last_timing)
            restore = {"size": None} if control == "size" else {}
            if control == "size":
                restore = {"scale": 0.5}
            if restore:
                app.set(**restore)
            results[(tab, control)] = (statistics.median(times), max(times),
                                       statistics.median(p.get("compute", 0) for p in parts))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=9, help="changes per control (default 9)")
    parser.add_argument("--display", choices=("image", "ipympl", "both"), default="both")
    parser.add_argument("--warm", action="store_true", help="keep the caches between changes")
    args = parser.parse_args(argv)
    displays = ("image", "ipympl") if args.display == "both" else (args.display,)
    print(f"256x256 RGB photo; median and worst ms per change over {args.repeat} changes "
          f"({'warm' if args.warm else 'cold'} caches); compute = the engine's forward/backward and measurements")
    for display in displays:
        results = measure(display, args.repeat, args.warm)
        print(f"\ndisplay = {display}")
        print(f"{'tab':<10} {'control':<14} {'median':>8} {'worst':>8} {'compute':>8}")
        for (tab, control), (median, worst, compute) in results.items():
            flag = "" if median < 0.1 else "  > 100 ms"
            print(f"{tab:<10} {control:<14} {median * 1e3:8.1f} {worst * 1e3:8.1f} {compute * 1e3:8.1f}{flag}")
        allm = [m for m, _, _ in results.values()]
        print(f"{'all':<10} {'':<14} {statistics.median(allm) * 1e3:8.1f} {max(allm) * 1e3:8.1f}")


if __name__ == "__main__":
    main()

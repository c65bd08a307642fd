"""The explorer's kernel-side cost of a change: ``app.set`` -> recompute -> the figure drawn to HTML, on a 256x256
RGB photo.

For each tab and each control that tab depends on, the script applies N changes through ``app.set`` and times
each (in a script there is no render worker: ``set`` returns when the visible tab's figure is drawn: engine,
colours, PNG encodes, HTML; matplotlib SVG for Kernels).  Every cache is emptied before each change (engine
plans, forward results, zone-plate figures, kernel responses, advisor grids), so each change is timed as if its
value had never been seen; ``--warm`` keeps them.  It prints the median and worst time per control and tab, in
milliseconds.  What a person sees in the browser (transfer, decoding, painting) is measured by
``benchmarks/browser_latency.py``.

``--large`` instead times every tab at a 4000 x 4000 output (wall and CPU time of the change, and the process's
peak memory), the explorer's answer to a very large typed size.

    MPLBACKEND=Agg python benchmarks/app_latency.py [--repeat N] [--warm]
    MPLBACKEND=Agg python benchmarks/app_latency.py --large
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
    from explorer.advisor import quality
    from explorer.engine import plan
    from explorer.ui.compute import backends, kernels

    app.engine.clear()
    plan.clear_plan_cache()
    quality._zone_plate_figures.cache_clear()
    kernels._default_response.cache_clear()
    backends.support_grid.cache_clear()


def measure(repeat: int, warm: bool = False):
    from explorer.ui.app import App

    app = App(image="photo")
    assert app.image.shape == (256, 256, 3), app.image.shape
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
                times.append(time.perf_counter() - t0)
                parts.append(app.last_timing)
            if control == "size":
                app.set(scale=0.5)
            results[(tab, control)] = (statistics.median(times), max(times),
                                       statistics.median(p.get("compute", 0) for p in parts))
    return results


def large():
    """Every tab at a 4000 x 4000 output: (wall s, CPU s of this thread, message) per tab, and the peak RSS."""
    from explorer.ui.app import App

    app = App(image="photo")
    out = {}
    for tab in TAB_CONTROLS | {"libraries": ()}:
        app.set(tab=tab, scale=0.5)
        clear_caches(app)
        wall, cpu = time.perf_counter(), time.thread_time()
        app.set(size=(4000, 4000))
        out[tab] = (time.perf_counter() - wall, time.thread_time() - cpu, app.message_text)
    # VmHWM is this program's own peak (ru_maxrss would also count the parent's resident set before the exec)
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    return out, peak / 2**10


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=9, help="changes per control (default 9)")
    parser.add_argument("--warm", action="store_true", help="keep the caches between changes")
    parser.add_argument("--large", action="store_true", help="every tab at a 4000 x 4000 output")
    args = parser.parse_args(argv)
    if args.large:
        times, peak = large()
        print(f"{'tab':<10} {'wall s':>7} {'CPU s':>7}  4000 x 4000 output from the 256 x 256 photo")
        for tab, (wall, cpu, message) in times.items():
            print(f"{tab:<10} {wall:7.2f} {cpu:7.2f}  {message}")
        print(f"peak resident memory: {peak:.2f} GiB")
        return
    print(f"256x256 RGB photo; median and worst ms per change over {args.repeat} changes "
          f"({'warm' if args.warm else 'cold'} caches); compute = the engine's forward/backward and measurements")
    results = measure(args.repeat, args.warm)
    print(f"{'tab':<10} {'control':<14} {'median':>8} {'worst':>8} {'compute':>8}")
    for (tab, control), (median, worst, compute) in results.items():
        print(f"{tab:<10} {control:<14} {median * 1e3:8.1f} {worst * 1e3:8.1f} {compute * 1e3:8.1f}")
    allm = [m for m, _, _ in results.values()]
    print(f"{'all':<10} {'':<14} {statistics.median(allm) * 1e3:8.1f} {max(allm) * 1e3:8.1f}")


if __name__ == "__main__":
    main()

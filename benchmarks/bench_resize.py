"""Speed of explorer's resize against PyTorch CPU (and OpenCV / Pillow forward), in one process.

    python benchmarks/bench_resize.py                 # every workload and mode, ~3-5 minutes
    python benchmarks/bench_resize.py --quick         # W1 and W3 only
    python benchmarks/bench_resize.py --markdown      # the table for the README

Everything runs single-threaded, and is timed by the CPU time of the calling thread (``--wall`` for the wall clock),
which other processes on a shared machine disturb far less: ``torch.set_num_threads(1)``, numpy's BLAS held to one thread by explorer
(``explorer.engine.threads.BLAS_THREADS``), OpenCV ``cv2.setNumThreads(1)``.  Timings are medians of interleaved
repetitions; ratios (explorer / torch) are taken within the same run, which is what to trust on a noisy
machine.  Every call runs after the others in each repetition (interleaved), so each meets the caches the
others leave behind, as in a real pipeline.  Plans are warmed first: a repeated call pays only the
contraction.  OpenCV and Pillow are timed on arrays already in their layout (HWC / one 'F' image per channel);
the NCHW<->HWC conversion is not counted.
Peak memory is numpy's peak allocation during one explorer call (tracemalloc), as a multiple of the output.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc

import numpy as np

import explorer
import explorer.engine.memory
import explorer.engine.threads

WORKLOADS = {
    "W1 1x3x512²→1024²": ((1, 3, 512, 512), (1024, 1024)),
    "W2 1x3x1024²→2048²": ((1, 3, 1024, 1024), (2048, 2048)),
    "W3 1x3x2048²→512²": ((1, 3, 2048, 2048), (512, 512)),
    "W4 8x16x64²→128²": ((8, 16, 64, 64), (128, 128)),
    "W5 1x1x4096²→8192²": ((1, 1, 4096, 4096), (8192, 8192)),
}

MODES = [
    ("nearest", {}),
    ("nearest-exact", {}),
    ("bilinear", {}),
    ("bicubic", {}),
    ("bilinear", {"antialias": True}),
    ("bicubic", {"antialias": True}),
    ("lanczos", {"antialias": True}),
    ("area", {}),
]

CV2_FLAGS = {"nearest": "INTER_NEAREST", "nearest-exact": "INTER_NEAREST_EXACT", "bilinear": "INTER_LINEAR",
             "bicubic": "INTER_CUBIC", "lanczos": "INTER_LANCZOS4", "area": "INTER_AREA"}
PIL_FILTERS = {"nearest-exact": "NEAREST", "bilinear+aa": "BILINEAR", "bicubic+aa": "BICUBIC",
               "lanczos+aa": "LANCZOS"}


CLOCK = time.thread_time  # CPU time of this thread: robust when other processes share the cores


def _median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def _label(mode, opts):
    return mode + ("+aa" if opts.get("antialias") else "")


def _peak_memory(fn, output_bytes):
    explorer.engine.memory.release_scratch()  # count the intermediate buffer, which later calls reuse
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    # the returned output itself is part of the peak; report the extra memory beyond it
    return (peak - output_bytes) / output_bytes


def run(workloads, repeat, modes):
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:  # pragma: no cover - OpenCV is optional for the benchmark
        cv2 = None
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover
        Image = None

    rows = []
    for name, (shape, size) in workloads.items():
        rng = np.random.default_rng(0)
        x = rng.random(shape, dtype=np.float32)
        xt = torch.from_numpy(x)
        hwc = np.ascontiguousarray(x.reshape(-1, *shape[2:]).transpose(1, 2, 0)) if shape[0] * shape[1] <= 4 else None
        for mode, opts in modes:
            down = size[0] < shape[2]
            if opts.get("antialias") and not down:
                continue  # antialias changes nothing but the cubic coefficient on upsampling
            if mode == "lanczos" and not down and name.startswith("W5"):
                continue
            label = _label(mode, opts)
            kw = dict(size=size, mode=mode, **opts)
            out_bytes = int(np.prod(shape[:2])) * size[0] * size[1] * 4
            y = explorer.interpolate(x, **kw)  # warm the plans
            g = rng.random(y.shape, dtype=np.float32)
            explorer.interpolate_backward(g, shape, **kw)
            gt = torch.from_numpy(g)
            xr = xt.clone().requires_grad_(True)
            yt = F.interpolate(xr, **kw)

            calls = {
                "fwd": lambda: explorer.interpolate(x, **kw),
                "torch_fwd": lambda: F.interpolate(xt, **kw),
                "bwd": lambda: explorer.interpolate_backward(g, shape, **kw),
                "torch_bwd": lambda: torch.autograd.grad(yt, xr, gt, retain_graph=True),
            }
            if cv2 is not None and hwc is not None and mode in CV2_FLAGS and not (
                    opts.get("antialias") and mode != "lanczos"):
                flag = getattr(cv2, CV2_FLAGS[mode])
                calls["opencv"] = lambda: cv2.resize(hwc, (size[1], size[0]), interpolation=flag)
            if Image is not None and label in PIL_FILTERS and shape[0] * shape[1] <= 4:
                flt = getattr(Image.Resampling, PIL_FILTERS[label])
                planes = [Image.fromarray(x[0, c]) for c in range(shape[1])]
                calls["pillow"] = lambda: [p.resize((size[1], size[0]), flt) for p in planes]
            # interleaved: every library runs after the others, with the caches they leave behind
            times = {key: [] for key in calls}
            for _ in range(repeat):
                for key, call in calls.items():
                    times[key].append(_median_time(call, 1))
            row = dict(workload=name, mode=label)
            for key, values in times.items():
                row[f"{key}_ms"] = 1e3 * statistics.median(values)
            row["fwd_ratio"] = row["fwd_ms"] / row["torch_fwd_ms"]
            row["bwd_ratio"] = row["bwd_ms"] / row["torch_bwd_ms"]
            if "opencv_ms" in row:
                row["opencv"] = CV2_FLAGS[mode]
            row["peak_extra"] = _peak_memory(lambda: explorer.interpolate(x, **kw), out_bytes)
            row["bwd_peak_extra"] = _peak_memory(lambda: explorer.interpolate_backward(g, shape, **kw),
                                                 int(np.prod(shape)) * 4)
            rows.append(row)
            print(_format_row(row), flush=True)
    return rows


def _format_row(r):
    extra = ""
    if "opencv_ms" in r:
        extra += f"  opencv {r['opencv_ms']:8.1f} ms ({r['fwd_ms'] / r['opencv_ms']:.2f}x)"
    if "pillow_ms" in r:
        extra += f"  pillow {r['pillow_ms']:8.1f} ms ({r['fwd_ms'] / r['pillow_ms']:.2f}x)"
    return (f"{r['workload']:22s} {r['mode']:14s} fwd {r['fwd_ms']:8.1f} ms / torch {r['torch_fwd_ms']:8.1f} "
            f"= {r['fwd_ratio']:5.2f}x   bwd {r['bwd_ms']:8.1f} / {r['torch_bwd_ms']:8.1f} = "
            f"{r['bwd_ratio']:5.2f}x   peak +{r['peak_extra']:.2f}/+{r['bwd_peak_extra']:.2f} out{extra}")


def markdown(rows):
    lines = ["| workload | mode | fwd ms | torch fwd ms | fwd ratio | bwd ms | torch bwd ms | bwd ratio | "
             "peak extra (fwd/bwd, × result) | OpenCV fwd ms | Pillow fwd ms |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cv = f"{r['opencv_ms']:.1f}" if "opencv_ms" in r else "—"
        pil = f"{r['pillow_ms']:.1f}" if "pillow_ms" in r else "—"
        lines.append(f"| {r['workload']} | {r['mode']} | {r['fwd_ms']:.1f} | {r['torch_fwd_ms']:.1f} | "
                     f"**{r['fwd_ratio']:.2f}** | {r['bwd_ms']:.1f} | {r['torch_bwd_ms']:.1f} | "
                     f"**{r['bwd_ratio']:.2f}** | {r['peak_extra']:.2f} / {r['bwd_peak_extra']:.2f} | {cv} | {pil} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only W1 and W3")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved repetitions (median)")
    parser.add_argument("--workload", action="append", help="substring of a workload name (repeatable)")
    parser.add_argument("--mode", action="append", help="mode label, e.g. bicubic or bilinear+aa (repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table at the end")
    parser.add_argument("--wall", action="store_true",
                        help="time with the wall clock instead of the thread's CPU time")
    args = parser.parse_args(argv)
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter
    workloads = WORKLOADS
    if args.quick:
        workloads = {k: v for k, v in WORKLOADS.items() if k.startswith(("W1", "W3"))}
    if args.workload:
        workloads = {k: v for k, v in workloads.items() if any(w in k for w in args.workload)}
    modes = MODES if not args.mode else [m for m in MODES if _label(*m) in args.mode]
    print(f"numpy {np.__version__}, explorer {explorer.__version__}, BLAS threads "
          f"{explorer.engine.threads.BLAS_THREADS}", flush=True)
    rows = run(workloads, args.repeat, modes)
    if args.markdown:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Random valid and invalid calls of the public entry points, run under an address-space limit.

Run by ``tests/test_fuzz.py`` in a subprocess (``python tests/fuzz_calls.py SEED CASES BUDGET_MIB``): it limits
its own address space (``RLIMIT_AS``) to what it maps after its imports plus the budget, draws ``CASES`` calls of
``interpolate``/``interpolate_backward``, ``resize``/``resize_backward``, ``library_resize``/
``library_resize_transpose``, ``Spec`` and ``weights``, the hostile inputs of ``tests/fuzz_inputs.py`` (models
for ``scan``, source trees for ``lint``, image files for ``read_image``, links and changes for the app), and
command lines of ``python -m explorer`` (hostile files among them), and prints one JSON object: the number of
results and clear errors, and every call that ended otherwise.

A call ends well when it returns, or raises a ValueError, TypeError or NotImplementedError from the project's
own code (not from numpy or Pillow deep inside: those are the unclear errors).  Running out of the limit is a
failure (a MemoryError that is not the project's OutputTooLargeError), and so is any other exception.  A command
line ends well with exit status 0, 1 or 2 and no traceback.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import resource
import sys
import time
import traceback

import numpy as np

import fuzz_inputs

HUGE = 10**400
#: Most values of one drawn input array (8 MiB in float64).
MAX_INPUT_VALUES = 2**20

SIZES = [0, 1, 2, 3, 5, 7, 9, 64, 1000, 100_000, 10**9, -3, 5.9, float("nan"), "22", "7", True, None, HUGE,
         np.int64(8), np.array(8), np.array([8, 8]), np.float32(4)]
SCALES = [0.5, 0.73, 1.0, 1.7, 2, 3, 1e-5, 1e-300, 1e300, 1e308, float("inf"), float("nan"), -1, 0, "22", "2",
          np.float32(1.5), np.int64(2), True, None, [0.5], (2, 3), (2.0, 0.5, 1.5)]
AXES = [None, None, None, 0, -1, (0, 1), (1, 0), (0, 0), (5,), (0, 1, 2), "ab", 1.5]
DTYPES = [np.float32, np.float32, np.float64, np.float64, np.uint8, np.float16, np.int32, np.bool_, np.complex64]
LIBRARIES = ["torch", "tensorflow", "jax", "onnx", "opencv", "pillow", "burn", "keras", "torchvision", "scipy",
             "skimage", "mlx", "cv2", "PyTorch", "matlab", None, 3]
GARBAGE_MODES = ["bicubc", "", None, 7, "NEAREST", "inter_cubic", "Bilinear", "nearest_exact", "lanczos", "area"]
TORCH_MODES = ["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area", "lanczos"]
KERNELS = ["nearest", "linear", "cubic", "lanczos3", "lanczos4", "area", "adaptive_area", "box", "hamming",
           "gaussian", "mitchell", "opencv_area_upscale", "keys_cubic_table1024", "bspline3", "bspline5", "bicubic", 3]
TRANSFORMS = ["half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel", "tf_half_pixel_for_nn",
              "half_pixel_symmetric", "tf_crop_and_resize", "pytorch_antialias_align_corners", "half-pixel"]
ROUNDING = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "round_half_even", "simple", "round"]
ARITHMETIC = ["float64", "float32", "float32_scale", "float64_floorf", "incremental", "onnxruntime",
              "xla_float32", "tf_scale_and_translate", "exact", "float16"]
COEFFS = [-0.75, -0.5, 0.0, -3.0, 8.7e140, 1e7, float("nan"), float("inf"), np.float32(-0.5), "a", None]
ROIS = [None, None, (0.1, 0.9), (0.0, 1.0), ((0.0, 1.0), (0.2, 0.8)), (float("nan"), 1), (), (1, 2, 3), "ab",
        (np.float32(0.2), np.float32(0.7)), (0, 1e300), (-5.0, 5.0)]
OPTION_VALUES = [True, False, None, 0, 1, "yes", 2.5, 11, 19, "half_pixel", (0.1, 0.9)]
OPTION_NAMES = ["align_corners", "antialias", "recompute_scale_factor", "backend", "opset", "cubic_coeff_a",
                "coordinate_transformation_mode", "half_pixel_centers", "version", "keep_aspect_ratio_policy",
                "interpolation", "bogus"]


def pick(rng, pool):
    return pool[rng.randrange(len(pool))]


class Draw:
    """Random arguments: each is valid unless the case is a bad one and the argument is chosen to be bad."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.bad = self.rng.random() < 0.5

    def either(self, valid, invalid_pool, p=0.25):
        """``valid`` (a value or a function drawing one), or, in a bad case, one of ``invalid_pool``."""
        if self.bad and self.rng.random() < p:
            return pick(self.rng, invalid_pool)
        return valid() if callable(valid) else valid

    def choice(self, pool):
        return pick(self.rng, pool)

    def random(self):
        return self.rng.random()

    # ------------------------------------------------------------------ values
    def lengths(self, count, big=True):
        """``count`` valid lengths (now and then a large one), or garbage."""
        def valid():
            pool = [1, 2, 3, 5, 8, 13, 40, 300] + ([1000, 30_000] if big else [])
            values = tuple(pick(self.rng, pool) for _ in range(count))
            if big and self.rng.random() < 0.08:  # now and then too large for the memory limit
                values = (400_000,) * count
            return values[0] if count == 1 and self.rng.random() < 0.3 else values
        return self.either(valid, SIZES + [tuple(pick(self.rng, SIZES) for _ in range(count))])

    def factors(self, count):
        def valid():
            pool = [0.25, 0.5, 0.73, 1.0, 1.3, 2.0, 3.5, 17.0, np.float32(1.5)]
            return pick(self.rng, pool) if self.rng.random() < 0.5 else tuple(pick(self.rng, pool)
                                                                               for _ in range(count))
        return self.either(valid, SCALES)

    def array(self, ndim):
        ndim = self.either(ndim, [1, 2, 6])
        shape = tuple(pick(self.rng, [1, 2, 3, 5, 8, 17, 64]) for _ in range(ndim))
        if self.bad and self.rng.random() < 0.2:
            shape = tuple(0 if self.rng.random() < 0.3 else s for s in shape)
        dtype = self.either(lambda: pick(self.rng, [np.float32, np.float32, np.float64, np.uint8]),
                            [np.float16, np.int32, np.bool_, np.complex64])
        while math.prod(shape) > MAX_INPUT_VALUES:  # the inputs themselves fit well within the memory limit
            shape = tuple(1 if s == max(shape) else s for s in shape)
        values = np.random.default_rng(self.rng.randrange(2**32)).random(shape) * 255
        x = values.astype(dtype)
        if self.rng.random() < 0.05:
            x = np.full(shape, np.nan, np.float32)
        return self.either(x, [[["a", "b"]], "not an array", None])

    def spec(self):
        from explorer import Spec

        fields = {
            "kernel": self.either(lambda: pick(self.rng, KERNELS[:-2]), KERNELS[-2:] + [None]),
            "coordinate_transformation_mode": self.either(lambda: pick(self.rng, TRANSFORMS[:-1]), ["half-pixel", 4]),
            "nearest_mode": self.either(lambda: pick(self.rng, ROUNDING[:-1]), ["round", None]),
            "cubic_coeff_a": self.either(lambda: pick(self.rng, COEFFS[:4] + [np.float32(-0.5)]), COEFFS[4:]),
            "exclude_outside": self.either(lambda: self.rng.random() < 0.5, [1, "no", 2]),
            "antialias": self.either(lambda: self.rng.random() < 0.5, ["yes", 2.0]),
            "roi": self.either(lambda: pick(self.rng, ROIS[:5] + ROIS[-3:]), ROIS[5:-3]),
            "index_arithmetic": self.either(lambda: pick(self.rng, ARITHMETIC[:-1]), ["float16"]),
        }
        return Spec(**{k: v for k, v in fields.items() if self.rng.random() < 0.5})


# ---------------------------------------------------------------------------------------------------- calls
def call_interpolate(seed, explorer):
    d = Draw(seed)
    ndim = d.choice([3, 4, 4, 5])
    mode = d.either(lambda: pick(d.rng, {3: ["nearest", "nearest-exact", "linear", "area"],
                                         4: ["nearest", "nearest-exact", "bilinear", "bicubic", "area", "lanczos"],
                                         5: ["nearest", "nearest-exact", "trilinear", "area"]}[ndim]),
                    GARBAGE_MODES + TORCH_MODES)
    x = d.array(ndim)
    kwargs = {"mode": mode}
    if d.random() < 0.5:
        kwargs["size"] = d.lengths(ndim - 2, big=ndim == 3)
    else:
        kwargs["scale_factor"] = d.factors(ndim - 2)
    if mode in ("linear", "bilinear", "bicubic", "trilinear") or d.bad:
        kwargs["align_corners"] = d.either(lambda: pick(d.rng, [True, False, None]), [1, "yes"])
    if mode in ("bilinear", "bicubic", "lanczos") or d.bad:
        kwargs["antialias"] = d.either(lambda: mode == "lanczos" or d.random() < 0.5, [True, 3])
    if d.random() < 0.3 and isinstance(x, np.ndarray):
        y = explorer.interpolate(x, **kwargs)
        grad = np.broadcast_to(np.float32(1), y.shape)  # no copy: y may be most of the memory limit
        shape = d.either(x.shape, ["115", (1, 1, 5.9), (1, -1, 3, 3), 5])
        return explorer.interpolate_backward(grad, shape, **kwargs)
    return explorer.interpolate(x, **kwargs)


def call_resize(seed, explorer):
    d = Draw(seed)
    ndim = d.choice([1, 2, 3, 4])
    x = d.array(ndim)
    count = d.choice([1] * ndim + [min(2, ndim)])
    spec = d.either(d.spec, ["linear", None, 3], p=0.1)
    kwargs = {"axes": d.either(None, AXES[3:])}
    if d.random() < 0.3:
        kwargs["scale_factor"] = d.factors(count)
    size = d.lengths(count)
    if d.random() < 0.1 and isinstance(x, np.ndarray):
        kwargs["out"] = x if d.random() < 0.5 else np.empty(x.shape, np.float64)
    if d.random() < 0.3 and isinstance(x, np.ndarray):
        y = explorer.resize(x, size, spec, **kwargs)
        kwargs.pop("out", None)
        return explorer.resize_backward(np.ones_like(y), x.shape, size, spec, **kwargs)
    return explorer.resize(x, size, spec, **kwargs)


def call_library_resize(seed, explorer):
    from explorer.conventions.mode_names import library_id, library_modes

    d = Draw(seed)
    library = d.either(lambda: pick(d.rng, LIBRARIES[:13]), LIBRARIES[13:])
    try:
        modes = list(library_modes(library_id(library)))
    except Exception:  # noqa: BLE001 - an unknown library: any mode will do
        modes = TORCH_MODES
    mode = d.either(lambda: pick(d.rng, modes), GARBAGE_MODES)
    ndim = d.choice([2, 3, 3, 4])
    x = d.array(ndim)
    count = min(2, ndim)
    options = some_options(d) if d.bad else {}
    kwargs = dict(options, axes=d.either(lambda: tuple(range(ndim - count, ndim)) if ndim > 2 else None,
                                         AXES[3:]))
    if d.random() < 0.6:
        kwargs["size"] = d.lengths(count)
    else:
        kwargs["scale_factor"] = d.factors(count)
    if d.random() < 0.25 and isinstance(x, np.ndarray):
        grad = np.ones(x.shape, np.float32)
        shape = d.either(x.shape, ["44", (4, 4.5), (-4, 4), (100000, 100000)])
        return explorer.library_resize_transpose(grad, shape, library=library, mode=mode, **kwargs)
    return explorer.library_resize(x, library=library, mode=mode, **kwargs)


def some_options(d):
    return {pick(d.rng, OPTION_NAMES): pick(d.rng, OPTION_VALUES) for _ in range(d.choice([0, 1, 2]))}


def call_weights(seed, explorer):
    d = Draw(seed)
    n = d.either(lambda: pick(d.rng, [1, 4, 17, 1000, 100_000]), [0, -2, 4.5, "8", 10**6])
    m = d.either(lambda: pick(d.rng, [1, 3, 40, 1000]), [0, 10**6, 7.0, 100_000])
    scale = d.either(lambda: pick(d.rng, [None, None, 0.5, 2.0, 1e-4]), [1e-7, 1e-300, 1e300, -1, float("nan"), "2"])
    return explorer.weights(n, m, d.spec(), scale=scale)


CALLS = [call_interpolate, call_interpolate, call_resize, call_resize, call_library_resize, call_library_resize,
         call_weights, *fuzz_inputs.CALLS]


# ---------------------------------------------------------------------------------------------------- CLI
BACKENDS = ["burn-tch", "torch", "onnxruntime", "opencv", "burn-wgpu", "nope", ""]
CLI_MODES = ["nearest-exact", "NearestExact", "bilinear", "bicubc", "INTER_AREA", "area"]


def some_argv(rng):
    if rng.random() < 0.4:
        return fuzz_inputs.some_argv(rng)
    command = rng.choice(["check", "fixes", "fixes", "smoke", "backends", "diagnose", "frobnicate"])
    argv = [command]
    if command == "diagnose":
        return argv + [rng.choice(["nearest exact interpolation backward is not supported", "   ", "x" * 50])]
    if command in ("check", "fixes", "smoke") and rng.random() < 0.95:
        argv += ["--backend", pick(rng, BACKENDS)]
    if command in ("check", "fixes") and rng.random() < 0.95:
        argv += ["--mode", pick(rng, CLI_MODES)]
    if command in ("check", "fixes") and rng.random() < 0.5:
        argv += ["--train"]
    if command in ("check", "fixes") and rng.random() < 0.5:
        argv += ["--input-size"] + [str(pick(rng, [-3, 0, 3, 7, 16, 100000, "x"])) for _ in range(2)]
    if command == "check" and rng.random() < 0.4:
        argv += ["--output-size"] + [str(pick(rng, [-4, 0, 5, 32])) for _ in range(2)]
    if command == "fixes":
        if rng.random() < 0.6:
            argv += ["--scale", str(pick(rng, ["inf", "1e300", "2000", "2", "0.75", "-1", "nan", "0", "x"]))]
        else:
            argv += ["--size"] + [str(pick(rng, [-4, 0, 5, 24, 70000])) for _ in range(2)]
        if rng.random() < 0.2:
            argv += ["--channels", str(pick(rng, [0, -1, 1, 3, 10**6]))]
    if rng.random() < 0.2:
        argv += [pick(rng, ["--version", "--device", "--dtype", "--spatial-dims", "--opset", "--align-corners"]),
                 pick(rng, ["banana", "0.20.1", "cuda", "float64", "7", "-2", "maybe", "true"])]
    if rng.random() < 0.2:
        argv += ["--json"]
    return argv


def run_cli(argv) -> tuple[int | None, str]:
    from explorer.__main__ import main

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
        except BaseException:  # noqa: BLE001 - what a user would see: a traceback
            return None, "Traceback (most recent call last):\n" + traceback.format_exc()
    return code, err.getvalue()


# ---------------------------------------------------------------------------------------------------- checks
def raised_by_project(exc: BaseException) -> bool:
    """Whether the exception was raised by the project's own code (its innermost frame is in explorer/)."""
    import explorer

    root = os.path.dirname(os.path.abspath(explorer.__file__))
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and os.path.abspath(frames[-1].filename).startswith(root)


def classify(exc: BaseException) -> str | None:
    """None for a clear error, else what is wrong with it."""
    from explorer.errors import OutputTooLargeError

    if isinstance(exc, fuzz_inputs.Leak):
        return f"leaked: {exc}"
    if isinstance(exc, MemoryError) and not isinstance(exc, OutputTooLargeError):
        return "ran out of memory"
    if not isinstance(exc, (ValueError, TypeError, NotImplementedError)):
        return "an exception other than ValueError, TypeError or NotImplementedError"
    if not raised_by_project(exc):
        return "raised from deep inside a library, not by the project's checks"
    if not str(exc).strip():
        return "an empty message"
    return None


def status_bytes(field: str) -> int:
    """A size from /proc/self/status: ``VmSize`` (mapped now) or ``VmHWM`` (the peak resident set of this
    program; ``ru_maxrss`` would also count the parent's before the exec)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def main(seed: int, cases: int, budget_mib: int):
    import explorer
    import explorer.advisor
    from explorer.__main__ import main as _cli  # noqa: F401 - imported before the limit is set

    explorer.check(mode="nearest", backend="burn-tch")  # the knowledge base is read before the limit
    fuzz_inputs.setup()  # the hostile files (and onnx, Pillow, the app's widgets imported) before the limit
    import explorer.ui.app  # noqa: F401
    limit = status_bytes("VmSize") + budget_mib * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    rng = random.Random(seed)
    counts = {"result": 0, "error": 0, "too_large": 0, "cli": 0, "hostile": 0}
    failures = []
    slow = []
    for k in range(cases):
        case_seed = rng.randrange(2**32)
        if k % 10 == 9:
            argv = some_argv(random.Random(case_seed))
            t0 = time.perf_counter()
            code, err = run_cli(argv)
            slow.append((round(time.perf_counter() - t0, 2), " ".join(argv)))
            counts["cli"] += 1
            if code not in (0, 1, 2) or "Traceback" in err:
                failures.append({"call": "cli " + " ".join(argv), "seed": case_seed,
                                 "problem": f"exit status {code}", "detail": err[-600:]})
            continue
        fn = CALLS[k % len(CALLS)]
        counts["hostile"] += fn in fuzz_inputs.CALLS
        t0 = time.perf_counter()
        try:
            fn(case_seed, explorer)
            counts["result"] += 1
        except BaseException as exc:  # noqa: BLE001 - every exception is classified
            problem = classify(exc)
            if problem is None:
                counts["error"] += 1
                counts["too_large"] += isinstance(exc, explorer.OutputTooLargeError)
                if os.environ.get("FUZZ_SHOW_ERRORS"):
                    print(fn.__name__, type(exc).__name__, str(exc)[:110], file=sys.stderr)
            else:
                failures.append({"call": fn.__name__, "seed": case_seed, "problem": problem,
                                 "detail": "".join(traceback.format_exception(exc))[-1500:]})
        slow.append((round(time.perf_counter() - t0, 2), f"{fn.__name__} {case_seed}"))
    peak = status_bytes("VmHWM")
    print(json.dumps({"counts": counts, "failures": failures, "limit": limit, "peak_rss": peak,
                      "slowest": sorted(slow, reverse=True)[:5]}))


def replay(name: str, case_seed: int):
    """Run one case again, raising what it raises (``python tests/fuzz_calls.py replay call_resize SEED``)."""
    import explorer

    fuzz_inputs.setup()
    if name.startswith("cli"):
        print(some_argv(random.Random(case_seed)), run_cli(some_argv(random.Random(case_seed))))
        return
    print(globals()[name](case_seed, explorer))


if __name__ == "__main__":
    if sys.argv[1] == "replay":
        replay(sys.argv[2], int(sys.argv[3]))
    else:
        main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))

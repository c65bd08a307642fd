"""A library's own weight code (``engine/native``) builds a long axis a chunk of rows at a time: the chunks give
exactly the plan the whole axis gives, and building a long axis stays within a bounded amount of memory."""

import tracemalloc

import numpy as np
import pytest

import explorer
from explorer.engine import plan as plan_module
from explorer.engine.native import NATIVE

NATIVE_LIBRARIES = ("torch", "tensorflow", "jax", "onnx", "opencv", "openvino", "litert")
SIZES = [(37, 91), (91, 37), (50, 17), (13, 13), (1, 7), (7, 1)]


def _calls(library):
    rules = explorer.conventions.library(library)
    names = {o.name for o in rules.options}
    for mode in rules.modes:
        for antialias in ((False, True) if "antialias" in names else (None,)):
            for align in ((False, True) if "align_corners" in names else (None,)):
                options = {k: v for k, v in (("antialias", antialias), ("align_corners", align)) if v is not None}
                yield mode, options


def _run(library, mode, options, x, m, g):
    y = explorer.library_resize(x, size=(m,), library=library, mode=mode, axes=(1,), **options)
    gx = explorer.library_resize_transpose(g, x.shape, size=(m,), library=library, mode=mode, axes=(1,), **options)
    return y, gx


@pytest.mark.parametrize("library", NATIVE_LIBRARIES)
def test_chunked_native_plans_equal_whole_axis_plans(library, monkeypatch):
    rng = np.random.default_rng(3)
    compared = native = 0
    for n, m in SIZES:
        for dtype in (np.float32, np.float64):
            x = rng.standard_normal((2, n)).astype(dtype)
            g = rng.standard_normal((2, m)).astype(dtype)
            for mode, options in _calls(library):
                explorer.engine.plan.clear_plan_cache()
                monkeypatch.setattr(plan_module, "_native_rows", lambda n, width: 2**40)
                try:
                    whole = _run(library, mode, options, x, m, g)
                except (ValueError, TypeError, NotImplementedError):
                    continue
                explorer.engine.plan.clear_plan_cache()
                monkeypatch.setattr(plan_module, "_native_rows", lambda n, width: 3)  # 3 rows per chunk
                chunked = _run(library, mode, options, x, m, g)
                for a, b in zip(whole, chunked):
                    np.testing.assert_array_equal(a, b, err_msg=f"{library} {mode} {options} {n}->{m} {dtype}")
                compared += 1
                spec = explorer.preset(library, mode, **options) if _has_preset(library, mode, options) else None
                native += spec is not None and spec.index_arithmetic in NATIVE
    explorer.engine.plan.clear_plan_cache()
    assert compared >= 20 and native >= 4, (compared, native)


def _has_preset(library, mode, options):
    try:
        explorer.preset(library, mode, **options)
    except (ValueError, TypeError, NotImplementedError):
        return False
    return True


def test_a_long_native_axis_is_built_in_bounded_memory():
    """4,000,000 PyTorch float32 bilinear samples: the builder's temporaries are a chunk's, not the axis's."""
    explorer.engine.plan.clear_plan_cache()
    n, m = 1_000_000, 4_000_000
    x = np.zeros((1, 1, 1, n), np.float32)
    tracemalloc.start()
    y = explorer.interpolate(x, size=(1, m), mode="bilinear")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    explorer.engine.plan.clear_plan_cache()
    assert y.shape == (1, 1, 1, m)
    # kept: the band (m rows of 2 float64 weights, starts, lengths) and the coordinates, 48 bytes per output;
    # a whole-axis build took 128 bytes per tap on top (1 GB here)
    assert peak < 110 * m, f"{peak / 2**20:.0f} MiB"

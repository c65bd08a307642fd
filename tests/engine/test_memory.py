"""Memory: the peak extra memory of a resize stays within twice its result (tracemalloc sees numpy's
allocations), plans are cached by bytes and built in bounded chunks, and every entry point refuses before
allocating what cannot fit (the memory available, a container's limit, or the process's RLIMIT_AS)."""

import json
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import explorer
import explorer.engine.memory
from explorer import Spec, limits
from explorer.engine import plan as plan_module
from explorer.engine.cache import ByteCache
from explorer.engine.memory import memory_limit


def _peak_over_result(fn):
    explorer.engine.memory.release_scratch()  # count the intermediate buffer too
    tracemalloc.start()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (peak - result.nbytes) / result.nbytes


@pytest.mark.parametrize("shape,size,mode,aa", [
    ((1, 3, 1200, 1100), (300, 280), "bicubic", False),   # 4x down: tiled, the intermediate is a tile
    ((1, 3, 1200, 1100), (300, 280), "bilinear", True),
    ((1, 3, 300, 280), (1200, 1100), "bicubic", False),   # 4x up: the intermediate is a quarter of the result
    ((2, 3, 64, 64), (128, 96), "bilinear", False),
])
def test_forward_peak_is_at_most_twice_the_output(shape, size, mode, aa):
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    extra = _peak_over_result(lambda: explorer.interpolate(x, size=size, mode=mode, antialias=aa))
    assert extra <= 2.0


def test_float32_stays_float32_without_float64_temporaries():
    x = np.random.default_rng(0).random((1, 3, 400, 400), dtype=np.float32)
    extra = _peak_over_result(lambda: explorer.interpolate(x, size=(800, 800), mode="bicubic"))
    assert extra <= 1.0  # a float64 copy of anything output-sized would exceed this


# ------------------------------------------------------------------------------------------------ issue 14
def _traced_peak(fn):
    explorer.engine.memory.release_scratch()
    plan_module.clear_plan_cache()
    tracemalloc.start()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return result, peak


def test_the_byte_cache_keeps_the_most_recent_values_within_its_bytes():
    cache = ByteCache(100, share=0.5, size_of=len)
    for key in "abcd":
        cache.get(key, lambda key=key: bytearray(30))
    assert cache.keys() == ["b", "c", "d"] and cache.nbytes == 90
    cache.get("b", lambda: bytearray(0))  # a hit: "b" becomes the most recent, nothing is built
    cache.get("e", lambda: bytearray(30))
    assert cache.keys() == ["d", "b", "e"]
    assert len(cache.get("big", lambda: bytearray(60))) == 60 and "big" not in cache  # over the share


def test_the_byte_cache_counts_what_a_value_grows_after_it_was_handed_out():
    cache = ByteCache(100, share=0.9, size_of=len)
    a = cache.get("a", lambda: bytearray(10))
    cache.get("b", lambda: bytearray(10))
    a.extend(bytearray(80))  # a plan's dense blocks and transpose are built after it is returned
    cache.get("c", lambda: bytearray(10))
    assert cache.nbytes <= 100 and "a" not in cache


def test_plans_are_cached_by_bytes_counting_their_blocks_and_transposes(monkeypatch):
    monkeypatch.setattr(plan_module.PLANS, "max_bytes", 48 * 2**20)
    plan_module.clear_plan_cache()
    x = np.random.default_rng(0).random(20_000)
    spec = Spec("lanczos3", antialias=True, exclude_outside=True)
    for m in range(40, 60):
        y = explorer.resize(x, (m,), spec)
        explorer.resize_backward(np.ones_like(y), x.shape, (m,), spec)
        explorer.resize(np.ones(5), (7,), Spec("linear"))  # a small plan used in between
        assert plan_module.PLANS.nbytes <= 48 * 2**20
    held = plan_module.PLANS.values()
    big = [p for p in held if p.n == 20_000]
    assert 2 <= len(big) < 20  # some were kept, the oldest dropped
    assert plan_module.PLANS.nbytes == sum(p.nbytes for p in held)
    assert all("T" in p.band.__dict__ for p in big)  # the transposes are counted in the plans' bytes
    assert all(p.nbytes > p.band.weights.nbytes + p.band.T.weights.nbytes for p in big)


def test_a_plan_larger_than_its_share_of_the_cache_is_not_kept():
    plan_module.clear_plan_cache()
    explorer.interpolate(np.ones((1, 1, 7), np.float32), size=2_000_000, mode="linear")
    assert not any(key[1] == 2_000_000 for key in plan_module.PLANS)


@pytest.mark.parametrize("spec", [Spec("linear"), Spec("linear", index_arithmetic="torch"),
                                  Spec("cubic", index_arithmetic="tensorflow")])
def test_a_long_output_costs_no_more_than_the_guard_counts_for_its_plan(spec):
    """rand(7) to 2,000,000 samples: an 8 MiB output whose plan is most of the cost.  The generic builder
    builds it in chunks; a library's own arithmetic (engine/native) builds the whole axis at once, and the
    memory guard counts either before building (the plan used to be left out: a 1 GB peak, unannounced)."""
    x = np.random.default_rng(0).random(7).astype(np.float32)
    y, peak = _traced_peak(lambda: explorer.resize(x, (2_000_000,), spec))
    assert y.shape == (2_000_000,)
    assert peak <= plan_module.plan_nbytes(7, 2_000_000, spec) + 2 * y.nbytes
    if spec.index_arithmetic not in plan_module.NATIVE:
        assert peak < 160 * 2**20  # chunks: the band and its coordinates, not every tap's temporaries


def test_a_tiny_kernel_scale_is_built_in_bounded_memory_and_matches_the_direct_build(monkeypatch):
    """scale_factor=1e-6 makes each of 4 outputs read 2 million taps: they are evaluated in chunks."""
    x = np.random.default_rng(1).random(8)
    spec = Spec("linear", antialias=True)
    y, peak = _traced_peak(lambda: explorer.resize(x, (4,), spec, scale_factor=1e-6))
    assert peak < 2 * limits.PLAN_CHUNK_BYTES
    assert np.isfinite(y).all() and np.all((y >= x.min()) & (y <= x.max()))
    evaluated = []  # refused before a single row of taps is evaluated (that would be minutes of work)
    for name in ("_filter_rows", "_wide_filter_row"):
        build = getattr(plan_module, name)
        monkeypatch.setattr(plan_module, name, lambda *a, build=build, **k: evaluated.append(1) or build(*a, **k))
    plan_module.clear_plan_cache()
    with pytest.raises(explorer.OutputTooLargeError, match="kernel evaluations: scale_factor=1e-06 .* give a "
                                                           "scale_factor nearer to the size ratio"):
        explorer.resize(x, (10**4,), spec, scale_factor=1e-6)
    assert evaluated == []


@pytest.mark.parametrize("spec,scale", [
    (Spec("linear", antialias=True), 1e-3),
    (Spec("cubic", antialias=True, exclude_outside=True), 2e-3),
    (Spec("lanczos3", antialias=True, coordinate_transformation_mode="align_corners"), None),
    (Spec("gaussian", antialias=True, index_arithmetic="tf_scale_and_translate"), 3e-3),
    (Spec("linear", antialias=True, coordinate_transformation_mode="tf_crop_and_resize", roi=(-0.5, 1.3)), None),
    (Spec("area"), 1e-3),
    (Spec("area"), None),
    (Spec("box", antialias=True, exclude_outside=True), 0.37),
])
def test_rows_built_tap_chunk_by_tap_chunk_equal_rows_built_at_once(monkeypatch, spec, scale):
    n, m = 23, 9
    plan_module.clear_plan_cache()
    direct = plan_module.axis_plan(n, m, spec, scale).band
    monkeypatch.setattr(plan_module, "PLAN_CHUNK_BYTES", 64 * plan_module.TAP_BYTES)  # every row is "wide"
    plan_module.clear_plan_cache()
    chunked = plan_module.axis_plan(n, m, spec, scale).band
    plan_module.clear_plan_cache()
    np.testing.assert_array_equal(chunked.start, direct.start)
    np.testing.assert_array_equal(chunked.length, direct.length)
    np.testing.assert_allclose(chunked.dense(), direct.dense(), rtol=1e-12, atol=1e-15)


def test_plans_built_in_row_chunks_are_bit_identical(monkeypatch):
    spec = Spec("cubic", antialias=True, exclude_outside=True)
    plan_module.clear_plan_cache()
    direct = plan_module.axis_plan(1000, 77, spec).band
    monkeypatch.setattr(plan_module, "PLAN_CHUNK_BYTES", 5 * 60 * plan_module.TAP_BYTES)  # 5 rows a chunk
    plan_module.clear_plan_cache()
    chunked = plan_module.axis_plan(1000, 77, spec).band
    plan_module.clear_plan_cache()
    assert plan_module._rows_per_chunk(plan_module.taps_per_output(1000, 77, spec)) < 77
    np.testing.assert_array_equal(chunked.weights, direct.weights)
    np.testing.assert_array_equal(chunked.start, direct.start)


@pytest.mark.parametrize("call", [
    lambda: explorer.library_resize(np.zeros((8, 8), np.uint8), (60000, 60000), library="pillow", mode="BICUBIC"),
    lambda: explorer.library_resize(np.zeros((8, 8), np.float32), (100000, 100000), library="pillow",
                                    mode="BICUBIC"),
    lambda: explorer.library_resize(np.zeros((8, 8), np.uint8), (40000, 40000), library="opencv",
                                    mode="INTER_LANCZOS4"),
    lambda: explorer.library_resize_transpose(np.ones((2, 2)), (100000, 100000), (2, 2), library="pillow",
                                              mode="BICUBIC"),
    lambda: explorer.suggest_fixes(np.zeros((1, 1, 8, 8), np.float32), mode="nearest-exact", backend="burn-tch",
                                   scale_factor=10000),
    lambda: explorer.compare_conventions(np.zeros((1, 1, 8, 8), np.float32), "bilinear", (60000, 60000)),
])
def test_every_entry_point_refuses_what_cannot_fit_before_allocating(call):
    peak = []
    with pytest.raises(explorer.OutputTooLargeError, match="GiB"):
        explorer.engine.memory.release_scratch()
        plan_module.clear_plan_cache()
        tracemalloc.start()
        try:
            call()
        finally:
            peak.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    assert peak[0] < 64 * 2**20, peak  # refused before the result, a plan or a dense matrix is allocated


_UNDER_A_LIMIT = """
import resource, json
import numpy as np, explorer
from explorer.engine.memory import memory_limit
def mapped():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
limit = mapped() + {budget}
resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
out = {{"limit": memory_limit()}}
try:
    explorer.interpolate(np.zeros((1, 3, 64, 64), np.float32), size=(8000, 8000), mode="bilinear")
    out["result"] = "computed"
except Exception as exc:
    out["result"] = type(exc).__name__ + ": " + str(exc)
x = np.random.default_rng(0).random(100_000)
spec = explorer.Spec("lanczos3", antialias=True, exclude_outside=True)
for m in range(1, 31):
    y = explorer.resize(x, (m,), spec)
    explorer.resize_backward(np.ones(m), x.shape, (m,), spec)
out["plans"] = "computed"
print(json.dumps(out))
"""


def test_the_guard_honours_the_address_space_limit_and_plans_stay_within_it():
    """Under RLIMIT_AS, a resize the limit cannot hold is refused with the project's error (not numpy's
    MemoryError), and 30 distinct antialiased plans of a 100,000-sample axis run within 600 MiB (they took
    about 50 MiB each, kept in a cache bounded by count)."""
    code = _UNDER_A_LIMIT.format(budget=600 * 2**20)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "RLIMIT_AS" in out["limit"][1]
    assert out["result"].startswith("OutputTooLargeError: the output would have shape (1, 3, 8000, 8000)")
    assert "RLIMIT_AS" in out["result"]
    assert out["plans"] == "computed"


def test_memory_limit_names_what_bounds_it():
    limit, source = memory_limit()
    assert limit is None or limit > 0
    assert "memory" in source


def test_an_input_with_nan_is_contracted_a_tile_at_a_time(monkeypatch):
    import explorer.engine.band as band_module

    x = np.random.default_rng(0).random((64, 3, 1), dtype=np.float32)
    x[5, 1, 0] = np.nan  # tap by tap, so the NaN reaches only the outputs that read it
    spec = Spec("lanczos3", index_arithmetic="tf_scale_and_translate")
    y, peak = _traced_peak(lambda: explorer.resize(x, (40_000,), spec))
    assert (peak - y.nbytes) / y.nbytes <= 1.0  # was 3x the result: the gathered taps and products of every row
    assert np.isnan(y[5, 1]).all() and np.isfinite(np.delete(y.reshape(-1, 40_000), 5 * 3 + 1, axis=0)).all()
    monkeypatch.setattr(band_module, "TEMPORARY_TILE_BYTES", 2**40)  # one tile: the same sums, same order
    plan_module.clear_plan_cache()
    np.testing.assert_array_equal(explorer.resize(x, (40_000,), spec), y)

"""Peak extra memory of a resize stays within twice its result (tracemalloc sees numpy's allocations)."""

import tracemalloc

import numpy as np
import pytest

import explorer
import explorer.engine.memory


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

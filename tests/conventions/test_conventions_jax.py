"""Live oracle: explorer's JAX presets against ``jax.image.resize`` and ``jax.vjp`` (CPU).

Every preset row of ``presets("jax")`` runs on seeded sizes 1..60 up and down (JAX compiles every new shape,
about 0.2 s, so each row gets a few cases: 4x4 -> 3x3, output length 1, and random ones); float32 must agree
to 1e-5, float64 (``jax.enable_x64``, the preset's ``x64=True``) to 1e-12, except Lanczos where JAX sets the
kernel to exactly 1 for ``|t| <= 1e-3`` (a weight difference below 2e-6 that the explorer's exact Lanczos does
not copy).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.conventions import library_resize, library_resize_backward, presets
from preset_cases import image, options_id, size_grid

jax = pytest.importorskip("jax", reason="JAX is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

ROWS = [(row.mode, row.options) for row in presets("jax")]


def _jax_resize(x, shape, mode, options):
    return np.asarray(jax.image.resize(x, shape, mode, antialias=options.get("antialias", True)))


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_forward_float32_matches_jax(mode, options):
    worst = 0.0
    for h, w, H, W in size_grid(("jax", mode, options_id(options)), 3, fixed=[(4, 4, 3, 3), (7, 9, 1, 1)]):
        x = image((mode, h, w), (h, w, 2))
        want = _jax_resize(x, (H, W, 2), mode, options)
        got = library_resize(x, (H, W), library="jax", mode=mode, axes=(0, 1), **options)
        assert got.dtype == np.float32 and got.shape == want.shape
        worst = max(worst, float(np.abs(got - want).max()))
    assert worst <= 1e-5


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_forward_float64_matches_jax_x64(mode, options):
    tolerance = 1e-5 if mode.startswith("lanczos") else 1e-12
    with jax.enable_x64(True):
        for h, w, H, W in size_grid(("jax64", mode, options_id(options)), 1, fixed=[]):
            x = image((mode, h, w), (h, w), np.float64)
            want = _jax_resize(x, (H, W), mode, options)
            got = library_resize(x, (H, W), library="jax", mode=mode, x64=True, **options)
            assert got.dtype == np.float64
            np.testing.assert_allclose(got, want, rtol=0, atol=tolerance, err_msg=f"{h}x{w} -> {H}x{W}")


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_gradient_matches_jax_vjp(mode, options):
    for h, w, H, W in size_grid(("jaxvjp", mode, options_id(options)), 1, top=30, fixed=[]):
        x = image((mode, h, w), (h, w))
        g = image(("g", mode, H, W), (H, W)) - np.float32(0.5)
        _, pullback = jax.vjp(lambda a: jax.image.resize(a, (H, W), mode, antialias=options.get("antialias", True)),
                              x)
        (want,) = pullback(g)
        got = library_resize_backward(g, x.shape, (H, W), library="jax", mode=mode, **options)
        np.testing.assert_allclose(got, np.asarray(want), rtol=0, atol=1e-5, err_msg=f"{h}x{w} -> {H}x{W}")


def test_nearest_indices_match_jax_including_xla_reciprocal_ties():
    """JAX floors (i + 0.5) * n / m in float32 after XLA turned '/ m' into '* (1/m)': 2 -> 41 picks 0 at i=20."""
    pairs = [(2, 41), (4, 41), (8, 41), (2, 47), (2, 55), (10, 25), (4, 3), (3, 7), (60, 7)]
    rng = np.random.default_rng(11)
    pairs += [tuple(int(v) for v in rng.integers(1, 61, 2)) for _ in range(8)]
    mismatched = []
    for n, m in pairs:
        x = np.arange(n, dtype=np.float32)
        want = np.asarray(jax.image.resize(x, (m,), "nearest"))
        got = library_resize(x, (m,), library="jax", mode="nearest")
        if not np.array_equal(got, want):
            mismatched.append((n, m))
    assert mismatched == []
    assert library_resize(np.arange(2.0), (41,), library="jax", mode="nearest")[20] == 0.0


def test_integer_images_become_float32_like_jax():
    x = image("u8", (9, 7), np.uint8)
    want = _jax_resize(x, (5, 4), "linear", {})
    got = library_resize(x, (5, 4), library="jax", mode="linear")
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got, want, atol=1e-4)
    nearest = library_resize(x, (5, 4), library="jax", mode="nearest")
    assert nearest.dtype == np.uint8
    np.testing.assert_array_equal(nearest, _jax_resize(x, (5, 4), "nearest", {}))

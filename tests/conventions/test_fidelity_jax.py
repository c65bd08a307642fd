"""Large-size oracle: ``library_resize(..., library="jax")`` against ``jax.image.resize`` and ``jax.vjp``.

JAX builds a dense n x m weight matrix per axis, in float32 with 64-bit mode off (JAX's default; the
explorer's ``jax_float32`` arithmetic) and in float64 with ``jax.enable_x64`` (the preset's ``x64=True``).
Sizes log-uniform up to 100 000 in 1-D (n * m bounded: the dense matrix) and 8192 per axis in 2-D; JAX
compiles every new shape, so each method draws a few cases.  Tolerances: rounding of the contraction
(``fidelity.forward_tolerance``; float32 cubic and Lanczos weights differ from XLA's by 2-4 ulp), float64
Lanczos 1e-5 (JAX sets the kernel to 1 for |t| <= 1e-3).
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize, library_resize_backward

jax = pytest.importorskip("jax", reason="JAX is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

METHODS = [("linear", True), ("linear", False), ("cubic", True), ("cubic", False), ("cubic-pytorch", False),
           ("lanczos3", True), ("lanczos5", False), ("area", True), ("nearest", False)]


def _case(x, shape, method, antialias, x64, case):
    dtype = "float64" if x64 else "float32"
    axes = tuple(d for d in range(x.ndim) if x.shape[d] != shape[d])
    size = tuple(shape[d] for d in axes)
    options = {} if method in ("area", "nearest") else {"antialias": antialias}
    y, pullback = jax.vjp(lambda v: jax.image.resize(v, shape, method, antialias=antialias), x)
    want = np.asarray(y)
    got = library_resize(x, size, library="jax", mode=method, axes=axes, x64=x64, **options)
    tolerance = fidelity.forward_tolerance(np.dtype(dtype), x.shape, want.shape, axes)
    if method == "nearest":
        tolerance = 0
    elif x64 and method.startswith("lanczos"):
        tolerance = 1e-5
    error = record("jax", dtype, "forward", forward_error(got, want), case)
    assert error <= tolerance, f"{case}: forward error {error:.3g}"
    g = fidelity.rng("g", case).standard_normal(want.shape).astype(x.dtype)
    (gx,) = pullback(g)
    got = library_resize_backward(g, x.shape, size, library="jax", mode=method, axes=axes, x64=x64, **options)
    error = record("jax", dtype, "gradient", forward_error(got, np.asarray(gx)), case)
    tolerance = fidelity.gradient_tolerance(np.dtype(dtype), x.shape, want.shape, axes)
    if x64 and method.startswith("lanczos"):
        tolerance = 1e-5
    assert error <= tolerance, f"{case}: gradient error {error:.3g} (tolerance {tolerance:.3g})"


@pytest.mark.parametrize("x64", [False, True], ids=["f32", "f64-x64"])
@pytest.mark.parametrize("method,antialias", METHODS, ids=[f"{m}-aa" if a else m for m, a in METHODS])
def test_1d_and_2d_at_large_sizes(method, antialias, x64):
    """One case per method and dtype (each new shape compiles, about a second): 1-D in one dtype, 2-D in the
    other; --runslow draws five of each."""
    gen = fidelity.rng("jax", method, antialias, x64)
    dtype = np.float64 if x64 else np.float32
    dense = fidelity.budget(2_000_000)  # elements of JAX's dense weight matrix
    kinds = [["1d", "2d"][(METHODS.index((method, antialias)) + x64) % 2]]
    with jax.enable_x64(x64):
        for kind in kinds * fidelity.count(1):
            if kind == "1d":
                n, m = fidelity.sizes_1d(gen, product=dense)
                _case(gen.random((2, n)).astype(dtype), (2, m), method, antialias, x64,
                      f"{method} aa={antialias} {n} -> {m}")
                continue
            while True:
                h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(100_000))
                if h * H <= dense and w * W <= dense:
                    break
            _case(gen.random((h, w)).astype(dtype), (H, W), method, antialias, x64,
                  f"{method} aa={antialias} {(h, w)} -> {(H, W)}")


def test_the_reported_sizes():
    """70355 -> 18 linear and 3000 -> 4097: 1e-3 and 1.2e-4 apart when the weights are float64."""
    gen = fidelity.rng("jax-reported")
    _case(gen.random((2, 70355)).astype(np.float32), (2, 18), "linear", False, False, "linear 70355 -> 18")
    _case(gen.random((1, 3000)).astype(np.float32), (1, 4097), "linear", False, False, "linear 3000 -> 4097")

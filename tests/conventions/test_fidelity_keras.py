"""Large-size oracle: ``library_resize(..., library="keras")`` against Keras 3 ``ops.image.resize`` on its three
backends, forward and gradient (each backend's own autodiff), at sizes log-uniform up to 4096 per axis.

One subprocess per backend runs every case (tests/keras_oracle.py).  Tolerances: float32 rounding of the
contraction (``fidelity.forward_tolerance`` / ``gradient_tolerance``); nearest exact.
"""

from __future__ import annotations

import fidelity
import keras_oracle
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets

if not keras_oracle.available():
    pytest.skip("Keras 3 is an oracle installed by the 'oracles' extra (with TensorFlow)", allow_module_level=True)

pytestmark = pytest.mark.oracle

BACKENDS = ("tensorflow", "jax", "torch")


def _configs(backend):
    return [(r.mode, r.options) for r in presets("keras") if r.options.get("backend", "tensorflow") == backend
            and "layer" not in r.options]


@pytest.mark.parametrize("backend", BACKENDS)
def test_at_large_sizes(backend):
    cases, meta = [], []
    for mode, options in _configs(backend):
        gen = fidelity.rng("keras", backend, mode, tuple(options.items()))
        for _ in range(fidelity.count(1)):
            h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(120_000), top=4096)
            x = gen.random((1, h, w, 1)).astype(np.float32)
            g = gen.standard_normal((1, H, W, 1)).astype(np.float32)
            cases.append({"x": x, "size": (H, W), "interpolation": mode, "antialias": options.get("antialias", False),
                          "layer": "op", "g": g})
            meta.append((mode, options, f"keras-{backend} {mode} aa={options.get('antialias', False)} "
                                        f"{(h, w)} -> {(H, W)}"))
    answers = keras_oracle.run(backend, cases, timeout=1800)
    failures = []
    for case, (mode, options, label), answer in zip(cases, meta, answers):
        if "error" in answer:
            failures.append(f"{label}: Keras raised {answer['error']}")
            continue
        x, size = case["x"], case["size"]
        got = library_resize(x, size, library="keras", mode=mode, axes=(1, 2), **options)
        error = record(f"keras-{backend}", "float32", "forward", forward_error(got, answer["y"]), label)
        tolerance = 0 if mode == "nearest" else fidelity.forward_tolerance(np.float32, x.shape, got.shape, (1, 2))
        if error > tolerance:
            failures.append(f"{label}: forward error {error:.3g} (tolerance {tolerance:.3g})")
        if "grad_error" in answer:
            with pytest.raises(NoGradientError):
                library_resize_backward(case["g"], x.shape, size, library="keras", mode=mode, axes=(1, 2), **options)
            continue
        gx = library_resize_backward(case["g"], x.shape, size, library="keras", mode=mode, axes=(1, 2), **options)
        error = record(f"keras-{backend}", "float32", "gradient", forward_error(gx, answer["gx"]), label)
        tolerance = fidelity.gradient_tolerance(np.float32, x.shape, got.shape, (1, 2))
        if error > tolerance:
            failures.append(f"{label}: gradient error {error:.3g} (tolerance {tolerance:.3g})")
    assert failures == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_uint8_at_large_sizes(backend):
    """Integer images: float32 weights, rounded half to even; within 1 LSB (a value a float32 ulp from .5)."""
    cases = []
    for mode in ("nearest", "bilinear", "bicubic"):
        gen = fidelity.rng("keras-u8", backend, mode)
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(120_000), top=4096)
        cases.append({"x": gen.integers(0, 256, (1, h, w, 3), dtype=np.uint8), "size": (H, W),
                      "interpolation": mode, "antialias": False, "layer": "op"})
    answers = keras_oracle.run(backend, cases, timeout=1800)
    for case, answer in zip(cases, answers):
        label = f"keras-{backend} {case['interpolation']} {case['x'].shape[1:3]} -> {case['size']}"
        got = library_resize(case["x"], case["size"], library="keras", mode=case["interpolation"], axes=(1, 2),
                             backend=backend)
        error = record(f"keras-{backend}", "uint8", "integer (LSB)", fidelity.lsb_error(got, answer["y"]), label)
        assert error <= (0 if case["interpolation"] == "nearest" else 1), label

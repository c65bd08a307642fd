"""Large-size oracle: ``library_resize(..., library="tensorflow")`` against ``tf.image.resize``, the v1 resize
ops and GradientTape.

Sizes log-uniform up to 100 000 for one-row images and 8192 per axis in 2-D (tests/fidelity.py).  TensorFlow
computes ResizeBilinear/ResizeBicubic/ResizeArea coordinates in float32 without fused multiply-adds (the
explorer's ``tensorflow`` arithmetic) and returns float32 even for float64 input, so float64 cases are held to
float32 rounding too (``fidelity.forward_tolerance`` and ``gradient_tolerance``).  ResizeArea has no gradient,
nor has ScaleAndTranslate for float64 images (TensorFlow raises; so does the explorer).
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import (
    NoGradientError,
    library_resize,
    library_resize_backward,
)

tf = pytest.importorskip("tensorflow", reason="TensorFlow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

_V1_OPS = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor", "bicubic": "ResizeBicubic",
           "area": "ResizeArea"}
CONFIGS = [(m, {}) for m in ("bilinear", "bicubic", "area", "nearest", "lanczos3", "lanczos5", "gaussian",
                             "mitchellcubic")]
CONFIGS += [(m, {"antialias": True}) for m in ("bilinear", "bicubic", "lanczos3", "mitchellcubic")]
CONFIGS += [(m, dict(version=1, **o)) for m in ("bilinear", "bicubic", "nearest", "area")
            for o in ({}, {"align_corners": True}, {"half_pixel_centers": True})
            if not (m == "area" and o.get("half_pixel_centers"))]


_SCALE_AND_TRANSLATE = ("lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _tf_resize(x, size, mode, options):
    if options.get("version", 2) == 1:
        kw = {"align_corners": options.get("align_corners", False)}
        if mode != "area":
            kw["half_pixel_centers"] = options.get("half_pixel_centers", False)
        return getattr(tf.raw_ops, _V1_OPS[mode])(images=x, size=size, **kw)
    return tf.image.resize(x, size, method=mode, antialias=options.get("antialias", False))


def _case(x, size, mode, options, case):
    dtype = x.dtype.name
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = _tf_resize(xt, size, mode, options)
    want = y.numpy()
    got = library_resize(x, size, library="tensorflow", mode=mode, axes=(1, 2), **options)
    error = record("tensorflow", dtype, "forward", forward_error(got, want), case)
    tolerance = 0 if mode == "nearest" else fidelity.forward_tolerance(np.float32, x.shape, want.shape, (1, 2))
    assert error <= tolerance, f"{case}: forward error {error:.3g}"
    if mode == "area":
        return
    g = fidelity.rng("g", case).standard_normal(want.shape).astype(np.float32)
    if dtype == "float64" and (options.get("antialias") or mode in _SCALE_AND_TRANSLATE):
        with pytest.raises(tf.errors.InvalidArgumentError, match="ScaleAndTranslateGrad"):
            tape.gradient(y, xt, output_gradients=tf.constant(g))
        with pytest.raises(NoGradientError, match="ScaleAndTranslateGrad"):
            library_resize_backward(g.astype(x.dtype), x.shape, size, library="tensorflow", mode=mode, axes=(1, 2),
                                    **options)
        return
    want = tape.gradient(y, xt, output_gradients=tf.constant(g)).numpy()
    got = library_resize_backward(g.astype(x.dtype), x.shape, size, library="tensorflow", mode=mode, axes=(1, 2),
                                  **options)
    error = record("tensorflow", dtype, "gradient", forward_error(got, want), case)
    tolerance = fidelity.gradient_tolerance(np.float32, x.shape, y.shape, (1, 2))
    assert error <= tolerance, f"{case}: gradient error {error:.3g} (tolerance {tolerance:.3g})"


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
@pytest.mark.parametrize("mode,options", CONFIGS, ids=[m + "".join(f"-{k}" for k in o) for m, o in CONFIGS])
def test_at_large_sizes(mode, options, dtype):
    gen = fidelity.rng("tf", mode, tuple(options.items()), np.dtype(dtype).name)
    for k in range(fidelity.count(1)):
        if (k + len(mode)) % 3 == 0:  # a one-row image up to 100 000 wide
            n, m = fidelity.sizes_1d(gen)
            h, w, H, W = 1, n, 1, m
        else:
            h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000))
        x = gen.random((1, h, w, 1)).astype(dtype)
        _case(x, (H, W), mode, options, f"{mode} {options} {(h, w)} -> {(H, W)}")


def test_the_reported_sizes():
    """v2 bicubic runs ResizeBicubic (1.3e-3 apart from ScaleAndTranslate's arithmetic), area's float32 cells."""
    gen = fidelity.rng("tf-reported")
    _case(gen.random((1, 86, 1252, 1)).astype(np.float32), (111, 46), "bicubic", {}, "bicubic (86, 1252) -> (111, 46)")
    _case(gen.random((1, 1, 100000, 1)).astype(np.float32), (1, 33331), "area", {}, "area 100000 -> 33331")
    _case(gen.random((1, 1, 3000, 1)).astype(np.float32), (1, 4097), "bilinear", {}, "bilinear 3000 -> 4097")

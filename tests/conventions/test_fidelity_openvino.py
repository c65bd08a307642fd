"""Large-size oracle: ``library_resize(..., library="openvino")`` against OpenVINO's CPU plugin (f32 hint).

Sizes log-uniform up to 4096 per axis in 2-D and 100 000 for one-row images (tests/fidelity.py), given as
``sizes`` or as ``scales`` (Interpolate-11), for every mode with every coordinate transform and nearest rounding,
the 5-D linear filter with and without antialias, and uint8 images.  The plugin computes in float32 (so do float64
tensors, from 2026.4; the explorer computes those in float64): tolerance ``fidelity.forward_tolerance`` for float32
for both; nearest exact; uint8 in LSB.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, lsb_error, record

from explorer.conventions import library_resize

pytest.importorskip("openvino", reason="openvino is an oracle installed by the 'oracles' extra")
from openvino_models import interpolate  # noqa: E402

pytestmark = pytest.mark.oracle

TRANSFORMS = ["half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners"]
CONFIGS = ([("nearest", {"nearest_mode": rule}) for rule in ("round_prefer_floor", "round_prefer_ceil", "floor",
                                                             "ceil", "simple")]
           + [("linear_onnx", {}), ("cubic", {}), ("cubic", {"cube_coeff": -0.5})])
PILLOW = ["bilinear_pillow", "bicubic_pillow"]


def _case(x, mode, options, case, sizes=None, scales=None, axes=(2, 3), opset=11):
    want = interpolate(x, mode, sizes=sizes, scales=scales, axes=axes, opset=opset, **options)
    if sizes is not None:
        got = library_resize(x, tuple(sizes), library="openvino", mode=mode, axes=axes, opset=opset, **options)
    else:
        got = library_resize(x, library="openvino", mode=mode, scale_factor=tuple(float(s) for s in scales),
                             axes=axes, opset=opset, **options)
    assert got.shape == want.shape, (case, got.shape, want.shape)
    if x.dtype == np.uint8:
        error = record("openvino", "uint8", "integer (LSB)", lsb_error(got, want), case)
        assert error == 0, f"{case}: {error} LSB"
        return
    error = record("openvino", x.dtype.name, "forward", forward_error(got, want), case)
    exact = mode == "nearest" and x.dtype == np.float32  # float64 is copied after a float32 rounding
    tolerance = 0 if exact else fidelity.forward_tolerance(np.float32, x.shape, want.shape, axes)
    assert error <= tolerance, f"{case}: error {error:.3g}"


def _sizes(gen, k, key):
    if (k + len(key)) % 3 == 0:  # a one-row image up to 100 000 wide
        n, m = fidelity.sizes_1d(gen)
        return 1, n, 1, m
    return fidelity.sizes_2d(gen, fidelity.budget(150_000), top=4096)


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("mode,options", CONFIGS, ids=[m + "".join(f"-{k}={v}" for k, v in o.items())
                                                       for m, o in CONFIGS])
def test_at_large_sizes(mode, options, transform):
    gen = fidelity.rng("openvino", mode, tuple(options.items()), transform)
    options = dict(options, coordinate_transformation_mode=transform)
    for k in range(fidelity.count(2)):
        h, w, H, W = _sizes(gen, k, transform)
        x = gen.random((1, 1, h, w)).astype(np.float32 if k % 2 == 0 else np.float64)
        _case(x, mode, options, f"{mode} {options} {(h, w)} -> {(H, W)}", sizes=(H, W))
        # scales: float32 factors (one axis may be exactly 1: the plugin copies it whatever the transform)
        scales = [np.float32(1.0) if h == 1 else np.float32(gen.uniform(0.1, 3.0)), np.float32(gen.uniform(0.1, 3.0))]
        if min(int(s * n) for s, n in zip(scales, (h, w))) < 1 or int(scales[0] * h) * int(scales[1] * w) > 400_000:
            continue
        _case(x, mode, options, f"{mode} {options} {(h, w)} * {scales}", scales=scales)


@pytest.mark.parametrize("mode", PILLOW)
def test_pillow_modes_at_large_sizes(mode):
    gen = fidelity.rng("openvino", mode)
    for k in range(fidelity.count(3)):
        h, w, H, W = _sizes(gen, k, mode)
        x = gen.random((1, 1, h, w)).astype(np.float32)
        _case(x, mode, {}, f"{mode} {(h, w)} -> {(H, W)}", sizes=(H, W))


@pytest.mark.parametrize("antialias", [False, True])
def test_5d_linear_at_large_sizes(antialias):
    gen = fidelity.rng("openvino-5d", antialias)
    for _ in range(fidelity.count(2)):
        while True:
            d, h, w, D, H, W = (fidelity.log_uniform(gen, 1, 300) for _ in range(6))
            if d * h * w <= fidelity.budget(60_000) and D * H * W <= fidelity.budget(60_000):
                break
        x = gen.random((1, 1, d, h, w)).astype(np.float32)
        _case(x, "linear", {"antialias": antialias}, f"linear antialias={antialias} {(d, h, w)} -> {(D, H, W)}",
              sizes=(D, H, W), axes=(2, 3, 4), opset=4)


@pytest.mark.parametrize("mode", ["linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"])
def test_uint8_at_large_sizes(mode):
    gen = fidelity.rng("openvino-u8", mode)
    for k in range(fidelity.count(2)):
        h, w, H, W = _sizes(gen, k, mode)
        x = gen.integers(0, 256, (1, 1, h, w), dtype=np.uint8)
        _case(x, mode, {}, f"{mode} uint8 {(h, w)} -> {(H, W)}", sizes=(H, W))

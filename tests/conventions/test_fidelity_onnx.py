"""Large-size oracle: ``library_resize(..., library="onnx")`` against ONNX Runtime's CPU Resize.

Sizes log-uniform up to 100 000 for one-row images and 8192 per axis in 2-D (tests/fidelity.py), given as
``sizes`` or as ``scales`` (one axis at scale 1: ONNX Runtime copies it whatever the transform), every
coordinate transform, antialias with every transform and with or without ``exclude_outside``, a roi with
``tf_crop_and_resize``, and ``keep_aspect_ratio_policy`` giving an empty axis.  ONNX Runtime resizes float32
only (no double kernel) and has no CPU gradient; tolerance ``fidelity.forward_tolerance`` (float32
rounding), nearest exact.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, record

from explorer.conventions import library_resize

pytest.importorskip("onnxruntime", reason="ONNX Runtime is an oracle installed by the 'oracles' extra")
from onnx_models import ort_resize

pytestmark = pytest.mark.oracle

TRANSFORMS = ["half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "tf_crop_and_resize",
              "half_pixel_symmetric"]
CONFIGS = ([("nearest", {"nearest_mode": rule}) for rule in ("round_prefer_floor", "round_prefer_ceil", "floor",
                                                             "ceil")]
           + [("linear", {}), ("cubic", {}), ("cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}),
              ("linear", {"antialias": 1}), ("linear", {"antialias": 1, "exclude_outside": 1}),
              ("cubic", {"antialias": 1}), ("cubic", {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1})])


def _case(x, mode, options, transform, case, sizes=None, scales=None, roi=None):
    attributes = {k: int(v) if isinstance(v, bool) else v for k, v in options.items()}
    flat = None if roi is None else [roi[0][0], roi[1][0], roi[0][1], roi[1][1]]
    want = ort_resize(x, mode, sizes=sizes, scales=scales, roi=flat, coordinate_transformation_mode=transform,
                      extrapolation_value=-1.0, **attributes)
    extra = {"roi": roi, "extrapolation_value": -1.0} if roi is not None else {}
    if sizes is not None:
        got = library_resize(x, tuple(sizes), library="onnx", mode=mode, coordinate_transformation_mode=transform,
                             **options, **extra)
    else:
        got = library_resize(x, library="onnx", mode=mode, scale_factor=tuple(float(s) for s in scales),
                             axes=(0, 1), coordinate_transformation_mode=transform, **options, **extra)
    error = record("onnxruntime", "float32", "forward", forward_error(got, want), case)
    tolerance = 0 if mode == "nearest" else fidelity.forward_tolerance(np.float32, x.shape, want.shape, (0, 1))
    assert error <= tolerance, f"{case}: error {error:.3g}"


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("mode,options", CONFIGS, ids=[m + "".join(f"-{k}={v}" for k, v in o.items())
                                                       for m, o in CONFIGS])
def test_at_large_sizes(mode, options, transform):
    gen = fidelity.rng("ort", mode, tuple(options.items()), transform)
    roi = None
    if transform == "tf_crop_and_resize":
        start = gen.uniform(-0.2, 0.5, 2)
        roi = [(float(s), float(s + gen.uniform(0.2, 0.9))) for s in start]
    for k in range(fidelity.count(1)):
        if (k + len(transform)) % 3 == 0:
            n, m = fidelity.sizes_1d(gen)
            h, w, H, W = 1, n, 1, m
        else:
            h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000))
        x = gen.random((h, w)).astype(np.float32)
        _case(x, mode, options, transform, f"{mode} {options} {transform} {(h, w)} -> {(H, W)}", sizes=(H, W),
              roi=roi)
        if transform == "tf_crop_and_resize":
            continue  # its scales input is used with the roi only
        # scales: one axis at exactly 1 (copied, whatever the transform), the other a float32 factor
        factor = np.float32(gen.uniform(0.1, 3.0))
        scales = [np.float32(1.0), factor] if k % 2 == 0 else [factor, np.float32(1.0)]
        if min(int(s * n) for s, n in zip(scales, (h, w))) < 1 or int(scales[0] * h) * int(scales[1] * w) > 400_000:
            continue
        _case(x, mode, options, transform, f"{mode} {options} {transform} {(h, w)} * {scales}", scales=scales)


def test_keep_aspect_ratio_policy_can_give_an_empty_axis():
    x = np.ones((400, 3), np.float32)
    want = ort_resize(x, "linear", sizes=(10, 10), keep_aspect_ratio_policy="not_larger")
    got = library_resize(x, (10, 10), library="onnx", mode="linear", keep_aspect_ratio_policy="not_larger")
    assert want.shape == got.shape == (10, 0) and got.dtype == np.float32

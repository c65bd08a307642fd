"""Live oracle: explorer's ONNX presets against ONNX Runtime (CPU), with Resize models built by onnx.helper.

Every row of ``presets("onnx")`` (each coordinate transform x nearest mode, linear and cubic, antialias with and
without exclude_outside, opset 10 and 11) runs on a seeded grid of sizes 1..60; the ``scales`` input, ROI
crop-and-resize, ``keep_aspect_ratio_policy`` and the float32 ties of nearest rounding have their own tests.
"""

from __future__ import annotations

import numpy as np
import pytest

import explorer
from explorer.conventions import NoGradientError, library_resize, library_resize_backward, preset, presets
from preset_cases import image, options_id, size_grid

onnx = pytest.importorskip("onnx", reason="onnx is an oracle installed by the 'oracles' extra")
ort = pytest.importorskip("onnxruntime", reason="ONNX Runtime is an oracle installed by the 'oracles' extra")
from onnx import TensorProto, helper  # noqa: E402,F401
from onnx_models import attributes, ort_resize  # noqa: E402

pytestmark = pytest.mark.oracle

ROWS = [(row.mode, row.options) for row in presets("onnx")]
@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_forward_matches_onnxruntime(mode, options):
    opset = options.get("opset", 19)
    worst = 0.0
    for h, w, H, W in size_grid(("onnx", mode, options_id(options)), 8):
        x = image((mode, h, w), (h, w))
        if opset == 10:  # Resize-10 takes scales only: floor(n * scale) and steps by 1/scale
            scales = [np.float32((H + 0.5) / h), np.float32((W + 0.5) / w)]
            want = ort_resize(x, mode, scales=scales, opset=10)
            got = library_resize(x, library="onnx", mode=mode, scale_factor=[float(s) for s in scales], axes=(0, 1),
                                 **options)
        else:
            want = ort_resize(x, mode, sizes=(H, W), opset=opset, **attributes(options))
            got = library_resize(x, (H, W), library="onnx", mode=mode, **options)
        assert got.shape == want.shape, (h, w, H, W)
        if mode == "nearest":
            np.testing.assert_array_equal(got, want, err_msg=f"{h}x{w} -> {H}x{W}")
        worst = max(worst, float(np.abs(got - want).max()))
    assert worst <= 1e-5


TIE_PAIRS = [(7, 2), (7, 38), (11, 26), (13, 2), (14, 1), (14, 19), (18, 39), (23, 14), (29, 30), (26, 28), (28, 8),
             (4, 3), (4, 2), (8, 5), (4, 6), (10, 3), (26, 7), (20, 6)]


@pytest.mark.parametrize("transform", ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel",
                                       "half_pixel_symmetric"])
def test_nearest_rounding_at_float32_ties_matches_onnxruntime(transform):
    """ORT divides by a float32 scale and treats coordinates within 1e-6 of a half-integer as ties."""
    rng = np.random.default_rng(5)
    pairs = TIE_PAIRS + [tuple(int(v) for v in rng.integers(1, 41, 2)) for _ in range(12)]
    mismatched = []
    for rule in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
        for n, m in pairs:
            x = np.arange(n, dtype=np.float32).reshape(1, n)
            want = ort_resize(x, "nearest", sizes=(1, m), coordinate_transformation_mode=transform, nearest_mode=rule)
            got = library_resize(x, (m,), library="onnx", mode="nearest", coordinate_transformation_mode=transform,
                                 nearest_mode=rule)
            if not np.array_equal(got, want):
                mismatched.append((rule, n, m))
    assert mismatched == []


@pytest.mark.parametrize("mode,options", [("nearest", {}), ("linear", {}), ("cubic", {}),
                                          ("linear", {"antialias": 1, "exclude_outside": 1}),
                                          ("nearest", {"coordinate_transformation_mode": "half_pixel_symmetric"})],
                         ids=["nearest", "linear", "cubic", "linear-aa", "nearest-symmetric"])
def test_scales_input_sets_floor_size_and_the_kernel_step(mode, options):
    for h, w, sh, sw in [(5, 8, 1.7, 0.62), (9, 4, 0.37, 2.5), (6, 6, 1.1, 1.1), (13, 7, 3.3, 0.8)]:
        x = image((mode, h, w), (h, w))
        scales = [np.float32(sh), np.float32(sw)]
        want = ort_resize(x, mode, scales=scales, **attributes(options))
        got = library_resize(x, library="onnx", mode=mode, scale_factor=(sh, sw), axes=(0, 1), **options)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
def test_tf_crop_and_resize_with_roi_and_extrapolation(mode):
    x = image(("roi", mode), (9, 11))
    roi = [(0.1, 0.2), (-0.3, 1.4)]
    flat = [0.1, -0.3, 0.2, 1.4]
    for H, W in [(5, 7), (12, 4), (1, 6)]:
        want = ort_resize(x, mode, sizes=(H, W), roi=flat, coordinate_transformation_mode="tf_crop_and_resize",
                          extrapolation_value=-1.0)
        got = library_resize(x, (H, W), library="onnx", mode=mode, coordinate_transformation_mode="tf_crop_and_resize",
                             roi=roi, extrapolation_value=-1.0)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{H}x{W}")


@pytest.mark.parametrize("policy", ["not_larger", "not_smaller"])
def test_keep_aspect_ratio_policy_changes_the_output_size_like_onnxruntime(policy):
    x = image(("policy", policy), (9, 14))
    for H, W in [(5, 20), (20, 5), (9, 9)]:
        want = ort_resize(x, "linear", sizes=(H, W), keep_aspect_ratio_policy=policy)
        got = library_resize(x, (H, W), library="onnx", mode="linear", keep_aspect_ratio_policy=policy)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


def test_attribute_errors_match_onnxruntime():
    x = image("err", (4, 4))
    with pytest.raises(Exception, match="exclude_outside"):
        ort_resize(x, "nearest", sizes=(3, 3), exclude_outside=1)
    with pytest.raises(ValueError, match="exclude_outside"):
        preset("onnx", "nearest", exclude_outside=1)
    with pytest.raises(ValueError, match="coordinate_transformation_mode='tf_half_pixel_for_nn'"):
        preset("onnx", "nearest", coordinate_transformation_mode="tf_half_pixel_for_nn")  # removed in opset 13
    with pytest.raises(ValueError, match="opset 18"):
        preset("onnx", "linear", opset=13, antialias=1)
    with pytest.raises(ValueError, match="opset 11"):
        preset("onnx", "nearest", opset=10, nearest_mode="floor")


def test_uint8_nearest_is_a_gather_and_integer_linear_is_refused():
    x = image("u8", (7, 9), np.uint8)
    want = ort_resize(x, "nearest", sizes=(4, 13))
    got = library_resize(x, (4, 13), library="onnx", mode="nearest")
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="integer"):
        library_resize(x, (4, 13), library="onnx", mode="linear")


def test_gradient_only_for_linear_without_antialias():
    g = np.ones((3, 3))
    assert library_resize_backward(g, (4, 4), (3, 3), library="onnx", mode="linear").shape == (4, 4)
    with pytest.raises(NoGradientError, match="ONNX Runtime"):
        library_resize_backward(g, (4, 4), (3, 3), library="onnx", mode="cubic")
    with pytest.raises(NoGradientError, match="without antialias"):
        library_resize_backward(g, (4, 4), (3, 3), library="onnx", mode="linear", antialias=1)


def test_an_unchanged_shape_is_copied_whatever_the_scales_or_roi():
    """ONNX Runtime returns the input when the output shape equals it (even for tf_crop_and_resize)."""
    x = image("copy", (6, 6))
    cropped = ort_resize(x, "linear", sizes=(6, 6), roi=[0.1, 0.2, 0.7, 0.9],
                         coordinate_transformation_mode="tf_crop_and_resize")
    np.testing.assert_array_equal(cropped, x)
    got = library_resize(x, (6, 6), library="onnx", mode="linear", coordinate_transformation_mode="tf_crop_and_resize",
                         roi=[(0.1, 0.7), (0.2, 0.9)])
    np.testing.assert_array_equal(got, x)
    scaled = ort_resize(x, "cubic", scales=[np.float32(1.1), np.float32(1.1)])
    np.testing.assert_array_equal(scaled, x)
    same = library_resize(x, library="onnx", mode="cubic", scale_factor=(1.1, 1.1), axes=(0, 1))
    np.testing.assert_array_equal(same, x)


@pytest.mark.parametrize("mode", ["linear", "cubic"])
@pytest.mark.parametrize("exclude_outside", [0, 1])
def test_antialias_with_align_corners_stretches_by_the_scale(mode, exclude_outside):
    """Note [antialias with align_corners] in explorer.conventions.libraries.onnx: samples at i (n-1)/(m-1), kernel
    stretched by n/m, whether the output comes from sizes or from scales."""
    options = {"coordinate_transformation_mode": "align_corners", "antialias": 1, "exclude_outside": exclude_outside}
    for h, w, H, W in [(31, 37, 15, 23), (31, 37, 10, 12), (9, 13, 1, 5), (9, 13, 4, 1), (20, 20, 7, 3),
                       (31, 37, 47, 61)]:
        x = image(("aa-ac", mode, h, w), (h, w))
        want = ort_resize(x, mode, sizes=(H, W), **options)
        got = library_resize(x, (H, W), library="onnx", mode=mode, **options)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} -> {H}x{W}")
    for h, w, sh, sw in [(31, 37, 0.37, 0.62), (13, 7, 0.3, 0.8)]:
        x = image(("aa-ac-scales", mode, h, w), (h, w))
        want = ort_resize(x, mode, scales=[np.float32(sh), np.float32(sw)], **options)
        got = library_resize(x, library="onnx", mode=mode, scale_factor=(sh, sw), axes=(0, 1), **options)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} x ({sh}, {sw})")


@pytest.mark.parametrize("mode", ["linear", "cubic"])
@pytest.mark.parametrize("exclude_outside", [0, 1])
def test_antialias_copies_an_axis_whose_length_does_not_change(mode, exclude_outside):
    """Note [unit-scale axes]: with antialias, an axis whose scale is not 1 but whose length does not change
    (floor(5 * 1.1) = 5) is copied by ONNX Runtime's separable passes while the other axis is resized."""
    options = {"antialias": 1, "exclude_outside": exclude_outside}
    for h, w, sh, sw in [(5, 13, 1.1, 0.6), (9, 7, 0.45, 1.05), (6, 11, 2.3, 1.02), (12, 4, 0.7, 1.2)]:
        x = image(("aa-same-length", mode, h, w), (h, w))
        scales = [np.float32(sh), np.float32(sw)]
        want = ort_resize(x, mode, scales=scales, **options)
        got = library_resize(x, library="onnx", mode=mode, scale_factor=(sh, sw), axes=(0, 1), **options)
        assert got.shape == want.shape and (want.shape[0] == h or want.shape[1] == w)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} x ({sh}, {sw})")
        # the copy matters: the antialiased kernel stepping by the scale on that axis is not a copy
        spec = preset("onnx", mode, **options)
        stepped = explorer.resize(x, want.shape, spec, axes=(0, 1), scale_factor=[float(s) for s in scales])
        assert np.abs(stepped - want).max() > 1e-3

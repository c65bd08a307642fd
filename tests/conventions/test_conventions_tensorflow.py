"""Live oracle: explorer's TensorFlow presets against ``tf.image.resize``, the v1 resize ops and GradientTape.

Every row of ``presets("tensorflow")`` (v2 methods with and without antialias, v1 legacy / align_corners /
half-pixel ops) runs on a seeded grid of sizes 1..60 up and down.  TensorFlow computes in float32 and returns
float32, so the tolerance is 1e-5 on [0, 1] images; nearest indices must be identical.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets
from preset_cases import image, options_id, size_grid

tf = pytest.importorskip("tensorflow", reason="TensorFlow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

ROWS = [(row.mode, row.options) for row in presets("tensorflow")]
_V1_OPS = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor", "bicubic": "ResizeBicubic",
           "area": "ResizeArea"}


def _tf_resize(x, size, mode, options):
    """NHWC float32 through the op the preset names."""
    if options.get("version", 2) == 1:
        op = getattr(tf.raw_ops, _V1_OPS[mode])
        kw = dict(align_corners=options.get("align_corners", False))
        if mode != "area":
            kw["half_pixel_centers"] = options.get("half_pixel_centers", False)
        return op(images=x, size=size, **kw)
    return tf.image.resize(x, size, method=mode, antialias=options.get("antialias", False))


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_forward_matches_tensorflow(mode, options):
    worst = 0.0
    for h, w, H, W in size_grid(("tf", mode, options_id(options)), 12):
        x = image((mode, h, w), (1, h, w, 2))
        want = _tf_resize(x, (H, W), mode, options).numpy()
        got = library_resize(x, (H, W), library="tensorflow", mode=mode, axes=(1, 2), **options)
        assert got.shape == want.shape
        if mode == "nearest":
            np.testing.assert_array_equal(got, want, err_msg=f"{h}x{w} -> {H}x{W}")
        worst = max(worst, float(np.abs(got - want).max()))
    assert worst <= 1e-5


@pytest.mark.parametrize("mode,options", [r for r in ROWS if r[0] != "area"],
                         ids=[f"{m}-{options_id(o)}" for m, o in ROWS if m != "area"])
def test_gradient_matches_gradient_tape(mode, options):
    for h, w, H, W in size_grid(("tfgrad", mode, options_id(options)), 3, top=40, fixed=[(5, 8, 8, 5)]):
        x = tf.constant(image((mode, h, w), (1, h, w, 1)))
        g = image(("g", H, W), (1, H, W, 1)) - np.float32(0.5)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = _tf_resize(x, (H, W), mode, options)
        want = tape.gradient(y, x, output_gradients=tf.constant(g)).numpy()
        got = library_resize_backward(g, x.shape, (H, W), library="tensorflow", mode=mode, axes=(1, 2), **options)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{h}x{w} -> {H}x{W}")


def test_area_has_no_gradient_in_tensorflow_and_the_preset_says_so():
    x = tf.constant(image("area", (1, 6, 6, 1)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, (4, 4), method="area")
    with pytest.raises(LookupError):
        tape.gradient(y, x)
    with pytest.raises(NoGradientError, match="ResizeArea"):
        library_resize_backward(np.ones((1, 4, 4, 1)), (1, 6, 6, 1), (4, 4), library="tensorflow", mode="area",
                                axes=(1, 2))


@pytest.mark.parametrize("options", [{}, {"version": 1}, {"version": 1, "align_corners": True}],
                         ids=["v2", "v1-legacy", "v1-align_corners"])
def test_nearest_indices_match_tensorflow_for_every_size_pair(options):
    mismatched = []
    for n in range(2, 41):
        x = np.arange(n, dtype=np.float32).reshape(1, 1, n, 1)
        for m in range(2, 41):
            want = _tf_resize(x, (1, m), "nearest", options).numpy().ravel()
            got = library_resize(x, (1, m), library="tensorflow", mode="nearest", axes=(1, 2), **options).ravel()
            if not np.array_equal(got, want):
                mismatched.append((n, m))
    assert mismatched == []


def test_uint8_nearest_keeps_uint8_and_the_rest_returns_float32_like_tensorflow():
    x = image("u8", (1, 9, 7, 3), np.uint8)
    for mode in ("nearest", "bilinear", "bicubic", "area"):
        want = tf.image.resize(x, (5, 11), method=mode).numpy()
        got = library_resize(x, (5, 11), library="tensorflow", mode=mode, axes=(1, 2))
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=0, atol=1e-3)

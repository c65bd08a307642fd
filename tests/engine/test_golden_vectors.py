"""The exact values measured from the real libraries (PyTorch, TensorFlow, JAX, ONNX Runtime, OpenCV,
Pillow), one test per convention, computed by the engine from a Spec alone."""

from __future__ import annotations

import numpy as np
import pytest

import explorer
from explorer import Spec

E1 = np.arange(16, dtype=np.float64).reshape(4, 4)  # resized to 3x3, first row compared


def first_row(spec, scale=None):
    return explorer.resize(E1, (3, 3), spec, scale_factor=scale)[0]


E1_ROWS = {
    "half_pixel_bilinear_clamp": (Spec("linear"), [0.833333, 2.166667, 3.5]),
    "align_corners_bilinear": (Spec("linear", coordinate_transformation_mode="align_corners"), [0, 1.5, 3]),
    "tf1_legacy_asymmetric_bilinear": (Spec("linear", coordinate_transformation_mode="asymmetric"),
                                       [0, 1.333333, 2.666667]),
    "antialias_triangle_pil_bilinear": (Spec("linear", antialias=True, exclude_outside=True), [1.5, 2.7, 3.9]),
    "onnx_linear_antialias_exclude_outside_0": (Spec("linear", antialias=True), [1.363636, 2.590909, 3.818182]),
    "keys_075_clamp": (Spec("cubic"), [0.630787, 2.004630, 3.378472]),
    "keys_05_renormalised_no_antialias": (Spec("cubic", cubic_coeff_a=-0.5, exclude_outside=True),
                                          [0.514223, 1.911379, 3.308534]),
    "keys_05_antialias_pil_bicubic": (Spec("cubic", cubic_coeff_a=-0.5, exclude_outside=True, antialias=True),
                                      [0.949657, 2.259725, 3.569794]),
    "lanczos3_antialias": (Spec("lanczos3", exclude_outside=True, antialias=True), [0.796964, 2.137571, 3.478179]),
    "tf_lanczos3_no_antialias": (Spec("lanczos3", exclude_outside=True), [0.428973, 1.843178, 3.257384]),
    "tf_lanczos5_antialias": (Spec("lanczos5", exclude_outside=True, antialias=True), [0.806194, 2.144955, 3.483716]),
    "tf_lanczos5_no_antialias": (Spec("lanczos5", exclude_outside=True), [0.625352, 2.000281, 3.375211]),
    "tf_mitchellcubic_antialias": (Spec("mitchell", exclude_outside=True, antialias=True),
                                   [1.322547, 2.558038, 3.793529]),
    "tf_mitchellcubic_no_antialias": (Spec("mitchell", exclude_outside=True), [0.796066, 2.136853, 3.477640]),
    "tf_gaussian_antialias": (Spec("gaussian", exclude_outside=True, antialias=True), [1.736104, 2.888883, 4.041663]),
    "tf_gaussian_no_antialias": (Spec("gaussian", exclude_outside=True), [1.043043, 2.334434, 3.625826]),
    "opencv_lanczos4": (Spec("lanczos4"), [0.563467, 1.950774, 3.338081]),
    "pil_hamming": (Spec("hamming", exclude_outside=True, antialias=True), [0.770293, 2.116234, 3.462176]),
    "exact_overlap_area": (Spec("area"), [1.25, 2.5, 3.75]),
    "torch_adaptive_area": (Spec("adaptive_area"), [2.5, 3.5, 4.5]),
    "pil_box": (Spec("box", exclude_outside=True, antialias=True), [0, 1.5, 3]),
    "nearest_floor": (Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"), [0, 1, 2]),
    "nearest_exact": (Spec("nearest", nearest_mode="round_prefer_ceil"), [0, 2, 3]),
    "onnx_nearest_default_round_prefer_floor": (Spec("nearest"), [0, 1, 3]),
}


@pytest.mark.parametrize("name", sorted(E1_ROWS))
def test_e1_first_row(name):
    """Values were measured in float32 by TensorFlow and OpenCV (float64 elsewhere), printed to 6 places."""
    spec, expected = E1_ROWS[name]
    np.testing.assert_allclose(first_row(spec), expected, atol=2e-6)


def _nearest_1d(n, m, spec):
    return explorer.resize(np.arange(n, dtype=np.float64), (m,), spec).astype(int).tolist()


N_FLOOR = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")
N_EXACT = Spec("nearest", nearest_mode="round_prefer_ceil")


@pytest.mark.parametrize("n,m,floor,exact", [
    (4, 8, [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 1, 1, 2, 2, 3, 3]),
    (4, 3, [0, 1, 2], [0, 2, 3]),
    (8, 4, [0, 2, 4, 6], [1, 3, 5, 7]),
    (5, 3, [0, 1, 3], [0, 2, 4]),
    (4, 6, [0, 0, 1, 2, 2, 3], [0, 1, 1, 2, 3, 3]),
    (5, 8, [0, 0, 1, 1, 2, 3, 3, 4], [0, 0, 1, 2, 2, 3, 4, 4]),
    (6, 4, [0, 1, 3, 4], [0, 2, 3, 5]),
])
def test_e2_nearest_and_nearest_exact_index_tables(n, m, floor, exact):
    assert _nearest_1d(n, m, N_FLOOR) == floor
    assert _nearest_1d(n, m, N_EXACT) == exact
    if m % n == 0:
        assert floor == exact  # identical for integer upscale factors


def test_e2_onnx_round_prefer_floor_and_ceil_4_to_2():
    assert _nearest_1d(4, 2, Spec("nearest", nearest_mode="round_prefer_floor")) == [0, 2]
    assert _nearest_1d(4, 2, Spec("nearest", nearest_mode="round_prefer_ceil")) == [1, 3]


def test_e2_onnxruntime_opset10_simple_nearest_8_to_5():
    spec = Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="simple")
    assert _nearest_1d(8, 5, spec) == [0, 2, 4, 5, 7]


def test_e2_pytorch_float32_nearest_exact_tie_4_to_41():
    """floor((20 + 0.5) * 4/41) is exactly 2, but PyTorch's float32 arithmetic gives 1."""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 4)
    assert explorer.interpolate(x, size=41, mode="nearest-exact")[0, 0, 20] == 1
    assert explorer.interpolate(x.astype(np.float64), size=41, mode="nearest-exact")[0, 0, 20] == 2


def test_e2_nearest_exact_backward_segments_4_to_10():
    """Input i gathers the gradient of outputs [start(i), start(i+1)): starts 0, 2, 5, 7, 10."""
    band = explorer.axis_plan(4, 10, N_EXACT).band.T
    assert band.start.tolist() == [0, 2, 5, 7] and (band.start + band.length).tolist() == [2, 5, 7, 10]


def test_e3_upsampling_4_to_7_of_an_edge():
    x = np.array([0, 0, 10, 0], dtype=np.float64)
    up = lambda spec: explorer.resize(x, (7,), spec)  # noqa: E731
    np.testing.assert_allclose(up(Spec("linear")), [0, 0, 0, 5, 9.285714, 3.571429, 0], atol=5e-7)
    np.testing.assert_allclose(up(Spec("linear", antialias=True, exclude_outside=True)),
                               [0, 0, 0, 5, 9.285714, 3.571429, 0], atol=5e-7)
    np.testing.assert_allclose(up(Spec("cubic")),
                               [0, -0.614978, -0.461917, 5.9375, 9.889759, 4.022413, -0.992165], atol=5e-7)
    np.testing.assert_allclose(up(Spec("cubic", cubic_coeff_a=-0.5, antialias=True, exclude_outside=True)),
                               [0, -0.381809, -0.307217, 5.625, 9.854572, 3.402342, -0.793269], atol=5e-7)


@pytest.mark.parametrize("spec,expected", [
    (Spec("cubic"), [5.527344, 3.867188, 1.132812]),
    (Spec("cubic", cubic_coeff_a=-0.5), [5.351562, 3.984375, 1.015625]),
    (Spec("cubic", cubic_coeff_a=-0.5, exclude_outside=True), [5.441176, 4.051095, 1.106870]),
    (Spec("lanczos4"), [5.559546, 3.907397, 1.092602]),
], ids=["keys_075_clamp", "onnx_a05_exclude_outside_0", "a05_renormalised", "opencv_lanczos4"])
def test_e4_border_behaviour_4_to_8(spec, expected):
    y = explorer.resize(np.array([5.0, 0, 0, 0]), (8,), spec)
    np.testing.assert_allclose(y[:3], expected, atol=5e-7)


@pytest.mark.parametrize("transform,expected", [
    ("half_pixel", [0, .625, 4.375, 8.125, 8.125, 4.375, .625, 0]),
    ("asymmetric", [0, 3.75, 7.5, 8.75, 5, 1.25, 0, 0]),
    ("align_corners", [0, 2.857143, 5.714286, 8.571429, 8.571429, 5.714286, 2.857143, 0]),
])
def test_e7_coordinate_transforms_3_to_8(transform, expected):
    y = explorer.resize(np.array([0.0, 10, 0]), (8,), Spec("linear", coordinate_transformation_mode=transform))
    np.testing.assert_allclose(y, expected, atol=5e-7)


def test_e7_output_length_one():
    x = np.arange(4, dtype=np.float64)
    assert explorer.resize(x, (1,), Spec("linear"))[0] == pytest.approx(1.5)
    assert explorer.resize(x, (1,), Spec("linear", coordinate_transformation_mode="pytorch_half_pixel"))[0] == 0


@pytest.mark.parametrize("x,m,torch_area,exact_area", [
    ([0, 10, 20, 30, 40], 3, [5, 20, 35], [4, 20, 36]),
    ([0, 10, 20], 5, [0, 5, 10, 15, 20], [0, 3.333333, 10, 16.666667, 20]),
    (list(range(12)), 4, [1, 4, 7, 10], [1, 4, 7, 10]),
    (list(range(12)), 5, [1, 3, 5.5, 8, 10], [0.75, 3.083333, 5.5, 7.916667, 10.25]),
])
def test_e6_area_flavours(x, m, torch_area, exact_area):
    x = np.asarray(x, dtype=np.float64)
    np.testing.assert_allclose(explorer.resize(x, (m,), Spec("adaptive_area")), torch_area, atol=5e-7)
    np.testing.assert_allclose(explorer.resize(x, (m,), Spec("area")), exact_area, atol=5e-7)


def test_e6_pil_box_area_variants():
    np.testing.assert_allclose(explorer.resize(np.array([0.0, 10, 20, 30, 40]), (3,),
                                               Spec("box", antialias=True, exclude_outside=True)), [5, 20, 35])
    np.testing.assert_allclose(explorer.resize(np.array([0.0, 10, 20]), (5,),
                                               Spec("box", antialias=True, exclude_outside=True)), [0, 0, 10, 20, 20])


def test_e9_scale_factor_versus_recomputed_scale():
    x = np.arange(5, dtype=np.float64).reshape(1, 1, 5)
    y = explorer.interpolate(x, scale_factor=1.7, mode="linear")[0, 0]
    np.testing.assert_allclose(y[[0, 1, 2, 3, -1]], [0, .382353, .970588, 1.558824, 3.911765], atol=5e-7)
    y = explorer.interpolate(x, scale_factor=1.7, mode="linear", recompute_scale_factor=True)[0, 0]
    np.testing.assert_allclose(y[[0, 1, 2, -2, -1]], [0, .4375, 1.0625, 3.5625, 4], atol=5e-7)


def test_e9_half_pixel_symmetric_coordinates():
    """The reference prints coordinates clamped at 0 (what a linear kernel reads)."""
    x, _ = explorer.source_coordinates(5, 8, "half_pixel_symmetric", f=1.7)
    np.testing.assert_allclose(np.maximum(x[:3], 0), [0, .529, 1.118], atol=5e-4)
    x, _ = explorer.source_coordinates(5, 8, "half_pixel", f=1.7)
    np.testing.assert_allclose(np.maximum(x[:3], 0), [0, .382, .971], atol=5e-4)


def test_e9_pytorch_nearest_shortcuts_in_2d_but_not_1d_or_3d():
    for n, f, two_d, other in [(5, 1.1, [0, 1, 2, 3, 4], [0, 0, 1, 2, 3]),
                               (4, 2.1, [0, 0, 1, 1, 2, 2, 3, 3], [0, 0, 0, 1, 1, 2, 2, 3])]:
        x = np.arange(n, dtype=np.float32)
        y2 = explorer.interpolate(x.reshape(1, 1, 1, n), scale_factor=(1.0, f), mode="nearest")
        y1 = explorer.interpolate(x.reshape(1, 1, n), scale_factor=f, mode="nearest")
        y3 = explorer.interpolate(x.reshape(1, 1, 1, 1, n), scale_factor=(1.0, 1.0, f), mode="nearest")
        assert y2.ravel().tolist() == two_d
        assert y1.ravel().tolist() == other and y3.ravel().tolist() == other


def test_e9_tf_gaussian_impulse_response_at_identity_scale():
    w = explorer.weights(9, 9, Spec("gaussian", exclude_outside=True))
    np.testing.assert_allclose(w[4, 3:6], [0.106507, 0.786986, 0.106507], atol=5e-7)


def test_e9_same_size_scale_factor_copies_linear_but_not_bicubic():
    x = np.arange(25, dtype=np.float64).reshape(1, 1, 5, 5)
    for mode, kw in [("bilinear", {}), ("bilinear", {"antialias": True})]:
        np.testing.assert_array_equal(explorer.interpolate(x, scale_factor=1.1, mode=mode, **kw), x)
    assert not np.allclose(explorer.interpolate(x, scale_factor=1.1, mode="bicubic"), x)

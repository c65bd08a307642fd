"""Library presets without the libraries: names, options, errors, the measured equivalence classes
between libraries and the exact values measured from them (the only hard-coded expected numbers here)."""

from __future__ import annotations

import numpy as np
import pytest

import explorer
from explorer import Spec
from explorer.conventions.mode_names import libraries, library_modes
from explorer.conventions import (NoGradientError, equivalent, library_resize, library_resize_backward,
                              library_resize_transpose, preset, presets, weight_difference)
from explorer.conventions import library as presets_library

# ------------------------------------------------------------------------------------------------ names and options


def test_public_api_is_exported_from_the_package():
    for name in ("preset", "presets", "equivalent", "library_resize", "library_resize_backward",
                 "library_resize_transpose"):
        assert name in explorer.__all__ and callable(getattr(explorer, name))


@pytest.mark.parametrize("library,mode,native", [
    ("opencv", "INTER_CUBIC", "INTER_CUBIC"), ("cv2", "inter_cubic", "INTER_CUBIC"),
    ("opencv", "nearest-exact", "INTER_NEAREST_EXACT"), ("burn", "NearestExact", "NearestExact"),
    ("burn", "nearest_exact", "NearestExact"), ("torch", "NearestExact", "nearest-exact"),
    ("PyTorch", "BICUBIC", "bicubic"), ("PIL", "lanczos", "LANCZOS"), ("tf", "nearest_neighbor", "nearest"),
    ("jax", "bicubic", "cubic"), ("jax", "bicubic-pytorch", "cubic-pytorch"), ("onnx", "Bilinear", "linear"),
])
def test_native_spellings_are_accepted_case_insensitively(library, mode, native):
    assert presets_library(library).mode(mode) == native
    options = {"backend": "cubecl"} if native == "NearestExact" else {}
    assert preset(library, mode, **options) == preset(presets_library(library).id, native, **options)


def test_unknown_library_and_mode_list_the_valid_choices():
    with pytest.raises(ValueError, match="library='matlab'.*'opencv'.*'torch'"):
        preset("matlab", "bilinear")
    with pytest.raises(ValueError, match="mode='INTER_FANCY'.*'INTER_AREA'.*'INTER_LANCZOS4'"):
        preset("opencv", "INTER_FANCY")


def test_unknown_options_and_values_name_themselves_and_the_choices():
    with pytest.raises(TypeError, match="option='align_corner'.*'align_corners'.*did you mean"):
        preset("torch", "bilinear", align_corner=True)
    with pytest.raises(ValueError, match="nearest_mode='nearest'.*'round_prefer_ceil'"):
        preset("onnx", "nearest", nearest_mode="nearest")
    with pytest.raises(ValueError, match="opset=12.*'11'.*'13'"):
        preset("onnx", "linear", opset=12)
    with pytest.raises(ValueError, match="backend='wgpu'.*'cubecl'"):
        preset("burn", "Bilinear", backend="wgpu")


@pytest.mark.parametrize("library,mode,options,message", [
    ("torch", "lanczos", {}, "requires antialias=True"),
    ("torch", "nearest", {"align_corners": True}, "align_corners option can only be set"),
    ("torch", "bilinear", {"antialias": True, "align_corners": None, "recompute_scale_factor": None}, None),
    ("tensorflow", "bilinear", {"align_corners": True}, "v1 options"),
    ("tensorflow", "bilinear", {"version": 1, "align_corners": True, "half_pixel_centers": True}, "rejects"),
    ("tensorflow", "lanczos3", {"version": 1}, "not a TensorFlow v1 method"),
    ("onnx", "nearest", {"antialias": 1}, "only supports mode `LINEAR` and `CUBIC`"),
    ("onnx", "cubic", {"opset": 10}, "Resize-10"),
    ("burn", "NearestExact", {}, "backends that run it: cubecl"),
    ("burn", "Lanczos3", {"backend": "tch"}, "no Lanczos3 forward"),
])
def test_option_combinations_the_library_rejects_are_rejected(library, mode, options, message):
    if message is None:
        assert preset(library, mode, **options).antialias
        return
    with pytest.raises(ValueError, match=message):
        preset(library, mode, **options)


def test_presets_lists_every_library_and_every_native_mode():
    rows = presets()
    assert {r.library for r in rows} == set(libraries())
    for library, modes in ((lib, library_modes(lib)) for lib in libraries()):
        listed = {r.mode for r in rows if r.library == library}
        assert listed == set(modes), library
    for row in rows:
        assert isinstance(row.spec, Spec) and row.description
        assert preset(row.library, row.mode, **row.options) == row.spec
    assert presets("cv2") == [r for r in rows if r.library == "opencv"]


def test_option_defaults_follow_each_library():
    assert preset("jax", "linear").antialias  # JAX antialias defaults to True
    assert not preset("tensorflow", "bilinear").antialias
    assert preset("burn", "Bicubic").coordinate_transformation_mode == "align_corners"  # Burn: align_corners=true
    assert preset("onnx", "nearest").nearest_mode == "round_prefer_floor"
    assert preset("pillow", "BILINEAR").antialias  # Pillow always filters when shrinking


# ------------------------------------------------------------------------------------------------ equivalence classes

SIZE_PAIRS = [(4, 3), (17, 5), (9, 13), (5, 8), (13, 4), (23, 7)]

CLASSES = {
    "half-pixel bilinear, clamp": [("torch", "bilinear", {}), ("tensorflow", "bilinear", {}),
                                   ("jax", "linear", {"antialias": False}), ("opencv", "INTER_LINEAR", {}),
                                   ("onnx", "linear", {}), ("burn", "Bilinear", {"align_corners": False})],
    "align-corners bilinear": [("torch", "bilinear", {"align_corners": True}),
                               ("tensorflow", "bilinear", {"version": 1, "align_corners": True}),
                               ("onnx", "linear", {"coordinate_transformation_mode": "align_corners"}),
                               ("burn", "Bilinear", {})],
    "AA triangle (PIL bilinear)": [("torch", "bilinear", {"antialias": True}), ("pillow", "BILINEAR", {}),
                                   ("jax", "linear", {}), ("tensorflow", "bilinear", {"antialias": True}),
                                   ("onnx", "linear", {"antialias": 1, "exclude_outside": 1})],
    "Keys -0.75, clamp": [("torch", "bicubic", {}), ("opencv", "INTER_CUBIC", {}),
                          ("jax", "cubic-pytorch", {"antialias": False}), ("onnx", "cubic", {}),
                          ("burn", "Bicubic", {"align_corners": False})],
    "Keys -0.5, renormalised, no AA": [("jax", "cubic", {"antialias": False}),
                                       ("onnx", "cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1})],
    "Keys -0.5 AA": [("torch", "bicubic", {"antialias": True}), ("pillow", "BICUBIC", {}), ("jax", "cubic", {}),
                     ("tensorflow", "bicubic", {"antialias": True}),
                     ("onnx", "cubic", {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1})],
    "Lanczos-3 AA": [("torch", "lanczos", {"antialias": True}), ("pillow", "LANCZOS", {}), ("jax", "lanczos3", {}),
                     ("tensorflow", "lanczos3", {"antialias": True})],
    "exact-overlap area": [("opencv", "INTER_AREA", {}), ("tensorflow", "area", {}), ("jax", "area", {})],
    "N-floor": [("torch", "nearest", {}), ("opencv", "INTER_NEAREST", {}),
                ("onnx", "nearest", {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}),
                ("tensorflow", "nearest", {"version": 1}), ("burn", "Nearest", {})],
    "N-exact": [("torch", "nearest-exact", {}), ("tensorflow", "nearest", {}), ("jax", "nearest", {}),
                ("opencv", "INTER_NEAREST_EXACT", {}), ("pillow", "NEAREST", {}),
                ("onnx", "nearest", {"nearest_mode": "round_prefer_ceil"}),
                ("burn", "NearestExact", {"backend": "cubecl"})],
}


@pytest.mark.parametrize("name", list(CLASSES))
def test_equivalence_class_members_give_the_same_weights(name):
    members = [preset(lib, mode, **opts) for lib, mode, opts in CLASSES[name]]
    for n, m in SIZE_PAIRS:
        for k, spec in enumerate(members[1:], 1):
            assert equivalent(members[0], spec, n, m), (CLASSES[name][k], n, m,
                                                        weight_difference(members[0], spec, n, m))


def test_different_classes_are_not_equivalent():
    firsts = {name: preset(*CLASSES[name][0][:2], **CLASSES[name][0][2]) for name in CLASSES}
    for a in CLASSES:
        for b in CLASSES:
            if a < b:
                assert not all(equivalent(firsts[a], firsts[b], n, m) for n, m in SIZE_PAIRS), (a, b)


def test_unique_settings_of_section_8_differ_from_their_neighbours():
    assert not equivalent(preset("torch", "area"), preset("opencv", "INTER_AREA"), 4, 3)
    assert not equivalent(preset("pillow", "BOX"), preset("opencv", "INTER_AREA"), 4, 3)
    assert not equivalent(preset("onnx", "nearest"), preset("torch", "nearest-exact"), 4, 3)
    assert not equivalent(preset("onnx", "nearest", opset=10), preset("torch", "nearest"), 8, 5)
    tf_table = preset("tensorflow", "bicubic")
    jax_cubic = preset("jax", "cubic", antialias=False)
    assert not equivalent(tf_table, jax_cubic, 4, 3) and equivalent(tf_table, jax_cubic, 4, 3, atol=1.2e-3)
    assert not equivalent(preset("onnx", "linear", antialias=1), preset("torch", "bilinear", antialias=True), 17, 5)
    burn_lanczos = preset("burn", "Lanczos3", align_corners=False)  # no widening: equal to PIL only when growing
    assert equivalent(burn_lanczos, preset("pillow", "LANCZOS"), 5, 8)
    assert not equivalent(burn_lanczos, preset("pillow", "LANCZOS"), 8, 5)


def test_equivalent_checks_its_arguments_and_extrapolation():
    with pytest.raises(TypeError, match="spec_b must be an explorer.Spec"):
        equivalent(Spec("linear"), "linear", 4, 3)
    crop = Spec("linear", coordinate_transformation_mode="tf_crop_and_resize", roi=(-0.5, 1.5))
    assert not equivalent(crop, crop.replace(extrapolation_value=1.0), 4, 3)
    assert equivalent(crop, crop, 4, 3)


# ------------------------------------------------------------------------------------------------ measured values

E1 = np.arange(16, dtype=np.float64).reshape(4, 4)

SECTION_9_1 = [  # (library, mode, options, row 0 of arange(16).reshape(4, 4) resized to 3x3)
    ("torch", "bilinear", {}, [0.833333, 2.166667, 3.5]),
    ("opencv", "INTER_LINEAR", {}, [0.833333, 2.166667, 3.5]),
    ("jax", "linear", {"antialias": False}, [0.833333, 2.166667, 3.5]),
    ("onnx", "linear", {}, [0.833333, 2.166667, 3.5]),
    ("tensorflow", "bilinear", {}, [0.833333, 2.166667, 3.5]),
    ("torch", "bilinear", {"align_corners": True}, [0, 1.5, 3]),
    ("tensorflow", "bilinear", {"version": 1, "align_corners": True}, [0, 1.5, 3]),
    ("tensorflow", "bilinear", {"version": 1}, [0, 1.333333, 2.666667]),
    ("torch", "bilinear", {"antialias": True}, [1.5, 2.7, 3.9]),
    ("pillow", "BILINEAR", {}, [1.5, 2.7, 3.9]),
    ("jax", "linear", {}, [1.5, 2.7, 3.9]),
    ("tensorflow", "bilinear", {"antialias": True}, [1.5, 2.7, 3.9]),
    ("onnx", "linear", {"antialias": 1}, [1.363636, 2.590909, 3.818182]),
    ("torch", "bicubic", {}, [0.630787, 2.004630, 3.378472]),
    ("opencv", "INTER_CUBIC", {}, [0.630787, 2.004630, 3.378472]),
    ("jax", "cubic-pytorch", {"antialias": False}, [0.630787, 2.004630, 3.378472]),
    ("onnx", "cubic", {}, [0.630787, 2.004630, 3.378472]),
    ("jax", "cubic", {"antialias": False}, [0.514223, 1.911379, 3.308534]),
    ("onnx", "cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}, [0.514223, 1.911379, 3.308534]),
    ("tensorflow", "bicubic", {}, [0.515409, 1.912327, 3.309245]),
    ("torch", "bicubic", {"antialias": True}, [0.949657, 2.259725, 3.569794]),
    ("pillow", "BICUBIC", {}, [0.949657, 2.259725, 3.569794]),
    ("jax", "cubic", {}, [0.949657, 2.259725, 3.569794]),
    ("tensorflow", "bicubic", {"antialias": True}, [0.949657, 2.259725, 3.569794]),
    ("onnx", "cubic", {"antialias": 1, "cubic_coeff_a": -0.5, "exclude_outside": 1}, [0.949657, 2.259725, 3.569794]),
    ("torch", "lanczos", {"antialias": True}, [0.796964, 2.137571, 3.478179]),
    ("pillow", "LANCZOS", {}, [0.796964, 2.137571, 3.478179]),
    ("jax", "lanczos3", {}, [0.796964, 2.137571, 3.478179]),
    ("tensorflow", "lanczos3", {"antialias": True}, [0.796964, 2.137571, 3.478179]),
    ("tensorflow", "lanczos3", {}, [0.428973, 1.843178, 3.257384]),
    ("tensorflow", "lanczos5", {"antialias": True}, [0.806194, 2.144955, 3.483716]),
    ("tensorflow", "lanczos5", {}, [0.625352, 2.000281, 3.375211]),
    ("tensorflow", "mitchellcubic", {"antialias": True}, [1.322547, 2.558038, 3.793529]),
    ("tensorflow", "mitchellcubic", {}, [0.796066, 2.136853, 3.477640]),
    ("tensorflow", "gaussian", {"antialias": True}, [1.736104, 2.888883, 4.041663]),
    ("tensorflow", "gaussian", {}, [1.043043, 2.334434, 3.625826]),
    ("opencv", "INTER_LANCZOS4", {}, [0.563467, 1.950774, 3.338081]),
    ("pillow", "HAMMING", {}, [0.770293, 2.116234, 3.462176]),
    ("opencv", "INTER_AREA", {}, [1.25, 2.5, 3.75]),
    ("jax", "area", {}, [1.25, 2.5, 3.75]),
    ("tensorflow", "area", {}, [1.25, 2.5, 3.75]),
    ("torch", "area", {}, [2.5, 3.5, 4.5]),
    ("pillow", "BOX", {}, [0, 1.5, 3]),
    ("torch", "nearest", {}, [0, 1, 2]),
    ("opencv", "INTER_NEAREST", {}, [0, 1, 2]),
    ("onnx", "nearest", {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}, [0, 1, 2]),
    ("tensorflow", "nearest", {"version": 1}, [0, 1, 2]),
    ("tensorflow", "nearest", {"version": 1, "align_corners": True}, [0, 2, 3]),
    ("tensorflow", "bicubic", {"version": 1}, [0, 1.370099, 2.741012]),
    ("torch", "nearest-exact", {}, [0, 2, 3]),
    ("tensorflow", "nearest", {}, [0, 2, 3]),
    ("jax", "nearest", {}, [0, 2, 3]),
    ("pillow", "NEAREST", {}, [0, 2, 3]),
    ("opencv", "INTER_NEAREST_EXACT", {}, [0, 2, 3]),
    ("onnx", "nearest", {"nearest_mode": "round_prefer_ceil"}, [0, 2, 3]),
    ("onnx", "nearest", {}, [0, 1, 3]),
]


@pytest.mark.parametrize("library,mode,options,row", SECTION_9_1,
                         ids=[f"{lib}-{mode}-{'-'.join(map(str, o.values())) or 'defaults'}"
                              for lib, mode, o, _ in SECTION_9_1])
def test_e1_table_arange16_to_3x3(library, mode, options, row):
    x = E1.reshape(1, 1, 4, 4) if library == "torch" else E1
    y = library_resize(x, (3, 3), library=library, mode=mode, **options)
    np.testing.assert_allclose(y.reshape(3, 3)[0], row, atol=1.5e-6)


def test_e2_torch_nearest_versus_nearest_exact():
    cases = {(4, 8): ([0, 0, 1, 1, 2, 2, 3, 3], None), (4, 3): ([0, 1, 2], [0, 2, 3]),
             (8, 4): ([0, 2, 4, 6], [1, 3, 5, 7]), (5, 3): ([0, 1, 3], [0, 2, 4]),
             (4, 6): ([0, 0, 1, 2, 2, 3], [0, 1, 1, 2, 3, 3]),
             (5, 8): ([0, 0, 1, 1, 2, 3, 3, 4], [0, 0, 1, 2, 2, 3, 4, 4]), (6, 4): ([0, 1, 3, 4], [0, 2, 3, 5])}
    for (n, m), (floor_rule, exact_rule) in cases.items():
        x = np.arange(n, dtype=np.float64).reshape(1, 1, n)
        assert library_resize(x, (m,), library="torch", mode="nearest").ravel().tolist() == floor_rule
        exact = library_resize(x, (m,), library="torch", mode="nearest-exact").ravel().tolist()
        assert exact == (exact_rule or floor_rule)


def test_e2_other_nearest_vectors():
    def run(library, mode, n, m, **options):
        return library_resize(np.arange(n, dtype=np.float32), (m,), library=library, mode=mode, **options).tolist()

    assert run("opencv", "INTER_NEAREST", 4, 6) == [0, 0, 1, 2, 2, 3]
    assert run("opencv", "INTER_NEAREST_EXACT", 4, 6) == [0, 1, 1, 2, 2, 3]
    assert run("pillow", "NEAREST", 4, 6) == [0, 1, 1, 2, 2, 3]
    assert run("onnx", "nearest", 4, 2) == [0, 2]
    assert run("onnx", "nearest", 4, 2, nearest_mode="round_prefer_ceil") == [1, 3]
    assert run("pillow", "NEAREST", 10, 3) == [1, 5, 8] == run("opencv", "INTER_NEAREST_EXACT", 10, 3)
    torch_f32 = library_resize(np.arange(4, dtype=np.float32).reshape(1, 1, 4), (41,), library="torch",
                               mode="nearest-exact")
    assert torch_f32.ravel()[20] == 1  # float32 tie: the exact rule gives 2
    torch_f64 = library_resize(np.arange(4.0).reshape(1, 1, 4), (41,), library="torch", mode="nearest-exact")
    assert torch_f64.ravel()[20] == 2


def test_e2_onnx_opset10_rounds_up_when_downsampling():
    x = np.arange(8, dtype=np.float32)
    y = library_resize(x, library="onnx", mode="nearest", opset=10, scale_factor=0.625, axes=0)
    assert y.tolist() == [0, 2, 4, 5, 7]


def test_e2_cubek_nearest_exact_backward_boundaries():
    """Input i collects the gradient of outputs [start(i), start(i+1)) with start = [0, 2, 5, 7, 10] (in=4, out=10)."""
    counts = library_resize_backward(np.ones(10), (4,), (10,), library="burn", mode="NearestExact", backend="cubecl")
    assert np.concatenate([[0], np.cumsum(counts)]).tolist() == [0, 2, 5, 7, 10]


def test_e4_border_behaviour_4_to_7_and_4_to_8():
    x = np.array([0, 0, 10, 0], dtype=np.float64).reshape(1, 1, 1, 4)
    bilinear = [0, 0, 0, 5, 9.285714, 3.571429, 0]
    for aa in (False, True):
        y = library_resize(x, (1, 7), library="torch", mode="bilinear", antialias=aa)
        np.testing.assert_allclose(y.ravel(), bilinear, atol=1e-6)
    cubic = [0, -0.614978, -0.461917, 5.9375, 9.889759, 4.022413, -0.992165]
    np.testing.assert_allclose(library_resize(x, (1, 7), library="torch", mode="bicubic").ravel(), cubic, atol=1e-6)
    for library, mode, options in [("opencv", "INTER_CUBIC", {}),
                                   ("jax", "cubic-pytorch", {"antialias": False, "x64": True})]:
        y = library_resize(x.reshape(4), (7,), library=library, mode=mode, axes=0, **options)
        np.testing.assert_allclose(y, cubic, atol=1e-6)
    cubic_aa = [0, -0.381809, -0.307217, 5.625, 9.854572, 3.402342, -0.793269]
    for library, mode, options in [("pillow", "BICUBIC", {}), ("jax", "cubic", {"x64": True})]:
        np.testing.assert_allclose(library_resize(x.reshape(4), (7,), library=library, mode=mode, **options),
                                   cubic_aa, atol=1e-6)
    x = np.array([5, 0, 0, 0], dtype=np.float64)
    table = [(("opencv", "INTER_CUBIC", {}), [5.527344, 3.867188, 1.132812]),
             (("onnx", "cubic", {"cubic_coeff_a": -0.5}), [5.351562, 3.984375, 1.015625]),
             (("jax", "cubic", {"x64": True}), [5.441176, 4.051095, 1.106870]),
             (("onnx", "cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}), [5.441176, 4.051095, 1.106870]),
             (("opencv", "INTER_LANCZOS4", {}), [5.559546, 3.907397, 1.092602])]
    for (library, mode, options), first in table:
        y = library_resize(x, (8,), library=library, mode=mode, **options)
        np.testing.assert_allclose(y[:3], first, atol=1e-6)


def test_e7_bilinear_3_to_8_and_output_length_1():
    x = np.array([0, 10, 0], dtype=np.float64)
    np.testing.assert_allclose(library_resize(x, (8,), library="opencv", mode="INTER_LINEAR"),
                               [0, .625, 4.375, 8.125, 8.125, 4.375, .625, 0], atol=1e-6)
    np.testing.assert_allclose(library_resize(x, (8,), library="onnx", mode="linear",
                                              coordinate_transformation_mode="asymmetric"),
                               [0, 3.75, 7.5, 8.75, 5, 1.25, 0, 0], atol=1e-6)
    np.testing.assert_allclose(library_resize(x, (8,), library="burn", mode="Bilinear"),
                               [0, 2.857143, 5.714286, 8.571429, 8.571429, 5.714286, 2.857143, 0], atol=1e-6)
    ramp = np.arange(4, dtype=np.float64)
    assert library_resize(ramp, (1,), library="opencv", mode="INTER_LINEAR")[0] == 1.5
    assert library_resize(ramp, (1,), library="onnx", mode="linear")[0] == 1.5
    assert library_resize(ramp, (1,), library="onnx", mode="linear",
                          coordinate_transformation_mode="pytorch_half_pixel")[0] == 0


def test_e6_area_variants():
    x = np.array([0, 10, 20, 30, 40], dtype=np.float64)
    np.testing.assert_allclose(library_resize(x.reshape(1, 1, 5), (3,), library="torch", mode="area").ravel(),
                               [5, 20, 35])
    for library, mode in [("opencv", "INTER_AREA"), ("jax", "area"), ("tensorflow", "area")]:
        np.testing.assert_allclose(library_resize(x, (3,), library=library, mode=mode), [4, 20, 36], atol=1e-6)
    np.testing.assert_allclose(library_resize(x, (3,), library="pillow", mode="BOX"), [5, 20, 35], atol=1e-9)
    x = np.array([0, 10, 20], dtype=np.float64)
    np.testing.assert_allclose(library_resize(x.reshape(1, 1, 3), (5,), library="torch", mode="area").ravel(),
                               [0, 5, 10, 15, 20])
    for library, mode in [("opencv", "INTER_AREA"), ("jax", "area")]:
        np.testing.assert_allclose(library_resize(x, (5,), library=library, mode=mode),
                                   [0, 3.333333, 10, 16.666667, 20], atol=1e-6)
    np.testing.assert_allclose(library_resize(x, (5,), library="pillow", mode="BOX"), [0, 0, 10, 20, 20])
    np.testing.assert_allclose(library_resize(x.reshape(1, 1, 3), (5,), library="torch", mode="nearest").ravel(),
                               [0, 0, 10, 10, 20])
    x = np.arange(12, dtype=np.float64)
    for library, mode in [("opencv", "INTER_AREA"), ("jax", "area"), ("tensorflow", "area"), ("torch", "area")]:
        y = library_resize(x.reshape(1, 1, 12) if library == "torch" else x, (4,), library=library, mode=mode)
        np.testing.assert_allclose(y.ravel(), [1, 4, 7, 10], atol=1e-6)
    np.testing.assert_allclose(library_resize(x, (5,), library="opencv", mode="INTER_AREA"),
                               [0.75, 3.083333, 5.5, 7.916667, 10.25], atol=1e-6)
    np.testing.assert_allclose(library_resize(x.reshape(1, 1, 12), (5,), library="torch", mode="area").ravel(),
                               [1, 3, 5.5, 8, 10])


def test_e9_section_single_case_vectors():
    x = np.arange(5, dtype=np.float64).reshape(1, 1, 5)
    y = library_resize(x, library="torch", mode="linear", scale_factor=1.7).ravel()
    np.testing.assert_allclose(y[[0, 1, 2, 3, 7]], [0, .382353, .970588, 1.558824, 3.911765], atol=1e-6)
    y = library_resize(x, library="torch", mode="linear", scale_factor=1.7, recompute_scale_factor=True).ravel()
    np.testing.assert_allclose(y[[0, 1, 2, 6, 7]], [0, .4375, 1.0625, 3.5625, 4], atol=1e-6)
    symmetric = library_resize(np.arange(5, dtype=np.float32), library="onnx", mode="linear", scale_factor=1.7,
                               axes=0, coordinate_transformation_mode="half_pixel_symmetric")
    np.testing.assert_allclose(symmetric[1:3], [.529, 1.118], atol=1e-3)
    same = library_resize(np.arange(25.0).reshape(1, 1, 5, 5), library="torch", mode="bicubic", scale_factor=1.1)
    np.testing.assert_allclose(same[0, 0, 0], [-0.186, 0.653, 1.570, 2.487, 3.521], atol=1e-3)
    grid = np.arange(25.0).reshape(1, 1, 5, 5)
    np.testing.assert_array_equal(library_resize(grid, library="torch", mode="bilinear", scale_factor=1.1), grid)
    for n, f, m in [(5, 1.7, 8), (5, 1.5, 8), (7, 0.5, 4)]:  # OpenCV cvRound sizes
        assert library_resize(np.zeros(n, np.float32), library="opencv", mode="INTER_LINEAR", scale_factor=f,
                              axes=0).shape == (m,)
    impulse = library_resize(np.eye(5)[2], (5,), library="tensorflow", mode="gaussian")
    np.testing.assert_allclose(impulse[1:4], [0.106507, 0.786986, 0.106507], atol=1e-6)
    ramp = np.arange(10, dtype=np.float64).reshape(1, 1, 1, 10)
    np.testing.assert_allclose(library_resize(ramp, (1, 4), library="torch", mode="bilinear", antialias=True).ravel(),
                               [1, 3.24, 5.76, 8], atol=1e-6)
    np.testing.assert_allclose(library_resize(ramp, (1, 4), library="torch", mode="bilinear", antialias=True,
                                              align_corners=True).ravel(), [1.25, 4, 7, 8.666667], atol=1e-6)


def test_e12_gradients_of_nearest():
    g = np.ones((1, 1, 3, 4))
    for mode in ("nearest", "nearest-exact"):
        gx = library_resize_backward(g, (1, 1, 5, 7), (3, 4), library="torch", mode=mode)
        assert int((gx == 0).sum()) == 23
    gx = library_resize_backward(np.ones((4, 5)), (9, 13), (4, 5), library="jax", mode="nearest")
    assert int((gx != 0).sum()) == 20


# ------------------------------------------------------------------------------------------------ rules and errors


def test_libraries_without_a_scale_factor_ask_for_a_size():
    for library, mode in [("tensorflow", "bilinear"), ("jax", "linear"), ("pillow", "BICUBIC")]:
        with pytest.raises(ValueError, match="size="):
            library_resize(np.zeros((4, 4), np.float32), library=library, mode=mode, scale_factor=2.0, axes=(0, 1))


def test_burn_truncates_the_scale_factor_and_steps_by_the_sizes():
    x = np.arange(5, dtype=np.float64)
    y = library_resize(x, library="burn", mode="Bilinear", align_corners=False, scale_factor=1.7, axes=0)
    np.testing.assert_allclose(y, library_resize(x, (8,), library="burn", mode="Bilinear", align_corners=False))


@pytest.mark.parametrize("library,mode,options,word", [
    ("opencv", "INTER_CUBIC", {}, "OpenCV"), ("pillow", "LANCZOS", {}, "Pillow"),
    ("tensorflow", "area", {}, "ResizeArea"), ("onnx", "nearest", {}, "ONNX Runtime"),
    ("burn", "Bilinear", {"backend": "ndarray"}, "ndarray backend"), ("burn", "Lanczos3", {}, "no Burn backend"),
])
def test_backward_without_a_library_gradient_raises_naming_the_library(library, mode, options, word):
    with pytest.raises(NoGradientError, match=word):
        library_resize_backward(np.ones((2, 2)), (4, 4), (2, 2), library=library, mode=mode, **options)
    gx = library_resize_transpose(np.ones((2, 2)), (4, 4), (2, 2), library=library, mode=mode, **options)
    assert gx.shape == (4, 4)


_TORCH_SHAPES = {"linear": (1, 5, 4), "trilinear": (1, 1, 2, 5, 4)}


def test_transpose_is_the_adjoint_of_the_forward_for_every_preset():
    rng = np.random.default_rng(0)
    for row in presets():
        if row.library == "torch":  # NC + spatial, the last spatial axis resized 4 -> 3
            shape = _TORCH_SHAPES.get(row.mode, (1, 1, 5, 4))
            size, axes = shape[2:-1] + (3,), None
        elif row.library in ("torchvision", "keras"):  # images: (H, W) resized, (5, 4) -> (5, 3)
            shape, size, axes = ((1, 5, 4, 1), (5, 3), (1, 2)) if row.library == "keras" else ((1, 5, 4), (5, 3), None)
            if row.options.get("layer") == "UpSampling2D":  # integer factors only
                size = (5, 8)
        else:
            shape, size, axes = (5, 4), (3,), 1
        options = {**row.options, "clip": False} if row.library == "skimage" else row.options  # clip is not linear
        x = rng.random(shape)
        y = library_resize(x, size, library=row.library, mode=row.mode, axes=axes, **options)
        g = rng.random(y.shape)
        gx = library_resize_transpose(g, x.shape, size, library=row.library, mode=row.mode, axes=axes, **options)
        assert float((y * g).sum()) == pytest.approx(float((x * gx).sum()), rel=1e-9), row


def test_dtypes_follow_the_library_rules():
    x32 = np.random.default_rng(1).random((6, 5)).astype(np.float32)
    for library, mode in [("opencv", "INTER_CUBIC"), ("pillow", "BICUBIC"), ("jax", "cubic"), ("onnx", "cubic"),
                          ("tensorflow", "bicubic"), ("burn", "Bicubic")]:
        assert library_resize(x32, (4, 7), library=library, mode=mode).dtype == np.float32
        assert library_resize(x32.astype(np.float64), (4, 7), library=library, mode=mode).dtype == np.float64
    with pytest.raises(TypeError, match="integer"):
        library_resize(np.zeros((4, 4), np.uint8), (2, 2), library="burn", mode="Bilinear")
    with pytest.raises(TypeError, match="integer"):
        library_resize(np.zeros((4, 4), np.int16), (2, 2), library="opencv", mode="INTER_LINEAR")
    assert library_resize(np.zeros((4, 4), np.int16), (2, 2), library="opencv", mode="INTER_NEAREST").dtype == np.int16


def test_a_missing_library_or_mode_lists_the_choices():
    with pytest.raises(TypeError, match="library=None.*'burn'.*'torch'"):
        library_resize(np.zeros((3, 3)), (2, 2), mode="bilinear")
    with pytest.raises(TypeError, match="mode=None is not valid for opencv.*'INTER_AREA'"):
        library_resize(np.zeros((3, 3)), (2, 2), library="cv2")
    with pytest.raises(ValueError, match="only one of size or scale_factor"):
        library_resize(np.zeros((3, 3)), (2, 2), library="cv2", mode="INTER_AREA", scale_factor=0.5)

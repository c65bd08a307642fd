"""Live oracle: explorer's OpenVINO presets against the openvino wheel's CPU plugin (INFERENCE_PRECISION_HINT=f32),
with Interpolate-4/11 nodes built in-process and ONNX Resize models read by its ONNX frontend.

Every row of ``presets("openvino")`` runs on a seeded grid of sizes 1..60 (sizes mode, Interpolate-11 and -4),
then the scales mode and its output length, the 5-D linear filter, pads, uint8/int8 rounding, the ONNX frontend's
mapping, and each fact data/openvino.toml states about the release installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import explorer
from explorer.advisor import knowledge
from explorer.conventions import library_resize, library_resize_transpose, presets
from explorer.conventions.libraries.openvino import onnx_interpolate
from preset_cases import image, options_id, size_grid

ov = pytest.importorskip("openvino", reason="openvino is an oracle installed by the 'oracles' extra")
pytest.importorskip("onnx", reason="onnx is an oracle installed by the 'oracles' extra")
from onnx_models import resize_model, run_ort  # noqa: E402
from openvino_models import (  # noqa: E402
    default_precision,
    interpolate,
    interpolate_attributes,
    read_onnx,
    run_onnx,
)

pytestmark = pytest.mark.oracle
VERSION = ov.__version__.split("-")[0]
ROWS = [(row.mode, row.options) for row in presets("openvino")]
_ATTRIBUTES = ("coordinate_transformation_mode", "nearest_mode", "cube_coeff", "antialias")


def _attributes(options):
    return {k: v for k, v in options.items() if k in _ATTRIBUTES}


# Interpolate-4 on every mode it has, with each transform once (the nearest roundings run on Interpolate-11)
CASES = [(m, o, opset) for m, o in ROWS for opset in (11, 4)
         if opset == 11 or ("pillow" not in m and o.get("nearest_mode", "round_prefer_floor") == "round_prefer_floor")]


@pytest.mark.parametrize("mode,options,opset", CASES, ids=[f"{m}-{options_id(o)}-{s}" for m, o, s in CASES])
def test_forward_matches_openvino(mode, options, opset):
    worst = 0.0
    for h, w, H, W in size_grid(("openvino", mode, options_id(options)), 8):
        x = image((mode, h, w), (1, 2, h, w))
        want = interpolate(x, mode, sizes=(H, W), opset=opset, **_attributes(options))
        got = library_resize(x, (H, W), library="openvino", mode=mode, opset=opset, **options)
        assert got.shape == want.shape, (h, w, H, W)
        if mode == "nearest":
            np.testing.assert_array_equal(got, want, err_msg=f"{h}x{w} -> {H}x{W}")
        worst = max(worst, float(np.abs(got - want).max()))
    assert worst <= 1e-5


@pytest.mark.parametrize("mode", ["nearest", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"])
@pytest.mark.parametrize("transform", ["half_pixel", "asymmetric", "align_corners", "tf_half_pixel_for_nn"])
def test_scales_mode_sets_the_length_and_the_kernel_step(mode, transform):
    """scales: output floor(n * (s + 1e-6)), coordinates from the float32 scale (pillow: from the sizes)."""
    for h, w, sh, sw in [(5, 8, 1.7, 0.62), (9, 4, 0.37, 2.5), (6, 6, 1.0, 1.1), (13, 7, 3.3, 0.8), (40, 31, 0.29, 0.7)]:
        x = image((mode, transform, h, w), (1, 1, h, w))
        scales = (np.float32(sh), np.float32(sw))
        want = interpolate(x, mode, scales=scales, coordinate_transformation_mode=transform)
        got = library_resize(x, library="openvino", mode=mode, scale_factor=(sh, sw), axes=(2, 3),
                             coordinate_transformation_mode=transform)
        assert got.shape == want.shape, (h, w, sh, sw)
        np.testing.assert_allclose(got, want, rtol=0, atol=0 if mode == "nearest" else 1e-5)


def test_scales_output_length_is_floor_of_n_times_scale_plus_1e_6():
    """The lengths OpenVINO gives for scales a few float32 ulps around k/n - 1e-6, and how ONNX differs."""
    rng = np.random.default_rng(11)
    differs_from_onnx = 0
    for _ in range(60):
        n = int(rng.integers(2, 5000))
        k = int(rng.integers(1, 3 * n))
        s = np.float32(k / n - 1e-6) + np.float32(rng.integers(-4, 5)) * np.spacing(np.float32(k / n))
        if s <= 0:
            continue
        want = interpolate(np.zeros((1, 1, 1, n), np.float32), "nearest", scales=(1.0, float(s))).shape[-1]
        got = library_resize(np.zeros((1, n), np.float32), library="openvino", mode="nearest",
                             scale_factor=float(s), axes=(1,)).shape[-1]
        assert got == want, (n, float(s))
        differs_from_onnx += want != int(np.float32(n) * s)
    assert differs_from_onnx >= 10  # ONNX's floor(n * scale) would give one sample fewer


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("transform", ["half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"])
def test_linear_on_5d_is_the_triangle_filter_and_below_5d_is_linear_onnx(transform, antialias):
    """Note [linear below 5-D] and Note [antialias]: 5-D linear scales its triangle by the scale on every axis."""
    for (d, h, w), (D, H, W) in [((3, 7, 9), (5, 4, 20)), ((2, 30, 40), (2, 11, 13)), ((4, 5, 6), (8, 10, 12)),
                                 ((3, 3, 3), (3, 3, 7))]:
        x = image(("5d", transform, d, h, w), (1, 1, d, h, w))
        want = interpolate(x, "linear", sizes=(D, H, W), axes=(2, 3, 4), opset=4, antialias=antialias,
                           coordinate_transformation_mode=transform)
        got = library_resize(x, (D, H, W), library="openvino", mode="linear", opset=4, antialias=antialias,
                             coordinate_transformation_mode=transform)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6, err_msg=f"{(d, h, w)} -> {(D, H, W)}")
    x4 = image(("4d", transform), (1, 2, 9, 11))
    want = interpolate(x4, "linear", sizes=(4, 17), opset=4, antialias=antialias,
                       coordinate_transformation_mode=transform)
    same = interpolate(x4, "linear_onnx", sizes=(4, 17), coordinate_transformation_mode=transform)
    np.testing.assert_array_equal(want, same)
    got = library_resize(x4, (4, 17), library="openvino", mode="linear", opset=4, antialias=antialias,
                         coordinate_transformation_mode=transform)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)


@pytest.mark.parametrize("mode", ["nearest", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"])
def test_pads_are_zeros_resampled_with_the_axis(mode):
    for h, w, H, W, begin, end in [(5, 8, 7, 5, (1, 2), (0, 3)), (9, 4, 3, 11, (4, 0), (2, 1)), (3, 3, 9, 9, (1, 1), (1, 1))]:
        x = image(("pads", mode, h, w), (1, 1, h, w)) + 0.5
        want = interpolate(x, mode, sizes=(H, W), pads_begin=[0, 0, *begin], pads_end=[0, 0, *end])
        got = library_resize(x, (H, W), library="openvino", mode=mode, pads_begin=begin, pads_end=end)
        np.testing.assert_allclose(got, want, rtol=0, atol=0 if mode == "nearest" else 1e-5)


@pytest.mark.parametrize("mode,options", ROWS[::3] + [("linear_onnx", {"pads_begin": (2, 0), "pads_end": (1, 3)})],
                         ids=lambda v: v if isinstance(v, str) else options_id(v))
def test_the_transpose_is_the_adjoint_of_the_forward(mode, options):
    """Every mode is a linear map: <W x, g> == <x, W^T g> (pads included)."""
    rng = np.random.default_rng(4)
    for h, w, H, W in [(5, 8, 7, 5), (9, 4, 3, 11), (1, 6, 4, 1)]:
        x, g = rng.standard_normal((2, h, w)), rng.standard_normal((2, H, W))
        y = library_resize(x, (H, W), library="openvino", mode=mode, **options)
        gx = library_resize_transpose(g, x.shape, (H, W), library="openvino", mode=mode, **options)
        assert np.isclose(np.vdot(y, g), np.vdot(x, gx), rtol=1e-10, atol=1e-10)
    with pytest.raises(explorer.NoGradientError, match="inference runtime"):
        explorer.library_resize_backward(g, x.shape, (H, W), library="openvino", mode=mode, **options)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("mode", ["nearest", "linear_onnx", "cubic", "bilinear_pillow", "bicubic_pillow"])
def test_integer_images_round_as_the_plugin_does(mode, dtype):
    """Note [integer images]: half to even after one float32 pass; the pillow modes round each pass."""
    info = np.iinfo(dtype)
    worst = 0
    for h, w, H, W in size_grid(("ov-int", mode), 6):
        x = np.random.default_rng(h * 100 + w).integers(info.min, int(info.max) + 1, (1, 2, h, w)).astype(dtype)
        want = interpolate(x, mode, sizes=(H, W))
        got = library_resize(x, (H, W), library="openvino", mode=mode)
        assert got.dtype == want.dtype == dtype
        worst = max(worst, int(np.abs(got.astype(int) - want.astype(int)).max()))
    assert worst == 0


# --- the ONNX frontend ------------------------------------------------------------------------------------------
FRONTEND_CASES = [
    (10, "nearest", {}), (10, "linear", {}),
    (11, "nearest", {"coordinate_transformation_mode": "tf_half_pixel_for_nn", "nearest_mode": "ceil"}),
    (13, "nearest", {"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}),
    (13, "nearest", {"nearest_mode": "round_prefer_ceil"}),
    (13, "linear", {"coordinate_transformation_mode": "align_corners"}),
    (13, "linear", {"coordinate_transformation_mode": "pytorch_half_pixel"}),
    (13, "cubic", {"cubic_coeff_a": -0.5, "exclude_outside": 1}),
    (13, "cubic", {"coordinate_transformation_mode": "asymmetric"}),
    (18, "linear", {"antialias": 1}), (18, "cubic", {"antialias": 1, "exclude_outside": 1}),
    (19, "nearest", {"coordinate_transformation_mode": "half_pixel"}),
]


@pytest.mark.parametrize("opset,mode,attributes", FRONTEND_CASES,
                         ids=[f"{o}-{m}-{options_id(a)}" for o, m, a in FRONTEND_CASES])
def test_onnx_frontend_writes_the_interpolate_explorer_computes(opset, mode, attributes):
    x = image(("frontend", opset, mode), (1, 2, 7, 9))
    if opset == 10:
        model = resize_model(x.shape, op_version=10, scales=[1, 1, 1.5, 0.7], mode=mode)
    else:
        model = resize_model(x.shape, op_version=opset, sizes=[1, 2, 5, 13], mode=mode, **attributes)
    [(_, found)] = interpolate_attributes(model)
    expected_mode, expected = onnx_interpolate(mode, attributes, opset, VERSION)
    assert found["mode"] == expected_mode
    assert {k: found[k] for k in expected} == pytest.approx(expected)
    assert not any(found["pads_begin"]) and not any(found["pads_end"])
    options = {k: v for k, v in expected.items() if k != "antialias"}  # Note [antialias]: not on the CPU
    want = run_onnx(model, x)
    if opset == 10:
        got = library_resize(x, library="openvino", mode=expected_mode, scale_factor=(1.5, 0.7), axes=(2, 3),
                             **options)
    else:
        got = library_resize(x, (5, 13), library="openvino", mode=expected_mode, **options)
    np.testing.assert_allclose(got, want, rtol=0, atol=0 if mode == "nearest" else 1e-5)


def test_the_openvino_onnx_backend_computes_what_the_frontend_runs():
    from explorer.advisor.backend_calls import compute
    from explorer.advisor.question import Question

    x = image("backend", (1, 2, 9, 11))
    for mode, align in [("nearest", None), ("linear", True), ("linear", False), ("cubic", None)]:
        attributes = {"coordinate_transformation_mode": "align_corners"} if align else {}
        want = run_onnx(resize_model(x.shape, op_version=13, sizes=[1, 2, 6, 17], mode=mode, **attributes), x)
        got, _ = compute(Question.of(mode=mode, backend="openvino-onnx", align_corners=align, training=False), x,
                         (6, 17))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-5, err_msg=f"{mode} align_corners={align}")


# --- the facts data/openvino.toml states about this release ------------------------------------------------------
def _error(model) -> str:
    with pytest.raises(Exception) as info:
        read_onnx(model)
    return str(info.value)


@pytest.mark.parametrize("transform,opset", [("tf_crop_and_resize", 13), ("half_pixel_symmetric", 19)])
def test_coordinate_modes_the_frontend_refuses(transform, opset):
    roi = [0, 0, 0.1, 0.1, 1, 1, 0.9, 0.9] if transform == "tf_crop_and_resize" else None
    text = _error(resize_model((1, 1, 4, 5), op_version=opset, sizes=[1, 1, 7, 9], mode="linear", roi=roi,
                               coordinate_transformation_mode=transform))
    record = knowledge.load().record("openvino-onnx-coordinate-mode-refused")
    assert record.error_text.replace("{mode}", transform) in text


def test_exclude_outside_and_keep_aspect_ratio_policy_are_not_read():
    x = image("exclude", (1, 1, 6, 7))
    model = resize_model(x.shape, op_version=13, sizes=[1, 1, 11, 4], mode="cubic", cubic_coeff_a=-0.5,
                         exclude_outside=1)
    plain = resize_model(x.shape, op_version=13, sizes=[1, 1, 11, 4], mode="cubic", cubic_coeff_a=-0.5)
    np.testing.assert_allclose(run_onnx(model, x), run_ort(plain, x), atol=2e-6)
    assert np.abs(run_onnx(model, x) - run_ort(model, x)).max() > 1e-3  # onnxruntime renormalises
    x = image("aspect", (1, 2, 10, 10))
    for policy in ("not_larger", "not_smaller"):
        model = resize_model(x.shape, op_version=18, sizes=[7, 14], mode="linear", axes=[2, 3],
                             keep_aspect_ratio_policy=policy)
        assert run_onnx(model, x).shape == (1, 2, 7, 14) != run_ort(model, x).shape


def test_antialias_reaches_the_node_but_not_the_cpu_kernels():
    """openvino-cpu-antialias-ignored, openvino-interpolate-antialias-ignored (the other side of
    openvino-onnx-antialias-not-read's bound: this release writes antialias=True)."""
    x = image("aa", (1, 2, 20, 24))
    for mode in ("linear", "cubic"):
        model = resize_model(x.shape, op_version=18, sizes=[1, 2, 7, 9], mode=mode, antialias=1)
        plain = resize_model(x.shape, op_version=18, sizes=[1, 2, 7, 9], mode=mode)
        [(_, attributes)] = interpolate_attributes(model)
        assert attributes["antialias"] is True
        np.testing.assert_allclose(run_onnx(model, x), run_onnx(plain, x), atol=1.2e-6)
        assert np.abs(run_onnx(model, x) - run_ort(model, x)).max() > 1e-2  # onnxruntime filters
    for mode in ("linear_onnx", "cubic"):
        np.testing.assert_array_equal(interpolate(x, mode, sizes=(7, 9), antialias=True),
                                      interpolate(x, mode, sizes=(7, 9)))
    nearest = resize_model(x.shape, op_version=18, sizes=[1, 2, 7, 9], mode="nearest", antialias=1)
    np.testing.assert_array_equal(run_onnx(nearest, x), run_onnx(resize_model(x.shape, op_version=18,
                                                                             sizes=[1, 2, 7, 9], mode="nearest"), x))
    with pytest.raises(Exception, match="anti-aliasing"):
        run_ort(nearest, x)


def test_pillow_modes_read_neither_the_transform_nor_cube_coeff_nor_antialias():
    x = image("pillow", (1, 1, 13, 17))
    for mode in ("bilinear_pillow", "bicubic_pillow"):
        base = interpolate(x, mode, sizes=(5, 29))
        for attributes in ({"coordinate_transformation_mode": "asymmetric"}, {"cube_coeff": -0.75},
                           {"antialias": False}, {"antialias": True}):
            np.testing.assert_array_equal(interpolate(x, mode, sizes=(5, 29), **attributes), base)
        scaled = interpolate(x, mode, scales=(np.float32(5 / 13 * 1.01), np.float32(29 / 17 * 1.01)))
        np.testing.assert_array_equal(scaled, base)  # the scale comes from the sizes


def test_negative_axes_and_upsample_texts():
    kb = knowledge.load()
    text = _error(resize_model((1, 2, 10, 10), op_version=18, sizes=[8, 12], mode="linear", axes=[-2, -1]))
    assert kb.record("openvino-onnx-negative-axes").error_text.replace("{rank}", "4") in text
    text = _error(resize_model((1, 1, 4, 5), op_type="Upsample", scales=[1, 1, 1.5, 1.7], mode="bilinear"))
    assert kb.record("openvino-onnx-upsample7-bilinear").error_text in text
    x = image("upsample", (1, 1, 4, 5))
    upsample = resize_model(x.shape, op_type="Upsample", scales=[1, 1, 1.5, 1.7], mode="nearest")
    assert np.abs(run_onnx(upsample, x) - run_ort(upsample, x)).max() > 0.1
    np.testing.assert_array_equal(run_onnx(upsample, x), library_resize(x, library="openvino", mode="nearest",
                                                                        scale_factor=(1.5, 1.7), axes=(2, 3)))


def test_float64_is_accepted_and_computed_in_float32():
    x = image("f64", (1, 1, 7, 9)).astype(np.float64)
    for mode in ("nearest", "linear", "cubic"):
        model = resize_model(x.shape, op_version=13, sizes=[1, 1, 5, 13], mode=mode)
        model.graph.input[0].type.tensor_type.elem_type = 11  # DOUBLE
        y = run_onnx(model, x)
        assert y.dtype == np.float64
        np.testing.assert_array_equal(y, interpolate(x.astype(np.float32), "nearest" if mode == "nearest" else
                                                     {"linear": "linear_onnx"}.get(mode, mode), sizes=(5, 13)))


def test_six_dimensional_linear_aborts_the_process():
    script = textwrap.dedent("""
        import numpy as np
        from onnx_models import resize_model
        from openvino_models import run_onnx
        model = resize_model((1, 1, 2, 3, 4, 5), op_version=13, scales=[1, 1, 2, 2, 2, 2], mode="linear")
        print(run_onnx(model, np.zeros((1, 1, 2, 3, 4, 5), np.float32)).shape)
    """)
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    record = knowledge.load().record("openvino-cpu-6d-linear-abort")
    assert run.returncode != 0 and record.error_text in run.stderr + run.stdout, (run.returncode, run.stderr[-500:])


def test_the_default_precision_hint_rounds_through_bfloat16():
    """Note [bf16 hint]: bf16 on CPUs with AVX512_BF16 or AMX (then bf16(resize(bf16(x)))), f32 elsewhere."""
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes comes with tensorflow and jax")
    flags = []
    if sys.platform.startswith("linux"):
        with open("/proc/cpuinfo") as cpuinfo:
            flags = cpuinfo.read().split()
    bf16_cpu = "avx512_bf16" in flags or "amx_bf16" in flags
    hint = default_precision()
    assert hint == ("bf16" if bf16_cpu else "f32"), (hint, bf16_cpu)
    x = image("bf16", (1, 2, 37, 53))
    bf16 = lambda a: a.astype(ml_dtypes.bfloat16).astype(np.float32)  # noqa: E731
    for mode in ("nearest", "linear_onnx", "cubic"):
        default = interpolate(x, mode, sizes=(61, 20), hint=None)
        if bf16_cpu:
            np.testing.assert_array_equal(default, bf16(interpolate(bf16(x), mode, sizes=(61, 20))))
            assert np.abs(default - interpolate(x, mode, sizes=(61, 20))).max() > 1e-3
        else:
            np.testing.assert_array_equal(default, interpolate(x, mode, sizes=(61, 20)))


# --- the library everywhere the package lists libraries ----------------------------------------------------------
def test_openvino_is_a_preset_an_equivalent_a_scan_equivalent_and_a_libraries_tab_call():
    from explorer.conventions import equivalent, preset

    assert equivalent(preset("openvino", "bilinear_pillow"), preset("pillow", "BILINEAR"), 13, 5)
    assert equivalent(preset("openvino", "linear_onnx"), preset("onnx", "linear"), 13, 5)
    assert equivalent(preset("openvino", "nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
                      preset("torch", "nearest"), 13, 5)
    model = resize_model((1, 1, 7, 5), op_version=13, sizes=[1, 1, 3, 9], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    [scanned] = explorer.scan(model)
    assert "openvino" in {e["library"] for e in scanned.equivalents}
    [on_openvino] = explorer.scan(model, backend="openvino-onnx", training=False)
    assert on_openvino.findings is not None
    pytest.importorskip("ipywidgets")
    from explorer.ui.app import App

    app = App(worker=False)
    assert "openvino" in app.controls["libraries"].widget.options
    app.set(tab="libraries", libraries=("torch", "openvino"), mode="bilinear", size=(12, 10))
    assert "ops.interpolate(x, np.array([12, 10], np.int64)" in app.tabs["libraries"].calls.value

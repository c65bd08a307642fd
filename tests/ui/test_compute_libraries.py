"""Libraries, compute side: each library as it really is (its own defaults, or the same options for all),
with fallbacks and notes where a library lacks a mode or an option, and the code in each library's own API.

The code shown for each library is run by the library itself and must give the output shown.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from explorer.conventions.image_resize import MODES
from explorer.conventions.library_resize import library_resize
from explorer.conventions.native_call import native_call
from explorer.conventions.registry import library as library_rules
from explorer.ui.compute.libraries import compute_libraries

LIBRARIES = ("torch", "tensorflow", "jax", "onnx", "opencv", "pillow", "burn")
RNG = np.random.default_rng(11)
IMAGE = RNG.random((31, 37, 3)).astype(np.float32)
SIZES = [(15, 23), (47, 61), (10, 12)]  # odd ratios down, up; and 31 -> 10 (a third, not an integer)
TOGGLES = [(False, False), (True, False), (False, True), (True, True)]
CONFIGS = [(same, ac, aa) for same in (False, True) for ac, aa in TOGGLES]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("same, align_corners, antialias", CONFIGS)
def test_every_library_shows_an_output_and_says_what_it_changed(mode, same, align_corners, antialias):
    """Never a blank panel: every library runs every mode, with or without the toggles."""
    data = compute_libraries(IMAGE, mode, LIBRARIES, size=(15, 23), align_corners=align_corners,
                             antialias=antialias, same_options=same)
    for lib in LIBRARIES:
        assert isinstance(data.outputs[lib], np.ndarray), (lib, data.outputs[lib])
        assert data.outputs[lib].shape == (15, 23, 3)
        assert lib in data.metrics and lib in data.code and isinstance(data.notes[lib], list)
        native, _ = data.calls[lib]
        assert native.lower() in data.code[lib].lower()
        closest = library_rules(lib).closest.get(mode)
        if closest is not None:
            assert closest.note in data.notes[lib]
    assert data.reference == "torch" and data.metrics["torch"]["psnr"] == np.inf


def test_each_library_at_its_own_defaults_shows_the_porting_trap():
    """JAX linear antialiases by default: at 0.5x it is not PyTorch's bilinear; with the same options it is."""
    own = compute_libraries(IMAGE, "bilinear", ["torch", "jax", "tensorflow"], scale=0.5)
    assert own.calls["jax"] == ("linear", {"antialias": True})
    assert own.metrics["jax"]["max_abs"] > 0.05
    assert any("antialias" in n for n in own.notes["jax"])
    assert own.metrics["tensorflow"]["max_abs"] < 1e-5  # TensorFlow's default is PyTorch's
    same = compute_libraries(IMAGE, "bilinear", ["torch", "jax"], scale=0.5, same_options=True)
    assert same.calls["jax"] == ("linear", {"antialias": False})
    assert same.metrics["jax"]["max_abs"] < 1e-5
    # the outputs are the library presets run with the options shown
    expected = library_resize(np.moveaxis(IMAGE, 2, 0), (15, 18), library="jax", mode="linear", axes=(1, 2))
    np.testing.assert_allclose(own.outputs["jax"], np.moveaxis(expected, 0, 2), rtol=0, atol=1e-6)


def test_burn_aligns_corners_by_default():
    own = compute_libraries(IMAGE, "bicubic", ["torch", "burn"], size=(15, 23))
    assert own.calls["burn"] == ("Bicubic", {"align_corners": True})
    assert "with_align_corners(true)" in own.code["burn"]
    assert any("align_corners=False is not applied" in n for n in own.notes["burn"])
    assert any("align-corners" in n for n in own.notes["burn"])  # how it differs from PyTorch's bicubic
    same = compute_libraries(IMAGE, "bicubic", ["torch", "burn"], size=(15, 23), same_options=True)
    assert same.calls["burn"] == ("Bicubic", {"align_corners": False})
    assert same.metrics["burn"]["max_abs"] < 1e-5


def test_tensorflow_takes_align_corners_through_version_1():
    data = compute_libraries(IMAGE, "bilinear", ["torch", "tensorflow"], size=(15, 23), align_corners=True,
                             antialias=True, same_options=True)
    assert data.calls["tensorflow"] == ("bilinear", {"version": 1, "align_corners": True})
    notes = " ".join(data.notes["tensorflow"])
    assert "tf.compat.v1.image.resize" in notes and "antialias=True left out" in notes
    assert "tf.compat.v1.image.resize(" in data.code["tensorflow"]


def test_opencv_shows_lanczos4_for_lanczos_and_the_difference_row_stays():
    data = compute_libraries(IMAGE, "lanczos", ["torch", "opencv"], scale=0.5)
    assert data.calls["opencv"] == ("INTER_LANCZOS4", {})
    assert data.notes["opencv"][0].startswith("OpenCV has no Lanczos-3")
    assert np.isfinite(data.metrics["opencv"]["max_abs"]) and data.metrics["opencv"]["max_abs"] > 0.01


def test_the_difference_from_pytorch_is_named_only_where_the_weights_differ():
    data = compute_libraries(IMAGE, "bicubic", LIBRARIES, size=(15, 23))
    for lib in LIBRARIES[1:]:
        differs = [n for n in data.notes[lib] if "PyTorch 'bicubic'" in n]
        assert bool(differs) == (data.metrics[lib]["max_abs"] > 1e-5), (lib, data.notes[lib])
    assert not [n for n in data.notes["opencv"] if "PyTorch" in n]  # INTER_CUBIC is PyTorch's bicubic


def test_libraries_without_a_gradient_say_so():
    data = compute_libraries(IMAGE, "area", ["torch", "tensorflow", "onnx", "burn"], size=(15, 23))
    assert isinstance(data.grads["torch"], np.ndarray)
    assert isinstance(data.grads["tensorflow"], NotImplementedError)  # ResizeArea has no gradient
    assert isinstance(data.grads["onnx"], NotImplementedError)
    np.testing.assert_allclose(data.grads["burn"], data.grads["torch"])  # adaptive_avg_pool2d: PyTorch's bins
    assert compute_libraries(IMAGE, "area", ["torch"], size=(15, 23), training=False).grads["torch"] is None


def test_native_call_rejects_unknown_names():
    with pytest.raises(ValueError, match="mode='bilinaer' is not valid"):
        native_call("jax", "bilinaer")
    with pytest.raises(ValueError, match="library='pytorh' is not valid"):
        native_call("pytorh", "bilinear")


def test_burn_nearest_exact_on_its_default_backend_panics_so_cubecl_is_shown():
    with pytest.raises(ValueError, match="no NearestExact forward"):
        library_resize(IMAGE, (15, 23), library="burn", mode="NearestExact", axes=(0, 1))
    call = native_call("burn", "nearest-exact")
    assert call.options == {"backend": "cubecl"} and "panics" in call.notes[0]


# ------------------------------------------------------------------------------ the code, run by each library
def _torch(code, size):
    torch = pytest.importorskip("torch")
    env = {"F": torch.nn.functional, "x": torch.from_numpy(np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None])}
    exec(code, env)  # noqa: S102 - the snippet under test, run by its library
    return env["y"][0].numpy().transpose(1, 2, 0)


def _tensorflow(code, size):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = pytest.importorskip("tensorflow")
    env = {"tf": tf, "x_nhwc": tf.constant(IMAGE[None])}
    exec(code, env)  # noqa: S102 - the snippet under test, run by its library
    return env["y"].numpy()[0]


def _jax(code, size):
    jax = pytest.importorskip("jax")
    env = {"jax": jax, "x_nhwc": IMAGE[None], "n": 1, "c": IMAGE.shape[2]}
    exec(code, env)  # noqa: S102 - the snippet under test, run by its library
    return np.asarray(env["y"])[0]


def _onnx(code, size):
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper

    env = {"helper": helper}
    exec(code, env)  # noqa: S102 - the snippet under test, run by its library
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, IMAGE.shape[2], *size])
    x = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None]
    graph = helper.make_graph([env["node"]], "resize", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, x.shape[1], *size])],
                              [sizes])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    onnx.checker.check_model(model)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0][0].transpose(1, 2, 0)


def _opencv(code, size):
    cv2 = pytest.importorskip("cv2")
    env = {"cv2": cv2, "img": IMAGE}
    exec(code, env)  # noqa: S102 - the snippet under test, run by its library
    return env["y"]


def _pillow(code, size):
    image_module = pytest.importorskip("PIL.Image")
    planes = []
    for c in range(IMAGE.shape[2]):  # Pillow resizes float images one channel at a time (mode "F")
        env = {"Image": image_module, "img": image_module.fromarray(IMAGE[:, :, c], mode="F")}
        exec(code, env)  # noqa: S102 - the snippet under test, run by its library
        planes.append(np.asarray(env["y"]))
    return np.stack(planes, axis=-1)


RUNNERS = {"torch": _torch, "tensorflow": _tensorflow, "jax": _jax, "onnx": _onnx, "opencv": _opencv,
           "pillow": _pillow}


@pytest.mark.oracle
@pytest.mark.parametrize("lib", list(RUNNERS))
def test_the_code_shown_gives_the_output_shown(lib):
    """Run each library's code, as shown, with the library itself, for every mode and configuration."""
    run = RUNNERS[lib]
    checked = set()
    for mode in MODES:
        if lib == "onnx" and mode == "area":
            continue  # exported from PyTorch, not a Resize node: see the next test
        for same, ac, aa in CONFIGS:
            for size in SIZES:
                data = compute_libraries(IMAGE, mode, [lib], size=size, align_corners=ac, antialias=aa,
                                         same_options=same, training=False)
                if (data.code[lib], size) in checked:
                    continue  # the same call as another configuration's
                got = run(data.code[lib], size)
                np.testing.assert_allclose(got, data.outputs[lib], rtol=0, atol=2e-5,
                                           err_msg=f"{lib} {mode} same={same} ac={ac} aa={aa} {size}\n{data.code[lib]}")
                checked.add((data.code[lib], size))


@pytest.mark.oracle
def test_onnx_area_is_what_torch_onnx_exports_for_area(tmp_path):
    """The note's claim: ONNX Runtime runs the exported area graph as PyTorch computes area."""
    torch = pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    size = (15, 23)

    class Area(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.interpolate(x, size=size, mode="area")

    x = torch.from_numpy(np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None])
    path = tmp_path / "area.onnx"
    torch.onnx.export(Area().eval(), (x,), str(path), dynamo=True)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0][0].transpose(1, 2, 0)
    data = compute_libraries(IMAGE, "area", ["onnx"], size=size, training=False)
    np.testing.assert_allclose(got, data.outputs["onnx"], rtol=0, atol=1e-6)
    assert "torch.onnx.export" in data.code["onnx"]

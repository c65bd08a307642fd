"""Live oracle: the explorer's Keras presets against Keras 3 on its TensorFlow, JAX and torch backends.

Each backend runs in its own subprocess, once for every test of this module (``KERAS_BACKEND`` is read at
``import keras``; tests/keras_oracle.py): every preset row of ``presets("keras")`` for that backend on five fixed
and one random small size of tests/preset_cases.py (JAX compiles every new shape), forward within 1e-5 and the
gradient of the backend's autodiff within 1e-5; uint8 images (float32, rounded half to even: within 1 LSB,
nearest exact); ``UpSampling2D`` nearest (``ops.repeat``) and bilinear; and what each backend rejects.
"""

from __future__ import annotations

import keras_oracle
import numpy as np
import pytest
from preset_cases import FIXED_2D, image, options_id, size_grid

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets

if not keras_oracle.available():
    pytest.skip("Keras 3 is an oracle installed by the 'oracles' extra (with TensorFlow)", allow_module_level=True)

pytestmark = pytest.mark.oracle

BACKENDS = ("tensorflow", "jax", "torch")
_BATCHES: dict = {}


def _run(backend, cases):
    """The answers of ``cases``: every test's cases of a backend run in one subprocess (Keras and its backend
    import once), the first time any of them is asked for."""
    if backend not in _BATCHES:
        everything = [case for build in _BUILDERS for case in build(backend)]
        _BATCHES[backend] = (everything, keras_oracle.run(backend, everything))
    everything, answers = _BATCHES[backend]
    return [answers[next(k for k, c in enumerate(everything) if c is case)] for case in cases]


def _rows(backend):
    return [(r.mode, r.options) for r in presets("keras") if r.options.get("backend", "tensorflow") == backend
            and r.options.get("layer", "Resizing") == "Resizing"]


def _cases(backend):
    if ("rows", backend) in _CASES:
        return _CASES[("rows", backend)]
    cases, meta = [], []
    for mode, options in _rows(backend):
        for h, w, H, W in size_grid(("keras", backend, mode, options_id(options)), 1, fixed=FIXED_2D[:5]):
            x = image((backend, mode, h, w), (1, h, w, 3))
            g = image(("g", backend, mode, H, W), (1, H, W, 3)) - np.float32(0.5)
            cases.append({"x": x, "size": (H, W), "interpolation": mode, "antialias": options.get("antialias", False),
                          "layer": "op", "g": g})
            meta.append((mode, options))
    _CASES[("rows", backend)] = (cases, meta)
    return cases, meta


_CASES: dict = {}


def _uint8_cases(backend):
    if ("u8", backend) not in _CASES:
        modes = [m for m, o in _rows(backend) if not o.get("antialias")]
        _CASES[("u8", backend)] = [
            {"x": image(("u8", mode, h, w), (1, h, w, 3), np.uint8), "size": (H, W), "interpolation": mode,
             "antialias": False, "layer": "op"}
            for mode in modes for h, w, H, W in [(7, 9, 5, 13), (12, 10, 6, 5), (5, 8, 8, 5), (16, 16, 32, 8)]]
    return _CASES[("u8", backend)]


def _upsampling_cases(backend):
    if ("up", backend) not in _CASES:
        cases = []
        for factors in [(2, 3), (3, 1), (1, 4)]:
            for interpolation in ("nearest", "bilinear", "bicubic"):
                x = image(("up", factors, interpolation), (1, 5, 7, 2))
                g = image(("gup", factors, interpolation), (1, 5 * factors[0], 7 * factors[1], 2)) - np.float32(0.5)
                cases.append({"x": x, "factors": factors, "interpolation": interpolation, "antialias": False,
                              "layer": "UpSampling2D", "g": g})
        _CASES[("up", backend)] = cases
    return _CASES[("up", backend)]


def _differs_cases(backend):
    if "differs" not in _CASES:
        _CASES["differs"] = [{"x": image("differs", (1, 9, 9, 1)), "size": (4, 4), "interpolation": "bicubic",
                              "antialias": False, "layer": "op"}]
    return _CASES["differs"]


def _rejects_cases(backend):
    if "rejects" not in _CASES:
        x = image("rej", (1, 6, 6, 1))
        _CASES["rejects"] = [{"x": x, "size": (3, 3), "interpolation": m, "antialias": False, "layer": "op"}
                             for m in ("lanczos3", "area", "gaussian")]
    return _CASES["rejects"]


def _channels_last_cases(backend):
    if "channels" not in _CASES:
        _CASES["channels"] = [{"x": np.arange(4 * c, dtype=np.float32).reshape(1, 2, 2, c), "size": (97, 107),
                               "interpolation": "nearest", "antialias": False, "layer": "op"} for c in (3, 5)]
    return _CASES["channels"]


_BUILDERS = (lambda b: _cases(b)[0], _uint8_cases, _upsampling_cases, _differs_cases, _rejects_cases,
             _channels_last_cases)


@pytest.mark.parametrize("backend_id", BACKENDS)
def test_every_row_forward_and_gradient_match_keras(backend_id):
    cases, meta = _cases(backend_id)
    assert cases
    answers = _run(backend_id, cases)
    failures = []
    for case, (mode, options), answer in zip(cases, meta, answers):
        label = f"{backend_id} {mode} {options_id(options)} {case['x'].shape[1:3]} -> {case['size']}"
        if "error" in answer:
            failures.append(f"{label}: Keras raised {answer['error']}")
            continue
        got = library_resize(case["x"], case["size"], library="keras", mode=mode, axes=(1, 2), **options)
        if got.shape != answer["y"].shape or np.abs(got - answer["y"]).max() > 1e-5:
            failures.append(f"{label}: forward {np.abs(got - answer['y']).max() if got.shape == answer['y'].shape else got.shape}")
            continue
        if "grad_error" in answer:
            with pytest.raises(NoGradientError):
                library_resize_backward(case["g"], case["x"].shape, case["size"], library="keras", mode=mode,
                                        axes=(1, 2), **options)
            continue
        gx = library_resize_backward(case["g"], case["x"].shape, case["size"], library="keras", mode=mode,
                                     axes=(1, 2), **options)
        if np.abs(gx - answer["gx"]).max() > 1e-5:
            failures.append(f"{label}: gradient {np.abs(gx - answer['gx']).max():.3g}")
    assert failures == []


@pytest.mark.parametrize("backend_id", BACKENDS)
def test_uint8_images_round_half_to_even_and_keep_their_dtype(backend_id):
    cases = _uint8_cases(backend_id)
    answers = _run(backend_id, cases)
    worst = {}
    for case, answer in zip(cases, answers):
        assert "error" not in answer, answer
        got = library_resize(case["x"], case["size"], library="keras", mode=case["interpolation"], axes=(1, 2),
                             backend=backend_id)
        assert got.dtype == answer["y"].dtype == np.uint8
        diff = int(np.abs(got.astype(int) - answer["y"].astype(int)).max())
        worst[case["interpolation"]] = max(worst.get(case["interpolation"], 0), diff)
    # float32 weights summed in another order can move a value across a .5 boundary: at most 1 LSB
    assert max(worst.values()) <= 1, worst
    assert worst["nearest"] == 0


@pytest.mark.parametrize("backend_id", BACKENDS)
def test_upsampling2d_repeats_for_nearest_and_resizes_otherwise(backend_id):
    cases = _upsampling_cases(backend_id)
    answers = _run(backend_id, cases)
    for case, answer in zip(cases, answers):
        assert "error" not in answer, answer
        options = dict(backend=backend_id, layer="UpSampling2D")
        got = library_resize(case["x"], library="keras", mode=case["interpolation"], axes=(1, 2),
                             scale_factor=case["factors"], **options)
        np.testing.assert_allclose(got, answer["y"], atol=1e-5, err_msg=str(case["factors"]))
        gx = library_resize_backward(case["g"], case["x"].shape, library="keras", mode=case["interpolation"],
                                     axes=(1, 2), scale_factor=case["factors"], **options)
        np.testing.assert_allclose(gx, answer["gx"], atol=1e-5)
    # ops.repeat is PyTorch's floor nearest: output i copies input i // f
    x = np.arange(5, dtype=np.float32).reshape(1, 5, 1, 1)
    up = library_resize(x, library="keras", mode="nearest", layer="UpSampling2D", scale_factor=(3, 1), axes=(1, 2))
    assert up[0, :, 0, 0].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]


def test_the_same_call_differs_by_backend():
    """bicubic 9 -> 4: TensorFlow's table (a = -0.5, clamped), JAX's renormalised border, PyTorch's a = -0.75."""
    case = _differs_cases(None)[0]
    x = case["x"]
    outs = {b: library_resize(x, (4, 4), library="keras", mode="bicubic", axes=(1, 2), backend=b) for b in BACKENDS}
    answers = {b: _run(b, [case])[0]["y"] for b in BACKENDS}
    for b in BACKENDS:
        np.testing.assert_allclose(outs[b], answers[b], atol=1e-5)
    assert np.abs(answers["torch"] - answers["jax"]).max() > 1e-3
    assert np.abs(answers["tensorflow"] - answers["torch"]).max() > 1e-3


def test_what_each_backend_rejects():
    cases = _rejects_cases(None)
    x = cases[0]["x"]
    answers = {b: _run(b, cases) for b in BACKENDS}
    for b in BACKENDS:
        for case, answer in zip(cases, answers[b]):
            mode = case["interpolation"]
            try:
                library_resize(x, (3, 3), library="keras", mode=mode, axes=(1, 2), backend=b)
                ours = None
            except (ValueError, TypeError) as exc:
                ours = str(exc)
            if "error" in answer:
                assert ours is not None, (b, mode, answer["error"])
                if mode != "gaussian":  # a Keras interpolation: the backend's own message
                    assert answer["error"].split(": ", 1)[1].split("Received")[0] in ours, (ours, answer["error"])
            else:
                assert ours is None, (b, mode, ours)
    assert "Lanczos interpolation is not supported by the PyTorch backend" in answers["torch"][0]["error"]


def test_torch_backend_nearest_on_a_channels_last_tensor():
    """Note [keras torch channels-last]: NHWC permuted to NCHW is channels-last memory, so PyTorch's 2-D nearest
    kernel is nearest_idx for more than 3 channels: 2 -> 97 and 2 -> 107 pick other samples than the generic
    kernel's float32 arithmetic (which 3 channels get)."""
    cases = _channels_last_cases("torch")
    for case, answer in zip(cases, _run("torch", cases)):
        got = library_resize(case["x"], case["size"], library="keras", mode="nearest", axes=(1, 2), backend="torch")
        np.testing.assert_array_equal(got, answer["y"])
    five = cases[1]["x"]
    generic = library_resize(five, (97, 107), library="torch", mode="nearest-exact",
                             axes=(1, 2))  # a C-contiguous array: the generic kernel
    assert np.abs(generic - _run("torch", cases)[1]["y"]).max() > 0

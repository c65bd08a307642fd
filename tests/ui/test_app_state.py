"""The explorer's state: every key validated with a message naming the key, the value and the choices."""

import numpy as np
import pytest

pytest.importorskip("ipywidgets")

from explorer.ui.app.state import DEFAULTS, State


def test_defaults_have_every_required_key():
    s = State()
    for key in ("mode", "modes", "scale", "size", "align_corners", "antialias", "library", "backend", "version",
                "device", "training", "upstream", "image"):
        assert key in s
    assert dict(s) == DEFAULTS


@pytest.mark.parametrize("changes,match", [
    ({"scale": 0}, "scale=0 is not valid; give a positive finite number"),
    ({"scale": -1.5}, "scale=-1.5 is not valid"),
    ({"scale": float("nan")}, "scale=nan is not valid"),
    ({"scale": "big"}, "scale='big' is not valid"),
    ({"size": (0, 4)}, "size=\\(0, 4\\) is not valid; give \\(height, width\\)"),
    ({"size": (3, 4, 5)}, "size=\\(3, 4, 5\\) is not valid"),
    ({"mode": "bicubc"}, "mode='bicubc' is not valid; choose one of: .*did you mean 'bicubic'"),
    ({"modes": ()}, "modes=\\(\\) is not valid; choose at least one"),
    ({"modes": ("nearest", "cubic")}, "modes='cubic' is not valid"),
    ({"reference": 3}, "reference=3 is not valid"),
    ({"align_corners": "yes"}, "align_corners='yes' is not valid; choose one of: False, True"),
    ({"antialias": 1}, "antialias=1 is not valid"),
    ({"library": "matlab"}, "library='matlab' is not valid"),
    ({"libraries": ["torch", "matlab"]}, "libraries='matlab' is not valid"),
    ({"backend": "tpu-magic"}, "backend='tpu-magic' is not valid"),
    ({"version": "9.9.9"}, "version='9.9.9' is not valid .*for backend 'torch'"),
    ({"device": "abacus"}, "device='abacus' is not valid .*for backend 'torch'"),
    ({"training": None}, "training=None is not valid"),
    ({"upstream": "zeros"}, "upstream='zeros' is not valid"),
    ({"seed": -1}, "seed=-1 is not valid"),
    ({"crop": (0.5, 0.5, 0.4, 0.9)}, "crop=.* is not valid; need 0 <= top < bottom <= 1"),
    ({"rect": "all"}, "rect='all' is not valid"),
    ({"length": 1}, "length=1 is not valid; give an integer from 2 to 64"),
    ({"sample": -2}, "sample=-2 is not valid"),
    ({"content": "video"}, "content='video' is not valid"),
    ({"priorities": ["cheap"]}, "priorities='cheap' is not valid"),
    ({"targets": ["gpu"]}, "targets='gpu' is not valid"),
    ({"tab": "settings"}, "tab='settings' is not valid"),
    ({"image": "lena"}, "image='lena' is not valid"),
    ({"colour": "red"}, "setting='colour' is not valid for the explorer"),
    ({"scale": 0.5, "size": (4, 4)}, "give scale or size, not both"),
    ({"scale": None}, "scale=None needs a size"),
    ({"same_options": "yes"}, "same_options='yes' is not valid"),
])
def test_bad_values_raise_a_clear_error(changes, match):
    s = State()
    with pytest.raises(ValueError, match=match):
        s.validate(changes)
    assert dict(s) == DEFAULTS


def test_scale_and_size_exclude_each_other_and_clearing_the_size_returns_to_the_last_scale():
    s = State()
    s.apply(s.validate({"scale": 0.75}))
    s.apply(s.validate({"size": (20, 30)}))
    assert s["size"] == (20, 30) and s["scale"] is None
    s.apply(s.validate({"size": None}))
    assert s["size"] is None and s["scale"] == 0.75
    s.apply(s.validate({"scale": 1.25}))
    assert s["scale"] == 1.25 and s["size"] is None


@pytest.mark.parametrize("shape,scale,size,ok", [
    ((256, 256, 3), None, (4000, 4000), True),      # 183 MiB
    ((256, 256, 3), None, (30000, 30000), False),   # 10 GiB
    ((1024, 1024, 3), 4.0, None, True),             # the slider's largest scale on the largest upload
    ((256, 256, 1), 100.0, None, False),
    ((256, 256, 1), None, (8000, 8000), True),      # one channel: 244 MiB
])
def test_the_output_budget_is_checked_before_anything_is_computed(shape, scale, size, ok):
    from explorer.ui.app.state import check_budget

    if ok:
        check_budget(shape, scale, size)
    else:
        with pytest.raises(ValueError, match="is too large for the explorer: .*APP_MAX_OUTPUT_BYTES.*the largest "
                                             "square output here is"):
            check_budget(shape, scale, size)


def test_a_new_backend_resets_its_version_and_device_unless_given():
    s = State()
    s.apply(s.validate({"device": "mps"}))
    s.apply(s.validate({"backend": "burn-wgpu"}))
    assert s["device"] is None and s["version"] is None
    s.apply(s.validate({"backend": "torch", "device": "cuda", "version": "2.13.0"}))
    assert (s["backend"], s["device"], s["version"]) == ("torch", "cuda", "2.13")  # the era of 2.13.0


def test_any_checked_release_is_kept_as_its_era_and_others_are_refused():
    s = State()
    assert s.validate({"version": "2.5.1"})["version"] == "2.5"
    assert s.validate({"version": "2.11.0"})["version"] == "2.10"  # no torch record changes at 2.11
    with pytest.raises(ValueError, match="version='1.13.1'"):
        s.validate({"version": "1.13.1"})
    with pytest.raises(ValueError, match="version='banana'"):
        s.validate({"version": "banana"})
    assert s.validate({"backend": "onnxruntime", "opset": 12})["opset"] == 11  # Resize-11 holds at 12
    with pytest.raises(ValueError, match="opset"):
        s.validate({"backend": "pillow", "opset": 18})


def test_images_are_names_arrays_or_files(tmp_path):
    from PIL import Image

    path = tmp_path / "grey.png"
    Image.fromarray(np.full((6, 7), 128, np.uint8)).save(path)
    s = State()
    for source in (str(path), path, path.read_bytes()):
        assert s.validate({"image": source})["image"].shape == (6, 7, 1)
    assert s.validate({"image": "zone_plate"}) == {"image": "zone_plate"}
    arr = s.validate({"image": np.zeros((5, 6), np.uint8)})["image"]
    assert arr.shape == (5, 6, 1) and arr.dtype == np.float32
    with pytest.raises(ValueError, match="not an image"):
        s.validate({"image": b"nope"})

"""The explorer served to a class takes links, configurations and uploads from strangers: a link names only
built-in images and settings, a huge value is refused with a message, and no uploaded file breaks a handler."""

from __future__ import annotations

import importlib
import io
import json

import numpy as np
import pytest
from PIL import Image

from explorer.errors import ArgumentValueError
from explorer.images import ImageError, read_image
from explorer.ui.app import App
from explorer.ui.app.links import config_settings, query_settings

app_module = importlib.import_module("explorer.ui.app.app")


def png(path, shape=(16, 16)):
    Image.fromarray(np.zeros(shape, np.uint8)).save(path, format="PNG")
    return path


# ------------------------------------------------------------------------------------------------ links
def test_a_link_cannot_load_a_file_of_the_server_nor_tell_whether_it_exists(tmp_path, monkeypatch):
    private = png(tmp_path / "scan.png")
    opened = []
    real = app_module.read_image
    monkeypatch.setattr(app_module, "read_image", lambda source: opened.append(source) or real(source))
    messages = []
    for path in (private, tmp_path / "absent.png", tmp_path):
        app = App(query=f"image={path}&mode=bicubic", worker=False)
        assert app.state["image"] == "photo" and app.state["mode"] == "bicubic"  # the rest of the link is used
        assert "a link names only built-in images" in app.message_text
        messages.append(app.message_text.replace(str(path), "PATH"))
    assert opened == []
    assert len(set(messages)) == 1, messages  # the same words whether the file exists, is missing or a folder


def test_a_link_naming_a_built_in_image_opens_it():
    app = App(query="image=checkerboard", worker=False)
    assert app.state["image"] == "checkerboard" and app.message_text == ""


def test_a_configuration_names_only_built_in_images_too(tmp_path):
    private = png(tmp_path / "scan.png")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"image": str(private), "mode": "area"}))
    settings, notes = config_settings(config)
    assert "image" not in settings and settings["mode"] == "area"
    assert "only built-in images" in notes[0]
    app = App(config=str(config), worker=False)
    assert app.state["image"] == "photo" and app.state["mode"] == "area"


@pytest.mark.parametrize("config", ["/dev/zero", "[" * 100_000, "{" + '"a": [' * 100 + "]" * 100 + "}"])
def test_a_configuration_that_is_not_one_is_refused_with_a_message(config):
    with pytest.raises(ValueError):
        config_settings(config)


def test_a_query_longer_than_any_link_is_refused_whole():
    scenario, settings, problems = query_settings("mode=area&" + "x" * 100_000)
    assert (scenario, settings) == (None, {}) and "APP_MAX_QUERY_CHARS" in problems[0]
    assert len(problems[0]) < 300


def test_values_are_echoed_shortened():
    _, _, problems = query_settings("seed=" + "9x" * 500_000)
    assert len(problems[0]) < 400 and "characters" in problems[0]


# ------------------------------------------------------------------------------------------------ huge values
def test_a_huge_scale_from_a_link_the_scale_box_or_set_is_refused_with_a_message():
    app = App(query="scale=1e300", worker=False)  # the page opens
    assert "too large for the explorer" in app.message_text and app.state["scale"] != 1e300
    with pytest.raises(ArgumentValueError, match="too large"):
        app.set(scale=1e300)
    app.controls["scale_text"].widget.value = "1e300"  # typed in the box: shown, not raised
    assert "too large for the explorer" in app.message_text
    with pytest.raises(ArgumentValueError, match="too large"):
        app.set(scale=1.7976931348623157e308)


def test_an_opset_past_any_onnx_opset_is_refused_not_taken_as_the_newest():
    app = App(worker=False)
    with pytest.raises(ValueError, match="opset"):
        app.set(backend="onnxruntime", opset=10**100)
    app.set(backend="onnxruntime", opset=30)  # a later opset than the knowledge base knows: its newest answer
    assert app.state["opset"] <= 30


# ------------------------------------------------------------------------------------------------ uploads
def test_an_image_whose_decoder_breaks_is_refused_as_an_image_error(monkeypatch):
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8)).save(buffer, format="PNG")

    def broken(self):
        raise IndexError("list index out of range")

    monkeypatch.setattr(Image.Image, "load", broken)
    with pytest.raises(ImageError, match="IndexError"):
        read_image(buffer.getvalue())


def test_an_upload_whose_handling_breaks_shows_a_message_and_the_app_goes_on(monkeypatch):
    app = App(worker=False)
    monkeypatch.setattr(app_module, "read_image", lambda source: (_ for _ in ()).throw(RecursionError("deep")))
    app._on_upload({"new": ({"name": "x.png", "content": b"\x89PNG"},)})
    assert "x.png" in app.message_text and "RecursionError" in app.message_text
    assert app.state["image"] == "photo"


def test_a_thin_image_is_refused_from_its_header_before_any_pixel_is_decoded(monkeypatch):
    buffer = io.BytesIO()
    Image.new("L", (3_000_000, 1)).save(buffer, format="PNG")
    decoded = []
    real = Image.Image.load
    monkeypatch.setattr(Image.Image, "load", lambda self: decoded.append(self.size) or real(self))
    with pytest.raises(ImageError, match="at least 2 pixels"):
        read_image(buffer.getvalue())
    assert decoded == []


def test_a_malformed_model_upload_lists_its_nodes_with_the_bad_one_named():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    from explorer.ui.app.model_panel import ModelPanel

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    scales = helper.make_tensor("s", TensorProto.FLOAT, [4], [1, 1, float("inf"), 2])
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], name="evil_node", mode="nearest")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[scales]),
                              opset_imports=[helper.make_opsetid("", 19)])
    assert isinstance(model, onnx.ModelProto)
    panel = ModelPanel(lambda: {"backend": "onnxruntime", "version": None, "device": None, "training": False})
    panel._on_upload({"new": ({"name": "m.onnx", "content": model.SerializeToString()},)})
    assert panel.error is None and len(panel.result) == 1
    assert "evil_node" in panel.table.value and "Scale value must be finite" in panel.table.value

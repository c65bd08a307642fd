"""The widgets drive the same state as ``app.set``; CSS classes, uploads, exports, ipympl and PNG displays."""

import base64
import datetime
import io
import json

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.ui.app import App, explore  # noqa: E402
from explorer.ui.app.controls import CSS_CLASSES, css_class  # noqa: E402

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
IMAGE = np.random.default_rng(5).random((32, 36, 3)).astype(np.float32)


@pytest.fixture(scope="module")
def app():
    return App(IMAGE, display="image")


def classes(widget):
    return set(widget.get_state()["_dom_classes"])


def forward(mode, **kw):
    x = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None]
    return np.moveaxis(explorer.interpolate(x, mode=mode, **kw)[0], 0, 2)


def test_css_classes_for_browser_tests(app):
    assert "explorer-root" in classes(app.widget)
    assert "explorer-tabs" in classes(app.tab_widget)
    assert "explorer-message" in classes(app.message)
    assert "explorer-readout" in classes(app.readout)
    assert any("explorer-controls" in classes(c) for c in app.widget.children)
    for name, control in app.controls.items():
        assert css_class(name) in classes(control.widget)
    for name, tab in app.tabs.items():
        assert {"explorer-figure", f"explorer-figure-{name}"} <= classes(tab.host.widget)
        assert f"explorer-tab-{name}" in classes(app.tab_widget.children[list(app.tabs).index(name)])
    documented = " ".join(CSS_CLASSES.values()) + App.__doc__
    for name in app.controls:
        assert css_class(name) in documented


def test_widgets_set_the_state_and_redraw(app):
    app.set(tab="modes", modes=("bilinear",), scale=0.5)
    before = bytes(app.tabs["modes"].host.widget.value)
    app.controls["scale"].widget.value = 0.75
    assert app.state["scale"] == 0.75
    np.testing.assert_array_equal(app.tabs["modes"].view.images["output:bilinear"].get_array(),
                                  np.clip(forward("bilinear", scale_factor=0.75), 0, 1))
    assert bytes(app.tabs["modes"].host.widget.value) != before
    app.controls["modes"].widget.value = ("nearest", "area")
    assert app.state["modes"] == ("nearest", "area")
    app.controls["antialias"].widget.value = True
    assert app.state["antialias"] is True
    app.controls["mode"].widget.value = "bicubic"
    assert app.state["mode"] == "bicubic" and "bicubic" in app.readout.value


def test_typed_sizes_and_bad_text(app):
    app.set(scale=0.5)
    app.controls["size"].widget.value = "20x24"
    assert app.state["size"] == (20, 24) and app.state["scale"] is None
    assert app.controls["scale"].widget.disabled
    app.controls["size"].widget.value = "twenty"
    assert "size='twenty' is not valid" in app.message_text
    assert app.state["size"] == (20, 24) and app.controls["size"].widget.value == "20x24"
    app.controls["size"].widget.value = "0x4"
    assert "size=(0, 4) is not valid" in app.message_text
    app.controls["scale"].widget.value = 0.6  # back to a scale
    assert app.state["scale"] == 0.6 and app.state["size"] is None
    assert app.controls["size"].widget.value == "" and not app.controls["scale"].widget.disabled


def test_zoom_sliders_move_the_crop(app):
    app.set(crop=(0.4, 0.4, 0.6, 0.6))
    app.controls["crop_x"].widget.value = 0.9
    assert app.state["crop"] == pytest.approx((0.4, 0.8, 0.6, 1.0))
    app.controls["crop_y"].widget.value = 0.0
    assert app.state["crop"] == pytest.approx((0.0, 0.8, 0.2, 1.0))


def test_tabs_refresh_lazily_when_opened(app):
    app.set(tab="modes", upstream="ones")
    app.set(upstream="random")  # the gradients tab is hidden: not computed now
    assert app.tabs["gradients"].data is None or app.tabs["gradients"].data.upstream != "random"
    app.tab_widget.selected_index = 1
    assert app.state["tab"] == "gradients"
    assert app.tabs["gradients"].data.upstream == "random"


def test_backend_changes_update_version_and_device_choices(app):
    app.set(tab="backends")
    app.controls["backend"].widget.value = "burn-wgpu"
    labels, versions = zip(*app.controls["version"].widget.options)
    assert versions[0] == "latest" and "0.22.0-pre.2" in versions and "0.18.0" in versions
    assert "0.18.x" in labels and "0.15.0 – 0.17.x" in labels  # each choice is an era of the records' ranges
    assert [v for _, v in app.controls["device"].widget.options] == ["default", "gpu"]
    assert app.controls["opset"].widget.disabled  # Burn has no ONNX opsets
    app.controls["version"].widget.value = "0.21.0-pre.4"
    assert app.state["version"] == "0.21.0-pre.4"
    app.controls["device"].widget.value = "gpu"
    assert app.state["device"] == "gpu"
    app.controls["backend"].widget.value = "torch"
    assert app.state["version"] is None and app.controls["version"].widget.value == "latest"
    assert app.state["device"] is None and app.controls["device"].widget.value == "default"
    app.controls["backend"].widget.value = "onnxruntime"
    assert not app.controls["opset"].widget.disabled
    assert [o for _, o in app.controls["opset"].widget.options][1:] == [7, 10, 11, 13, 18, 23]
    app.controls["opset"].widget.value = 10
    app.set(mode="bilinear")
    shown = app.tabs["backends"].findings.value
    assert "onnx-resize10-asymmetric-linear" in str([f.record_id for f in app.tabs["backends"].data.findings]) \
        or "asymmetric" in shown
    assert "releases:" in shown


def png(array):
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


def test_uploading_an_image(app):
    pixels = (np.random.default_rng(2).random((30, 20, 3)) * 255).astype(np.uint8)
    upload = app.controls["upload"].widget
    upload.value = ({"name": "mine.png", "type": "image/png", "size": 10, "content": memoryview(png(pixels)),
                     "last_modified": NOW},)
    assert app.state["image"] == "custom"
    np.testing.assert_allclose(app.image, pixels / 255.0, atol=1e-6)
    assert "mine.png" in app.readout.value
    assert "custom" in app.controls["image"].widget.options
    upload.value = ({"name": "broken.png", "type": "image/png", "size": 4, "content": memoryview(b"\x89PNG"),
                     "last_modified": NOW},)
    assert app.message_text.startswith("broken.png: ")
    np.testing.assert_allclose(app.image, pixels / 255.0, atol=1e-6)  # the previous image stays
    app.set(image="zone_plate")
    assert app.message_text == ""
    app.set(image=IMAGE)


def test_large_arrays_are_reduced_with_a_message():
    big = np.random.default_rng(0).random((700, 350))
    app = App(big, display="image", scale=0.5)
    assert app.image.shape == (512, 256, 1)
    assert "reduced from 700x350 to 512x256" in app.message_text


def test_exports(app, tmp_path):
    app.set(tab="modes", modes=("bilinear",), scale=0.5)
    data = app.figure_png()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    app._export_png()
    link = app.export_area.value
    assert "download=" in link and base64.b64decode(link.split("base64,")[1].split("'")[0])[:4] == b"\x89PNG"
    app.save_png(tmp_path / "f.png")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    config = json.loads(app.config_json())
    assert config["scale"] == 0.5 and config["modes"] == ["bilinear"] and config["image"]["shape"] == [32, 36, 3]
    assert config["call"].startswith("F.interpolate(x, scale_factor=0.5, mode=")
    app._export_config()
    assert json.loads(app.export_text.value) == config


def test_fix_code_export():
    app = App(IMAGE, display="image", backend="torch", device="mps", mode="bicubic", antialias=True)
    code = app.fix_code()
    assert "PYTORCH_ENABLE_MPS_FALLBACK=1" in code
    app._export_code()
    assert app.export_text.value == code
    assert app.tabs["backends"].code.value == code


@pytest.mark.filterwarnings("ignore:Passing unrecognized arguments:DeprecationWarning")
def test_ipympl_display_updates_artists_in_place():
    pytest.importorskip("ipympl")
    from ipympl.backend_nbagg import Canvas

    app = App(IMAGE, display="ipympl", modes=("bilinear", "nearest"), scale=0.5)
    host = app.tabs["modes"].host
    assert isinstance(host.widget, Canvas) and host.figure.canvas is host.widget
    image_artist = app.tabs["modes"].view.images["output:bilinear"]
    app.set(scale=1.5)
    assert app.tabs["modes"].view.images["output:bilinear"] is image_artist
    np.testing.assert_array_equal(image_artist.get_array(), np.clip(forward("bilinear", scale_factor=1.5), 0, 1))
    host.render()  # what ipympl runs for the next frame
    assert host.png()[:4] == b"\x89PNG"


def test_explore_returns_an_app_that_displays_itself():
    app = explore("circle", display="image")
    assert isinstance(app, App) and app.state["scale"] == 0.125  # the Clean-FID demonstration: 128 -> 16
    assert app.tabs["modes"].data.outputs["bilinear"].shape == (16, 16, 1)
    bundle = app._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert explorer.explore is explore and explorer.App is App

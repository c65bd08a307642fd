"""The widgets drive the same state as ``app.set``: CSS classes, each tab's own controls, the scale | size
choice, controls that cannot apply, uploads, the lessons menu and the one-click exports."""

import base64
import datetime
import html
import io
import json
import re

import numpy as np
import pytest

import explorer
from explorer.ui.app import DEFAULTS, App, explore
from explorer.ui.app.controls import CSS_CLASSES, css_class

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
IMAGE = np.random.default_rng(5).random((32, 36, 3)).astype(np.float32)


@pytest.fixture(scope="module")
def app():
    return App(IMAGE)


def classes(widget):
    return set(widget.get_state()["_dom_classes"])


def forward(mode, **kw):
    x = np.ascontiguousarray(np.moveaxis(IMAGE, 2, 0))[None]
    return np.moveaxis(explorer.interpolate(x, mode=mode, **kw)[0], 0, 2)


def descendants(widget):
    out = [widget]
    for child in getattr(widget, "children", ()):
        out += descendants(child)
    return out


def test_css_classes_for_browser_tests(app):
    assert "explorer-root" in classes(app.widget)
    assert "explorer-tabs" in classes(app.tab_widget)
    assert "explorer-message" in classes(app.message)
    assert "explorer-readout" in classes(app.readout)
    assert any("explorer-controls" in classes(c) for c in app.widget.children)
    for name, control in app.controls.items():
        assert css_class(name) in classes(control.widget)
    for i, (name, tab) in enumerate(app.tabs.items()):
        assert {"explorer-figure", f"explorer-figure-{name}"} <= classes(tab.figure)
        assert f"explorer-tab-{name}" in classes(app.tab_widget.children[i])
    documented = " ".join(CSS_CLASSES.values())
    for name in app.controls:
        assert css_class(name) in documented


def test_each_tab_shows_its_own_controls_and_the_shared_ones_sit_on_top(app):
    shared = [w for w in descendants(app.widget.children[1])]
    for key in ("image", "upload", "resize_by", "scale", "scale_text", "size", "align_corners", "antialias"):
        assert app.controls[key].view in shared
    owners = {}
    for i, (name, tab) in enumerate(app.tabs.items()):
        inside = descendants(app.tab_widget.children[i])
        for key, control in app.controls.items():
            if control.widget in inside:
                owners.setdefault(key, set()).add(name)
        assert set(tab.controls) == {k for k, tabs in owners.items() if name in tabs}
    assert "mode" not in owners or "modes" not in owners["mode"]  # Modes draws `compare`, so `mode` is not there
    assert owners["reference"] == {"modes"} and owners["upstream"] == {"gradients"}
    assert owners["backend"] == {"backends"} and owners["content"] == {"pick"}


def test_widgets_set_the_state_and_redraw(app):
    app.set(tab="modes", modes=("bilinear",), scale=0.5)
    before = app.tabs["modes"].markup
    app.controls["scale"].widget.value = 0.75
    assert app.state["scale"] == 0.75
    np.testing.assert_array_equal(app.tabs["modes"].shown.panels["output:bilinear"].values,
                                  forward("bilinear", scale_factor=0.75))
    assert app.tabs["modes"].markup != before
    app.controls["modes"].widget.value = ("nearest", "area")
    assert app.state["modes"] == ("nearest", "area")
    app.controls["antialias"].widget.value = True
    assert app.state["antialias"] is True
    app.controls["mode"].widget.value = "bicubic"
    assert app.state["mode"] == "bicubic"


def test_a_log_slider_rounding_the_scale_is_not_a_change(app):
    app.set(scale=0.4)
    app.controls["scale"].widget.value = 10 ** (round(np.log10(0.4) / 0.002) * 0.002)  # what the page sends back
    assert app.state["scale"] == 0.4
    app.controls["scale"].widget.value = 0.45
    assert app.state["scale"] == 0.45


def test_scale_or_size_is_an_explicit_choice_and_clearing_the_size_returns_to_the_scale(app):
    app.set(scale=0.5)
    by, size, scale = (app.controls[k].widget for k in ("resize_by", "size", "scale"))
    size.value = "20x24"
    assert app.state["size"] == (20, 24) and app.state["scale"] is None and by.value == "size"
    size.value = "18×16"
    assert app.state["size"] == (18, 16)
    size.value = "twenty"
    assert "size='twenty' is not valid" in app.message_text
    assert app.state["size"] == (18, 16) and size.value == "18×16"
    size.value = ""  # cleared: back to the scale
    assert app.state["size"] is None and app.state["scale"] == 0.5 and by.value == "scale"
    assert app.message_text == ""
    by.value = "size"  # the toggle: the current output size, typed for you
    assert app.state["size"] == (16, 18) and size.value == "16×18"
    by.value = "scale"
    assert app.state["scale"] == 0.5 and size.value == ""
    size.value = "12"  # one number: a square
    assert app.state["size"] == (12, 12)
    scale.value = 0.6  # the slider returns to a scale at any time
    assert app.state["scale"] == 0.6 and app.state["size"] is None and by.value == "scale"
    app.controls["scale_text"].widget.value = 0.75  # and an exact one can be typed
    assert app.state["scale"] == 0.75 and app.controls["scale"].widget.value == 0.75


def test_a_size_too_large_is_refused_with_a_message_and_the_app_keeps_working(app):
    app.set(tab="modes", scale=0.5)
    app.controls["size"].widget.value = "30000x30000"
    assert "size=(30000, 30000) is too large for the explorer" in app.message_text
    assert app.state["scale"] == 0.5 and app.controls["size"].widget.value == ""
    app.controls["scale"].widget.value = 0.7
    assert app.message_text == "" and app.state["scale"] == 0.7


def test_controls_that_cannot_apply_are_disabled_with_the_reason(app):
    app.set(tab="modes", modes=("nearest", "area"), reference="nearest", library="torch")
    ac = app.controls["align_corners"].widget
    assert ac.disabled and "align_corners does not apply to nearest or area" in ac.tooltip
    assert "<b>align_corners</b>: align_corners does not apply to nearest or area" in app.greyed.value
    app.set(modes=("nearest", "bilinear"))
    assert not ac.disabled and ac.tooltip == "" and app.greyed.value == ""  # "", never None (shown as "null")
    app.set(tab="pick")
    assert app.controls["antialias"].widget.disabled
    assert "with and without antialias" in app.controls["antialias"].widget.tooltip
    assert "antialias" in app.greyed.value and "align_corners" not in app.greyed.value
    app.set(tab="gradients", upstream="ones")
    assert app.controls["seed"].widget.disabled and "random" in app.controls["seed"].widget.tooltip
    app.set(upstream="random")
    assert not app.controls["seed"].widget.disabled
    app.set(tab="modes")


def test_zoom_sliders_move_the_crop(app):
    app.set(crop=(0.4, 0.4, 0.6, 0.6))
    app.controls["crop_x"].widget.value = 0.9
    assert app.state["crop"] == pytest.approx((0.4, 0.8, 0.6, 1.0))
    app.controls["crop_y"].widget.value = 0.0
    assert app.state["crop"] == pytest.approx((0.0, 0.8, 0.2, 1.0))


def test_tabs_refresh_lazily_when_opened(app):
    app.set(tab="gradients", upstream="ones")
    app.set(tab="modes", upstream="rectangle")  # the gradients tab is hidden: not computed now (no worker here)
    assert app.tabs["gradients"].data.upstream == "ones"
    app.tab_widget.selected_index = 1
    assert app.state["tab"] == "gradients"
    assert app.tabs["gradients"].data.upstream == "rectangle"


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


def test_pick_shows_the_priorities_it_used(app):
    app.set(tab="pick", content="labels", priorities=None)
    w = app.controls["priorities"].widget
    assert w.value == app.tabs["pick"].data.priorities and w.value  # what the content implies, selected
    assert "for this content" in w.description
    app.controls["priorities"].widget.value = ("speed",)
    assert app.state["priorities"] == ("speed",) and app.tabs["pick"].data.priorities == ("speed",)
    app.set(priorities=None, content="photo")


def test_libraries_run_each_library_at_its_defaults_or_the_same_options(app):
    """JAX's linear antialiases by default: at 0.5x it differs from PyTorch's bilinear until the switch gives
    every library the same options; each library's call, notes and code are shown under the table."""
    app.set(tab="libraries", mode="bilinear", scale=0.5, libraries=("torch", "jax", "tensorflow"),
            antialias=False)
    tab = app.tabs["libraries"]
    assert app.controls["same_options"].widget.value is False
    assert tab.data.calls["jax"] == ("linear", {"antialias": True})
    assert tab.data.metrics["jax"]["max_abs"] > 0.05
    shown = html.unescape(tab.calls.value)
    assert "jax.image.resize(" in shown and 'method="linear", antialias=True' in shown
    assert "JAX runs at its default (antialias=True)" in shown and "F.interpolate(" in shown
    assert "jax linear" in " ".join(p.title for p in tab.shown.panels.values())  # its own mode name
    app.controls["same_options"].widget.value = True
    assert app.state["same_options"] is True and tab.data.calls["jax"] == ("linear", {"antialias": False})
    assert tab.data.metrics["jax"]["max_abs"] == 0
    app.set(same_options=False, libraries=DEFAULTS["libraries"], scale=0.5)


def test_backends_grid_says_why_a_cell_is_not_ok(app):
    app.set(tab="backends", backend="burn-tch", mode="bilinear", antialias=True)
    data = app.tabs["backends"].data
    bad = [cell for cell, status in data.status.items() if status != "ok"]
    assert bad and all(data.reasons.get(cell) for cell in bad)
    shown = html.unescape(app.tabs["backends"].figure.value)
    assert "antialias is not supported on burn-tch" in shown  # as the cell's tooltip and under the grid
    assert f"title='{data.reasons[('bilinear', 'forward')]}" in shown
    app.set(backend="torch", antialias=False)


def png(array):
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(array).save(buf, format="PNG")
    return buf.getvalue()


def test_uploading_an_image_says_what_was_done_to_it(app):
    app.set(tab="modes", scale=0.5)
    pixels = (np.random.default_rng(2).random((30, 20, 3)) * 255).astype(np.uint8)
    upload = app.controls["upload"].widget
    upload.value = ({"name": "mine.png", "type": "image/png", "size": 10, "content": memoryview(png(pixels)),
                     "last_modified": NOW},)
    assert app.state["image"] == "custom"
    np.testing.assert_allclose(app.image, pixels / 255.0, atol=1e-6)
    assert "mine.png" in app.readout.value and "reduced" not in app.readout.value
    assert "custom" in app.controls["image"].widget.options
    upload.value = ({"name": "broken.png", "type": "image/png", "size": 4, "content": memoryview(b"\x89PNG"),
                     "last_modified": NOW},)
    assert app.message_text.startswith("broken.png: ")
    np.testing.assert_allclose(app.image, pixels / 255.0, atol=1e-6)  # the previous image stays
    big = (np.random.default_rng(3).random((1500, 700)) * 255).astype(np.uint8)
    upload.value = ({"name": "big.png", "type": "image/png", "size": 10, "content": memoryview(png(big)),
                     "last_modified": NOW},)
    assert app.image.shape == (1024, round(700 * 1024 / 1500), 1)
    assert app.message_text.startswith("big.png: a PNG image, 700x1500 pixels")
    assert "reduced from 1500×700 by an area average" in app.message_text
    assert "reduced from 1500×700" in app.readout.value  # and it stays said
    app.set(image=IMAGE)


def test_an_upload_says_how_its_file_was_decoded(app):
    """16-bit values kept as /65535, the EXIF rotation applied and the alpha dropped: said, and done."""
    from PIL import Image

    values = np.array([[0, 20000, 65535], [40000, 5, 300]], np.uint16)
    im = Image.fromarray(values)
    exif = im.getexif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view upright
    buf = io.BytesIO()
    im.save(buf, format="PNG", exif=exif.tobytes())
    upload = app.controls["upload"].widget
    upload.value = ({"name": "scan.png", "type": "image/png", "size": 10, "content": memoryview(buf.getvalue()),
                     "last_modified": NOW},)
    assert app.state["image"] == "custom"
    np.testing.assert_allclose(app.image[..., 0], np.rot90(values, -1) / 65535.0, rtol=1e-6)
    assert app.message_text.startswith("scan.png: a PNG image, 3x2 pixels")
    assert "16 bits per channel (divided by 65535)" in app.message_text
    assert "EXIF orientation 6 applied" in app.message_text
    assert "divided by 65535" in app.readout.value  # and the readout keeps saying it
    rgba = np.zeros((4, 5, 4), np.uint8)
    rgba[..., 0], rgba[..., 3] = 200, 255
    upload.value = ({"name": "logo.png", "type": "image/png", "size": 10, "content": memoryview(png(rgba)),
                     "last_modified": NOW},)
    assert app.image.shape == (4, 5, 3) and "the alpha channel was dropped" in app.message_text
    app.set(image=IMAGE)


def test_uploads_up_to_1024_pixels_are_kept_whole():
    img = np.random.default_rng(0).random((1024, 900)).astype(np.float32)
    app = App(img, scale=0.25)
    assert app.image.shape == (1024, 900, 1) and app.message_text == ""


def test_one_click_exports_download_a_file(app, tmp_path):
    app.set(tab="modes", modes=("bilinear",), scale=0.5)
    app.downloads.dpi.value = 100
    app.downloads.figure()
    link = app.downloads.link.value
    assert "download='explorer-modes-100dpi.png'" in link and "onerror='this.previousElementSibling.click()" in link
    data = base64.b64decode(re.search(r"base64,([^']+)'", link).group(1))
    from explorer.ui.views.export import png_size, png_text

    assert png_size(data)[0] >= 1600 and json.loads(png_text(data)["explorer-config"])["scale"] == 0.5
    app.downloads.figure()
    assert app.downloads.link.value != link  # a second click downloads again
    app.downloads.config()
    assert json.loads(app.downloads.text.value) == app.config()
    assert "explorer-config.json" in app.downloads.link.value


def test_fix_code_export():
    app = App(IMAGE, backend="torch", device="mps", mode="bicubic", antialias=True)
    code = app.fix_code()
    assert "PYTORCH_ENABLE_MPS_FALLBACK=1" in code
    app.downloads.code()
    assert app.downloads.text.value == code
    assert app.tabs["backends"].code.value == code


def test_explore_returns_an_app_that_displays_itself():
    app = explore("circle")
    assert isinstance(app, App) and app.state["scale"] == 0.125  # the Clean-FID demonstration: 128 -> 16
    assert app.tabs["modes"].data.outputs["bilinear"].shape == (16, 16, 1)
    bundle = app._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert explorer.explore is explore and explorer.App is App


def test_a_plain_click_in_a_compare_list_adds_or_removes_one_item():
    app = App(modes=("nearest", "bilinear"))
    toggles = app.controls["modes"].widget
    button = {b.description: b for b in toggles.buttons}
    button["area"].value = True  # one click, no modifier key: added, the others kept
    assert app.state["modes"] == ("nearest", "bilinear", "area")
    button["nearest"].value = False
    assert app.state["modes"] == ("bilinear", "area")
    app.set(modes=("bicubic",))  # the state shows in the buttons
    assert [b.description for b in toggles.buttons if b.value] == ["bicubic"]


def test_no_widget_has_a_none_tooltip(app):
    """ipywidgets writes a None tooltip into the page as the title "null": every widget has a text or ''."""
    def walk(widget):
        yield widget
        for child in getattr(widget, "children", ()):
            yield from walk(child)

    for tab in app.tabs:
        app.set(tab=tab)
        none = [type(w).__name__ for w in walk(app.widget) if "tooltip" in w.keys and w.tooltip is None]
        assert none == [], (tab, none)

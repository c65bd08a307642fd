"""Opening the explorer in a state: a link's query string, an exported configuration, and one-click lessons."""

import html
import json

import numpy as np
import pytest

from explorer.ui.app import App
from explorer.ui.app.links import config_settings, query_settings, read_value
from explorer.ui.scenarios import SCENARIOS


@pytest.mark.parametrize("key,text,value", [
    ("scale", "0.25", 0.25), ("size", "64x48", (64, 48)), ("size", "64×48", (64, 48)), ("size", "32", (32, 32)),
    ("antialias", "true", True), ("align_corners", "0", False), ("modes", "nearest, area", ("nearest", "area")),
    ("seed", "7", 7), ("crop", "0,0,0.5,0.5", (0.0, 0.0, 0.5, 0.5)), ("version", "none", None),
    ("mode", "bicubic", "bicubic"), ("tab", "kernels", "kernels"), ("priorities", "", None),
])
def test_values_are_read_by_the_type_of_their_setting(key, text, value):
    assert read_value(key, text) == value


def test_a_link_opens_its_settings_and_bad_parts_are_shown_not_raised():
    app = App(query="mode=bicubic&scale=0.25&tab=kernels&antialias=true")
    assert (app.state["mode"], app.state["scale"], app.state["tab"], app.state["antialias"]) == (
        "bicubic", 0.25, "kernels", True)
    assert app.message_text == "" and app.tab_widget.selected_index == 2
    app = App(query="?scale=-2&colour=red")  # the app opens anyway, and says what it could not use
    assert "setting='colour' is not valid for the explorer" in app.message_text
    assert "scale=-2.0 is not valid" in app.message_text and app.state["scale"] == 0.4
    app = App(query="mode=bicubic&seed=x")  # the good settings of a link are kept
    assert app.state["mode"] == "bicubic" and "seed='x' is not valid" in app.message_text
    assert query_settings("")[1] == {}


def test_an_exported_configuration_opens_the_same_state(tmp_path):
    first = App(image="zone_plate", scale=0.25, modes=("nearest", "area"), antialias=True, tab="gradients",
                upstream="random", seed=3)
    text = first.config_json()
    again = App(config=text)
    assert dict(again.state) == dict(first.state)
    path = tmp_path / "explorer-config.json"
    path.write_text(text)
    assert dict(App(config=path).state) == dict(first.state)
    assert dict(App(config=json.loads(text)).state) == dict(first.state)


def test_a_configuration_made_with_an_upload_says_which_image_it_was():
    first = App(np.random.default_rng(0).random((20, 30)), scale=0.5)
    settings, notes = config_settings(first.config())
    assert "image" not in settings and "a custom image (array, 20×30×1)" in notes[0]
    again = App(config=first.config())
    assert again.state["image"] == "photo" and "pass it as explore(image=...)" in again.message_text


def test_a_lesson_sets_its_state_and_shows_its_explanation():
    app = App()
    names = [v for _, v in app.scenario_menu.options]
    assert names[0] == "" and set(names[1:]) == set(SCENARIOS) and len(names) > 6
    app.scenario("aliasing")
    lesson = SCENARIOS["aliasing"]
    assert {k: app.state[k] for k in lesson.changes} == {k: v for k, v in lesson.changes.items()}
    assert (app.state["image"], app.state["scale"], app.state["antialias"]) == ("zone_plate", 0.25, False)
    assert lesson.explanation[:40] in html.unescape(app.lesson.value) and app.scenario_menu.value == "aliasing"
    app.scenario_menu.value = "checkerboard"  # the dropdown does the same
    assert app.state["tab"] == "gradients" and app.state["scale"] == SCENARIOS["checkerboard"].changes["scale"]
    with pytest.raises(ValueError, match="scenario='nope' is not valid; choose one of: 'aliasing', "):
        app.scenario("nope")


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_lesson_opens_its_tab_without_a_problem(name):
    """Each lesson of explorer.scenarios() is a valid state: its tab draws without an error panel."""
    app = App()
    app.scenario(name)
    lesson = SCENARIOS[name]
    assert app.message_text == "", app.message_text
    assert app.state["tab"] == lesson.changes["tab"]
    tab = app.tabs[app.state["tab"]]
    assert tab.problems(tab.data) == [], tab.problems(tab.data)
    assert lesson.title in html.unescape(app.lesson.value)


def test_a_link_can_open_a_lesson_and_change_it():
    app = App(query="scenario=aliasing&antialias=true")
    assert app.state["image"] == "zone_plate" and app.state["antialias"] is True
    assert SCENARIOS["aliasing"].title in html.unescape(app.lesson.value)
    app = App(query="scenario=nope")
    assert "scenario='nope' is not valid" in app.message_text


def test_a_linked_size_survives_the_page_rounding_the_scale_slider():
    """The page echoes the scale slider's value rounded to its step when it loads; with a size from the link
    (no scale in the state) that echo must not replace the size by the slider's scale."""
    import math

    app = App(query="size=64x48")
    slider = app.controls["scale"].widget
    slider.value = 10 ** (round(math.log10(slider.value) / slider.step) * slider.step) + 1e-4
    assert app.state["size"] == (64, 48) and app.state["scale"] is None
    slider.value = 0.25  # a real move of the slider still resizes by the scale
    assert app.state["size"] is None and app.state["scale"] == 0.25


@pytest.mark.parametrize("settings", [
    dict(size=(64, 48)),
    dict(image="zone_plate", scale=0.25, antialias=True, modes=("nearest", "area"), tab="gradients",
         upstream="random", seed=3, crop=(0.0, 0.25, 0.125, 0.375)),
    dict(tab="kernels", mode="nearest-exact", length=12, align_corners=True, scale=0.37),
    dict(tab="libraries", libraries=("pillow", "torch"), same_options=True, training=False, image="circle",
         scale=0.125),
    dict(tab="backends", backend="onnxruntime", scale=0.5),
])
def test_the_link_to_a_view_opens_the_same_view(settings):
    first = App(**settings)
    query = first.link_query()
    again = App(query=query)
    assert again.message_text == "" and dict(again.state) == dict(first.state), query
    assert html.escape(query) in first.link.value and "copy link to this view" in first.link.value


def test_a_bad_link_says_what_it_ignored():
    app = App(query="size=64x48&colour=red&antialias=maybe")
    assert app.state["size"] == (64, 48)
    assert app.message_text.startswith("Opened without what the link could not use: ")
    assert "colour" in app.message_text and "antialias='maybe'" in app.message_text

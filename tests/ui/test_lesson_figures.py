"""Each lesson's figure shows the effect its text describes (read from the pixels the app draws), not only
that it renders."""

import html

import numpy as np
import pytest

from explorer.ui.app import App
from explorer.ui.scenarios import SCENARIOS
from explorer.ui.views import pixels as P


def lesson_figure(name):
    app = App()
    app.scenario(name)
    return app.tabs[app.state["tab"]].shown


def test_the_checkerboard_lesson_shows_the_checkerboard_in_the_whole_image_panel():
    fig = lesson_figure("checkerboard")
    grad = fig.panels["grad:nearest"]
    assert grad.factor == 1 and "overview" not in grad.title  # every input pixel drawn, no 2x2 average
    inner = grad.rgb[8:-8, 8:-8].astype(float)
    assert inner.std() > 20  # the 1-2-4 checkerboard, in the colours on the screen
    values = grad.values[8:-8, 8:-8]
    assert np.unique(values).size == 3 and values.max() / values.min() == 4
    even = fig.panels["grad:bilinear"].values[8:-8, 8:-8]
    assert even.max() / even.min() < 1.0001  # and the contrast the text draws: half-pixel bilinear is even


def test_the_clean_fid_lesson_draws_the_antialiased_ring_even_and_zooms_on_the_ring():
    fig = lesson_figure("clean-fid")
    for lib in ("pillow", "jax"):
        panel = fig.panels[f"output:{lib}"]
        assert not (panel.rgb == P.UNDER_RGB).all(axis=-1).any(), lib  # no marker colour over the faint ring
        grey = panel.rgb[..., 0]
        assert (panel.rgb == grey[..., None]).all()  # a grey ring on black, brighter than its background
        assert grey.max() > 25 and np.median(grey) == 0
    for lib in ("pillow", "torch", "tensorflow", "opencv"):
        zoom = fig.panels[f"crop:{lib}"]
        full = fig.panels[f"output:{lib}"].values
        assert zoom.values.max() > 0.9 * full.max(), lib  # the zoom box sits on the ring, not the empty centre
    pillow, torch = fig.panels["crop:pillow"].values[..., 0], fig.panels["crop:torch"].values[..., 0]
    ring = pillow > 0.5 * pillow.max()
    assert (torch[ring] < 0.25 * pillow.max()).mean() > 0.2  # where Pillow's ring is, torch's is often dark


def test_the_aliasing_lessons_zoom_where_the_rings_alias_and_antialias_flattens_them():
    plain, filtered = lesson_figure("aliasing"), lesson_figure("antialias")
    ideal = plain.panels["reference_crop"].values  # antialiased Lanczos: flat grey beyond the output's limit
    assert ideal.std() < 0.05
    for mode in ("nearest", "bilinear", "bicubic"):
        assert plain.panels[f"crop:{mode}"].values.std() > 0.15, mode  # false rings, inside the zoom box
    for mode in ("bilinear", "bicubic"):
        assert filtered.panels[f"crop:{mode}"].values.std() < 0.3 * plain.panels[f"crop:{mode}"].values.std()


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_lesson_is_steps_whose_change_applies(name):
    app = App()
    app.scenario(name)
    text = html.unescape(app.lesson.value)
    assert "Look at" in text and "Now change:" in text and "What happened" in text
    steps = SCENARIOS[name].steps
    app.set(**steps.now_changes)  # a valid change, on the lesson's tab
    tab = app.tabs[app.state["tab"]]
    assert app.message_text == "" and tab.problems(tab.data) == []


def test_the_change_each_lesson_asks_for_shows_the_other_side():
    app = App()
    app.scenario("checkerboard")
    app.set(**SCENARIOS["checkerboard"].steps.now_changes)
    grad = app.tabs["gradients"].shown.panels["grad:nearest"].values[8:-8, 8:-8]
    assert grad.max() / grad.min() < 1.0001  # x2: even
    app.scenario("clean-fid")
    app.set(**SCENARIOS["clean-fid"].steps.now_changes)
    data = app.tabs["libraries"].data
    assert data.metrics["torch"]["psnr"] > 40 and data.metrics["tensorflow"]["psnr"] > 40
    app.scenario("aliasing")
    app.set(**SCENARIOS["aliasing"].steps.now_changes)
    assert app.tabs["modes"].shown.panels["crop:bilinear"].values.std() < 0.05

"""Pick a mode: measured figures (explorer.advisor.quality), the ranking (explorer.pick) and its figure."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

import explorer  # noqa: E402
from explorer.conventions.image_resize import ImageResize  # noqa: E402
from explorer.images import checkerboard, test_image, zone_plate  # noqa: E402
from explorer.advisor.quality import gradient_figures, measure, overshoot, plan_figures, zone_plate_figures  # noqa: E402
from explorer.ui.views.pick import CRITERIA, PickView, pick_figure, pick_rows  # noqa: E402


def test_aliasing_is_high_without_antialias_and_low_with_it():
    plain = zone_plate_figures(ImageResize("bilinear", scale=0.25))
    aa = zone_plate_figures(ImageResize("bilinear", scale=0.25, antialias=True))
    assert plain["aliasing"] > 0.3 > 0.05 > aa["aliasing"]
    assert plain["sharpness"] > aa["sharpness"]  # antialias trades contrast for no aliasing
    assert zone_plate_figures(ImageResize("nearest", scale=1.5))["aliasing"] == 0.0  # nothing to alias up


def test_overshoot_and_gradient_figures_are_measured():
    img = checkerboard(32, 8)
    y = ImageResize("bicubic", scale=1.7).forward(img)
    assert overshoot(img, y) == pytest.approx(max(y.max() - 1, -y.min()))
    assert overshoot(img, ImageResize("bilinear", scale=1.7).forward(img)) == 0.0
    g = gradient_figures(ImageResize("nearest", scale=0.25), (32, 32))
    assert g["coverage"] == pytest.approx(1 / 16)
    p = plan_figures(ImageResize("nearest", scale=0.25), (32, 32))
    assert p["keeps_values"] and p["taps"] == 1.0 and p["misalignment"] == pytest.approx(0.375)
    p = plan_figures(ImageResize("nearest-exact", scale=0.25), (32, 32))
    assert p["misalignment"] == pytest.approx(0.125)
    assert not plan_figures(ImageResize("bilinear", scale=0.25), (32, 32))["keeps_values"]


def test_photos_downsampled_pick_an_antialiased_mode():
    p = explorer.pick(test_image("photo"), scale=0.3)
    assert p.winner.antialias or p.winner.mode in ("area", "lanczos")
    assert p.winner.label in p.why and "wins" in p.why
    assert "F.interpolate(x, scale_factor=0.3" in p.code["torch"]


def test_label_masks_only_take_modes_that_copy_values():
    p = explorer.pick(zone_plate(64), scale=0.37, content="labels")
    assert p.winner.mode == "nearest-exact"
    assert all(c.excluded for c in p.ranking if c.mode not in ("nearest", "nearest-exact"))


def test_backends_that_cannot_train_a_mode_exclude_it():
    p = explorer.pick(zone_plate(64), scale=0.5, targets=("burn-wgpu",), training=True)
    assert p.winner.mode in ("nearest", "nearest-exact")
    excluded = {c.label for c in p.ranking if c.excluded}
    assert "bilinear" in excluded and "bilinear, antialias" in excluded
    free = explorer.pick(zone_plate(64), scale=0.5, targets=("burn-wgpu",), training=False)
    assert "bilinear" not in {c.label for c in free.ranking if c.excluded}


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="content='pets' is not valid"):
        explorer.pick(scale=0.5, content="pets")
    with pytest.raises(ValueError, match="priorities='beauty' is not valid"):
        explorer.pick(scale=0.5, priorities=["beauty"])
    with pytest.raises(ValueError, match="scale=-1 is not valid"):
        explorer.pick(scale=-1)


def test_the_pick_figure_shows_the_scores_and_goodness():
    p = explorer.pick(zone_plate(64), scale=0.25, priorities=("no_aliasing", "speed"))
    view = PickView().update(p)
    good = view.images["goodness"].get_array()
    paths = view.bars.get_paths()
    assert len(paths) == len(p.ranking) * len(CRITERIA)
    for i, cand in enumerate(p.ranking):
        if cand.goodness:
            np.testing.assert_allclose(good[i], [cand.goodness[c] for c in CRITERIA])
            row = paths[i * len(CRITERIA):(i + 1) * len(CRITERIA)]
            widths = [path.vertices[:, 0].max() - path.vertices[:, 0].min() for path in row]
            assert sum(widths) == pytest.approx(cand.score if cand.excluded is None else 0.0)
            assert row[-1].vertices[:, 0].max() == pytest.approx(sum(widths))  # stacked end to end
    assert view.labels[0].get_text() == p.ranking[0].label
    rows = pick_rows(p)
    assert rows[1][0] == p.ranking[0].label and len(rows) == len(p.ranking) + 1
    assert pick_figure(zone_plate(32), scale=0.5).axes


def test_measure_reports_every_figure():
    f = measure(ImageResize("area", scale=0.5), checkerboard(16, 4))
    assert set(f) == {"aliasing", "sharpness", "overshoot", "coverage", "uniformity", "misalignment", "taps",
                      "keeps_values"}


def test_each_goodness_cell_says_the_number_its_colour_shows_on_a_colour_blind_safe_scale():
    import re

    from matplotlib.colors import to_hex

    from explorer.ui.views.pick import GOODNESS, pick_html

    p = explorer.pick(zone_plate(64), scale=0.25, priorities=("no_aliasing", "speed"), training=True)
    markup = pick_html(p)
    cells = re.findall(r"<td class='xf-goodness' style='background:(#[0-9a-f]{6});color:[^']*'><b>([0-9.]+)</b>",
                       markup)
    assert len(cells) == sum(len(c.goodness) for c in p.ranking) > 10
    for colour, number in cells:  # the colour is the number's, to the 2 decimals written
        shown = np.array([int(colour[k:k + 2], 16) for k in (1, 3, 5)])
        said = np.array([int(to_hex(GOODNESS(float(number)))[k:k + 2], 16) for k in (1, 3, 5)])
        assert np.abs(shown - said).max() <= 3, (colour, number)
    # lightness rises monotonically: under deuteranopia (which keeps lightness) best and worst differ
    lum = [0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b, _ in GOODNESS(np.linspace(0, 1, 32))]
    assert all(b > a for a, b in zip(lum, lum[1:])) and lum[-1] - lum[0] > 0.6
    text = re.sub(r"<[^>]+>", " ", markup)
    assert not re.search(r"\b(no_aliasing|no_overshoot|exact_gradients)\b", text)
    assert "little aliasing" in text

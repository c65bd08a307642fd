"""The notebook figure checks (tests/figure_checks.py) find what a reader would: small text, colours without a
colorbar, titles over the panel above, figures wider than the column."""

import numpy as np
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from figure_checks import figure_problems


def width(fig):
    return fig.get_figwidth() * fig.dpi


@pytest.fixture(autouse=True)
def close():
    yield
    plt.close("all")


def test_a_legible_figure_with_a_labelled_colorbar_passes():
    fig, ax = plt.subplots(figsize=(5, 4), dpi=100, layout="constrained")
    im = ax.imshow(np.random.rand(8, 8), cmap="viridis")
    ax.set_title("weights", fontsize=11)
    ax.tick_params(labelsize=9)
    fig.colorbar(im, ax=ax, label="weight")
    assert figure_problems(fig, width(fig)) == []


def test_small_text_and_shrunk_figures_are_found():
    fig, ax = plt.subplots(figsize=(5, 4), dpi=100)
    ax.set_title("tiny", fontsize=7)
    ax.tick_params(labelsize=9)
    assert any("'tiny' is 9.7 px" in p for p in figure_problems(fig, width(fig)))
    fig.set_figwidth(15)  # 1500 px: shown at 2/3 size, 9 pt ticks fall below 12 px
    problems = figure_problems(fig, width(fig))
    assert any("shrunk" in p for p in problems) and any("px on screen" in p and "'0." in p for p in problems)


def test_colour_mapped_images_need_a_labelled_colorbar_but_rgb_images_do_not():
    fig, (a, b, c) = plt.subplots(1, 3, figsize=(9, 3), dpi=100, layout="constrained")
    for ax in (a, b, c):
        ax.tick_params(labelsize=9)
    a.imshow(np.random.rand(4, 4)), a.set_title("map")
    shared = b.imshow(np.random.rand(4, 4), vmin=0, vmax=1), c.imshow(np.random.rand(4, 4, 3))
    problems = figure_problems(fig, width(fig))
    assert len([p for p in problems if "has no colorbar" in p]) == 2  # 'map' and b; not the RGB image
    fig.colorbar(shared[0], ax=b)
    problems = figure_problems(fig, width(fig))
    assert any("has no label" in p for p in problems) and len([p for p in problems if "no colorbar" in p]) == 1


def test_a_title_over_the_panel_above_is_found():
    fig, axes = plt.subplots(2, 1, figsize=(4, 4), dpi=100)
    fig.subplots_adjust(hspace=0.0)
    for ax in axes:
        ax.tick_params(labelsize=9)
        ax.set_xticks([])
    axes[1].set_title("below\ntwo lines", fontsize=10)
    assert any("'below" in p and "overlaps" in p for p in figure_problems(fig, width(fig)))


def test_titles_wider_than_their_panels_collide():
    fig, axes = plt.subplots(1, 3, figsize=(4, 2), dpi=100)
    for ax in axes:
        ax.set_xticks([]), ax.set_yticks([])
        ax.set_title("a title much wider than its panel", fontsize=10)
    assert any("overlaps 'a title" in p for p in figure_problems(fig, width(fig)))

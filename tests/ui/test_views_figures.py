"""Every figure as a teacher would put it on a slide: text of 12 pixels or more, no overlapping text, a labelled
colour bar for every colour-mapped panel, outputs in their true aspect ratio, and image pixels shown as whole
squares of screen pixels unless the panel is labelled an overview."""

import html
import re

import numpy as np
import pytest

from explorer.ui.app import App
from explorer.ui.app.tabs import KernelsTab
from explorer.ui.views import export, html_figure
from explorer.ui.views import kernels as kernels_view
from explorer.ui.views.panels import PanelFigure

TABS = ("modes", "gradients", "kernels", "libraries", "backends", "pick")
SETTINGS = [{"image": "zone_plate", "scale": 0.25}, {"image": "photo", "size": (100, 300)},
            {"image": "checkerboard", "scale": 3.0, "modes": ("nearest", "bicubic", "lanczos")}]


@pytest.fixture(scope="module", params=range(len(SETTINGS)), ids=["zone-plate", "100x300", "3x-up"])
def app(request):
    return App(**SETTINGS[request.param])


def text_boxes(fig):
    """(owner, text, box) of every visible text: figure texts, and each axes' title, labels, texts and ticks."""
    renderer = fig.canvas.get_renderer()
    texts = [("figure", t) for t in fig.texts]
    for i, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        texts += [(f"axes {i}", t) for t in (ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts)]
        for axis in (ax.xaxis, ax.yaxis):  # the tick labels drawn: those inside the view
            lo, hi = sorted(axis.get_view_interval())
            texts += [(f"ticks {i}", t.label1) for t in axis.get_major_ticks()
                      if lo - 1e-9 <= t.get_loc() <= hi + 1e-9 and t.label1.get_visible()]
    return [(owner, t.get_text(), t.get_window_extent(renderer)) for owner, t in texts
            if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize("tab", TABS)
def test_exported_text_is_at_least_12_pixels_and_never_overlaps(app, tab):
    fig = app.figure(tab, dpi=min(export.DPIS))
    assert export.smallest_text_px(fig) >= 12.0
    boxes = text_boxes(fig)
    for i, (owner_a, a, box_a) in enumerate(boxes):
        for owner_b, b, box_b in boxes[i + 1:]:
            overlap = (min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0) > 1 and
                       min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0) > 1)
            assert not overlap, f"{tab}: {a!r} ({owner_a}) overlaps {b!r} ({owner_b})"


def test_the_page_text_is_at_least_12_pixels():
    assert html_figure.TITLE_PX >= 12 and html_figure.TEXT_PX >= 12
    # the Kernels SVG scales with the page: its smallest text once it is as wide as a 1400-pixel window's app
    points_per_px = KernelsTab.READABLE_WIDTH / (kernels_view.SIZE[0] * 72)
    assert min(kernels_view.TEXT_PT, kernels_view.TITLE_PT) * points_per_px >= 12


@pytest.mark.parametrize("tab", ("modes", "gradients", "libraries"))
def test_every_colour_mapped_panel_has_a_labelled_colour_bar_in_its_row(app, tab):
    app.set(tab=tab)
    fig = app.tabs[tab].shown
    assert isinstance(fig, PanelFigure)
    for i, (label, keys) in enumerate(fig.rows):
        scales = {fig.panels[k].scale for k in keys if k is not None and fig.panels[k].rgb is not None} - {None}
        if scales:
            bar = fig.bars.get(i)
            assert bar is not None and {bar.scale} == scales, (tab, label, scales)
            assert len(bar.label) > 10 and bar.hi > bar.lo
    markup = html_figure.figure_html(fig)
    assert markup.count("class='xf-bar'") == len(fig.bars)


@pytest.mark.parametrize("tab", ("modes", "gradients", "libraries"))
def test_pixels_are_whole_squares_unless_labelled_an_overview(app, tab):
    app.set(tab=tab)
    fig = app.tabs[tab].shown
    exported = app.figure(tab, dpi=100)
    images = [im.get_array() for im in exported.images]
    for key in fig.panel_keys():
        panel = fig.panels[key]
        if panel.rgb is None:
            continue
        assert panel.factor == 1 or f"overview ÷{panel.factor}" in panel.title
        h, w = panel.rgb.shape[:2]
        if panel.factor == 1 and panel.region is None:  # a whole array, 1:1
            assert (h, w) == panel.source_shape
        # in the slide: the same pixels, each repeated k x k times for one whole k
        matches = [a for a in images if a.shape[0] % h == 0 and a.shape[0] // h == a.shape[1] / w
                   and np.array_equal(a[::a.shape[0] // h, ::a.shape[0] // h, :3], panel.rgb)]
        assert matches, f"{tab} {key}: not found at a whole zoom in the exported figure"
    # in the page: an <img> of the panel's own size, zoomed by CSS to a whole multiple (never below 1:1)
    markup = html_figure.figure_html(fig)
    assert "image-rendering: pixelated" in html_figure.STYLE
    # one zoom per row: every panel's width is k times its own, for the k of the row's largest panel; its alt
    # text names the row; a narrower window shrinks every panel by one factor (the narrow layout's style)
    narrow = re.search(r"@container xf-tab \(max-width: (\d+)px\)", markup)
    assert narrow and int(narrow.group(1)) == sum(fig.widths) + html_figure.BAR_COLUMN + 10 * len(fig.widths) + 8
    for label, keys in fig.rows:
        extent, ratio = html_figure.row_extent(fig, keys), html_figure.row_ratio(fig, keys)
        for key in keys:
            rgb = fig.panels[key].rgb if key is not None else None
            if rgb is None:
                continue
            w = rgb.shape[1]
            alt = html.escape(f"{fig.panels[key].title}: {label}")
            assert (f"data-key='{key}' alt='{alt}' width='{w}' height='{rgb.shape[0]}' "
                    f"style='width:calc(max(1px, round(down, min(calc((100cqw - ") in markup
            # the row's one zoom (its ratio and tallest panel), times the panel's own width
            assert f"* {ratio:.9f}), calc(60vh / {extent[1]})), 1px)) * {w})" in markup, (key, extent)
            assert f"img[data-key='{key}'] {{ width: calc((100cqw - " in markup
    # in the narrow layout each row shrinks by one factor, so that every panel fits its shrunk column
    for _, keys in fig.rows:
        shown = [(j, k) for j, k in enumerate(keys) if k is not None and fig.panels[k].rgb is not None]
        factor = min((fig.widths[j] / fig.panels[k].rgb.shape[1] for j, k in shown), default=0) / sum(fig.widths)
        for j, k in shown:
            share = fig.panels[k].rgb.shape[1] * factor
            assert share <= fig.widths[j] / sum(fig.widths) + 1e-9
            assert f"img[data-key='{k}'] {{ width: calc((100cqw - {html_figure.BAR_COLUMN + 10 * len(fig.widths) + 8}px) * {share:.6f}) !important; }}" in markup


def test_outputs_keep_their_aspect_ratio():
    app = App(image="photo", size=(100, 300))
    for tab, key in (("modes", "output:bilinear"), ("libraries", "output:torch"), ("gradients", "upstream:bilinear")):
        app.set(tab=tab)
        panel = app.tabs[tab].shown.panels[key]
        h, w = panel.rgb.shape[:2]
        assert abs(w / h - 3.0) < 0.05, (tab, h, w)


@pytest.mark.parametrize("window,zoom", [((1280, 720), 1), ((1920, 1080), 2), ((2560, 1440), 3)])
def test_the_whole_image_row_takes_the_largest_whole_zoom_that_fits(window, zoom):
    """The input and its outputs at one zoom: the largest at which the whole row fits the figure's width (its
    columns share the width in proportion to their panels) and 60% of the window's height; at 1920x1080 a
    256-pixel input and its 102-pixel outputs are drawn 2x, not 1x."""
    app = App()  # the photo, 256x256 -> 102x102, four columns and the reference
    fig = app.tabs["modes"].shown
    width, height = window
    grid = width - 40  # the page's margins
    keys = fig.rows[0][1]
    assert html_figure.row_zoom(fig, keys, grid, height) == zoom
    drawn = sum(fig.panels[k].rgb.shape[1] for k in keys) * zoom
    assert drawn + html_figure.BAR_COLUMN + html_figure.GAP * len(keys) <= grid
    columns = html_figure.template_columns(fig)
    assert columns.startswith(f"minmax(256px, 256fr) minmax({fig.widths[1]}px, {fig.widths[1]}fr)"), columns

"""Slide-ready export: ``app.save_png(path, tab=..., dpi=...)`` and the download button write PNGs at least 1600
pixels wide with the settings stamped on them and the configuration in a PNG text chunk; SVG and PDF too."""

import json

import numpy as np
import pytest

from explorer.ui.app import App
from explorer.ui.views.export import png_size, png_text

TABS = ("modes", "gradients", "kernels", "libraries", "backends", "pick")


@pytest.fixture(scope="module")
def app():
    return App(image="zone_plate", scale=0.25, antialias=True)


@pytest.mark.parametrize("tab", TABS)
def test_save_png_writes_a_stamped_figure_with_its_configuration(app, tab, tmp_path):
    path = tmp_path / f"{tab}.png"
    app.save_png(path, tab=tab, dpi=100)
    data = path.read_bytes()
    width, height = png_size(data)
    assert width >= 1600 and height > 300
    config = json.loads(png_text(data)["explorer-config"])
    assert config["tab"] == tab and config["scale"] == 0.25 and config["antialias"] is True
    assert config["image"] == "zone_plate"
    stamp = app.stamp(tab)
    assert stamp.startswith("interpolation-explorer · ") and "zone_plate 256×256 → 64×64" in stamp
    assert ("antialias True" in stamp) == (tab != "pick")  # Pick ranks with and without antialias
    fig = app.figure(tab)
    assert any(t.get_text() == stamp or stamp.startswith(t.get_text()) for t in fig.texts)  # stamped visibly


def test_the_dpi_sets_the_pixels(app, tmp_path):
    sizes = {}
    for dpi in (100, 200):
        app.save_png(tmp_path / f"m{dpi}.png", tab="modes", dpi=dpi)
        sizes[dpi] = png_size((tmp_path / f"m{dpi}.png").read_bytes())
    assert sizes[200][0] == pytest.approx(2 * sizes[100][0], rel=0.02)


def test_exported_panels_are_the_app_panels_at_a_whole_zoom(app, tmp_path):
    from PIL import Image

    app.save_png(tmp_path / "m.png", tab="modes", dpi=100)
    page = np.asarray(Image.open(tmp_path / "m.png").convert("RGB"))
    panel = app.tabs["modes"].shown.panels["output:bilinear"].rgb  # 64 x 64
    fig = app.figure("modes", dpi=100)
    arrays = []
    for im in fig.images:
        a = im.get_array()
        k = a.shape[0] // 64
        if a.shape[0] % 64 == 0 and np.array_equal(a[::k, ::k], panel):
            arrays.append(a)
    assert arrays, "the bilinear output is not in the slide at a whole zoom"
    k = arrays[0].shape[0] // 64
    # find it in the written PNG: every pixel of the panel is a k x k block there
    block = np.repeat(np.repeat(panel, k, axis=0), k, axis=1)
    rows = np.where((page[:, :, :] == block[0, 0]).all(axis=2))
    found = any(np.array_equal(page[r:r + block.shape[0], c:c + block.shape[1]], block)
                for r, c in zip(*rows) if r + block.shape[0] <= page.shape[0] and c + block.shape[1] <= page.shape[1])
    assert found


@pytest.mark.parametrize("fmt,magic", [("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_svg_and_pdf(app, tmp_path, fmt, magic):
    path = tmp_path / f"f.{fmt}"
    app.save(path, tab="gradients")
    data = path.read_bytes()
    assert data.startswith(magic)
    assert b'"tab": "gradients"' in data and b'"scale": 0.25' in data  # the description / subject


def test_a_bad_format_or_tab_is_refused(app, tmp_path):
    with pytest.raises(ValueError, match="format='gif' is not valid; choose one of: 'pdf', 'png', 'svg'"):
        app.save(tmp_path / "f.gif")
    with pytest.raises(ValueError, match="tab='slides' is not valid"):
        app.save_png(tmp_path / "f.png", tab="slides")


@pytest.mark.parametrize("tab", ["modes", "gradients", "libraries", "kernels", "backends", "pick"])
def test_a_slide_export_is_16_by_9_and_landscape_with_the_caption_optional(tab):
    from explorer.ui.views.export import png_size

    app = App(tab=tab)
    fig = app.figure(tab)  # the page
    slide = app._export(app.tabs[tab], 100, slide=True, caption=False)
    w, h = slide.get_size_inches()
    assert abs(w - 13.333) < 0.01 and abs(h - 7.5) < 0.01, (w, h)
    assert png_size(app.figure_bytes(tab, dpi=100, slide=True, caption=False)) == (1333, 750)
    texts = [t.get_text() for t in slide.texts]
    assert not any(app.tabs[tab].caption_text[:40] in t for t in texts if t)  # caption left out
    if tab in ("modes", "gradients", "libraries"):  # image panels: every text 18 pt at slide size
        sizes = [t.get_fontsize() for t in slide.findobj(lambda a: hasattr(a, "get_fontsize")
                                                         and hasattr(a, "get_text") and a.get_text())]
        assert min(sizes) >= 18, min(sizes)
    assert fig.get_size_inches()[0] >= 16  # the page export is unchanged


@pytest.mark.parametrize("tab", ["kernels", "backends", "pick"])
@pytest.mark.parametrize("slide", [False, True])
def test_the_stamp_of_a_matplotlib_figure_is_inside_the_image(tab, slide):
    app = App(tab=tab)
    fig = app._export(app.tabs[tab], 100, slide=slide, caption=True)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width = fig.get_size_inches()[0] * fig.dpi
    stamp = [t for t in fig.texts if t.get_text().startswith("interpolation-explorer")]
    assert stamp, [t.get_text() for t in fig.texts]
    for text in stamp:  # the settings line: a teacher reads every setting, none cut off at the right edge
        assert text.get_window_extent(renderer).x1 <= width, (text.get_text(), text.get_window_extent(renderer))


@pytest.mark.parametrize("tab", ["kernels", "backends", "pick"])
def test_a_plot_slide_has_18_pt_text_and_14_pt_tick_labels(tab):
    """On a 13.33 x 7.5 inch slide every title, label, legend and cell text of the Kernels, Backends and Pick
    figures is 18 pt or more, the numbers and names along the axes (tick labels) 14 pt or more; nothing
    overlaps another panel or text, and nothing leaves the slide."""
    from figure_checks import drawn_texts, figure_problems

    app = App(tab=tab)
    slide = app._export(app.tabs[tab], 100, slide=True, caption=False)
    w, h = slide.get_size_inches()
    assert abs(w - 13.333) < 0.01 and abs(h - 7.5) < 0.01, (w, h)
    texts = drawn_texts(slide)
    ticks = {id(t) for ax in slide.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    small = [(t.get_text()[:30], t.get_fontsize()) for t in texts
             if t.get_fontsize() < (14 if id(t) in ticks else 18)]
    assert not small, small
    assert any(t.get_fontsize() >= 18 for t in texts if id(t) not in ticks)
    width_px = w * slide.dpi
    problems = [p for p in figure_problems(slide, width_px, width_px) if "overlaps" in p]
    assert not problems, problems
    renderer = slide.canvas.get_renderer()
    for t in texts:  # inside the slide
        box = t.get_window_extent(renderer)
        assert box.x0 >= -1 and box.x1 <= width_px + 1 and box.y0 >= -1 and box.y1 <= h * slide.dpi + 1, \
            (t.get_text()[:30], box)


@pytest.mark.parametrize("lesson", [None, "checkerboard"])
def test_the_gradients_slide_fills_the_16_by_9_slide(lesson):
    """The Gradients slide is not half empty: below the whole dL/dx row, the zoom on dL/dx (at least an inch,
    the checkerboard's pixels visible), the content reaching the slide's bottom; every panel at a whole zoom."""
    import io

    from PIL import Image

    from explorer.ui.views.export import slide_layout

    app = App(tab="gradients")
    if lesson:
        app.scenario(lesson)
    tab = app.tabs["gradients"]
    layout = slide_layout(tab.shown, app.stamp("gradients"), 100)
    assert layout.rows >= 2, layout.rows
    zoom_row = tab.shown.rows[1][1]
    assert layout.zooms[1] * tab.shown.panels[zoom_row[0]].rgb.shape[0] >= 100  # an inch at 100 dpi
    page = np.asarray(Image.open(io.BytesIO(app.figure_bytes("gradients", dpi=100, slide=True, caption=False)))
                      .convert("L"))
    inked = np.nonzero((page < 250).any(axis=1))[0]
    assert inked.max() >= 0.85 * page.shape[0], (inked.max(), page.shape)
    images = [a for kind, _, _, a in layout.items if kind == "image"]
    assert sum(a.shape[0] * a.shape[1] for a in images) >= 0.22 * page.size  # panels, not white space (was 0.2)


@pytest.mark.parametrize("backend,mode", [("torch", "bilinear"), ("onnxruntime", "lanczos")])
def test_the_backends_slide_says_what_the_findings_are_when_they_do_not_fit(backend, mode):
    """Below the grid the slide has room for a line or two: never a lone "…", but the findings and fixes
    counted (or the list itself when it fits), every line inside the slide."""
    app = App(tab="backends", backend=backend, mode=mode)
    slide = app._export(app.tabs["backends"], 100, slide=True, caption=False)
    slide.canvas.draw()
    renderer = slide.canvas.get_renderer()
    texts = [t for t in slide.texts if t.get_text() and t.get_text().startswith(f"{mode} on {backend}")]
    assert texts, [t.get_text()[:60] for t in slide.texts]
    body = texts[0].get_text()
    assert not body.strip().endswith("findings panel)") and "…" not in body, body
    assert "finding" in body or "error:" in body, body
    assert texts[0].get_window_extent(renderer).x1 <= slide.get_size_inches()[0] * slide.dpi + 1, body


@pytest.mark.parametrize("tab", ["modes", "libraries"])
def test_a_slide_row_holds_each_short_title_on_one_line(tab):
    """The columns of a slide first take what their titles need, then share the rest evenly: "bilinear
    102×102" over a 102-pixel output is one line at 18 pt (it wrapped, while the input's column kept a gap
    as wide as two outputs); a title longer than an equal share of the width may wrap."""
    from explorer.ui.views.export import SLIDE_IN, SLIDE_PT, glyph_px, slide_layout

    app = App(tab=tab)
    shown = app.tabs[tab].shown
    layout = slide_layout(shown, app.stamp(tab), 100)
    share = (SLIDE_IN[0] * 100 - 2 * layout.margin - layout.bar_w - shown.columns * layout.gap) / shown.columns
    lines_at, labels = {}, 0
    for kind, x, _, text in layout.items:  # the first row's titles: the items before the second row's label
        labels += kind == "row"
        if labels > 1:
            break
        if kind == "title":
            lines_at.setdefault(round(x), []).append(text)
    first_row = [shown.panels[k].title for k in shown.rows[0][1] if k is not None]
    for title in first_row:
        lines = next(v for v in lines_at.values() if " ".join(v).replace("  ", " ").startswith(title.split()[0]))
        if (len(title) + 1) * glyph_px(SLIDE_PT, 100) <= share:
            assert len(lines) == 1, (title, lines)

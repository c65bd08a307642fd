"""Every control swept over its whole range through ``app.set``: the figures show what the engine computes
(arrays computed here directly with explorer.interpolate / interpolate_backward / weights / check), nothing
raises, and error states recover."""

import re

import numpy as np
import pytest

import explorer
from explorer.conventions.image_resize import MODES
from explorer.conventions.mode_names import libraries

LIBRARIES = libraries()
from explorer.images import TEST_IMAGES, test_image
from explorer.ui.app import App
from explorer.ui.app.state import SCALE_RANGE
from explorer.ui.compute.gradients import upstream_gradient
from explorer.ui.defaults import UPSTREAMS

IMAGE = np.random.default_rng(11).random((40, 44, 3)).astype(np.float32)
AC = ("bilinear", "bicubic")
AA = ("bilinear", "bicubic", "lanczos")


@pytest.fixture(scope="module")
def app():
    return App(IMAGE)


@pytest.fixture(autouse=True)
def fresh(app):
    app.set(tab="modes", image=IMAGE, scale=0.5, modes=("nearest", "bilinear", "bicubic"), mode="bilinear",
            reference="lanczos", align_corners=False, antialias=False, library="torch", upstream="ones", seed=0,
            training=True, backend="torch", crop=(0.25, 0.25, 0.5, 0.5), length=8, sample=None)
    assert app.message_text == ""
    yield


def options(mode, state):
    kw = {}
    if mode in AC:
        kw["align_corners"] = state["align_corners"]
    if mode in AA:
        kw["antialias"] = state["antialias"] or mode == "lanczos"
    if state["size"] is not None:
        kw["size"] = state["size"]
    else:
        kw["scale_factor"] = state["scale"]
    return kw


def forward(app, mode):
    x = np.ascontiguousarray(np.moveaxis(app.image, 2, 0))[None]
    return np.moveaxis(explorer.interpolate(x, mode=mode, **options(mode, app.state))[0], 0, 2)


def backward(app, mode, g):
    img = app.image
    gx = explorer.interpolate_backward(np.ascontiguousarray(np.moveaxis(g, 2, 0))[None],
                                       (1, img.shape[2]) + img.shape[:2], mode=mode, **options(mode, app.state))
    return np.moveaxis(gx[0], 0, 2)


# The expectations below are written out here, independently of explorer.ui.views: which rows and columns a
# box covers, and what an overview of f x f block means holds.
def box_rows_cols(shape, box):
    """Every row and column any part of which lies in ``box`` (fractions of the image)."""
    h, w = shape[:2]
    top, left, bottom, right = box
    rows = [r for r in range(h) if (r + 1) / h > top and r / h < bottom]
    cols = [c for c in range(w) if (c + 1) / w > left and c / w < right]
    return rows, cols


def blocks(a, f):
    h, w = a.shape[0] // f, a.shape[1] // f
    return a[:h * f, :w * f].reshape(h, f, w, f, *a.shape[2:]).astype(np.float64).mean(axis=(1, 3))


def panel(app, tab, key):
    return app.tabs[tab].shown.panels[key]


def check_whole(p, array, atol=1e-6):
    """A whole panel holds ``array`` 1:1, or its block means when it is a labelled overview."""
    assert p.factor == 1 or f"overview ÷{p.factor}" in p.title
    np.testing.assert_allclose(p.values, blocks(array, p.factor) if p.factor > 1 else array, atol=atol)


def check_zoom(p, array, box):
    rows, cols = box_rows_cols(array.shape, box)
    assert p.factor == 1
    if "centre" not in p.title:  # the whole box fits its cell
        assert p.region == (rows[0], rows[-1] + 1, cols[0], cols[-1] + 1)
    r0, r1, c0, c1 = p.region
    assert rows[0] <= r0 and r1 <= rows[-1] + 1 and cols[0] <= c0 and c1 <= cols[-1] + 1
    np.testing.assert_array_equal(p.values, array[r0:r1, c0:c1])


def check_modes_tab(app):
    s = app.state
    ref = forward(app, s["reference"])
    for mode in s["modes"]:
        y = forward(app, mode)
        check_whole(panel(app, "modes", f"output:{mode}"), y)
        check_zoom(panel(app, "modes", f"crop:{mode}"), y, s["crop"])
        check_whole(panel(app, "modes", f"diff:{mode}"), (y - ref).mean(axis=2), atol=1e-5)


def check_gradients_tab(app):
    s = app.state
    for mode in s["modes"]:
        y = forward(app, mode)
        if s["upstream"] == "mse":
            lanczos = dict(options("lanczos", s))
            x = np.ascontiguousarray(np.moveaxis(app.image, 2, 0))[None]
            target = np.moveaxis(explorer.interpolate(x, mode="lanczos", **lanczos)[0], 0, 2)
            g = y - target
        else:
            g = upstream_gradient(s["upstream"], y, seed=s["seed"], rect=s["rect"])
        gx = backward(app, mode, g).mean(axis=2)
        check_whole(panel(app, "gradients", f"grad:{mode}"), gx, atol=1e-5)
        p = panel(app, "gradients", f"grad_zoom:{mode}")
        rows, cols = box_rows_cols(gx.shape, s["crop"])
        assert p.region == (rows[0], rows[-1] + 1, cols[0], cols[-1] + 1)
        np.testing.assert_allclose(p.values, gx[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1], rtol=1e-5, atol=1e-6)
        ones = np.ones(y.shape[:2], np.float32)
        img = app.image
        cov = explorer.interpolate_backward(ones[None, None], (1, 1) + img.shape[:2], mode=mode,
                                            **options(mode, s))[0, 0]
        p = panel(app, "gradients", f"coverage_zoom:{mode}")
        rows, cols = box_rows_cols(cov.shape, s["crop"])
        assert p.region == (rows[0], rows[-1] + 1, cols[0], cols[-1] + 1)
        np.testing.assert_allclose(p.values, cov[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1], rtol=1e-6, atol=1e-7)


def check_kernels_tab(app):
    view = app.tabs["kernels"].shown
    s = app.state
    data = app.tabs["kernels"].data
    n = data.n  # the state's length, or the shortest axis with one output at a tiny scale
    assert n == s["length"] or (int(s["length"] * s["scale"]) == 0 and int(n * s["scale"]) == 1)
    m = int(n * s["scale"]) if s["scale"] is not None else data.m
    mode = s["mode"]
    spec = explorer.torch_spec(mode, s["align_corners"] if mode in AC else False,
                               (s["antialias"] or mode == "lanczos") if mode in AA else False, np.float64)
    step = s["scale"] if (s["scale"] is not None and mode != "area") else None
    expected = explorer.weights(n, m, spec, step, dtype=np.float64)  # the tab draws a float64 axis
    np.testing.assert_allclose(view.images["weights"].get_array(), expected, atol=1e-12)
    np.testing.assert_allclose(view.images["transpose"].get_array(), expected.T, atol=1e-12)


CHECKS = {"modes": check_modes_tab, "gradients": check_gradients_tab, "kernels": check_kernels_tab}


def sweep(app, tab, key, values, **fixed):
    app.set(tab=tab, **fixed)
    seen = []
    for value in values:
        app.set(**{key: value})
        assert app.message_text == "", (key, value, app.message_text)
        CHECKS[tab](app)
        seen.append(app.tabs[tab].markup)
    return seen


SCALES = [SCALE_RANGE[0], 0.1, 0.25, 0.37, 0.5, 0.75, 1.0, 1.3, 1.7, 2.5, SCALE_RANGE[1]]


@pytest.mark.parametrize("tab", ["modes", "gradients", "kernels"])
def test_scale_over_its_whole_range(app, tab):
    pngs = sweep(app, tab, "scale", SCALES)
    assert len(set(pngs)) == len(SCALES)  # every value drew a different figure


@pytest.mark.parametrize("tab", ["modes", "gradients"])
def test_sizes(app, tab):
    sweep(app, tab, "size", [(8, 8), (20, 30), (40, 44), (57, 23), (100, 120), (1, 5)])
    app.set(scale=0.6)
    CHECKS[tab](app)


@pytest.mark.parametrize("tab", ["modes", "gradients"])
def test_modes_one_at_a_time_and_all_together(app, tab):
    sweep(app, tab, "modes", [(m,) for m in MODES] + [MODES, ("bicubic", "nearest")])


def test_the_reference_mode(app):
    sweep(app, "modes", "reference", MODES)


def test_the_primary_mode_on_the_kernels_tab(app):
    for scale in (0.4, 1.6):
        sweep(app, "kernels", "mode", MODES, scale=scale)


@pytest.mark.parametrize("key", ["align_corners", "antialias"])
@pytest.mark.parametrize("tab", ["modes", "gradients", "kernels"])
def test_flags(app, tab, key):
    app.set(modes=MODES)
    sweep(app, tab, key, [True, False, True], scale=0.37)


def test_upstream_seed_and_rectangle(app):
    sweep(app, "gradients", "upstream", list(UPSTREAMS), scale=0.6)
    sweep(app, "gradients", "seed", [1, 2, 2**31 - 1], upstream="random")
    sweep(app, "gradients", "rect", [(0, 0, 1, 1), (0.1, 0.5, 0.3, 0.9)], upstream="rectangle")


@pytest.mark.parametrize("tab", ["modes", "gradients"])
def test_crop(app, tab):
    sweep(app, tab, "crop", [(0, 0, 0.125, 0.125), (0.875, 0.875, 1, 1), (0.3, 0.1, 0.9, 0.5)], scale=1.5)


def test_kernels_length_and_sample(app):
    sweep(app, "kernels", "length", [2, 3, 8, 17, 64], scale=1.5)
    app.set(length=10)
    m = app.tabs["kernels"].data.m
    sweep(app, "kernels", "sample", list(range(m)) + [None])
    assert app.controls["sample"].widget.max == m - 1


def test_every_test_image(app):
    for name in TEST_IMAGES:
        app.set(tab="modes", image=name, scale=TEST_IMAGES[name].suggested_scale)
        assert app.message_text == ""
        check_whole(panel(app, "modes", "input"), test_image(name))
        check_modes_tab(app)


def test_library_conventions(app):
    for library in LIBRARIES:
        app.set(tab="modes", library=library)
        data = app.tabs["modes"].data
        if library == "torch":
            check_modes_tab(app)
            continue
        rules = explorer.conventions.library(library)
        names = {o.name for o in rules.options}
        # the app passes its options by name where the library has them (JAX's antialias=True default is
        # overridden by the app's False), and an explicit size floor(n * scale)
        opts = {k: app.state[k] for k in ("align_corners", "antialias") if k in names}
        size = tuple(int(n * app.state["scale"]) for n in app.image.shape[:2])
        planes = np.ascontiguousarray(np.moveaxis(app.image, 2, 0))
        for mode, y in data.outputs.items():
            try:
                expected = explorer.library_resize(planes, size=size, library=library, mode=mode, axes=(1, 2),
                                                   **opts)
            except (ValueError, TypeError, NotImplementedError) as exc:
                assert not isinstance(y, np.ndarray), f"{library} {mode}: the library raises {exc}"
                assert str(exc) in str(y)
                continue
            assert isinstance(y, np.ndarray), f"{library} {mode} shows an error: {y}"
            np.testing.assert_allclose(y, np.moveaxis(expected, 0, 2))
    app.set(library="torch")
    check_modes_tab(app)


def test_libraries_tab(app):
    for chosen in [("torch",), tuple(LIBRARIES), ("pillow", "torch")]:
        app.set(tab="libraries", libraries=chosen, mode="bicubic")
        data = app.tabs["libraries"].data
        assert tuple(data.outputs) == chosen
        size = tuple(int(n * app.state["scale"]) for n in app.image.shape[:2])
        x = np.ascontiguousarray(np.moveaxis(app.image, 2, 0))[None]
        expected = np.moveaxis(explorer.interpolate(x, mode="bicubic", size=size)[0], 0, 2)
        np.testing.assert_array_equal(data.outputs["torch"], expected)
    app.set(training=False)
    assert app.tabs["libraries"].data.grads["torch"] is None


def test_backends_versions_devices_and_training(app):
    from explorer.ui.compute.backends import STATUSES
    from explorer.ui.views.backends import SYMBOLS

    app.set(tab="backends", mode="bicubic", antialias=True)
    for b in explorer.backends():
        settings = [(None, device) for device in (None, *b.devices)] + [(v, None) for v in b.versions[-1:]]
        for version, device in settings:
            app.set(backend=b.id, version=version, device=device)
            data = app.tabs["backends"].data
            assert app.controls["version"].widget.value == (version or "latest")
            assert app.controls["device"].widget.value == (device or "default")
            findings = explorer.check(mode="bicubic", backend=b.id, version=version, device=device,
                                      antialias=True, align_corners=False, training=True,
                                      input_size=(40, 44), output_size=(20, 22))
            assert [f.message for f in data.findings] == [f.message for f in findings]
            cells = re.findall(r"<td style='background:[^']*' title='[^']*'>(.)</td>", app.tabs["backends"].markup)
            assert len(cells) == len(MODES) * len(data.uses)
            assert cells == [SYMBOLS[data.status[(m, u)]] for m in data.modes for u in data.uses]
            assert set(data.status.values()) <= set(STATUSES)
    app.set(backend="torch", training=False)
    assert app.tabs["backends"].data.uses == ["forward", "ONNX export"]


def test_pick_controls(app):
    targets = ("torch", "tensorflow", "burn-wgpu")
    app.set(tab="pick", scale=0.3, frameworks=("torch",))
    for content in ("photo", "labels", "features"):
        app.set(content=content)
        p = app.tabs["pick"].data
        assert p.content == content
        direct = explorer.pick(app.image, scale=0.3, content=content)
        assert [c.label for c in p.ranking] == [c.label for c in direct.ranking]
    for priorities in ((), ("speed",), ("no_aliasing", "sharpness"), None):
        app.set(priorities=priorities)
    for t in targets:
        app.set(targets=(t,))
        assert set(app.tabs["pick"].data.ranking[0].support) == {t}
    app.set(frameworks=targets)
    assert set(app.tabs["pick"].data.code) == set(targets)


def test_every_tab(app):
    for tab in ("modes", "gradients", "kernels", "libraries", "backends", "pick"):
        app.set(tab=tab)
        assert app.tab_widget.selected_index == ("modes", "gradients", "kernels", "libraries", "backends",
                                                 "pick").index(tab)
        assert app.tabs[tab].data is not None


@pytest.mark.parametrize("bad", [{"scale": 0}, {"scale": -3}, {"mode": "cubic"}, {"size": (0, 3)},
                                 {"modes": []}, {"upstream": "x"}, {"image": "nope"}, {"backend": "nope"},
                                 {"length": 1000}, {"tab": "nope"}])
def test_bad_values_raise_show_and_recover(app, bad):
    before = dict(app.state)
    with pytest.raises(ValueError) as error:
        app.set(**bad)
    assert app.message_text == str(error.value)
    assert all(np.array_equal(app.state[k], before[k]) if isinstance(before[k], np.ndarray)
               else app.state[k] == before[k] for k in before)
    app.set(scale=0.8)
    assert app.message_text == ""
    check_modes_tab(app)


def test_errors_while_computing_show_and_recover(app):
    app.set(scale=0.01)  # floor(40 * 0.01) = 0: every mode fails
    assert "greater than 0" in app.message_text
    app.set(scale=0.5)
    assert app.message_text == ""
    check_modes_tab(app)


def test_an_internal_failure_is_reported_and_the_app_keeps_working(app, monkeypatch):
    tab = app.tabs["modes"]

    def broken(snap):
        raise RuntimeError("simulated failure")

    monkeypatch.setattr(tab, "compute", broken)
    app.set(scale=0.9)
    assert "Modes could not be drawn: RuntimeError: simulated failure" in app.message_text
    monkeypatch.undo()
    app.set(scale=0.7)
    assert app.message_text == ""
    check_modes_tab(app)

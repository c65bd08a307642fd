"""Lessons in one click: every scenario sets valid state, and every number in its explanation is recomputed
here, with the engine's public API or with the real libraries, and its claims checked."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import explorer
from explorer.advisor.knowledge import load
from explorer.images import test_image, zone_plate
from explorer.ui.app.state import DEFAULTS, State
from explorer.ui.scenarios import SCENARIOS, Scenario, scenarios

#: Keys the app's state is gaining alongside these lessons (the Libraries switch), besides DEFAULTS.
NEW_KEYS = {"same_options"}


def numbers(text: str) -> list[float]:
    """Every number written in ``text`` (percentages as fractions)."""
    out = []
    for match in re.finditer(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e-?\d+)?(%?)", text):
        value = float(match.group(0).rstrip("%"))
        out.append(value / 100 if match.group(1) else value)
    return out


def says(text: str, value: float, tol: float) -> bool:
    return any(abs(x - value) <= tol for x in numbers(text))


def nchw(image):
    return np.ascontiguousarray(np.moveaxis(image, 2, 0))[None].astype(np.float64)


def test_scenarios_are_public_and_complete():
    assert explorer.scenarios is scenarios
    lessons = explorer.scenarios()
    assert {"aliasing", "antialias", "clean-fid", "checkerboard", "nearest-tables", "burn-panic",
            "porting-pillow"} <= set(lessons)
    assert set(SCENARIOS) == set(lessons) and all(isinstance(s, Scenario) for s in lessons.values())
    with pytest.raises(ValueError, match="scenario='aliasng' is not valid.*did you mean 'aliasing'"):
        SCENARIOS["aliasng"]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_each_scenario_sets_valid_state_and_explains_it(name):
    s = SCENARIOS[name]
    assert s.name == name and s.title and 200 < len(s.explanation) < 1500
    unknown = set(s.changes) - set(DEFAULTS)
    assert unknown <= NEW_KEYS, unknown
    assert all(isinstance(s.changes[k], bool) for k in unknown)
    State().validate({k: v for k, v in s.changes.items() if k in DEFAULTS})  # raises on a bad value
    assert s.changes["tab"] in ("modes", "gradients", "kernels", "libraries", "backends", "pick")
    assert not re.search(r"\bnan\b|\binf\b", s.explanation)


# ------------------------------------------------------------------------------------------ zone plate 4x down
def false_contrast(y: np.ndarray, n: int) -> float:
    """RMS of (y - 0.5) where the zone plate's local frequency exceeds the output's limit (1.1x, as
    explorer.advisor.quality defines it, 2 output pixels from the border), over the rings' RMS 0.5/sqrt(2)."""
    h = y.shape[0]
    centres = (np.arange(h) + 0.5) * n / h - 0.5 - (n - 1) / 2
    nu = np.hypot(centres[:, None], centres[None, :]) / (n * math.sqrt(2))
    nyquist = 0.5 * h / n
    zone = (nu > 1.1 * nyquist) & (nu < 0.5)
    zone[:2], zone[-2:], zone[:, :2], zone[:, -2:] = False, False, False, False
    return float(np.sqrt(np.mean((y[zone] - 0.5) ** 2)) / (0.5 / math.sqrt(2)))


def shrunk_zone_plate(mode, antialias):
    z = zone_plate(256)
    return explorer.interpolate(nchw(z), scale_factor=0.25, mode=mode, antialias=antialias)[0, 0]


def test_aliasing_numbers_and_that_antialias_removes_most_of_it():
    plain, filtered = SCENARIOS["aliasing"], SCENARIOS["antialias"]
    assert (plain.changes["antialias"], filtered.changes["antialias"]) == (False, True)
    assert plain.changes["image"] == "zone_plate" and plain.changes["scale"] == 0.25
    for mode in ("nearest", "bilinear", "bicubic"):
        value = false_contrast(shrunk_zone_plate(mode, False), 256)
        assert says(plain.explanation, value, 0.006), (mode, value)
    for mode in ("bilinear", "bicubic"):
        before = false_contrast(shrunk_zone_plate(mode, False), 256)
        after = false_contrast(shrunk_zone_plate(mode, True), 256)
        assert says(filtered.explanation, before, 0.006) and says(filtered.explanation, after, 0.006)
        assert after < 0.2 * before  # the claim: antialias removes most of the false contrast
    w = explorer.weights(256, 64, explorer.torch_spec("bilinear", antialias=True))
    assert f"reads {int((w != 0).sum(axis=1).max())} input pixels" in filtered.explanation


# ------------------------------------------------------------------------------------------ Clean-FID circle
@pytest.mark.oracle
def test_clean_fid_numbers_hold_for_the_real_libraries():
    PIL = pytest.importorskip("PIL.Image")
    cv2 = pytest.importorskip("cv2")
    torch = pytest.importorskip("torch")
    tf = pytest.importorskip("tensorflow")
    text = SCENARIOS["clean-fid"].explanation
    circle = np.array(test_image("circle")[:, :, 0])
    pillow = np.asarray(PIL.fromarray(circle, mode="F").resize((16, 16), PIL.Resampling.BICUBIC))
    real = {
        "torch": torch.nn.functional.interpolate(torch.from_numpy(circle[None, None]), size=(16, 16),
                                                 mode="bicubic")[0, 0].numpy(),
        "tensorflow": tf.image.resize(circle[None, :, :, None], (16, 16), method="bicubic").numpy()[0, :, :, 0],
        "opencv": cv2.resize(circle, (16, 16), interpolation=cv2.INTER_CUBIC),
    }
    for lib, y in real.items():
        psnr = 10 * math.log10(1 / np.mean((y.astype(np.float64) - pillow) ** 2))
        assert says(text, psnr, 0.06), (lib, psnr)
    w = explorer.weights(128, 16, explorer.torch_spec("bicubic"))
    assert says(text, float(np.mean((w != 0).any(axis=0)) ** 2), 0.005)  # share of the input read: 25%
    assert "100% of the input pixels" in text
    # the ring claims: Pillow's is even and unbroken, the 4x4 kernels' is dark along a good part of it
    ring = (np.arange(16) + 0.5) * 8 - 0.5 - 63.5  # output centres in input pixels, from the centre
    r = np.hypot(ring[:, None], ring[None, :])
    on_ring = np.abs(r - 51.2) < 4
    assert pillow[on_ring].min() > 0.3 * pillow[on_ring].mean()
    assert (real["torch"][on_ring] < 0.25 * pillow[on_ring].mean()).mean() > 0.2


# ------------------------------------------------------------------------------------------ checkerboard gradients
def grad_of_sum(n, scale, mode, **options):
    m = int(n * scale)
    return explorer.interpolate_backward(np.ones((1, 1, m, m)), (1, 1, n, n), size=(m, m), mode=mode,
                                         **options)[0, 0][4:-4, 4:-4]


def test_checkerboard_numbers_are_the_backward_pass():
    s = SCENARIOS["checkerboard"]
    n = test_image(s.changes["image"]).shape[0]
    assert s.changes["scale"] == 1.5 and s.changes["upstream"] == "ones"
    near = grad_of_sum(n, 1.5, "nearest")
    assert f"receive {', '.join(f'{v:g}' for v in np.unique(near))}" in s.explanation
    assert f"{near.max() / near.min():.0f}× from the weakest" in s.explanation
    assert says(s.explanation, grad_of_sum(n, 1.5, "bilinear").min(), 0.005)
    ac = grad_of_sum(n, 1.5, "bilinear", align_corners=True)
    assert says(s.explanation, ac.min(), 0.005) and says(s.explanation, ac.max(), 0.005)
    even = [grad_of_sum(n, 2.0, m) for m in ("nearest", "bilinear", "bicubic")]
    assert all(g.max() / g.min() < 1.005 for g in even)  # the claim: x2 is even away from the border


@pytest.mark.oracle
def test_checkerboard_pattern_is_what_torch_autograd_gives():
    torch = pytest.importorskip("torch")
    x = torch.zeros((1, 1, 40, 40), dtype=torch.float64, requires_grad=True)
    torch.nn.functional.interpolate(x, scale_factor=1.5, mode="nearest").sum().backward()
    g = x.grad[0, 0, 4:-4, 4:-4].numpy()
    assert set(np.unique(g)) == {1.0, 2.0, 4.0}
    np.testing.assert_array_equal(g, grad_of_sum(40, 1.5, "nearest"))


# ------------------------------------------------------------------------------------------ nearest index tables
@pytest.mark.oracle
def test_nearest_tables_are_what_the_libraries_pick():
    torch = pytest.importorskip("torch")
    PIL = pytest.importorskip("PIL.Image")
    cv2 = pytest.importorskip("cv2")
    text = SCENARIOS["nearest-tables"].explanation

    def torch_picks(n, m, mode):
        x = torch.arange(n, dtype=torch.float32)[None, None, None]
        return torch.nn.functional.interpolate(x, size=(1, m), mode=mode)[0, 0, 0].int().tolist()

    for n, m in ((8, 4), (5, 3)):
        assert f"{torch_picks(n, m, 'nearest')}" in text and f"{torch_picks(n, m, 'nearest-exact')}" in text
    pairs = [(n, m) for n in range(1, 17) for m in range(1, 17)]
    agree = [(n, m) for n, m in pairs if torch_picks(n, m, "nearest") == torch_picks(n, m, "nearest-exact")]
    assert f"agree on {len(agree)}, exactly the integer upscales" in text
    assert agree == [(n, m) for n, m in pairs if m % n == 0]
    ramp = {n: np.arange(n, dtype=np.float32)[None] for n in range(1, 17)}
    pillow = sum(np.asarray(PIL.fromarray(ramp[n], mode="F").resize((m, 1), PIL.Resampling.NEAREST))[0].tolist()
                 == torch_picks(n, m, "nearest-exact") for n, m in pairs)
    assert f"pillow NEAREST picks as nearest-exact on {pillow} of 256" in text
    opencv = all(cv2.resize(ramp[n], (m, 1), interpolation=cv2.INTER_NEAREST)[0].tolist()
                 == torch_picks(n, m, "nearest") for n, m in pairs)
    assert opencv and "opencv INTER_NEAREST picks as nearest on all" in text


# ------------------------------------------------------------------------------------------ Burn's panic
def test_burn_panic_quotes_the_knowledge_base_and_the_measured_fixes():
    s = SCENARIOS["burn-panic"]
    record = load().record("burn-tch-nearest-exact-backward")
    assert f"“{record.error_text}”" in s.explanation and record.source in s.explanation
    assert s.changes["backend"] == "burn-tch" and s.changes["mode"] == "nearest-exact" and s.changes["training"]
    image = test_image(s.changes["image"])
    fixes = explorer.suggest_fixes(nchw(image).astype(np.float32), mode="nearest-exact", backend="burn-tch",
                                   training=True, scale_factor=s.changes["scale"])
    assert fixes[0].exact and str(fixes[0]) in s.explanation
    for k, fix in enumerate(fixes[:3], 1):
        assert f"({k}) {fix}" in s.explanation
    assert explorer.diagnose(record.error_text).matched  # the quoted text is what diagnose recognises


# ------------------------------------------------------------------------------------------ Pillow -> OpenCV/TF
@pytest.mark.oracle
def test_porting_pillow_numbers_hold_for_the_real_libraries():
    PIL = pytest.importorskip("PIL.Image")
    cv2 = pytest.importorskip("cv2")
    tf = pytest.importorskip("tensorflow")
    text = SCENARIOS["porting-pillow"].explanation
    photo = test_image("photo")
    h, w = photo.shape[0] // 2, photo.shape[1] // 2
    pillow = np.stack([np.asarray(PIL.fromarray(photo[:, :, c], mode="F").resize((w, h), PIL.Resampling.BICUBIC))
                       for c in range(3)], axis=-1).astype(np.float64)

    def psnr(y):
        return 10 * math.log10(1 / np.mean((np.asarray(y, np.float64) - pillow) ** 2))

    opencv = {flag: psnr(cv2.resize(photo, (w, h), interpolation=getattr(cv2, flag)))
              for flag in ("INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4")}
    assert says(text, opencv["INTER_CUBIC"], 0.06)
    assert says(text, psnr(tf.image.resize(photo, (h, w), method="bicubic").numpy()), 0.06)
    best = max(opencv.values())
    assert says(text, best, 0.06) and all(m in text for m, v in opencv.items() if best - v < 0.01)
    gap = np.abs(tf.image.resize(photo, (h, w), method="bicubic", antialias=True).numpy() - pillow).max()
    assert gap < 1e-5 and "TensorFlow matches Pillow with antialias=True" in text

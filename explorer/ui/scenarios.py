"""Lessons in one click: each sets the explorer's state and explains what it shows, with numbers computed by
the engine when the lesson is first opened (never typed in).

``changes`` is what ``app.set(**changes)`` receives; ``explanation`` is a short lesson.

>>> sorted(SCENARIOS)[:3]
['aliasing', 'antialias', 'burn-panic']
>>> SCENARIOS["aliasing"].changes["scale"]
0.25
>>> "false contrast" in SCENARIOS["aliasing"].explanation
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..advisor.knowledge import load
from ..advisor.quality import zone_plate_figures
from ..conventions.image_resize import ImageResize
from ..conventions.library_resize import library_resize, library_resize_transpose
from ..conventions.mode_names import spelling_key
from ..conventions.registry import all_libraries
from ..conventions.libraries.pytorch import interpolate
from ..images import test_image
from .compute.backends import compute_backends
from .compute.libraries import compute_libraries


@dataclass(frozen=True)
class Step:
    """A lesson as steps: what to ``look`` at first, what to change ``now`` (in words, and as ``now_changes``
    for ``app.set``), then what happened (the lesson's explanation)."""

    look: str
    now: str
    now_changes: dict


@dataclass(frozen=True)
class Scenario:
    """A lesson: ``changes`` for ``app.set(**changes)``, a short ``explanation`` of what they show and its
    ``steps``."""

    name: str
    title: str
    explanation: str
    changes: dict
    steps: Step | None = None


#: name -> (title, changes, the function that writes the explanation from computed numbers), in menu order.
LESSONS: dict = {}
#: name -> the lesson's :class:`Step`
STEPS: dict = {}


def lesson(name: str, title: str, steps: Step | None = None, **changes):
    """Register the decorated function as the explanation of lesson ``name``."""
    def register(explain):
        LESSONS[name] = (title, changes, explain)
        if steps is not None:
            STEPS[name] = steps
        return explain
    return register


class Scenarios(Mapping):
    """name -> :class:`Scenario`; a lesson's numbers are computed the first time it is read."""

    def __getitem__(self, name) -> Scenario:
        if name not in LESSONS:
            from ..errors import choice_error

            raise choice_error("scenario", name, LESSONS)
        return _scenario(name)

    def __iter__(self):
        return iter(LESSONS)

    def __len__(self):
        return len(LESSONS)


@cache
def _scenario(name) -> Scenario:
    title, changes, explain = LESSONS[name]
    return Scenario(name, title, explain(), dict(changes), STEPS.get(name))


SCENARIOS = Scenarios()


def scenarios() -> dict:
    """Every lesson, name -> :class:`Scenario` (``explorer.scenarios()``)."""
    return {name: SCENARIOS[name] for name in SCENARIOS}


# ------------------------------------------------------------------------------------------ shared measurements
ZONE = {"image": "zone_plate", "scale": 0.25, "size": None, "align_corners": False,
        "modes": ("nearest", "bilinear", "bicubic"), "reference": "lanczos", "library": "torch",
        # the zoom on fine rings near the top edge (about 0.3 cycle per input pixel): where the aliasing is,
        # not the centre, the one region without any
        "crop": (0.0625, 0.4375, 0.1875, 0.5625)}


def false_contrast(mode: str, scale: float, antialias: bool) -> float:
    """RMS contrast left on the zone plate beyond the output's limit, as a fraction of the rings' own
    (the square root of :func:`explorer.advisor.quality.zone_plate_figures`' aliasing energy)."""
    return math.sqrt(zone_plate_figures(ImageResize(mode, scale=scale, antialias=antialias))["aliasing"])


def taps_per_axis(mode: str, n: int, scale: float, antialias: bool) -> int:
    """The most input samples any output sample reads along one axis of ``n`` samples."""
    weights = ImageResize(mode, scale=scale, antialias=antialias).plan(n).band.dense()
    return int((weights != 0).sum(axis=1).max())


def coverage(mode: str, shape, scale: float, align_corners: bool = False, border: int = 4) -> np.ndarray:
    """``Wᵀ·1`` over the interior of an image of ``shape``: the gradient of sum(y) each input receives."""
    r = ImageResize(mode, scale=scale, align_corners=align_corners)
    h, w = r.output_size(shape)
    cov = r.transpose(np.ones((h, w, 1), np.float32), tuple(shape[:2]) + (1,))[:, :, 0]
    return cov[border:-border, border:-border]


def nearest_picks(n: int, m: int, mode: str) -> list:
    """The input index each of ``m`` outputs copies, for PyTorch's ``mode``."""
    return interpolate(np.arange(n, dtype=np.float32)[None, None], size=m, mode=mode)[0, 0].astype(int).tolist()


def library_picks(library: str, mode: str, n: int, m: int) -> list:
    """The input index each of ``m`` outputs copies, for ``library``'s own nearest ``mode``."""
    x = np.arange(n, dtype=np.float32)[None, None]
    return library_resize(x, (1, m), library=library, mode=mode).ravel().astype(int).tolist()


def along_ring(output: np.ndarray, n: int, radius: float) -> np.ndarray:
    """An (h, w) output of a resized ``n`` x ``n`` image of a circle of ``radius`` centred in the image, read
    once per degree along the circle with bilinear interpolation."""
    m = output.shape[0]
    theta = np.radians(np.arange(360))
    centre, f = (n - 1) / 2, n / m
    ys, xs = ((centre + radius * trig(theta) + 0.5) / f - 0.5 for trig in (np.sin, np.cos))
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    fy, fx = ys - y0, xs - x0
    return (output[y0, x0] * (1 - fy) * (1 - fx) + output[y0, x0 + 1] * (1 - fy) * fx
            + output[y0 + 1, x0] * fy * (1 - fx) + output[y0 + 1, x0 + 1] * fy * fx)


def ring_radius(circle: np.ndarray) -> float:
    """The radius of a thin circle centred in a square (H, W) image: the brightness-weighted mean distance."""
    n = circle.shape[0]
    i = np.arange(n) - (n - 1) / 2
    r = np.sqrt(i[:, None] ** 2 + i[None, :] ** 2)
    return float((r * circle).sum() / circle.sum())


def inputs_read(library: str, mode: str, options: dict, n: int, m: int) -> float:
    """The share of an ``n`` x ``n`` input's pixels that some output of the ``m`` x ``m`` resize reads."""
    reads = library_resize_transpose(np.ones((1, m, m), np.float32), (1, n, n), (m, m), library=library,
                                     mode=mode, axes=(1, 2), **options)
    return float(np.mean(reads != 0))


# ------------------------------------------------------------------------------------------------ the lessons
@lesson("aliasing", "Aliasing: a zone plate shrunk 4× without antialias", steps=Step(
        "the zoom row: in the orange box near the top edge the reference is flat grey, while nearest, bilinear "
        "and bicubic draw coarse rings that are not in the input", "tick antialias", {"antialias": True}),
        tab="modes", antialias=False, **ZONE)
def _aliasing() -> str:
    n, b, c = (false_contrast(m, 0.25, False) for m in ZONE["modes"])
    taps = [taps_per_axis(m, 256, 0.25, False) for m in ZONE["modes"]]
    b_aa = false_contrast("bilinear", 0.25, True)
    return (
        "The zone plate's rings get finer towards its edge. Shrunk 4×, the output holds only frequencies up to "
        "⅛ cycle per input pixel, reached a quarter of the way out: beyond that, every ring should become flat "
        f"grey. Without antialias, nearest, bilinear and bicubic read {taps[0]}, {taps[1]} and {taps[2]} input "
        "pixels per output along each axis, whatever the factor, and fold the fine rings back as false, coarser "
        f"rings: the false contrast left beyond the limit is {n:.2f}, {b:.2f} and {c:.2f} of the rings' own "
        f"(ideal 0). Turn antialias on and bilinear's drops to {b_aa:.2f}.")


@lesson("antialias", "Antialias: the same zone plate, filtered", steps=Step(
        "the zoom row: bilinear and bicubic are now flat grey like the reference, nearest still draws rings",
        "untick antialias", {"antialias": False}), tab="modes", antialias=True, **ZONE)
def _antialias() -> str:
    b, c = (false_contrast(m, 0.25, False) for m in ("bilinear", "bicubic"))
    b_aa, c_aa = (false_contrast(m, 0.25, True) for m in ("bilinear", "bicubic"))
    n = false_contrast("nearest", 0.25, True)
    taps = taps_per_axis("bilinear", 256, 0.25, True)
    sharp, sharp_aa = (zone_plate_figures(ImageResize("bilinear", scale=0.25, antialias=aa))["sharpness"]
                       for aa in (False, True))
    return (
        "With antialias=True PyTorch stretches the kernel by the shrink factor: bilinear reads "
        f"{taps} input pixels per output along each axis instead of 2, so every pixel under an output pixel "
        f"counts. The false contrast beyond the output's limit drops from {b:.2f} to {b_aa:.2f} for bilinear "
        f"and from {c:.2f} to {c_aa:.2f} for bicubic. The price is softness just below the limit: bilinear "
        f"keeps {sharp_aa:.2f} of the rings' contrast there, against {sharp:.2f} without antialias. nearest "
        f"has no antialias in PyTorch and keeps its {n:.2f}.")


CIRCLE_LIBRARIES = ("pillow", "torch", "tensorflow", "jax", "opencv")


@lesson("clean-fid", "The Clean-FID circle: 128 → 16 in each library, at its own defaults", steps=Step(
        "the outputs and the zoom: Pillow's and JAX's ring is faint but unbroken, PyTorch's, TensorFlow's and "
        "OpenCV's is bright dots with gaps", "tick 'same options' and antialias (every library that has it "
        "antialiases, like Pillow)", {"same_options": True, "antialias": True}), tab="libraries",
        image="circle", scale=0.125, size=None, mode="bicubic", libraries=CIRCLE_LIBRARIES, same_options=False,
        align_corners=False, antialias=False, crop=(0.0, 0.0, 0.5, 0.5))  # the zoom on a quarter of the ring
def _clean_fid() -> str:
    circle = test_image("circle")
    n, radius = circle.shape[0], ring_radius(circle[:, :, 0])
    data = compute_libraries(circle, "bicubic", CIRCLE_LIBRARIES, scale=0.125, training=False)
    m = data.outputs["pillow"].shape[0]
    level = along_ring(data.outputs["pillow"][:, :, 0], n, radius).mean()
    gaps = {lib: float(np.mean(along_ring(y[:, :, 0], n, radius) < 0.25 * level)) for lib, y in data.outputs.items()}
    read = {lib: inputs_read(lib, *data.calls[lib], n, m) for lib in CIRCLE_LIBRARIES}
    names = ", ".join(f"{lib} {data.calls[lib][0]}" for lib in CIRCLE_LIBRARIES)
    psnr = {lib: data.metrics[lib]["psnr"] for lib in CIRCLE_LIBRARIES}
    taps = taps_per_axis("bicubic", n, 0.125, False)
    return (
        "Parmar, Zhang and Zhu (Clean-FID, CVPR 2022) shrink a one-pixel circle 8×. Asked for bicubic, each "
        f"library runs its own call at its own defaults ({names}). Pillow and JAX antialias by default: they "
        f"read {read['pillow']:.0%} of the input pixels and keep an even, faint ring, dark along "
        f"{gaps['pillow']:.0%} of its path (JAX is within {data.metrics['jax']['max_abs']:.0e} of Pillow). "
        f"PyTorch, TensorFlow and OpenCV read {taps}×{taps} pixels per output, {read['torch']:.0%} of the "
        "input: most of the line is never looked at and the ring falls "
        f"apart into dots, dark (under a quarter of Pillow's ring) along {gaps['torch']:.0%}, "
        f"{gaps['tensorflow']:.0%} and {gaps['opencv']:.0%} of its path ({psnr['torch']:.1f}, "
        f"{psnr['tensorflow']:.1f} and {psnr['opencv']:.1f} dB from Pillow's result). The paper found the same "
        "split in FID: a metric computed on differently resized images measures the resize.")


@lesson("checkerboard", "Checkerboard gradients: upsampling ×1.5 (×2 stays even)", steps=Step(
        "the dL/dx row: nearest's gradient is a fine checkerboard over the whole image, bilinear's one even "
        "colour", "set the scale to 2", {"scale": 2.0}), tab="gradients",
        image="photo", scale=1.5, size=None, upstream="ones", modes=("nearest", "nearest-exact", "bilinear"),
        align_corners=False, antialias=False, library="torch")
def _checkerboard() -> str:
    shape = test_image("photo").shape
    near = coverage("nearest", shape, 1.5)
    values = ", ".join(f"{v:g}" for v in np.unique(near))
    bilinear, ac = coverage("bilinear", shape, 1.5), coverage("bilinear", shape, 1.5, align_corners=True)
    even = max(float(c.max() / c.min()) for c in (coverage(m, shape, 2.0) for m in ("nearest", "bilinear",
                                                                                      "bicubic")))
    return (
        "With an upstream gradient of ones, each input pixel receives the sum of the weights it was read with "
        f"(Wᵀ·1). Upsampling ×1.5, nearest copies some inputs once and others twice along each axis, so in 2-D "
        f"they receive {values}: a fixed checkerboard, {near.max() / near.min():.0f}× from the weakest to the "
        f"strongest. Half-pixel bilinear spreads ×1.5 evenly ({bilinear.min():.2f} everywhere); with "
        "align_corners=True its step becomes (n−1)/(m−1) and the pattern returns "
        f"({ac.min():.2f} to {ac.max():.2f}). At ×2 nearest, bilinear and bicubic are even away from the border "
        f"(largest ratio {even:.2f}): uneven gradients come from non-integer factors, like the checkerboard of "
        "strided transposed convolutions (Odena, Dumoulin and Olah, Distill 2016).")


@lesson("nearest-tables", "nearest vs nearest-exact: which pixel each output copies", steps=Step(
        "the top plot: the input sample each of nearest's 4 outputs copies, left of its centre",
        "choose mode nearest-exact", {"mode": "nearest-exact"}), tab="kernels",
        mode="nearest", modes=("nearest", "nearest-exact"), length=8, sample=None, scale=0.5, size=None,
        align_corners=False, antialias=False, library="torch")
def _nearest_tables() -> str:
    pairs = [(n, m) for n in range(1, 17) for m in range(1, 17)]
    agree = [(n, m) for n, m in pairs if nearest_picks(n, m, "nearest") == nearest_picks(n, m, "nearest-exact")]
    multiples = [(n, m) for n, m in pairs if m % n == 0]
    return (
        "PyTorch's nearest copies input floor(i·n/m); nearest-exact copies floor((i+½)·n/m), the pixel under "
        f"the output's centre. Shrinking 8 → 4, nearest picks {nearest_picks(8, 4, 'nearest')} and "
        f"nearest-exact {nearest_picks(8, 4, 'nearest-exact')}: nearest drifts half an output pixel towards "
        f"the top-left. 5 → 3: {nearest_picks(5, 3, 'nearest')} against {nearest_picks(5, 3, 'nearest-exact')}. "
        f"Of the {len(pairs)} size pairs up to 16 the two agree on {len(agree)}, "
        f"{'exactly the' if set(agree) == set(multiples) else 'not only the'} integer upscales (m a multiple "
        f"of n): a test at factor 2 cannot tell them apart. Each library's own 'nearest', on the same pairs: "
        f"{_nearest_words(pairs)}.")


def _nearest_words(pairs) -> str:
    """What each library's mode spelled 'nearest' picks, against PyTorch's two rules, on ``pairs``."""
    words = []
    for lib, modes in ((rules.id, rules.mode_names) for rules in all_libraries()):
        native = next((m for m in modes if spelling_key(m) == "nearest"), None)
        if native is None or lib == "torch":
            continue
        picks = [library_picks(lib, native, n, m) for n, m in pairs]
        same = {rule: sum(p == nearest_picks(n, m, rule) for p, (n, m) in zip(picks, pairs))
                for rule in ("nearest", "nearest-exact")}
        rule = max(same, key=same.get)
        agreement = "all" if same[rule] == len(pairs) else f"{same[rule]} of {len(pairs)}"
        words.append(f"{lib} {native} picks as {rule} on {agreement}")
    return "; ".join(words)


@lesson("burn-panic", "Burn's NearestExact panics in training on burn-tch: the fixes, measured", steps=Step(
        "the grid: nearest-exact fails in training, and the fixes below it, ranked by their measured effect",
        "untick training", {"training": False}),
        tab="backends", image="photo", backend="burn-tch", version=None, device=None, mode="nearest-exact",
        training=True, scale=0.75, size=None, align_corners=False, antialias=False)
def _burn_panic() -> str:
    record = load().record("burn-tch-nearest-exact-backward")
    data = compute_backends(["nearest-exact"], "burn-tch", training=True, mode="nearest-exact",
                            image=test_image("photo"), scale=0.75)
    fixes = "; ".join(f"({k}) {fix}" for k, fix in enumerate(data.fixes[:3], 1))
    return (
        f"Burn's LibTorch backend: {record.message} The panic reads “{record.error_text}” "
        f"(source: {record.source}). The fixes, ranked by their effect measured on this image at 0.75×: {fixes}.")


@lesson("porting-pillow", "Porting from Pillow to OpenCV or TensorFlow: bicubic shrinks differently", steps=Step(
        "the difference row: OpenCV and TensorFlow differ from Pillow along every edge",
        "tick 'same options' and antialias", {"same_options": True, "antialias": True}),
        tab="libraries", image="photo", scale=0.5, size=None, mode="bicubic",
        libraries=("pillow", "opencv", "tensorflow"), same_options=False, align_corners=False, antialias=False)
def _porting_pillow() -> str:
    photo = test_image("photo")
    data = compute_libraries(photo, "bicubic", ("pillow", "opencv", "tensorflow"), scale=0.5, training=False)
    size, planes = data.outputs["pillow"].shape[:2], np.ascontiguousarray(np.moveaxis(photo, 2, 0))
    tf_aa = np.moveaxis(library_resize(planes, size, library="tensorflow", mode="bicubic", axes=(1, 2),
                                       antialias=True), 0, 2)
    tf_gap = float(np.abs(tf_aa - data.outputs["pillow"]).max())
    opencv = {mode: compute_psnr(data.outputs["pillow"], np.moveaxis(
        library_resize(planes, size, library="opencv", mode=mode, axes=(1, 2)), 0, 2))
        for mode in ("INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4")}
    best = max(opencv.values())
    closest = " and ".join(mode for mode, psnr in opencv.items() if best - psnr < 0.01)
    m = data.metrics
    return (
        "Pillow's Image.resize defaults to BICUBIC and always antialiases when shrinking. Called by the same "
        "name, OpenCV's INTER_CUBIC and TensorFlow's bicubic do not: at 0.5× on this photo they are "
        f"{m['opencv']['psnr']:.1f} and {m['tensorflow']['psnr']:.1f} dB from Pillow (largest difference "
        f"{m['opencv']['max_abs']:.2f} and {m['tensorflow']['max_abs']:.2f}). TensorFlow matches Pillow with "
        f"antialias=True (largest difference {tf_gap:.0e}). OpenCV has no antialiased cubic: of its modes "
        f"{closest} come{'s' if ' and ' not in closest else ''} closest, {best:.1f} dB from Pillow.")


def compute_psnr(reference: np.ndarray, output: np.ndarray) -> float:
    """PSNR in dB of ``output`` against ``reference`` (values in [0, 1])."""
    mse = float(np.mean((np.asarray(output, np.float64) - reference) ** 2))
    return float("inf") if mse == 0 else 10 * math.log10(1.0 / mse)

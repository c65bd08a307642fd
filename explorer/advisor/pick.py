"""``pick``: rank the resize modes for what you need, by figures measured on your image.

Say where the resize runs (target backends, and whether you train there), what the content is (photos, label
masks, feature maps) and what matters (``PRIORITIES``); every candidate mode is run by the engine on the image
and on a zone plate (:mod:`explorer.advisor.quality`), each figure becomes a goodness in [0, 1] (:data:`GOODNESS`),
and the score is their weighted mean: weight 1 for what matters, 0.2 for the rest (:func:`weights`).  A candidate
is excluded when a target backend cannot run it (``explorer.check`` reports an error) or, for label masks, when
it mixes values.

>>> from explorer.images import zone_plate
>>> p = pick(zone_plate(64), scale=0.25, priorities=("no_aliasing",))
>>> p.winner.label in ("bilinear, antialias", "bicubic, antialias", "lanczos", "area")
True
>>> [c.label for c in p.ranking][-1] in ("nearest", "nearest-exact")
True
>>> pick(zone_plate(32), scale=0.25, content="labels").winner.mode
'nearest-exact'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..conventions.image_resize import ImageResize, check_scale, check_size
from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError, brief, choice_error
from .findings import check as check_backend
from .knowledge import load
from .quality import measure
from .snippets import resize_code
from .question import Question

#: (mode, antialias) pairs considered, in PyTorch's names.
CANDIDATES = (("nearest", False), ("nearest-exact", False), ("bilinear", False), ("bilinear", True),
              ("bicubic", False), ("bicubic", True), ("area", False), ("lanczos", True))

PRIORITIES = {
    "no_aliasing": "little false contrast on the zone plate beyond the output's limit (1 - sqrt(aliasing))",
    "sharpness": "contrast kept in the upper passband of the zone plate",
    "no_overshoot": "output stays in the input's range (1 - overshoot / 10%)",
    "exact_gradients": "every input pixel gets gradient, evenly (coverage x uniformity)",
    "alignment": "content stays where it was (1 - misalignment / half an output pixel)",
    "speed": "few taps per output sample (log scale, relative to the cheapest candidate)",
}
#: what each priority is called on a screen (its id, e.g. ``no_aliasing``, is what code passes)
PRIORITY_LABELS = {"no_aliasing": "little aliasing", "sharpness": "sharpness", "no_overshoot": "no overshoot",
                   "exact_gradients": "even gradients", "alignment": "alignment", "speed": "speed"}
CONTENTS = {
    "photo": ("no_aliasing", "sharpness", "no_overshoot"),
    "labels": ("alignment", "no_aliasing"),
    "features": ("exact_gradients", "alignment", "no_aliasing"),
}
OTHER_WEIGHT = 0.2


@dataclass
class Candidate:
    mode: str
    antialias: bool
    figures: dict = field(default_factory=dict)
    goodness: dict = field(default_factory=dict)
    score: float = float("nan")
    excluded: str | None = None
    support: dict = field(default_factory=dict)  # backend -> (status, [messages])

    @property
    def label(self) -> str:
        if self.mode == "lanczos":
            return "lanczos"
        return f"{self.mode}, antialias" if self.antialias else self.mode


@dataclass
class Pick:
    """The ranking (best first; excluded candidates last), the winner, why it wins, and its code."""

    ranking: list
    winner: Candidate | None
    why: str
    code: dict
    priorities: tuple
    content: str
    targets: tuple
    training: bool
    weights: dict = field(default_factory=dict)  # criterion -> its weight in the score (see weights())

    def table(self) -> str:
        cols = ("aliasing", "sharpness", "overshoot", "coverage", "uniformity", "misalignment", "taps")
        head = f"{'mode':22s} {'score':>6s} " + " ".join(f"{c[:9]:>9s}" for c in cols)
        lines = [head]
        for c in self.ranking:
            figs = " ".join(f"{c.figures.get(k, float('nan')):9.3g}" for k in cols)
            score = f"{c.score:6.3f}" if c.excluded is None else "  --  "
            line = f"{c.label:22s} {score} {figs}"
            if c.excluded:
                line += f"  excluded: {c.excluded}"
            lines.append(line)
        return "\n".join(lines)

    def __str__(self):
        text = self.table() + "\n\n" + self.why
        for fw, code in self.code.items():
            text += f"\n\n# {fw}\n{code}"
        return text


def measure_candidates(image, *, scale=None, size=None, align_corners=False) -> dict:
    """The figures of every candidate of :data:`CANDIDATES` on ``image``: ``{(mode, antialias): figures}``,
    or the exception when the resize is impossible.  :func:`pick` calls it; pass its result back as
    ``measured`` to rank the same candidates for other needs without measuring again."""
    out = {}
    for mode, aa in CANDIDATES:
        r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=aa)
        try:
            out[(mode, aa)] = measure(r, image)
        except Exception as exc:  # noqa: BLE001 - an impossible configuration is excluded, with the reason
            out[(mode, aa)] = exc
    return out


def pick(image=None, *, scale=None, size=None, targets=("torch",), training=True, content="photo",
         priorities=None, frameworks=("torch",), align_corners=False, version=None, device=None,
         measured=None) -> Pick:
    """Rank :data:`CANDIDATES` for resizing ``image`` (default: a 256 x 256 zone plate) by ``scale`` or to
    ``size``.  ``priorities`` defaults to the content's (:data:`CONTENTS`); ``targets`` are backend ids of
    :func:`explorer.backends` (checked with :func:`explorer.check`);
    ``frameworks`` get the winner's code; ``measured`` is :func:`measure_candidates` of the same image and
    resize, when already known."""
    image, scale, size = _resize_arguments(image, scale, size)
    priorities = _priorities(content, priorities)
    targets, frameworks = _as_tuple(targets), _as_tuple(frameworks)
    training = validate.strict_bool(training, "training")
    kb = load()
    targets = tuple(kb.backend(t).id if isinstance(t, str) else _not_a_backend(t) for t in targets)
    if measured is None:
        measured = measure_candidates(image, scale=scale, size=size, align_corners=align_corners)
    candidates = []
    for mode, aa in CANDIDATES:
        figures, support = measured[(mode, aa)], {}
        if not isinstance(figures, Exception):
            r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=aa)
            support = {b: _support(check_backend, r, image.shape, b, training, version, device) for b in targets}
        candidates.append(candidate(mode, aa, figures, content, support))
    used = weights(priorities, training)
    score(candidates, used)
    ranking = sorted(candidates, key=lambda c: (c.excluded is not None, -np.nan_to_num(c.score, nan=-1.0)))
    winner = ranking[0] if ranking and ranking[0].excluded is None else None
    why = _explain(ranking, priorities, content, scale, size, image.shape)
    code = _code(winner, frameworks, scale, size, align_corners, image.shape, check_backend) if winner else {}
    return Pick(ranking, winner, why, code, priorities, content, targets, training, used)


def _resize_arguments(image, scale, size):
    """``(image, scale, size)`` checked: a 256 x 256 zone plate and scale 0.5 when not given."""
    from ..images import as_image, zone_plate

    image = zone_plate(256) if image is None else as_image(image)
    if scale is not None and size is not None:
        raise ArgumentValueError("give scale or size, not both")
    if scale is None and size is None:
        scale = 0.5
    return image, (check_scale(scale) if scale is not None else None), (check_size(size) if size is not None else None)


def _priorities(content, priorities) -> tuple:
    """The criteria that matter: the content's (:data:`CONTENTS`) unless given; each checked."""
    if content not in CONTENTS:
        raise choice_error("content", content, CONTENTS)
    priorities = tuple(CONTENTS[content] if priorities is None else _as_tuple(priorities))
    for p in priorities:
        if p not in PRIORITIES:
            raise choice_error("priorities", p, PRIORITIES)
    return priorities


def weights(priorities, training=True) -> dict:
    """criterion -> weight in the score: 1 for what matters, :data:`OTHER_WEIGHT` for the rest; gradients
    weigh nothing when not training, unless they matter.

    >>> weights(("no_aliasing",), training=False)["exact_gradients"], weights(("no_aliasing",))["speed"]
    (0.0, 0.2)
    """
    out = {k: (1.0 if k in priorities else OTHER_WEIGHT) for k in PRIORITIES}
    if not training and "exact_gradients" not in priorities:
        out["exact_gradients"] = 0.0
    return out


def candidate(mode, antialias, figures, content="photo", support=None) -> Candidate:
    """One :class:`Candidate` with its measured ``figures`` (or the exception that made it impossible),
    excluded when it mixes label values or a target backend reports an error (``support``: backend ->
    ``(status, messages)``)."""
    c = Candidate(mode, antialias, support=dict(support or {}))
    if isinstance(figures, Exception):
        c.excluded = str(figures)
        return c
    c.figures = dict(figures)
    if content == "labels" and not c.figures["keeps_values"]:
        c.excluded = "mixes label values (an output is a weighted mean of several inputs)"
    for backend, (status, messages) in c.support.items():
        if status == "error" and c.excluded is None:
            c.excluded = f"{backend}: {messages[0] if messages else 'not supported'}"
    return c


def _speed(figures, taps):
    lo, hi = (math.log(t) for t in taps)
    return 1.0 - (math.log(figures["taps"]) - lo) / (hi - lo) if hi > lo else 1.0


#: How each measured figure becomes a goodness in [0, 1] (1 best); ``taps`` holds the fewest and the most
#: taps among the candidates, for the log-scaled speed.  ``aliasing`` is an energy and ``sharpness`` an
#: amplitude (both relative to the zone plate's contrast): the square root puts aliasing in sharpness's unit,
#: the false contrast left beyond the output's limit.  Downscaling by 2, plain bilinear keeps 0.87 of the
#: contrast but adds 0.52 of false contrast (aliasing energy 0.27); antialiased bilinear keeps 0.67 and adds
#: 0.16 (energy 0.026): it ranks first, as a user expects.
GOODNESS = {
    "no_aliasing": lambda f, taps: 1.0 - math.sqrt(f["aliasing"]),
    "sharpness": lambda f, taps: f["sharpness"],
    "no_overshoot": lambda f, taps: 1.0 - min(1.0, f["overshoot"] / 0.1),
    "exact_gradients": lambda f, taps: f["coverage"] * f["uniformity"],
    "alignment": lambda f, taps: 1.0 - min(1.0, f["misalignment"] / 0.5),
    "speed": _speed,
}


def score(candidates, used: dict) -> None:
    """Fill in the goodness of every measured candidate and its score, the ``used``-weighted mean."""
    live = [c for c in candidates if c.figures]
    taps = [c.figures["taps"] for c in live] or [1.0]
    extremes = (min(taps), max(taps))
    for c in live:
        c.goodness = {k: GOODNESS[k](c.figures, extremes) for k in PRIORITIES}
        c.score = sum(used[k] * c.goodness[k] for k in c.goodness) / sum(used.values())


def _not_a_backend(value):
    raise ArgumentTypeError(f"targets must hold backend ids such as 'torch' (see explorer.backends()), got "
                            f"{brief(value)}")


def _as_tuple(value):
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _support(check, resize: ImageResize, shape, backend, training, version, device):
    """(status, messages) of one candidate on one backend: error / differs / warning / ok / unknown."""
    opts = resize.options()
    try:
        findings = check(mode=resize.mode, backend=backend, training=training, version=version, device=device,
                         align_corners=opts.get("align_corners"), antialias=opts.get("antialias", False),
                         input_size=tuple(shape[:2]), output_size=resize.output_size(shape))
    except Exception as exc:  # noqa: BLE001 - e.g. an unknown backend id: say so on the candidate
        return "error", [str(exc)]
    order = ("error", "differs", "warning")
    for level in order:
        hits = [f.message for f in findings if f.severity == level]
        if hits:
            return level, hits
    return "ok", []


def _explain(ranking, priorities, content, scale, size, shape) -> str:
    live = [c for c in ranking if c.excluded is None]
    what = f"scale {scale:g}" if scale is not None else f"size {size[0]}x{size[1]}"
    if not live:
        return f"No candidate qualifies for {content} at {what}: " + "; ".join(
            f"{c.label}: {c.excluded}" for c in ranking)
    win = live[0]
    text = (f"{win.label} wins for {content} at {what} (score {win.score:.3f}; what matters: "
            f"{', '.join(priorities)}).")
    if len(live) > 1:
        second = live[1]
        better = sorted(((win.goodness[k] - second.goodness[k], k) for k in win.goodness), reverse=True)
        reasons = [f"{k} {win.goodness[k]:.2f} vs {second.goodness[k]:.2f}" for d, k in better
                   if d > 0.02 and (k in priorities or d > 0.2)][:3]
        worse = [f"{k} {win.goodness[k]:.2f} vs {second.goodness[k]:.2f}" for d, k in better[::-1]
                 if d < -0.02][:2]
        text += f"  Against the runner-up, {second.label} ({second.score:.3f}): "
        text += ("better on " + "; ".join(reasons)) if reasons else "nearly tied"
        if worse:
            text += "; worse on " + "; ".join(worse)
        text += "."
    reasons = {}
    for c in ranking:
        if c.excluded is not None:
            reasons.setdefault(c.excluded, []).append(c.label)
    if reasons:
        text += "  Excluded: " + "; ".join(f"{', '.join(labels)} ({why})" for why, labels in reasons.items()) + "."
    return text


def _code(winner: Candidate, frameworks, scale, size, align_corners, shape, check) -> dict:
    """The winner's call in each framework: PyTorch's from the engine; the others from the advisor's code
    writer, preceded by the advisor's errors and differences for that framework as comments."""
    r = ImageResize(winner.mode, scale=scale, size=size, align_corners=align_corners, antialias=winner.antialias)
    out_size = r.output_size(shape)
    code = {}
    for fw in frameworks:
        if fw == "torch":
            code[fw] = "import torch.nn.functional as F\ny = " + r.call("x")
            continue
        opts = r.options()
        try:
            setup = Question.of(mode=winner.mode, backend=fw, training=False,
                             align_corners=opts.get("align_corners"), antialias=opts.get("antialias", False))
            _, text = resize_code(setup, out_size)
            findings = check(mode=winner.mode, backend=fw, training=False, align_corners=opts.get("align_corners"),
                             antialias=opts.get("antialias", False), input_size=tuple(shape[:2]),
                             output_size=out_size)
            caveats = [f"# {f.severity}: {f.message}" for f in findings if f.severity in ("error", "differs")]
            code[fw] = "\n".join(caveats + [text])
        except Exception as exc:  # noqa: BLE001 - a framework without this mode: say so
            code[fw] = f"# {fw}: {exc}"
    return code

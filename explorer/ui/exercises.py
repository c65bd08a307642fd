"""Exercises for the teaching notebooks, each answer checked by the engine (never against a typed-in key).

A notebook cell writes an answer and calls :func:`check`; the engine computes the right one for the same
question and says whether the answer matches, or what to look at.  ``check(name, None)`` only asks.

>>> check("nearest-7-to-3", [0, 2, 4]).correct
True
>>> check("nearest-7-to-3", [1, 3, 5]).correct
False
>>> check("nearest-7-to-3", None).correct is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Exercise:
    """``question``: what is asked; ``solve()``: the engine's answer; ``hint``: what to look at when wrong;
    ``same(answer, solution)``: whether an answer is right (default: equal after normalising)."""

    question: str
    solve: object
    hint: str
    same: object = None


@dataclass(frozen=True)
class Verdict:
    name: str
    correct: bool | None
    text: str

    def __repr__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        mark = {True: "✅", False: "❌", None: "✏️"}[self.correct]
        return f"{mark} {self.text}"


def _picks(n, m, mode):
    from ..conventions.libraries.pytorch import interpolate

    return interpolate(np.arange(n, dtype=np.float32)[None, None], size=m, mode=mode)[0, 0].astype(int).tolist()


def _dead_inputs(n, scale, mode):
    from ..conventions.image_resize import ImageResize

    r = ImageResize(mode, scale=scale)
    h, w = r.output_size((n, n))
    cov = r.transpose(np.ones((h, w, 1), np.float32), (n, n, 1))
    return int((cov == 0).sum())


def _coverage_values(n, scale, mode):
    from ..conventions.image_resize import ImageResize

    r = ImageResize(mode, scale=scale)
    h, w = r.output_size((n, n))
    cov = r.transpose(np.ones((h, w, 1), np.float32), (n, n, 1))[4:-4, 4:-4, 0]
    return sorted({float(v) for v in np.unique(cov)})


def _closest_opencv_mode():
    from ..conventions.library_resize import library_resize
    from ..images import test_image

    photo = np.ascontiguousarray(np.moveaxis(test_image("photo"), 2, 0))
    size = (photo.shape[1] // 2, photo.shape[2] // 2)
    pillow = library_resize(photo, size, library="pillow", mode="BICUBIC", axes=(1, 2))
    errors = {mode: float(np.mean((library_resize(photo, size, library="opencv", mode=mode, axes=(1, 2))
                                   - pillow) ** 2))
              for mode in ("INTER_NEAREST", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4")}
    return min(errors, key=errors.get)


def _fails(mode, backend, device, use, antialias=False, version=None, export=None):
    import explorer

    findings = explorer.check(mode=mode, backend=backend, device=device, training=use == "backward",
                              antialias=antialias, version=version, export=export)
    operation = "backward" if use == "backward" else "forward"
    return any(f.severity == "error" and f.operation == operation for f in findings)


def _step_by_size(n, scale, mode="bilinear"):
    """The step (input samples per output) when ``scale`` is turned into an output size, as Burn's import does:
    ``n / output_size``, rounded to 3 decimals."""
    from .compute.kernels import compute_kernels

    m = compute_kernels(mode, [], n=n, scale=scale).m
    return round(compute_kernels(mode, [], n=n, size=(m, m), image_length=n).step, 3)


EXERCISES = {
    "nearest-7-to-3": Exercise(
        "Shrinking 7 samples to 3, which input index does each output of PyTorch's `nearest` copy? "
        "(a list of 3 indices)", lambda: _picks(7, 3, "nearest"),
        "nearest copies input floor(i·n/m) for output i"),
    "nearest-exact-7-to-3": Exercise(
        "Same question for `nearest-exact` (a list of 3 indices)", lambda: _picks(7, 3, "nearest-exact"),
        "nearest-exact copies the input under the output's centre, floor((i+½)·n/m)"),
    "dead-pixels-nearest-half": Exercise(
        "A 16×16 input shrunk to 8×8 with `nearest`: how many input pixels never receive a gradient?",
        lambda: _dead_inputs(16, 0.5, "nearest"), "nearest reads one input per output: count the rest"),
    "checkerboard-values": Exercise(
        "Upsampling ×1.5 with `nearest` and an upstream gradient of ones: which values does the interior of "
        "the input gradient take? (a list, smallest first)", lambda: _coverage_values(40, 1.5, "nearest"),
        "along one axis each input is copied once or twice; in 2-D the counts multiply",
        lambda a, s: sorted(float(v) for v in a) == s),
    "closest-opencv-to-pillow": Exercise(
        "Which OpenCV interpolation flag comes closest to Pillow's BICUBIC when halving the photo? "
        "(e.g. 'INTER_CUBIC')", _closest_opencv_mode,
        "measure it: the mean squared difference of each flag's output from Pillow's, with explorer.library_resize",
        lambda a, s: str(a).strip().upper() == s),
    "mps-antialias-backward": Exercise(
        "Does bicubic with antialias=True fail in training on PyTorch's MPS device (in the newest release "
        "the knowledge base knows)? (True or False)",
        lambda: _fails("bicubic", "torch", "mps", "backward", antialias=True),
        "ask explorer.check(mode='bicubic', backend='torch', device='mps', training=True, antialias=True)",
        lambda a, s: bool(a) is s),
    "mps-nearest-forward": Exercise(
        "Does plain `nearest` fail in the forward pass on PyTorch's MPS device? (True or False)",
        lambda: _fails("nearest", "torch", "mps", "forward"), "ask explorer.check for the forward pass",
        lambda a, s: bool(a) is s),
    "burn-antialias-import": Exercise(
        "Does Burn 0.20.1 give an error for the encoder's antialiased bilinear resize imported from ONNX? "
        "(True or False)",
        lambda: _fails("bilinear", "burn-tch", None, "forward", antialias=True, version="0.20.1", export="onnx"),
        "ask explorer.check(mode='bilinear', backend='burn-tch', version='0.20.1', antialias=True, "
        "export='onnx'), or read the scan's findings of that node",
        lambda a, s: bool(a) is s),
    "burn-step-halving-45": Exercise(
        "The encoder halves a 45-row map by scale_factor=0.5: ONNX Runtime steps 1 / 0.5 = 2 input rows per "
        "output row. Burn's import turns the scale into an output size and steps input / output rows: what is "
        "its step? (a number, 3 decimals)", lambda: _step_by_size(45, 0.5),
        "the output has floor(45 · 0.5) rows; the step is 45 divided by that",
        lambda a, s: abs(float(a) - s) < 0.0015),
}


def check(name: str, answer) -> Verdict:
    """Whether ``answer`` to exercise ``name`` is what the engine computes; ``None``: the question only."""
    if name not in EXERCISES:
        from ..errors import choice_error

        raise choice_error("exercise", name, EXERCISES)
    ex = EXERCISES[name]
    if answer is None:
        return Verdict(name, None, f"{ex.question} — write your answer in `answer` and run the cell again.")
    solution = ex.solve()
    same = ex.same or (lambda a, s: list(a) == list(s) if isinstance(s, list) else a == s)
    try:
        right = bool(same(answer, solution))
    except (TypeError, ValueError):
        right = False
    if right:
        return Verdict(name, True, f"Right: {answer!r} is what the engine computes.")
    return Verdict(name, False, f"Not yet: {answer!r} is not what the engine computes. Hint: {ex.hint}.")


def solution(name: str):
    """The engine's answer to exercise ``name`` (for the notebooks' collapsed solutions and the tests)."""
    return EXERCISES[name].solve()

"""The notebooks' exercises: the engine's answer is accepted, a wrong one is not, and the answers are pinned by
the real libraries where one computes them."""

import nbformat
import numpy as np
import pytest
from pathlib import Path

from explorer.ui.exercises import EXERCISES, check, solution

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
TEACHING = ("tour_of_the_modes", "gradients", "backends_and_fixes", "porting_between_libraries",
            "scanning_a_model")
WRONG = {list: [0], int: -1, float: -1.0, str: "INTER_NOPE", bool: None}


@pytest.mark.parametrize("name", list(EXERCISES))
def test_the_engines_answer_is_right_and_another_is_not(name):
    right = solution(name)
    assert check(name, right).correct is True
    wrong = (not right) if isinstance(right, bool) else WRONG[type(right)]
    verdict = check(name, wrong)
    assert verdict.correct is False and "Hint:" in verdict.text
    assert check(name, None).correct is None and EXERCISES[name].question in check(name, None).text
    with pytest.raises(ValueError, match="exercise='nope' is not valid"):
        check("nope", 1)


@pytest.mark.oracle
def test_the_answers_are_what_the_libraries_compute():
    torch = pytest.importorskip("torch")
    cv2 = pytest.importorskip("cv2")
    PIL = pytest.importorskip("PIL.Image")
    x = torch.arange(7, dtype=torch.float32)[None, None]
    for mode in ("nearest", "nearest-exact"):
        picks = torch.nn.functional.interpolate(x, size=3, mode=mode)[0, 0].int().tolist()
        assert check(f"{mode}-7-to-3", picks).correct
    g = torch.zeros((1, 1, 40, 40), requires_grad=True)
    torch.nn.functional.interpolate(g, scale_factor=1.5, mode="nearest").sum().backward()
    assert check("checkerboard-values", sorted(set(g.grad[0, 0, 4:-4, 4:-4].flatten().tolist()))).correct
    g = torch.zeros((1, 1, 16, 16), requires_grad=True)
    torch.nn.functional.interpolate(g, scale_factor=0.5, mode="nearest").sum().backward()
    assert check("dead-pixels-nearest-half", int((g.grad == 0).sum())).correct
    rows = torch.nn.functional.interpolate(torch.arange(45.0)[None, None], size=22, mode="linear")[0, 0]
    assert check("burn-step-halving-45", round(float(rows[10] - rows[9]), 3)).correct  # size 22: step 45 / 22
    from explorer.images import test_image

    photo = (test_image("photo") * 255).round().astype(np.uint8)
    h, w = photo.shape[0] // 2, photo.shape[1] // 2
    pillow = np.asarray(PIL.fromarray(photo).resize((w, h), PIL.Resampling.BICUBIC), np.float64)
    errors = {flag: np.mean((cv2.resize(photo, (w, h), interpolation=getattr(cv2, flag)) - pillow) ** 2)
              for flag in ("INTER_NEAREST", "INTER_LINEAR", "INTER_CUBIC", "INTER_AREA", "INTER_LANCZOS4")}
    assert check("closest-opencv-to-pillow", min(errors, key=errors.get)).correct


@pytest.mark.parametrize("name", TEACHING)
def test_each_teaching_notebook_has_goals_two_to_four_checked_exercises_and_a_take_away(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    text = [c.source for c in nb.cells]
    assert any(t.startswith("## Learning goals") for t in text[:3])
    exercises = [c.source for c in nb.cells if c.cell_type == "code" and "check(" in c.source and "answer" in c.source]
    assert 2 <= len(exercises) <= 4 and all(any(f"check({n!r}" in t for n in EXERCISES) for t in exercises)
    assert text[-1].startswith("## Take-away")

"""Every advisor argument is checked where it enters (explorer/validate.py): booleans are True or False, numbers
finite and in range, texts bounded, and the message names the argument and echoes the value shortened."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import explorer
from explorer.advisor.lint import lint
from explorer.advisor.pick import pick

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(explorer.__file__)))


def check(**kwargs):
    return explorer.check(**{"mode": "bilinear", "backend": "torch", **kwargs})


@pytest.mark.parametrize("name,value", [
    ("training", "false"), ("training", "no"), ("training", float("nan")), ("training", 0.0), ("training", None),
    ("deterministic", "no"), ("deterministic", "False"), ("deterministic", 1.5),
])
def test_booleans_are_true_or_false_not_truthy(name, value):
    with pytest.raises(TypeError, match=f"{name}=.* is not valid; give True or False"):
        check(**{name: value})


def test_a_string_false_does_not_answer_the_training_question():
    """check(training="false") used to answer for training (a truthy string) when inference was meant."""
    with pytest.raises(TypeError):
        explorer.check(mode="nearest-exact", backend="burn-tch", training="false")


@pytest.mark.parametrize("value", ["abc", float("nan"), -1, 0, float("inf"), [1, 2, 3, 4, 5], [], [2, "x"]])
def test_a_scale_factor_is_a_flag_or_positive_finite_factors(value):
    with pytest.raises((TypeError, ValueError), match="scale_factor"):
        check(scale_factor=value)


@pytest.mark.parametrize("value", [True, False, None, 2, 0.5, (2.0, 2.0)])
def test_valid_scale_factors_are_accepted(value):
    check(scale_factor=value)


@pytest.mark.parametrize("value", [10**100, 0, -5, 1.5, "18", True])
def test_an_opset_is_an_integer_from_1_to_the_limit(value):
    with pytest.raises((TypeError, ValueError), match="opset"):
        check(opset=value)


def test_long_texts_get_a_clear_bounded_message():
    with pytest.raises(ValueError) as info:
        check(version="1" * 100_000)
    assert "version" in str(info.value) and "digit" not in str(info.value) and len(str(info.value)) < 400
    with pytest.raises(ValueError) as info:
        check(mode="x" * 1_000_000)
    assert "mode=" in str(info.value) and len(str(info.value)) < 2000


def test_pick_refuses_a_target_that_is_no_backend():
    with pytest.raises(ValueError, match="backend='nope' is not valid"):
        pick(targets=("nope",))
    with pytest.raises(TypeError, match="targets"):
        pick(targets=(3,))


def test_lint_and_scan_check_their_booleans(tmp_path):
    with pytest.raises(TypeError, match="training"):
        lint(tmp_path, backend="torch", training="no")
    with pytest.raises(TypeError, match="training"):
        explorer.scan(b"", training="false")


def test_fixes_refuses_a_scale_that_leaves_an_empty_output():
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-m", "explorer", "fixes", "--backend", "burn-tch", "--mode", "bilinear",
                           "--scale", "1e-300"], capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 2, proc.stdout
    assert "empty output" in proc.stderr and "identical" not in proc.stdout

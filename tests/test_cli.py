"""The command line: exit codes, JSON output, usage errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import pytest

from explorer.__main__ import main

PANIC = "nearest exact interpolation backward is not supported by PyTorch/tch backend"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_seed_check_exits_nonzero(capsys):
    code, out, _ = run(capsys, "check", "--backend", "burn-tch", "--mode", "nearest-exact", "--train")
    assert code == 1
    assert PANIC in out
    assert "InterpolateOptions::new(InterpolateMode::Nearest)" in out


def test_clean_check_exits_zero(capsys):
    code, _out, _ = run(capsys, "check", "--backend", "burn-tch", "--mode", "nearest", "--train")
    assert code == 0


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", "--backend", "burn-tch", "--mode", "NearestExact", "--train", "--json")
    data = json.loads(out)
    assert code == 1
    assert any(f["error_text"] == PANIC and f["severity"] == "error" for f in data)
    assert all({"severity", "message", "error_text", "source", "fixes"} <= set(f) for f in data)


def test_diagnose(capsys):
    code, out, _ = run(capsys, "diagnose", PANIC)
    assert code == 0 and "burn-tch" in out
    code, out, _ = run(capsys, "diagnose", "my", "cat", "walked", "on", "the", "keyboard")
    assert code == 1 and "Not a known resize error" in out


def test_lint_reports_file_and_line(capsys, tmp_path):
    (tmp_path / "model.rs").write_text("fn f() {\n    let o = InterpolateOptions::new(InterpolateMode::NearestExact);\n}\n")
    (tmp_path / "train.py").write_text("y = F.interpolate(x, scale_factor=2, mode='nearest')\n")
    (tmp_path / "config.yaml").write_text("decoder:\n  upsample_mode: nearest-exact\n  name: 'x'\n")
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--train")
    assert code == 1
    assert f"{tmp_path / 'model.rs'}:2:" in out
    assert "error:" in out and "smoke-test every layer/mode" in out
    assert "train.py" not in out  # nearest is fine on burn-tch
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-wgpu", "--train", "--json")
    assert code == 0
    assert isinstance(json.loads(out)["issues"], list)


def test_fixes_command(capsys):
    code, out, _ = run(capsys, "fixes", "--backend", "burn-tch", "--mode", "nearest-exact", "--train",
                       "--input-size", "16", "16", "--scale", "2")
    assert code == 0
    assert "1. switch NearestExact -> Nearest: identical output and gradient for this 2x upscale" in out


@pytest.mark.parametrize("argv, words", [
    (["check", "--backend", "burn-xyz", "--mode", "nearest"], ["backend='burn-xyz'"]),
    (["check", "--backend", "torch", "--mode", "bicubc"], ["mode='bicubc'"]),
    (["check", "--backend", "burn-tch", "--mode", "nearest", "--version", "banana"], ["version='banana'"]),
    (["lint", "/no/such/path", "--backend", "burn-tch"], ["does not exist"]),
    (["diagnose", "   "], ["empty"]),
    (["check", "--backend", "torch", "--mode", "nearest", "--input-size", "4"], ["output_size"]),
])
def test_bad_input_is_a_usage_error(capsys, argv, words):
    code, _out, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err
    for word in words:
        assert word in err


@pytest.mark.parametrize("argv, words", [
    (["--scale", "inf"], ["scale_factor=inf is not valid"]),
    (["--scale", "1e300"], ["output_size=", "too long for any axis", "MAX_AXIS_LENGTH"]),
    (["--scale", "2", "--input-size", "100000", "100000"], ["random input tensor of shape (1, 3, 100000, 100000)"]),
    (["--scale", "2000"], ["(1, 3, 64000, 64000)", "GiB"]),
    (["--scale", "2", "--input-size", "-3", "-3"], ["--input-size must be positive, got (-3, -3)"]),
    (["--size", "-4", "4"], ["size must be positive"]),
    (["--scale", "2", "--channels", "0"], ["--channels must be at least 1"]),
])
def test_fixes_usage_errors_exit_2_without_a_traceback(capsys, argv, words):
    code, _, err = run(capsys, "fixes", "--backend", "burn-tch", "--mode", "nearest-exact", "--train", *argv)
    assert code == 2 and "Traceback" not in err
    for word in words:
        assert word in err


def test_an_overflowing_scale_is_a_usage_error_without_a_warning(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's float32 overflow warning must not reach the user
        code, _, err = run(capsys, "fixes", "--backend", "onnxruntime", "--mode", "nearest", "--scale", "1e300")
    assert code == 2 and "Traceback" not in err and "Warning" not in err
    assert "scale_factor=1e+300 makes the output of an input of size (32, 32) too long to allocate" in err


def test_check_refuses_negative_sizes(capsys):
    code, _, err = run(capsys, "check", "--backend", "torch", "--mode", "nearest", "--input-size", "-3", "-3",
                       "--output-size", "4", "4")
    assert code == 2 and "input_size must be positive, got (-3, -3)" in err
    code, out, _ = run(capsys, "check", "--backend", "torch", "--mode", "nearest", "--input-size", "3", "3",
                       "--output-size", "0", "4")
    assert code == 1 and "size of 0" in out  # an empty output is a question the knowledge base answers


@pytest.mark.parametrize("argv", [[], ["check", "--mode", "nearest"], ["frobnicate"],
                                  ["check", "--backend", "torch", "--mode", "nearest", "--align-corners", "maybe"]])
def test_argparse_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        code = main(argv)
        raise SystemExit(code)
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_module_entry_point_exit_code():
    """`python -m explorer` as a CI step: non-zero on an error finding, 2 on a usage error."""
    seed = subprocess.run([sys.executable, "-m", "explorer", "check", "--backend", "burn-tch", "--mode",
                           "nearest-exact", "--train"], check=False, capture_output=True, text=True)
    assert seed.returncode == 1 and PANIC in seed.stdout
    bad = subprocess.run([sys.executable, "-m", "explorer", "check", "--backend", "nope", "--mode", "nearest"],
                         check=False, capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


def test_smoke_and_backends(capsys):
    code, out, _ = run(capsys, "smoke", "--backend", "burn-tch")
    assert code == 0 and "NearestExact" in out and "expect fails" in out
    code, out, _ = run(capsys, "backends", "--json")
    assert code == 0 and "burn-tch" in [b["id"] for b in json.loads(out)]

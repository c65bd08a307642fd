"""``python -m explorer lint`` as a CI step: output formats, exit status, suppressions, baseline, unreadable files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from explorer.__main__ import main

RISKY = '''
import torch.nn.functional as F
from torch import nn

class Net(nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="nearest-exact")
'''


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "net.py").write_text(RISKY)
    (tmp_path / "vendor").mkdir()  # a second model tree (tests/ would be test code: not ported)
    (tmp_path / "vendor" / "vendored_net.py").write_text(RISKY)
    return tmp_path


def test_text_is_one_line_per_site_with_its_top_fix(capsys, repo):
    code, out, _ = run(capsys, "lint", str(repo / "src"), "--backend", "burn-tch")
    assert code == 1
    lines = [line for line in out.splitlines() if ":7:" in line]
    assert len(lines) == 1
    line = lines[0]
    assert line.startswith(f"{repo / 'src' / 'net.py'}:7:")
    assert ": error: " in line and "(+" in line and " fix: switch " in line
    assert "2 finding(s) at 1 site(s), 2 error(s)" in out


def test_training_is_the_default_as_in_the_api(capsys, repo):
    _, default, _ = run(capsys, "lint", str(repo / "src"), "--backend", "burn-wgpu", "--format", "json")
    _, inference, _ = run(capsys, "lint", str(repo / "src"), "--backend", "burn-wgpu", "--inference", "--format",
                          "json")
    assert json.loads(default)["question"]["training"] is True
    assert json.loads(inference)["question"]["training"] is False
    _, exported, _ = run(capsys, "lint", str(repo / "src"), "--backend", "coreml", "--export", "coreml",
                         "--format", "json")
    assert json.loads(exported)["question"]["training"] is False
    assert "coreml-inference-only" not in exported


def test_include_and_exclude(capsys, repo):
    code, out, _ = run(capsys, "lint", str(repo), "--backend", "burn-tch", "--exclude", "vendor")
    assert code == 1 and "vendored_net.py" not in out and "net.py:7" in out
    code, out, _ = run(capsys, "lint", str(repo), "--backend", "burn-tch", "--include", "vendor/*")
    assert code == 1 and "vendored_net.py" in out and os.path.join("src", "net.py") not in out
    code, out, _ = run(capsys, "lint", str(repo), "--backend", "burn-tch", "--include", "*.rs")
    assert code == 0 and "0 finding(s)" in out


def test_suppression_needs_a_reason(capsys, tmp_path):
    with_reason = RISKY.replace('mode="nearest-exact")',
                                'mode="nearest-exact")  # explorer: ignore this model is never trained on burn')
    (tmp_path / "a.py").write_text(with_reason)
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 0 and "suppressed inline" in out
    above = RISKY.replace('        return F.interpolate', '        # explorer: ignore[burn-tch-nearest-exact-forward,'
                          ' burn-tch-nearest-exact-backward] measured: same output as Nearest for 2x\n'
                          '        return F.interpolate')
    (tmp_path / "a.py").write_text(above)
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 0
    bare = RISKY.replace('mode="nearest-exact")', 'mode="nearest-exact")  # explorer: ignore[burn-tch-nearest-exact-forward]')
    (tmp_path / "a.py").write_text(bare)
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 1 and "needs a reason" in out


def test_baseline_accepts_todays_findings_and_catches_new_ones(capsys, tmp_path):
    (tmp_path / "a.py").write_text(RISKY)
    baseline = tmp_path / "lint-baseline.json"
    code, _, err = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--write-baseline", str(baseline))
    assert code == 0 and "wrote" in err
    data = json.loads(baseline.read_text())
    assert data["version"] == 1 and {f["rule"] for f in data["findings"]} >= {"burn-tch-nearest-exact-forward"}
    (tmp_path / "a.py").write_text("# a comment moves every line\n" + RISKY)  # line numbers do not matter
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--baseline", str(baseline))
    assert code == 0 and "in the baseline" in out
    (tmp_path / "b.py").write_text(RISKY.replace("nearest-exact", "area"))
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--baseline", str(baseline))
    assert code == 1 and "b.py" in out and "a.py" not in out.split("finding(s)")[0]


def test_bad_baseline_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "bad.json").write_text("[1, 2]")
    code, _, err = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--baseline", str(tmp_path / "bad.json"))
    assert code == 2 and "not a lint baseline" in err and "Traceback" not in err
    code, _, err = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--baseline", str(tmp_path / "no.json"))
    assert code == 2 and "does not exist" in err


def test_sarif_and_github_formats(capsys, repo):
    code, out, _ = run(capsys, "lint", str(repo / "src"), "--backend", "burn-tch", "--format", "sarif")
    sarif = json.loads(out)
    assert code == 1 and sarif["version"] == "2.1.0"
    run_ = sarif["runs"][0]
    rule_ids = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    result = next(r for r in run_["results"] if r["ruleId"] == "burn-tch-nearest-exact-forward")
    assert result["level"] == "error" and rule_ids[result["ruleIndex"]] == result["ruleId"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "net.py" and location["region"]["startLine"] == 7
    code, out, _ = run(capsys, "lint", str(repo / "src"), "--backend", "burn-tch", "--format", "github")
    annotation = next(line for line in out.splitlines() if line.startswith("::error "))
    assert f"file={repo / 'src' / 'net.py'},line=7," in annotation.replace("%3A", ":")
    assert "title=burn-tch-" in annotation and "\n" not in annotation


def test_unreadable_files_are_skipped_with_a_warning(capsys, tmp_path):
    (tmp_path / "a.py").write_text(RISKY)
    os.symlink(tmp_path / "missing.py", tmp_path / "broken.py")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "big.json").write_text('{"x": "' + "a" * (5 * 2**20) + '"}')
    (tmp_path / "bad.py").write_text("import torch.nn.functional as F\ny = F.interpolate(x,\n")
    (tmp_path / "latin.py").write_bytes(b"# caf\xe9\nimport torch.nn.functional as F\ny = F.interpolate(x)\n")
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 1 and "a.py:7" in out
    for name, why in (("broken.py", "broken symbolic link"), ("pipe.py", "not a regular file"),
                      ("big.json", "more than the limit"), ("bad.py", "Python cannot parse it")):
        assert any(line.startswith("warning: ") and name in line and why in line for line in out.splitlines()), name
    assert "4 file(s) skipped" in out


def test_a_fifo_never_blocks_the_command(tmp_path):
    os.mkfifo(tmp_path / "model.py")
    os.mkfifo(tmp_path / "model.onnx")
    done = subprocess.run([sys.executable, "-m", "explorer", "lint", str(tmp_path), "--backend", "burn-tch"],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.count("not a regular file") == 2


@pytest.mark.parametrize("argv, words", [
    (["lint", ".", "--backend", "burn-xyz"], ["backend='burn-xyz'"]),
    (["lint", ".", "--backend", "burn-tch", "--device", "tpu"], ["device='tpu'"]),
    (["lint", "/no/such/path", "--backend", "burn-tch"], ["does not exist"]),
    (["lint", ".", "--backend", "burn-tch", "--version", "banana"], ["version='banana'"]),
])
def test_usage_errors_exit_2(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "Traceback" not in err
    for word in words:
        assert word in err


def test_info_lists_the_conditions(capsys, tmp_path):
    (tmp_path / "a.py").write_text(textwrap.dedent('''
        import torch.nn.functional as F
        y = F.interpolate(x, size=s, mode="area")
    '''))
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "torch", "--device", "mps")
    assert code == 0 and "condition(s) on what the code does not say" in out
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "torch", "--device", "mps", "--min-severity",
                       "info")
    assert "torch-mps-area-divisible" in out and "a.py:3" in out


def test_baseline_covers_onnx_model_files(capsys, tmp_path):
    from onnx import TensorProto, helper, save

    def model(mode):
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 3, 3, 3])
        node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="down", mode=mode, antialias=1)
        return helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[sizes]),
                                 opset_imports=[helper.make_opsetid("", 18)])

    save(model("linear"), str(tmp_path / "model.onnx"))
    args = ("lint", str(tmp_path), "--backend", "burn-tch", "--version", "0.22.0-pre.2")
    code, out, _ = run(capsys, *args)
    assert code == 1 and "model.onnx" in out  # the antialiased node stops Burn's import
    baseline = tmp_path / "lint-baseline.json"
    code, _, err = run(capsys, *args, "--write-baseline", str(baseline))
    assert code == 0 and "wrote" in err
    code, out, _ = run(capsys, *args, "--baseline", str(baseline))
    assert code == 0 and "in the baseline" in out
    save(model("cubic"), str(tmp_path / "other.onnx"))
    code, out, _ = run(capsys, *args, "--baseline", str(baseline))
    assert code == 1 and "other.onnx" in out

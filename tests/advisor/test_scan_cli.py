"""``python -m explorer scan``: the table, --json with the documented keys, exit status 0/1/2, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

onnx = pytest.importorskip("onnx")

from explorer.__main__ import main  # noqa: E402
from onnx_models import resize_model  # noqa: E402

KEYS = {"node", "op_type", "opset", "attributes", "input_shape", "output_shape", "equivalents", "findings"}


@pytest.fixture
def model_path(tmp_path):
    path = tmp_path / "unet.onnx"
    onnx.save(resize_model((1, 3, 16, 16), op_version=13, sizes=(1, 3, 32, 32), mode="linear", name="up1"), path)
    return path


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_table_and_exit_status(capsys, model_path):
    code, out, _ = run(capsys, "scan", model_path)
    assert code == 0
    assert "up1" in out and "1x3x16x16 -> 1x3x32x32" in out and "= torch bilinear" in out
    code, out, _ = run(capsys, "scan", model_path, "--backend", "burn-tch", "--version", "0.20.1", "--train")
    assert code == 0 and "InterpolateMode::Bilinear" in out and "differs" in out


def test_json_keys(capsys, model_path):
    code, out, _ = run(capsys, "scan", model_path, "--backend", "burn-wgpu", "--json")
    data = json.loads(out)
    assert code == 0 and len(data) == 1
    assert KEYS <= set(data[0])
    assert data[0]["attributes"]["mode"] == "linear" and data[0]["input_shape"] == [1, 3, 16, 16]
    assert all(set(e) == {"library", "mode", "options"} for e in data[0]["equivalents"])
    assert all({"severity", "message", "source"} <= set(f) for f in data[0]["findings"])
    assert data[0]["imports"] and all("era" in e for e in data[0]["imports"])


def test_error_finding_exits_1(capsys, tmp_path):
    path = tmp_path / "aa.onnx"
    onnx.save(resize_model((1, 1, 12, 12), op_version=18, sizes=(1, 1, 5, 5), mode="linear", antialias=1), path)
    code, out, _ = run(capsys, "scan", path, "--backend", "burn-ndarray")
    assert code == 1 and "antialias other than 0 is not supported" in out


def test_input_shape_fixes_dynamic_axes(capsys, tmp_path):
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("image", TensorProto.FLOAT, ["n", 3, "h", "w"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    node = helper.make_node("Resize", ["image", "", "scales"], ["y"], name="up", mode="nearest")
    path = tmp_path / "dynamic.onnx"
    onnx.save(helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[scales]),
                                opset_imports=[helper.make_opsetid("", 13)]), path)
    code, out, _ = run(capsys, "scan", path, "--json")
    assert json.loads(out)[0]["equivalents"] == []
    code, out, _ = run(capsys, "scan", path, "--input-shape", "image=1,3,5,7", "--json")
    assert json.loads(out)[0]["output_shape"] == [1, 3, 10, 14]


@pytest.mark.parametrize("argv,message", [
    (["scan", "{tmp}/missing.onnx"], "does not exist"),
    (["scan", "{tmp}/notes.onnx"], "is not an ONNX model"),
    (["scan", "{tmp}"], "is a directory"),
    (["scan", "{model}", "--backend", "burn-tchh"], "did you mean 'burn-tch'"),
    (["scan", "{model}", "--input-shape", "image"], "NAME=1,3,64,64"),
])
def test_usage_errors_exit_2_without_traceback(tmp_path, model_path, argv, message):
    (tmp_path / "notes.onnx").write_text("these are notes, not a model\n")
    argv = [a.format(tmp=tmp_path, model=model_path) for a in argv]
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    done = subprocess.run([sys.executable, "-m", "explorer", *argv], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def _dynamic_model(path, opset=13):
    """One nearest Resize whose input has symbolic height and width: its sizes are known only when it runs."""
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, "h", "w"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    roi = helper.make_tensor("roi", TensorProto.FLOAT, [0], [])
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 2])
    node = helper.make_node("Resize", ["image", "roi", "scales"], ["y"], name="up", mode="nearest")
    onnx.save(helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[roi, scales]),
                                opset_imports=[helper.make_opsetid("", opset)]), path)
    return path


def test_unscanned_node_fails_ci_under_backend_unless_allowed(capsys, tmp_path):
    path = _dynamic_model(tmp_path / "dynamic.onnx")
    code, out, _ = run(capsys, "scan", path)
    assert code == 0 and "warning: not scanned" in out
    code, out, _ = run(capsys, "scan", path, "--backend", "onnxruntime")
    assert code == 1 and "error: not scanned" in out and "1 not scanned" in out
    code, out, _ = run(capsys, "scan", path, "--backend", "onnxruntime", "--allow-unscanned")
    assert code == 0 and "warning: not scanned" in out
    code, out, _ = run(capsys, "scan", path, "--backend", "onnxruntime", "--input-shape", "image=1,3,5,7")
    assert code == 0 and "not scanned" not in out


def test_burn_refusal_of_the_opset_holds_for_unscanned_nodes(capsys, tmp_path):
    """Burn 0.18's import refuses a model below opset 16 before reading any shape; a node whose shapes are not
    known gets that refusal as it does once its shapes are given."""
    path = _dynamic_model(tmp_path / "opset11.onnx", opset=11)
    argv = ("scan", path, "--backend", "burn-tch", "--version", "0.18.0", "--allow-unscanned")
    code, out, _ = run(capsys, *argv, "--json")
    unknown = [f for f in json.loads(out)[0]["findings"] if f["severity"] == "error"]
    code_known, out, _ = run(capsys, *argv, "--input-shape", "image=1,3,5,7", "--json")
    known = [f for f in json.loads(out)[0]["findings"] if f["severity"] == "error"]
    assert code == code_known == 1
    assert [f["message"] for f in unknown] == [f["message"] for f in known]
    assert "opset 11" in unknown[0]["message"]


def test_summary_line(capsys, model_path):
    code, out, _ = run(capsys, "scan", model_path, "--summary")
    assert code == 0 and out.count("\n") == 1
    assert out.startswith(f"{model_path}: 1 resize(s) in 1 group(s), 1 scanned; onnxruntime")
    code, out, _ = run(capsys, "scan", model_path, "--summary", "--json")
    assert json.loads(out)["scanned"] == 1 and json.loads(out)["exit_status"] == 0


def test_closed_pipe_prints_no_traceback(model_path):
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    process = subprocess.Popen([sys.executable, "-m", "explorer", "scan", str(model_path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    process.stdout.close()  # the reader is gone before the report is written (what `| head` does at its end)
    _, err = process.communicate(timeout=120)
    assert b"Traceback" not in err and b"Broken pipe" not in err and b"BrokenPipe" not in err, err
    assert process.returncode == 141


def test_alike_nodes_are_reported_once_as_a_group(capsys, tmp_path):
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 3, 32, 32])
    other = helper.make_tensor("other", TensorProto.INT64, [4], [1, 3, 8, 8])
    nodes = [helper.make_node("Resize", ["x", "", "", "sizes"], [f"y{k}"], name=f"up{k}", mode="linear")
             for k in range(12)]
    nodes.append(helper.make_node("Resize", ["x", "", "", "other"], ["z"], name="down", mode="linear"))
    outputs = [helper.make_tensor_value_info(n.output[0], TensorProto.FLOAT, None) for n in nodes]
    path = tmp_path / "many.onnx"
    onnx.save(helper.make_model(helper.make_graph(nodes, "g", [x], outputs, initializer=[sizes, other]),
                                opset_imports=[helper.make_opsetid("", 13)]), path)
    code, out, _ = run(capsys, "scan", path)
    assert code == 0 and "13 resize(s) in 2 group(s)" in out
    assert out.count("x12: linear coordinate_transformation_mode=half_pixel, 1x3x16x16 -> 1x3x32x32") == 1
    assert "... and 8 more" in out and out.count("= torch bilinear") == 2
    code, out, _ = run(capsys, "scan", path, "--json")
    assert [n["node"] for n in json.loads(out)] == [f"up{k}" for k in range(12)] + ["down"]

"""check() answers from the probe's measured cells for a measured release: each finding names the release file as
its source and says it was measured; the outcome of a real call pins the answer (not the cell read back)."""

import json
import warnings

import pytest

from explorer.advisor import check
from explorer.advisor.matrix_data import load
from explorer.advisor.measured import matching_cells, measured_findings
from explorer.advisor.question import Question
from explorer.probe.calls import torch_cases


def _measured(findings):
    return [f for f in findings if f.evidence == "measured" and f.source.startswith("explorer/advisor/data/matrix/")]


def test_a_call_that_fails_gets_the_runtimes_own_text():
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    x = torch.rand(1, 2, 5, 7).half()
    with pytest.raises(NotImplementedError) as raised:
        F.interpolate(x, size=(8, 11), mode="bicubic", antialias=True)
    found = _measured(check(mode="bicubic", backend="torch", version="2.13.0", dtype="float16", antialias=True,
                            training=False))
    assert [f.severity for f in found] == ["error"]
    assert found[0].error_text == str(raised.value).splitlines()[0]
    assert found[0].evidence_text.startswith("measured")


def test_a_call_that_runs_is_reported_as_agreeing_with_its_gradient():
    found = _measured(check(mode="bilinear", backend="torch", version="2.13.0", align_corners=True))
    assert {f.operation for f in found} == {"forward", "backward"}
    assert all(f.severity == "info" for f in found)


def test_only_the_questions_configuration_answers():
    q = Question.of(mode="bilinear", backend="torch", version="2.13.0", align_corners=True, training=False)
    runtime, cells = matching_cells(q)
    assert runtime == "torch" and cells
    assert all(c.case["options"].get("align_corners") and not c.case["options"].get("antialias") for c in cells)
    assert all(c.case["dtype"] == "float32" and len(c.case["axes"]) == 2 for c in cells)


def test_an_unmeasured_release_or_device_gets_no_measured_finding():
    assert not _measured(check(mode="bilinear", backend="torch", version="2.5.1"))
    assert not _measured(check(mode="bilinear", backend="torch", version="2.13.0", device="cuda"))


def test_an_export_is_answered_from_its_exporter_and_opset():
    torch = pytest.importorskip("torch")
    import io

    class Resize(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.interpolate(x, size=(4, 6), mode="bilinear", align_corners=True)

    with warnings.catch_warnings(), pytest.raises(Exception) as raised:  # the TorchScript exporter's own refusal
        warnings.simplefilter("ignore")  # the legacy exporter warns (deprecation, Upsample at opset 9) first
        torch.onnx.export(Resize().eval(), (torch.rand(1, 2, 9, 13),), io.BytesIO(), dynamo=False, opset_version=9)
    found = _measured(check(mode="bilinear", backend="torch", version="2.13.0", export="onnx-torchscript", opset=9,
                            align_corners=True, training=False))
    assert [(f.severity, f.operation) for f in found] == [("error", "export_onnx")]
    # the reason, before the graph the exporter names (the module's own names in it differ)
    assert found[0].error_text.split(" [Caused by")[0] == str(raised.value).split(" [Caused by")[0]
    assert not _measured(check(mode="bilinear", backend="torch", version="2.13.0", export="onnx-torchscript",
                               opset=8, training=False))


def _one_release(tmp_path, outcome):
    """A matrix folder holding one torch cell with the given outcome."""
    case = next(c for c in torch_cases() if c["id"] == "torch/bilinear/default/float32/up-size")
    (tmp_path / "cases.json").write_text(json.dumps({"format": 1, "cases": [case]}))
    (tmp_path / "conventions.json").write_text(json.dumps({"format": 1, "labels": []}))
    record = {"format": 1, "runtime": "torch", "product": "torch", "release": "2.13.0", "install": {},
              "provenance": {"command": "python -m explorer.probe", "date": "2026-01-01"},
              "cells": {case["id"]: outcome}}
    (tmp_path / "torch-2.13.0.json").write_text(json.dumps(record))
    return load(tmp_path)


def test_a_differing_cell_is_a_differs_finding(tmp_path):
    matrix = _one_release(tmp_path, {"status": "ok", "stage": "gradient", "verdict": "differs", "max_abs_diff": 0.25,
                                     "gradient_verdict": "exact"})
    found = measured_findings(Question.of(mode="bilinear", backend="torch", version="2.13.0"), matrix)
    assert [(f.severity, f.operation) for f in found] == [("differs", "forward"), ("info", "backward")]
    assert "0.25" in found[0].message


def test_a_failing_gradient_is_an_error_finding(tmp_path):
    matrix = _one_release(tmp_path, {"status": "ok", "stage": "gradient", "verdict": "exact", "max_abs_diff": 0.0,
                                     "gradient_error": {"error_type": "RuntimeError", "error": "no backward"}})
    found = measured_findings(Question.of(mode="bilinear", backend="torch", version="2.13.0"), matrix)
    assert [(f.severity, f.operation, f.error_text) for f in found][1] == ("error", "backward", "no backward")
    assert not measured_findings(Question.of(mode="bilinear", backend="torch", version="2.13.0", training=False,
                                             dtype="float16"), matrix)


def test_the_command_line_shows_the_evidence(capsys):
    from explorer.__main__ import main

    main(["check", "--mode", "bilinear", "--backend", "keras-torch"])
    out = capsys.readouterr().out
    assert "evidence: measured (a cell of the probe's matrix for this release)" in out
    main(["check", "--mode", "bilinear", "--backend", "keras-torch", "--version", "3.0.0"])
    assert "a cell of the probe's matrix" not in capsys.readouterr().out


def test_a_conversion_only_cell_says_what_the_call_becomes(tmp_path):
    """Core ML prediction needs macOS: a converted cell is skipped at run, and check() reports the conversion and
    the MIL operation it became (a planted cell: coremltools is not in the test extras)."""
    from explorer.probe.calls import coreml_cases

    case = next(c for c in coreml_cases() if c["id"] == "coreml/mlprogram/bilinear/align_corners/float32/down-size")
    (tmp_path / "cases.json").write_text(json.dumps({"format": 1, "cases": [case]}))
    (tmp_path / "conventions.json").write_text(json.dumps({"format": 1, "labels": []}))
    outcome = {"status": "skipped", "stage": "run", "error": "converted; Core ML prediction runs on macOS only",
               "converted": {"mil": [{"op": "upsample_bilinear", "inputs": {"align_corners": True}}]}}
    record = {"format": 1, "runtime": "coremltools", "product": "coreml", "release": "9.0", "install": {},
              "provenance": {"command": "python -m explorer.probe", "date": "2026-01-01"}, "cells": {case["id"]: outcome}}
    (tmp_path / "coremltools-9.0.json").write_text(json.dumps(record))
    q = Question.of(mode="bilinear", backend="torch", version="2.13.0", export="coreml", align_corners=True)
    found = measured_findings(q, load(tmp_path))
    assert [(f.severity, f.operation) for f in found] == [("info", "export_coreml")]
    assert "upsample_bilinear(align_corners=True)" in found[0].message
    q = Question.of(mode="bilinear", backend="torch", version="2.13.0", export="coreml", align_corners=True,
                    converter_version="8.0")
    assert not measured_findings(q, load(tmp_path))


def test_the_backends_tab_shows_the_evidence():
    from explorer.ui.app.tabs import findings_html
    from explorer.ui.compute.backends import compute_backends

    data = compute_backends(["bilinear"], "torch", version="2.13.0", training=False, antialias=True,
                            mode="bilinear")
    data.findings = check(mode="bilinear", backend="torch", version="2.13.0", dtype="float16", antialias=True,
                          training=False)
    page = findings_html(data)
    assert "evidence: measured (a cell of the probe&#x27;s matrix for this release)" in page
    assert "evidence: cited" in page or "evidence: measured (run with the real library" in page


def test_a_resize_node_on_an_onnx_runtime_is_answered_from_its_one_node_models():
    ort = pytest.importorskip("onnxruntime")
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    # the runtime's own refusal of a float64 Resize, measured here
    node = helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], mode="linear", name="resize")
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.DOUBLE, [1, 2, 5, 7])],
                              [helper.make_tensor_value_info("Y", TensorProto.DOUBLE, None)],
                              initializer=[numpy_helper.from_array(np.array([1, 2, 8, 11], np.int64), "sizes")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    with pytest.raises(Exception) as raised:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    found = _measured(check(mode="linear", backend="onnxruntime", version=ort.__version__, dtype="float64",
                            opset=13, training=False))
    assert [f.severity for f in found] == ["error"]
    assert found[0].error_text == str(raised.value).splitlines()[0]
    q = Question.of(mode="linear", backend="onnxruntime", version="1.32.0", opset=13, training=False,
                    attributes={"coordinate_transformation_mode": "align_corners"})
    _, cells = matching_cells(q)
    assert cells and all(c.case["attributes"] == {"coordinate_transformation_mode": "align_corners"} and
                         c.case["opset"] == 13 for c in cells)

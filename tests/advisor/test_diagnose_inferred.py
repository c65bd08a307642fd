"""diagnose on a resize text no record explains: the runtime, op and attributes read from the text, and the
configurations the runtime's newest measured release runs, marked inferred (never a matched record).

Each offered configuration is pinned apart from the code that offers it: its cells in the committed release
file (read as JSON here) say ``ok``, and a claim that two configurations compute the same (or different)
weights is checked with the ONNX reference implementation (``onnx.reference``) of the two Resize nodes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from explorer.__main__ import main
from explorer.advisor import diagnose
from explorer.advisor.clues import read_clues
from explorer.advisor.inferred import DEFAULT_PAIRS, infer

from error_corpus import SETS, load

MATRIX = Path(__file__).resolve().parents[2] / "explorer" / "advisor" / "data" / "matrix"

#: apache/tvm#19500 (https://github.com/apache/tvm/issues/19500), its title and expected behaviour as posted
TVM_19500 = """[Bug] Relay ONNX Resize importer gives incorrect output for nearest half_pixel + round_prefer_floor
### Expected behavior
TVM Relay should import and execute ONNX `Resize` consistently with ONNX Runtime for:
```
mode="nearest"
coordinate_transformation_mode="half_pixel"
nearest_mode="round_prefer_floor"
```
For a 3x3 input upsampled by scales `[1.0, 1.0, 1.5, 1.5`], ONNX Runtime produces:"""


def _release_file(runtime: str) -> dict:
    """The newest committed release file of ``runtime``, its release ordered by its numbers."""
    paths = list(MATRIX.glob(f"{runtime}-[0-9]*.json"))
    newest = max(paths, key=lambda p: [int(n) for n in re.findall(r"\d+", p.stem[len(runtime) + 1:])])
    return json.loads(newest.read_text())


def _cases() -> dict:
    return {c["id"]: c for c in json.loads((MATRIX / "cases.json").read_text())["cases"]}


def _cells_of(runtime: str, mode: str, attributes: dict) -> list[dict]:
    """The outcomes of the release's plain NCHW attribute cells that set exactly ``attributes``."""
    record, cases = _release_file(runtime), _cases()
    out = []
    for case_id, outcome in record["cells"].items():
        case = cases[case_id]
        if case["kind"] == "onnx" and case["group"] == "attributes" and case["mode"] == mode \
                and case["dtype"] == "float32" and case["attributes"] == attributes:
            out.append(outcome)
    return out


def _onnx_resize(mode: str, attributes: dict, n_in: int, n_out: int) -> np.ndarray:
    """The ONNX reference implementation's Resize of an arange row ``n_in`` -> ``n_out`` (sizes input)."""
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 1, n_in])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 1, 1, n_out])
    node = helper.make_node("Resize", ["X", "", "", "sizes"], ["Y"], mode=mode, **attributes)
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], [sizes]),
                              opset_imports=[helper.make_opsetid("", 13)])
    data = np.arange(n_in, dtype=np.float32).reshape(1, 1, 1, n_in) * 1.7 + 0.3
    return ReferenceEvaluator(model).run(None, {"X": data})[0]


def _same_outputs(mode: str, a: dict, b: dict) -> bool:
    return all(np.allclose(_onnx_resize(mode, a, n, m), _onnx_resize(mode, b, n, m), atol=1e-5)
               for n, m in DEFAULT_PAIRS)


def test_tvm_report_gets_the_runtime_and_attributes_it_names():
    d = diagnose(TVM_19500)
    assert not d.matched and not d.findings
    i = d.inferred
    assert i is not None and i.runtime == "tvm" and i.op == "Resize"
    assert i.attributes == {"mode": "nearest", "coordinate_transformation_mode": "half_pixel",
                            "nearest_mode": "round_prefer_floor"}
    assert i.message.startswith("Inferred from the text (not a record)")
    assert d.to_dict()["matched"] is False and d.to_dict()["inferred"]["runtime"] == "tvm"


def test_tvm_offered_configurations_are_measured_ok_and_their_weights_hold():
    i = diagnose(TVM_19500).inferred
    assert i.release == _release_file("tvm")["release"]
    assert i.configurations
    asked = {"coordinate_transformation_mode": "half_pixel", "nearest_mode": "round_prefer_floor"}
    for c in i.configurations:
        cells = _cells_of("tvm", "nearest", c.attributes)
        assert cells and all(o["status"] == "ok" for o in cells), c.attributes
        if c.verdict in ("exact", "close"):
            assert all(o["verdict"] in ("exact", "close") for o in cells), c.attributes
        # computes the same weights as the asked node or not, by ONNX's reference implementation
        assert _same_outputs("nearest", asked, c.attributes) == c.same, c.attributes
    # the configuration the report names runs on TVM's newest release, and some geometry differs from ONNX's
    assert i.asked is not None and i.asked.verdict == "differs"
    assert any(o["verdict"] == "differs" for o in _cells_of("tvm", "nearest", {}))
    assert "differs from the ONNX node's" in i.message


def test_a_claim_of_the_same_weights_holds_by_the_onnx_reference():
    """A constructed paste (the wording of an OpenVINO node message) asking a configuration OpenVINO runs."""
    text = "OpenVINO: Resize node with mode=linear coordinate_transformation_mode=pytorch_half_pixel failed"
    i = diagnose(text).inferred
    assert i.runtime == "openvino"
    same = [c for c in i.configurations if c.same]
    assert same
    for c in same:
        cells = _cells_of("openvino", "linear", c.attributes)
        assert cells and all(o["status"] == "ok" and o["verdict"] in ("exact", "close") for o in cells)
        assert _same_outputs("linear", {"coordinate_transformation_mode": "pytorch_half_pixel"}, c.attributes)


def test_the_cli_prints_the_inferred_answer(capsys):
    assert main(["diagnose", TVM_19500]) == 1  # still unmatched
    out = capsys.readouterr().out
    assert "Not a known resize error" in out and "Inferred from the text (not a record): runtime tvm" in out


def test_a_text_without_a_runtime_gets_nothing_runtime_specific():
    text = TVM_19500.replace("TVM Relay", "The importer").replace("Relay ONNX", "ONNX") \
        .replace("ONNX Runtime", "the reference")
    d = diagnose(text)
    assert not d.matched and d.inferred is None and not d.clues.runtimes & {"tvm", "onnxruntime"}


def test_a_look_alike_naming_a_resize_node_gets_nothing():
    """ONNX Runtime's CUDA build without this GPU's kernels, reported at a Resize node (a real text)."""
    entry = next(e for e in load("heldout") if e["id"] == "neg-ort-cuda-no-kernel-image-resize")
    d = diagnose(entry["text"])
    assert not d.matched and d.inferred is None


@pytest.mark.parametrize("name", SETS)
def test_no_look_alike_of_the_corpus_gets_an_inferred_answer(name):
    for entry in load(name):
        if not entry["expected"]["is_resize_error"]:
            assert infer(read_clues(entry["text"])) is None, entry["id"]

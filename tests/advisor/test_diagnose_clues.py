"""What diagnose reads from the way each runtime prints its errors: the node or layer type a message is about,
the ONNX Runtime execution provider it names, texts other calls print too, and the answer to an unmatched
text (computed once per configuration, then looked up)."""

from __future__ import annotations

import importlib

import pytest

import explorer
from explorer.advisor import findings
from explorer.advisor.clues import read_clues

diagnose_module = importlib.import_module("explorer.advisor.diagnose")


@pytest.mark.parametrize("text, resize, foreign", [
    ("Non-zero status code returned while running Resize node. Name:'/up/Resize' Status Message: x", True, None),
    ("Non-zero status code returned while running Conv node. Name:'/c/Conv' Status Message: Invalid input shape",
     False, "conv"),
    ('While parsing node number 80 [Resize -> "301"]:\nERROR: ModelImporter.cpp:124 In function parseGraph:', True,
     None),
    ('While parsing node number 3 [Conv -> "12"]:\nERROR: ModelImporter.cpp:124 In function parseGraph:', False,
     "conv"),
    ("error: (-215:Assertion failed) inputs.size() == 1 in function 'cv::dnn::SliceLayerImpl::getMemoryShapes'",
     False, "slice"),
    ("Node [Concat@ai.onnx]:(onnx_node!/Concat_2) parse error: (-215:Assertion failed)", False, "concat"),
    ("Node [Resize@ai.onnx]:(onnx_node!/Resize) parse error: (-215:Assertion failed)", True, None),
    ("DNN/ONNX: ERROR during processing node with 2 inputs and 1 outputs: [Upsample]:(10)", True, None),
    ("MNN Converter NOT_SUPPORTED_OP: [ Resize ]", True, None),
    ("Node [/Resize] type [Resize] Input [] has no shape", True, None),
])
def test_the_node_type_a_runtime_prints_is_read(text, resize, foreign):
    clues = read_clues(text)
    assert ("resize" in clues.ops) is resize
    if foreign:
        assert foreign in clues.foreign_ops


def test_a_message_about_another_node_is_no_resize_error():
    """The ONNX Runtime wrapper of a Conv failure shares every word but the node type with a Resize one."""
    text = ("[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Non-zero status code returned while running {} node. "
            "Name:'/up/{}' Status Message: Resize: NHWC is not supported yet")
    assert explorer.diagnose(text.format("Resize", "Resize")).matched
    assert not explorer.diagnose(text.format("Conv", "Conv")).matched


def test_the_execution_provider_named_is_read():
    clues = read_clues("sess = ort.InferenceSession(path, providers=['DmlExecutionProvider', 'CPUExecutionProvider'])")
    assert clues.providers == {"dmlexecutionprovider", "cpuexecutionprovider"}
    assert not read_clues("ExecutionProvider").providers


def test_a_text_other_calls_print_is_claimed_only_beside_a_resize():
    """Pillow's 'image has wrong mode' comes from 56 calls (ImagingError_ModeError): alone, or after a filter,
    it is no resize error; in a traceback of Image.resize it is the I;16 record."""
    assert not explorer.diagnose("ValueError: image has wrong mode").matched
    assert not explorer.diagnose('  File "a.py", line 3, in <module>\n    im.filter(ImageFilter.GaussianBlur(2))\n'
                                 "ValueError: image has wrong mode").matched
    answer = explorer.diagnose('  File "a.py", line 3, in <module>\n    im = im.resize((64, 64), Image.BICUBIC)\n'
                               "ValueError: image has wrong mode")
    assert answer.matched and answer.findings[0].record_id == "pillow-i16-filter-wrong-mode"


def test_a_paste_mostly_of_words_no_record_has_is_no_fragment():
    # "invalid", "shape", "model", "error" are known words; the rest of the message is about another compiler
    text = 'RuntimeError: Error compiling model: "compiler error:  Invalid dst shape8 x 6 x 512 x 1->1->8 x 5 x 512".'
    assert not explorer.diagnose(text).matched


def test_a_known_text_held_word_for_word_outranks_a_reworded_one():
    """ONNX Runtime's CPU ScalesValidation text and the CUDA kernel's share their words; the one the paste holds
    as a phrase is the answer."""
    cpu = ("upsamplebase.h:365 ScalesValidation 'Cubic' mode only support 2-D inputs ('Bicubic') or 4-D inputs "
           "with the corresponding outermost 2 scale values being 1 in the Resize operator")
    answer = explorer.diagnose(cpu)
    assert answer.matched and answer.findings[0].backend == "onnxruntime"


QNN_TEXT = ("[E:onnxruntime:, sequential_executor.cc:572] Non-zero status code returned while running Resize node. "
            "Name:'/up/Resize' Status Message: QNNExecutionProvider mode: 'nearest' coordinate_transformation_mode: "
            "'half_pixel' nearest_mode: 'round_prefer_ceil' (1, 16, 32, 32) (1, 16, 64, 64)")


def test_an_unmatched_text_gets_the_configurations_of_the_provider_it_names(monkeypatch):
    diagnose_module.runnable_configurations().clear()
    calls = []
    real = findings.check
    monkeypatch.setattr(findings, "check", lambda q: calls.append(q) or real(q))
    first = explorer.diagnose(QNN_TEXT)
    assert not first.matched and "running on onnxruntime-qnn" in first.message
    assert calls and all(q.backend.id == "onnxruntime-qnn" for q in calls)
    checked = len(calls)
    again = explorer.diagnose(QNN_TEXT.replace("/up/Resize", "/down/Resize"))
    assert again.message.split("Read from")[1] == first.message.split("Read from")[1]
    assert len(calls) == checked  # the configurations were derived once


@pytest.mark.parametrize("text, record_id", [
    # another runtime's sentence with the same words in another order
    ("Either scales or sizes MUST be provided as input.", "ort-scales-and-sizes"),
    ("Only one of scales or sizes must be provided as input.", "ort-scales-and-sizes"),
    # the same template with one of the known text's own words replaced
    ("Value passed to parameter 'input' has DataType bool not in list of allowed values: float16, float32", None),
    ("ValueError: Type <class 'tvm.relax.expr.Var'> for axes is currently unsupported.", None),
    # a word no record has in that place is a typo of the same text (OpenCV 4.5's 'funtion')
    ("error: (-215:Assertion failed) inv_scale_x > 0 in funtion 'resize'", "opencv"),
    # a fragment is a piece of the known text; a few of its words scattered in another sentence are not
    ("Resize only supports 3, 4, or 5 dims", "tvm-relay-invalid-mode"),
])
def test_a_known_text_is_matched_as_a_sentence_not_a_bag_of_words(text, record_id):
    answer = explorer.diagnose(text)
    if record_id is None:
        assert not answer.matched, [f.record_id for f in answer.findings]
    elif record_id == "opencv":
        assert answer.matched and answer.findings[0].backend == "opencv"
    else:
        assert answer.matched and answer.findings[0].record_id == record_id, [f.record_id for f in answer.findings]


@pytest.mark.parametrize("text", [
    "NotImplementedError: Conv version 11 is not implemented.",
    "Uncaught (in promise) Error: unrecognized input '' for node: /Clip",
    "Cannot create Convolution layer conv1 id:3 from unsupported opset: opset99",
    "RuntimeError: Quantization not yet supported for op: 'CONV_2D'.",
    "Ops that can be supported by the flex runtime (enabled via setting the -emit-select-tf-ops flag): Conv2D.",
    "Error: unsupported op_type Gather for op NodeProto { name: \"/Gather\" }",
    "While parsing node number 12 [Conv -> \"301\"]:\nERROR: ModelImporter.cpp:124 In function parseGraph:\n"
    "[5] Assertion failed: ctx->tensors().count(inputName)",
    "Check failed: opConverter ==> MNN Converter NOT_SUPPORTED_OP: [ Einsum ]",
    "SqueezeTflite.cpp:16: Check failed: !quantizedModel ==>",
    "TypeError: kernel_size must be an odd positive integer. Got 6",
    "ValueError: Node /Gather cannot handle ShapeExpr inputs.",
    "TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'",
])
def test_the_same_message_about_another_operator_is_left_alone(text):
    """Texts of the runtimes' generic error paths (an unknown op version, an unsupported op, a converter check)
    about another operator than a resize."""
    answer = explorer.diagnose(text)
    assert not answer.matched, [f.record_id for f in answer.findings]

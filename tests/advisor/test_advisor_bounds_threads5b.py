"""Records written from four thread texts (MIGraphX tf_crop_and_resize, the TensorRT 6/7 Resize scales rank
assertion, ncnn's missing Resize layer, burn-import's runtime-scales panic): their version bounds pinned by
facts found outside the knowledge base, the wording each release prints, and what diagnose makes of the texts.

A row says whether a record must hold at one release, with the source quoted at a tag (``git grep`` / ``git
show`` of the runtime's repository at that tag or branch).  The record's range is never read to write a row,
so moving a bound breaks the test.
"""

from __future__ import annotations

import pytest

import explorer
from explorer.advisor import burn_import, knowledge

KB = knowledge.load()

#: (record id, release, holds there, what decides it)
PINNED = [
    # MIGraphX: ROCm release numbers; the text at every rocm-* tag from rocm-4.1.0
    ("migraphx-tf-crop-and-resize", "4.1", True,
     "ROCm/AMDMIGraphX src/onnx/parse_resize.cpp @ rocm-4.1.0 line 90: "
     "MIGRAPHX_THROW(\"PARSE_RESIZE: \\\"tf_crop_and_resize\\\" mode is not supported!\")"),
    ("migraphx-tf-crop-and-resize", "6.4", True,
     "parse_resize.cpp @ rocm-6.4.0 line 111, in get_coord_trans_mode (the line ROCm/AMDMIGraphX#3843 quotes)"),
    ("migraphx-tf-crop-and-resize", "7.0.2", True, "parse_resize.cpp @ rocm-7.0.2 line 111"),
    ("migraphx-tf-crop-and-resize", "7.2.4", True, "parse_resize.cpp @ rocm-7.2.4 line 263, in set_coord_trans_mode"),
    # TensorRT: onnx-tensorrt release branches
    ("tensorrt-resize-scales-1d-before-8.0", "5.1", False,
     "onnx/onnx-tensorrt builtin_op_importers.cpp @ 5.1: no DEFINE_BUILTIN_OP_IMPORTER(Resize) (Upsample only)"),
    ("tensorrt-resize-scales-1d-before-8.0", "6.0", True,
     "onnx/onnx-tensorrt builtin_op_importers.cpp @ 6.0 line 2074, in DEFINE_BUILTIN_OP_IMPORTER(Resize): "
     "ASSERT(scales_weights.shape.nbDims == 1, ErrorCode::kUNSUPPORTED_NODE); Status.hpp: "
     "MAKE_ERROR(\"Assertion failed: \" #condition, ...)"),
    ("tensorrt-resize-scales-1d-before-8.0", "7.0", True,
     "builtin_op_importers.cpp @ 7.0 line 2542: ASSERT(scales_weights.shape.nbDims == 1, ...)"),
    ("tensorrt-resize-scales-1d-before-8.0", "7.2.1", True,
     "builtin_op_importers.cpp @ 7.2.1 line 3079: ASSERT(scales_weights.shape.nbDims == 1, ...)"),
    ("tensorrt-resize-scales-1d-before-8.0", "8.0", False,
     "builtin_op_importers.cpp @ 8.0-GA line 3502: ASSERT( (scales_weights.shape.nbDims == 1) && "
     "\"The scales input must be 1D.\", ...)"),
    ("tensorrt-resize-scales-1d-before-8.0", "9.3", False,
     "builtin_op_importers.cpp @ 9.3 line 4266: ASSERT_NODE((scales_weights.shape.nbDims == 1), "
     "\"The scales input must be 1D. Current rank of scales input = \" ...)"),
    # ncnn: release tags (dates); no tag has a Resize layer
    ("ncnn-no-resize-layer", "20190908", True,
     "Tencent/ncnn src/net.cpp @ 20190908 line 191: fprintf(stderr, \"layer %s not exists or registered\\n\", "
     "layer_type); src/CMakeLists.txt: ncnn_add_layer(Interp), no Resize"),
    ("ncnn-no-resize-layer", "20240410", True, "src/net.cpp @ 20240410: NCNN_LOGE(\"layer %s not exists or registered\")"),
    ("ncnn-no-resize-layer", "20260526", True,
     "src/net.cpp @ 20260526 line 1165: NCNN_LOGE(\"layer %s not exists or registered\", layer_type); "
     "src/layer has interp.cpp, no resize.cpp"),
    # Burn: the Burn release (burn-import inside tracel-ai/burn up to 0.20, then tracel-ai/burn-onnx)
    ("burn-onnx-runtime-scales-before-0.21", "0.13.0", False,
     "tracel-ai/burn crates/burn-import/src/onnx/to_burn.rs @ v0.13.0: no Resize conversion at all "
     "('Unsupported node conversion Resize')"),
    ("burn-onnx-runtime-scales-before-0.21", "0.14.0", True,
     "tracel-ai/burn crates/burn-import/src/onnx/op_configuration.rs @ v0.14.0 line 1182: "
     "panic!(\"Resize: either scales or sizes input is required\"), scales read from input.value only"),
    ("burn-onnx-runtime-scales-before-0.21", "0.19.1", True,
     "crates/burn-import/src/burn/node/resize.rs @ v0.19.1 line 143: "
     "panic!(\"Runtime resize requires Shape or Tensor sizes input\")"),
    ("burn-onnx-runtime-scales-before-0.21", "0.20.1", True,
     "crates/burn-import/src/burn/node/resize.rs @ v0.20.1 line 175: panic!(\"Runtime resize requires sizes input\")"),
    ("burn-onnx-runtime-scales-before-0.21", "0.21.0-pre.1", False,
     "tracel-ai/burn-onnx crates/burn-onnx/src/burn/node/resize.rs @ v0.21.0-pre.1 line 183: "
     "'else if let Some(ResizeScales::Runtime(scales_ref))' (2784e38, PR #39)"),
]

#: (record id, release, the text that release prints), read at the tag
WORDINGS = [
    ("burn-onnx-runtime-scales-before-0.21", "0.14.0", "Resize: either scales or sizes input is required"),
    ("burn-onnx-runtime-scales-before-0.21", "0.18.0", "Resize: either scales or sizes input is required"),
    ("burn-onnx-runtime-scales-before-0.21", "0.19.0", "Runtime resize requires Shape or Tensor sizes input"),
    ("burn-onnx-runtime-scales-before-0.21", "0.20.0", "Runtime resize requires sizes input"),
    ("tensorrt-resize-scales-1d-before-8.0", "6.0", "Assertion failed: scales_weights.shape.nbDims == 1"),
    ("tensorrt-resize-scales-1d-before-8.0", "7.2.1", "Assertion failed: scales_weights.shape.nbDims == 1"),
]

#: (text as quoted in the thread, trimmed as noted, the record that explains it)
TEXTS = [
    ("RuntimeError: /code/AMDMIGraphX/AMDMIGraphX/src/onnx/parse_resize.cpp:111: get_coord_trans_mode: "
     "PARSE_RESIZE: \"tf_crop_and_resize\" mode is not supported!", "migraphx-tf-crop-and-resize"),
    ("While parsing node number 156 [Resize -> \"570\"]:l/onnx-tensorrt/builtin_op_importers.cpp:2277 In function "
     "importResize:\n[8] Assertion failed: scales_weights.shape.nbDims == 1", "tensorrt-resize-scales-1d-before-8.0"),
    ("  ERROR burn_import::logger: PANIC => panicked at burn-import/src/burn/node/resize.rs:175:22:\n"
     "  Runtime resize requires sizes input", "burn-onnx-runtime-scales-before-0.21"),
    ("layer Resize not exists or registered", "ncnn-no-resize-layer"),
]

#: texts of the same shape about other operations: none of the new records may claim them
LOOK_ALIKES = [
    "layer Swish not exists or registered",
    "layer F.grid_sample not exists or registered",
    "layer 12 not exists or registered",
    "While parsing node number 3 [Conv -> \"5\"]:\nERROR: builtin_op_importers.cpp:763 In function importConv:\n"
    "[8] Assertion failed: shaped_bias_weights.shape.nbDims == 1",
    "panicked at burn-import/src/burn/node/slice.rs:10:5:\nRuntime slice requires starts input",
]
NEW = {"tensorrt-resize-scales-1d-before-8.0", "ncnn-no-resize-layer", "burn-onnx-runtime-scales-before-0.21"}


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    assert KB.record(record_id).versions.contains(release) is holds, f"{record_id} at {release}: {why}"


@pytest.mark.parametrize("record_id, release, text", WORDINGS)
def test_each_release_prints_its_wording(record_id, release, text):
    assert KB.record(record_id).text_at(release) == text


@pytest.mark.parametrize("text, record_id", TEXTS)
def test_diagnose_names_the_record(text, record_id):
    findings = explorer.diagnose(text).findings
    assert findings and findings[0].record_id == record_id, [f.record_id for f in findings]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_diagnose_does_not_claim_look_alikes(text):
    assert not {f.record_id for f in explorer.diagnose(text).findings} & NEW


@pytest.mark.parametrize("version", ["0.13.0", "0.14.0", "0.16.0", "0.17.1", "0.18.0", "0.19.0", "0.20.1",
                                     "0.21.0-pre.1", "0.21.0"])
def test_burn_runtime_scales_record_matches_the_import_eras(version):
    """The record and the release-by-release import data (burn_onnx_import.toml) agree: it holds exactly where
    the era converts Resize but not runtime scales, and prints the era's text."""
    record = KB.record("burn-onnx-runtime-scales-before-0.21")
    era = burn_import.era_for(version)
    refused = "resize" not in era.errors and not era.runtime_scales
    assert record.versions.contains(version) == refused, (version, era.id)
    if refused:
        assert record.text_at(version) == era.errors["runtime_scales"], (version, era.id)

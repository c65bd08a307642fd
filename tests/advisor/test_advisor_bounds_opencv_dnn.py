"""The bounds of OpenCV DNN's importer records (Caffe, Darknet, TensorFlow, TFLite), pinned by the measured cells.

``benchmarks/opencv_dnn_importers.py`` ran one-layer models in 32 wheels (opencv-python 3.4.1.15, 3.4.2.17,
opencv-python-headless 3.4.3.18 ... 5.1.0.95) and committed what each printed or computed to
``explorer/advisor/data/sources/opencv-dnn-importers.json``.  The tests read those cells, never a record's range,
to decide where each record must hold; the PINNED rows quote the cells that decide each bound.  The diagnose cases
are the texts those wheels printed (and texts of other layers that no record of a resize may claim).
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from explorer.advisor import knowledge
from explorer.advisor.diagnose import diagnose
from explorer.versions import parse_version

KB = knowledge.load()
CELLS = resources.files("explorer.advisor") / "data" / "sources" / "opencv-dnn-importers.json"
MEASURED = json.loads(CELLS.read_text())
RELEASES = {r["release"]: r["cells"] for r in MEASURED["releases"]}

#: (record id, release, holds there, the measured cell that decides it)
PINNED = [
    ("opencv-dnn-tf-resize-bilinear-unknown-3.4.1", "3.4.1", True,
     "opencv-python 3.4.1.15: 'Unknown layer type ResizeBilinear in op upsample_concat/ResizeBilinear'"),
    ("opencv-dnn-tf-resize-bilinear-unknown-3.4.1", "3.4.2", False, "opencv-python 3.4.2.17 imports ResizeBilinear"),
    ("opencv-dnn-tf-resize-bicubic", "3.4.1", True, "3.4.1.15: 'Unknown layer type ResizeBicubic in op ...'"),
    ("opencv-dnn-tf-resize-bicubic", "4.5.5", True, "4.5.5.64: 'Can't create layer ... of type \"ResizeBicubic\"'"),
    ("opencv-dnn-tf-resize-bicubic", "5.0.0", True, "5.0.0.93: 'Can't create layer ... of type \"ResizeBicubic\"'"),
    ("opencv-dnn-tf-align-corners-not-implemented", "3.4.2", True,
     "3.4.2.17: 'Resize with align_corners=true is not implemented'"),
    ("opencv-dnn-tf-align-corners-not-implemented", "3.4.3", False, "3.4.3.18 imports align_corners=True"),
    ("opencv-dnn-tf-resize-attributes-4x", "4.0.0", True, "4.0.0.21: half_pixel_centers bilinear differs, 0.87"),
    ("opencv-dnn-tf-resize-attributes-4x", "4.4.0", True, "4.4.0.46: half_pixel_centers bilinear differs, 0.87"),
    ("opencv-dnn-tf-resize-attributes-4x", "4.5.1", False, "4.5.1.48: every TF resize case equal"),
    ("opencv-dnn-tf-resize-attributes-4x", "3.4.5", False, "the 3.4 branch is the other record's"),
    ("opencv-dnn-tf-resize-attributes-3.4", "3.4.11", True, "3.4.11.45: half_pixel_centers bilinear differs, 0.87"),
    ("opencv-dnn-tf-resize-attributes-3.4", "3.4.13", False, "3.4.13.47: every TF resize case equal"),
    ("opencv-dnn-tf-resize-attributes-3.4", "4.0.0", False, "the 4.x releases are the other record's"),
    ("opencv-dnn-caffe-upsample-unregistered", "3.4.1", True, "3.4.1.15: 'Can't create layer \"Upsample1\" ...'"),
    ("opencv-dnn-caffe-upsample-unregistered", "4.14.0", True, "4.14.0.94: 'Can't create layer \"Upsample1\" ...'"),
    ("opencv-dnn-caffe-upsample-unregistered", "5.0.0", False, "5.0.0.93 has no readNetFromCaffe"),
    ("opencv-dnn-caffe-resize-layers-3.4.1", "3.4.1", True, "3.4.1.15: 'Can't create layer \"Interp1\" ...'"),
    ("opencv-dnn-caffe-resize-layers-3.4.1", "3.4.2", False, "3.4.2.17: Interp equal to align-corners bilinear"),
    ("opencv-dnn-caffe-resize-interpolation-required", "3.4.1", False, "3.4.1.15 has no Resize layer at all"),
    ("opencv-dnn-caffe-resize-interpolation-required", "3.4.2", True,
     "3.4.2.17: 'Required argument \"interpolation\" not found into dictionary'"),
    ("opencv-dnn-caffe-resize-interpolation-required", "4.14.0", True, "4.14.0.94: the same text"),
    ("opencv-dnn-darknet-upsample-3.4.1", "3.4.1", True, "3.4.1.15: 'Unknown layer type: upsample'"),
    ("opencv-dnn-darknet-upsample-3.4.1", "3.4.2", False, "3.4.2.17: [upsample] equal to a nearest repeat"),
    ("opencv-dnn-importers-removed-5", "4.14.0", False, "4.14.0.94 reads Caffe and Darknet models"),
    ("opencv-dnn-importers-removed-5", "5.0.0", True, "5.0.0.93: AttributeError, no readNetFromCaffe"),
    ("opencv-dnn-caffe-upsample-unregistered", "4.0.1", True,
     "4.0.1.24, ONNX Upsample-7: 'Can't create layer \"Y\" of type \"Upsample\"'"),
    ("opencv-dnn-onnx-resize10-ctm-required", "4.2.0", False, "4.2.0.34: 'Required argument \"interpolation\"'"),
    ("opencv-dnn-onnx-resize10-ctm-required", "4.3.0", True,
     "4.3.0.38: 'Required argument \"coordinate_transformation_mode\" not found into dictionary'"),
    ("opencv-dnn-onnx-resize10-ctm-required", "4.4.0", True, "4.4.0.46: the same text"),
    ("opencv-dnn-onnx-resize10-ctm-required", "4.5.1", False, "4.5.1.48: Resize-10 equal to the reference"),
    ("opencv-dnn-onnx-asymmetric-refused-4.3", "4.3.0", True, "4.3.0.38: 'interp_mode != \"asymmetric\"'"),
    ("opencv-dnn-onnx-asymmetric-refused-4.3", "4.4.0", False, "4.4.0.46: another check ('shapes.depth()')"),
    ("opencv-dnn-onnx-linear-half-pixel-before-4.5.4", "4.4.0", True, "4.4.0.46: half_pixel linear differs"),
    ("opencv-dnn-onnx-linear-half-pixel-before-4.5.4", "4.5.3", True, "4.5.3.56: half_pixel linear differs"),
    ("opencv-dnn-onnx-linear-half-pixel-before-4.5.4", "4.5.4", False, "4.5.4.60: equal"),
]


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    assert release in RELEASES, f"{release} was not measured"
    assert KB.record(record_id).versions.contains(release) is holds, f"{record_id} at {release}: {why}"


def _error(cells, case):
    return cells[case].get("error", "") if cells[case].get("status") == "error" else ""


def _differs(cells, *cases):
    return any(cells[c].get("compared") == "differs" for c in cases)


def _has(cells, importer_case):
    """The wheel has the importer of this case (5.0 dropped Caffe and Darknet, 5.1 TensorFlow)."""
    return cells[importer_case].get("error_type") != "AttributeError"


TF_ATTRIBUTES = ("tf-resize-bilinear-half-pixel", "tf-resize-nearest-half-pixel", "tf-resize-nearest-align-corners")

#: record id -> (the case whose text the record quotes or None, the releases it judges, whether the record holds
#: there, read from the cells)
DECIDED = {
    "opencv-dnn-tf-resize-bilinear-unknown-3.4.1": (
        "tf-resize-bilinear", lambda r, c: _has(c, "tf-resize-bilinear"),
        lambda c: "Unknown layer type ResizeBilinear" in _error(c, "tf-resize-bilinear")),
    "opencv-dnn-tf-resize-bicubic": (
        "tf-resize-bicubic", lambda r, c: _has(c, "tf-resize-bicubic"),
        lambda c: "ResizeBicubic" in _error(c, "tf-resize-bicubic")),
    "opencv-dnn-tf-align-corners-not-implemented": (
        "tf-resize-nearest-align-corners", lambda r, c: _has(c, "tf-resize-bilinear"),
        lambda c: "align_corners=true is not implemented" in _error(c, "tf-resize-nearest-align-corners")),
    "opencv-dnn-tf-resize-attributes-4x": (
        None, lambda r, c: parse_version(r) >= parse_version("4.0") and _has(c, "tf-resize-bilinear"),
        lambda c: _differs(c, *TF_ATTRIBUTES)),
    "opencv-dnn-tf-resize-attributes-3.4": (
        None, lambda r, c: parse_version(r) < parse_version("4.0"), lambda c: _differs(c, *TF_ATTRIBUTES)),
    "opencv-dnn-caffe-upsample-unregistered": (
        "caffe-upsample-bare", lambda r, c: _has(c, "caffe-upsample-bare"),
        lambda c: 'of type "Upsample"' in _error(c, "caffe-upsample-bare")),
    "opencv-dnn-caffe-resize-layers-3.4.1": (
        "caffe-interp-bare", lambda r, c: _has(c, "caffe-interp-bare"),
        lambda c: 'of type "Interp"' in _error(c, "caffe-interp-bare")),
    "opencv-dnn-caffe-resize-interpolation-required": (
        "caffe-resize-bare", lambda r, c: _has(c, "caffe-resize-bare"),
        lambda c: 'Required argument "interpolation"' in _error(c, "caffe-resize-bare")),
    "opencv-dnn-darknet-upsample-3.4.1": (
        "darknet-upsample", lambda r, c: _has(c, "darknet-upsample"),
        lambda c: "Unknown layer type: upsample" in _error(c, "darknet-upsample")),
    "opencv-dnn-onnx-resize10-ctm-required": (
        "onnx-resize10-nearest", lambda r, c: parse_version(r) >= parse_version("4.0"),
        lambda c: 'Required argument "coordinate_transformation_mode"' in _error(c, "onnx-resize10-nearest")),
    "opencv-dnn-onnx-asymmetric-refused-4.3": (
        "onnx-resize11-nearest-asymmetric", lambda r, c: parse_version(r) >= parse_version("4.0"),
        lambda c: 'interp_mode != "asymmetric"' in _error(c, "onnx-resize11-nearest-asymmetric")),
    "opencv-dnn-onnx-linear-half-pixel-before-4.5.4": (
        None, lambda r, c: parse_version(r) >= parse_version("4.0")
        and c["onnx-resize11-linear-half-pixel"]["status"] == "ok",
        lambda c: _differs(c, "onnx-resize11-linear-half-pixel")),
    "opencv-dnn-importers-removed-5": (
        "caffe-interp", lambda r, c: True, lambda c: not _has(c, "caffe-interp") and not _has(c, "darknet-upsample")),
}


def _pattern(template: str) -> str:
    parts = re.split(r"\{[^{}]*\}", template)
    return r".*?".join(r"\s+".join(map(re.escape, p.split())) for p in parts)


@pytest.mark.parametrize("record_id", sorted(DECIDED))
def test_the_record_holds_exactly_where_the_cells_say(record_id):
    """Every measured wheel the record judges: the record's range contains it iff the cells show the failure or
    the difference, and the text the wheel printed holds the record's wording for that release."""
    case, judged, holds = DECIDED[record_id]
    record = KB.record(record_id)
    seen = 0
    for release, cells in RELEASES.items():
        if not judged(release, cells):
            continue
        seen += 1
        assert record.versions.contains(release) is holds(cells), f"{record_id} at {release}"
        if case and holds(cells):
            assert re.search(_pattern(record.text_at(release)), cells[case]["error"]), (record_id, release)
    assert seen >= 2


def test_the_importers_compute_the_frameworks_numbers_in_scope():
    """opencv-dnn-importer-resizes-equal: in every release of the scope every case with a reference that its
    importers read runs and equals the reference."""
    lib = KB.runtimes["opencv-dnn"]
    record = KB.record("opencv-dnn-importer-resizes-equal")
    expected = {"caffe-interp", "caffe-interp-zoom", "darknet-upsample", "tf-resize-bilinear",
                "tf-resize-bilinear-align-corners", "tf-resize-bilinear-half-pixel", "tf-resize-nearest",
                "tf-resize-nearest-align-corners", "tf-resize-nearest-half-pixel", "tflite-resize-bilinear",
                "tflite-resize-bilinear-half-pixel", "tflite-resize-nearest", "tflite-resize-nearest-half-pixel"}
    in_scope = [r for r in RELEASES if lib.in_scope(r)]
    assert len(in_scope) >= 10
    for release in in_scope:
        cells = RELEASES[release]
        assert record.versions.contains(release)
        for case in expected:
            if cells[case]["status"] == "absent" or cells[case].get("error_type") == "AttributeError":
                continue  # TFLite before 4.8; Caffe and Darknet in 5.0
            assert cells[case].get("compared") == "equal", (release, case, cells[case])
    assert RELEASES["4.8.1"]["tflite-resize-bilinear"]["compared"] == "equal"
    assert RELEASES["4.7.0"]["tflite-resize-bilinear"]["status"] == "absent"


def test_the_registered_upsample_fix_runs_wherever_caffe_upsample_fails():
    """The fix opencv-dnn-register-upsample-layer, measured: from 3.4.2 to 4.14 the registered Python layer
    equals a nearest repeat, in every wheel where the plain model fails."""
    assert "opencv-dnn-register-upsample-layer" in KB.record("opencv-dnn-caffe-upsample-unregistered").fixes
    ran = 0
    for release, cells in RELEASES.items():
        if parse_version(release) < parse_version("3.4.2") or not _has(cells, "caffe-upsample"):
            continue
        assert cells["caffe-upsample-registered"]["compared"] == "equal", release
        ran += 1
    assert ran >= 25


#: (pasted text, the record diagnose answers with; None: not a known resize error)
DIAGNOSED = [
    (r"cv2.error: C:\projects\opencv-python\opencv\modules\dnn\src\tensorflow\tf_importer.cpp:1487: error: (-2) "
     r"Unknown layer type ResizeBilinear in op upsample_concat 1/ResizeBilinear in function "
     r"cv::dnn::experimental_dnn_v3::`anonymous-namespace'::TFImporter::populateNet",
     "opencv-dnn-tf-resize-bilinear-unknown-3.4.1"),
    ('Error: Unspecified error (Can\'t create layer "Upsample1" of type "Upsample") in '
     r"cv::dnn::LayerData::getLayerInstance, file \opencv\modules\dnn\src\dnn.cpp, line 518",
     "opencv-dnn-caffe-upsample-unregistered"),
    ("[ERROR:0] onnx_importer.cpp (1798) handleNode DNN/ONNX: ERROR during processing node with 2 inputs and "
     "1 outputs: [Upsample]:(10)", "opencv-dnn-resize-node-import-error"),
    ("cv2.error: OpenCV(4.5.5) /io/opencv/modules/dnn/src/dnn.cpp:621: error: (-2:Unspecified error) Can't create "
     "layer \"upsample_concat/ResizeBicubic\" of type \"ResizeBicubic\" in function 'getLayerInstance'",
     "opencv-dnn-tf-resize-bicubic"),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/tensorflow/tf_importer.cpp:1582: error: (-2) Unknown "
     "layer type ResizeBicubic in op upsample_concat/ResizeBicubic in function populateNet",
     "opencv-dnn-tf-resize-bicubic"),
    ("cv2.error: OpenCV(3.4.2) /io/opencv/modules/dnn/src/layers/resize_layer.cpp:38: error: (-213:The "
     "function/feature is not implemented) Resize with align_corners=true is not implemented in function "
     "'ResizeLayerImpl'", "opencv-dnn-tf-align-corners-not-implemented"),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/layers/resize_nearest_neighbor_layer.cpp:24: error: "
     "(-213) Nearest neighborhood resize with align_corners=true is not implemented in function "
     "ResizeNearestNeighborLayerImpl", "opencv-dnn-tf-align-corners-not-implemented"),
    ("cv2.error: OpenCV(4.14.0) /io/opencv/modules/dnn/src/net_impl.hpp:108: error: (-2:Unspecified error) Can't "
     "create layer \"Upsample1\" of type \"Upsample\" in function 'getLayerInstance'",
     "opencv-dnn-caffe-upsample-unregistered"),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/dnn.cpp:387: error: (-2) Can't create layer \"Interp1\" "
     "of type \"Interp\" in function getLayerInstance", "opencv-dnn-caffe-resize-layers-3.4.1"),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/dnn.cpp:387: error: (-2) Can't create layer \"Resize1\" "
     "of type \"Resize\" in function getLayerInstance", "opencv-dnn-caffe-resize-layers-3.4.1"),
    ("cv2.error: OpenCV(4.5.5) /io/opencv/modules/dnn/include/opencv2/dnn/dnn.inl.hpp:350: error: "
     "(-204:Requested object was not found) Required argument \"interpolation\" not found into dictionary in "
     "function 'get'", "opencv-dnn-caffe-resize-interpolation-required"),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/darknet/darknet_io.cpp:503: error: (-212) Unknown layer "
     "type: upsample in function ReadDarknetFromCfgFile", "opencv-dnn-darknet-upsample-3.4.1"),
    ("cv2.error: OpenCV(4.4.0) /tmp/pip-req-build-dglzv4yn/opencv/modules/dnn/include/opencv2/dnn/dnn.inl.hpp:349: "
     "error: (-204:Requested object was not found) Required argument \"coordinate_transformation_mode\" not found "
     "into dictionary in function 'get'", "opencv-dnn-onnx-resize10-ctm-required"),
    ("cv2.error: OpenCV(4.3.0) /tmp/pip-req-build-jl2xmxs1/opencv/modules/dnn/src/onnx/onnx_importer.cpp:1233: "
     "error: (-215:Assertion failed) interp_mode != \"asymmetric\" in function 'populateNet'",
     "opencv-dnn-onnx-asymmetric-refused-4.3"),
    ("cv2.error: OpenCV(4.0.1) /io/opencv/modules/dnn/src/dnn.cpp:518: error: (-2:Unspecified error) Can't create "
     "layer \"Y\" of type \"Upsample\" in function 'getLayerInstance'", "opencv-dnn-caffe-upsample-unregistered"),
    ("cv2.error: OpenCV(4.9.0) error: (-215:Assertion failed) interp_mode != \"tf_crop_and_resize\" in function "
     "'parseResize'", "opencv-dnn-tf-crop-and-resize"),
    # other layers' refusals, and another module's resize: no importer record of a resize claims them
    ("cv2.error: OpenCV(4.1.0) /io/opencv/modules/dnn/src/dnn.cpp:524: error: (-2:Unspecified error) Can't create "
     "layer \"Mish1\" of type \"Mish\" in function 'getLayerInstance'", None),
    ("cv2.error: OpenCV(4.5.1) error: (-2:Unspecified error) Can't create layer \"conv1\" of type \"Convolution3D\" "
     "in function 'getLayerInstance'", None),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/tensorflow/tf_importer.cpp:1582: error: (-2) Unknown "
     "layer type Cast in op ToFloat in function populateNet", None),
    ("cv2.error: OpenCV(3.4.1) /io/opencv/modules/dnn/src/darknet/darknet_io.cpp:503: error: (-212) Unknown layer "
     "type: mish in function ReadDarknetFromCfgFile", None),
    ("cv2.error: OpenCV(4.5.5) /io/opencv/modules/dnn/include/opencv2/dnn/dnn.inl.hpp:350: error: "
     "(-204:Requested object was not found) Required argument \"num_output\" not found into dictionary in "
     "function 'get'", None),
    ("AttributeError: module 'cv2.dnn' has no attribute 'readNetFromCaffe'", None),
]


@pytest.mark.parametrize("text, expected", DIAGNOSED, ids=lambda x: (x or "none")[:60] if isinstance(x, str) or x is None
                         else None)
def test_diagnose_names_the_importer_record(text, expected):
    d = diagnose(text)
    ids = [f.record_id for f in d.findings] if d.matched else []
    if expected is None:
        assert not any(i.startswith("opencv-dnn-") for i in ids), ids
    else:
        assert d.matched and ids[0] == expected, ids


def test_the_development_texts_are_read_as_opencv_dnn_conversions():
    """The two pasted texts the importer records were written for: runtime opencv-dnn, operation convert, the mode
    of the op named (ResizeBilinear: linear; Caffe's Upsample: nearest)."""
    for text, mode in ((DIAGNOSED[0][0], "linear"), (DIAGNOSED[1][0], "nearest")):
        finding = diagnose(text).findings[0]
        record = KB.record(finding.record_id)
        assert record.library == "opencv-dnn", finding.record_id
        assert record.operation == "convert", finding.record_id
        assert list(record.modes) == [mode], (finding.record_id, record.modes)

"""OpenCV DNN's resize layers through its other importers: Caffe, Darknet, TensorFlow and TFLite, and the ONNX
importer of the releases before the probe's (3.4.4 ... 4.5.4: Upsample-7/9, Resize-10/11/13 nodes).

Each case is a one-layer model that needs no weights (a Caffe prototxt, a Darknet cfg, a TensorFlow GraphDef
written here byte by byte, an ONNX model written with the installed onnx, a TFLite flatbuffer converted by the
installed TensorFlow when there is one).  Every release's venv loads it with ``cv2.dnn.readNetFrom*`` and runs a
forward on the CPU; the error text, or the output compared with a numpy reference of the coordinate rule the
framework that wrote the model computes (``REFERENCE``), is one cell.

    python benchmarks/opencv_dnn_importers.py VENV_PYTHON [VENV_PYTHON ...]   # -> the JSON on stdout
    python benchmarks/opencv_dnn_importers.py --write VENV_PYTHON ...         # -> the committed cells

The child side (``--child DIR``) imports only cv2, numpy and the standard library, so it runs in the venvs of
releases as old as the wheels for Python 3.7.  The committed cells are
``explorer/advisor/data/sources/opencv-dnn-importers.json``; ``tests/advisor/test_advisor_bounds_opencv_dnn.py``
reads them to pin the records' bounds.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "explorer" / "advisor" / "data" / "sources" / "opencv-dnn-importers.json"
SHAPE = (1, 2, 5, 7)  # NCHW input of every case; the TF and TFLite cases get it as NHWC
OUT_HW = (8, 12)  # ratios 1.6 and 1.71: every coordinate rule picks other pixels

# ---------------------------------------------------------------------------------------------------- models
CAFFE_HEAD = 'name: "t"\ninput: "data"\ninput_dim: 1\ninput_dim: 2\ninput_dim: 5\ninput_dim: 7\n'


def _caffe(layer_type, name, params=""):
    return CAFFE_HEAD + f'layer {{ name: "{name}" type: "{layer_type}" bottom: "data" top: "out" {params}}}\n'


CAFFE = {
    "caffe-interp": _caffe("Interp", "Interp1", "interp_param {{ height: {} width: {} }} ".format(*OUT_HW)),
    "caffe-interp-bare": _caffe("Interp", "Interp1"),
    "caffe-interp-zoom": _caffe("Interp", "Interp1", "interp_param { zoom_factor: 2 } "),
    "caffe-upsample": _caffe("Upsample", "Upsample1", "upsample_param { scale: 2 } "),
    "caffe-upsample-bare": _caffe("Upsample", "Upsample1"),
    "caffe-resize-bare": _caffe("Resize", "Resize1"),
    "caffe-mish": _caffe("Mish", "Mish1"),
}

DARKNET = {
    "darknet-upsample": "[net]\nwidth=7\nheight=5\nchannels=2\n\n[upsample]\nstride=2\n",
}


# TensorFlow GraphDef, written with a protobuf encoder of the few fields needed (tensorflow/core/framework/
# graph.proto, node_def.proto, attr_value.proto, tensor.proto, tensor_shape.proto)
def _varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(num, payload):  # length-delimited
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _vfield(num, value):  # varint
    return _varint(num << 3) + _varint(value)


def _attr(key, value):  # map<string, AttrValue> entry
    return _field(5, _field(1, key.encode()) + _field(2, value))


DT_FLOAT, DT_INT32 = 1, 3


def _node(name, op, inputs=(), attrs=b""):
    body = _field(1, name.encode()) + _field(2, op.encode())
    for i in inputs:
        body += _field(3, i.encode())
    return _field(1, body + attrs)  # GraphDef.node = 1


def _shape(dims):
    return b"".join(_field(2, _vfield(1, d)) for d in dims)


def tf_graph(op, align_corners=False, half_pixel_centers=False, size=OUT_HW):
    n, c, h, w = SHAPE
    placeholder = _node("x", "Placeholder", (), _attr("dtype", _vfield(6, DT_FLOAT))
                        + _attr("shape", _field(7, _shape((n, h, w, c)))))
    tensor = _vfield(1, DT_INT32) + _field(2, _shape((2,))) + _field(4, struct.pack("<2i", *size))
    const = _node("size", "Const", (), _attr("dtype", _vfield(6, DT_INT32)) + _attr("value", _field(8, tensor)))
    attrs = _attr("T", _vfield(6, DT_FLOAT)) + _attr("align_corners", _vfield(5, int(align_corners)))
    if half_pixel_centers:
        attrs += _attr("half_pixel_centers", _vfield(5, 1))
    resize = _node("upsample_concat/" + op, op, ("x", "size"), attrs)
    return placeholder + const + resize


TF = {
    "tf-resize-bilinear": ("ResizeBilinear", False, False),
    "tf-resize-bilinear-align-corners": ("ResizeBilinear", True, False),
    "tf-resize-bilinear-half-pixel": ("ResizeBilinear", False, True),
    "tf-resize-nearest": ("ResizeNearestNeighbor", False, False),
    "tf-resize-nearest-align-corners": ("ResizeNearestNeighbor", True, False),
    "tf-resize-nearest-half-pixel": ("ResizeNearestNeighbor", False, True),
    "tf-resize-bicubic": ("ResizeBicubic", False, False),
}

TFLITE = {
    "tflite-resize-bilinear": ("bilinear", False, False),
    "tflite-resize-bilinear-half-pixel": ("bilinear", False, True),
    "tflite-resize-nearest": ("nearest", False, False),
    "tflite-resize-nearest-half-pixel": ("nearest", False, True),
}


# ONNX nodes for the releases before the probe's (opencv-dnn's ONNX records are measured from 4.5.5): written
# with the installed onnx, compared with the numpy reference of the node's coordinate rule
ONNX = {  # case -> (opset, op, attributes, scales or None, sizes or None)
    "onnx-upsample7-nearest": (7, "Upsample", {"mode": "nearest", "scales": [1.0, 1.0, 2.0, 2.0]}, None, None),
    "onnx-upsample9-nearest": (9, "Upsample", {"mode": "nearest"}, [1.0, 1.0, 2.0, 2.0], None),
    "onnx-upsample9-linear": (9, "Upsample", {"mode": "linear"}, [1.0, 1.0, 2.0, 2.0], None),
    "onnx-resize10-nearest": (10, "Resize", {"mode": "nearest"}, [1.0, 1.0, 2.0, 2.0], None),
    "onnx-resize11-nearest-asymmetric": (11, "Resize", {"mode": "nearest", "coordinate_transformation_mode":
                                                        "asymmetric", "nearest_mode": "floor"},
                                         [1.0, 1.0, 2.0, 2.0], None),
    "onnx-resize11-linear-align-corners": (11, "Resize", {"mode": "linear", "coordinate_transformation_mode":
                                                          "align_corners"}, None, [1, 2, 8, 12]),
    "onnx-resize11-linear-half-pixel": (11, "Resize", {"mode": "linear", "coordinate_transformation_mode":
                                                       "half_pixel"}, None, [1, 2, 8, 12]),
    "onnx-resize13-nearest-sizes": (13, "Resize", {"mode": "nearest", "coordinate_transformation_mode":
                                                   "half_pixel", "nearest_mode": "round_prefer_floor"},
                                    None, [1, 2, 8, 12]),
}


def onnx_model(opset, op, attributes, scales, sizes):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
    inits, inputs = [], ["X"]
    if op == "Resize" and opset >= 11:
        inits.append(numpy_helper.from_array(np.zeros(0, np.float32), "roi"))
        inputs.append("roi")
    if scales is not None and not (op == "Upsample" and opset < 9):
        inits.append(numpy_helper.from_array(np.array(scales, np.float32), "scales"))
        inputs.append("scales")
    elif sizes is not None:
        inits.append(numpy_helper.from_array(np.zeros(0, np.float32), "scales"))
        inits.append(numpy_helper.from_array(np.array(sizes, np.int64), "sizes"))
        inputs += ["scales", "sizes"]
    out_hw = sizes[2:] if sizes else [int(SHAPE[2] * 2), int(SHAPE[3] * 2)]
    node = helper.make_node(op, inputs, ["Y"], name="resize0", **attributes)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(SHAPE))],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, list(SHAPE[:2]) + out_hw)],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 3 if opset < 9 else 4 if opset < 11 else 6 if opset < 13 else 7
    return model


# ------------------------------------------------------------------------------------------------ references
def _linear_weights(n_in, n_out, rule):
    import numpy as np
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        if rule == "align_corners":
            x = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        elif rule == "half_pixel":
            x = max((o + 0.5) * n_in / n_out - 0.5, 0.0)
        else:
            x = o * n_in / n_out
        i0 = min(int(np.floor(x)), n_in - 1)
        i1 = min(i0 + 1, n_in - 1)
        f = x - i0
        m[o, i0] += 1 - f
        m[o, i1] += f
    return m


def _nearest_weights(n_in, n_out, rule):
    import numpy as np
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        if rule == "align_corners":
            i = int(np.floor(o * (n_in - 1) / (n_out - 1) + 0.5)) if n_out > 1 else 0
        elif rule == "half_pixel":
            i = int(np.floor((o + 0.5) * n_in / n_out))
        else:
            i = int(np.floor(o * n_in / n_out))
        m[o, min(i, n_in - 1)] = 1
    return m


def reference(kernel, rule, x, out_hw=OUT_HW):
    """NCHW resize of ``x`` to ``out_hw`` with the kernel and coordinate rule, in float64."""
    import numpy as np
    weights = _linear_weights if kernel == "linear" else _nearest_weights
    mh, mw = weights(x.shape[2], out_hw[0], rule), weights(x.shape[3], out_hw[1], rule)
    return np.einsum("oh,nchw,pw->ncop", mh, x.astype(np.float64), mw)


REFERENCE = {  # case -> (kernel, coordinate rule) the framework that wrote the model computes
    "caffe-interp": ("linear", "align_corners"),  # Caffe Interp (PSPNet / DeepLab): align-corners bilinear
    "caffe-interp-zoom": ("linear", "align_corners", (9, 13)),  # Caffe: out = in + (in - 1) * (zoom - 1)
    "caffe-interp-bare": ("linear", "align_corners", (5, 7)),  # no size, no zoom: the input's size
    "darknet-upsample": ("nearest", "asymmetric", (10, 14)),
    "caffe-upsample-registered": ("nearest", "asymmetric", (10, 14)),  # darknet upsample_layer.c: out[i] = in[i / stride]
    "tf-resize-bilinear": ("linear", "asymmetric"),
    "tf-resize-bilinear-align-corners": ("linear", "align_corners"),
    "tf-resize-bilinear-half-pixel": ("linear", "half_pixel"),
    "tf-resize-nearest": ("nearest", "asymmetric"),
    "tf-resize-nearest-align-corners": ("nearest", "align_corners"),
    "tf-resize-nearest-half-pixel": ("nearest", "half_pixel"),
    # ONNX: Upsample and Resize-10 are asymmetric; half_pixel + round_prefer_floor picks floor((o + 0.5) in / out)
    # here, as no (o + 0.5) in / out is an integer for 5 -> 8 and 7 -> 12
    "onnx-upsample7-nearest": ("nearest", "asymmetric", (10, 14)),
    "onnx-upsample9-nearest": ("nearest", "asymmetric", (10, 14)),
    "onnx-upsample9-linear": ("linear", "asymmetric", (10, 14)),
    "onnx-resize10-nearest": ("nearest", "asymmetric", (10, 14)),
    "onnx-resize11-nearest-asymmetric": ("nearest", "asymmetric", (10, 14)),
    "onnx-resize11-linear-align-corners": ("linear", "align_corners"),
    "onnx-resize11-linear-half-pixel": ("linear", "half_pixel"),
    "onnx-resize13-nearest-sizes": ("nearest", "half_pixel"),
    "tflite-resize-bilinear": ("linear", "asymmetric"),
    "tflite-resize-bilinear-half-pixel": ("linear", "half_pixel"),
    "tflite-resize-nearest": ("nearest", "asymmetric"),
    "tflite-resize-nearest-half-pixel": ("nearest", "half_pixel"),
}


def write_models(folder):
    cases = []
    for cid, text in CAFFE.items():
        (folder / f"{cid}.prototxt").write_text(text)
        cases.append({"id": cid, "importer": "caffe", "path": f"{cid}.prototxt"})
    cases.append({"id": "caffe-upsample-registered", "importer": "caffe", "path": "caffe-upsample.prototxt",
                  "register": "Upsample"})
    for cid, text in DARKNET.items():
        (folder / f"{cid}.cfg").write_text(text)
        cases.append({"id": cid, "importer": "darknet", "path": f"{cid}.cfg"})
    for cid, args in TF.items():
        (folder / f"{cid}.pb").write_bytes(tf_graph(*args))
        cases.append({"id": cid, "importer": "tensorflow", "path": f"{cid}.pb"})
    try:
        import onnx  # noqa: F401
    except ImportError:  # the ONNX cases need the onnx package
        pass
    else:
        for cid, args in ONNX.items():
            (folder / f"{cid}.onnx").write_bytes(onnx_model(*args).SerializeToString())
            cases.append({"id": cid, "importer": "onnx", "path": f"{cid}.onnx"})
    try:
        import tensorflow as tf
    except ImportError:  # the TFLite cases need a converter
        return cases
    for cid, (method, align, half) in TFLITE.items():
        fn = tf.compat.v1.image.resize_bilinear if method == "bilinear" else tf.compat.v1.image.resize_nearest_neighbor
        n, c, h, w = SHAPE
        f = tf.function(lambda x, fn=fn, align=align, half=half: fn(x, OUT_HW, align_corners=align,
                                                                     half_pixel_centers=half),
                        input_signature=[tf.TensorSpec((n, h, w, c), tf.float32)])
        converter = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
        (folder / f"{cid}.tflite").write_bytes(converter.convert())
        cases.append({"id": cid, "importer": "tflite", "path": f"{cid}.tflite"})
    return cases


# ------------------------------------------------------------------------------------------------- the child
class UpsampleLayer:
    """The fix opencv-dnn-register-upsample-layer: Caffe's nearest Upsample as a Python layer."""

    def __init__(self, params, blobs):
        self.scale = int(params.get("scale", 2))

    def getMemoryShapes(self, inputs):
        n, c, h, w = inputs[0]
        return [[n, c, h * self.scale, w * self.scale]]

    def forward(self, inputs):
        return [inputs[0].repeat(self.scale, axis=2).repeat(self.scale, axis=3)]


def child(folder):
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    x = np.asarray(json.loads((Path(folder) / "input.json").read_text()), np.float32)
    cells = {}
    for case in json.loads((Path(folder) / "cases.json").read_text()):
        path = str(Path(folder) / case["path"])
        cell = {"stage": "read"}
        registered = case.get("register") and hasattr(cv2, "dnn_registerLayer")
        if registered:
            cv2.dnn_registerLayer(case["register"], UpsampleLayer)
        try:
            if case.get("register") and not registered:
                cells[case["id"]] = {"status": "absent", "stage": "read", "error": "cv2 has no dnn_registerLayer"}
                continue
            if case["importer"] == "caffe":
                net = cv2.dnn.readNetFromCaffe(path)
            elif case["importer"] == "darknet":
                net = cv2.dnn.readNetFromDarknet(path)
            elif case["importer"] == "onnx":
                net = cv2.dnn.readNetFromONNX(path)
            elif case["importer"] == "tensorflow":
                net = cv2.dnn.readNetFromTensorflow(path)
            else:
                if not hasattr(cv2.dnn, "readNetFromTFLite"):
                    cells[case["id"]] = {"status": "absent", "stage": "read",
                                         "error": "cv2.dnn has no readNetFromTFLite"}
                    continue
                net = cv2.dnn.readNetFromTFLite(path)
            cell["layers"] = [net.getLayer(name).type for name in net.getLayerNames()]
            cell["stage"] = "forward"
            blob = x  # every importer takes NCHW blobs (the TensorFlow and TFLite ones permute themselves)
            net.setPreferableBackend(getattr(cv2.dnn, "DNN_BACKEND_OPENCV", 0))  # 3.4.1: DNN_BACKEND_DEFAULT (0)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
            net.setInput(blob)
            y = np.asarray(net.forward())
            cell.update(status="ok", shape=list(y.shape), output=y.astype(np.float64).ravel().tolist())
        except Exception as exc:  # cv2.error, and SystemError of the old bindings
            cell.update(status="error", error_type=type(exc).__name__, error=str(exc).strip())
        finally:
            if registered:
                cv2.dnn_unregisterLayer(case["register"])
        cells[case["id"]] = cell
    print(json.dumps({"release": cv2.__version__, "wheel": _wheel(), "cells": cells}))


def _wheel():
    try:
        from importlib import metadata
    except ImportError:  # Python 3.6 and 3.7
        import pkg_resources
        names, version = ("opencv-python-headless", "opencv-python"), pkg_resources.get_distribution
    else:
        names, version = ("opencv-python-headless", "opencv-python"), metadata.version
    for name in names:
        try:
            got = version(name)
            return "{}=={}".format(name, getattr(got, "version", got))
        except Exception:  # not installed under that name
            continue
    return ""


# ------------------------------------------------------------------------------------------------ the parent
def _compare(cid, cell, x):
    import numpy as np
    if cell.get("status") != "ok":
        return
    y = np.asarray(cell.pop("output"))
    if cid not in REFERENCE:
        cell["compared"] = "no reference"
        return
    kernel, rule, *out_hw = REFERENCE[cid]
    ref = reference(kernel, rule, x, *out_hw)
    if list(ref.shape) != cell["shape"]:
        cell["compared"] = f"shape {cell['shape']} vs the reference's {list(ref.shape)}"
        return
    diff = float(np.max(np.abs(y.reshape(ref.shape) - ref)))
    cell["max_abs_diff"] = round(diff, 4)
    cell["compared"] = "equal" if diff < 1e-4 else "differs"
    cell["reference"] = "{} {}".format(*REFERENCE[cid][:2])


def measure(pythons):
    import numpy as np
    rng = np.random.default_rng(0)
    x = rng.standard_normal(SHAPE).astype(np.float32)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cases = write_models(folder)
        (folder / "cases.json").write_text(json.dumps(cases))
        (folder / "input.json").write_text(json.dumps(x.tolist()))
        for python in pythons:
            proc = subprocess.run([python, os.path.abspath(__file__), "--child", tmp], capture_output=True,
                                  text=True, timeout=600)
            lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
            if not lines:
                results.append({"python": python, "failed": proc.stderr[-2000:]})
                continue
            result = json.loads(lines[-1])
            for cid, cell in result["cells"].items():
                if "error" in cell:  # the temporary folder the models were written to
                    cell["error"] = cell["error"].replace(tmp, "MODELS")
                _compare(cid, cell, x)
            results.append(result)
    return {"cases": {c["id"]: c["importer"] for c in cases}, "models": {**CAFFE, **DARKNET},
            "input_shape": list(SHAPE), "output_hw": list(OUT_HW), "releases": results}


def main(argv):
    if argv[:1] == ["--child"]:
        child(argv[1])
        return
    write = argv[:1] == ["--write"]
    data = measure(argv[1:] if write else argv)
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    if write:
        OUT.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])

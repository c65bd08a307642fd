"""The knowledge base's error texts are what the installed libraries really print, and diagnose reads them.

Every case runs the real library (PyTorch on the CPU and both ONNX exporters, ONNX Runtime, TensorFlow, JAX,
Pillow, OpenCV), takes the whole text the user sees (exception and traceback, or the warning), and checks
that the record's wording for the installed release (``Record.text_at``) is in it and that ``diagnose`` of the
whole text answers with that record.  A text a release no longer prints fails here when the library is
upgraded, which is when the record needs a new wording.
"""

from __future__ import annotations

import io
import re
import traceback
import warnings
from contextlib import redirect_stderr

import numpy as np
import pytest

import explorer
from explorer.advisor import knowledge

pytestmark = pytest.mark.oracle
KB = knowledge.load()


def _version(module_name: str) -> str:
    module = pytest.importorskip(module_name, reason="the oracle libraries are installed by the 'oracles' extra")
    return re.match(r"[\d.]+", module.__version__).group(0).rstrip(".")


VERSIONS = {"torch": "torch", "onnxruntime": "onnxruntime", "tensorflow": "tensorflow", "jax": "jax",
            "pillow": "PIL", "opencv": "cv2"}


def _pattern(template: str) -> str:
    """A regular expression for a known text: ``{placeholders}`` match anything, whitespace is flexible."""
    parts = re.split(r"\{[^{}]*\}|…", template)
    return r".*?".join(r"\s+".join(map(re.escape, part.split())) if part.strip() else r"\s*" for part in parts)


def _observe(call) -> str:
    """Everything the user sees: the exception with its traceback, the warnings and what went to stderr."""
    err = io.StringIO()
    with warnings.catch_warnings(record=True) as caught, redirect_stderr(err):
        warnings.simplefilter("always")
        try:
            call()
            text = ""
        except Exception as exc:  # the error under test
            text = "".join(traceback.format_exception(exc))
            cause = exc.__cause__
            while cause is not None:
                text += f"\n{type(cause).__name__}: {cause}"
                cause = cause.__cause__
    shown = "\n".join(f"{w.category.__name__}: {w.message}" for w in caught)
    return "\n".join(t for t in (text, shown, err.getvalue()) if t)


def check_live(record_id: str, library: str, call, capfd=None, caplog=None):
    record = KB.record(record_id)
    version = _version(VERSIONS[library])
    assert record.versions.contains(version), f"{record_id} does not hold for the installed {library} {version}"
    seen = _observe(call)
    if capfd is not None:  # text written by C++ code straight to the process' stderr
        seen += "\n" + capfd.readouterr().err
    if caplog is not None:  # text a library logs (the user sees it on stderr)
        seen += "\n" + caplog.text
    wording = record.text_at(version)
    texts = [wording] + [t for t in record.also_seen]
    assert any(re.search(_pattern(t), seen, re.S) for t in texts), (record_id, wording, seen[-1500:])
    answer = explorer.diagnose(seen)
    assert answer.matched and record_id in [f.record_id for f in answer.findings], (record_id, answer.message)


# ----------------------------------------------------------------------------------------------- PyTorch (CPU)
def _torch():
    return pytest.importorskip("torch")


def _x(dims=2, dtype="float32", n=5):
    torch = _torch()
    return torch.rand((1, 1) + (n,) * dims).to(getattr(torch, dtype))


def _interp(*args, **kwargs):
    return _torch().nn.functional.interpolate(*args, **kwargs)


TORCH = {
    "torch-lanczos-requires-antialias": lambda: _interp(_x(), size=(3, 3), mode="lanczos"),
    "torch-lanczos-align-corners": lambda: _interp(_x(), size=(3, 3), mode="lanczos", antialias=True,
                                                   align_corners=True),
    "torch-antialias-scope": lambda: _interp(_x(), size=(3, 3), mode="nearest", antialias=True),
    "torch-antialias-rank": lambda: _interp(_x(3), size=(3, 3, 3), mode="bilinear", antialias=True),
    "torch-align-corners-non-interpolating": lambda: _interp(_x(), size=(3, 3), mode="area", align_corners=False),
    "torch-size-and-scale-factor": lambda: _interp(_x(), size=(3, 3), scale_factor=2, mode="bilinear"),
    "torch-spatial-rank-mismatch": lambda: _interp(_torch().rand(3, 8, 8), size=(16, 16), mode="bilinear"),
    "torch-unknown-mode": lambda: _interp(_x(), scale_factor=2, mode="cubic"),
    "torch-bicubic-rank": lambda: _interp(_x(3), size=(3, 3, 3), mode="bicubic"),
    "torch-linear-rank": lambda: _interp(_x(2), size=(3, 3), mode="linear"),
    "torch-bilinear-rank": lambda: _interp(_x(1), size=3, mode="bilinear"),
    "torch-trilinear-rank": lambda: _interp(_x(2), size=(3, 3), mode="trilinear"),
    "torch-empty-size": lambda: _interp(_x(n=8), scale_factor=0.1, mode="bilinear"),
    "torch-half-antialias": lambda: _interp(_x(dtype="float16"), size=(3, 3), mode="bilinear", antialias=True),
    "torch-bfloat16-antialias": lambda: _interp(_x(dtype="bfloat16"), size=(3, 3), mode="bicubic", antialias=True),
    "torch-half-lanczos": lambda: _interp(_x(dtype="float16"), size=(3, 3), mode="lanczos", antialias=True),
    "torch-bfloat16-lanczos": lambda: _interp(_x(dtype="bfloat16"), size=(3, 3), mode="lanczos", antialias=True),
    "torch-uint8-area": lambda: _interp(_x(dtype="uint8"), size=(3, 3), mode="area"),
    "torch-int32-nearest": lambda: _interp(_x(dtype="int32"), size=(3, 3), mode="nearest"),
    "torch-int32-bilinear": lambda: _interp(_x(dtype="int32"), size=(3, 3), mode="bilinear"),
    "torch-int32-bicubic": lambda: _interp(_x(dtype="int32"), size=(3, 3), mode="bicubic"),
    "torch-int32-area": lambda: _interp(_x(dtype="int32"), size=(3, 3), mode="area"),
    "torch-uint8-linear-trilinear": lambda: _interp(_x(1, dtype="uint8"), size=3, mode="linear"),
    "torch-recompute-with-size": lambda: _interp(_x(), size=(3, 3), mode="bilinear", recompute_scale_factor=True),
    "torch-size-types": lambda: _interp(_x(), size=(12.5, 12), mode="bilinear"),
    "torch-empty-batch-or-channels": lambda: _interp(_torch().rand(1, 0, 8, 8), scale_factor=2, mode="bilinear"),
    "torch-quantized-sparse": lambda: _interp(_torch().quantize_per_tensor(_torch().rand(1, 3, 8, 8), 0.1, 0,
                                                                           _torch().quint8),
                                              scale_factor=2, mode="bicubic"),
    "torch-upsample-deprecated": lambda: _torch().nn.functional.upsample(_x(), scale_factor=2),
    "torch-quantized-nearest3d-empty-output": lambda: _interp(
        _torch().quantize_per_tensor(_torch().rand(1, 1, 2, 2, 2), 0.1, 0, _torch().quint8), scale_factor=0.1,
        mode="nearest"),
}


@pytest.mark.parametrize("record_id", sorted(TORCH))
def test_torch_text(record_id):
    check_live(record_id, "torch", TORCH[record_id])


def test_torch_integer_gradient_text_is_not_claimed_as_a_resize_error():
    """The text comes from requires_grad_ before any resize: the record keeps it, diagnose does not claim it."""
    record = KB.record("torch-integer-gradient")
    seen = _observe(lambda: _x(dtype="uint8").requires_grad_())
    assert record.error_text in seen and record.shared_text
    assert not explorer.diagnose(seen).matched


# ----------------------------------------------------------------------------------------------- ONNX export
class _Resize:
    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def module(self):
        torch = _torch()
        kwargs = self.kwargs

        class M(torch.nn.Module):
            def forward(self, x):
                return torch.nn.functional.interpolate(x, **kwargs)
        return M()


def _export(opset, dynamo=False, dims=2, n=9, **kwargs):
    torch = _torch()

    def run():
        buffer = io.BytesIO() if not dynamo else None
        x = torch.rand((1, 3) + (n,) * dims)
        if dynamo:
            torch.onnx.export(_Resize(**kwargs).module(), (x,), dynamo=True, opset_version=opset)
        else:
            torch.onnx.export(_Resize(**kwargs).module(), (x,), buffer, opset_version=opset, dynamo=False)
    return run


EXPORTS = {
    "torch-onnx-torchscript-nearest-exact": _export(17, scale_factor=2, mode="nearest-exact"),
    "torch-onnx-torchscript-bilinear-aa": _export(17, size=(4, 5), mode="bilinear", antialias=True),
    "torch-onnx-torchscript-bicubic-aa": _export(18, size=(4, 5), mode="bicubic", antialias=True),
    "torch-onnx-torchscript-lanczos": _export(17, size=(4, 5), mode="lanczos", antialias=True),
    "torch-onnx-torchscript-area": _export(17, size=(4, 5), mode="area"),
    "torch-onnx-torchscript-bicubic-below-11": _export(9, scale_factor=2, mode="bicubic"),
    "torch-onnx-torchscript-align-corners-below-11": _export(9, scale_factor=2, mode="bilinear", align_corners=True),
    "torch-onnx-torchscript-opset9-upsample": _export(9, scale_factor=2, mode="bilinear"),
    "torch-onnx-torchscript-opset10-resize": _export(10, scale_factor=2, mode="nearest"),
}
DYNAMO = {
    "torch-onnx-dynamo-lanczos": _export(20, dynamo=True, size=(4, 5), mode="lanczos", antialias=True),
    "torch-onnx-dynamo-aa-opset-below-18": _export(17, dynamo=True, size=(4, 5), mode="bilinear", antialias=True),
    "torch-onnx-dynamo-old-opset": _export(11, dynamo=True, scale_factor=2, mode="nearest"),
}


@pytest.mark.parametrize("record_id", sorted(EXPORTS))
def test_torchscript_exporter_text(record_id, capfd):
    pytest.importorskip("onnx")
    check_live(record_id, "torch", EXPORTS[record_id], capfd)


@pytest.mark.slow
@pytest.mark.parametrize("record_id", sorted(DYNAMO))
def test_dynamo_exporter_text(record_id, capfd, caplog):
    pytest.importorskip("onnxscript", reason="the dynamo exporter needs onnxscript (the 'oracles' extra)")
    check_live(record_id, "torch", DYNAMO[record_id], capfd, caplog)


# ----------------------------------------------------------------------------------------------- ONNX Runtime
def _ort_model(opset, attrs, shape, scales=None, sizes=None, roi=None, dtype="float", op="Resize", roi_input=True,
               scales_dtype="float"):
    onnx = pytest.importorskip("onnx")
    helper, tp = onnx.helper, onnx.TensorProto
    elem = {"float": tp.FLOAT, "double": tp.DOUBLE, "uint8": tp.UINT8}[dtype]
    inits, inputs = [], ["X"]
    if op == "Resize" and opset >= 11 and roi_input:
        inputs.append("roi" if roi is not None else "")
        if roi is not None:
            inits.append(helper.make_tensor("roi", tp.FLOAT, [len(roi)], roi))
    if scales is not None:
        inputs.append("scales")
        scales_elem = {"float": tp.FLOAT, "float16": tp.FLOAT16}[scales_dtype]
        inits.append(helper.make_tensor("scales", scales_elem, [len(scales)], scales))
    elif opset >= 11 and op == "Resize":
        inputs.append("")
    if sizes is not None:
        inputs.append("sizes")
        inits.append(helper.make_tensor("sizes", tp.INT64, [len(sizes)], sizes))
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node(op, inputs, ["Y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", elem, shape)],
                              [helper.make_tensor_value_info("Y", elem, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def _ort(model_args, feed_shape=(1, 3, 8, 8), feed_dtype=np.float32):
    ort = pytest.importorskip("onnxruntime")

    def run():
        model = _ort_model(*model_args[0], **model_args[1])
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        sess.run(None, {"X": np.random.default_rng(0).random(feed_shape).astype(feed_dtype) * 200})
    return run


def _ort_from_file(model_args):
    """The session made from a model file, as users load one (ONNX Runtime then names the path)."""
    ort = pytest.importorskip("onnxruntime")

    def run():
        import tempfile

        model = _ort_model(*model_args[0], **model_args[1])
        with tempfile.TemporaryDirectory() as folder:
            path = f"{folder}/model.onnx"
            with open(path, "wb") as fh:
                fh.write(model.SerializeToString())
            ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return run


def _m(*args, **kwargs):
    return args, kwargs


ORT = {
    "ort-dtype-not-implemented": _ort(_m(19, dict(mode="linear"), [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0],
                                         dtype="double"), feed_dtype=np.float64),
    "ort-cubic-integer": _ort(_m(13, dict(mode="cubic"), [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0], dtype="uint8"),
                              feed_dtype=np.uint8),
    "ort-cubic-rank": _ort(_m(13, dict(mode="cubic"), [1, 1, 4, 8, 8], scales=[1, 1, 2.0, 2.0, 2.0]),
                           feed_shape=(1, 1, 4, 8, 8)),
    "ort-linear-rank": _ort(_m(13, dict(mode="linear"), [1, 3, 8, 8], scales=[1, 2.0, 2.0, 2.0])),
    "ort-antialias-nearest": _ort(_m(18, dict(mode="nearest", antialias=1), [1, 3, 8, 8],
                                     scales=[1, 1, 0.5, 0.5])),
    "ort-exclude-outside-nearest": _ort(_m(13, dict(mode="nearest", exclude_outside=1), [1, 3, 8, 8],
                                           scales=[1, 1, 2.0, 2.0])),
    "ort-mode-name": _ort(_m(13, dict(mode="bilinear"), [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0])),
    "ort-attribute-validation": _ort(_m(13, dict(mode="linear", coordinate_transformation_mode="pytorch_half_pixels"),
                                        [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0])),
    "ort-scales-rank": _ort(_m(13, dict(mode="linear"), [1, 3, 8, 8], scales=[2.0, 2.0])),
    "ort-scales-and-sizes": _ort(_m(13, dict(mode="linear"), [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0],
                                    sizes=[1, 3, 16, 16])),
    "ort-roi-length": _ort(_m(13, dict(mode="linear", coordinate_transformation_mode="tf_crop_and_resize"),
                              [1, 3, 8, 8], roi=[0.0, 1.0], sizes=[1, 3, 4, 4])),
    "ort-attribute-needs-opset-18": _ort(_m(13, dict(mode="linear", antialias=1), [1, 3, 8, 8],
                                            scales=[1, 1, 0.5, 0.5])),
    "ort-resize11-needs-scales-input": _ort(_m(11, dict(mode="nearest"), [1, 3, 8, 8], roi=[0.0] * 8)),
    "ort-float16-scales-invalid": _ort_from_file(_m(13, dict(mode="linear"), [1, 3, 8, 8],
                                                    scales=[1, 1, 2.0, 2.0], scales_dtype="float16")),
    "ort-upsample-deprecated": _ort(_m(10, dict(mode="nearest"), [1, 3, 8, 8], scales=[1, 1, 2.0, 2.0],
                                       op="Upsample")),
    "onnx-upsample9-no-downscale": _ort(_m(9, dict(mode="nearest"), [1, 3, 8, 8], scales=[1, 1, 0.5, 0.5],
                                           op="Upsample")),
}


@pytest.mark.parametrize("record_id", sorted(ORT))
def test_onnxruntime_text(record_id):
    check_live(record_id, "onnxruntime", ORT[record_id])


def test_onnxruntime_logs_the_tf_half_pixel_for_nn_warning(capfd):
    run = _ort(_m(13, dict(mode="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn"), [1, 3, 8, 8],
                  scales=[1, 1, 2.0, 2.0]))
    run()
    err = capfd.readouterr().err
    record = KB.record("ort-tf-half-pixel-for-nn")
    assert re.search(_pattern(record.error_text), err), err
    assert "ort-tf-half-pixel-for-nn" in [f.record_id for f in explorer.diagnose(err).findings]


# ----------------------------------------------------------------------------------------------- TensorFlow
def _tf():
    return pytest.importorskip("tensorflow")


def _tf_grad(method, dtype="float32", antialias=False):
    def run():
        tf = _tf()
        x = tf.random.uniform((1, 16, 16, 3), dtype=getattr(tf, dtype))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, (6, 6), method=method, antialias=antialias)
        tape.gradient(y, x)
    return run


def _tf_graph_area():
    tf = _tf()

    @tf.function
    def grads(x):
        y = tf.image.resize(x, (6, 6), method="area")
        return tf.gradients(tf.reduce_sum(y), x)
    grads(tf.random.uniform((1, 16, 16, 3)))


def _tf_xla(method, antialias=False):
    def run():
        tf = _tf()

        @tf.function(jit_compile=True)
        def resize(x):
            return tf.image.resize(x, (6, 6), method=method, antialias=antialias)
        resize(tf.random.uniform((1, 16, 16, 3)))
    return run


def _tf_xla_grad(method):
    def run():
        tf = _tf()
        x, w = tf.random.uniform((1, 8, 8, 1)), tf.random.uniform((1, 12, 12, 1))

        @tf.function(jit_compile=True)
        def grad(v, weights):  # a loss whose gradient is not a constant (a bare reduce_sum's is folded away)
            with tf.GradientTape() as tape:
                tape.watch(v)
                y = tf.reduce_sum(tf.image.resize(v, (12, 12), method=method) * weights)
            return tape.gradient(y, v)
        grad(x, w)
    return run


def _tf_second_order(method):
    def run():
        tf = _tf()
        x = tf.random.uniform((1, 8, 8, 1))
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.image.resize(x, (12, 12), method=method) ** 2)
            g = inner.gradient(y, x)
        outer.gradient(g, x)
    return run


def _coreml_tf(fn, shape=(1, 8, 8, 3), **convert_kw):
    """ct.convert of a tf.function (coremltools' TensorFlow frontend; a None in ``shape`` is a flexible length)."""
    def run():
        tf = _tf()
        ct = pytest.importorskip("coremltools")
        import logging
        logging.disable(logging.WARNING)
        try:
            concrete = tf.function(fn, input_signature=[tf.TensorSpec(shape, tf.float32)]).get_concrete_function()
            ct.convert([concrete], source="tensorflow", convert_to="mlprogram", skip_model_load=True,
                       **{k: getattr(ct.target, v) for k, v in convert_kw.items()})
        finally:
            logging.disable(logging.NOTSET)
    return run


TF = {
    "tf-area-no-gradient": _tf_grad("area"),
    "tf-scale-and-translate-grad-dtype": _tf_grad("lanczos3", "float64"),
    "tf-scale-and-translate-grad-dtype-aa": _tf_grad("bilinear", "float64", antialias=True),
    "tf-xla-unsupported-resize": _tf_xla("bicubic"),
    "tf-xla-antialias": _tf_xla("bilinear", antialias=True),
    "tf-xla-nearest-grad": _tf_xla_grad("nearest"),
    "tf-second-order-other-modes": _tf_second_order("nearest"),
    "tf-unknown-method": lambda: _tf().image.resize(_tf().zeros((1, 8, 8, 3)), (16, 16), method="cubic"),
    "tf-resize-size-from-unknown-static-shape": lambda: _tf().function(
        lambda x: _tf().image.resize(x, (x.shape[1] * 2, x.shape[2] * 2), method="nearest"),
        input_signature=[_tf().TensorSpec((1, None, None, 3))]).get_concrete_function(),
    "tf-resize-images-dtype": lambda: _tf().function(lambda x: _tf().image.resize(x, (16, 16), method="nearest"))
    .get_concrete_function(_tf().TensorSpec((1, 8, 8, 3), _tf().bool)),
    "tf-argument-shapes": lambda: _tf().image.resize(_tf().zeros((1, 1, 8, 8, 3)), (16, 16)),
    "tf-resize-size-not-int32": lambda: _tf().image.resize(_tf().zeros((1, 4, 4, 1)), (2.5, 3.5)),
    "tf-v1-resize-functions-removed": lambda: _tf().image.resize_bilinear(_tf().zeros((1, 4, 4, 1)), (8, 8)),
    "tf-v1-align-corners-half-pixel": lambda: _tf().raw_ops.ResizeBilinear(
        images=_tf().zeros((1, 8, 8, 3)), size=[16, 16], align_corners=True, half_pixel_centers=True),
    "tf-crop-and-resize-methods": lambda: _tf().image.crop_and_resize(
        _tf().zeros((1, 8, 8, 3)), boxes=[[0.0, 0.0, 1.0, 1.0]], box_indices=[0], crop_size=(4, 4),
        method="bicubic"),
    "tf-scale-and-translate-nearest": lambda: _tf().raw_ops.ScaleAndTranslate(
        images=_tf().zeros((1, 8, 8, 3)), size=[4, 4], scale=[0.5, 0.5], translation=[0.0, 0.0],
        kernel_type="nearest"),
    # coremltools' TensorFlow frontend (the installed coremltools; the records' converter_versions say which)
    "coreml-tf-nearest-dynamic-size": _coreml_tf(
        lambda x: _tf().raw_ops.ResizeNearestNeighbor(images=x, size=_tf().shape(x)[1:3] + 3), (1, None, None, 3)),
    "coreml-tf-bilinear-dynamic-size": _coreml_tf(
        lambda x: _tf().raw_ops.ResizeBilinear(images=x, size=_tf().shape(x)[1:3] + 3), (1, None, None, 3)),
    "coreml-tf-nearest-fixed-size-flexible-input": _coreml_tf(
        lambda x: _tf().raw_ops.ResizeNearestNeighbor(images=x, size=[40, 40], half_pixel_centers=True),
        (1, None, None, 3)),
    "coreml-tf-crop-and-resize-nearest": _coreml_tf(
        lambda x: _tf().image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 4], method="nearest")),
    "coreml-tf-crop-and-resize-extrapolation": _coreml_tf(
        lambda x: _tf().image.crop_and_resize(x, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 4], extrapolation_value=1.0),
        minimum_deployment_target="iOS15"),
    "coreml-tf-bicubic": _coreml_tf(lambda x: _tf().image.resize(x, [16, 16], method="bicubic")),
    "coreml-tf-antialias-scale-and-translate": _coreml_tf(
        lambda x: _tf().image.resize(x, [4, 4], method="bilinear", antialias=True)),
}


@pytest.mark.parametrize("record_id", sorted(TF))
def test_tensorflow_text(record_id):
    check_live(record_id, "tensorflow", TF[record_id])


def test_tensorflow_graph_mode_area_text():
    record = KB.record("tf-area-no-gradient")
    seen = _observe(_tf_graph_area)
    assert re.search(_pattern(record.also_seen[0]), seen, re.S), seen[-800:]
    assert "tf-area-no-gradient" in [f.record_id for f in explorer.diagnose(seen).findings]


def test_tensorflow_bilinear_second_order_is_silently_none():
    """From 2.18 the record's claim is the absence of an error: the second derivative is None."""
    tf = _tf()
    record = KB.record("tf-bilinear-second-order-none")
    assert record.versions.contains(_version("tensorflow"))
    x = tf.random.uniform((1, 8, 8, 1))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.image.resize(x, (12, 12), method="bilinear") ** 2)
        g = inner.gradient(y, x)
    assert outer.gradient(g, x) is None


# ----------------------------------------------------------------------------------------------- JAX
def _jax():
    return pytest.importorskip("jax")


def _jax_traced_size():
    jax = _jax()

    @jax.jit
    def upsample(x, size):
        return jax.image.resize(x, (1, size, size, 3), method="linear")
    upsample(np.zeros((1, 8, 8, 3), np.float32), 16)


JAX = {
    "jax-traced-shape": _jax_traced_size,
    "jax-unknown-method": lambda: _jax().image.resize(np.zeros((1, 8, 8, 3), np.float32), (1, 16, 16, 3),
                                                      method="nearest-exact"),
    "jax-no-align-corners": lambda: _jax().image.resize(np.zeros((1, 8, 8, 3), np.float32), (1, 16, 16, 3),
                                                        method="bilinear", align_corners=True),
    "jax-scale-and-translate-nearest": lambda: _jax().image.scale_and_translate(
        np.zeros((1, 8, 8, 3), np.float32), (1, 16, 16, 3), (1, 2), np.array([2.0, 2.0], np.float32),
        np.array([0.0, 0.0], np.float32), method="nearest"),
    "jax-argument-shapes": lambda: _jax().image.resize(np.zeros((1, 8, 8, 3), np.float32), (16, 16),
                                                       method="linear"),
}


@pytest.mark.parametrize("record_id", sorted(JAX))
def test_jax_text(record_id):
    check_live(record_id, "jax", JAX[record_id])


# ----------------------------------------------------------------------------------------------- Pillow
def _image():
    Image = pytest.importorskip("PIL.Image")
    return Image, Image.new("L", (32, 24))


PILLOW = {
    "pillow-unknown-filter": lambda: _image()[1].resize((16, 16), resample=99),
    "pillow-argument-sizes": lambda: _image()[1].resize((0, 16)),
    "pillow-resize-float-size": lambda: _image()[1].resize((8.5, 16)),
    "pillow-reducing-gap": lambda: _image()[1].resize((16, 16), reducing_gap=0.5),
    "pillow-transform-filters": lambda: _image()[1].rotate(10, resample=_image()[0].Resampling.LANCZOS),
    "pillow-antialias-constant-removed": lambda: _image()[1].resize((16, 16), _image()[0].ANTIALIAS),
    "pillow-resize-size-not-two": lambda: _image()[1].resize((16, 16, 3)),
}


@pytest.mark.parametrize("record_id", sorted(PILLOW))
def test_pillow_text(record_id):
    check_live(record_id, "pillow", PILLOW[record_id])


# ----------------------------------------------------------------------------------------------- OpenCV
def _cv2():
    return pytest.importorskip("cv2")


OPENCV = {
    "opencv-empty-source": lambda: _cv2().resize(np.zeros((0, 0, 3), np.uint8), (16, 16)),
    "opencv-zero-dsize": lambda: _cv2().resize(np.zeros((8, 8, 3), np.uint8), (0, 0)),
    "opencv-dtype-support": lambda: _cv2().resize(np.zeros((8, 8), np.int8), (16, 16),
                                                  interpolation=_cv2().INTER_LINEAR),
    "opencv-unknown-interpolation": lambda: _cv2().resize(np.zeros((8, 8), np.uint8), (16, 16), interpolation=9),
    "opencv-bad-argument-types": lambda: _cv2().resize(np.zeros((8, 8), np.uint8), (16.0, 16.0)),
    "opencv-batch-input": lambda: _cv2().resize(np.zeros((2, 8, 8, 3), np.float32), (16, 16)),
}


@pytest.mark.parametrize("record_id", sorted(OPENCV))
def test_opencv_text(record_id):
    check_live(record_id, "opencv", OPENCV[record_id])


# ----------------------------------------------------------------------------------------------- completeness
#: measured texts no case above re-runs, and why
NOT_RUN_HERE = {
    "ort-exception-class": "a template: every session-creation case above shows the installed class",
    "ort-tf-half-pixel-for-nn": "a log line, checked by test_onnxruntime_logs_the_tf_half_pixel_for_nn_warning",
    "tf-bilinear-second-order-error": "raised by 2.12-2.17 only",
    "tf-xla-bilinear-half-pixel-grad": "raised by 2.12-2.13 only",
    "torch-integer-gradient": "not a resize text: test_torch_integer_gradient_text_is_not_claimed...",
}


def test_every_measured_text_of_an_installed_library_has_a_live_case():
    cases = set(TORCH) | set(EXPORTS) | set(DYNAMO) | set(ORT) | set(TF) | set(JAX) | set(PILLOW) | set(OPENCV)
    missing = []
    for record in KB.records:
        if record.library not in VERSIONS or record.evidence != "measured" or not record.error_text:
            continue
        if not record.versions.contains(_version(VERSIONS[record.library])):
            continue
        if record.id not in cases and record.id not in NOT_RUN_HERE:
            missing.append(record.id)
    assert missing == []

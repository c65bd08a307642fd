"""lint on Keras 3, JAX, TensorFlow and Rust code: what the call computes, where it runs, export targets."""

import io
import warnings

import numpy as np
import pytest

from explorer.advisor.lint import lint
from explorer.advisor.lint.export_nodes import written


def _lint(tmp_path, files, **question):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return lint(tmp_path, min_severity="warning", **question)


def _rules(report, line=None):
    return {(i.severity, i.rule) for i in report if line is None or i.site.line == line}


KERAS = """import keras
from keras import ops
class Up(keras.layers.Layer):
    def call(self, x):
        a = keras.layers.UpSampling2D(2)(x)
        b = ops.image.resize(x, (64, 64), interpolation="nearest")
        return a + b
"""


def test_upsampling2d_nearest_is_burns_nearest_but_half_pixel_nearest_is_not(tmp_path):
    report = _lint(tmp_path, {"m.py": KERAS}, backend="burn-tch", training=True)
    assert not _rules(report, 5)
    assert ("error", "burn-tch-nearest-exact-forward") in _rules(report, 6)


def test_upsampling2d_nearest_repeats_pixels():
    keras = pytest.importorskip("keras")
    x = np.random.RandomState(0).rand(1, 5, 7, 2).astype(np.float32)
    y = np.asarray(keras.layers.UpSampling2D(size=(2, 3), interpolation="nearest")(x))
    assert np.array_equal(y, np.repeat(np.repeat(x, 2, 1), 3, 2))


def test_tf_area_antialias_is_not_carried_into_a_torch_argument_error(tmp_path):
    src = "import tensorflow as tf\ndef f(x):\n    return tf.image.resize(x, (3, 3), 'area', antialias=True)\n"
    report = _lint(tmp_path, {"m.py": src}, backend="torch", device="mps", training=True)
    assert not any("antialias" in r for _, r in _rules(report))


def test_tf_area_and_nearest_ignore_antialias():
    tf = pytest.importorskip("tensorflow")
    x = np.random.RandomState(1).rand(1, 12, 12, 1).astype(np.float32)
    for method in ("area", "nearest"):
        a = tf.image.resize(x, (5, 7), method=method, antialias=True).numpy()
        b = tf.image.resize(x, (5, 7), method=method, antialias=False).numpy()
        assert np.array_equal(a, b)
    a = tf.image.resize(x, (5, 7), method="bilinear", antialias=True).numpy()
    assert not np.array_equal(a, tf.image.resize(x, (5, 7), method="bilinear").numpy())


def test_jax_downscale_in_the_shape_is_antialiased(tmp_path):
    src = "import jax\ndef f(x, n, h, w, c):\n    return jax.image.resize(x, (n, h // 2, w // 2, c), 'linear')\n"
    report = _lint(tmp_path, {"m.py": src}, backend="burn-tch", training=True)
    assert ("error", "burn-no-antialias") in _rules(report, 3)
    up = src.replace("h // 2, w // 2", "h * 2, w * 2")
    assert ("error", "burn-no-antialias") not in _rules(_lint(tmp_path / "up", {"m.py": up}, backend="burn-tch"))


def test_tf1_legacy_coordinates_ported_differ_and_legacy_nearest_is_floor(tmp_path):
    src = ("import tensorflow as tf\ndef f(x):\n    a = tf.compat.v1.image.resize_bilinear(x, (8, 8))\n"
           "    b = tf.compat.v1.image.resize_nearest_neighbor(x, (8, 8))\n"
           "    c = tf.compat.v1.image.resize_bilinear(x, (8, 8), half_pixel_centers=True)\n    return a\n")
    report = _lint(tmp_path, {"m.py": src}, backend="burn-tch", training=False)
    assert ("differs", "tf1-legacy-coordinates") in _rules(report, 3)
    assert not _rules(report, 4) and not _rules(report, 5)


def test_tensorflow_cubic_ported_differs(tmp_path):
    src = "import tensorflow as tf\ndef f(x):\n    return tf.image.resize(x, (8, 8), 'bicubic')\n"
    assert ("differs", "port-convention-differs") in _rules(_lint(tmp_path, {"m.py": src}, backend="burn-tch"))


CANDLE_TESTS = """use candle::Tensor;
#[cfg(test)]
mod tests {
    #[test]
    fn forward() {
        let y = x.upsample_bilinear2d(8, 8, false)?;
    }
    #[test]
    fn grad() {
        let y = x.upsample_nearest2d(4, 4)?;
        let g = y.backward()?;
    }
}
"""


def test_rust_tests_run_forward_only_unless_they_compute_gradients(tmp_path):
    report = _lint(tmp_path, {"src/up.rs": CANDLE_TESTS}, backend="candle", training=True)
    assert not _rules(report, 6)
    assert ("differs", "candle-nearest-backward-overwrites") in _rules(report, 10)
    model = "use candle::Tensor;\nfn up(x: &Tensor) -> Tensor { x.upsample_bilinear2d(8, 8, false).unwrap() }\n"
    assert ("error", "candle-bilinear-backward") in _rules(_lint(tmp_path / "m", {"src/m.rs": model}, backend="candle"))


def test_preprocessing_and_tests_are_not_the_model(tmp_path):
    src = "import tensorflow as tf\ndef f(x):\n    return tf.image.resize(x, (8, 8), 'area')\n"
    report = _lint(tmp_path, {"pp/ops.py": src, "tests/test_ops.py": src, "model.py": src}, backend="burn-tch")
    severities = {i.site.path: i.severity for i in report}
    assert severities == {"pp/ops.py": "warning", "model.py": "error"}


WRAPPER = {"pkg/ops/wrappers.py": "import torch.nn.functional as F\n"
                                  "def resize(input, size=None, scale_factor=None, mode='nearest', align_corners=None):\n"
                                  "    return F.interpolate(input, size, scale_factor, mode, align_corners)\n",
           "pkg/ops/__init__.py": "from .wrappers import resize\n",
           "pkg/head.py": "from torch import nn\nfrom .ops import resize\nclass Head(nn.Module):\n"
                          "    def forward(self, x):\n        return resize(x, size=(3, 3), mode='nearest-exact')\n"}


def test_a_wrapper_of_a_known_call_is_followed_one_level(tmp_path):
    report = _lint(tmp_path, WRAPPER, backend="burn-tch", training=True)
    at_head = {i.rule for i in report if i.site.path == "pkg/head.py"}
    assert "burn-tch-nearest-exact-forward" in at_head


# keras-vision-models' shape: two functions of one name in one package, one a wrapper (its interpolation is a
# parameter), the other a fixed bilinear preprocessing step; a layer calls the wrapper under another name
SAME_NAME = {
    "pkg/__init__.py": "", "pkg/a/__init__.py": "", "pkg/utils/__init__.py": "",
    "pkg/utils/image.py": (
        "from keras import ops\n"
        "def preprocess_image(image, size=(224, 224), interpolation='bilinear', antialias=False):\n"
        "    return ops.image.resize(image, size, interpolation=interpolation, antialias=antialias)\n"),
    "pkg/a/proc.py": (
        "from keras import ops\n"
        "def preprocess_image(image, target_size=1008):\n"
        "    x = ops.convert_to_tensor(image)\n"
        "    return ops.image.resize(x, (target_size, target_size), interpolation='bilinear')\n"),
    "pkg/a/down.py": (
        "from .proc import preprocess_image\n"
        "from pkg.utils.image import preprocess_image as pp\n"
        "import keras\n"
        "class Head(keras.layers.Layer):\n"
        "    def call(self, image):\n"
        "        a = preprocess_image(image)\n"
        "        b = pp(image, interpolation='bicubic', antialias=True)\n"
        "        return a, b\n"),
}


def test_a_wrapper_is_the_function_of_the_module_imported_not_one_of_the_same_name(tmp_path):
    report = _lint(tmp_path, SAME_NAME, backend="candle", training=True)
    at_down = {(i.site.line, i.rule) for i in report if i.site.path == "pkg/a/down.py"}
    assert not any(line == 6 for line, _ in at_down)  # proc.preprocess_image passes no mode: not a wrapper
    assert (7, "mode-unavailable") in at_down  # the wrapper, imported as `pp`, with bicubic: candle has none


# keras-unet-collection's shape: a layer helper picks the interpolation from a flag through an if/elif table,
# blocks and builders pass the flag down (star-imported, same-module and imported by name), the model is trained
TABLE = {
    "pkg/__init__.py": "",
    "pkg/layers.py": (
        "from tensorflow.keras.layers import UpSampling2D, Conv2DTranspose\n"
        "def decode(X, channel, unpool):\n"
        "    if unpool is False:\n"
        "        pass\n"
        "    elif unpool == 'nearest':\n"
        "        unpool = True\n"
        "        interp = 'nearest'\n"
        "    elif (unpool is True) or (unpool == 'bilinear'):\n"
        "        unpool = True\n"
        "        interp = 'bilinear'\n"
        "    else:\n"
        "        raise ValueError('Invalid unpool keyword')\n"
        "    if unpool:\n"
        "        return UpSampling2D(size=(2, 2), interpolation=interp)(X)\n"
        "    return Conv2DTranspose(channel, 3, strides=2)(X)\n"),
    "pkg/unet.py": (
        "from pkg.layers import *\n"
        "from tensorflow.keras.models import Model\n"
        "def right(X, channel, unpool=True):\n"
        "    return decode(X, channel,\n"
        "                  unpool)\n"
        "def base(X, filters, unpool=True):\n"
        "    for f in filters:\n"
        "        X = right(X, f, unpool=unpool)\n"
        "    return X\n"
        "def unet(X, filters, unpool=True):\n"
        "    return Model(X, base(X, filters, unpool=unpool))\n"),
    "pkg/other.py": (
        "from pkg.unet import right\n"
        "def head(X):\n"
        "    a = right(X, 8, unpool='nearest')\n"
        "    b = right(X, 8, unpool=False)\n"
        "    return right(X, 8)\n"),
}


def test_a_mode_chosen_through_a_table_of_a_parameter_is_followed_through_every_level(tmp_path):
    report = _lint(tmp_path, TABLE, backend="candle", training=True)
    found = {(i.site.path, i.site.line): i for i in report if i.rule == "candle-bilinear-backward"}
    # the builder's loop and the model builder: bilinear in a trained model
    for at in [("pkg/unet.py", 8), ("pkg/unet.py", 11)]:
        assert at in found and found[at].severity == "error", (at, sorted(found))
    # a caller's default elsewhere: bilinear, in code that does not show it is trained
    assert found[("pkg/other.py", 5)].site.mode.values == ("bilinear",)
    # the block's own call: bilinear at its default, but a caller passes unpool='nearest' (the table maps it)
    block = found[("pkg/unet.py", 4)]
    assert block.severity == "warning" and block.site.mode.values == ("bilinear", "nearest")
    assert "decode maps unpool" in block.site.mode.detail and "callers pass unpool='nearest'" in block.site.mode.detail
    # unpool='nearest' selects nearest; unpool=False selects the transposed convolution: no resize at all
    assert ("pkg/other.py", 3) not in found
    assert not [i for i in report if i.site.path == "pkg/other.py" and i.site.line == 4]
    assert ("pkg/other.py", 3) in {(i.site.path, i.site.line) for i in report}  # the nearest call is a site


def test_a_table_with_an_else_that_sets_the_mode_is_not_read_as_a_table(tmp_path):
    files = dict(TABLE)
    files["pkg/layers.py"] = files["pkg/layers.py"].replace("        raise ValueError('Invalid unpool keyword')",
                                                            "        interp = 'bicubic'")
    report = _lint(tmp_path, files, backend="candle", training=True)
    assert not [i for i in report if i.site.path == "pkg/unet.py"]  # its calls are not read as resizes


def test_a_test_suffix_without_a_test_is_a_test_splits_code(tmp_path):
    code = ("import torch.nn.functional as F\nimport torch\nclass Loader(torch.utils.data.Dataset):\n"
            "    def __getitem__(self, i):\n"
            "        return F.interpolate(torch.rand(1, 3, 8, 8), scale_factor=0.5, mode='bilinear', antialias=True)\n")
    split = _lint(tmp_path / "a", {"data/nyu_test.py": code}, backend="burn-tch", training=True)
    assert [i for i in split if i.rule == "burn-no-antialias"]  # a data pipeline of the test split
    unit = code + "def test_loader():\n    assert Loader()[0].shape == (1, 3, 4, 4)\n"
    tested = _lint(tmp_path / "b", {"data/nyu_test.py": unit}, backend="burn-tch", training=True)
    assert not [i for i in tested if i.rule == "burn-no-antialias"]  # a unit test runs it forward only


def test_weights_resized_while_loading_are_not_the_model(tmp_path):
    code = ("import numpy as np\nimport tensorflow as tf\nclass Attn(tf.keras.layers.Layer):\n"
            "    def call(self, x):\n        return x\n"
            "    def load_resized_weights(self, source, method='bilinear'):\n"
            "        w = source.get_weights()[0]\n"
            "        return tf.image.resize(w, (7, 7), method=method)\n")
    report = _lint(tmp_path, {"attn.py": code}, backend="candle", training=True)
    assert not [i for i in report if i.site.line == 8]
    trained = _lint(tmp_path / "b", {"attn.py": code.replace("load_resized_weights", "resized")},
                    backend="candle", training=True)
    assert [i for i in trained if i.site.line == 8]  # the same call in a layer's method is the model's


DEFAULTS = {"vit.py": "import torch.nn.functional as F\nfrom torch import nn\nclass ViT(nn.Module):\n"
                      "    def __init__(self, interpolate_antialias=False):\n        super().__init__()\n"
                      "        self.aa = interpolate_antialias\n    def forward(self, x):\n"
                      "        return F.interpolate(x, scale_factor=0.5, mode='bicubic', antialias=self.aa)\n",
            "hub.py": "from .vit import ViT\ndef vit_large():\n    return ViT(interpolate_antialias=True)\n"}


def test_a_default_that_callers_override_is_a_branch(tmp_path):
    report = _lint(tmp_path, DEFAULTS, backend="burn-tch", training=True)
    issues = [i for i in report if i.rule == "burn-no-antialias"]
    assert issues and all(i.severity == "warning" and i.condition == "with antialias=True" for i in issues)
    assert "interpolate_antialias=True" in issues[0].site.antialias.detail
    alone = _lint(tmp_path / "alone", {"vit.py": DEFAULTS["vit.py"]}, backend="burn-tch", training=True)
    assert not [i for i in alone if i.rule == "burn-no-antialias"]


EXPORTED = """import torch.nn.functional as F
from torch import nn
class M(nn.Module):
    def forward(self, x):
        a = F.interpolate(x, scale_factor=2, mode="nearest")
        b = F.interpolate(x, size=(4, 4), mode="area")
        c = F.interpolate(x, scale_factor=2, mode="nearest-exact")
        return a
"""


def test_export_target_is_exporter_then_node_then_runtime(tmp_path):
    report = _lint(tmp_path, {"m.py": EXPORTED}, backend="onnxruntime", export="onnx-torchscript", opset=11)
    assert not _rules(report, 5) and not _rules(report, 6)
    assert ("error", "torch-onnx-export-fails") in _rules(report, 7)


def test_the_dynamo_exporter_writes_what_the_torchscript_one_cannot(tmp_path):
    # torch 2.13's default exporter (--export onnx) is dynamo: nearest-exact becomes Gather nodes, not an error
    for export in ("onnx", "onnx-dynamo"):
        report = _lint(tmp_path / export, {"m.py": EXPORTED}, backend="onnxruntime", export=export, opset=20)
        assert not _rules(report, 7)
    below = lint(tmp_path / "onnx", backend="onnxruntime", export="onnx-dynamo", opset=11, min_severity="info")
    assert not [i for i in below if i.severity == "error"]  # below opset 18 the dynamo table has no cell:
    assert any("was not measured" in c.message for c in below.conditions)  # a condition, not a guess


def test_the_export_table_is_what_torch_onnx_export_writes():
    torch = pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    import torch.nn.functional as F

    class Up(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, scale_factor=2, mode="nearest")

    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(Up(), (torch.zeros(1, 1, 8, 8),), buffer, opset_version=11, dynamo=False)
    [node] = [n for n in onnx.load_from_string(buffer.getvalue()).graph.node if n.op_type == "Resize"]
    live = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    cell = written("torchscript", 11, "nearest", None, False, "scale")["nodes"][0]["attributes"]
    for key in ("coordinate_transformation_mode", "nearest_mode", "mode"):
        assert cell[key] == live[key].decode()


def test_the_dynamo_table_is_what_the_dynamo_exporter_writes():
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnxscript")
    import torch.nn.functional as F

    class Up(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, scale_factor=2, mode="bilinear", antialias=True)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = torch.onnx.export(Up(), (torch.zeros(1, 1, 8, 8),), dynamo=True, opset_version=18,
                                  verbose=False).model_proto
    onnx = pytest.importorskip("onnx")
    [node] = [n for n in model.graph.node if n.op_type == "Resize"]
    live = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
    cell = written("dynamo", 18, "bilinear", None, True, "scale")["nodes"][0]["attributes"]
    for key in ("coordinate_transformation_mode", "mode", "antialias", "exclude_outside"):
        assert cell[key] == (live[key].decode() if isinstance(live[key], bytes) else live[key])


KERAS_BICUBIC = ("import keras\nclass L(keras.layers.Layer):\n    def call(self, x):\n"
                 "        return keras.ops.image.resize(x, (8, 8), interpolation='bicubic')\n")


def test_keras_calls_are_judged_by_the_keras_library_on_its_backend(tmp_path):
    # ported: Keras's default backend (TensorFlow) computes bicubic with a=-0.5, its torch backend with PyTorch's
    default = _lint(tmp_path / "tf", {"m.py": KERAS_BICUBIC}, backend="burn-tch", training=True)
    assert ("differs", "port-convention-differs") in _rules(default, 4)
    on_torch = "import os\nos.environ['KERAS_BACKEND'] = 'torch'\n" + KERAS_BICUBIC
    assert ("differs", "port-convention-differs") not in _rules(
        _lint(tmp_path / "torch", {"m.py": on_torch}, backend="burn-tch", training=True))
    # native: linted for a Keras backend, or for the framework Keras runs on, the Keras records answer
    native = _lint(tmp_path / "native", {"m.py": KERAS_BICUBIC}, backend="keras-tensorflow", training=True)
    assert ("differs", "keras-tf-jax-bicubic") in _rules(native, 4)
    assert "port-convention-differs" not in {r for _, r in _rules(native)}
    torch = lint(tmp_path / "native", backend="torch", device="mps", training=True, min_severity="info")
    assert {i.rule for i in torch} == {"keras-torch-bicubic"}



def _severity(report, path, rule):
    return {i.severity for i in report if i.site.path == path and i.rule == rule}


FUNCTIONAL = {"pkg/__init__.py": "",
              "pkg/backend/__init__.py": "import keras\nfrom keras import ops\n",
              "pkg/blocks.py": "from pkg.backend import keras\n"
                               "def up_block(x):\n"
                               "    return keras.layers.UpSampling2D(2, interpolation='bilinear')(x)\n",
              "pkg/net.py": "from pkg.backend import keras\nfrom pkg.blocks import up_block\n"
                            "def head(x):\n    return keras.layers.UpSampling2D(2, interpolation='bilinear')(x)\n"
                            "def build(shape):\n    inputs = keras.Input(shape)\n    x = head(up_block(inputs))\n"
                            "    x = keras.layers.UpSampling2D(2, interpolation='bilinear')(x)\n"
                            "    return keras.Model(inputs, x)\n",
              "pkg/unused.py": "from pkg.backend import keras\n"
                               "def other(x):\n    return keras.layers.UpSampling2D(2, interpolation='bilinear')(x)\n"}


def test_a_function_building_a_keras_model_is_model_code_and_so_are_its_helpers(tmp_path):
    # candle's bilinear upsample has no backward: an error in a trained model, a warning where the code does not
    # show the call is part of one
    report = _lint(tmp_path, FUNCTIONAL, backend="candle", training=True)
    rule = "candle-bilinear-backward"
    lines = {(i.site.path, i.site.line, i.severity) for i in report if i.rule == rule}
    assert ("pkg/net.py", 8, "error") in lines            # in the builder (keras re-exported by pkg.backend)
    assert ("pkg/net.py", 4, "error") in lines            # a helper the builder calls, same module
    assert ("pkg/blocks.py", 3, "error") in lines         # a helper the builder calls, another module
    assert ("pkg/unused.py", 3, "warning") in lines       # called from no model code


JAX_GRAD = """import jax
import haiku as hk
def loss_fn(params, x):
    y = jax.image.resize(x, (1, 16, 16, 3), "linear")
    return (y ** 2).sum()
grads = jax.grad(loss_fn)
def forward(x):
    return jax.image.resize(x, (1, 16, 16, 3), "linear")
model = hk.transform(forward)
def plain(x):
    return jax.image.resize(x, (1, 16, 16, 3), "linear")
"""


def test_functions_jax_differentiates_and_haiku_transforms_are_trained(tmp_path):
    report = _lint(tmp_path, {"m.py": JAX_GRAD}, backend="candle", training=True)
    severities = {i.site.line: i.severity for i in report if i.rule == "candle-bilinear-backward"}
    assert severities == {4: "error", 8: "error", 11: "warning"}


TAPE = """import tensorflow as tf
def step(model, x):
    with tf.GradientTape() as tape:
        y = tf.image.resize(model(x), (16, 16))
    z = tf.image.resize(x, (16, 16))
    return tape.gradient(y, model.trainable_variables), z
"""


def test_a_gradient_tape_block_is_differentiated(tmp_path):
    report = _lint(tmp_path, {"m.py": TAPE}, backend="candle", training=True)
    severities = {i.site.line: i.severity for i in report if i.rule == "candle-bilinear-backward"}
    assert severities == {4: "error", 5: "warning"}


TARGETS = """import keras
from keras import ops
class Seg(keras.Model):
    def compute_loss(self, x, y, y_pred):
        masks = ops.image.resize(y, (64, 64))
        pred = ops.image.resize(y_pred, (64, 64))
        return ops.mean((masks - pred) ** 2)
"""


def test_a_resize_of_ground_truth_carries_no_gradient(tmp_path):
    report = _lint(tmp_path, {"m.py": TARGETS}, backend="candle", training=True)
    backward = [i for i in report if i.rule == "candle-bilinear-backward"]
    assert {i.site.line: i.severity for i in backward} == {5: "warning", 6: "error"}
    assert "`y`, ground truth" in next(i.message for i in backward if i.site.line == 5)


RUST_WRAPPER = {
    "crates/net/src/ops.rs": "use burn::tensor::module::interpolate;\n"
                             "use burn::tensor::ops::{InterpolateMode, InterpolateOptions};\n"
                             "pub fn upsample<B: Backend>(x: Tensor<B, 4>, size: [usize; 2], mode: InterpolateMode)"
                             " -> Tensor<B, 4> {\n    interpolate(x, size, InterpolateOptions::new(mode))\n}\n",
    "crates/net/src/head.rs": "use burn::tensor::ops::InterpolateMode;\nuse crate::ops::upsample;\n"
                              "fn head<B: Backend>(x: Tensor<B, 4>, m: InterpolateMode) -> Tensor<B, 4> {\n"
                              "    let y = upsample(x, [8, 8], InterpolateMode::NearestExact);\n"
                              "    let z = upsample(y, [8, 8], InterpolateMode::Nearest);\n"
                              "    upsample(z, [16, 16], m)\n}\n",
    "crates/other/src/lib.rs": "fn upsample(x: u8, y: u8, mode: u8) -> u8 { x }\n"
                               "fn f() { upsample(1, 2, InterpolateMode::NearestExact); }\n",
}


def test_a_rust_wrapper_of_a_burn_construction_is_followed_one_level(tmp_path):
    report = _lint(tmp_path, RUST_WRAPPER, backend="burn-tch", training=True)
    found = {(i.site.path, i.site.line) for i in report if i.rule == "burn-tch-nearest-exact-forward"}
    assert found == {("crates/net/src/head.rs", 4)}   # not Nearest (line 5), not another crate's upsample
    assert not [i for i in report if i.site.path == "crates/net/src/head.rs" and i.site.line == 6]


def _burn_ndarray_bilinear(x, oh, ow):
    """Burn's Bilinear(align_corners=false) as crates/burn-ndarray/src/ops/interpolate.rs @ v0.22.0-pre.2 writes it:
    y_frac = ((h + 0.5) * in_height / out_height - 0.5).clamp(0, in_height - 1), y0 = floor, y1 = ceil clamped."""
    import math

    ih, iw = x.shape
    out = np.zeros((oh, ow))
    for h in range(oh):
        for w in range(ow):
            yf = min(max((h + 0.5) * (ih / oh) - 0.5, 0.0), ih - 1)
            xf = min(max((w + 0.5) * (iw / ow) - 0.5, 0.0), iw - 1)
            y0, y1, yw = math.floor(yf), min(math.ceil(yf), ih - 1), yf - math.floor(yf)
            x0, x1, xw = math.floor(xf), min(math.ceil(xf), iw - 1), xf - math.floor(xf)
            out[h, w] = (x[y0, x0] * (1 - xw) * (1 - yw) + x[y0, x1] * xw * (1 - yw)
                         + x[y1, x0] * (1 - xw) * yw + x[y1, x1] * xw * yw)
    return out


def test_tensorflow_bilinear_ported_to_burn_is_burns_bilinear_without_align_corners(tmp_path):
    tf = pytest.importorskip("tensorflow")
    rng = np.random.RandomState(3)
    for ih, iw, oh, ow in [(6, 6, 12, 12), (6, 7, 9, 4), (12, 12, 5, 5), (16, 9, 7, 20)]:
        x = rng.rand(ih, iw).astype(np.float32)
        measured = tf.image.resize(x[None, :, :, None], (oh, ow), "bilinear").numpy()[0, :, :, 0]
        assert np.abs(measured - _burn_ndarray_bilinear(x.astype(np.float64), oh, ow)).max() < 1e-6
    src = "import tensorflow as tf\ndef f(x):\n    return tf.image.resize(x, (16, 16))\n"
    for backend in ("burn-ndarray", "burn-tch", "burn-wgpu"):
        report = _lint(tmp_path / backend, {"m.py": src}, backend=backend, training=False)
        assert "port-convention-differs" not in {r for _, r in _rules(report)}


def _api(src, path="m.py", **kw):
    from explorer.advisor.lint.python import read_python
    return {s.line: s.api for s in read_python(src, path, **kw)}


TF_NEAREST = "    return tf.image.resize(x, (8, 8), 'nearest')\n"


def test_a_functions_name_says_it_runs_before_or_after_the_model(tmp_path):
    src = ("import tensorflow as tf\ndef preprocess_image(x):\n" + TF_NEAREST + "def _update_metrics(x):\n"
           + TF_NEAREST + "def decoder(x):\n" + TF_NEAREST)
    report = _lint(tmp_path, {"tasks/seg.py": src}, backend="candle", training=True)
    assert {i.site.line: i.severity for i in report} == {3: "warning", 5: "warning", 7: "error"}


def test_a_preprocess_function_that_model_code_calls_is_model_code(tmp_path):
    files = {"pkg/utils.py": "import tensorflow as tf\ndef preprocess(x):\n" + TF_NEAREST,
             "pkg/net.py": "import keras\nfrom pkg import utils\nclass Net(keras.layers.Layer):\n"
                           "    def call(self, x):\n        return utils.preprocess(x)\n"}
    report = _lint(tmp_path, files, backend="candle", training=True)
    assert {(i.site.path, i.severity) for i in report} == {("pkg/utils.py", "error")}


def test_a_command_line_programs_own_code_runs_around_the_model(tmp_path):
    body = ("import torch.nn.functional as F\ndef post(pred):\n"
            "    return F.interpolate(pred, size=(9, 9), mode='bicubic')\n")
    main = "if __name__ == '__main__':\n    post(None)\n"
    program = _lint(tmp_path / "a", {"m.py": "import argparse\n" + body + main}, backend="candle", training=True)
    module = _lint(tmp_path / "b", {"m.py": body + main}, backend="candle", training=True)
    assert {i.severity for i in program} == {"warning"}
    assert "error" in {i.severity for i in module}


def test_paths_of_visualization_and_data_modules():
    from explorer.advisor.lint.context import path_context
    assert [path_context(p) for p in ("pkg/visualizing/maps.py", "clip/tf_data.py", "pkg/vis_utils.py",
                                      "run_tflite.py", "pkg/database.py", "pkg/model.py")] == \
        ["evaluation", "preprocessing", None, "script", None, None]


def test_keras_names_from_a_star_import_and_injected_at_run_time():
    star = "from keras.layers import *\ndef up(x):\n    return UpSampling2D((2, 2))(x)\n"
    assert _api(star) == {3: "keras.layers.UpSampling2D"}
    own = "from keras.layers import *\ndef UpSampling2D(s):\n    return s\ndef up(x):\n    return UpSampling2D(2)(x)\n"
    assert _api(own) == {}
    injected = ("from keras_applications import get_submodules_from_kwargs\nlayers = None\n"
                "def build(x, **kwargs):\n    global layers\n    _, layers, _, _ = get_submodules_from_kwargs(kwargs)\n"
                "    return layers.UpSampling2D(2, interpolation='bilinear')(x)\n")
    assert _api(injected) == {6: "keras.layers.UpSampling2D"}
    local = "import keras\ndef build(x, layers):\n    return layers.UpSampling2D(2)(x)\n"
    assert _api(local) == {}


def test_keras_2_backend_names():
    src = ("from keras import backend as K\ndef f(x):\n"
           "    a = K.tf.image.resize_bilinear(x, (8, 8), align_corners=True)\n"
           "    return K.resize_images(a, 2, 2, 'channels_last', interpolation='bilinear')\n")
    assert _api(src) == {3: "tensorflow.compat.v1.image.resize_bilinear", 4: "keras.backend.resize_images"}
    v2 = "import tensorflow.compat.v2 as tf\ndef f(x):\n    return tf.image.resize(x, [4, 4], tf.image.ResizeMethod.BICUBIC)\n"
    from explorer.advisor.lint.python import read_python
    assert [s.mode.values for s in read_python(v2, "m.py")] == [("bicubic",)]


def test_jupyter_checkpoints_are_walked_other_hidden_folders_are_not(tmp_path):
    src = "import torch.nn.functional as F\ndef f(x):\n    return F.interpolate(x, scale_factor=2, mode='bicubic')\n"
    report = _lint(tmp_path, {".ipynb_checkpoints/m-checkpoint.py": src, ".cache/m.py": src}, backend="candle")
    assert {i.site.path for i in report} == {".ipynb_checkpoints/m-checkpoint.py"}


def test_re_exports_are_followed_through_project_modules_two_levels():
    from explorer.advisor.lint.python import project_reexports
    sources = [("pkg/backend.py", "if tf:\n    from pkg import tf_functional as functional\n"),
               ("pkg/tf_functional.py", "from tensorflow.image import resize, crop_to_box as crop\n"),
               ("d2/layers/__init__.py", "from .wrappers import (\n    Conv2d,  # a layer\n    interpolate,\n)\n"),
               ("d2/layers/wrappers.py", "import torch.nn.functional as F\ninterpolate = F.interpolate\n")]
    table = project_reexports(sources)
    assert table["pkg.backend.functional.resize"] == "tensorflow.image.resize"
    assert table["pkg.tf_functional.crop"] == "tensorflow.image.crop_to_box"
    assert table["d2.layers.interpolate"] == "torch.nn.functional.interpolate"
    user = "from pkg.backend import functional\ndef f(x):\n    return functional.resize(x, (4, 4), 'nearest')\n"
    assert _api(user, "pkg/net.py", reexports=table) == {3: "tensorflow.image.resize"}


TORCH_MODEL = """import torch.nn.functional as F
from torch import nn
class Head(nn.Module):
    def forward(self, x):
        if self.training:
            return F.interpolate(x, size=(8, 8), mode="bilinear")
        else:
            return F.interpolate(x, size=(8, 8), mode="bilinear")
    def mask(self, x):
        m = F.interpolate(x, size=(8, 8), mode="bilinear")
        m = (m.sigmoid() < 0.5).bool()
        n = F.interpolate(x, size=(8, 8), mode="bilinear")
        n = n.sigmoid() * 2
        return m, n
"""


def test_no_gradient_in_the_inference_branch_nor_through_a_compared_value(tmp_path):
    report = _lint(tmp_path, {"m.py": TORCH_MODEL}, backend="candle", training=True)
    errors = {i.site.line for i in report if i.severity == "error"}
    assert errors == {6, 12}


def test_a_scale_factor_computed_by_a_division_is_fractional():
    from explorer.advisor.lint.python import read_python
    src = ("import torch.nn.functional as F\ndef f(x, h, w):\n    s = min(512 / h, 800 / w)\n"
           "    a = F.interpolate(x, scale_factor=s, mode='bilinear')\n"
           "    return F.interpolate(a, scale_factor=h, mode='bilinear')\n")
    assert [s.scale_factor.values for s in read_python(src, "m.py")] == [(True,), ()]


def test_a_fallback_for_an_older_release_is_info(tmp_path):
    src = ("import tensorflow as tf\nclass Interp:\n    def call(self, x):\n        try:\n"
           "            return tf.image.resize(x, [8, 8], 'nearest')\n        except AttributeError:\n"
           "            return tf.image.resize_images(x, [8, 8], 1, align_corners=True)\n")
    report = _lint(tmp_path, {"m.py": src}, backend="candle", training=True)
    assert {i.site.line for i in report} == {5}


def test_the_batch_of_a_keras_train_step_carries_no_gradient(tmp_path):
    src = ("import keras\nimport tensorflow as tf\nclass Distiller(keras.Model):\n    def train_step(self, data):\n"
           "        x, = data\n        small = tf.image.resize(x, (8, 8))\n        return self.student(small)\n"
           "    def call(self, x):\n        return tf.image.resize(x, (8, 8))\n")
    report = _lint(tmp_path, {"m.py": src}, backend="candle", training=True)
    assert {(i.site.line, i.severity) for i in report if i.rule == "candle-bilinear-backward"} == \
        {(6, "warning"), (9, "error")}


def test_an_asserted_downscale_is_antialiased_by_jax():
    from explorer.advisor.lint.python import read_python
    body = "  return jax.image.resize(x, (x.shape[0], size[0], size[1], x.shape[3]), method='bilinear')\n"
    src = ("import jax\ndef down(x, size):\n  assert tuple(size) <= x.shape[1:3]\n" + body
           + "def up(x, size):\n  assert x.shape[1:3] <= tuple(size)\n" + body + "def free(x, size):\n" + body)
    assert [s.antialias.values for s in read_python(src, "m.py")] == [(True,), (False,), (False, True)]


def test_jax_antialias_true_acts_only_when_the_call_downscales():
    from explorer.advisor.lint.python import read_python
    src = ("import jax\ndef f(x, s):\n  a = jax.image.resize(x, (s, s), 'bilinear', antialias=True)\n"
           "  b = jax.image.resize(x, (s * 2, s * 2), 'bilinear', antialias=True)\n"
           "  return jax.image.resize(x, (s // 2, s // 2), 'bilinear', antialias=True)\n")
    assert [s.antialias.values for s in read_python(src, "m.py")] == [(False, True), (False,), (True,)]


def test_a_length_of_the_input_floor_divided_by_a_factor_is_a_downscale_jax_antialiases():
    """``[c, n, h, w] = image.shape`` then ``(c, n, h // f, w // f)``: at most the input's length, so JAX's
    default antialias acts; the same arithmetic on another array's lengths says nothing of the direction."""
    from explorer.advisor.lint.python import read_python
    src = ("import jax\ndef down(image, f):\n  [c, n, h, w] = image.shape\n"
           "  return jax.image.resize(image, [c, n, h // f, w // f], method='linear')\n"
           "def sub(image, f):\n  return jax.image.resize(image, (image.shape[0], image.shape[1] // f), 'linear')\n"
           "def other(image, ref, f):\n  [c, n, h, w] = ref.shape\n"
           "  return jax.image.resize(image, [c, n, h // f, w // f], method='linear')\n")
    assert [s.antialias.values for s in read_python(src, "m.py")] == [(True,), (True,), (False, True)]


def test_a_tch_model_ported_to_candle_or_burn_is_judged_as_pytorchs_op(tmp_path):
    code = ("use tch::Tensor;\nfn pos(xs: &Tensor) -> Tensor {\n"
            "    xs.upsample_bicubic2d([37, 37], false, None, None)\n}\n")
    candle = _lint(tmp_path / "c", {"src/dinov2.rs": code}, backend="candle", training=True)
    assert ("error", "mode-unavailable") in _rules(candle, 3)  # candle has no bicubic
    nearest = code.replace("upsample_bicubic2d([37, 37], false, None, None)", "upsample_nearest2d([8, 8], None, None)")
    assert not [i for i in _lint(tmp_path / "b", {"src/m.rs": nearest}, backend="burn-tch", training=True)
                if i.severity == "error"]  # PyTorch's nearest is Burn's Nearest


def test_a_table_of_library_constants_in_a_repository_that_is_its_package(tmp_path):
    # deeplab2's model/utils.py, imported as `from deeplab2.model import utils` from the repository's own root
    files = {
        "model/__init__.py": "",
        "model/utils.py": (
            "import tensorflow as tf\n"
            "def resize_align_corners(input_tensor, target_size, method='bilinear'):\n"
            "  if method == 'bilinear':\n"
            "    tf_method = tf.compat.v1.image.ResizeMethod.BILINEAR\n"
            "  elif method == 'nearest':\n"
            "    tf_method = tf.compat.v1.image.ResizeMethod.NEAREST_NEIGHBOR\n"
            "  else:\n"
            "    raise ValueError(method)\n"
            "  return tf.compat.v1.image.resize(input_tensor, target_size, method=tf_method, align_corners=True)\n"),
        "model/decoder/aspp.py": (
            "import tensorflow as tf\n"
            "from deeplab2.model import utils\n"
            "class ASPP(tf.keras.layers.Layer):\n"
            "  def call(self, x):\n"
            "    return utils.resize_align_corners(x, [8, 8])\n"),
    }
    report = _lint(tmp_path, files, backend="candle", training=True)
    at = [i for i in report if i.site.path == "model/decoder/aspp.py" and i.site.line == 5]
    assert at and at[0].site.mode.values == ("bilinear",)
    assert ("error", "candle-bilinear-backward") in _rules(report, 5)


def test_a_branch_the_constructors_defaults_do_not_take_is_a_condition(tmp_path):
    # guided-diffusion's Upsample: 3-D nearest only when built with dims=3 (2 by default)
    torch_code = ("import torch.nn.functional as F\nfrom torch import nn\nclass Upsample(nn.Module):\n"
                  "    def __init__(self, channels, dims=2):\n        super().__init__()\n        self.dims = dims\n"
                  "    def forward(self, x, scale_factor=2.0):\n        if self.dims == 3:\n"
                  "            return F.interpolate(x, (x.shape[2], x.shape[3] * 2, x.shape[4] * 2), mode='nearest')\n"
                  "        if scale_factor != 1.0:\n"
                  "            return F.interpolate(x, scale_factor=scale_factor, mode='bilinear')\n        return x\n")
    report = _lint(tmp_path / "t", {"unet.py": torch_code}, backend="burn-tch", training=True)
    three_d = [i for i in report if i.site.line == 9]
    assert three_d and all(i.severity == "warning" and i.condition == "if self.dims == 3" for i in three_d)
    candle = _lint(tmp_path / "c", {"unet.py": torch_code}, backend="candle", training=True)
    # a runtime argument of forward is the point of the call: still an error
    assert ("error", "candle-bilinear-backward") in _rules(candle, 11)
    # score_sde's Flax field: `interpolation: str = 'bilinear'`, the nearest branch not taken by default
    flax_code = ("import jax\nimport flax.linen as nn\nclass MSFBlock(nn.Module):\n    interpolation: str = 'bilinear'\n"
                 "    @nn.compact\n    def __call__(self, h):\n        if self.interpolation == 'bilinear':\n"
                 "            return jax.image.resize(h, (1, 8, 8, 3), 'bilinear')\n"
                 "        elif self.interpolation == 'nearest_neighbor':\n"
                 "            return jax.image.resize(h, (1, 8, 8, 3), 'nearest')\n")
    flax = _lint(tmp_path / "f", {"layers.py": flax_code}, backend="candle", training=True)
    assert ("error", "candle-bilinear-backward") in _rules(flax, 8)  # the branch the default takes
    assert not [i for i in flax if i.site.line == 10 and i.severity == "error"]
    assert [i for i in flax if i.site.line == 10 and i.severity == "warning"]


# Tramac's segmentation models: an auxiliary head resized only `if self.aux:`; the model defaults aux=True but
# its training script passes aux=args.aux (off unless --aux).  karras_unet's blocks: `if self.downsample:` off
# by default, and the U-Net builds them with downsample = True.
FLAG_MODEL = ("import torch.nn.functional as F\nfrom torch import nn\nclass Net(nn.Module):\n"
              "    def __init__(self, nclass, aux=True, down=False):\n        super().__init__()\n"
              "        self.aux = aux\n        self.down = down\n"
              "    def forward(self, x):\n"
              "        y = F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=True)\n"
              "        if self.aux:\n"
              "            y = y + F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=True)\n"
              "        if self.down:\n"
              "            y = F.interpolate(y, scale_factor=0.5, mode='bilinear')\n"
              "        return y\n")
FLAG_TRAIN = ("import argparse\nfrom net import Net\np = argparse.ArgumentParser()\n"
              "p.add_argument('--aux', action='store_true', default=False)\nargs = p.parse_args()\n"
              "model = Net(3, aux=args.aux{down})\nmodel(x).sum().backward()\n")


def test_a_flag_a_caller_can_turn_off_or_must_turn_on_is_a_condition(tmp_path):
    report = _lint(tmp_path / "a", {"net.py": FLAG_MODEL, "train.py": FLAG_TRAIN.format(down="")},
                   backend="candle", training=True)
    assert ("error", "candle-bilinear-backward") in _rules(report, 9)   # unguarded
    aux = [i for i in report if i.site.line == 11]
    assert aux and all(i.severity == "warning" and i.condition == "if self.aux" for i in aux)
    assert "train.py:6" in aux[0].message
    down = [i for i in report if i.site.line == 13]
    assert down and all(i.severity == "warning" and "off by default" in i.message for i in down)
    # a caller that turns the flag on makes the call run; a forward argument is data, not a setting
    on = _lint(tmp_path / "b", {"net.py": FLAG_MODEL, "train.py": FLAG_TRAIN.format(down=", down=True")},
               backend="candle", training=True)
    assert ("error", "candle-bilinear-backward") in _rules(on, 13)
    forward_arg = FLAG_MODEL.replace("def forward(self, x):", "def forward(self, x, aux=False):").replace(
        "if self.aux:", "if aux:")
    data = _lint(tmp_path / "c", {"net.py": forward_arg}, backend="candle", training=True)
    assert ("error", "candle-bilinear-backward") in _rules(data, 11)
    # with no caller at all, the default decides
    alone = _lint(tmp_path / "d", {"net.py": FLAG_MODEL}, backend="candle", training=True)
    assert ("error", "candle-bilinear-backward") in _rules(alone, 11)


def test_a_tensorflow_op_in_a_jax_or_torch_module_runs_in_the_input_pipeline(tmp_path):
    # denoising-diffusion-flax's train.py: the dataset images are resized with tf.image.resize (bicubic,
    # antialias) next to the Flax model; a traced JAX function cannot run a TensorFlow op on its arrays
    code = ("import jax\nimport jax.numpy as jnp\nimport tensorflow as tf\n"
            "def crop_resize(image, resolution):\n"
            "    return tf.image.resize(image, (resolution, resolution), antialias=True, method='bicubic')\n"
            "def loss(params, x):\n    return jnp.mean(x)\ngrads = jax.grad(loss)\n")
    report = _lint(tmp_path / "j", {"train.py": code}, backend="candle", training=True)
    found = [i for i in report if i.site.line == 5]
    assert found and not [i for i in found if i.severity == "error"]
    assert all(i.site.context == "preprocessing" for i in found)
    # the same op in a TensorFlow model, or beside a converter's lazy `import torch`, is model code
    tf_only = code.replace("import jax\nimport jax.numpy as jnp\n", "").replace(
        "def loss(params, x):\n    return jnp.mean(x)\ngrads = jax.grad(loss)\n",
        "def convert():\n    import torch\n    return torch\n")
    model = _lint(tmp_path / "t", {"train.py": tf_only}, backend="candle", training=True)
    assert [i for i in model if i.site.line == 3 and i.severity == "error"]


def test_a_layer_never_called_and_the_channels_first_branch_are_conditions(tmp_path):
    # TensorFlow-Advanced-Segmentation-Models: DeepLabV3plus stores self.upsampling2d_1 and calls another layer;
    # GlobalPooling resizes in an `else` of `K.image_data_format() == "channels_last"` (Keras' default)
    code = ("import tensorflow as tf\nfrom tensorflow.keras import backend as K\n"
            "class Head(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
            "        self.upsampling2d_1 = tf.keras.layers.UpSampling2D(size=2, interpolation='bilinear')\n"
            "        self.upsample2d_1 = tf.keras.layers.UpSampling2D(size=2, interpolation='bilinear')\n"
            "    def call(self, x):\n        x = self.upsample2d_1(x)\n"
            "        if K.image_data_format() == 'channels_last':\n"
            "            y = tf.keras.layers.Lambda(lambda t: tf.image.resize(t, [8, 8]))(x)\n"
            "        else:\n"
            "            y = tf.keras.layers.Lambda(lambda t: tf.image.resize(t, [8, 8]))(x)\n"
            "        return y\n")
    report = _lint(tmp_path, {"model.py": code}, backend="candle", training=True)
    for line in (6, 13):
        found = [i for i in report if i.site.line == line]
        assert found and all(i.severity == "warning" for i in found), line
    for line in (7, 11):
        assert [i for i in report if i.site.line == line and i.severity == "error"], line


def test_an_old_copy_under_old_scripts_is_a_condition(tmp_path):
    # srihari-humbarwadi/DeepLabV3_Plus-Tensorflow2.0 keeps a TF1 model copy in old_scripts/ that nothing imports
    code = ("import tensorflow as tf\nclass Up(tf.keras.layers.Layer):\n    def call(self, x):\n"
            "        return tf.compat.v1.image.resize_bilinear(x, (64, 64), align_corners=True)\n")
    report = _lint(tmp_path, {"old_scripts/old_deeplab.py": code, "deeplab.py": code}, backend="candle", training=True)
    old = [i for i in report if i.site.path.startswith("old_scripts")]
    assert old and all(i.severity == "warning" and "old_scripts/" in i.message for i in old)
    assert [i for i in report if i.site.path == "deeplab.py" and i.severity == "error"]


def test_an_ordering_test_of_a_numeric_default_is_a_branch(tmp_path):
    # StyleGAN-T's loss: the CLIP term (an area resize) only `if self.clip_weight > 0:`, clip_weight=0.0 by default
    code = ("import torch.nn.functional as F\nclass Loss:\n    def __init__(self, clip_weight=0.0, gan_weight=1):\n"
            "        self.clip_weight = clip_weight\n        self.gan_weight = gan_weight\n"
            "    def accumulate(self, img):\n        loss = 0\n        if self.clip_weight > 0:\n"
            "            loss = loss + F.interpolate(img, 224, mode='area').mean()\n"
            "        if self.gan_weight >= 1:\n"
            "            loss = loss + F.interpolate(img, 224, mode='area').mean()\n"
            "        loss.backward()\n")
    report = _lint(tmp_path, {"loss.py": code}, backend="candle", training=True)
    off = [i for i in report if i.site.line == 9]
    assert off and all(i.severity == "warning" and i.condition == "if self.clip_weight > 0" for i in off)
    assert [i for i in report if i.site.line == 11 and i.severity == "error"]


def test_a_function_nothing_in_the_tree_names_is_a_condition(tmp_path):
    # pix2seq's images2patches and pythonlessons' Create_Yolov3: module-level functions no file calls or names
    model = ("import tensorflow as tf\n"
             "def old_head(x):\n    return tf.image.resize(x, (64, 64), method='nearest')\n"
             "def head(x):\n    return tf.image.resize(x, (64, 64), method='nearest')\n"
             "@register\ndef registered(x):\n    return tf.image.resize(x, (64, 64), method='nearest')\n")
    train = ("import tensorflow as tf\nfrom model import head\nwith tf.GradientTape() as tape:\n"
             "    loss = tf.reduce_sum(head(x))\n")
    report = _lint(tmp_path / "a", {"model.py": model, "train.py": train}, backend="candle", training=True)
    old = [i for i in report if i.site.path == "model.py" and i.site.line == 3]
    assert old and all("nothing in the tree calls" in i.message and i.severity != "error" for i in old)
    for line in (5, 8):
        assert not [i for i in report if i.site.line == line and "nothing in the tree" in i.message], line
    # a module another file star-imports exports every name; a module nothing imports is not judged so
    starred = _lint(tmp_path / "b", {"model.py": model, "__init__.py": "from .model import *\n"},
                    backend="candle", training=True)
    assert not [i for i in starred if "nothing in the tree" in i.message]
    alone = _lint(tmp_path / "c", {"model.py": model}, backend="candle", training=True)
    assert not [i for i in alone if "nothing in the tree" in i.message]


# UE2020/colorize's shape: a tch-rs binary that trains and, in its `test` command, runs the generator inside
# `tch::no_grad(|| ...)`; candle has no bicubic at all, which fails the trained call and only warns for inference
TCH_NO_GRAD = {"src/main.rs": (
    "use tch::Tensor;\n"
    "fn main() {\n"
    "    let l = Tensor::zeros([1, 1, 64, 64], (tch::Kind::Float, tch::Device::Cpu));\n"
    "    let trained = l.upsample_bicubic2d([256, 256], false, None, None);\n"
    "    trained.sum(tch::Kind::Float).backward();\n"
    "    tch::no_grad(|| {\n"
    "        let small = l.upsample_bicubic2d([256, 256], false, None, None);\n"
    "        small.print();\n"
    "    });\n"
    "}\n")}


def test_a_tch_call_inside_no_grad_is_inference(tmp_path):
    report = _lint(tmp_path, TCH_NO_GRAD, backend="candle", training=True)
    by_line = {i.site.line: i for i in report}
    assert by_line[4].severity == "error"
    assert by_line[7].severity == "warning" and by_line[7].site.context == "evaluation"


# Tramac's ICNetLoss: a loss's forward unpacks its target from *inputs and resizes it to each prediction's size
LOSS_TARGET = {"loss.py": (
    "import torch.nn as nn\n"
    "import torch.nn.functional as F\n"
    "class ICNetLoss(nn.CrossEntropyLoss):\n"
    "    def forward(self, *inputs):\n"
    "        preds, target = tuple(inputs)\n"
    "        target = target.unsqueeze(1).float()\n"
    "        small = F.interpolate(target, preds.size()[2:], mode='bilinear', align_corners=True)\n"
    "        pred = F.interpolate(preds, target.size()[2:], mode='bilinear', align_corners=True)\n"
    "        return super().forward(pred, small.squeeze(1).long())\n")}


def test_a_target_unpacked_by_name_in_a_loss_carries_no_gradient(tmp_path):
    report = _lint(tmp_path, LOSS_TARGET, backend="candle", training=True)
    by_line = {i.site.line: i for i in report}
    assert by_line[7].severity == "warning" and "target" in by_line[7].message
    assert by_line[8].severity == "error"  # the prediction is differentiated

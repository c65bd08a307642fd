"""``lint`` end to end: each call judged by its library's rules, conditions instead of false errors.

Every fixture is a small program written for this test; the verdicts come from the knowledge base through
``explorer.check`` (the test asks which record fires, not what its text says).
"""

from __future__ import annotations

import textwrap

import pytest

from explorer.advisor.lint import lint


def project(tmp_path, **files):
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return tmp_path


def issues_at(report, path, line):
    return {(i.severity, i.rule) for i in report if i.site.path == path and i.site.line == line}


MODEL = '''
    import torch
    import torch.nn.functional as F
    from torch import nn

    class CastUp(nn.Upsample):
        pass

    class Net(nn.Module):
        def __init__(self, interpolation="bicubic"):
            super().__init__()
            self.up = CastUp(scale_factor=2.0, mode="nearest-exact")
            self.plain = nn.Upsample(scale_factor=2, mode="bilinear")
            self.interpolation = interpolation
        def forward(self, x, v):
            x = F.interpolate(x, size=x.shape[-2:], mode=self.interpolation,
                              align_corners=False,
                              antialias=True)
            v = F.interpolate(v, scale_factor=2, mode="trilinear")
            w = F.interpolate(v, (4, 8, 8), mode="nearest")
            t = F.interpolate(x[:, :, 0], scale_factor=2, mode="linear")
            return F.interpolate(x, scale_factor=2)
'''


def test_torch_model_ported_to_burn_tch(tmp_path):
    report = lint(project(tmp_path, **{"net.py": MODEL}), backend="burn-tch")
    assert {"burn-tch-nearest-exact-forward", "burn-tch-nearest-exact-backward"} <= {
        r for _, r in issues_at(report, "net.py", 11)}
    assert issues_at(report, "net.py", 12) == set()  # bilinear, half-pixel like torch: nothing to say
    assert ("error", "burn-no-antialias") in issues_at(report, "net.py", 15)
    assert ("error", "burn-2d-only") in issues_at(report, "net.py", 18)  # trilinear: 3-D
    assert ("error", "burn-2d-only") in issues_at(report, "net.py", 19)  # a 3-value size: 3-D
    assert issues_at(report, "net.py", 20) == set()  # 1-D linear exists in burn-nn
    assert issues_at(report, "net.py", 21) == set()  # nearest, rank not shown: a condition, not an error
    conditions = {c.rule: [(s.path, s.line) for s in c.sites] for c in report.conditions}
    assert ("net.py", 21) in conditions["burn-2d-only"]
    assert report.exit_status == 1


def test_valid_ranks_are_not_rank_errors_on_torch(tmp_path):
    report = lint(project(tmp_path, **{"net.py": MODEL}), backend="torch", device="cpu")
    assert not [i for i in report if "rank" in i.rule]
    assert report.exit_status == 0


def test_size_conditions_are_one_summary_not_an_error_per_call(tmp_path):
    src = "import torch.nn.functional as F\n" + "".join(
        f"y{k} = F.interpolate(x, size=s, mode='area')\n" for k in range(5)) + "".join(
        f"z{k} = F.interpolate(x, size=s, mode='bilinear')\n" for k in range(3))
    report = lint(project(tmp_path, **{"a.py": src}), backend="torch", device="mps")
    assert not [i for i in report if i.severity in ("error", "warning")]
    by_rule = {c.rule: c for c in report.conditions}
    assert len(by_rule["torch-mps-area-divisible"].sites) == 5
    assert len(by_rule["torch-empty-size"].sites) == 3


def test_backward_failures_need_the_call_to_be_in_a_trained_model(tmp_path):
    report = lint(project(tmp_path, **{"m.py": '''
        import torch
        import torch.nn.functional as F
        from torch import nn

        class Head(nn.Module):
            def forward(self, x):
                return F.interpolate(x, (8, 8), mode="bicubic", antialias=True)

        def helper(x):
            return F.interpolate(x, (8, 8), mode="bicubic", antialias=True)

        class Frozen(nn.Module):
            def setup(self):
                self.requires_grad_(False)
            def forward(self, x):
                return F.interpolate(x, (8, 8), mode="bicubic", antialias=True)

        @torch.no_grad()
        def infer(x):
            return F.interpolate(x, (8, 8), mode="bicubic", antialias=True)

        def up(x):
            if x.device.type == "mps":
                return F.interpolate(x, (8, 8), mode="bilinear")
            return F.interpolate(x, (8, 8), mode="bicubic", antialias=True)
    '''}), backend="torch", device="mps")
    assert ("error", "torch-mps-bicubic-aa-backward") in issues_at(report, "m.py", 7)
    assert ("warning", "torch-mps-bicubic-aa-backward") in issues_at(report, "m.py", 10)
    assert ("warning", "torch-mps-bicubic-aa-backward") in issues_at(report, "m.py", 16)
    assert issues_at(report, "m.py", 20) == set()  # no gradients
    assert issues_at(report, "m.py", 25) == set()  # never runs on mps
    warning = next(i for i in report if i.site.line == 10)
    assert warning.condition and "gradients" in warning.message


def test_host_libraries_are_not_torch_ops(tmp_path):
    report = lint(project(tmp_path, **{"data.py": '''
        import cv2
        from PIL import Image
        from torchvision import transforms
        TABLE = {"bilinear": cv2.INTER_LINEAR, "area": cv2.INTER_AREA}
        PIL_INTERPOLATION = {"lanczos": Image.LANCZOS, "bicubic": Image.BICUBIC}
        im = Image.open("a.png").resize((64, 64), Image.LANCZOS)
        arr = cv2.resize(arr, (64, 64), interpolation=cv2.INTER_AREA)
        pipeline = transforms.Compose([transforms.Resize(256, interpolation=transforms.InterpolationMode.BICUBIC)])
    '''}), backend="burn-tch")
    assert list(report) == []
    assert len(report.sites) == 3


def test_unknown_modes_are_one_info_line(tmp_path):
    root = project(tmp_path, **{"u.py": '''
        import torch.nn.functional as F
        def up(x, mode):
            return F.interpolate(x, scale_factor=2, mode=mode)
    '''})
    assert list(lint(root, backend="burn-tch")) == []
    info = lint(root, backend="burn-tch", min_severity="info")
    (issue,) = [i for i in info if i.rule == "mode-unknown"]
    assert issue.severity == "info" and "parameter `mode` has no default" in issue.message


def test_training_is_the_default_and_export_means_inference(tmp_path):
    root = project(tmp_path, **{"m.rs": "let o = InterpolateOptions::new(InterpolateMode::NearestExact);\n"})
    assert "burn-tch-nearest-exact-backward" in {i.rule for i in lint(root, backend="burn-tch")}
    assert "burn-tch-nearest-exact-backward" not in {i.rule for i in lint(root, backend="burn-tch", training=False)}
    net = project(tmp_path / "py", **{"net.py": '''
        import torch.nn.functional as F
        from torch import nn
        class Net(nn.Module):
            def forward(self, x):
                return F.interpolate(x, scale_factor=2, mode="bicubic")
        def helper(x):
            return F.interpolate(x, scale_factor=2, mode="bicubic")
    '''})
    report = lint(net, backend="coreml", export="coreml")
    assert "coreml-inference-only" not in {i.rule for i in report}
    assert {i.severity for i in report if i.site.line == 5} == {"error"}
    assert {i.severity for i in report if i.site.line == 7} == {"warning"}  # maybe not in the exported model


def test_an_export_traces_forward_and_what_it_reaches(tmp_path):
    root = project(tmp_path, **{"vq.py": '''
        import torch.nn.functional as F
        from torch import nn
        from torch.utils.checkpoint import checkpoint
        class VQ(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = nn.Upsample(scale_factor=2, mode="bicubic")
            def forward(self, x):
                return checkpoint(self._decode, self.up(x))
            def _decode(self, x):
                return F.interpolate(x, scale_factor=2, mode="bicubic")
            def get_input(self, batch):
                return F.interpolate(batch, size=(64, 64), mode="bicubic")
        class Mixin(nn.Module):
            def grow(self, x):
                return F.interpolate(x, scale_factor=2, mode="bicubic")
    ''', "losses/perceptual.py": '''
        import torch.nn.functional as F
        from torch import nn
        class Perceptual(nn.Module):
            def forward(self, x, y):
                return F.interpolate(y, size=x.shape[-2:], mode="bicubic")
    '''})
    exported = lint(root, backend="coreml", export="coreml")
    for line in (7, 11):
        assert {i.severity for i in exported if i.site.path == "vq.py" and i.site.line == line} == {"error"}, line
    for path, line in (("vq.py", 13), ("losses/perceptual.py", 5)):
        (issue,) = [i for i in exported if i.site.path == path and i.site.line == line]
        assert issue.severity == "warning" and "forward does not reach it" in issue.message, (path, line)
    assert {i.severity for i in exported if i.site.path == "vq.py" and i.site.line == 16} == {"error"}  # no forward here
    trained = lint(root, backend="torch", device="mps", version="2.5.1", training=True)
    for path, line in (("vq.py", 11), ("vq.py", 13), ("losses/perceptual.py", 5)):
        assert "error" in {i.severity for i in trained if i.site.path == path and i.site.line == line}, (path, line)


def test_a_partly_known_mode_warns_with_the_value_it_has_where_it_is_set(tmp_path):
    root = project(tmp_path, **{"sampler.py": '''
        import torch.nn.functional as F
        class Sampler:
            def __init__(self, upscale_mode="bicubic"):
                self.upscale_mode = upscale_mode
            def set_mode(self, upscale_mode):
                self.upscale_mode = upscale_mode
            def step(self, x, size):
                return F.interpolate(x, size=size, mode=self.upscale_mode)
    '''})
    report = lint(root, backend="torch", device="mps", version="2.5.1", training=False)
    (issue,) = [i for i in report if i.site.line == 8]
    assert issue.severity == "warning" and issue.rule == "torch-mps-bicubic-missing"
    assert issue.message.startswith("With mode='bicubic' (default of parameter `upscale_mode`")


def test_rust_is_judged_for_its_own_library_and_ported_to_the_other_rust_one_only(tmp_path):
    root = project(tmp_path, **{"m.rs": "let o = InterpolateOptions::new(InterpolateMode::Lanczos3);\n"})
    report = lint(root, backend="torch")
    assert list(report) == [] and len(report.not_judged) == 1
    assert ("error", "burn-tch-lanczos3-forward") in issues_at(lint(root, backend="burn-tch"), "m.rs", 1)


def test_burn_model_code_ported_to_candle_is_judged_as_candle_computes_it(tmp_path):
    """A Burn model's bilinear resize ported to candle: candle's bilinear upsample has no backward, so a trained
    port fails; the same call in an example binary (``example/main.rs``, forward only) is not an error."""
    code = textwrap.dedent("""
        use burn::nn::interpolate::{Interpolate2dConfig, InterpolateMode};
        fn up<B: Backend>(x: Tensor<B, 4>) -> Tensor<B, 4> {
            Interpolate2dConfig::new()
                .with_output_size(Some([64, 64]))
                .with_mode(InterpolateMode::Linear)
                .init()
                .forward(x)
        }
        fn main() {}
    """)
    root = project(tmp_path, **{"src/head.rs": code, "example/main.rs": code})
    report = lint(root, backend="candle", training=True)
    assert not report.not_judged
    model = {i.severity for i in report if i.site.path == "src/head.rs" and i.rule == "candle-bilinear-backward"}
    example = {i.severity for i in report if i.site.path == "example/main.rs" and i.rule == "candle-bilinear-backward"}
    assert model == {"error"} and "error" not in example, [(i.site.path, i.severity, i.rule) for i in report]


def test_burn_defaults_differ_from_torch(tmp_path):
    root = project(tmp_path, **{"m.rs": '''
        let a = InterpolateOptions::new(InterpolateMode::Bilinear);
        let b = InterpolateOptions::new(InterpolateMode::Bilinear).with_align_corners(false);
        let c = Interpolate2dConfig::new().with_scale_factor(Some([0.5, 0.5]));
        let d = Interpolate2dConfig::new().with_scale_factor(Some([2.0, 2.0]));
    '''})
    report = lint(root, backend="burn-flex")
    assert ("differs", "burn-align-corners-default-true") in issues_at(report, "m.rs", 1)
    assert issues_at(report, "m.rs", 2) == set()
    assert ("differs", "burn-scale-factor-truncates") in issues_at(report, "m.rs", 3)
    assert issues_at(report, "m.rs", 4) == set()


def test_onnx_nodes_imported_into_burn(tmp_path):
    root = project(tmp_path, **{"export.py": '''
        from onnx import helper
        a = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="nearest")
        b = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="nearest",
                             coordinate_transformation_mode="asymmetric", nearest_mode="floor")
        c = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear")
        d = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear",
                             coordinate_transformation_mode="align_corners")
    '''})
    report = lint(root, backend="burn-tch", training=False)
    assert ("differs", "burn-onnx-import-differs") in issues_at(report, "export.py", 2)
    for line in (3, 5, 6):
        assert "burn-onnx-import-differs" not in {r for _, r in issues_at(report, "export.py", line)}, line
    old = lint(root, backend="burn-tch", training=False, version="0.20.1")  # before the import read the grid
    assert ("differs", "burn-onnx-import-differs") in issues_at(old, "export.py", 5)
    aa = project(tmp_path / "aa", **{"x.py": 'from onnx import helper\n'
                                             'n = helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear", '
                                             'antialias=1)\n'})
    assert {r for s, r in issues_at(lint(aa, backend="burn-tch"), "x.py", 2) if s == "error"} == {
        "burn-onnx-import-antialias"}


def test_onnx_files_go_through_scan(tmp_path):
    from onnx import TensorProto, helper, save
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 3, 3, 3])
    relu = helper.make_node("Relu", ["x"], ["r"])
    node = helper.make_node("Resize", ["r", "", "", "sizes"], ["y"], name="down", mode="nearest")
    model = helper.make_model(helper.make_graph([relu, node], "g", [x], [y], initializer=[sizes]),
                              opset_imports=[helper.make_opsetid("", 13)])
    save(model, str(tmp_path / "model.onnx"))
    (tmp_path / "broken.onnx").write_bytes(b"not a model")
    report = lint(tmp_path, backend="burn-tch", version="0.22.0-pre.2", training=False)
    (site,) = report.sites
    assert (site.path, site.line) == ("model.onnx", 2)
    assert any(i.severity == "differs" and "imports this node as InterpolateMode::Nearest" in i.message
               for i in report)
    assert [s.path for s in report.skipped] == ["broken.onnx"]


def test_configs_are_warnings_at_most(tmp_path):
    report = lint(project(tmp_path, **{"c.yaml": "decoder:\n  upsample_mode: nearest-exact\n"}), backend="burn-tch")
    assert {i.severity for i in report} == {"warning"} and report.exit_status == 0
    assert all(i.message.startswith("A configuration value") for i in report)


def test_bad_arguments_fail_before_reading(tmp_path):
    with pytest.raises(ValueError, match="backend='burn-xyz'"):
        lint(tmp_path, backend="burn-xyz")
    with pytest.raises(ValueError, match="device"):
        lint(tmp_path, backend="burn-tch", device="tpu")
    with pytest.raises(ValueError, match="min_severity"):
        lint(tmp_path, backend="burn-tch", min_severity="loud")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        lint(tmp_path / "nope", backend="burn-tch")


def test_a_layers_weight_loading_and_a_post_processor_run_outside_the_model(tmp_path):
    """Keras 3's ``load_own_variables`` resizing a stored position embedding loads weights (a failure there is a
    warning, not the layer's error); a ``PostProcess*`` class's resize runs after the model.  The same resize in
    the layer's ``call`` stays an error."""
    root = project(tmp_path, **{"layers.py": '''
        import keras
        from keras import ops
        import torch.nn.functional as F
        from torch import nn

        class PositionEmbedding(keras.layers.Layer):
            def call(self, x):
                return ops.image.resize(x, size=[7, 7], interpolation="bilinear", antialias=True)

            def load_own_variables(self, store):
                pos = ops.image.resize(store["0"], size=[7, 7], interpolation="bilinear", antialias=True)
                self.pos_embed.assign(pos)

        class PostProcessPanoptic(nn.Module):
            def forward(self, masks, size):
                return F.interpolate(masks, size=size, mode="bilinear")

        class Head(nn.Module):
            def forward(self, masks, size):
                return F.interpolate(masks, size=size, mode="bilinear")
    '''})
    burn = lint(root, backend="burn-tch", training=True)
    severities = {line: {i.severity for i in burn if i.site.line == line} for line in (8, 11)}
    assert "error" in severities[8] and severities[11] and "error" not in severities[11], severities
    candle = lint(root, backend="candle", training=True)
    assert "error" not in {i.severity for i in candle if i.site.line == 16}
    assert ("error", "candle-bilinear-backward") in issues_at(candle, "layers.py", 20)

"""The scan on small architectures exported by both torch.onnx exporters at several opsets (random weights,
exported at test time): every Resize of a model with static inputs is scanned, with the shapes ONNX Runtime
computes when it runs the model (the ground truth: each Resize's input and output made a graph output and the
model run), and a dynamic batch axis blocks no node.

The modules copy the resize patterns of real architectures: a decoder with GroupNorm whose upsampling sizes
follow the tensors (diffusers' UNet/VAE: GroupNorm exports as Reshape -> InstanceNormalization -> Reshape to
Shape(x) below opset 18), a segmentation head resizing every stage to the first one's size (Segformer, DPT,
UperNet), and torchvision's detection transform (the scale is min(min_size / min(h, w), max_size / max(h, w)):
ReduceMin, ReduceMax, Reciprocal in the TorchScript export), and a token grid whose side is a square root, padded
to a multiple of a window (ViT/DPT, Swin2SR: Pow and Mod on shapes).
"""

from __future__ import annotations

import warnings

import numpy as np
import onnxruntime as ort
import pytest
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper
from torch import nn

from explorer.advisor.scan import scan
from tests.torch_exports import export


class Decoder(nn.Module):
    """diffusers-like decoder: conv + GroupNorm + SiLU blocks, nearest 2x upsampling, a final bilinear resize."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(nn.Sequential(nn.Conv2d(8, 8, 3, padding=1), nn.GroupNorm(2, 8), nn.SiLU())
                                    for _ in range(3))
        self.stem = nn.Conv2d(3, 8, 1)

    def forward(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = F.interpolate(block(h), scale_factor=2.0, mode="nearest")
        return F.interpolate(h, size=(50, 50), mode="bilinear", align_corners=False)


class SegHead(nn.Module):
    """Segformer/UperNet-like head: stages at strides 1, 2, 4, 8 each resized to the first stage's size."""

    def __init__(self):
        super().__init__()
        self.downs = nn.ModuleList(nn.Conv2d(3 if k == 0 else 4, 4, 3, stride=1 if k == 0 else 2, padding=1)
                                   for k in range(4))

    def forward(self, x):
        stages, h = [], x
        for down in self.downs:
            h = down(h)
            stages.append(h)
        size = stages[0].shape[2:]
        fused = sum(F.interpolate(s, size=size, mode="bilinear", align_corners=False) for s in stages)
        return F.interpolate(fused, scale_factor=4.0, mode="bilinear", align_corners=False)


class DetectionTransform(nn.Module):
    """torchvision's GeneralizedRCNNTransform.resize: one scale from the image's smaller and larger sides."""

    def __init__(self, min_size=40.0, max_size=64.0):
        super().__init__()
        self.min_size, self.max_size = min_size, max_size

    def forward(self, x):
        shape = torch.tensor(x.shape[-2:])
        low, high = torch.min(shape).to(torch.float32), torch.max(shape).to(torch.float32)
        scale = torch.min(self.min_size / low, self.max_size / high)
        y = F.interpolate(x, size=None, scale_factor=scale.item(), mode="bilinear", recompute_scale_factor=True,
                          align_corners=False)
        return F.interpolate(y, scale_factor=0.5, mode="nearest")


class PatchGrid(nn.Module):
    """ViT/DPT-like: the token grid's side is the square root of the token count (transformers' ``torch_int``:
    Pow in the TorchScript export); Swin2SR-like: the grid padded to a multiple of the window (``h % window``:
    Mod), then upsampled."""

    def forward(self, x):
        b, n, c = x.shape
        side = (torch.as_tensor(n - 1) ** 0.5).to(torch.int64)
        grid = x[:, 1:].reshape(b, side, side, c).permute(0, 3, 1, 2)
        pad = (4 - grid.shape[2] % 4) % 4
        return F.interpolate(F.pad(grid, (0, pad, 0, pad)), scale_factor=2.0, mode="nearest")


#: (module, input shape, Resize nodes, the exports: (exporter, opset))
CASES = [
    (Decoder, (1, 3, 6, 6), 4, [("torchscript", 11), ("torchscript", 13), ("torchscript", 17), ("dynamo", 18)]),
    (SegHead, (1, 3, 24, 20), 5, [("torchscript", 11), ("torchscript", 17), ("dynamo", 18)]),
    (DetectionTransform, (1, 3, 30, 45), 2, [("torchscript", 11), ("torchscript", 16), ("dynamo", 18)]),
    (PatchGrid, (1, 37, 8), 1, [("torchscript", 11), ("torchscript", 17), ("dynamo", 18)]),
]
EXPORTS = [pytest.param(module, shape, count, exporter, opset, id=f"{module.__name__}-{exporter}-{opset}")
           for module, shape, count, exports in CASES for exporter, opset in exports]


def ort_resize_shapes(model, x) -> dict:
    """{node name: (input shape, output shape)} of every Resize/Upsample of the main graph, from running the model
    in ONNX Runtime with each node's input and output as graph outputs."""
    probe = type(model)()
    probe.CopyFrom(model)
    nodes = [n for n in probe.graph.node if n.op_type in ("Resize", "Upsample")]
    present = {o.name for o in probe.graph.output}
    names = []
    for node in nodes:
        for name in (node.input[0], node.output[0]):
            if name not in present:
                probe.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
                present.add(name)
            names.append(name)
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    values = dict(zip([o.name for o in session.get_outputs()],
                      session.run(None, {session.get_inputs()[0].name: x})))
    return {n.name or n.output[0]: (values[n.input[0]].shape, values[n.output[0]].shape) for n in nodes}


@pytest.mark.parametrize("module, shape, count, exporter, opset", EXPORTS)
def test_every_node_of_a_static_export_is_scanned_with_ort_shapes(module, shape, count, exporter, opset):
    x = torch.rand(shape, generator=torch.Generator().manual_seed(0))
    model = export(module(), (x,), exporter, opset)
    truth = ort_resize_shapes(model, x.numpy())
    assert len(truth) == count
    result = scan(model, backend="onnxruntime")
    assert result.unscanned == 0, result.summary()
    assert {n.node: (tuple(n.input_shape), tuple(n.output_shape)) for n in result} == truth
    assert all(n.equivalents for n in result)
    assert result.exit_status == 0
    from_bytes = scan(model.SerializeToString(), backend="onnxruntime")  # read without the weights' bytes
    assert from_bytes.to_dicts() == result.to_dicts()


@pytest.mark.parametrize("module, shape, count, opset", [
    (Decoder, (1, 3, 6, 6), 4, 17), (Decoder, (1, 3, 6, 6), 4, 11), (SegHead, (1, 3, 24, 20), 5, 17),
    (SegHead, (1, 3, 24, 20), 5, 11), (DetectionTransform, (1, 3, 30, 45), 2, 16), (PatchGrid, (1, 37, 8), 1, 17),
    (PatchGrid, (1, 37, 8), 1, 11)])
def test_dynamic_batch_blocks_no_node(module, shape, count, opset):
    x = torch.rand(shape, generator=torch.Generator().manual_seed(1))
    model = export(module(), (x,), "torchscript", opset, dynamic_axes={"x": {0: "batch"}})
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "batch"
    truth = ort_resize_shapes(model, np.concatenate([x.numpy()] * 2))
    result = scan(model, backend="onnxruntime")
    assert result.unscanned == 0, result.summary()
    for n in result:
        assert isinstance(n.input_shape[0], str) and n.input_shape[0] == n.output_shape[0]  # symbolic
        assert (2, *n.input_shape[1:]) == truth[n.node][0] and (2, *n.output_shape[1:]) == truth[n.node][1]
    given = scan(model, example_inputs={"x": (3, *shape[1:])}, backend="onnxruntime")
    assert [n.input_shape[0] for n in given] == [3] * count


class Repeated(nn.Module):
    """A resize loop (scripted, so the export keeps it as a Loop): up 2x then back to half, n times."""

    def forward(self, x, n: int):
        h = x
        for _ in range(n):
            h = F.interpolate(h, scale_factor=2.0, mode="bilinear", align_corners=False)
            h = F.interpolate(h, size=(h.shape[2] // 2, h.shape[3] // 2), mode="bilinear", align_corners=False)
        return h


def test_nodes_inside_a_loop_body_are_scanned():
    x = torch.rand(1, 2, 8, 8, generator=torch.Generator().manual_seed(2))
    with warnings.catch_warnings():  # torch.jit.script's deprecation notice
        warnings.simplefilter("ignore", DeprecationWarning)
        scripted = torch.jit.script(Repeated())
    model = export(scripted, (x, 3), "torchscript", 13, input_names=("x", "n"))
    [loop] = [n for n in model.graph.node if n.op_type == "Loop"]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    [y] = session.run(None, {"x": x.numpy(), "n": np.asarray(3)})
    assert y.shape == x.shape  # the loop carries the input's shape from one iteration to the next
    result = scan(model, backend="onnxruntime")
    assert len(result) == 2 and result.unscanned == 0, result.summary()
    assert all(n.location == f"{loop.name.lstrip('/')}.body" for n in result)
    assert [(n.input_shape, n.output_shape) for n in result] == [((1, 2, 8, 8), (1, 2, 16, 16)),
                                                                  ((1, 2, 16, 16), (1, 2, 8, 8))]


def test_dynamo_nodes_name_their_module_and_line():
    import inspect
    lines, first = inspect.getsourcelines(Decoder.forward)
    calls = {first + k for k, line in enumerate(lines) if "F.interpolate" in line}
    x = torch.rand(1, 3, 6, 6, generator=torch.Generator().manual_seed(3))
    result = scan(export(Decoder(), (x,), "dynamo", 18), backend="onnxruntime")
    where = {n.origin for n in result}
    assert where == {f"(top module) (Decoder), test_scan_exports.py line {n}" for n in calls}
    assert all(f", {n.origin}" in str(result) for n in result)


@pytest.mark.parametrize("module, shape, opset", [(Decoder, (1, 3, 6, 6), 11), (DetectionTransform, (1, 3, 30, 45), 16)])
def test_symbolic_shape_inference_past_its_time_leaves_the_nodes_unscanned_with_the_reason(
        monkeypatch, capsys, tmp_path, module, shape, opset):
    """A dynamic batch leaves the shape arithmetic symbolic, which only ONNX Runtime's symbolic shape inference
    follows, and sympy can spend minutes on it; past explorer.limits.SCAN_SHAPE_SECONDS it is interrupted: the
    nodes it would have shaped are unscanned, saying why, and under --backend the file fails CI.  With the
    default limit the same export is fully scanned."""
    from explorer.__main__ import main
    from explorer.advisor import onnx_resize
    model = export(module(), (torch.rand(shape),), "torchscript", opset, dynamic_axes={"x": {0: "batch"}})
    monkeypatch.setattr(onnx_resize, "_merge_two_size_shapes", lambda *args: None)  # left to symbolic inference
    assert scan(model, backend="onnxruntime").unscanned == 0
    monkeypatch.setattr(onnx_resize, "SCAN_SHAPE_SECONDS", 0.0)
    result = scan(model, backend="onnxruntime")
    unscanned = [f for n in result for f in n.findings if f.message.startswith("not scanned")]
    assert result.unscanned >= 1 and len(unscanned) == result.unscanned
    assert all("SCAN_SHAPE_SECONDS" in f.message and "symbolic shape inference" in f.message for f in unscanned)
    assert {f.severity for f in unscanned} == {"error"} and result.exit_status == 1
    path = tmp_path / "model.onnx"
    path.write_bytes(model.SerializeToString())
    assert main(["scan", str(path), "--backend", "onnxruntime"]) == 1
    assert "SCAN_SHAPE_SECONDS" in capsys.readouterr().out


def test_a_deadline_interrupts_pure_python_work_and_never_fires_after_the_call():
    from explorer.advisor.onnx_resize import OutOfTime, with_deadline

    def spin():
        while True:
            pass
    with pytest.raises(OutOfTime, match="ran past 0.05 s"):
        with_deadline(0.05, spin)
    caught_late = 0
    for _ in range(200):  # calls that end just as their deadline comes: the exception stays inside
        try:
            try:
                with_deadline(0.0002, sum, range(3000))
            except OutOfTime:
                pass
            for _ in range(5000):
                pass
        except OutOfTime:
            caught_late += 1
    assert caught_late == 0
    assert with_deadline(5, sorted, [3, 1, 2]) == [1, 2, 3]

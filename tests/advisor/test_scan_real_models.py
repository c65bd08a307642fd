"""The scan on real architectures nobody here wrote: transformers Segformer, DPT, UperNet (ConvNeXt backbone), ViT
(``interpolate_pos_encoding``), Swin2SR, diffusers UNet2DModel, AutoencoderKL, UNet2DConditionModel, torchvision
LRASPP, DeepLabV3 and RAFT, timm HRNet, GhostNetV2, EfficientFormerV2, MobileViT and CrossViT, in small
configurations with random weights (``tests/real_models.py``: built from config objects, nothing downloaded),
each exported by both torch.onnx exporters (TorchScript ``dynamo=False`` at opsets 11, 13 and 17; dynamo at 18;
RAFT from opset 16, where GridSample starts) once per test session.

The ground truth comes from the exported graph and ONNX Runtime, never from the scan: the Resize/Upsample nodes
are counted in the graph and its subgraphs, and the input and output shape of each is what ONNX Runtime computes
running the model with that node's input and output made graph outputs.
"""

from __future__ import annotations

import functools
import importlib.util

import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")
pytest.importorskip("transformers")
pytest.importorskip("diffusers")
if importlib.util.find_spec("timm") is None:  # (imported by the models, after torchvision's transforms)
    pytest.skip("timm is not installed", allow_module_level=True)

from onnx import TensorProto, helper  # noqa: E402

from explorer.__main__ import main  # noqa: E402
from explorer.advisor.scan import scan  # noqa: E402
from explorer.advisor.scan import is_unscanned  # noqa: E402
from tests.real_models import DETECTION, MODELS, exports_at, resize_count  # noqa: E402
from tests.torch_exports import export  # noqa: E402

#: every model at these exports (TorchScript below opset 18 writes GroupNorm and shapes as arithmetic the scan
#: must follow; the dynamo exporter starts at 18)
EXPORTS = [("torchscript", 11), ("torchscript", 13), ("torchscript", 17), ("dynamo", 18)]
CASES = [pytest.param(name, exporter, opset, id=f"{name}-{exporter}-{opset}")
         for name in MODELS for exporter, opset in EXPORTS if exports_at(name, opset, exporter)]


@functools.cache
def _built(name):
    torch.manual_seed(0)
    module, args = {**MODELS, **DETECTION}[name]()
    return module.eval(), args


@functools.cache
def exported(name, exporter, opset):
    """(model, the example inputs as arrays by input name), exported once per session."""
    module, args = _built(name)
    names = ("x", "t", "c")[:len(args)]
    model = export(module, args, exporter, opset, input_names=names)
    return model, {n: a.numpy() for n, a in zip(names, args)}


def ort_resize_shapes(model, feeds) -> dict:
    """{node name: (input shape, output shape)} of every Resize/Upsample of the main graph, from running the model
    in ONNX Runtime with each node's input and output as graph outputs."""
    probe = type(model)()
    probe.CopyFrom(model)
    nodes = [n for n in probe.graph.node if n.op_type in ("Resize", "Upsample")]
    present = {o.name for o in probe.graph.output}
    for node in nodes:
        for name in (node.input[0], node.output[0]):
            if name not in present:
                probe.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
                present.add(name)
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    values = dict(zip([o.name for o in session.get_outputs()],
                      session.run(None, {k: v for k, v in feeds.items() if k in inputs})))
    return {n.name or n.output[0]: (values[n.input[0]].shape, values[n.output[0]].shape) for n in nodes}


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.parametrize("name, exporter, opset", CASES)
def test_every_node_of_a_real_export_is_listed_scanned_and_shaped_as_onnx_runtime_runs_it(name, exporter, opset):
    model, feeds = exported(name, exporter, opset)
    truth = ort_resize_shapes(model, feeds)
    result = scan(model, backend="onnxruntime")
    assert len(result) == resize_count(model.graph) == len(truth), result.summary()
    assert result.unscanned == 0, result.summary()
    assert {n.node: (tuple(n.input_shape), tuple(n.output_shape)) for n in result} == truth
    by_name = {n.name: n for n in model.graph.node if n.op_type in ("Resize", "Upsample")}
    for scanned in result:  # the attributes the node sets, as it sets them
        node = by_name[scanned.node]
        for attr in node.attribute:
            value = helper.get_attribute_value(attr)
            value = value.decode() if isinstance(value, bytes) else value
            assert scanned.attributes[attr.name] == pytest.approx(value), (scanned.node, attr.name)
    assert result.exit_status == 0, result.summary()


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.parametrize("name, exporter, opset", CASES)
def test_every_node_of_a_real_export_computes_what_torch_computed(name, exporter, opset):
    """The nodes come from torch.nn.functional.interpolate: each one lists a torch equivalent, and a scan for
    torch finds no convention that differs (no false "differs")."""
    model, _ = exported(name, exporter, opset)
    result = scan(model, backend="torch")
    assert all(n.equivalent_in("torch") or n.trivial for n in result), \
        [(n.node, n.attributes) for n in result if not n.equivalent_in("torch")]
    assert not [f.message for n in result for f in n.findings if f.severity == "differs"]


def test_the_corpus_holds_resizes_of_every_kind_it_was_built_for():
    """Not an empty corpus: the exports hold nodes (a resize of a weight, such as ViT's position embedding, is
    folded into a constant by the dynamo exporter), linear, cubic and nearest ones among them."""
    counts = {(n, e, o): resize_count(exported(n, e, o)[0].graph) for n, e, o in (c.values for c in CASES)}
    assert sum(counts.values()) >= 80, counts
    assert all(counts[(n, "torchscript", 17)] for n in MODELS), counts
    modes = {helper.get_attribute_value(a) for key in counts for node in exported(*key)[0].graph.node
             if node.op_type == "Resize" for a in node.attribute if a.name == "mode"}
    assert {b"linear", b"cubic", b"nearest"} <= modes, modes


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["segformer", "autoencoder_kl"])
def test_burn_0_18_refuses_every_opset_11_export_and_the_cli_exits_1(capsys, tmp_path, name):
    model, _ = exported(name, "torchscript", 11)
    path = tmp_path / f"{name}.onnx"
    path.write_bytes(model.SerializeToString())
    code = main(["scan", str(path), "--backend", "burn-tch", "--version", "0.18.0", "--summary"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "not scanned" not in out
    result = scan(str(path), backend="burn-tch", version="0.18.0")
    assert all(any(f.severity == "error" and "opset 11" in f.message for f in n.findings) for n in result)
    newer, _ = exported(name, "dynamo", 18)
    assert scan(newer, backend="burn-tch", version="0.18.0").unscanned == 0


#: torchvision's detection models, at every export they make (TorchScript only: tests/real_models.py)
DETECTION_CASES = [pytest.param(name, exporter, opset, id=f"{name}-{exporter}-{opset}")
                   for name in DETECTION for exporter, opset in EXPORTS if exports_at(name, opset, exporter)]


@pytest.mark.oracle
@pytest.mark.slow
@pytest.mark.parametrize("name, exporter, opset", DETECTION_CASES)
def test_a_detection_export_is_scanned_but_for_the_per_box_resize_whose_size_is_data(name, exporter, opset):
    """Every node listed; every node of the main graph scanned with ONNX Runtime's shapes, where an axis the
    node leaves alone may stay symbolic (the detections' count follows NonMaxSuppression: one name in and
    out); a torch equivalent for each and no "differs" for torch.  The keypoint head's per-box resize (a cubic
    Resize in a Loop, to each box's size: a value, not a shape) is the one node left unscanned, saying so."""
    model, feeds = exported(name, exporter, opset)
    truth = ort_resize_shapes(model, feeds)
    result = scan(model, backend="onnxruntime")
    assert len(result) == resize_count(model.graph), result.summary()
    by_node = {n.node: n for n in result}
    assert set(truth) <= set(by_node), (sorted(truth), sorted(by_node))
    for node, shapes in truth.items():
        scanned = by_node[node]
        assert not any(is_unscanned(f) for f in scanned.findings), [f.message for f in scanned.findings]
        got = (scanned.input_shape, scanned.output_shape)
        for axis in range(len(shapes[0])):
            if isinstance(got[0][axis], str):  # left alone: the same symbolic length in and out
                assert got[0][axis] == got[1][axis] and shapes[0][axis] == shapes[1][axis], (node, got, shapes)
            else:
                assert (got[0][axis], got[1][axis]) == (shapes[0][axis], shapes[1][axis]), (node, got, shapes)
    per_box = [n for n in result if n.node not in truth]
    assert len(per_box) == (name == "keypoint_rcnn"), [n.node for n in per_box]
    for scanned in per_box:
        text = " ".join(f.message for f in scanned.findings if is_unscanned(f))
        assert scanned.attributes["mode"] == "cubic" and "at run time" in text and "Loop body" in text, text
    assert result.exit_status == (1 if per_box else 0), result.summary()
    for_torch = scan(model, backend="torch")
    assert all(n.equivalent_in("torch") or n.trivial for n in for_torch if n.node in truth), \
        [(n.node, n.attributes) for n in for_torch if n.node in truth and not n.equivalent_in("torch")]
    assert not [f.message for n in for_torch for f in n.findings if f.severity == "differs"]

"""explorer.scan on PyTorch modules (torch.export, or a recorded run) and on their ONNX exports.

Modules with 1-D, 2-D and 3-D interpolate calls are scanned directly; every equivalent the scan lists is run
in the engine and must give PyTorch's own output for that call.  The same modules exported with
``torch.onnx.export`` (the TorchScript exporter at opsets 11-17 and the dynamo exporter at 18 and 20) are
scanned as ONNX files: each Resize node lists the PyTorch call it came from among its equivalents.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import torch.nn.functional as F  # noqa: E402

import explorer  # noqa: E402
from explorer.advisor.torch_resize import interpolate_calls  # noqa: E402

pytestmark = pytest.mark.oracle

CALLS = [  # (input shape, F.interpolate keyword arguments)
    ((2, 3, 9), dict(size=14, mode="linear")),
    ((2, 3, 9), dict(scale_factor=0.6, mode="nearest")),
    ((1, 1, 9), dict(scale_factor=1.5, mode="nearest-exact")),
    ((1, 2, 7, 5), dict(size=(3, 8), mode="bilinear", align_corners=True)),
    ((1, 2, 7, 5), dict(scale_factor=1.7, mode="bicubic")),
    ((1, 2, 13, 11), dict(size=(5, 4), mode="bilinear", antialias=True)),
    ((1, 2, 13, 11), dict(size=(6, 4), mode="bicubic", antialias=True)),
    ((1, 2, 12, 9), dict(size=(4, 3), mode="area")),
    ((1, 1, 10, 10), dict(size=(3, 3), mode="nearest-exact")),
    ((1, 1, 4, 5, 6), dict(scale_factor=(1.5, 2.0, 0.5), mode="trilinear")),
    ((1, 1, 4, 5, 6), dict(size=(3, 7, 2), mode="nearest")),
]


class Calls(torch.nn.Module):
    """One interpolate call per input."""

    def __init__(self, calls):
        super().__init__()
        self.calls = calls

    def forward(self, *xs):
        return tuple(F.interpolate(x, **kwargs) for x, (_, kwargs) in zip(xs, self.calls))


def _inputs(calls, seed=0):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.rand(shape, generator=g) for shape, _ in calls)


def _run(eq, x: np.ndarray):
    options = dict(eq["options"])
    size = options.pop("size", None)
    scale = options.pop("scale_factor", None)
    return explorer.library_resize(x, size=size, scale_factor=scale, library=eq["library"], mode=eq["mode"],
                                   axes=tuple(range(2, x.ndim)), **options)


def test_every_call_is_read_with_its_arguments_and_shapes():
    module = Calls(CALLS)
    xs = _inputs(CALLS)
    calls = interpolate_calls(module, xs)
    assert len(calls) == len(CALLS)
    for call, (shape, kwargs), x in zip(calls, CALLS, xs):
        expected = F.interpolate(x, **kwargs)
        assert call.mode == kwargs["mode"] and call.input_shape == shape
        assert call.output_shape == tuple(expected.shape)
        assert call.antialias == kwargs.get("antialias", False)
        if "align_corners" in kwargs:
            assert call.align_corners is kwargs["align_corners"]
        if "scale_factor" in kwargs and kwargs["mode"] != "area":
            factor = kwargs["scale_factor"]
            assert call.scale_factor == tuple(float(f) for f in (factor if isinstance(factor, tuple)
                                                                  else [factor] * (len(shape) - 2)))
        assert call.method == "torch.export"


@pytest.mark.parametrize("index", range(len(CALLS)), ids=[f"{c[1]['mode']}-{len(c[0]) - 2}d" for c in CALLS])
def test_equivalents_give_pytorchs_output(index):
    calls = [CALLS[index]]
    xs = _inputs(calls, seed=index)
    [node] = explorer.scan(Calls(calls), example_inputs=xs)
    expected = F.interpolate(xs[0], **calls[0][1]).numpy()
    assert tuple(node.output_shape) == expected.shape
    assert node.equivalent_in("torch") is not None, node.equivalents
    for eq in node.equivalents:
        got = _run(eq, xs[0].numpy())
        np.testing.assert_allclose(got, expected, atol=2e-5, err_msg=str(eq))


def test_recorded_when_torch_export_cannot_trace():
    class DataDependent(torch.nn.Module):
        def forward(self, x):
            if x.mean() > 0.5:  # torch.export cannot trace a branch on data
                return F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=False)
            return F.interpolate(x, size=(3, 3), mode="area")

    x = torch.full((1, 1, 4, 4), 0.9)
    [call] = interpolate_calls(DataDependent(), (x,))
    assert call.method == "recorded" and call.mode == "bicubic" and call.scale_factor == (1.5, 1.5)
    assert call.location.startswith("test_scan_torch.py:")
    [node] = explorer.scan(DataDependent(), example_inputs=(x,))
    assert node.equivalent_in("torch")["mode"] == "bicubic"


def test_module_scan_for_burn_finds_the_hand_written_equivalent():
    class Up(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, scale_factor=0.75, mode="nearest-exact")  # 8 -> 6: not floor nearest

    result = explorer.scan(Up(), example_inputs=(torch.zeros(1, 3, 8, 8),), backend="burn-tch", training=True)
    [node] = result
    assert node.equivalent_in("burn")["mode"] == "NearestExact"
    errors = [f for f in node.findings if f.severity == "error"]
    assert any(f.record_id == "burn-tch-nearest-exact-backward" for f in errors)
    assert result.exit_status == 1


def test_module_scan_with_an_export_opset():
    class Up(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)

    [node] = explorer.scan(Up(), example_inputs=(torch.zeros(1, 3, 8, 8),), opset=9)
    assert node.opset == 9
    assert any(f.operation == "export_onnx" for f in node.findings), [f.record_id for f in node.findings]


def _export(module, xs, opset, dynamo):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dynamo:
            return torch.onnx.export(module, xs, dynamo=True, opset_version=opset, verbose=False).model_proto
        buffer = io.BytesIO()
        torch.onnx.export(module, xs, buffer, dynamo=False, opset_version=opset)
        return buffer.getvalue()


EXPORTED = [c for c in CALLS if c[1]["mode"] not in ("nearest-exact", "area")]


@pytest.mark.parametrize("opset,dynamo", [(11, False), (13, False), (17, False), (18, True), (20, True)])
def test_exported_models_list_their_pytorch_call(opset, dynamo):
    calls = [c for c in EXPORTED if not (c[1].get("antialias") and not dynamo)]
    module = Calls(calls).eval()
    xs = _inputs(calls)
    model = _export(module, xs, opset, dynamo)
    nodes = explorer.scan(model)
    by_output = {tuple(n.output_shape): n for n in nodes}
    exported = [(c, x) for c, x in zip(calls, xs) if tuple(F.interpolate(x, **c[1]).shape) in by_output]
    missing = [c[1]["mode"] for c in calls if c not in [e[0] for e in exported]]
    # the dynamo exporter writes 1-D linear as GatherND arithmetic, not as a Resize
    assert missing == ([] if not dynamo else ["linear"]), missing
    assert len(nodes) == len(exported)
    for (shape, kwargs), x in exported:
        expected = F.interpolate(x, **kwargs)
        node = by_output[tuple(expected.shape)]
        torch_modes = {(e["mode"], e["options"].get("align_corners"), e["options"].get("antialias", False))
                       for e in node.equivalents if e["library"] == "torch"}
        mode = kwargs["mode"]
        align = kwargs.get("align_corners") if mode in ("linear", "bilinear", "bicubic", "trilinear") else None
        assert (mode, align, kwargs.get("antialias", False)) in torch_modes or \
            (mode, None if align is False else align, kwargs.get("antialias", False)) in torch_modes, \
            (kwargs, node.attributes, torch_modes)


class _Antialiased(torch.nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=0.5, mode="bilinear", antialias=True)


def test_module_scan_at_opset_18_judges_the_exporter_it_is_exported_with():
    # the TorchScript exporter cannot export antialiased bilinear; torch 2.13's default exporter (dynamo) can
    from explorer.advisor.scan import default_exporter
    assert default_exporter() == "dynamo"
    program = torch.onnx.export(_Antialiased().eval(), (torch.zeros(1, 3, 8, 8),), dynamo=True, opset_version=18,
                                verbose=False)
    assert [n.op_type for n in program.model_proto.graph.node].count("Resize") == 1  # dynamo does export it
    with pytest.raises(Exception, match="_upsample_bilinear2d_aa"):
        _export(_Antialiased().eval(), (torch.zeros(1, 3, 8, 8),), 18, dynamo=False)
    x = (torch.zeros(1, 3, 8, 8),)
    default = explorer.scan(_Antialiased(), example_inputs=x, opset=18)
    assert default.exit_status == 0, [str(f) for n in default for f in n.findings if f.severity == "error"]
    moved = [f for n in default for f in n.findings if f.message.startswith("Only with the torchscript exporter")]
    assert moved and all(f.severity == "info" for f in moved)
    assert explorer.scan(_Antialiased(), example_inputs=x, opset=18, exporter="dynamo").exit_status == 0
    torchscript = explorer.scan(_Antialiased(), example_inputs=x, opset=18, exporter="torchscript")
    assert torchscript.exit_status == 1
    assert any(f.severity == "error" and f.operation == "export_onnx" for n in torchscript for f in n.findings)


def test_module_scan_refuses_an_unknown_exporter():
    with pytest.raises(explorer.errors.ArgumentValueError, match="exporter='onnx'.*dynamo, torchscript"):
        explorer.scan(_Antialiased(), example_inputs=(torch.zeros(1, 3, 8, 8),), opset=18, exporter="onnx")

"""A scan's findings compare the target runtime with the node's own settings; identity and one-pixel resizes are
what they are; float32 rounding is not a convention difference.

Each case is pinned by running ONNX Runtime (or torch) on the node, not by reading the scan back."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.advisor.scan import scan
from tests.onnx_models import resize_model, run_ort
from tests.torch_exports import export


def _differs(node):
    return [f for f in node.findings if f.severity == "differs"]


def _floor_gather(x, out):
    """Core ML's nearest (coremltools' torch frontend: floor of i * n / m), written out in numpy."""
    rows = np.floor(np.arange(out[0]) * x.shape[2] / out[0]).astype(int)
    cols = np.floor(np.arange(out[1]) * x.shape[3] / out[1]).astype(int)
    return x[:, :, rows][:, :, :, cols]


@pytest.mark.parametrize("attributes, agrees", [
    ({"coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"}, True),
    ({}, False),  # ONNX's default nearest: half_pixel, round_prefer_floor
])
def test_coreml_nearest_is_compared_with_the_nodes_own_settings(attributes, agrees):
    model = resize_model((1, 1, 10, 10), sizes=(1, 1, 3, 7), mode="nearest", **attributes)
    x = np.random.default_rng(0).random((1, 1, 10, 10), dtype=np.float32)
    measured = np.array_equal(run_ort(model, x), _floor_gather(x, (3, 7)))
    assert measured is agrees
    [node] = scan(model, backend="coreml")
    assert bool(_differs(node)) is not agrees
    if not agrees:
        assert "this node's own settings" in _differs(node)[0].message


def test_identity_linear_node_is_an_identity_not_nearest():
    model = resize_model((1, 2, 6, 6), sizes=(1, 2, 6, 6), mode="linear")
    x = np.random.default_rng(1).random((1, 2, 6, 6), dtype=np.float32)
    assert np.array_equal(run_ort(model, x), x)
    [node] = scan(model, backend="coreml")
    assert node.trivial == "identity"
    assert node.equivalent_in("torch")["mode"] == "bilinear"
    assert not _differs(node)
    assert "identity" in str(scan(model, backend="coreml"))


def test_one_pixel_input_is_a_copy_of_it():
    model = resize_model((1, 3, 1, 1), sizes=(1, 3, 5, 4), mode="linear")
    x = np.random.default_rng(2).random((1, 3, 1, 1), dtype=np.float32)
    assert np.array_equal(run_ort(model, x), np.broadcast_to(x, (1, 3, 5, 4)))
    [node] = scan(model, backend="coreml")
    assert node.trivial == "one pixel"
    assert node.equivalent_in("torch")["mode"] == "bilinear"
    assert not _differs(node)


def test_float32_rounding_is_not_a_convention_difference():
    import torch

    class Down(torch.nn.Module):
        def forward(self, x):
            return torch.nn.functional.interpolate(x, size=(224, 224), mode="bicubic", align_corners=False)

    x = torch.rand(1, 2, 240, 240, generator=torch.Generator().manual_seed(0))
    model = export(Down(), (x,), "torchscript", 17)
    expected = Down()(x).numpy()
    got = run_ort(model, x.numpy())
    difference = float(np.abs(expected - got).max())
    assert 0 < difference < 1e-4  # torch and ONNX Runtime round differently, and by no more than that
    [node] = scan(model, backend="torch")
    assert node.equivalent_in("torch")["mode"] == "bicubic"
    assert not _differs(node)

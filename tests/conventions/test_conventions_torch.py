"""Live oracle: ``library_resize(..., library="torch")`` against ``torch.nn.functional.interpolate``.

The float kernels are covered by tests/conventions/test_torch_oracle.py; this checks the library layer: any channel layout
through ``axes``, every preset row forward and backward, and the uint8 int16 fixed-point path bit-exactly.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.conventions import library_resize, library_resize_backward, presets
from preset_cases import image, options_id, size_grid

torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
F = torch.nn.functional

pytestmark = pytest.mark.oracle

ROWS = [(row.mode, row.options) for row in presets("torch")]
_DIMS = {"linear": 1, "trilinear": 3}


@pytest.mark.parametrize("mode,options", ROWS, ids=[f"{m}-{options_id(o)}" for m, o in ROWS])
def test_rows_forward_and_backward_match_torch_in_a_channels_last_layout(mode, options):
    dims = _DIMS.get(mode, 2)
    for h, w, H, W in size_grid(("torch", mode, options_id(options)), 4, top=40 if dims < 3 else 9):
        spatial, out = [(w,), (h, w), (h, w, h)][dims - 1], [(W,), (H, W), (H, W, H)][dims - 1]
        x = image((mode, h, w), (2, *spatial, 3), np.float64)  # N, *spatial, C
        xt = torch.from_numpy(np.moveaxis(x, -1, 1).copy()).requires_grad_(True)
        yt = F.interpolate(xt, size=out, mode=mode, **options)
        g = image(("g", mode, H, W), tuple(yt.shape), np.float64)
        (gxt,) = torch.autograd.grad(yt, xt, torch.from_numpy(g))
        axes = tuple(range(1, 1 + dims))
        got = library_resize(x, out, library="torch", mode=mode, axes=axes, **options)
        np.testing.assert_allclose(got, np.moveaxis(yt.detach().numpy(), 1, -1), rtol=0, atol=1e-12)
        gx = library_resize_backward(np.moveaxis(g, 1, -1), x.shape, out, library="torch", mode=mode, axes=axes,
                                     **options)
        np.testing.assert_allclose(gx, np.moveaxis(gxt.numpy(), 1, -1), rtol=0, atol=1e-12)


UINT8_ROWS = [("bilinear", {}), ("bicubic", {}), ("bilinear", {"antialias": True}),
              ("bicubic", {"antialias": True}), ("lanczos", {"antialias": True}),
              ("bilinear", {"align_corners": True}), ("bicubic", {"align_corners": True}),
              ("bicubic", {"antialias": True, "align_corners": True})]


@pytest.mark.parametrize("channels", [3, 5], ids=["avx-path", "generic-path"])
@pytest.mark.parametrize("mode,options", UINT8_ROWS, ids=[f"{m}-{options_id(o)}" for m, o in UINT8_ROWS])
def test_uint8_int16_weights_are_bit_exact(mode, options, channels):
    """Outputs one pixel wide included (Note [antialias output width 1] in explorer.conventions.libraries.pytorch): the
    AVX2 kernel (3 channels) is right, the separable kernel (5 channels) repeats row 0, and 3 channels to 1x1
    fail PyTorch's internal assert, as the explorer refuses them."""
    mismatched = []
    for h, w, H, W in size_grid(("torchu8", mode, options_id(options), channels), 20):
        x = image((mode, h, w), (1, channels, h, w), np.uint8)
        if channels == 3 and (H, W) == (1, 1) and h != 1:
            with pytest.raises(RuntimeError, match="INTERNAL ASSERT"):
                F.interpolate(torch.from_numpy(x), size=(H, W), mode=mode, **options)
            with pytest.raises(NotImplementedError, match="internal assert"):
                library_resize(x, (H, W), library="torch", mode=mode, **options)
            continue
        want = F.interpolate(torch.from_numpy(x), size=(H, W), mode=mode, **options).numpy()
        got = library_resize(x, (H, W), library="torch", mode=mode, **options)
        assert got.dtype == np.uint8
        if not np.array_equal(got, want):
            mismatched.append((h, w, H, W))
    assert mismatched == []


def test_scale_factor_rules_follow_torch():
    x = image("sf", (1, 1, 5, 7), np.float32)
    for kw in [dict(scale_factor=1.7), dict(scale_factor=(0.6, 2.3), recompute_scale_factor=True)]:
        want = F.interpolate(torch.from_numpy(x), mode="bilinear", **kw).numpy()
        got = library_resize(x, library="torch", mode="bilinear", **kw)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)

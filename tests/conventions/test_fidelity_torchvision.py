"""Large-size oracle: ``library_resize(..., library="torchvision")`` against torchvision 0.28 ``functional.resize``
(v1 and v2) at sizes log-uniform up to 4096 per axis: float32 tensors forward and gradient (torch autograd),
uint8 tensors (v2's native kernels bit-exact, v1's float32 round trip within 1 LSB), PIL images (bit-exact).
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
import torchvision_oracle
from fidelity import forward_error, record

from explorer.conventions import library_resize, library_resize_backward

torch = pytest.importorskip("torch", reason="PyTorch is an oracle installed by the 'oracles' extra")
_loaded = torchvision_oracle.load()
if _loaded is None:
    pytest.skip("torchvision is an oracle installed by the 'oracles' extra", allow_module_level=True)
T1, T2, Mode, _ = _loaded
Image = pytest.importorskip("PIL.Image", reason="Pillow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

FLOAT = [("nearest", True), ("nearest-exact", True), ("bilinear", True), ("bilinear", False), ("bicubic", True),
         ("bicubic", False), ("lanczos", True)]


def _mode(name):
    return getattr(Mode, name.upper().replace("-", "_"))


def _sizes(gen):
    while True:
        h, w, H, W = fidelity.sizes_2d(gen, fidelity.budget(150_000), top=4096)
        if (h, w) != (H, W):
            return h, w, H, W


CASES = [(m, a, v) for m, a in FLOAT for v in (1, 2) if not (v == 1 and m == "lanczos")]  # v1: no tensor lanczos


@pytest.mark.parametrize("mode,antialias,version", CASES, ids=[f"{m}{'-aa' if a else ''}-v{v}" for m, a, v in CASES])
def test_float32_tensors(mode, antialias, version):
    F = (T2 if version == 2 else T1).functional
    gen = fidelity.rng("torchvision", mode, antialias, version)
    for _ in range(fidelity.count(1)):
        h, w, H, W = _sizes(gen)
        case = f"v{version} {mode} aa={antialias} {(h, w)} -> {(H, W)}"
        x = gen.random((1, h, w)).astype(np.float32)
        xt = torch.from_numpy(x).requires_grad_(True)
        y = F.resize(xt, [H, W], interpolation=_mode(mode), antialias=antialias)
        got = library_resize(x, (H, W), library="torchvision", mode=mode, version=version, antialias=antialias)
        error = record("torchvision", "float32", "forward", forward_error(got, y.detach().numpy()), case)
        tolerance = 0 if mode.startswith("nearest") else fidelity.forward_tolerance(np.float32, x.shape, got.shape,
                                                                                     (1, 2))
        assert error <= tolerance, f"{case}: forward error {error:.3g}"
        g = gen.standard_normal(got.shape).astype(np.float32)
        y.backward(torch.from_numpy(g))
        gx = library_resize_backward(g, x.shape, (H, W), library="torchvision", mode=mode, version=version,
                                     antialias=antialias)
        error = record("torchvision", "float32", "gradient", forward_error(gx, xt.grad.numpy()), case)
        tolerance = fidelity.gradient_tolerance(np.float32, x.shape, got.shape, (1, 2))
        assert error <= tolerance, f"{case}: gradient error {error:.3g} (tolerance {tolerance:.3g})"


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic"])
def test_uint8_tensors(mode, version):
    F = (T2 if version == 2 else T1).functional
    gen = fidelity.rng("torchvision-u8", mode, version)
    for _ in range(fidelity.count(1)):
        h, w, H, W = _sizes(gen)
        case = f"v{version} {mode} uint8 {(h, w)} -> {(H, W)}"
        x = gen.integers(0, 256, (3, h, w), dtype=np.uint8)
        want = F.resize(torch.from_numpy(x), [H, W], interpolation=_mode(mode)).numpy()
        got = library_resize(x, (H, W), library="torchvision", mode=mode, version=version)
        error = record(f"torchvision v{version}", "uint8", "integer (LSB)", fidelity.lsb_error(got, want), case)
        assert error <= (1 if version == 1 and mode != "nearest" else 0), case


@pytest.mark.parametrize("mode", ["nearest", "bilinear", "bicubic", "box", "hamming", "lanczos"])
def test_pil_images(mode):
    gen = fidelity.rng("torchvision-pil", mode)
    for _ in range(fidelity.count(1)):
        h, w, H, W = _sizes(gen)
        case = f"PIL {mode} {(h, w)} -> {(H, W)}"
        x = gen.integers(0, 256, (h, w, 3), dtype=np.uint8)
        want = np.asarray(T2.functional.resize(Image.fromarray(x), [H, W], interpolation=_mode(mode)))
        got = library_resize(x, (H, W), library="torchvision", mode=mode, input="pil", axes=(0, 1))
        error = record("torchvision PIL", "uint8", "integer (LSB)", fidelity.lsb_error(got, want), case)
        assert error == 0, case

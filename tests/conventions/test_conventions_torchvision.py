"""Live oracle: the explorer's torchvision presets against torchvision 0.28 ``functional.resize`` (v1 and v2).

torchvision's transforms are loaded without its C extension (tests/torchvision_oracle.py).  Float tensors:
every row, forward within 1e-5 and the gradient through torch autograd within 1e-5; uint8 tensors: v1's float32
round trip and v2's native uint8 kernels bit-exact; PIL images: every filter bit-exact (Pillow); an unchanged
size returns the input.
"""

from __future__ import annotations

import numpy as np
import pytest
import torchvision_oracle
from preset_cases import image, options_id, size_grid

from explorer.conventions import NoGradientError, library_resize, library_resize_backward, presets

torch = pytest.importorskip("torch", reason="PyTorch is an oracle installed by the 'oracles' extra")
_loaded = torchvision_oracle.load()
if _loaded is None:
    pytest.skip("torchvision is an oracle installed by the 'oracles' extra", allow_module_level=True)
T1, T2, Mode, VERSION = _loaded
Image = pytest.importorskip("PIL.Image", reason="Pillow is an oracle installed by the 'oracles' extra")

pytestmark = pytest.mark.oracle

TENSOR_ROWS = [(r.mode, r.options) for r in presets("torchvision") if r.options.get("input", "tensor") == "tensor"]
PIL_ROWS = [(r.mode, r.options) for r in presets("torchvision") if r.options.get("input") == "pil"]


def _functional(version):
    return (T2 if version == 2 else T1).functional


def _mode(name):
    return getattr(Mode, name.upper().replace("-", "_"))


def test_the_release_is_the_one_for_torch_2_13():
    assert VERSION == "0.28.0" and torch.__version__.startswith("2.13.0")


TENSOR_CASES = [(m, o, v) for m, o in TENSOR_ROWS for v in (1, 2) if not (v == 1 and m == "lanczos")]


@pytest.mark.parametrize("mode,options,version", TENSOR_CASES,
                         ids=[f"{m}-{options_id(o)}-v{v}" for m, o, v in TENSOR_CASES])
def test_float_tensors_forward_and_gradient(mode, options, version):
    F = _functional(version)
    for h, w, H, W in size_grid(("tv", version, mode, options_id(options)), 4):
        x = image(("tv", mode, h, w), (2, 3, h, w))
        g = image(("tvg", mode, H, W), (2, 3, H, W)) - np.float32(0.5)
        xt = torch.from_numpy(x).requires_grad_(True)
        y = F.resize(xt, [H, W], interpolation=_mode(mode), antialias=options.get("antialias", True))
        y.backward(torch.from_numpy(g))
        got = library_resize(x, (H, W), library="torchvision", mode=mode, version=version, **options)
        np.testing.assert_allclose(got, y.detach().numpy(), rtol=0, atol=1e-5, err_msg=f"{h}x{w} -> {H}x{W}")
        gx = library_resize_backward(g, x.shape, (H, W), library="torchvision", mode=mode, version=version,
                                     **options)
        np.testing.assert_allclose(gx, xt.grad.numpy(), rtol=0, atol=1e-5, err_msg=f"grad {h}x{w} -> {H}x{W}")


@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "bilinear", "bicubic", "lanczos"])
def test_uint8_tensors(mode, version):
    """v1: float32, clamped (bicubic), rounded half to even: within 1 LSB (a float32 sum a ulp either side of an
    exact .5 rounds the other way: PyTorch's accumulation order is not the explorer's); v2: PyTorch's uint8
    kernels for bilinear, bicubic and lanczos, bit-exact; nearest gathers, bit-exact."""
    if version == 1 and mode == "lanczos":
        return
    F = _functional(version)
    worst = 0
    for h, w, H, W in size_grid(("tvu8", version, mode), 8):
        x = image(("tvu8", mode, h, w), (3, h, w), np.uint8)
        try:
            want = F.resize(torch.from_numpy(x), [H, W], interpolation=_mode(mode)).numpy()
        except RuntimeError as exc:  # PyTorch's AVX2 uint8 kernel: 3 channels to 1x1
            assert "INTERNAL ASSERT FAILED" in str(exc) and (H, W) == (1, 1)
            with pytest.raises(Exception, match="internal assert"):
                library_resize(x, (H, W), library="torchvision", mode=mode, version=version)
            continue
        got = library_resize(x, (H, W), library="torchvision", mode=mode, version=version)
        assert got.dtype == want.dtype == np.uint8
        worst = max(worst, int(np.abs(got.astype(int) - want.astype(int)).max()))
    assert worst <= (1 if version == 1 and mode in ("bilinear", "bicubic") else 0)


@pytest.mark.parametrize("mode,options", PIL_ROWS, ids=[m for m, _ in PIL_ROWS])
def test_pil_images_are_pillow(mode, options):
    for h, w, H, W in size_grid(("tvpil", mode), 6):
        x = image(("tvpil", mode, h, w), (h, w, 3), np.uint8)
        want = np.asarray(T2.functional.resize(Image.fromarray(x), [H, W], interpolation=_mode(mode)))
        got = library_resize(x, (H, W), library="torchvision", mode=mode, axes=(0, 1), **options)
        np.testing.assert_array_equal(got, want, err_msg=f"{h}x{w} -> {H}x{W}")
    with pytest.raises(NoGradientError, match="PIL image"):
        library_resize_backward(np.ones((4, 4, 3)), (8, 8, 3), (4, 4), library="torchvision", mode=mode, axes=(0, 1),
                                **options)


def test_nearest_is_floor_on_tensors_and_half_pixel_on_pil_images():
    row = np.arange(5, dtype=np.uint8)[None, :].repeat(2, 0)
    tensor = T2.functional.resize(torch.from_numpy(row[None].astype(np.float32)), [2, 8],
                                  interpolation=Mode.NEAREST)[0, 0].tolist()
    pil = np.asarray(T2.functional.resize(Image.fromarray(row), [2, 8], interpolation=Mode.NEAREST))[0].tolist()
    assert tensor == [0, 0, 1, 1, 2, 3, 3, 4] and pil == [0, 0, 1, 2, 2, 3, 4, 4]
    assert library_resize(row[None].astype(np.float32), (2, 8), library="torchvision", mode="nearest")[0, 0].tolist() \
        == tensor
    assert library_resize(row, (2, 8), library="torchvision", mode="nearest", input="pil")[0].tolist() == pil


def test_an_unchanged_size_returns_the_input():
    x = image("same", (3, 9, 7))
    for version in (1, 2):
        want = _functional(version).resize(torch.from_numpy(x), [9, 7], interpolation=Mode.BICUBIC).numpy()
        np.testing.assert_array_equal(want, x)
        np.testing.assert_array_equal(library_resize(x, (9, 7), library="torchvision", mode="bicubic",
                                                     version=version), x)


def test_v1_rejects_lanczos_on_tensors():
    x = torch.rand(1, 4, 4)
    with pytest.raises((ValueError, NotImplementedError, RuntimeError)):
        T1.functional.resize(x, [2, 2], interpolation=Mode.LANCZOS)
    with pytest.raises(ValueError, match="PIL images only"):
        library_resize(x.numpy(), (2, 2), library="torchvision", mode="lanczos", version=1)

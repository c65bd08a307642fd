"""PyTorch's own test inputs for ``F.interpolate``, run through the explorer and compared with PyTorch (CPU).

* The OpInfo samples (``torch.testing._internal.common_methods_invocations.op_db``): every entry named
  ``nn.functional.interpolate`` (one per mode, ``variant_test_name``) and ``nn.functional.upsample_nearest`` /
  ``upsample_bilinear``, every dtype the OpInfo lists for CPU (float16, float32, float64, bfloat16, uint8),
  forward, and backward for the float dtypes (the gradient of ``sum(out * g)``).
* ``common_nn``'s module tests of ``F.interpolate`` (``module_tests`` and ``get_new_module_tests()``: the
  ``interpolate_*`` entries, whose keyword arguments sit in the ``wrap_functional`` closure), forward and
  backward in their default dtype.

Tolerances: float64 1e-10 and float32 1e-5 (times the largest value), uint8 bit for bit, float16 and
bfloat16 one unit in the last place (``tests/reduced_floats.py``; float16 bicubic forward four: a cubic
coefficient one float32 ulp away rounds to the neighbouring float16 weight).  Cases known to differ would
be listed in ``KNOWN``, each with its reason, and run as strict expected failures: none does with PyTorch
2.13.0 (before bfloat16 and the reduced-float weights were modelled, every bfloat16 sample was refused and
54 float16 ones were off by more than one ulp).
"""

from __future__ import annotations

import numpy as np
import pytest
import reduced_floats

import explorer

torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
pytest.importorskip("expecttest", reason="torch.testing._internal needs expecttest ('oracles' extra)")
pytest.importorskip("ml_dtypes", reason="bfloat16 arrays need ml_dtypes ('oracles' extra)")
from torch.testing._internal import common_nn
from torch.testing._internal.common_methods_invocations import op_db

pytestmark = [pytest.mark.oracle,
              pytest.mark.filterwarnings("ignore:`nn.functional.upsample_.* is deprecated:UserWarning")]

_FIXED = {"nn.functional.upsample_bilinear": {"mode": "bilinear", "align_corners": True},
          "nn.functional.upsample_nearest": {"mode": "nearest"}}
_ARGUMENTS = ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias")

# case id -> why the explorer is expected to differ from PyTorch on it
KNOWN: dict[str, str] = {}


def _plain(value):
    return tuple(int(v) for v in value) if isinstance(value, torch.Size) else value


def _opinfo_cases():
    """(id, op, dtype, sample, explorer keyword arguments), samples drawn with a fixed seed."""
    torch.manual_seed(0)
    cases = []
    for op in op_db:
        if op.name != "nn.functional.interpolate" and op.name not in _FIXED:
            continue
        name = op.name.rsplit(".", 1)[-1] + (f"-{op.variant_test_name}" if op.variant_test_name else "")
        for dtype in sorted(op.supported_dtypes("cpu"), key=str):
            for k, sample in enumerate(op.sample_inputs("cpu", dtype, requires_grad=False)):
                kwargs = dict(_FIXED.get(op.name, {}))
                kwargs.update(zip(_ARGUMENTS, (_plain(a) for a in sample.args)))
                kwargs.update({key: _plain(v) for key, v in sample.kwargs.items()})
                cases.append((f"{name}-{str(dtype).replace('torch.', '')}-{k}", op, dtype, sample, kwargs))
    return cases


OPINFO = _opinfo_cases()
FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def _params(cases, backward=False):
    out = []
    for case in cases:
        key = f"{case[0]}-backward" if backward else case[0]
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else []
        out.append(pytest.param(*case[1:], id=key, marks=marks))
    return out


def _check(got, want, what, bicubic_half=False):
    assert (got.shape, got.dtype) == (want.shape, want.dtype), f"{what}: {got.shape} {got.dtype} vs {want.dtype}"
    if want.dtype == np.uint8:
        np.testing.assert_array_equal(got, want, err_msg=what)
    elif want.dtype.itemsize == 2:
        most = 4 if bicubic_half else 1
        assert reduced_floats.ulps(got, want).max(initial=0) <= most, what
    else:
        scale = max(1.0, float(np.abs(want).max(initial=0.0)))
        np.testing.assert_allclose(got, want, rtol=0, atol=(1e-10 if want.dtype == np.float64 else 1e-5) * scale,
                                   err_msg=what)


@pytest.mark.parametrize("op,dtype,sample,kwargs", _params(OPINFO))
def test_opinfo_forward(op, dtype, sample, kwargs):
    x = reduced_floats.from_torch(sample.input)
    want = reduced_floats.from_torch(op.op(sample.input, *sample.args, **sample.kwargs))
    half = kwargs.get("mode") == "bicubic" and dtype == torch.float16
    _check(explorer.interpolate(x, **kwargs), want, f"{tuple(x.shape)} {kwargs}", half)


@pytest.mark.parametrize("op,dtype,sample,kwargs", _params([c for c in OPINFO if c[2] in FLOATS], backward=True))
def test_opinfo_backward(op, dtype, sample, kwargs):
    leaf = sample.input.detach().clone().requires_grad_(True)
    out = op.op(leaf, *sample.args, **sample.kwargs)
    g = torch.randn(out.shape, generator=torch.Generator().manual_seed(1), dtype=torch.float64).to(dtype)
    (want,) = torch.autograd.grad(out, leaf, g)
    x = reduced_floats.from_torch(sample.input)
    got = explorer.interpolate_backward(reduced_floats.from_torch(g), x.shape, **kwargs)
    _check(got, reduced_floats.from_torch(want), f"{tuple(x.shape)} {kwargs}")


# ------------------------------------------------------------------------------------------------ common_nn
def _module_cases():
    """(fullname, input size, dtype, F.interpolate keyword arguments) of common_nn's interpolate tests."""
    cases = []
    for entry in common_nn.module_tests + common_nn.get_new_module_tests():
        name = entry.get("fullname", "")
        if not name.startswith("interpolate"):
            continue
        forward = entry["constructor"].forward
        cells = dict(zip(forward.__code__.co_freevars, (c.cell_contents for c in forward.__closure__)))
        assert cells["fn"] is torch.nn.functional.interpolate, name
        dtype = entry.get("default_dtype", torch.float32)
        cases.append(pytest.param(entry["input_size"], dtype, dict(cells["kwargs"]), id=name))
    return cases


MODULE_CASES = _module_cases()


@pytest.mark.parametrize("direction", ["forward", "backward"])
@pytest.mark.parametrize("input_size,dtype,kwargs", MODULE_CASES)
def test_common_nn_interpolate(input_size, dtype, kwargs, direction):
    generator = torch.Generator().manual_seed(2)
    leaf = torch.randn(input_size, generator=generator, dtype=dtype).requires_grad_(True)
    out = torch.nn.functional.interpolate(leaf, **kwargs)
    x = leaf.detach().numpy()
    if direction == "forward":
        _check(explorer.interpolate(x, **kwargs), out.detach().numpy(), str(kwargs))
        return
    g = torch.randn(out.shape, generator=generator, dtype=dtype)
    (want,) = torch.autograd.grad(out, leaf, g)
    _check(explorer.interpolate_backward(g.numpy(), x.shape, **kwargs), want.numpy(), str(kwargs))


def test_the_suites_cover_what_they_claim():
    """Every interpolate OpInfo (seven modes and the two upsample_* aliases) and dtype is collected."""
    variants = {op.variant_test_name for op in op_db if op.name == "nn.functional.interpolate"}
    assert variants >= {"nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area"}
    assert {c[2] for c in OPINFO} == {torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.uint8}
    assert len(MODULE_CASES) >= 40

"""The seed case end to end: nearest-exact on Burn's LibTorch backend, from check to measured fixes.

The measured fixes are compared with PyTorch itself (forward and autograd), not with the engine they use.
"""

from __future__ import annotations

import numpy as np
import pytest

import explorer

PANIC = "nearest exact interpolation backward is not supported by PyTorch/tch backend"


def test_check_reports_the_backward_panic():
    findings = explorer.check(mode="nearest-exact", backend="burn-tch", training=True)
    errors = [f for f in findings if f.severity == "error"]
    assert PANIC in [f.error_text for f in errors]
    backward = next(f for f in errors if f.error_text == PANIC)
    assert "crates/burn-tch/src/ops/module.rs" in backward.source
    assert any(fix.mode == "Nearest" for fix in backward.fixes)


def test_check_without_training_has_no_backward_finding():
    findings = explorer.check(mode="NearestExact", backend="burn-tch", training=False)
    assert PANIC not in [f.error_text for f in findings]


@pytest.mark.parametrize("spelling", ["NearestExact", "nearest_exact", "nearest-exact", "INTER_NEAREST_EXACT"])
def test_every_spelling_means_the_same(spelling):
    ids = [f.record_id for f in explorer.check(mode=spelling, backend="burn-tch")]
    assert "burn-tch-nearest-exact-backward" in ids


def test_diagnose_the_exact_panic():
    text = ("thread 'main' panicked at crates/burn-tch/src/ops/module.rs:458:17:\n" + PANIC +
            "\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")
    result = explorer.diagnose(text)
    assert result.matched
    assert [f.record_id for f in result.findings] == ["burn-tch-nearest-exact-backward"]
    assert any("InterpolateMode::Nearest)" in fix.code for fix in result.findings[0].fixes)


def test_rust_snippet():
    backward = next(f for f in explorer.check(mode="nearest-exact", backend="burn-tch") if f.error_text == PANIC)
    fix = next(fix for fix in backward.fixes if fix.mode == "Nearest")
    assert fix.language == "rust"
    assert "InterpolateOptions::new(InterpolateMode::Nearest)" in fix.code
    assert "with_align_corners" not in fix.code  # nearest ignores align_corners
    bilinear = explorer.check(mode="bilinear", backend="burn-wgpu")
    default = next(f for f in bilinear if f.record_id == "burn-align-corners-default-true")
    assert "InterpolateOptions::new(InterpolateMode::Bilinear).with_align_corners(false)" in default.fixes[0].code


def _torch_resize(x, size, mode, g):
    """PyTorch itself: the output and, through autograd, the gradient for the upstream gradient ``g``."""
    torch = pytest.importorskip("torch", reason="the PyTorch oracle is installed by the 'oracles' extra")
    t = torch.from_numpy(np.ascontiguousarray(x)).requires_grad_()
    y = torch.nn.functional.interpolate(t, size=size, mode=mode)
    y.backward(torch.from_numpy(g))
    return y.detach().numpy(), t.grad.numpy()


def _nearest_exact_vs_nearest(x, factor):
    """Independent measurement with PyTorch: nearest vs nearest-exact with an explicit size, forward and backward."""
    size = tuple(int(np.floor(n * factor)) for n in x.shape[2:])
    g = np.random.default_rng(0).standard_normal(x.shape[:2] + size).astype(x.dtype)
    ref, gref = _torch_resize(x, size, "nearest-exact", g)
    alt, galt = _torch_resize(x, size, "nearest", g)
    return ref, alt, gref, galt, g


def test_suggest_fixes_2x_upsample_nearest_is_exact():
    x = np.random.default_rng(3).random((2, 3, 15, 11), dtype=np.float32)
    fixes = explorer.suggest_fixes(x, mode="NearestExact", backend="burn-tch", scale_factor=2, training=True)
    nearest = next(f for f in fixes if f.mode == "Nearest" and f.backend == "burn-tch")
    ref, alt, gref, galt, _ = _nearest_exact_vs_nearest(x, 2)
    assert np.array_equal(ref, alt) and np.array_equal(gref, galt)  # PyTorch agrees: exact for a 2x upscale
    assert nearest.exact is True
    assert nearest.output_max_abs == 0.0 and nearest.output_rmse == 0.0 and nearest.changed_fraction == 0.0
    assert nearest.grad_cosine == 1.0 and nearest.grad_rel_error == 0.0
    assert str(nearest) == "switch NearestExact -> Nearest: identical output and gradient for this 2x upscale"
    assert fixes[0].exact  # exact fixes rank first
    assert "InterpolateOptions::new(InterpolateMode::Nearest)" in nearest.code
    assert "[30, 22]" in nearest.code


def test_suggest_fixes_075_downscale_nearest_differs_measured():
    x = np.random.default_rng(4).random((1, 2, 16, 12), dtype=np.float32)
    fixes = explorer.suggest_fixes(x, mode="nearest-exact", backend="burn-tch", scale_factor=0.75)
    nearest = next(f for f in fixes if f.mode == "Nearest" and f.backend == "burn-tch")
    ref, alt, gref, galt, _ = _nearest_exact_vs_nearest(x, 0.75)
    d = np.abs(ref.astype(np.float64) - alt)
    assert nearest.exact is False
    assert nearest.output_max_abs == pytest.approx(d.max())
    assert nearest.output_rmse == pytest.approx(np.sqrt(np.mean(d ** 2)))
    assert nearest.changed_fraction == pytest.approx(np.mean(d > 0))
    cos = float(gref.ravel() @ galt.ravel() / np.linalg.norm(gref) / np.linalg.norm(galt))
    assert nearest.grad_cosine == pytest.approx(cos, rel=1e-6)
    assert nearest.grad_rel_error == pytest.approx(np.linalg.norm(galt - gref) / np.linalg.norm(gref), rel=1e-6)
    assert "output differs" in str(nearest) and "0.75x downscale" in str(nearest)
    # an exact fix (a backend with a nearest-exact gradient) outranks it
    assert fixes.index(nearest) > 0 and fixes[0].exact
    assert fixes[0].backend in ("burn-wgpu", "burn-tch")


def test_suggest_fixes_uses_the_given_gradient():
    x = np.random.default_rng(5).random((1, 1, 8, 8))
    g = np.zeros((1, 1, 6, 6))
    g[0, 0, 2, 3] = 1.0
    fixes = explorer.suggest_fixes(x, mode="nearest-exact", backend="burn-tch", size=(6, 6), grad_output=g)
    nearest = next(f for f in fixes if f.mode == "Nearest" and f.backend == "burn-tch")
    _, gref = _torch_resize(x, (6, 6), "nearest-exact", g)
    _, galt = _torch_resize(x, (6, 6), "nearest", g)
    expected = float(gref.ravel() @ galt.ravel())  # one-hot gradients: cosine is 1 or 0
    assert nearest.grad_cosine == pytest.approx(expected)


def test_fusion_bug_version_measured():
    x = np.random.default_rng(6).random((1, 1, 10, 10), dtype=np.float32)
    fixes = explorer.suggest_fixes(x, mode="NearestExact", backend="burn-wgpu", version="0.22.0-pre.1", size=(7, 7))
    upgrade = next(f for f in fixes if f.id == "burn-upgrade")
    assert upgrade.exact
    findings = explorer.check(mode="NearestExact", backend="burn-wgpu", version="0.22.0-pre.1")
    assert "burn-cubecl-nearest-exact-fusion-bug" in [f.record_id for f in findings if f.severity == "differs"]
    fixed = explorer.check(mode="NearestExact", backend="burn-wgpu", version="0.22.0-pre.2")
    assert "burn-cubecl-nearest-exact-fusion-bug" not in [f.record_id for f in fixed]

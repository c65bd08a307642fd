"""Backends, compute side: every coloured cell of the support grid says why, in one sentence."""

from __future__ import annotations

import pytest

import explorer
from explorer.advisor.knowledge import load
from explorer.conventions.image_resize import MODES
from explorer.ui.compute.backends import REASONS, compute_backends, reason

BACKENDS = [b.id for b in explorer.backends()]


def test_burn_tch_with_antialias_says_antialias_is_not_supported():
    data = compute_backends(MODES, "burn-tch", antialias=True)
    for m in ("bilinear", "bicubic"):
        for use in data.uses:
            assert data.status[(m, use)] == "error"
            assert data.reasons[(m, use)] == "antialias is not supported on burn-tch"
    assert data.reasons[("area", "forward")] == "burn-tch has no area averaging mode"
    assert "panics" in data.reasons[("nearest-exact", "forward")]
    assert ("nearest", "forward") not in data.reasons  # green cells need no reason


@pytest.mark.parametrize("antialias", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_coloured_cell_has_a_reason_naming_the_backend(backend, antialias):
    data = compute_backends(MODES, backend, antialias=antialias)
    for cell, status in data.status.items():
        if status == "ok":
            assert cell not in data.reasons
            continue
        text = data.reasons[cell]
        assert backend in text, (cell, text)
        assert 10 < len(text) < 200 and "\n" not in text, text


def test_a_reason_is_told_from_the_record_that_colours_the_cell():
    kb = load()
    data = compute_backends(MODES, "burn-wgpu")
    cell = ("bilinear", "backward")
    finding = next(f for f in explorer.check(mode="bilinear", backend="burn-wgpu", training=True)
                   if f.severity == "error" and f.operation == "backward")
    record = kb.record(finding.record_id)
    assert data.reasons[cell] == REASONS[(record.operation, record.status)].format(
        subject="Bilinear", backend="burn-wgpu") + " (it panics)"


def test_a_finding_that_depends_on_an_unstated_condition_says_which():
    data = compute_backends(MODES, "torch", device="mps")
    text = data.reasons[("area", "forward")]
    assert data.status[("area", "forward")] == "warning" and "when" in text


def test_reason_of_a_finding_without_a_record_is_its_first_clause():
    finding = explorer.check(mode="area", backend="onnxruntime")[0]
    assert finding.record_id is None
    assert reason(finding, "onnxruntime") == "onnxruntime has no area averaging mode"

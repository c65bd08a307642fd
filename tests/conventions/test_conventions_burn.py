"""Burn's rows against the expected values of Burn's own tests (tests/burn_vectors.py, quoted from
tracel-ai/burn @ 2c06be3).  Burn is not run here (it is Rust): its presets were read from its source, and these
are the outputs Burn's test suite asserts on every backend.

The quoted values have 4 decimals; the explorer must agree to 1.5e-4 (plus float32 rounding, 1e-6 relative).
One of Burn's vectors is looser than its digits: ``test_1d_lanczos3`` is 9e-3 away from what Burn's kernels
compute (burn-ndarray's ``lanczos3_interpolate``: a separable Lanczos-3 over in-image taps, renormalised, which
the explorer's preset follows), and Burn asserts it with ``Tolerance::permissive`` (1 % relative, 0.01
absolute); it is checked at that tolerance.
"""

from __future__ import annotations

import numpy as np
import pytest
from burn_vectors import CASES

from explorer.conventions import library_resize, library_resize_backward
from explorer.conventions.libraries.burn import BACKENDS, forward_backends

PERMISSIVE_ONLY = {"tensor/float/module/lanczos3_interpolate.rs:168 test_1d_lanczos3"}


def _input(case):
    if "input" in case:
        return np.asarray(case["input"], np.float32)[:, :, None, :]  # Burn unsqueezes a height of 1
    shape = case["shape"]
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape)


@pytest.mark.parametrize("case", CASES, ids=[c["source"].split("/")[-1] for c in CASES])
def test_every_backend_row_gives_burns_expected_values(case):
    x = _input(case)
    expected = np.asarray(case["expected"], np.float64)
    options = {} if case["mode"].startswith("Nearest") else {"align_corners": case["align_corners"]}
    backends = forward_backends(case["mode"]) if not case.get("backward") else BACKENDS
    assert backends
    for backend in backends:
        if case.get("backward"):
            ones = np.ones(x.shape[:2] + tuple(case["size"]), np.float32)
            got = library_resize_backward(ones, x.shape, case["size"], library="burn", mode=case["mode"],
                                          axes=(2, 3), backend=backend, **options)
        else:
            got = library_resize(x, case["size"], library="burn", mode=case["mode"], axes=(2, 3), backend=backend,
                                 **options)
        assert got.shape == expected.shape
        if case["source"] in PERMISSIVE_ONLY:
            assert np.all(np.abs(got - expected) <= 0.01 + 0.01 * np.abs(expected)), backend
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1.5e-4, err_msg=f"{backend} {case['source']}")


def test_the_vectors_cover_every_burn_mode_but_nearest_exact():
    """NearestExact has no expected values in Burn's suite at this commit (it is checked by hand in
    tests/conventions/test_conventions_api.py)."""
    assert {c["mode"] for c in CASES} == {"Nearest", "Bilinear", "Bicubic", "Lanczos3"}
    assert {c["align_corners"] for c in CASES if c["mode"] != "Nearest"} == {True, False}

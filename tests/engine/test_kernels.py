"""The invariants written beside the kernel registry (explorer/engine/kernels.py)."""

import numpy as np
import pytest

from explorer.engine.kernels import DISCRETE_KERNELS, KERNEL_NAMES, KERNELS

T = np.linspace(-6, 6, 12001)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_is_even_and_vanishes_outside_its_radius(name):
    k = KERNELS[name]
    for a in (-0.75, -0.5):
        w = k(T, a)
        if name != "box":  # Pillow's box is the half-open (-1/2, 1/2]: even except at the edges
            np.testing.assert_allclose(w, w[::-1], atol=1e-12)
        outside = (np.abs(T) > k.radius) | ((np.abs(T) == k.radius) & ((name != "box") | (T < 0)))
        assert np.all(w[outside] == 0)
        assert np.any(w[np.abs(T) < k.radius] != 0)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_interpolating_kernels_are_one_at_zero_and_zero_at_other_integers(name):
    k = KERNELS[name]
    at = k(np.arange(-6, 7, dtype=np.float64))
    cardinal = np.allclose(at, (np.arange(-6, 7) == 0).astype(float), atol=1e-12)
    assert cardinal == k.interpolating


def test_box_is_pillows_half_open_interval():
    assert KERNELS["box"](np.array([-0.5, 0.5]), 0).tolist() == [0.0, 1.0]


def test_keys_cubic_is_continuous_with_a_continuous_derivative():
    k = KERNELS["cubic"]
    for a in (-0.75, -0.5):
        for knot in (1.0, 2.0):
            left, right = k(np.array([knot - 1e-7]), a), k(np.array([knot + 1e-7]), a)
            assert abs(left - right) < 1e-6
            d_left = (k(np.array([knot - 1e-7]), a) - k(np.array([knot - 2e-7]), a)) / 1e-7
            d_right = (k(np.array([knot + 2e-7]), a) - k(np.array([knot + 1e-7]), a)) / 1e-7
            assert abs(d_left - d_right) < 1e-4


@pytest.mark.parametrize("name", ["linear", "cubic"])
def test_fixed_tap_kernels_are_a_partition_of_unity(name):
    k = KERNELS[name]
    for shift in np.linspace(0, 1, 17):
        taps = np.arange(-3, 4) - shift
        assert k(taps).sum() == pytest.approx(1.0, abs=1e-12)


def test_registry_names_are_unique_and_complete():
    assert set(KERNEL_NAMES) == set(KERNELS) | set(DISCRETE_KERNELS)
    assert len(KERNEL_NAMES) == len(set(KERNEL_NAMES))

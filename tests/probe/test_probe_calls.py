"""Framework call cases (explorer.probe.calls): their output is compared with the explorer's library_resize of the
same call, their gradient with the transpose of that forward; a change of one sample is found in either."""

import numpy as np
import pytest

from explorer.conventions import library_resize
from explorer.probe.calls import (by_id, coreml_cases, jax_cases, keras_cases, litert_cases, mlx_cases, tensorflow_cases,
                                  torch_cases, torch_onnx_cases)
from explorer.probe.cases import cases, make_input
from explorer.probe.compare import call_arguments, compare, compare_gradient


def _dense_forward(case, x):
    """The forward as a dense matrix, column by column from basis inputs (not from the backward code)."""
    n = x.size
    columns = []
    for k in range(n):
        e = np.zeros(n)
        e[k] = 1.0
        columns.append(library_resize(e.reshape(x.shape), **call_arguments(case)).ravel())
    return np.stack(columns, axis=1)


def test_call_cases_are_unique_and_in_the_case_table():
    made = (torch_cases() + torch_onnx_cases() + tensorflow_cases() + jax_cases() + keras_cases() + litert_cases()
            + mlx_cases() + coreml_cases())
    assert len({c["id"] for c in made}) == len(made)
    table = by_id(cases())
    assert all(c["id"] in table for c in made)
    assert {c["kind"] for c in made} == {"torch", "torch-onnx", "tensorflow", "jax", "keras-tensorflow", "keras-jax",
                                         "keras-torch", "litert", "mlx", "coreml"}


def test_a_call_output_is_compared_with_library_resize():
    case = by_id(torch_cases())["torch/bicubic/align_corners/float32/down-size"]
    x = make_input(case)
    # PyTorch's align_corners bicubic of the same input, computed by the explorer with the other option
    other = library_resize(x, size=tuple(case["size"]), library="torch", mode="bicubic", align_corners=False)
    assert compare(case, x, other, equals=False)["verdict"] == "differs"
    y = library_resize(x, size=tuple(case["size"]), library="torch", mode="bicubic", align_corners=True)
    assert compare(case, x, y, equals=False)["verdict"] == "exact"
    y[0, 1, 2, 3] += 0.01
    fields = compare(case, x, y, equals=False)
    assert fields["verdict"] == "differs" and fields["differing"] == 1


@pytest.mark.parametrize("case_id", ["torch/bilinear/aa/float64/down-size",
                                     "tensorflow/bicubic/aa/float32/down-size"])
def test_a_gradient_is_compared_with_the_transpose_of_the_forward(case_id):
    case = by_id(cases())[case_id]
    x = make_input(case)
    g = np.random.default_rng(0).standard_normal(case["output_shape"])
    w = _dense_forward(case, x)
    grad = (w.T @ g.ravel()).reshape(x.shape)
    assert compare_gradient(case, x, g, grad)["gradient_verdict"] in ("exact", "close")
    grad.flat[5] += 1e-3
    fields = compare_gradient(case, x, g, grad)
    assert fields["gradient_verdict"] == "differs" and fields["gradient_differing"] == 1

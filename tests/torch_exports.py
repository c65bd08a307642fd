"""ONNX models exported from small torch modules at test time, by either torch.onnx exporter."""

from __future__ import annotations

import io
import warnings

import onnx


def export(module, args, exporter: str = "torchscript", opset: int = 17, input_names=("x",), **options):
    """``module`` exported with ``torch.onnx.export`` (``exporter`` "torchscript": dynamo=False, or "dynamo"),
    as an ``onnx.ModelProto`` with its weights inside."""
    import torch

    buffer = io.BytesIO()
    with warnings.catch_warnings():  # the exporters' deprecation notices and tracer warnings are not the test's
        warnings.simplefilter("ignore")
        if exporter == "dynamo":
            program = torch.onnx.export(module.eval(), tuple(args), dynamo=True, opset_version=opset,
                                        input_names=list(input_names), verbose=False, **options)
            return program.model_proto
        torch.onnx.export(module.eval(), tuple(args), buffer, dynamo=False, opset_version=opset,
                          input_names=list(input_names), **options)
    return onnx.load_from_string(buffer.getvalue())

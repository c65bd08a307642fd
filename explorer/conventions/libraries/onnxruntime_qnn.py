"""ONNX Runtime's QNN execution provider (Qualcomm NPUs) as a runtime of its own: the ``onnxruntime-qnn``
package, whose 1.x releases follow ONNX Runtime's and whose 2.x releases are the separately released QNN plugin
(microsoft/onnxruntime ``onnxruntime/core/providers/qnn/builder/opbuilder/resize_op_builder.cc`` read at v1.15.0
... v1.19.0 and main to 2026-01; strings of the onnxruntime-qnn wheels 1.17.3 ... 2.7.0).

A node the provider refuses runs on the next provider (the CPU EP); what the HTP kernels compute is not
modelled (nothing run on a Qualcomm device).
"""

from __future__ import annotations

from ..declarations import Backend, Runtime
from ..registry import register
from .onnx import write_node

RUNTIME = register(Runtime(
    id="onnxruntime-qnn", title="ONNX Runtime QNN", order=45,
    backends=(Backend("onnxruntime-qnn", "ONNX Runtime's QNN execution provider (HTP / DSP / CPU backends)",
                      ("npu", "cpu"), "onnx", aliases=("qnn", "qnnexecutionprovider", "ort-qnn"), spelling="onnx",
                      writes=write_node, runs_nodes=True),),
    words=("qnn", "qnnexecutionprovider", "htp", "qnn_ep"),
    version_markers=("onnxruntime-qnn==", "qnn ep version ")))

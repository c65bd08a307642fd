"""ExecuTorch as a runtime: a ``torch.export`` program lowered with ``to_edge`` and run by its portable kernel
library (pytorch/executorch ``kernels/portable/functions.yaml``, ``kernels/portable/cpu/op_upsample_*.cpp``,
``kernels/portable/cpu/util/upsample_util.cpp`` and ``runtime/kernel/operator_registry.cpp`` read at the tags
v0.1.0 ... v1.4.0).  Versions are ExecuTorch releases.

The portable kernels port ATen's upsample arithmetic, but nothing was run here: what they compute is not
modelled, the records say which resize kernels a release registers and which arguments they refuse.
"""

from __future__ import annotations

from ..declarations import Backend, Runtime
from ..registry import register

RUNTIME = register(Runtime(
    id="executorch", title="ExecuTorch", order=205,
    backends=(Backend("executorch", "ExecuTorch's portable kernels (a torch.export program run by the executor)",
                      ("cpu",), "python", aliases=("et", "executor_runner", "executorch-portable"),
                      spelling="torch"),),
    words=("executorch", "executor_runner", "operator_registry", "et_log"),
    version_markers=("executorch==", "executorch v", "executorch version ")))

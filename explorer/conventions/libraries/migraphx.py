"""AMD MIGraphX as a runtime: its ONNX parser (``parse_resize``) and GPU kernels (ROCm/AMDMIGraphX
``src/onnx/parse_resize.cpp`` read at every ``rocm-*`` tag 4.1 ... 7.2.4 and develop; nothing built or run: no
AMD GPU).  Versions are ROCm releases (``rocm-7.2.4`` is 7.2.4).

What the kernels compute is not modelled (not run); the records say what the parser refuses or ignores.
"""

from __future__ import annotations

from ..declarations import Backend, Runtime
from ..registry import register
from .onnx import write_node

RUNTIME = register(Runtime(
    id="migraphx", title="MIGraphX", order=120,
    backends=(Backend("migraphx", "AMD MIGraphX (ONNX parser and ROCm kernels)", ("rocm",), "onnx",
                      aliases=("amdmigraphx", "mgx"), spelling="onnx", writes=write_node, runs_nodes=True),),
    words=("migraphx", "amdmigraphx", "parse_resize", "migraphx_onnx"),
    version_markers=("rocm-", "migraphx version ", "migraphx==")))

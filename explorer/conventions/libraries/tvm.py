"""Apache TVM as a runtime: its ONNX frontends (Relay, ``python/tvm/relay/frontend/onnx.py``, and Relax,
``python/tvm/relax/frontend/onnx/onnx_frontend.py``) and TOPI's resize (``python/tvm/topi/image/resize.py``), read
at tags v0.8.0 ... v0.26.0 and run with apache-tvm 0.27.0.post1 (llvm) on 182 Resize models.

TOPI samples with ``in/out`` of the integer output sizes (ONNX ``scales`` are turned into sizes first,
truncating), the node's ``coordinate_transformation_mode``, ``nearest_mode``, ``cubic_coeff_a`` and
``exclude_outside`` (measured equal to ONNX given sizes): a bare Spec of the node.  Not modelled: the 1e-5 TOPI
adds inside ``floor``/``ceil`` nearest rounding, and antialias (TVM has none).
"""

from __future__ import annotations

from ...errors import ArgumentValueError
from ..declarations import Backend, Computation, Runtime
from ..registry import register
from .onnx import node_spec, write_node


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.antialias:
        raise ArgumentValueError("TVM's resize has no antialias")
    return Computation(None, None, spec_only=node_spec(q))


RUNTIME = register(Runtime(
    id="tvm", title="Apache TVM", order=150,
    backends=(Backend("tvm-relay", "Apache TVM, ONNX imported by the Relay frontend", ("cpu", "cuda", "gpu"), "onnx",
                      aliases=("relay",), spelling="onnx", computes=_computes, writes=write_node, runs_nodes=True),
              Backend("tvm-relax", "Apache TVM, ONNX imported by the Relax frontend", ("cpu", "cuda", "gpu"), "onnx",
                      aliases=("relax",), spelling="onnx", computes=_computes, writes=write_node, runs_nodes=True)),
    words=("tvm", "relay", "relax", "topi"),
    version_markers=("apache-tvm==", "tvm==", "tvm version ", "tvm v")))

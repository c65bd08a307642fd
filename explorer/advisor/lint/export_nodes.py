"""What ``torch.onnx.export`` writes for an ``F.interpolate`` call, per exporter and opset: the measured tables
lint's export targets start from (exporter -> node -> the runtime that runs the node).

The tables are measured by exporting one-call modules with the installed torch, onnx and onnxscript
(``python -m explorer.advisor.lint.export_nodes --measure [torchscript|dynamo]``): for each mode,
``align_corners``, ``antialias``, opset and way of giving the output (a scale factor of 2, or a size that halves
8x8), the ops the exporter wrote with their attributes, or the exception it raised.

* ``torchscript`` (``dynamo=False``, ``explorer/advisor/data/torch_onnx_nodes.json``), opsets 11-18;
* ``dynamo`` (``dynamo=True``, the torch.export + onnxscript exporter, ``torch_onnx_nodes_dynamo.json``),
  opsets 18, 20 (torch 2.9-2.13's default) and 23 (below 18 it is not measured: a condition).  It writes ops the TorchScript exporter rejects: ``nearest-exact`` as Gather nodes on
  indices computed at export time (the input's shape is fixed there), antialiased bilinear and bicubic as
  ``Resize(antialias=1)``.

>>> cell = written("torchscript", 11, "nearest", None, False, "scale")
>>> cell["nodes"][0]["op"], cell["nodes"][0]["attributes"]["coordinate_transformation_mode"]
('Resize', 'asymmetric')
>>> written("torchscript", 11, "nearest-exact", None, False, "scale")["error"][:40]
"Exporting the operator 'aten::_upsample_"
>>> [n["op"] for n in written("dynamo", 18, "nearest-exact", None, False, "scale")["nodes"]]
['Transpose', 'GatherND', 'Transpose']
>>> written("dynamo", 11, "nearest", None, False, "scale") is None   # the dynamo table starts at opset 18
True
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
TABLES = {"torchscript": DATA / "torch_onnx_nodes.json", "dynamo": DATA / "torch_onnx_nodes_dynamo.json"}
TABLE = TABLES["torchscript"]
OPSETS = {"torchscript": (11, 13, 16, 17, 18), "dynamo": (18, 20, 23)}
MODES = {"nearest": 2, "nearest-exact": 2, "linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3, "area": 2}
INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
ANTIALIASED = ("bilinear", "bicubic")


def _key(exporter, opset, mode, align_corners, antialias, given) -> str:
    return f"{exporter}|{opset}|{mode}|{align_corners}|{antialias}|{given}"


@functools.cache
def table(exporter: str = "torchscript") -> dict:
    return json.loads(TABLES[exporter].read_text())


def written(exporter: str, opset: int, mode: str, align_corners, antialias: bool, given: str) -> dict | None:
    """The measured cell: ``{"nodes": [{"op", "attributes"}]}`` or ``{"error": text}``; None when not measured.
    The opset is the nearest measured one at or below ``opset``."""
    cells = table(exporter)["cells"]
    align_corners = None if mode not in INTERPOLATING else align_corners
    antialias = bool(antialias) and mode in ANTIALIASED
    below = [o for o in OPSETS[exporter] if o <= opset]
    if not below:
        return None
    return cells.get(_key(exporter, below[-1], mode, align_corners, antialias, given))


def source(exporter: str = "torchscript") -> str:
    meta = table(exporter)
    return f"torch {meta['torch']} torch.onnx.export ({meta['exporter']}), measured ({TABLES[exporter].name})"


def _text(value):
    """An attribute's value as JSON holds it (bytes decoded)."""
    return value.decode() if isinstance(value, bytes) else value


def measure(exporter: str = "torchscript", opsets=None) -> dict:  # pragma: no cover - run by hand with torch, onnx
    import io
    import warnings

    import onnx
    import torch
    import torch.nn.functional as F

    class Call(torch.nn.Module):
        def __init__(self, kw):
            super().__init__()
            self.kw = kw

        def forward(self, x):
            return F.interpolate(x, **self.kw)

    cells = {}
    for mode, rank in MODES.items():
        aligns = (None, False, True) if mode in INTERPOLATING else (None,)
        aas = (False, True) if mode in ANTIALIASED else (False,)
        for align in aligns:
            for aa in aas:
                for given in ("scale", "size"):
                    for opset in opsets or OPSETS[exporter]:
                        kw = {"mode": mode}
                        if align is not None:
                            kw["align_corners"] = align
                        if aa:
                            kw["antialias"] = True
                        kw.update({"scale_factor": 2} if given == "scale" else {"size": (4,) * rank})
                        buffer = io.BytesIO()
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            try:
                                x = torch.zeros((1, 1) + (8,) * rank)
                                if exporter == "dynamo":
                                    model = torch.onnx.export(Call(kw), (x,), dynamo=True, opset_version=opset,
                                                              verbose=False).model_proto
                                else:
                                    torch.onnx.export(Call(kw), (x,), buffer, opset_version=opset, dynamo=False)
                                    model = onnx.load_from_string(buffer.getvalue())
                            except Exception as exc:  # noqa: BLE001 - the exporter's failure is the measurement
                                cells[_key(exporter, opset, mode, align, aa, given)] = {
                                    "error": f"{(str(exc).splitlines() or [type(exc).__name__])[0][:300]}"}
                                continue
                        nodes = [{"op": n.op_type, "attributes": {
                            a.name: _text(onnx.helper.get_attribute_value(a)) for a in n.attribute}}
                            for n in model.graph.node if n.op_type not in ("Constant", "Shape", "Gather", "Cast",
                                                                           "Concat", "Slice", "Unsqueeze")]
                        written_opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")),
                                             None)
                        cells[_key(exporter, opset, mode, align, aa, given)] = {"nodes": nodes,
                                                                                 "opset_written": written_opset}
    meta = {"torch": torch.__version__, "onnx": onnx.__version__, "input": "zeros (1, 1, 8, ...); scale: "
            "scale_factor=2; size: 4 per axis", "cells": cells, "measured_by":
            f"python -m explorer.advisor.lint.export_nodes --measure {exporter}"}
    if exporter == "dynamo":
        import onnxscript

        meta.update(exporter="dynamo (dynamo=True, torch.export + onnxscript)", onnxscript=onnxscript.__version__)
    else:
        meta.update(exporter="torchscript (dynamo=False)")
    return meta


if __name__ == "__main__":  # pragma: no cover
    import sys

    if "--measure" in sys.argv:
        # --measure [torchscript|dynamo] [--opsets 11,13]: the opsets given are measured and merged into the table
        which = [a for a in sys.argv[sys.argv.index("--measure") + 1:] if a in TABLES] or ["torchscript"]
        opsets = [int(o) for o in sys.argv[sys.argv.index("--opsets") + 1].split(",")] if "--opsets" in sys.argv \
            else None
        for name in which:
            data = measure(name, opsets)
            if opsets and TABLES[name].exists():
                old = json.loads(TABLES[name].read_text())
                data["cells"] = {**old["cells"], **data["cells"]}
            data["opsets"] = sorted({int(k.split("|")[1]) for k in data["cells"]})
            TABLES[name].write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(f"wrote {TABLES[name]}")

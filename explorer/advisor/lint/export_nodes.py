"""What ``torch.onnx.export`` writes for an ``F.interpolate`` call, per opset: the measured table lint's export
targets start from (exporter -> node -> the runtime that runs the node).

The table (``explorer/advisor/data/torch_onnx_nodes.json``) is measured by exporting one-call modules with the
installed torch and onnx (``python -m explorer.advisor.lint.export_nodes --measure``): for each mode,
``align_corners``, ``antialias``, opset and way of giving the output (a scale factor of 2, or a size that halves
8x8), the ops the exporter wrote with their attributes, or the exception it raised.

>>> cell = written("torchscript", 11, "nearest", None, False, "scale")
>>> cell["nodes"][0]["op"], cell["nodes"][0]["attributes"]["coordinate_transformation_mode"]
('Resize', 'asymmetric')
>>> written("torchscript", 11, "nearest-exact", None, False, "scale")["error"][:40]
"Exporting the operator 'aten::_upsample_"
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "data" / "torch_onnx_nodes.json"
OPSETS = (11, 13, 16, 17, 18)
MODES = {"nearest": 2, "nearest-exact": 2, "linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3, "area": 2}
INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")
ANTIALIASED = ("bilinear", "bicubic")


def _key(exporter, opset, mode, align_corners, antialias, given) -> str:
    return f"{exporter}|{opset}|{mode}|{align_corners}|{antialias}|{given}"


@functools.lru_cache(maxsize=1)
def table() -> dict:
    data = json.loads(TABLE.read_text())
    return data


def written(exporter: str, opset: int, mode: str, align_corners, antialias: bool, given: str) -> dict | None:
    """The measured cell: ``{"nodes": [{"op", "attributes"}]}`` or ``{"error": text}``; None when not measured.
    The opset is the nearest measured one at or below ``opset``."""
    cells = table()["cells"]
    align_corners = None if mode not in INTERPOLATING else align_corners
    antialias = bool(antialias) and mode in ANTIALIASED
    below = [o for o in OPSETS if o <= opset]
    if not below:
        return None
    return cells.get(_key(exporter, below[-1], mode, align_corners, antialias, given))


def source() -> str:
    meta = table()
    return f"torch {meta['torch']} torch.onnx.export, measured ({TABLE.name})"


def measure() -> dict:  # pragma: no cover - run by hand with torch and onnx installed
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
                    for opset in OPSETS:
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
                                torch.onnx.export(Call(kw), (torch.zeros((1, 1) + (8,) * rank),), buffer,
                                                  opset_version=opset, dynamo=False)
                            except Exception as exc:  # noqa: BLE001 - the exporter's failure is the measurement
                                cells[_key("torchscript", opset, mode, align, aa, given)] = {
                                    "error": f"{str(exc).splitlines()[0][:300]}"}
                                continue
                        model = onnx.load_from_string(buffer.getvalue())
                        nodes = [{"op": n.op_type, "attributes": {
                            a.name: (lambda v: v.decode() if isinstance(v, bytes) else v)(
                                onnx.helper.get_attribute_value(a)) for a in n.attribute}}
                            for n in model.graph.node if n.op_type not in ("Constant", "Shape", "Gather", "Cast",
                                                                           "Concat", "Slice", "Unsqueeze")]
                        cells[_key("torchscript", opset, mode, align, aa, given)] = {"nodes": nodes}
    return {"torch": torch.__version__, "onnx": onnx.__version__, "exporter": "torchscript (dynamo=False)",
            "input": "zeros (1, 1, 8, ...); scale: scale_factor=2; size: 4 per axis", "cells": cells}


if __name__ == "__main__":  # pragma: no cover
    import sys

    if "--measure" in sys.argv:
        TABLE.write_text(json.dumps(measure(), indent=1, sort_keys=True) + "\n")
        print(f"wrote {TABLE}")

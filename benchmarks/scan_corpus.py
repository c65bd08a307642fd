"""Nodes the scan lists and scans on the corpus of real architectures (``tests/real_models.py``: transformers,
diffusers, timm and torchvision models in small configurations with random weights, torchvision's detection
models among them), per exporter and opset, and the scan's seconds.

Each model is exported with ``torch.onnx.export`` (TorchScript, ``dynamo=False``, or dynamo) at each opset; the
Resize/Upsample nodes are counted in the graph and its subgraphs (the ground truth), then scanned for ONNX
Runtime.  A node is "scanned" when the scan knows its shapes and analysed it (no "not scanned" finding).

    python benchmarks/scan_corpus.py [--root PATH] [--exports torchscript:11,dynamo:18 ...] [--markdown]

``--root``: the checkout whose ``explorer`` is scanned with (the corpus and the exports always come from this
one), to compare two versions of the scan on the same exports.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import warnings

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
EXPORTS = "torchscript:11,torchscript:13,torchscript:17,dynamo:18"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=ROOT, help="the checkout whose explorer package scans")
    parser.add_argument("--exports", default=EXPORTS, help=f"exporter:opset pairs (default {EXPORTS})")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    exports = []
    for pair in args.exports.split(","):
        exporter, _, opset = pair.partition(":")
        if exporter not in ("torchscript", "dynamo") or not opset.isdigit():
            parser.error(f"--exports: expected exporter:opset with exporter torchscript or dynamo, got {pair!r}")
        exports.append((exporter, int(opset)))
    sys.path.insert(0, ROOT)
    import torch

    from tests.real_models import DETECTION, MODELS, exports_at, resize_count
    from tests.torch_exports import export
    sys.path.insert(0, os.path.abspath(args.root))  # the explorer package scanned with
    for name in [m for m in sys.modules if m == "explorer" or m.startswith("explorer.")]:
        del sys.modules[name]
    scan = importlib.import_module("explorer.advisor.scan").scan

    rows = []
    for exporter, opset in exports:
        total = scanned = models = 0
        seconds = 0.0
        for name, build in {**MODELS, **DETECTION}.items():
            if not exports_at(name, opset, exporter):  # (RAFT's GridSample starts at opset 16)
                continue
            torch.manual_seed(0)
            module, inputs = build()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = export(module.eval(), inputs, exporter, opset, input_names=("x", "t", "c")[:len(inputs)])
                start = time.perf_counter()
                result = scan(model, backend="onnxruntime")
                seconds += time.perf_counter() - start
            count = resize_count(model.graph)
            if len(result) != count:
                print(f"{name} {exporter} {opset}: the scan lists {len(result)} of {count} nodes", file=sys.stderr)
            models += 1
            total += count
            scanned += len(result) - result.unscanned
        rows.append((exporter, opset, models, total, scanned, f"{seconds:.1f}"))
    if args.markdown:
        print("| exporter | opset | models | Resize/Upsample nodes | scanned | scan s |\n| --- | --- | --- | --- | --- | --- |")
        for row in rows:
            print("| " + " | ".join(str(v) for v in row) + " |")
    else:
        for exporter, opset, models, total, scanned, seconds in rows:
            print(f"{exporter:12} opset {opset:2}: {models} models, {scanned}/{total} nodes scanned in {seconds} s")
    print(f"all: {sum(r[4] for r in rows)}/{sum(r[3] for r in rows)} nodes scanned")
    return 0


if __name__ == "__main__":
    sys.exit(main())

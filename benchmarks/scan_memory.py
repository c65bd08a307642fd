"""Peak memory and time of ``explorer.scan`` on a model whose weights dwarf its graph, in a fresh process.

The model (written to a temporary directory) is a decoder of ``--blocks`` 3x3 convolutions of 512 channels
(9.4 MB of float32 weights each, random) with a nearest 2x Resize after each but the last (sizes computed from
``Shape``, as TorchScript exports them) and a bilinear one at the end.  The scan reads the graph and the small
constants only; the report is its time and the peak resident set (``VmHWM``) above the one after a scan of a
one-node model (what any scan costs: the knowledge base, the equivalents' plans; printed too), against the
file's size and the size of the graph without the weights.

    python benchmarks/scan_memory.py [--blocks 20] [--root PATH]   # --root: the checkout whose explorer is run
    python benchmarks/scan_memory.py --model FILE.onnx              # an existing model instead (a real export)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

_CHILD = """
import json, sys, time
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
import explorer, onnx, onnxruntime  # noqa: F401 - the imports are not the scan's cost
from onnx import TensorProto, helper
from explorer.advisor.scan import scan
imported = hwm()
# a one-node model first: what any scan costs (the knowledge base, the equivalents' plans) is not the model's
tiny = helper.make_model(helper.make_graph(
    [helper.make_node("Resize", ["x", "", "s"], ["y"], mode="linear")], "tiny",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    initializer=[helper.make_tensor("s", TensorProto.FLOAT, [4], [1, 1, 2, 2])]),
    opset_imports=[helper.make_opsetid("", 13)])
scan(tiny, backend="onnxruntime")
before = hwm()
start = time.perf_counter()
result = scan(sys.argv[1], backend="onnxruntime")
seconds = time.perf_counter() - start
unscanned = sum(1 for n in result if any(f.message.startswith("not scanned") for f in n.findings))
print(json.dumps({"seconds": seconds, "peak_bytes": hwm() - before, "fixed_bytes": before - imported,
                  "nodes": len(result), "unscanned": unscanned}))
"""


def build(path: str, blocks: int, channels: int = 512, side: int = 4) -> int:
    """Write the model to ``path``; return the bytes of its graph without the weights."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    nodes, inits = [], []
    name = "x"
    for k in range(blocks):
        w = numpy_helper.from_array(rng.standard_normal((channels, channels, 3, 3), dtype=np.float32), f"w{k}")
        inits.append(w)
        nodes.append(helper.make_node("Conv", [name, f"w{k}"], [f"c{k}"], pads=[1, 1, 1, 1], name=f"conv{k}"))
        name = f"c{k}"
        if k < blocks - 1 and k < 4:  # the spatial side grows to 64 and stays there
            nodes += [helper.make_node("Shape", [name], [f"s{k}"]),
                      helper.make_node("Slice", [f"s{k}", "two", "four"], [f"hw{k}"]),
                      helper.make_node("Mul", [f"hw{k}", "twos"], [f"hw2_{k}"]),
                      helper.make_node("Concat", ["nc", f"hw2_{k}"], [f"size{k}"], axis=0),
                      helper.make_node("Resize", [name, "", "", f"size{k}"], [f"r{k}"], name=f"up{k}",
                                       mode="nearest", coordinate_transformation_mode="asymmetric",
                                       nearest_mode="floor")]
            name = f"r{k}"
    inits += [helper.make_tensor("two", TensorProto.INT64, [1], [2]),
              helper.make_tensor("four", TensorProto.INT64, [1], [4]),
              helper.make_tensor("twos", TensorProto.INT64, [2], [2, 2]),
              helper.make_tensor("nc", TensorProto.INT64, [2], [1, channels]),
              helper.make_tensor("final", TensorProto.INT64, [4], [1, channels, 100, 100])]
    nodes.append(helper.make_node("Resize", [name, "", "", "final"], ["y"], name="final", mode="linear"))
    graph = helper.make_graph(nodes, "decoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                               [1, channels, side, side])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)
    for t in model.graph.initializer:
        if len(t.raw_data) > 2**20:
            t.ClearField("raw_data")
    return model.ByteSize()


def _graph_bytes(path: str) -> int:
    """The bytes of a model file's graph without its weights (the data of initializers of more than 4 KiB
    emptied: a ResNet's small convolution and norm weights are weights too)."""
    import onnx

    model = onnx.load(path, load_external_data=False)
    for t in model.graph.initializer:
        if len(t.raw_data) > 4096:
            t.ClearField("raw_data")
    return model.ByteSize()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--root", default=ROOT, help="the checkout whose explorer package is scanned with")
    parser.add_argument("--model", help="scan this ONNX file instead of the generated decoder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        if args.model:
            path, graph_bytes = args.model, _graph_bytes(args.model)
        else:
            path = os.path.join(work, "decoder.onnx")
            graph_bytes = build(path, args.blocks)
        size = os.path.getsize(path)
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.root))
        done = subprocess.run([sys.executable, "-c", _CHILD, path], capture_output=True, text=True, env=env,
                              timeout=600, check=False)
        if done.returncode:
            raise SystemExit(done.stderr)
        result = json.loads(done.stdout)
    print(f"model {size / 1e6:.0f} MB (graph without weights {graph_bytes / 1e3:.1f} kB), "
          f"{result['nodes']} Resize nodes, {result['unscanned']} not scanned: scan {result['seconds']:.2f} s, "
          f"peak memory +{result['peak_bytes'] / 1e6:.0f} MB ({result['peak_bytes'] / size:.2f}x the file, "
          f"{result['peak_bytes'] / graph_bytes:.1f}x the graph; any scan's own +{result['fixed_bytes'] / 1e6:.0f} MB "
          "before it)")


if __name__ == "__main__":
    main()

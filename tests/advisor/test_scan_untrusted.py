"""A model file is untrusted input: scan never reads a file the model points to, one bad node is a finding on
that node (the others are scanned), unreadable files are refused without blocking, and the work is bounded."""

from __future__ import annotations

import json

import os
import subprocess
import sys

import importlib

import pytest

import explorer

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402

scan_module = importlib.import_module("explorer.advisor.scan")
from explorer.advisor.onnx_resize import load_model, resize_nodes  # noqa: E402
from explorer.advisor.scan import scan  # noqa: E402
from explorer.errors import UnreadableError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(explorer.__file__)))  # the tree under test
SECRET = b"API_TOKEN=supersecretvalue12345\n"  # 32 bytes: four int64 values
SECRET_INTS = [int.from_bytes(SECRET[k:k + 8], "little", signed=True) for k in range(0, 32, 8)]


def external_tensor(location: str, name: str = "c", data_type=TensorProto.INT64, dims=(4,)):
    t = TensorProto()
    t.name, t.data_type = name, data_type
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    entry = t.external_data.add()
    entry.key, entry.value = "location", location
    return t


def resize(name, output, *, sizes=None, scales=None, axes=None, mode="nearest"):
    """A Resize node reading ``x`` with a sizes or scales input named after the node."""
    kw = {} if axes is None else {"axes": axes}
    inputs = ["x", "", f"{name}_scales"] if scales is not None else ["x", "", "", f"{name}_sizes"]
    return helper.make_node("Resize", inputs, [output], name=name, mode=mode, **kw)


def make_model(nodes, initializers=(), opset=19, outputs=None):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
    outs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
            for o in (outputs or [n.output[0] for n in nodes if n.op_type == "Resize"])]
    graph = helper.make_graph(list(nodes), "g", [x], outs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def sizes_init(name, values):
    return helper.make_tensor(f"{name}_sizes", TensorProto.INT64, [len(values)], values)


def scales_init(name, values):
    return helper.make_tensor(f"{name}_scales", TensorProto.FLOAT, [len(values)], values)


def good_node(name="good"):
    return resize(name, f"{name}_y", sizes=True), sizes_init(name, [1, 3, 5, 5])


def cli(*args, cwd=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout, check=False)


# ------------------------------------------------------------------------------------------------ external data
@pytest.fixture
def secret_dir(tmp_path, monkeypatch):
    (tmp_path / ".env").write_bytes(SECRET)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _external_models():
    """Models whose sizes come from a tensor stored in ``.env``: a Constant, through Identity, and folded."""
    direct = make_model([helper.make_node("Constant", [], ["r_sizes"], value=external_tensor(".env")),
                         resize("r", "y", sizes=True)])
    through = make_model([helper.make_node("Constant", [], ["c"], value=external_tensor(".env")),
                          helper.make_node("Identity", ["c"], ["r_sizes"]), resize("r", "y", sizes=True)])
    folded = make_model([helper.make_node("Constant", [], ["c"], value=external_tensor(".env")),
                         helper.make_node("Concat", ["c"], ["r_sizes"], axis=0), resize("r", "y", sizes=True)])
    shaped = make_model([helper.make_node("ConstantOfShape", ["shape"], ["r_sizes"],
                                          value=external_tensor(".env", dims=(1,))),
                         resize("r", "y", sizes=True)],
                        [helper.make_tensor("shape", TensorProto.INT64, [1], [4])])
    initializer = make_model([resize("r", "y", sizes=True)], [external_tensor(".env", name="r_sizes")])
    return {"constant": direct, "identity": through, "concat": folded, "constant_of_shape": shaped,
            "initializer": initializer}


@pytest.mark.parametrize("kind", sorted(_external_models()))
def test_a_tensor_stored_as_external_data_is_never_read(secret_dir, kind, monkeypatch):
    import onnx.external_data_helper as external

    loads = []
    real = external.load_external_data_for_tensor
    monkeypatch.setattr(external, "load_external_data_for_tensor",
                        lambda *a, **k: loads.append(a) or real(*a, **k))
    model = _external_models()[kind]
    [node] = resize_nodes(model)
    assert node.sizes is None and node.sources.get("sizes") == "runtime", node
    result = scan(model.SerializeToString())
    text = str(result) + repr(result.to_dicts())
    assert not any(str(v) in text for v in SECRET_INTS), text
    assert loads == []


def test_the_cli_json_of_an_external_constant_holds_no_bytes_of_the_file(secret_dir):
    (secret_dir / "m.onnx").write_bytes(_external_models()["constant"].SerializeToString())
    proc = cli("scan", "m.onnx", "--json", cwd=secret_dir)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert not any(str(v) in proc.stdout for v in SECRET_INTS), proc.stdout
    output_shape = json.loads(proc.stdout)[0]["output_shape"]  # unknown: no length read from the file
    assert output_shape is None or not any(isinstance(d, int) for d in output_shape), output_shape


# ------------------------------------------------------------------------------------------------ bad nodes
def _bad_nodes():
    bad = {
        "inf_scales": ([resize("bad", "bad_y", scales=True)], [scales_init("bad", [1, 1, float("inf"), 2])]),
        "nan_scales": ([resize("bad", "bad_y", scales=True)], [scales_init("bad", [1, 1, float("nan"), 2])]),
        "axes_out_of_range": ([resize("bad", "bad_y", scales=True, axes=[7, -9])], [scales_init("bad", [2, 2])]),
        "external_absent": ([helper.make_node("Constant", [], ["bad_sizes"], value=external_tensor("absent.bin")),
                             resize("bad", "bad_y", sizes=True)], []),
        "external_device": ([helper.make_node("Constant", [], ["bad_sizes"], value=external_tensor("/dev/zero")),
                             resize("bad", "bad_y", sizes=True)], []),
        "undecodable_mode": ([resize("bad", "bad_y", scales=True, mode=b"\xff\xfe")], [scales_init("bad", [1, 1, 2, 2])]),
    }
    return bad


@pytest.mark.parametrize("kind", sorted(_bad_nodes()))
def test_one_bad_node_is_a_finding_on_it_and_the_other_nodes_are_scanned(kind, tmp_path):
    nodes, inits = _bad_nodes()[kind]
    good, good_sizes = good_node()
    model = make_model([*nodes, good], [*inits, good_sizes])
    result = scan(model.SerializeToString())
    by_name = {n.node: n for n in result}
    assert set(by_name) == {"bad", "good"}
    assert by_name["good"].equivalents, "the good node is scanned as usual"
    assert by_name["good"].output_shape == (1, 3, 5, 5)
    bad = by_name["bad"]
    assert bad.findings, "the bad node has a finding"
    if kind in ("inf_scales", "nan_scales", "axes_out_of_range"):
        assert bad.findings[0].severity == "error"
        assert "'bad'" in bad.findings[0].message  # the message names the node
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    proc = cli("scan", str(path))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1)
    assert "good" in proc.stdout and "bad" in proc.stdout


def test_nan_scales_are_refused_as_onnx_runtime_refuses_them_naming_the_node():
    model = make_model([resize("up_7", "y", scales=True)], [scales_init("up_7", [1, 1, float("nan"), 2])])
    [n] = scan(model)
    assert n.severity == "error"
    assert "up_7" in n.findings[0].message and "Scale value must be finite" in n.findings[0].message


# ------------------------------------------------------------------------------------------------ files
def test_a_fifo_a_device_and_a_directory_are_refused_without_reading(tmp_path):
    fifo = tmp_path / "model.onnx"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", tmp_path):
        with pytest.raises(UnreadableError, match="not a regular file"):
            load_model(path)
    proc = cli("scan", str(fifo), timeout=60)
    assert proc.returncode == 2 and "named pipe" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("scan", "/dev/zero", timeout=60)
    assert proc.returncode == 2 and "character device" in proc.stderr


@pytest.mark.parametrize("opset", [10**9, -5, 0])
def test_a_model_declaring_an_impossible_opset_is_refused(opset):
    good, sizes = good_node()
    model = make_model([good], [sizes], opset=19)
    model.opset_import[0].version = opset
    with pytest.raises(ValueError, match="opset"):
        scan(model.SerializeToString())


def test_node_names_are_printed_escaped():
    name = "evil\nerror: forged line \x1b[31m"
    model = make_model([resize(name, "y", sizes=True)], [sizes_init(name, [1, 3, 5, 5])])
    text = str(scan(model))
    assert "\x1b" not in text
    assert not any(line.startswith("error: forged") for line in text.splitlines())
    assert "evil\\nerror: forged line \\x1b[31m" in text


# ------------------------------------------------------------------------------------------------ work
def test_nodes_alike_are_analysed_once(monkeypatch):
    calls = []
    real = scan_module._analyse_onnx_node
    monkeypatch.setattr(scan_module, "_analyse_onnx_node", lambda node, *a: calls.append(node.name) or real(node, *a))
    nodes, inits = [], []
    for k in range(300):
        node, init = good_node(f"n{k}")
        nodes.append(node)
        inits.append(init)
    result = scan(make_model(nodes, inits))
    assert len(result) == 300 and len(calls) == 1
    assert [n.node for n in result] == [f"n{k}" for k in range(300)]
    assert all(n.equivalents == result[0].equivalents for n in result)


def test_nodes_past_the_budget_are_listed_with_a_warning_naming_them():
    nodes, inits = [], []
    for k in range(5):
        nodes.append(resize(f"n{k}", f"y{k}", sizes=True))
        inits.append(sizes_init(f"n{k}", [1, 3, 4 + k, 5]))
    result = scan(make_model(nodes, inits), max_nodes=2)
    assert [bool(n.equivalents) for n in result] == [True, True, False, False, False]
    for n in result[2:]:
        assert n.findings[0].severity == "warning"
        assert f"'{n.node}'" in n.findings[0].message and "SCAN_MAX_NODES" in n.findings[0].message


def test_a_model_file_is_read_without_its_weights(tmp_path):
    """The weights' bytes are left out when the file is read (their type and dims kept); the small constants
    that shape arithmetic needs are read."""
    import numpy as np
    from onnx import numpy_helper

    from explorer.advisor.onnx_resize import load_model
    from explorer.limits import FOLD_BYTES

    weight = numpy_helper.from_array(np.ones((1, FOLD_BYTES // 4 + 1), np.float32), "weight")
    model = make_model([resize("r", "y", sizes=True)], [weight, sizes_init("r", [1, 3, 5, 5])])
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    loaded = {t.name: t for t in load_model(str(path)).graph.initializer}
    assert len(loaded["weight"].raw_data) == 0 and list(loaded["weight"].dims) == [1, FOLD_BYTES // 4 + 1]
    assert loaded["r_sizes"] == model.graph.initializer[1]
    [node] = scan(str(path))
    assert node.output_shape == (1, 3, 5, 5) and node.equivalents


def test_small_weights_are_left_out_and_a_larger_constant_that_decides_a_shape_is_read(tmp_path):
    """Weights of a few KiB (a ResNet's convolutions and norms) are weights too: their data is not read.  A
    constant of the same size whose values decide a shape (here a table of side lengths a Gather picks the
    resize's sizes from) is read in a second pass, so the node's output shape is still known."""
    import numpy as np
    from onnx import numpy_helper

    from explorer.advisor.onnx_resize import load_model

    table = numpy_helper.from_array(np.arange(1000, dtype=np.int64) + 1, "sides")  # 8000 bytes: > 4 KiB
    small_weight = numpy_helper.from_array(np.ones((3, 3, 11, 11), np.float32), "conv_w")  # 4356 bytes
    nodes = [helper.make_node("Gather", ["sides", "pick"], ["r_sizes"], axis=0),
             helper.make_node("Conv", ["x", "conv_w"], ["c"], pads=[5, 5, 5, 5]),
             helper.make_node("Resize", ["c", "", "", "r_sizes"], ["y"], name="r", mode="nearest")]
    pick = helper.make_tensor("pick", TensorProto.INT64, [4], [0, 2, 6, 8])
    model = make_model(nodes, [table, small_weight, pick])
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    loaded = {t.name: t for t in load_model(str(path)).graph.initializer}
    assert len(loaded["conv_w"].raw_data) == 0 and list(loaded["conv_w"].dims) == [3, 3, 11, 11]
    assert loaded["sides"] == model.graph.initializer[0]
    [node] = scan(str(path))
    assert node.output_shape == (1, 3, 7, 9) and node.equivalents, node.findings

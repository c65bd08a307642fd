"""Hostile inputs for the fuzz (``tests/fuzz_calls.py`` draws them with its random calls): models, source trees,
image files, links and command lines of the kinds docs/threat-model.md names.

Each ``call_*(seed, explorer)`` builds one input from the seed and hands it to an entry point; like the other
calls it must return or raise a clear error of the project.  It also raises :class:`Leak` (a failure) when the
output holds the bytes of the secret file that no input may make the project read (a model's external data
points at it, a tree links to it), when a text report has a line a file name forged, or when a link loads an
image that is not a built-in one.

:func:`setup` makes the working directory (with the secret ``.env``, a FIFO and a model) before the memory limit
is set; :func:`some_argv` draws command lines over those files.
"""

from __future__ import annotations

import io
import os
import random
import struct
import tempfile
from pathlib import Path

import numpy as np

SECRET = b"API_TOKEN=fuzzsecret_0123456789\n"  # 32 bytes: four int64, eight float32, eight int32 values
MARKERS = ("fuzzsecret", *(str(int.from_bytes(SECRET[k:k + 8], "little", signed=True)) for k in range(0, 32, 8)),
           *(str(v) for v in struct.unpack("<8i", SECRET)))
FORGED = "model.py:1:1: error: forged"


class Leak(AssertionError):
    """The output shows what the input must not be able to reach."""


def _check_output(text: str, what: str):
    for marker in MARKERS:
        if marker in text:
            raise Leak(f"{what}: the output holds {marker!r}, read from the secret file")


# ------------------------------------------------------------------------------------------------ setup
WORK: dict = {}


def setup() -> Path:
    """A working directory holding the secret, a FIFO, a directory and a sample model; the process moves there
    (external data is resolved against it)."""
    root = Path(tempfile.mkdtemp(prefix="explorer-fuzz-"))
    (root / ".env").write_bytes(SECRET)
    os.mkfifo(root / "fifo.onnx")
    (root / "dir.onnx").mkdir()
    os.chdir(root)
    WORK["root"] = root
    import onnx  # noqa: F401 - imported before the memory limit, as the library is
    import PIL.Image  # noqa: F401

    (root / "model.onnx").write_bytes(model_bytes(random.Random(0)))
    return root


# ------------------------------------------------------------------------------------------------ models
def _external(location: str, dims=(4,), data_type=None):
    from onnx import TensorProto

    t = TensorProto()
    t.name, t.data_type = "ext", data_type or TensorProto.INT64
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    entry = t.external_data.add()
    entry.key, entry.value = "location", location
    return t


def model_bytes(rng: random.Random) -> bytes:
    """A model with one to four Resize/Upsample nodes, each drawn good or hostile, serialised (and sometimes
    damaged)."""
    from onnx import TensorProto, helper

    shape = rng.choice([[1, 3, 10, 10], [1, 3, 10, 10], [1, 1, 4, 5, 6], [2, 3], [1, 3, "h", "w"], None])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)
    nodes, inits, outs = [], [], []
    for k in range(rng.randint(1, 4)):
        name = rng.choice([f"r{k}", f"evil\n{FORGED}{k}", f"col\x1b[31m{k}", "", "x" * 5000 + str(k)])
        kind = rng.choice(["sizes", "scales", "external", "external_fold", "attr", "upsample"])
        rank = len(shape) if shape else 4
        attrs = {"mode": rng.choice(["nearest", "linear", "cubic", "bogus", b"\xff\xfe", "nearest"])}
        if rng.random() < 0.3:
            attrs["axes"] = rng.choice([[7, -9], [2, 3], [0, 0], [-1], [10**12]])
        if rng.random() < 0.2:
            attrs["coordinate_transformation_mode"] = rng.choice(["align_corners", "tf_crop_and_resize", "zz"])
        out = f"y{k}"
        if kind == "sizes":
            sizes = [rng.choice([1, 3, 5, 0, -4, 2**40, 10**18]) for _ in range(rank)]
            inits.append(helper.make_tensor(f"s{k}", TensorProto.INT64, [rank], sizes))
            nodes.append(helper.make_node("Resize", ["x", "", "", f"s{k}"], [out], name=name, **attrs))
        elif kind == "scales":
            scales = [rng.choice([1.0, 2.0, 0.5, float("inf"), float("nan"), -1.0, 0.0, 1e30, 1e-30])
                      for _ in range(rank)]
            inits.append(helper.make_tensor(f"s{k}", TensorProto.FLOAT, [rank], scales))
            nodes.append(helper.make_node("Resize", ["x", "", f"s{k}"], [out], name=name, **attrs))
        elif kind in ("external", "external_fold"):
            location = rng.choice([".env", "/dev/zero", "fifo.onnx", "absent.bin", "../.env", "/etc/passwd",
                                   os.path.join(str(WORK.get("root", ".")), ".env")])
            dtype = rng.choice([TensorProto.INT64, TensorProto.FLOAT])
            dims = (4,) if dtype == TensorProto.INT64 else (8,)
            const = f"c{k}" if kind == "external_fold" else f"s{k}"
            nodes.append(helper.make_node("Constant", [], [const], value=_external(location, dims, dtype)))
            if kind == "external_fold":
                nodes.append(helper.make_node("Concat", [const], [f"s{k}"], axis=0))
            inputs = ["x", "", "", f"s{k}"] if dtype == TensorProto.INT64 else ["x", "", f"s{k}"]
            nodes.append(helper.make_node("Resize", inputs, [out], name=name, **attrs))
        elif kind == "attr":
            inits.append(_external(".env"))
            inits[-1].name = f"s{k}"
            nodes.append(helper.make_node("Resize", ["x", "", "", f"s{k}"], [out], name=name, **attrs))
        else:
            nodes.append(helper.make_node("Upsample", ["x"], [out], name=name, mode="nearest",
                                          scales=[1.0, 1.0, rng.choice([2.0, float("nan"), -3.0]), 2.0]))
        outs.append(helper.make_tensor_value_info(out, TensorProto.FLOAT, None))
    opset = rng.choice([19, 19, 13, 11, 10, 9, 7, 1, 0, -5, 10**9])
    graph = helper.make_graph(nodes, "g", [x], outs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    model.opset_import[0].version = opset
    data = model.SerializeToString()
    damage = rng.random()
    if damage < 0.1:
        data = data[: rng.randrange(len(data))]
    elif damage < 0.15:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    elif damage < 0.2:
        data = b"\x0a" * 5000  # nested length-delimited fields
    return data


def call_scan_model(seed, explorer):
    rng = random.Random(seed)
    data = model_bytes(rng)
    backend = rng.choice([None, None, "burn-tch", "torch", "tensorrt", "coreml"])
    result = explorer.scan(data, backend=backend)
    text = str(result) + repr(result.to_dicts())
    _check_output(text, "scan")
    if any(line.startswith(FORGED) for line in str(result).splitlines()):
        raise Leak("scan: a node name forged a line of the text")
    return result


# ------------------------------------------------------------------------------------------------ trees
RUST = ["fn f() {{ quote! {{ let a = quote! {{ b }}; }}; }}\n", "fn g() {{ quote! ( unclosed {n}\n",
        "let o = InterpolateOptions::new(InterpolateMode::NearestExact);\n", "((((((((((" * 50 + "\n",
        "let m = InterpolateMode::Bilinear; let o = InterpolateOptions::new(m){{ ; }}\n",
        "/* unclosed comment {n}\n", "r#\"raw {n}\n", "Interpolate2dConfig::new().with_mode(InterpolateMode::Cubic)\n"]
PYTHON = ["import torch.nn.functional as F\n", "y = F.interpolate(x, scale_factor=2, mode='nearest-exact')\n",
          "def f(:\n", "x = 1\n" * 50, "y = [" + ", ".join(["F.interpolate(é)"] * 40) + "]\n",
          "class A(nn.Module):\n    def forward(self, x):\n        return F.interpolate(x, mode=self.mode)\n",
          "(" * 200 + "\n", "\x00\x01\x02\n", "# explorer: ignore[x]\n"]
CONFIG = ["upsample_mode: nearest-exact\n", "{\"interpolation\": 3}\n", "[" * 500 + "\n", "mode = bicubic\n",
          "_target_: torchvision.transforms.Resize\n"]


def _tree(rng: random.Random) -> Path:
    root = Path(tempfile.mkdtemp(prefix="tree-", dir=WORK["root"]))
    for k in range(rng.randint(1, 6)):
        kind = rng.choice(["rs", "py", "py", "yaml", "json", "onnx", "link", "fifo", "weird"])
        name = f"f{k}.{kind}"
        if kind == "rs":
            (root / name).write_text("".join(rng.choice(RUST).format(n=k) for _ in range(rng.randint(1, 8))))
        elif kind == "py":
            text = "".join(rng.choice(PYTHON) for _ in range(rng.randint(1, 8)))
            data = text.encode()
            if rng.random() < 0.3:
                data = b"\xef\xbb\xbf" + data
            (root / name).write_bytes(data)
        elif kind in ("yaml", "json"):
            (root / name).write_text("".join(rng.choice(CONFIG) for _ in range(rng.randint(1, 5))))
        elif kind == "onnx":
            (root / name).write_bytes(model_bytes(rng))
        elif kind == "link":
            target = rng.choice([WORK["root"] / ".env", Path("/proc/self/environ"), Path("/etc/passwd"),
                                 WORK["root"] / "absent", WORK["root"] / "fifo.onnx"])
            (root / f"f{k}.py").symlink_to(target)
        elif kind == "fifo":
            os.mkfifo(root / f"f{k}.py")
        else:
            weird = rng.choice([f"evil\n{FORGED}.py", "col\x1b[31mour.py", "bidi\u202e.py", "sp ace.py"])
            (root / weird).write_text(rng.choice(PYTHON) + PYTHON[1])
    return root


def call_lint_tree(seed, explorer):
    from explorer.advisor.lint import lint
    from explorer.advisor.lint.report import render

    rng = random.Random(seed)
    root = _tree(rng)
    backend = rng.choice(["burn-tch", "torch", "onnxruntime", "coreml"])
    report = lint(root, backend=backend, training=rng.choice([None, True, False]))
    for fmt in ("text", "json", "sarif", "github"):
        text = render(report, fmt)
        _check_output(text, f"lint --format {fmt}")
        if fmt in ("text", "github") and any(line.startswith(FORGED) for line in text.splitlines()):
            raise Leak(f"lint --format {fmt}: a file name forged a line")
    return report


# ------------------------------------------------------------------------------------------------ images
def image_bytes(rng: random.Random) -> bytes:
    from PIL import Image

    kind = rng.choice(["png", "png16", "thin", "truncated", "mutated", "random", "gif", "tiff", "bmp"])
    if kind == "random":
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 500)))
    size = (rng.randint(1, 40), rng.randint(1, 40)) if kind != "thin" else (rng.choice([200_000, 1]), 1)
    mode = rng.choice(["L", "RGB", "RGBA", "P", "1", "I;16", "I", "F", "LA", "CMYK"])
    if kind == "png16":
        mode = "I;16"
    fmt = {"gif": "GIF", "tiff": "TIFF", "bmp": "BMP"}.get(kind, "PNG")
    buffer = io.BytesIO()
    try:
        Image.new(mode, size).save(buffer, format=fmt)
    except (OSError, ValueError, KeyError):
        Image.new("L", size).save(buffer, format="PNG")
    data = buffer.getvalue()
    if kind == "truncated":
        data = data[: rng.randrange(len(data))]
    elif kind == "mutated":
        data = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        data = bytes(data)
    return data


def call_read_image(seed, explorer):
    from explorer.images import read_image

    rng = random.Random(seed)
    source = rng.choice(["bytes", "bytes", "bytes", "path"])
    data = image_bytes(rng)
    if source == "path":
        source = rng.choice(["/dev/zero", str(WORK["root"] / "fifo.onnx"), str(WORK["root"] / "dir.onnx"),
                             str(WORK["root"] / "absent.png")])
        return read_image(source)
    return read_image(data)


# ------------------------------------------------------------------------------------------------ the app
QUERY_VALUES = {
    "image": ["photo", "checkerboard", "/etc/passwd", str(Path(__file__).resolve()), "..", "", "x" * 5000],
    "scale": ["0.5", "1e300", "1e-300", "inf", "nan", "-1", "0", "1" * 5000, "2"],
    "size": ["64x48", "99999999x99999999", "0x0", "1" * 5000, "x", ""],
    "opset": ["18", str(10**100), "-5", "x"],
    "version": ["2.5.1", "1" * 100_000, "banana"],
    "mode": ["bicubic", "bicubc", "\x1b[31m"], "seed": ["3", "-1", "9" * 5000],
    "antialias": ["true", "maybe"], "modes": ["nearest,area", "nope", ""], "tab": ["kernels", "zzz"],
    "crop": ["0,0,0.5,0.5", "nan,0,1,1", "1,1,1"], "backend": ["onnxruntime", "nope"], "targets": ["torch,nope"],
}


def call_app(seed, explorer):
    from explorer.images import TEST_IMAGES
    from explorer.ui.app import App

    rng = random.Random(seed)
    keys = rng.sample(sorted(QUERY_VALUES), rng.randint(1, 4))
    query = "&".join(f"{k}={rng.choice(QUERY_VALUES[k])}" for k in keys)
    if rng.random() < 0.1:
        query += "&" + "a=b&" * 5000
    import ipywidgets

    app = None
    try:
        app = App(query=query, worker=False)
        if app.state["image"] not in TEST_IMAGES:
            raise Leak(f"the link {query[:80]!r} loaded an image that is not a built-in one")
        changes = rng.choice([{"scale": 1e300}, {"scale": float("nan")}, {"size": (10**9, 10**9)},
                              {"opset": 10**100}, {"training": "false"}, {"seed": 2**40}, {"size": {3, 4}},
                              {"scale": 0.3}, {"mode": "area"}, {"backend": "onnxruntime", "opset": -5}])
        try:
            app.set(**changes)
        except (ValueError, TypeError) as exc:
            if not app.message_text:
                raise Leak(f"app.set({changes}) raised {exc!r} without showing it") from None
            raise
        return app.state["image"]
    finally:  # widgets stay registered until closed: an app per case would fill the memory the fuzz allows
        if app is not None:
            app.engine.clear()
        ipywidgets.Widget.close_all()


CALLS = [call_scan_model, call_lint_tree, call_read_image, call_app]


# ------------------------------------------------------------------------------------------------ command lines
def some_argv(rng: random.Random) -> list[str]:
    """A command line over hostile files: scan of a device or a FIFO, lint with a bad baseline or path,
    diagnose of a long text."""
    root = WORK["root"]
    command = rng.choice(["scan", "scan", "lint", "lint", "diagnose"])
    if command == "scan":
        model = rng.choice(["/dev/zero", str(root / "fifo.onnx"), str(root / "dir.onnx"), str(root / "absent.onnx"),
                            str(root / "model.onnx"), str(root / ".env")])
        return ["scan", model] + rng.choice([[], ["--json"], ["--backend", "burn-tch"], ["--input-shape", "x=1,3,8,8"]])
    if command == "lint":
        path = rng.choice(["", str(root), str(root / ".env"), str(root / "fifo.onnx"), "/dev/null"])
        argv = ["lint", path, "--backend", rng.choice(["burn-tch", "torch", "nope"])]
        if rng.random() < 0.5:
            argv += ["--baseline", rng.choice(["/dev/zero", str(root / "fifo.onnx"), str(root / ".env"),
                                               str(root / "absent.json")])]
        return argv + rng.choice([[], ["--format", "sarif"], ["--format", "github"]])
    return ["diagnose", rng.choice(["x" * 200_000, "panicked " * 20_000, "\x1b[31m" * 1000, "1" * 100_000])]


__all__ = ["CALLS", "Leak", "setup", "some_argv"]


if __name__ == "__main__":  # a look at a few inputs
    setup()
    import explorer

    for seed in range(5):
        for call in CALLS:
            try:
                call(seed, explorer)
                print(call.__name__, seed, "ok")
            except Exception as exc:  # noqa: BLE001 - a look, not a check
                print(call.__name__, seed, type(exc).__name__, str(exc)[:100])
    np.random.default_rng(0)

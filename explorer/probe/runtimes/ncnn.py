"""ncnn: the ONNX file converted by pnnx (its ONNX input; the ``pnnx`` wheel ships the converter as an
executable, installed with ``--no-deps`` because the wheel's requirements pull a CUDA build of torch that the
conversion of an ONNX file does not use), then run by the ``ncnn`` wheel's ``Net`` on the CPU (no Vulkan,
one thread).  What the node became: the layers of the ``.ncnn.param`` file (``Interp`` with its numbered
params: 0 resize_type 1 nearest / 2 bilinear / 3 bicubic, 1-2 scales, 3-4 output size, 6 align_corner ...).

ncnn's blobs have no batch axis: the input's leading 1 is dropped and put back on the output.  onnx2ncnn, the
older converter, has no pip wheel.  Each release is paired with the pnnx release of the same time.
"""

NAME = "ncnn"
PRODUCT = "ncnn"
KINDS = ("onnx",)
PACKAGES = ("ncnn", "pnnx", "numpy")
PNNX = {"1.0.20240820": "20240819", "1.0.20241226": "20241223", "1.0.20250503": "20250530",
        "1.0.20260526": "20260526", "1.0.20261020": "20261020"}
RELEASES = tuple(PNNX)
CURRENT = "1.0.20261020"
_TYPES = {"float32": "f32", "float16": "f16", "float64": "f64", "int8": "i8", "uint8": "u8", "int32": "i32",
          "bfloat16": "f32"}


def install(release):
    return [[f"ncnn=={release}"], ["--no-deps", f"pnnx=={PNNX[release]}"]]


def version():
    import importlib.metadata

    return importlib.metadata.version("ncnn")


def _layers(param_path) -> list:
    out = []
    with open(param_path) as fh:
        lines = fh.read().splitlines()[2:]
    for line in lines:
        parts = line.split()
        if len(parts) < 4 or parts[0] == "Input":
            continue
        n_in, n_out = int(parts[2]), int(parts[3])
        params = parts[4 + n_in + n_out:]
        out.append({"type": parts[0], "name": parts[1], "params": " ".join(params)})
    return out


def run(case, inputs, cell):
    import os
    import shutil
    import subprocess

    import importlib.util

    import numpy as np

    x = inputs["X"]
    work = os.path.join(os.getcwd(), f"ncnn{case['index']}")
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "m.onnx")
    shutil.copyfile(case["model_path"], model)
    # the executable inside the package (importing pnnx itself imports torch)
    binary = os.path.join(importlib.util.find_spec("pnnx").submodule_search_locations[0], "pnnx")
    with cell.stage("convert"):
        shape = ",".join(str(d) for d in x.shape)
        done = subprocess.run([binary, model, f"inputshape=[{shape}]{_TYPES.get(case['dtype'], 'f32')}"],
                              cwd=work, capture_output=True, text=True, timeout=120, check=False)
        param = os.path.join(work, "m.ncnn.param")
        if done.returncode != 0 or not os.path.exists(param):
            lines = [ln for ln in (done.stderr + "\n" + done.stdout).splitlines() if ln.strip()]
            how = f"killed by signal {-done.returncode}" if done.returncode < 0 else f"status {done.returncode}"
            raise RuntimeError(f"pnnx failed ({how}) converting the model\n" + "\n".join(lines[-8:]))
        layers = _layers(param)
        cell.converted(layers)
    import ncnn

    with cell.stage("load"):
        net = ncnn.Net()
        net.opt.use_vulkan_compute = False
        net.opt.num_threads = 1
        if net.load_param(param) != 0 or net.load_model(os.path.join(work, "m.ncnn.bin")) != 0:
            raise RuntimeError("ncnn could not load the converted model")
    with cell.stage("run"):
        ex = net.create_extractor()
        blob = np.ascontiguousarray(x[0] if x.shape[0] == 1 and x.ndim > 1 else x).astype(np.float32)
        ex.input("in0", ncnn.Mat(blob))
        ret, out = ex.extract("out0")
        if ret != 0:
            raise RuntimeError(f"ncnn extract returned {ret}")
        y = np.array(out)
        if x.shape[0] == 1 and x.ndim > 1:
            y = y.reshape((1,) + y.shape)
    cell.output(y)

"""Apache TVM (Relax): ``tvm.relax.frontend.onnx.from_onnx``, ``LegalizeOps``, ``tvm.compile`` for ``llvm``
(the CPU), run in a ``relax.VirtualMachine``.  What the frontend made of the node: the ``R.image.resize*``
call of the imported module (method, coordinate_transformation_mode, rounding_method, cubic_alpha,
cubic_exclude, extrapolation_value), as the module prints it.

The ``apache-tvm`` wheels on PyPI start at 0.25 (the older ``tlcpack`` wheels are not on PyPI); the frontend
needs ``onnx`` in the venv.
"""

NAME = "tvm"
PRODUCT = "apache-tvm"
KINDS = ("onnx",)
PACKAGES = ("apache-tvm", "onnx", "numpy")
RELEASES = ("0.25.0", "0.26.0", "0.27.0.post1")
CURRENT = "0.27.0.post1"


#: 0.25.0 asks for apache-tvm-ffi>=0.1.12 but fails to import with the newest (an undefined symbol of
#: libtvm_runtime.so, measured with 0.1.15.post2): its venv gets the oldest release it allows
FFI = {"0.25.0": "apache-tvm-ffi==0.1.12"}


def install(release):
    return [[f"apache-tvm=={release}", "onnx"] + ([FFI[release]] if release in FFI else [])]


def version():
    import importlib.metadata

    return importlib.metadata.version("apache-tvm")


def _resize_calls(mod) -> list:
    out = []
    for line in mod.script().splitlines():
        if "R.image.resize" in line or "R.nn.upsampling" in line:
            out.append(line.strip().split(" = ", 1)[-1])
    return out


def run(case, inputs, cell):
    import numpy as np
    import onnx
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    x = inputs["X"]
    with cell.stage("convert"):
        model = onnx.load(case["model_path"])
        mod = from_onnx(model, shape_dict={"X": list(x.shape)})
        cell.converted(_resize_calls(mod))
    with cell.stage("load"):
        mod = relax.transform.DecomposeOpsForInference()(mod)
        mod = relax.transform.LegalizeOps()(mod)
        executable = tvm.compile(mod, target="llvm") if hasattr(tvm, "compile") else relax.build(mod, "llvm")
        vm = relax.VirtualMachine(executable, tvm.cpu())
    with cell.stage("run"):
        make = tvm.runtime.tensor if hasattr(tvm.runtime, "tensor") else tvm.nd.array
        y = vm["main"](make(x))
        if isinstance(y, (list, tuple)) or type(y).__name__ in ("Array", "ADT"):
            y = y[0]
        y = np.asarray(y.numpy())
    cell.output(y)

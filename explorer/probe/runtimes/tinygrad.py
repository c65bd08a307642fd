"""tinygrad: its ONNX runner (``OnnxRunner``: ``tinygrad.nn.onnx`` in 0.11+, ``tinygrad.frontend.onnx`` in 0.10)
on the CPU device, and, since tinygrad trains, the gradient of ``sum(Y * G)`` with respect to the input.

The CPU device compiles kernels with ``clang`` (Debian: ``apt-get install clang``); without it the run falls
back to the ``PYTHON`` device (the same kernels, interpreted) and says so in each cell's notes.
The 0.10.3 wheel has no ONNX runner (``tinygrad.frontend`` is missing from it: measured); earlier releases
keep the runner in the repository's ``extra/`` folder, outside the wheel.
"""

import os
import shutil

NAME = "tinygrad"
PRODUCT = "tinygrad"
KINDS = ("onnx",)
PACKAGES = ("tinygrad", "onnx", "numpy")
RELEASES = ("0.10.3", "0.11.0", "0.12.0", "0.14.0")
CURRENT = "0.14.0"


def _choose_device():
    """With clang tinygrad finds its CPU device itself; without it, the PYTHON device (``DEV=PYTHON`` from 0.13,
    ``PYTHON=1`` before)."""
    if shutil.which("clang") or "DEV" in os.environ or "PYTHON" in os.environ:
        return
    import importlib.metadata

    try:
        release = tuple(int(p) for p in importlib.metadata.version("tinygrad").split(".")[:2])
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return
    if release >= (0, 13):
        os.environ["DEV"] = "PYTHON"
    else:
        os.environ["PYTHON"] = "1"


def install(release):
    return [[f"tinygrad=={release}", "onnx"]]


def version():
    import importlib.metadata

    return importlib.metadata.version("tinygrad")


def _runner_class():
    try:
        from tinygrad.nn.onnx import OnnxRunner
    except ImportError:
        from tinygrad.frontend.onnx import OnnxRunner
    return OnnxRunner


def run(case, inputs, cell):
    _choose_device()
    from tinygrad import Device, Tensor

    with cell.stage("convert"):
        runner_class = _runner_class()
        try:
            runner = runner_class(case["model_path"])
        except (TypeError, AttributeError):  # 0.10: the runner takes a parsed ModelProto
            import onnx

            runner = runner_class(onnx.load(case["model_path"]))
    x_np = inputs["X"]
    trains = x_np.dtype.kind == "f"
    with cell.stage("run"):
        x = Tensor(x_np)
        if trains and not hasattr(Tensor, "gradient"):  # before Tensor.gradient: requires_grad and backward
            x.requires_grad = True
        y = runner({"X": x})["Y"]
        out = y.numpy()
    cell.output(out)
    if trains and out.size:
        with cell.stage("gradient"):
            loss = (y * Tensor(inputs["G"].astype(x_np.dtype))).sum()
            if hasattr(Tensor, "gradient"):
                grad = loss.gradient(x)[0]
            else:
                loss.backward()
                grad = x.grad
            cell.gradient(grad.numpy())
    cell.note(f"device {Device.DEFAULT}")

"""MLX (Linux CPU wheel): ``mlx.nn.Upsample(scale_factor, mode, align_corners, antialias)`` on a channels-last
array, and the gradient of ``sum(Y * G)`` by ``mx.grad`` for float32 inputs.  float16/bfloat16 cells take the
input (float32 values the type holds exactly) cast to the type; outputs are returned as float32.
"""

NAME = "mlx"
PRODUCT = "mlx"
KINDS = ("mlx",)
PACKAGES = ("mlx", "mlx-cpu", "numpy")
RELEASES = ("0.32.4",)
CURRENT = "0.32.4"


def install(release):
    return [[f"mlx[cpu]=={release}", "numpy"]]


def version():
    import importlib.metadata

    return importlib.metadata.version("mlx")


def run(case, inputs, cell):
    import mlx.core as mx
    import mlx.nn as nn
    import numpy as np

    mx.set_default_device(mx.cpu)
    dtype = {"float32": mx.float32, "float16": mx.float16, "bfloat16": mx.bfloat16}[case["dtype"]]
    x = mx.array(inputs["X"]).astype(dtype)
    options = case["options"]
    kwargs = {"align_corners": bool(options.get("align_corners", False))}
    if options.get("antialias"):
        kwargs["antialias"] = True
    with cell.stage("convert"):
        layer = nn.Upsample(scale_factor=case["scale_factor"], mode=case["mode"], **kwargs)
    with cell.stage("run"):
        y = layer(x)
        mx.eval(y)
        out = np.array(y.astype(mx.float32))
    cell.output(out)
    if case["train"] and case["dtype"] == "float32":
        with cell.stage("gradient"):
            g = mx.array(inputs["G"])
            grad = mx.grad(lambda v: mx.sum(layer(v) * g))(x)
            mx.eval(grad)
            cell.gradient(np.array(grad))

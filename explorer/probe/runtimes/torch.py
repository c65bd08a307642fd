"""PyTorch eager: ``torch.nn.functional.interpolate`` on the CPU, and the gradient of ``sum(Y * G)`` through
autograd for floating-point inputs.

PyTorch stays at 2.13.0 here (older CPU wheels are not reachable from this machine's Python): its older
behaviour comes from its source at a tag, not from this adapter.  One intra-op thread.  float16/bfloat16
cells take the input (float32 values that the type holds exactly) cast to the type; the output is returned in
float32 (bfloat16: numpy has none) and compared with the dtype's tolerance.
"""

NAME = "torch"
PRODUCT = "torch"
KINDS = ("torch",)
PACKAGES = ("torch", "numpy")
RELEASES = ("2.13.0",)
CURRENT = "2.13.0"


def install(release):
    return [[f"torch=={release}", "numpy"]]


def version():
    import torch

    return torch.__version__.split("+")[0]


def interpolate_kwargs(case) -> dict:
    """The keywords of ``F.interpolate`` for a call case: size or scale_factor, mode and the options set."""
    kwargs = {"mode": case["mode"]}
    if case["size"] is not None:
        kwargs["size"] = tuple(case["size"])
    else:
        kwargs["scale_factor"] = case["scale_factor"]
    kwargs.update(case["options"])
    return kwargs


def interpolate_module(case):
    """An ``nn.Module`` (eval mode) whose forward is the case's ``F.interpolate`` call: what an exporter is given."""
    import torch
    import torch.nn.functional as F

    kwargs = interpolate_kwargs(case)

    class Resize(torch.nn.Module):
        def forward(self, x):
            return F.interpolate(x, **kwargs)

    return Resize().eval()


def note_warnings(cell, caught):
    """Each distinct warning caught (its category and first line) as a note of the cell."""
    for line in dict.fromkeys(f"{w.category.__name__}: {(str(w.message).strip().splitlines() or [''])[0]}"
                              for w in caught):
        cell.note(line[:300])


def torch_dtype(torch, name):
    return {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
            "float64": torch.float64, "uint8": torch.uint8, "int8": torch.int8}[name]


def to_numpy(y):
    import torch

    y = y.detach()
    if y.dtype == torch.bfloat16:
        y = y.float()
    return y.numpy()


def run(case, inputs, cell):
    import warnings

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    x = torch.from_numpy(inputs["X"]).to(torch_dtype(torch, case["dtype"]))
    trains = case["train"] and x.dtype.is_floating_point
    if trains:
        x.requires_grad_(True)
    with cell.stage("run"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = F.interpolate(x, **interpolate_kwargs(case))
        for w in caught:
            cell.note(f"{w.category.__name__}: {str(w.message).splitlines()[0]}")
    cell.output(to_numpy(y))
    if trains:
        with cell.stage("gradient"):
            g = torch.from_numpy(inputs["G"]).to(y.dtype)
            (grad,) = torch.autograd.grad((y * g).sum(), x)
            cell.gradient(to_numpy(grad))

"""``torch.export.export`` of one ``F.interpolate`` call (the graph ExecuTorch, AOTInductor and the dynamo ONNX
exporter start from), run as an exported program on the CPU.

Stages: ``convert`` is the export, then ``run_decompositions()`` to the core ATen op set; ``run`` runs the
exported program's module.  ``converted`` records the ATen ops of the exported graph (``ops``), those left after
the core ATen decomposition (``core_ops``: an upsample kernel that is not a core op becomes index arithmetic
and gathers there), and ``vs_eager`` / ``decomposed_vs_eager``: the largest difference from the same call run
eagerly (the cell's verdict compares the exported program's output with the explorer's computation of the
torch call).
"""

NAME = "torch-export"
PRODUCT = "torch"
KINDS = ("torch-export",)
PACKAGES = ("torch", "numpy")
RELEASES = ("2.13.0",)
CURRENT = "2.13.0"


def install(release):
    return [[f"torch=={release}", "numpy"]]


def version():
    return _torch().version()


def _torch():
    """``torch.py``: the call's keywords, its module and the warnings' notes are declared there once."""
    return load_sibling("torch")  # noqa: F821 (given by the loader: child.load_adapter)


def _ops(program):
    """The ATen ops the program's graph calls, in order of first use."""
    seen = []
    for node in program.graph.nodes:
        if node.op == "call_function":
            name = str(getattr(node.target, "__name__", node.target))
            if name not in seen:
                seen.append(name)
    return seen


def _largest(a, b):
    import numpy as np

    if a.shape != b.shape:
        return f"shape {list(a.shape)} (eager {list(b.shape)})"
    with np.errstate(all="ignore"):
        return float(np.max(np.abs(a.astype(np.float64) - b))) if a.size else 0.0


def run(case, inputs, cell):
    import warnings

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    kwargs = _torch().interpolate_kwargs(case)
    module = _torch().interpolate_module(case)
    x = torch.from_numpy(inputs["X"])
    with torch.no_grad():
        eager = F.interpolate(x, **kwargs).numpy()
    with cell.stage("convert"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            program = torch.export.export(module, (x,))
            decomposed = program.run_decompositions()
        _torch().note_warnings(cell, caught)
        description = {"ops": _ops(program), "core_ops": _ops(decomposed)}
        cell.converted(description)
    with cell.stage("run"):
        with torch.no_grad():
            y = program.module()(x).numpy()
            y_core = decomposed.module()(x).numpy()
    description["vs_eager"] = _largest(y, eager)
    description["decomposed_vs_eager"] = _largest(y_core, eager)
    cell.converted(description)
    cell.output(y)

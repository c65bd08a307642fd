"""coremltools: ``ct.convert`` of a traced ``F.interpolate`` module (torch 2.13.0 in the same venv) to an ML
program or a NeuralNetwork.  Core ML prediction runs on macOS only, so a cell records whether the call
converts (the converter's exact error text when it does not) and what it becomes: the MIL operations of the
converted program (``convert_to="milinternal"``: each op's type and its constant inputs, such as
``align_corners``, ``half_pixel_centers``, ``sampling_mode``, the scale factors or target sizes), and for the
NeuralNetwork target the layer types of the spec (its upsample/resize layer's parameters).  A cell that
converts is ``skipped`` at the ``run`` stage, its reason saying so.

The venv: ``pip install coremltools==<release> torch==2.13.0`` (the resolver accepts each pair; the older
releases were not tested by their makers against this torch, and say so in a warning: a cell's notes).
coremltools 6.x has no CPython 3.11 Linux wheel (6.3.0 is a source archive only), so 7.2 is the oldest probed.
"""

NAME = "coremltools"
PRODUCT = "coreml"
KINDS = ("coreml",)
PACKAGES = ("coremltools", "torch", "numpy")
RELEASES = ("7.2", "8.3.0", "9.0")
CURRENT = "9.0"
_LAYER_FIELDS = ("upsample", "resizeBilinear", "cropResize")


def install(release):
    # coremltools 7.x calls np.issubclass_, which numpy 2.0 removed: numpy<2 with it
    numpy = "numpy<2" if int(release.split(".")[0]) < 8 else "numpy"
    return [[f"coremltools=={release}", "torch==2.13.0", numpy]]


def version():
    import importlib.metadata

    return importlib.metadata.version("coremltools")


def _torch():
    """``torch.py``: the call's keywords, its module and the warnings' notes are declared there once."""
    return load_sibling("torch")  # noqa: F821 (given by the loader: child.load_adapter)


def _value(var):
    value = getattr(var, "val", None)
    if value is None:
        return None
    try:
        return value.tolist()
    except AttributeError:
        return value if isinstance(value, (bool, int, float, str)) else str(value)


def mil_ops(program) -> list:
    """Each operation of the program's main function: its type and its inputs that are constants."""
    out = []
    for op in program.functions["main"].operations:
        if op.op_type == "const":
            continue
        entry = {"op": op.op_type}
        constants = {name: _value(var) for name, var in op.inputs.items()
                     if not isinstance(var, (list, tuple)) and _value(var) is not None}
        if constants:
            entry["inputs"] = constants
        out.append(entry)
    return out


def nn_layers(model) -> list:
    """The NeuralNetwork spec's layers: type and, for upsample/resize layers, their parameters."""
    from google.protobuf.json_format import MessageToDict

    out = []
    for layer in model.get_spec().neuralNetwork.layers:
        kind = layer.WhichOneof("layer")
        entry = {"layer": kind}
        if kind in _LAYER_FIELDS:
            entry["params"] = MessageToDict(getattr(layer, kind))
        out.append(entry)
    return out


def run(case, inputs, cell):
    import logging
    import warnings

    logging.disable(logging.WARNING)
    import coremltools as ct
    import torch

    x = torch.from_numpy(inputs["X"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with cell.stage("convert"):
            traced = torch.jit.trace(_torch().interpolate_module(case), (x,))
            tensor = [ct.TensorType(name="X", shape=tuple(x.shape))]
            program = ct.convert(traced, inputs=tensor, convert_to="milinternal")
            described = {"mil": mil_ops(program)}
            cell.converted(described)
            if case["target"] == "neuralnetwork":
                model = ct.convert(traced, inputs=tensor, convert_to="neuralnetwork")
                described["neuralnetwork"] = nn_layers(model)
            else:
                ct.convert(traced, inputs=tensor, convert_to="mlprogram", skip_model_load=True)
            cell.converted(described)
    _torch().note_warnings(cell, caught)
    with cell.stage("run"):
        cell.skip("converted; Core ML prediction runs on macOS only")

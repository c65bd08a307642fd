"""Every ``Resize`` and ``Upsample`` node of an ONNX model, as facts in ONNX terms.

:func:`resize_nodes` reads a model (a path, the file's bytes or an ``onnx.ModelProto``) and returns one
:class:`ResizeNode` per node, in graph order (subgraphs of ``If``/``Loop``/``Scan`` and local functions
included): its name, the model's opset and the operator version in force, every attribute with the schema's
default filled in, ``roi``/``scales``/``sizes`` and where each came from, and the input and output shapes.

Where a value comes from (``ResizeNode.sources``):

* ``"constant"``: an initializer or a ``Constant`` node (what importers such as Burn's treat as static);
* ``"computed"``: evaluated here from shape arithmetic (``Shape -> Slice -> Concat ...``) on the shapes that
  ONNX shape inference gives, within :data:`explorer.limits.FOLD_BYTES` of constants;
* ``"inferred"``: ``sizes`` read from the output shape that shape inference gives, when the input itself
  could not be evaluated;
* ``"runtime"``: an input known only when the model runs (shapes marked ``None``).

Shapes hold ``None`` (or the symbolic name) for dimensions that are not static; ``example_inputs`` fixes the
graph inputs' shapes (a dict name -> shape or array, or a sequence in input order), as a model with dynamic
axes is run.

A model file is untrusted input (``docs/threat-model.md``): it is read through :mod:`explorer.reading` (a
regular file, at most :data:`~explorer.limits.MAX_MODEL_BYTES`), and **external data is never read**, for
initializers and ``Constant`` nodes alike (a tensor stored in another file is a value known only at run time,
``"runtime"``), so a model cannot make a scan read a file next to it.  A node that cannot be read (scales that
are not finite, axes out of range, an attribute the parser chokes on) is returned with its ``problem``, and the
other nodes are read as usual.

>>> import onnx
>>> from onnx import TensorProto, helper
>>> x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
>>> y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
>>> scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 0.3, 0.3])
>>> node = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="down", mode="nearest")
>>> graph = helper.make_graph([node], "g", [x], [y], initializer=[scales])
>>> model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
>>> [n] = resize_nodes(model)
>>> n.name, n.op_version, n.attributes["coordinate_transformation_mode"], n.scales, n.output_shape
('down', 13, 'half_pixel', (1.0, 1.0, 0.3, 0.3), (1, 3, 3, 3))
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import math
import os
import re
import threading
from dataclasses import dataclass, field

import numpy as np

from .. import reading
from ..errors import ArgumentTypeError, ArgumentValueError, brief
from ..limits import FOLD_BYTES, MAX_MODEL_BYTES, MAX_OPSET, SCAN_MAX_GRAPH_NODES, SCAN_SHAPE_SECONDS

OP_TYPES = ("Resize", "Upsample")
#: ops a computed ``scales``/``sizes`` may be evaluated through (shape arithmetic only)
FOLDABLE = frozenset({
    "Shape", "Size", "Gather", "GatherElements", "Slice", "Concat", "Cast", "Mul", "Div", "Add", "Sub", "Floor",
    "Ceil", "Round", "Unsqueeze", "Squeeze", "Constant", "Identity", "Reshape", "Range", "ConstantOfShape",
    "Expand", "Sqrt", "Max", "Min", "Abs", "Neg", "ReduceProd", "Equal", "Where", "Not", "Less", "Greater",
    "CastLike", "Flatten", "Tile", "Split", "ReduceMin", "ReduceMax", "Reciprocal", "Pow", "Transpose", "Mod"})
_MAX_FOLD_NODES = 256
#: the inputs of each operator version: Resize-10 and Upsample-9 take (X, scales)
_INPUTS = {("Resize", 10): ("X", "scales"), ("Upsample", 9): ("X", "scales"), ("Upsample", 10): ("X", "scales"),
           ("Upsample", 7): ("X",), ("Upsample", 1): ("X",)}
_RESIZE_INPUTS = ("X", "roi", "scales", "sizes")


@dataclass(frozen=True)
class ResizeNode:
    """One ``Resize``/``Upsample`` node, in ONNX terms (see the module's docstring)."""

    name: str
    op_type: str
    opset: int                   # the model's default-domain opset
    op_version: int              # the operator version in force at that opset (Resize-10/11/13/18/19, ...)
    attributes: dict             # every attribute of the operator version, defaults filled in
    given: tuple                 # the attributes set on the node itself
    input_shape: tuple | None
    output_shape: tuple | None
    roi: tuple | None = None
    scales: tuple | None = None  # one per axis of the input (``axes`` expanded, 1.0 elsewhere)
    sizes: tuple | None = None   # one per axis of the input (``axes`` expanded, the input's length elsewhere)
    sources: dict = field(default_factory=dict)  # "roi"/"scales"/"sizes" -> constant | computed | inferred | runtime
    graph: str = ""              # "" for the main graph, else the path of the subgraph or function
    inputs: tuple = ()           # the node's input names
    problem: str | None = None   # why the node cannot run or be read (scales not finite, axes out of range, ...)
    readable: bool = True        # False: the node itself could not be read (``problem`` says why)
    origin: str = ""             # the module and source line the exporter recorded (:func:`origin`), or ""
    unknown_why: str = ""        # why its shapes are not known, when that is known (sizes from values, time)

    @property
    def mode(self) -> str:
        return self.attributes.get("mode", "nearest")

    @property
    def rank(self) -> int | None:
        if self.input_shape is not None:
            return len(self.input_shape)
        values = self.scales or self.sizes
        return None if values is None else len(values)

    @property
    def static(self) -> bool:
        """Input and output shapes are fully known."""
        return all(_is_length(d) for d in (self.input_shape or (None,))) and \
            all(_is_length(d) for d in (self.output_shape or (None,)))

    @property
    def analysable(self) -> bool:
        """Shapes known on every axis the node resizes: an axis it leaves alone (a dynamic batch) may be
        symbolic, with the same name in and out, since it does not change the weights.

        >>> ResizeNode("up", "Resize", 13, 13, {}, (), ("batch", 3, 4, 4), ("batch", 3, 8, 8),
        ...            scales=(1.0, 1.0, 2.0, 2.0)).analysable
        True
        """
        if self.input_shape is None or self.output_shape is None or len(self.input_shape) != len(self.output_shape):
            return False
        for a, (n, m) in enumerate(zip(self.input_shape, self.output_shape)):
            if _is_length(n) and _is_length(m):
                continue
            if n is None or n != m or (self.scales is not None and self.scales[a] != 1.0) or \
                    (self.sizes is not None and self.sizes[a] != n):
                return False
        return True

    def on_unit_axes(self) -> "ResizeNode":
        """This node with each symbolic axis (one it leaves alone: :attr:`analysable`) of length 1."""
        def unit(shape):
            return None if shape is None else tuple(d if _is_length(d) else 1 for d in shape)
        sizes = None if self.sizes is None else unit(self.sizes)
        return ResizeNode(**{**self.__dict__, "input_shape": unit(self.input_shape),
                             "output_shape": unit(self.output_shape), "sizes": sizes})

    @property
    def resized_axes(self) -> tuple[int, ...]:
        """Axes whose length changes or whose scale is not 1 (empty when the shapes are unknown)."""
        if not self.static:
            return ()
        axes = []
        for a, (n, m) in enumerate(zip(self.input_shape, self.output_shape)):
            if n != m or (self.scales is not None and self.scales[a] != 1.0):
                axes.append(a)
        return tuple(axes)

    def to_dict(self) -> dict:
        return {"node": self.name, "op_type": self.op_type, "opset": self.opset, "op_version": self.op_version,
                "attributes": dict(self.attributes), "given": list(self.given),
                "input_shape": _listed(self.input_shape), "output_shape": _listed(self.output_shape),
                "roi": _listed(self.roi), "scales": _listed(self.scales), "sizes": _listed(self.sizes),
                "sources": dict(self.sources), "graph": self.graph, "problem": self.problem, "origin": self.origin}


def _listed(value):
    return None if value is None else list(value)


def _is_length(d) -> bool:
    return isinstance(d, int) and not isinstance(d, bool)


# ------------------------------------------------------------------------------------------------ reading
def _onnx():
    try:
        import onnx
    except ImportError:  # pragma: no cover - the scan extra installs it
        raise ImportError("reading ONNX models needs the onnx package: pip install onnx") from None
    return onnx


def load_model(model):
    """An ``onnx.ModelProto`` from a path, the file's bytes or a ModelProto; weights in external data files
    are not read.  A missing or unreadable file (a FIFO, a device, more than MAX_MODEL_BYTES) raises
    :class:`~explorer.errors.UnreadableError`, a file that is not a model ArgumentValueError."""
    onnx = _onnx()
    if isinstance(model, onnx.ModelProto):
        return _weightless_proto(model)
    if isinstance(model, (bytes, bytearray, memoryview)):
        where = "the given bytes"
        data = _graph_bytes(reading.read_bytes_given(model, MAX_MODEL_BYTES, where), where)
    elif isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        where = repr(reading.printable(path))
        data = reading.read_file(path, MAX_MODEL_BYTES, what="model file",
                                 through=lambda mapped: _graph_bytes(mapped, where))
    else:
        raise ArgumentTypeError(f"model must be a path to an .onnx file, its bytes or an onnx.ModelProto, "
                                f"got {type(model).__name__}")
    try:
        proto = onnx.ModelProto()
        proto.ParseFromString(data)
    except Exception as exc:  # noqa: BLE001 - protobuf raises its own DecodeError (and RecursionError when nested)
        raise ArgumentValueError(f"{where} is not an ONNX model ({type(exc).__name__}: "
                                 f"{reading.printable(exc)})") from None
    if not proto.HasField("graph") or not proto.opset_import:
        raise ArgumentValueError(f"{where} is not an ONNX model (no graph or no opset_import)")
    count = graph_node_count(proto)
    if count > SCAN_MAX_GRAPH_NODES:
        raise ArgumentValueError(f"{where} has {count} nodes, more than the {SCAN_MAX_GRAPH_NODES} a scan reads "
                                 "(explorer.limits.SCAN_MAX_GRAPH_NODES)")
    return proto


def _weightless_proto(model):
    """``model`` itself when no initializer of its main graph holds more than :data:`FOLD_BYTES`, else a copy
    without those initializers' data (their name, type, dims and external-data entries kept), built field by
    field so the weights are never copied: what :func:`_graph_bytes` makes of the file's bytes."""
    onnx = _onnx()
    if not any(_tensor_bytes(t) > FOLD_BYTES for t in model.graph.initializer):
        return model
    light = onnx.ModelProto()
    for descriptor, value in model.ListFields():
        if descriptor.name != "graph":
            _set_field(light, descriptor, value)
    for descriptor, value in model.graph.ListFields():
        if descriptor.name != "initializer":
            _set_field(light.graph, descriptor, value)
    for tensor in model.graph.initializer:
        if _tensor_bytes(tensor) <= FOLD_BYTES:
            light.graph.initializer.add().CopyFrom(tensor)
            continue
        shell = light.graph.initializer.add()
        for descriptor, value in tensor.ListFields():
            if descriptor.number not in _TENSOR_DATA_FIELDS:
                _set_field(shell, descriptor, value)
    return light


#: TensorProto's data fields (float_data, int32_data, string_data, int64_data, raw_data, double_data, uint64_data)
_TENSOR_DATA_FIELDS = frozenset({4, 5, 6, 7, 9, 10, 11})


def _set_field(message, descriptor, value):
    target = getattr(message, descriptor.name)
    if hasattr(target, "extend"):  # a repeated field
        if descriptor.message_type is not None:
            for item in value:
                target.add().CopyFrom(item)
        else:
            target.extend(value)
    elif descriptor.message_type is not None:
        target.CopyFrom(value)
    else:
        setattr(message, descriptor.name, value)


def _graph_bytes(data, where: str):
    """The model's bytes without the weights' data (:func:`~explorer.advisor.onnx_weightless.weightless`: the
    initializers of more than :data:`_SMALL_VALUE_BYTES` keep their type and dims, but those whose values may
    decide a shape, :func:`_shape_deciding`, up to :data:`FOLD_BYTES`: read in a second pass, when there are
    any).  So a ResNet's thousands of small convolution and norm weights are never read either: the scan's
    memory follows the graph.  Bytes that are not a well-formed message are returned as they are, for the
    parser to report."""
    from .onnx_weightless import weightless
    try:
        light = weightless(data, _SMALL_VALUE_BYTES)
    except (ArgumentValueError, IndexError):
        return bytes(data)
    try:
        model = _onnx().ModelProto.FromString(light)
    except Exception:  # noqa: BLE001 - protobuf's DecodeError (and RecursionError): the parser reports it
        return light
    if graph_node_count(model) > SCAN_MAX_GRAPH_NODES:  # (refused by the caller: no walk over it here)
        return light
    graph = model.graph
    deciding = _shape_deciding(graph)
    wanted = {t.name for t in graph.initializer
              if t.name in deciding and not _holds_values(t) and not is_external(t) and _tensor_bytes(t) <= FOLD_BYTES}
    return weightless(data, _SMALL_VALUE_BYTES, keep=wanted) if wanted else light


def _holds_values(tensor) -> bool:
    """Whether an initializer's values are in the model as read: not external, at most :data:`FOLD_BYTES`, and
    not one whose data the reading left out (:func:`_graph_bytes`)."""
    if is_external(tensor) or _tensor_bytes(tensor) > FOLD_BYTES:
        return False
    return _tensor_bytes(tensor) == 0 or any(len(getattr(tensor, f)) for f in _DATA_FIELDS)


#: the fields of a TensorProto that hold its values
_DATA_FIELDS = ("raw_data", "float_data", "int32_data", "string_data", "int64_data", "double_data", "uint64_data")


def graph_node_count(model) -> int:
    """Nodes of the model's graph, its subgraphs and its local functions (a walk without recursion)."""
    stack, count = [model.graph], 0
    while stack:
        graph = stack.pop()
        count += len(graph.node)
        for node in graph.node:
            for attr in node.attribute:
                if attr.HasField("g"):
                    stack.append(attr.g)
                stack.extend(attr.graphs)
    return count + sum(len(f.node) for f in model.functions)


def model_opset(model) -> int:
    """The opset of the default domain ('' or 'ai.onnx'), from 1 to :data:`~explorer.limits.MAX_OPSET`."""
    for entry in model.opset_import:
        if entry.domain in ("", "ai.onnx"):
            version = int(entry.version)
            if not 1 <= version <= MAX_OPSET:
                raise ArgumentValueError(f"the model declares opset {brief(version)} of the default ONNX domain; an "
                                         f"opset is from 1 to {MAX_OPSET} (ONNX's newest is "
                                         f"{_onnx().defs.onnx_opset_version()})")
            return version
    raise ArgumentValueError("the model imports no opset of the default ONNX domain")


def _with_input_shapes(model, example_inputs):
    """A copy of ``model`` whose graph inputs have the shapes of ``example_inputs``."""
    onnx = _onnx()
    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initializers]
    if isinstance(example_inputs, dict):
        unknown = sorted(set(example_inputs) - {i.name for i in graph_inputs})
        if unknown:
            raise ArgumentValueError(f"example_inputs names {unknown} that are not inputs of the model; its "
                                     f"inputs are {[i.name for i in graph_inputs]}")
        pairs = [(i, example_inputs[i.name]) for i in graph_inputs if i.name in example_inputs]
    else:
        values = list(example_inputs) if isinstance(example_inputs, (list, tuple)) else [example_inputs]
        if len(values) > len(graph_inputs):
            raise ArgumentValueError(f"example_inputs has {len(values)} entries but the model has "
                                     f"{len(graph_inputs)} inputs ({[i.name for i in graph_inputs]})")
        pairs = list(zip(graph_inputs, values))
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    copy.graph.ClearField("value_info")  # the shapes the exporter recorded for other input shapes
    by_name = {i.name: i for i in copy.graph.input}
    for value_info, given in pairs:
        shape = _shape_of(given, value_info.name)
        tensor_type = by_name[value_info.name].type.tensor_type
        declared = tensor_type.shape.dim if tensor_type.HasField("shape") else []
        if declared and len(declared) != len(shape):
            raise ArgumentValueError(f"example input {value_info.name!r} has shape {shape} but the model declares "
                                     f"rank {len(declared)}")
        tensor_type.shape.ClearField("dim")
        for d in shape:
            tensor_type.shape.dim.add().dim_value = d
    return copy


def _shape_of(given, name) -> tuple[int, ...]:
    shape = getattr(given, "shape", given)
    try:
        shape = tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        raise ArgumentTypeError(f"example input {name!r} must be an array or a shape (a tuple of ints), "
                                f"got {given!r:.60}") from None
    if any(d < 0 for d in shape):
        raise ArgumentValueError(f"example input {name!r} has a negative dimension: {shape}")
    return shape


def _infer(model):
    """The model after ONNX shape inference with data propagation (the model itself when inference fails); where
    a Resize/Upsample's shapes stay unknown, ONNX Runtime's symbolic shape inference (when onnxruntime is
    installed) fills in what it knows (:func:`_symbolic_model`).  Returns the model and {Resize output name: why
    its shapes stay unknown} (its sizes follow run-time values, or symbolic inference ran past its time)."""
    onnx = _onnx()
    try:
        inferred = onnx.shape_inference.infer_shapes(model, check_type=False, strict_mode=False, data_prop=True)
    except Exception:  # noqa: BLE001 - an invalid or unusual model is still read, without inferred shapes
        inferred = model
    whys: dict = {}
    light = None
    if _resize_shapes_unknown(inferred.graph):
        light = _merge_folded_shapes(inferred, model, onnx)
    if _resize_shapes_unknown(inferred.graph):
        _merge_two_size_shapes(inferred, model, onnx, light)
    if _resize_shapes_unknown(inferred.graph):
        whys = _data_dependent(inferred.graph)
    if _resize_shapes_unknown(inferred.graph, skip=set(whys)):
        try:
            symbolic = with_deadline(SCAN_SHAPE_SECONDS, _symbolic_model, model)
        except OutOfTime:
            symbolic = None
            late = (f"ONNX Runtime's symbolic shape inference ran past its budget of {SCAN_SHAPE_SECONDS:g} s "
                    "(explorer.limits.SCAN_SHAPE_SECONDS); simplify the model's shape arithmetic (e.g. onnxsim) "
                    "or raise the limit to scan it")
            whys = {**_unknown_resizes(inferred.graph, late), **whys}
        if symbolic is not None:
            _merge_graph_shapes(inferred.graph, symbolic.graph)
    return inferred, whys


def _unknown_resizes(graph, why: str, outer=None) -> dict:
    """{output name: why} for every Resize/Upsample of ``graph`` and its subgraphs whose shapes are not known."""
    out = {}
    shapes = _Shapes(graph, outer)
    for node in graph.node:
        if node.op_type in OP_TYPES and node.input and node.output:
            if any(shapes.get(n) is None or not all(_is_length(d) for d in shapes.get(n))
                   for n in (node.input[0], node.output[0])):
                out[node.output[0]] = why
        for sub in subgraphs(node):
            out.update(_unknown_resizes(sub, why, shapes))
    return out


def _data_dependent(graph, scopes=(), owner: str = "") -> dict:
    """{output name: why} for each Resize/Upsample of ``graph`` (subgraphs included) whose ``sizes`` or
    ``scales`` follow the *values* of a tensor computed at run time, not shapes and constants: torchvision's
    keypoint head resizes each detected box's heatmap to that box's size, inside a Loop.  No static shape
    exists for such a node, so no shape inference is run for it.  ``owner``: the op type of the node whose
    subgraph ``graph`` is ("" for the main graph)."""
    where = f"an input of the {owner} body" if owner else "an input of the graph"
    scopes = ({n: node for node in graph.node for n in node.output if n},
              {t.name for t in graph.initializer}, {i.name: where for i in graph.input}), *scopes
    out = {}
    for node in graph.node:
        if node.op_type in OP_TYPES and node.input and node.output:
            for name in list(node.input[1:]):
                found = _value_source(name, scopes)
                if found is not None:
                    out[node.output[0]] = (f"its {'sizes' if name == node.input[-1] and len(node.input) > 3 else 'scales'}"
                                           f" follow the values of {found} at run time (data, not a shape): "
                                           "no static shape exists; the node's output size is known only when it runs")
                    break
        for sub in subgraphs(node):
            out.update(_data_dependent(sub, scopes, node.op_type))
    return out


def _value_source(name: str, scopes, limit: int = 4096) -> str | None:
    """What value-dependent tensor ``name`` is computed from (e.g. "'boxes' (the output of a Gather node)",
    "'i.1' (an input of the Loop body)"), or None when it comes from shapes and constants alone (or the walk
    passes ``limit`` nodes)."""
    stack, seen = [name], set()
    while stack and len(seen) < limit:
        current = stack.pop()
        if not current or current in seen:
            continue
        seen.add(current)
        producer, source = None, "an input of the graph"
        for producers, constants, inputs in scopes:
            if current in constants:
                producer = "constant"
                break
            if current in producers:
                producer = producers[current]
                break
            if current in inputs:
                source = inputs[current]
                break
        if producer == "constant":
            continue
        if producer is None:
            return f"{reading.printable(current)!r} ({source})"
        if producer.op_type in ("Shape", "Size", "Constant", "ConstantOfShape"):
            continue
        if producer.op_type not in FOLDABLE:
            return f"{reading.printable(current)!r} (the output of a {producer.op_type} node)"
        stack.extend(producer.input)
    return None


def _merge_folded_shapes(inferred, model, onnx, light=None):
    """Shapes ONNX's own inference reaches once the shape arithmetic it stops at is folded to constants, merged
    into ``inferred``: rounds of folding (:func:`_folded_constants`, on the shapes known so far) and inferring
    again, while that makes more shapes known.  A resize whose scales come from the image's sides (torchvision's
    detection transform) gets its output shape, the padding after it its own, and so on down the network; no
    sympy is involved, so it stays fast where ONNX Runtime's symbolic inference can take minutes.  ``light``:
    the model already made light (:func:`_without_large_initializers`), when the caller has it.  Returns the
    light model with what was folded (None when none could be made), for inferring it again with more known."""
    light = _without_large_initializers(model) if light is None else light
    if light is None:
        return None
    current, known = inferred, None
    for _ in range(_STATIC_FOLD_ROUNDS):
        shapes = _Shapes(current.graph)
        count = shapes.static_count()
        if known is not None and count <= known:
            break
        known = count
        folded = _folded_constants(light, shapes)
        if folded is None:
            break
        try:
            again = onnx.shape_inference.infer_shapes(folded, check_type=False, strict_mode=False, data_prop=True)
        except Exception:  # noqa: BLE001 - a model it cannot follow keeps the shapes found so far
            break
        light, current = folded, again
        _merge_graph_shapes(inferred.graph, again.graph)
        if not _resize_shapes_unknown(inferred.graph):
            break
    return light


def _merge_two_size_shapes(inferred, model, onnx, light=None) -> None:
    """Shapes of a model with lengths known only at run time, merged into ``inferred``: a symbolic axis of its
    inputs (a dynamic batch) and the count of what a :data:`RUN_TIME_LENGTHS` node keeps (the boxes
    NonMaxSuppression selects, the elements NonZero finds).  The model is inferred
    (:func:`_merge_folded_shapes`) with each of those lengths 2, and again with each 3; a dimension equal in
    both does not depend on them (a resized height), one that differs follows them and gets a name (the
    inputs' symbolic name for 2 and 3 when they have one and nothing else varies, else ``runtime_<a>_<b>``:
    two axes with one name had the same length in both runs).  So a dynamic batch, or a detection count,
    never blocks a node whose resized axes are static, whatever shape arithmetic follows it.  ``light``: the
    model made light and folded as far as its static shapes go (:func:`_merge_folded_shapes`), when known."""
    light = _without_large_initializers(model) if light is None else light
    if light is None:
        return
    names = {d.dim_param for i in model.graph.input for d in i.type.tensor_type.shape.dim
             if not d.HasField("dim_value")}
    known = {vi.name: vi for vi in list(inferred.graph.value_info)}
    pins = [known[o] for node in model.graph.node if node.op_type in RUN_TIME_LENGTHS and node.domain in ("", "ai.onnx")
            for o in node.output if o in known and _value_info_shape(known[o]) is not None
            and not all(_is_length(d) for d in _value_info_shape(known[o]))]
    if not names and not pins:
        return
    runs = []
    for length in (2, 3):
        sized = onnx.ModelProto()
        sized.CopyFrom(light)
        for i in sized.graph.input[:len(model.graph.input)]:
            for d in i.type.tensor_type.shape.dim:
                if not d.HasField("dim_value"):
                    d.dim_value = length
        for vi in pins:  # (ONNX's inference keeps a length given where it infers none)
            pinned = sized.graph.value_info.add()
            pinned.CopyFrom(vi)
            for d in pinned.type.tensor_type.shape.dim:
                if not d.HasField("dim_value"):
                    d.dim_value = length
        try:
            shaped = onnx.shape_inference.infer_shapes(sized, check_type=False, strict_mode=False, data_prop=True)
        except Exception:  # noqa: BLE001 - a model it cannot follow keeps the shapes found so far
            return
        _merge_folded_shapes(shaped, sized, onnx, light=sized)
        runs.append({vi.name: vi for vi in list(shaped.graph.value_info) + list(shaped.graph.output)})
    name = next(iter(names)) if len(names) == 1 and "" not in names and not pins else None
    found = {}
    for key, vi in runs[0].items():
        other = runs[1].get(key)
        two, three = _value_info_shape(vi), None if other is None else _value_info_shape(other)
        if two is None or three is None or len(two) != len(three) or \
                not all(_is_length(d) for d in two + three):
            continue
        merged = onnx.ValueInfoProto()
        merged.CopyFrom(vi)
        for d, a, b in zip(merged.type.tensor_type.shape.dim, two, three):
            if a == b:
                continue
            d.Clear()
            if (a, b) == (2, 3) and name is not None:
                d.dim_param = name
            elif a < b:  # (a length that shrinks as they grow is no count of them)
                d.dim_param = f"runtime_{a}_{b}"
        found[key] = merged
    _merge_shapes(inferred.graph, found)


#: ops whose output length may be a count known only when they run: what NonMaxSuppression, NonZero, Compress
#: and Unique keep, and an If's or a Loop's output whose length ONNX does not infer (torchvision's batched NMS
#: is an If on whether there are boxes at all, its else branch the NonMaxSuppression)
RUN_TIME_LENGTHS = frozenset({"NonZero", "NonMaxSuppression", "Compress", "Unique", "If", "Loop"})


#: rounds of folding and ONNX's inference (:func:`_merge_folded_shapes`): one per resize -> shape -> resize
#: dependency down a network
_STATIC_FOLD_ROUNDS = 12


class OutOfTime(BaseException):
    """Raised inside a call that ran past its deadline (:func:`with_deadline`).  A BaseException, like
    KeyboardInterrupt, so the ``except Exception`` of the code it interrupts does not swallow it."""


def with_deadline(seconds: float, call, *args, **kwargs):
    """``call(*args, **kwargs)``, or OutOfTime raised from it once it has run ``seconds``.

    A watchdog thread raises the exception in the calling thread (``PyThreadState_SetAsyncExc``), which sees it
    at its next Python instruction: pure-Python work (sympy simplifying the shape arithmetic of a detection
    model) stops within milliseconds, a long C call when it returns.  Costs nothing while the call runs, and
    the exception never escapes this function once it has returned.

    >>> with_deadline(5, sum, [1, 2, 3])
    6
    >>> def spin():
    ...     while True:
    ...         pass
    >>> with_deadline(0.05, spin)
    Traceback (most recent call last):
    explorer.advisor.onnx_resize.OutOfTime: ran past 0.05 s
    """
    thread, lock, stop = ctypes.c_ulong(threading.get_ident()), threading.Lock(), threading.Event()
    state = {"done": False, "fired": False}

    def watch():
        if stop.wait(seconds):
            return
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(thread, ctypes.py_object(OutOfTime))

    try:
        threading.Thread(target=watch, name="explorer-deadline", daemon=True).start()
        return call(*args, **kwargs)
    except OutOfTime:
        raise OutOfTime(f"ran past {seconds:g} s") from None
    finally:
        with lock:
            state["done"] = True
            if state["fired"]:  # set just as the call returned: cleared before it can be raised elsewhere
                ctypes.pythonapi.PyThreadState_SetAsyncExc(thread, None)
        stop.set()


def _resize_shapes_unknown(graph, outer=None, skip=frozenset()) -> bool:
    """Whether some Resize/Upsample of ``graph`` or its subgraphs (but those whose output is in ``skip``) has an
    input or output shape not known on an axis it resizes."""
    shapes = _Shapes(graph, outer)
    for node in graph.node:
        if node.op_type in OP_TYPES and node.input and node.output and node.output[0] not in skip:
            before, after = shapes.get(node.input[0]), shapes.get(node.output[0])
            if before is None or after is None or len(before) != len(after) or \
                    any(not (_is_length(n) and _is_length(m)) and (not n or n != m) for n, m in zip(before, after)):
                return True  # (an axis it leaves alone may stay symbolic: the same name in and out)
        for sub in subgraphs(node):
            if _resize_shapes_unknown(sub, shapes, skip):
                return True
    return False


def _merge_graph_shapes(graph, symbolic_graph):
    """:func:`_merge_shapes` for a graph and, node by node, the subgraphs of its Loop/If/Scan nodes (the two
    graphs have the same nodes in the same order)."""
    _merge_shapes(graph, {vi.name: vi for vi in list(symbolic_graph.value_info) + list(symbolic_graph.output)})
    if len(graph.node) != len(symbolic_graph.node):
        return
    for node, other in zip(graph.node, symbolic_graph.node):
        if node.op_type != other.op_type and not (other.op_type == "Constant" and node.output == other.output):
            return  # (a node folded to a Constant: :func:`_folded_constants`)
        theirs = {a.name: a for a in other.attribute}
        for attr in node.attribute:
            twin = theirs.get(attr.name)
            if twin is None:
                continue
            if attr.HasField("g") and twin.HasField("g"):
                _merge_graph_shapes(attr.g, twin.g)
            for sub, sub_twin in zip(attr.graphs, twin.graphs):
                _merge_graph_shapes(sub, sub_twin)


def _symbolic_model(model):
    """The model after ONNX Runtime's symbolic shape inference (``onnxruntime.tools``), which evaluates the shape
    arithmetic exporters emit (Reshape to a Shape, ReduceMin/Max, Reciprocal, GroupNorm's pattern below opset
    18) and keeps a dynamic batch symbolic; None when onnxruntime is not installed or it fails."""
    inference = _symbolic_shape_inference()
    if inference is None:
        return None
    light = _without_large_initializers(model)  # the graph with its small constants: weights give no shape
    if light is None:
        return None
    try:
        out = inference.infer_shapes(light, auto_merge=True, guess_output_rank=False)
    except Exception:  # noqa: BLE001 - a model it cannot follow keeps ONNX's shapes
        out = None
    # arithmetic it does not evaluate on constants or static shapes (DPT's Pow(16, 0.5) -> Cast -> Reshape of the
    # position embedding, its Pow(Shape(x)[1] - 1, 0.5) patch grid): those nodes made Constants, inferred again,
    # as long as that makes more shapes known
    for _ in range(_FOLD_ROUNDS):
        if out is not None and not _resize_shapes_unknown(out.graph):
            break
        shapes = {} if out is None else _Shapes(out.graph)
        folded = _folded_constants(light, shapes)
        if folded is None:
            break
        try:
            again = inference.infer_shapes(folded, auto_merge=True, guess_output_rank=False)
        except Exception:  # noqa: BLE001 - as above
            break
        if again is None:
            break
        light, out = folded, again
    return out


#: rounds of folding and inferring again (:func:`_symbolic_model`)
_FOLD_ROUNDS = 4


def _folded_constants(model, shapes):
    """A copy of ``model`` (None when nothing folds) whose main-graph nodes computing a value from constants and
    the static shapes of ``shapes`` (name -> shape) alone (shape arithmetic of :data:`FOLDABLE`, at most
    :data:`FOLD_BYTES` each) are Constant nodes of that value, in place: same node count, same outputs.  Only
    values that may decide a shape are folded (:func:`_shape_deciding`): a detection model's anchor grids would
    be megabytes of constants in every copy inference makes, and tell it nothing their shapes do not."""
    onnx = _onnx()
    deciding = _shape_deciding(model.graph)
    known = {t.name: t for t in model.graph.initializer if _holds_values(t)}
    values: dict = {}
    constants = {}  # a Constant node's value is read only when a node folded from it needs it
    nodes, changed = [], False
    opset = model_opset(model)

    def ready(name) -> bool:
        if name in constants:
            values[name] = _constant_value(constants.pop(name))
        return values.get(name) is not None or name in known

    for node in model.graph.node:
        value = None
        if node.op_type == "Constant":
            if len(node.output) == 1:
                constants[node.output[0]] = node
        elif not (len(node.output) == 1 and node.output[0] in deciding):
            pass
        elif node.op_type in ("Shape", "Size") and node.domain in ("", "ai.onnx") and node.input:
            shape = shapes.get(node.input[0])
            if shape is not None and all(_is_length(d) for d in shape):
                bounds = {a.name: a.i for a in node.attribute if a.name in ("start", "end")}
                value = (np.asarray(math.prod(shape), dtype=np.int64) if node.op_type == "Size" else
                         np.asarray(shape[bounds.get("start"):bounds.get("end")], dtype=np.int64))
                node = onnx.helper.make_node("Constant", [], [node.output[0]], name=node.name,
                                             value=onnx.numpy_helper.from_array(value, node.output[0]))
                changed = True
        elif (node.op_type in FOLDABLE and node.op_type not in ("Shape", "Size") and node.domain in ("", "ai.onnx")
              and len(node.output) == 1 and node.input
              and all(not i or ready(i) for i in node.input)):
            feeds = {i: values[i] if values.get(i) is not None else onnx.numpy_helper.to_array(known[i])
                     for i in node.input if i}
            try:
                value = _evaluate([node], feeds, node.output[0], opset)
            except Exception:  # noqa: BLE001 - a node the evaluator cannot run stays as it is
                value = None
            if value is not None and value.nbytes <= FOLD_BYTES:
                node = onnx.helper.make_node("Constant", [], [node.output[0]], name=node.name,
                                             value=onnx.numpy_helper.from_array(value, node.output[0]))
                changed = True
            else:
                value = None
        if value is not None and len(node.output) == 1:
            values[node.output[0]] = value
        nodes.append(node)
    if not changed:
        return None
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.ClearField("node")
    out.graph.node.extend(nodes)
    return out


@functools.cache
def _symbolic_shape_inference():
    """onnxruntime's ``SymbolicShapeInference`` class, or None without onnxruntime (or sympy).  Its module is loaded
    from its file, not through ``onnxruntime.tools``, whose package imports torch when installed (a second and
    hundreds of MB that shape inference does not use)."""
    import importlib.util
    try:
        spec = importlib.util.find_spec("onnxruntime")
        if spec is None or not spec.submodule_search_locations:
            return None
        path = os.path.join(list(spec.submodule_search_locations)[0], "tools", "symbolic_shape_infer.py")
        if not os.path.isfile(path):
            return None
        loader = importlib.util.spec_from_file_location("_explorer_ort_symbolic_shape_infer", path)
        module = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(module)
        return module.SymbolicShapeInference
    except Exception:  # noqa: BLE001 - onnxruntime (or sympy) missing or changed: ONNX's inference alone
        return None


def _without_large_initializers(model):
    """A copy of ``model`` (None when it cannot be made safely) for shape inference: initializers larger than
    :data:`FOLD_BYTES` (weights) or stored as external data, those of more than :data:`_SMALL_VALUE_BYTES` whose
    values decide no shape (:func:`_shape_deciding`: a ResNet's many small convolution and norm weights), and
    ``Constant`` nodes whose tensor is stored as external data, become graph inputs of the same type and shape:
    inference needs their shapes, never their values, and no external file is ever read.  So each round of
    inference copies the graph and its shape arithmetic, not megabytes of weights.  A model with another node
    holding external data, or external data inside a subgraph or function, gets None."""
    onnx = _onnx()
    for function in model.functions:
        if any(_external_attribute(node) for node in function.node):
            return None
    light = onnx.ModelProto()
    for field_name in ("ir_version", "producer_name", "domain", "model_version"):
        setattr(light, field_name, getattr(model, field_name))
    light.opset_import.extend(model.opset_import)
    light.functions.extend(model.functions)
    graph = light.graph
    graph.name = model.graph.name
    graph.input.extend(model.graph.input)
    names = {i.name for i in model.graph.input}
    for node in model.graph.node:
        if node.op_type == "Constant" and _external_attribute(node):
            tensors = [a.t for a in node.attribute if a.HasField("t")]
            if len(tensors) != 1 or len(node.output) != 1:
                return None
            graph.input.append(onnx.helper.make_tensor_value_info(node.output[0], tensors[0].data_type,
                                                                  list(tensors[0].dims)))
            continue
        if _external_attribute(node) or _external_in_subgraphs(node):
            return None
        graph.node.append(node)
    graph.output.extend(model.graph.output)
    graph.value_info.extend(model.graph.value_info)
    decide = None
    for tensor in model.graph.initializer:
        size = _tensor_bytes(tensor)
        if size > _SMALL_VALUE_BYTES and size <= FOLD_BYTES and not is_external(tensor) and decide is None:
            decide = _shape_deciding(model.graph)
        if not _holds_values(tensor) or (size > _SMALL_VALUE_BYTES and tensor.name not in decide):
            if tensor.name not in names:
                graph.input.append(onnx.helper.make_tensor_value_info(tensor.name, tensor.data_type,
                                                                      list(tensor.dims)))
        else:
            graph.initializer.append(tensor)
    return light


#: initializers up to this size keep their values in the graph shape inference runs on, whatever they feed
_SMALL_VALUE_BYTES = 4096
#: the inputs whose *values* decide an op's output shape (by position; "Reduce*" ops: their axes)
_SHAPE_INPUTS = {"Reshape": (1,), "Expand": (1,), "Tile": (1,), "ConstantOfShape": (0,), "Range": (0, 1, 2),
                 "Slice": (1, 2, 3, 4), "Pad": (1, 3), "Resize": (1, 2, 3), "Upsample": (1,), "Squeeze": (1,),
                 "Unsqueeze": (1,), "Split": (1,), "TopK": (1,), "OneHot": (1,), "NonZero": (0,),
                 "Compress": (1,), "Unique": (0,), "NonMaxSuppression": (0, 1, 2, 3, 4), "CenterCropPad": (1,),
                 "Loop": (0, 1), "If": (0,)}


def _shape_deciding(graph) -> set:
    """Names of the main graph whose values may decide a shape: the value inputs of :data:`_SHAPE_INPUTS`, what
    they are computed from by the shape arithmetic inference can fold (:data:`FOLDABLE`; not through a
    ``Shape``/``Size``, whose input's values do not matter, nor a Conv, which no inference evaluates), and every
    name a subgraph reads from the main graph."""
    producers = {o: node for node in graph.node for o in node.output if o}
    stack = []
    for node in graph.node:
        positions = _SHAPE_INPUTS.get(node.op_type, (1,) if node.op_type.startswith("Reduce") else ())
        stack.extend(node.input[i] for i in positions if i < len(node.input))
        for sub in subgraphs(node):
            stack.extend(_names_read(sub))
    seen = set()
    while stack:
        name = stack.pop()
        if not name or name in seen:
            continue
        seen.add(name)
        producer = producers.get(name)
        if producer is not None and producer.op_type in FOLDABLE and producer.op_type not in ("Shape", "Size"):
            stack.extend(producer.input)
    return seen


def _names_read(graph) -> set:
    """Every name the nodes of ``graph`` and of its subgraphs read."""
    out, stack = set(), [graph]
    while stack:
        g = stack.pop()
        for node in g.node:
            out.update(node.input)
            stack.extend(subgraphs(node))
    return out


def _external_in_subgraphs(node) -> bool:
    """Whether a subgraph of ``node`` (a walk without recursion) holds a tensor stored as external data."""
    stack = subgraphs(node)
    while stack:
        graph = stack.pop()
        if any(is_external(t) for t in graph.initializer):
            return True
        for inner in graph.node:
            if _external_attribute(inner):
                return True
            stack.extend(subgraphs(inner))
    return False


def _merge_shapes(graph, found: dict):
    """Write into ``graph``'s value_info each value_info of ``found`` whose shape knows as many dimensions or
    more (its symbolic names are consistent across the graph: a dynamic batch is one name, not one per value)."""
    known = {vi.name: vi for vi in list(graph.input) + list(graph.value_info) + list(graph.output)}
    for name, new in found.items():
        vi = known.get(name)
        if vi is not None and vi.type == new.type:
            continue
        shape = _value_info_shape(new)
        if shape is None:
            continue
        old = _value_info_shape(vi) if vi is not None else None
        if old is not None and (len(old) != len(shape) or
                                sum(map(_is_length, old)) > sum(map(_is_length, shape))):
            continue
        if vi is None:
            graph.value_info.add().CopyFrom(new)
        else:
            vi.type.CopyFrom(new.type)


# ------------------------------------------------------------------------------------------------ graphs
class _Graph:
    """Names -> producers, constants and shapes of one graph (and what it sees of its parents)."""

    def __init__(self, graph, parent: "_Graph | None" = None, path: str = ""):
        self.graph, self.parent, self.path = graph, parent, path
        self.initializers = {t.name: t for t in graph.initializer}
        self.producers = {}
        for node in graph.node:
            for out in node.output:
                if out:
                    self.producers[out] = node
        self.shapes = {}
        for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
            shape = _value_info_shape(vi)
            if shape is not None:
                self.shapes[vi.name] = shape
        for t in graph.initializer:
            self.shapes.setdefault(t.name, tuple(int(d) for d in t.dims))

    def shape(self, name):
        if name in self.shapes:
            return self.shapes[name]
        return self.parent.shape(name) if self.parent is not None else None

    def initializer(self, name):
        if name in self.initializers:
            return self.initializers[name]
        return self.parent.initializer(name) if self.parent is not None else None

    def producer(self, name):
        if name in self.producers:
            return self.producers[name]
        return self.parent.producer(name) if self.parent is not None else None


def attribute_graphs(attr) -> list:
    """The subgraphs one attribute holds: ``g`` (an If's branch, a Loop's body) and ``graphs`` (a list of them)."""
    return list(attr.graphs) + ([attr.g] if attr.HasField("g") else [])


def subgraphs(node) -> list:
    """Every subgraph of ``node``'s attributes (none for a node that is not a Loop, If, Scan or the like)."""
    return [g for attr in node.attribute for g in attribute_graphs(attr)]


def _value_info_shape(vi):
    """A value_info's shape: a tuple of lengths (int), symbolic names (str) and None for an unknown dimension;
    None when no shape is known."""
    tensor = vi.type.tensor_type
    if not vi.type.HasField("tensor_type") or not tensor.HasField("shape"):
        return None
    dims = []
    for d in tensor.shape.dim:
        kind = d.WhichOneof("value")
        dims.append(d.dim_value if kind == "dim_value" else d.dim_param if kind == "dim_param" else None)
    return tuple(dims)


class _Shapes:
    """name -> shape (:func:`_value_info_shape`) of a graph's inputs, value_info and outputs, and of what it sees
    of ``outer`` (the graph a subgraph is in); each shape is read when asked for, so a look at a few Resize
    nodes does not read the shapes of the thousands of values around them."""

    def __init__(self, graph, outer: "_Shapes | None" = None):
        self.infos = {vi.name: vi for vi in (*graph.input, *graph.value_info, *graph.output)}
        self.outer, self.read = outer, {}

    def get(self, name, default=None):
        if name in self.read:
            return self.read[name]
        vi = self.infos.get(name)
        if vi is None:
            return self.outer.get(name, default) if self.outer is not None else default
        shape = self.read[name] = _value_info_shape(vi)
        return shape

    def static_count(self) -> int:
        """How many values of the graph itself have a shape of lengths only."""
        return sum(1 for vi in self.infos.values() if vi.type.tensor_type.HasField("shape")
                   and all(d.WhichOneof("value") == "dim_value" for d in vi.type.tensor_type.shape.dim))


def _tensor_bytes(tensor) -> int:
    onnx = _onnx()
    try:
        itemsize = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type)).itemsize
    except Exception:  # noqa: BLE001 - strings and unknown types
        itemsize = 8
    return math.prod(int(d) for d in tensor.dims) * itemsize


def is_external(tensor) -> bool:
    """A tensor whose data is stored in another file (never read: see the module's docstring)."""
    onnx = _onnx()
    return tensor.data_location == onnx.TensorProto.EXTERNAL or len(tensor.external_data) > 0


def _external_attribute(node) -> bool:
    """A node with a tensor attribute stored as external data (a Constant, a ConstantOfShape ...)."""
    for attr in node.attribute:
        tensors = [attr.t] if attr.HasField("t") else []
        tensors += list(attr.tensors)
        if attr.HasField("sparse_tensor"):
            tensors += [attr.sparse_tensor.values, attr.sparse_tensor.indices]
        for sparse in attr.sparse_tensors:
            tensors += [sparse.values, sparse.indices]
        if any(is_external(t) for t in tensors):
            return True
    return False


def _constant_value(node):
    """The value of a Constant node as an array (None for a sparse or unknown attribute, and for a tensor stored
    as external data: a value known only at run time)."""
    onnx = _onnx()
    if _external_attribute(node):
        return None
    for attr in node.attribute:
        if attr.name == "value":
            if _tensor_bytes(attr.t) > FOLD_BYTES:
                return None
            return onnx.numpy_helper.to_array(attr.t)
        if attr.name in ("value_float", "value_int", "value_floats", "value_ints"):
            return np.asarray(onnx.helper.get_attribute_value(attr))
    return None


def _constant(graph: _Graph, name: str):
    """The value of ``name`` when it is an initializer or a Constant (through Identity), else None."""
    onnx = _onnx()
    seen = 0
    while seen < 16:
        seen += 1
        tensor = graph.initializer(name)
        if tensor is not None:
            return onnx.numpy_helper.to_array(tensor) if _holds_values(tensor) else None
        node = graph.producer(name)
        if node is None:
            return None
        if node.op_type == "Constant":
            return _constant_value(node)
        if node.op_type == "Identity":
            name = node.input[0]
            continue
        return None
    return None


def _fold(graph: _Graph, name: str):
    """Evaluate ``name`` from constants and static shapes through shape arithmetic, or None."""
    _onnx()
    nodes, feeds, budget = [], {}, [FOLD_BYTES]
    visited = set()

    def leaf(value_name) -> bool:
        value = _constant(graph, value_name)
        if value is not None:
            feeds[value_name] = value
            return True
        return False

    def visit(value_name) -> bool:
        if value_name in visited or value_name in feeds or not value_name:
            return True
        visited.add(value_name)
        if leaf(value_name):
            budget[0] -= feeds[value_name].nbytes
            return budget[0] >= 0
        node = graph.producer(value_name)
        if node is None or node.op_type not in FOLDABLE or node.domain not in ("", "ai.onnx") \
                or _external_attribute(node):
            return False
        if node.op_type in ("Shape", "Size"):
            value = _static_shape_value(graph, node)
            if value is None:
                return False
            feeds[value_name] = value
            return True
        if len(nodes) >= _MAX_FOLD_NODES:
            return False
        if not all(visit(i) for i in node.input):
            return False
        nodes.append(node)
        return True

    try:
        if not visit(name):
            return None
        return feeds[name] if name in feeds else _evaluate(nodes, feeds, name, graph_opset(graph))
    except Exception:  # noqa: BLE001 - anything the evaluator cannot do stays unevaluated
        return None


def _static_shape_value(graph: _Graph, node):
    """The value of a Shape (with its start/end) or Size node whose input has a fully static shape, or None."""
    shape = graph.shape(node.input[0])
    if shape is None or not all(_is_length(d) for d in shape):
        return None
    if node.op_type == "Size":
        return np.asarray(math.prod(shape), dtype=np.int64)
    bounds = {attr.name: attr.i for attr in node.attribute if attr.name in ("start", "end")}
    return np.asarray(shape[bounds.get("start"):bounds.get("end")], dtype=np.int64)


def _evaluate(nodes, feeds: dict, name: str, opset: int):
    """Run ``nodes`` on ``feeds`` with ONNX's reference evaluator and return the value ``name``."""
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    inputs = [helper.make_tensor_value_info(k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
              for k, v in feeds.items()]
    sub = helper.make_graph(nodes, "fold", inputs, [helper.make_tensor_value_info(name, 0, None)])
    sub_model = helper.make_model(sub, opset_imports=[helper.make_opsetid("", opset)])
    (value,) = ReferenceEvaluator(sub_model).run([name], feeds)
    return np.asarray(value)


def graph_opset(graph: _Graph) -> int:
    while graph.parent is not None:
        graph = graph.parent
    return graph.opset


# ------------------------------------------------------------------------------------------------ nodes
def _schema(op_type: str, opset: int):
    onnx = _onnx()
    try:
        return onnx.defs.get_schema(op_type, opset, "")
    except Exception:  # noqa: BLE001 - opset older than the operator
        return None


def _attributes(node, schema) -> tuple[dict, tuple]:
    """Every attribute of the operator version (defaults filled in) and the names the node sets."""
    onnx = _onnx()
    values, given = {}, []
    if schema is not None:
        for name, attr in schema.attributes.items():
            default = attr.default_value
            if default is not None and default.type != onnx.AttributeProto.UNDEFINED:
                value = onnx.helper.get_attribute_value(default)
                values[name] = value.decode() if isinstance(value, bytes) else value
            else:
                values[name] = None
    for attr in node.attribute:
        value = onnx.helper.get_attribute_value(attr)
        if isinstance(value, bytes):
            value = value.decode("utf-8", errors="replace")
        elif isinstance(value, list):
            value = tuple(v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v for v in value)
        values[attr.name] = value
        given.append(attr.name)
    return values, tuple(given)


def _value(graph: _Graph, name: str):
    """(value, source) of an optional input: constant, computed, runtime, or (None, None) when absent."""
    if not name:
        return None, None
    value = _constant(graph, name)
    if value is not None:
        return value, "constant"
    value = _fold(graph, name)
    if value is not None:
        return value, "computed"
    return None, "runtime"


def _short(value) -> float:
    """A float32 as the shortest decimal that reads back as the same float32 (0.3, not 0.30000001192...)."""
    return float(str(np.float32(value)))


def _expand(values, axes, rank, fill):
    """Per-axis values of length ``rank`` from values over ``axes`` (``fill(axis)`` elsewhere)."""
    if axes is None:
        return tuple(values)
    out = [fill(a) for a in range(rank)]
    for a, v in zip(axes, values):
        out[a] = v
    return tuple(out)


def _input_values(graph: _Graph, by_role: dict) -> tuple[dict, dict]:
    """({role: where its value comes from}, {role: its value as a tuple}) for the roi, scales and sizes inputs.
    An empty tensor stands for an absent input; a runtime value has a source and no value."""
    sources, values = {}, {}
    for role, convert in (("roi", _short), ("scales", _short), ("sizes", int)):
        value, source = _value(graph, by_role.get(role, ""))
        if source is None or (value is not None and value.size == 0):
            continue
        sources[role] = source
        if value is not None:
            values[role] = tuple(convert(v) for v in value.reshape(-1))
    return sources, values


def _upsample_attribute_scales(node, op_version: int, attributes: dict):
    """Upsample's scales given as attributes (``scales`` in opset 7-8, height/width_scale before 7), or None."""
    if node.op_type != "Upsample":
        return None
    if op_version < 7 and attributes.get("height_scale") is not None:
        return (1.0, 1.0, float(attributes["height_scale"]), float(attributes["width_scale"]))
    if attributes.get("scales") is not None:
        return tuple(_short(v) for v in attributes["scales"])
    return None


_TRACE_LINE = re.compile(r'File "([^"\n]*)", line (\d+)')


def origin(node) -> str:
    """The module and the source line a node was exported from, as the dynamo exporter records them in the node's
    ``metadata_props`` (``pkg.torch.onnx.name_scopes``, ``pkg.torch.onnx.class_hierarchy``,
    ``pkg.torch.onnx.stack_trace``): ``"decoder.up (Upsample), model.py line 7"``; "" without them.

    >>> from onnx import helper
    >>> node = helper.make_node("Resize", ["x"], ["y"])
    >>> for key, value in [("pkg.torch.onnx.name_scopes", "['', 'decoder', 'up', 'interpolate']"),
    ...                    ("pkg.torch.onnx.class_hierarchy", "['m.Net', 'm.Decoder', 'm.Up', 'aten.upsample']"),
    ...                    ("pkg.torch.onnx.stack_trace", 'File "/src/m.py", line 7, in forward\\n    F.interpolate(x)')]:
    ...     entry = node.metadata_props.add(); entry.key, entry.value = key, value
    >>> origin(node)
    'decoder.up (Up), m.py line 7'
    """
    props = {p.key: p.value for p in node.metadata_props}
    scopes = _listed_names(props.get("pkg.torch.onnx.name_scopes", ""))
    classes = [c for c in _listed_names(props.get("pkg.torch.onnx.class_hierarchy", "")) if not c.startswith("aten.")]
    module = ".".join(s for s in scopes[:-1] if s)
    parts = []
    if module or classes:
        kind = classes[-1].rsplit(".", 1)[-1] if classes else ""
        parts.append(f"{module or '(top module)'}" + (f" ({kind})" if kind else ""))
    frames = _TRACE_LINE.findall(props.get("pkg.torch.onnx.stack_trace", ""))
    if frames:
        path, line = frames[-1]
        parts.append(f"{os.path.basename(path) or path} line {line}")
    return reading.printable(", ".join(parts), 200)


def _listed_names(text: str) -> list[str]:
    """The strings of a printed Python list of strings (``"['', 'decoder']"``), without evaluating it."""
    return re.findall(r"'((?:[^'\\]|\\.)*)'", text[:10_000])


def _name(node) -> str:
    return node.name or (node.output[0] if node.output else "")


def _problem(node, rank, axes, scales) -> str | None:
    """Why ONNX Runtime refuses the node before it runs (measured with ONNX Runtime 1.32), or None."""
    name = reading.printable(_name(node))
    if axes is not None and rank is not None:
        bad = [a for a in axes if not -rank <= a < rank]
        if bad:
            return (f"node {name!r}: axes={tuple(axes)} is out of range for its rank-{rank} input (ONNX Runtime: "
                    f"\"Unexpected axis value: {bad[0]}. Expected range [{-rank}, {rank})\")")
        if len({a % rank for a in axes}) != len(axes):
            return f"node {name!r}: axes={tuple(axes)} repeats an axis"
    if scales is not None:
        if not all(math.isfinite(s) for s in scales):
            return (f"node {name!r}: scales={tuple(scales)} holds a value that is not finite (ONNX Runtime: "
                    "\"Scale value must be finite.\")")
        if any(s <= 0 for s in scales):
            return (f"node {name!r}: scales={tuple(scales)} holds a value that is not positive (ONNX Runtime: "
                    "\"Scale value should be greater than 0.\")")
    return None


def _unread(graph: _Graph, node, opset: int, exc: Exception) -> ResizeNode:
    """A node whose reading failed: its name and the reason, so the other nodes are still read."""
    return ResizeNode(name=_name(node), op_type=node.op_type, opset=opset, op_version=opset, attributes={},
                      given=(), input_shape=None, output_shape=None, graph=graph.path, inputs=tuple(node.input),
                      readable=False, problem=(f"node {reading.printable(_name(node))!r} cannot be read ({type(exc).__name__}: "
                               f"{reading.printable(exc)})"))


def _node(graph: _Graph, node, opset: int) -> ResizeNode:
    """One node; a node the reading fails on (a malformed attribute, an unusual tensor) comes back with its
    ``problem`` instead of stopping the other nodes."""
    try:
        return _read_node(graph, node, opset)
    except Exception as exc:  # noqa: BLE001 - the boundary with onnx and numpy: one node never stops the rest
        return _unread(graph, node, opset, exc)


def _read_node(graph: _Graph, node, opset: int) -> ResizeNode:
    schema = _schema(node.op_type, opset)
    op_version = schema.since_version if schema is not None else opset
    attributes, given = _attributes(node, schema)
    if node.op_type == "Upsample" and op_version < 7:  # Upsample-1: height_scale, width_scale attributes
        attributes.setdefault("mode", "nearest")
    names = _INPUTS.get((node.op_type, op_version), _RESIZE_INPUTS)
    by_role = {role: (node.input[k] if k < len(node.input) else "") for k, role in enumerate(names)}
    input_shape = graph.shape(by_role["X"])
    output_shape = graph.shape(node.output[0]) if node.output else None
    rank = len(input_shape) if input_shape is not None else None

    sources, values = _input_values(graph, by_role)
    roi, scales, sizes = values.get("roi"), values.get("scales"), values.get("sizes")
    upsample_scales = _upsample_attribute_scales(node, op_version, attributes)
    if upsample_scales is not None:
        scales, sources["scales"] = upsample_scales, "constant"

    axes = attributes.get("axes")
    if axes is not None:
        axes = tuple(int(a) for a in (axes if isinstance(axes, (tuple, list)) else (axes,)))
    problem = _problem(node, rank, axes, scales)
    if problem is not None:
        return ResizeNode(name=_name(node), op_type=node.op_type, opset=opset, op_version=op_version,
                          attributes=attributes, given=given, input_shape=input_shape, output_shape=output_shape,
                          roi=roi, scales=scales, sizes=sizes, sources=sources, graph=graph.path,
                          inputs=tuple(node.input), problem=problem)
    if axes is not None and rank is not None:
        axes = tuple(a + rank if a < 0 else a for a in axes)
        if scales is not None:
            scales = _expand(scales, axes, rank, lambda a: 1.0)
        if sizes is not None and all(_is_length(d) for d in input_shape):
            sizes = _expand(sizes, axes, rank, lambda a: input_shape[a])
    if rank is None:
        rank = len(scales) if scales is not None else (len(sizes) if sizes is not None else None)

    computed = _output_shape(input_shape, scales, sizes, attributes, axes)
    if computed is not None:
        output_shape = computed
    if sizes is None and scales is None and sources.get("sizes") == "runtime" and output_shape is not None \
            and all(_is_length(d) for d in output_shape):
        sizes = tuple(output_shape)
        sources["sizes"] = "inferred"
    return ResizeNode(name=_name(node), op_type=node.op_type,
                      opset=opset, op_version=op_version, attributes=attributes, given=given,
                      input_shape=input_shape, output_shape=output_shape, roi=roi, scales=scales, sizes=sizes,
                      sources=sources, graph=graph.path, inputs=tuple(node.input), origin=origin(node))


def output_shape(node: ResizeNode, input_shape) -> tuple | None:
    """The output shape ONNX Runtime computes for ``node`` on an input of ``input_shape`` (None when the node's
    scales or sizes are not known)."""
    axes = node.attributes.get("axes")
    rank = len(input_shape)
    if axes is not None:
        axes = tuple(a + rank if a < 0 else a for a in axes)
    return _output_shape(tuple(input_shape), node.scales, node.sizes, node.attributes, axes)


def _output_shape(input_shape, scales, sizes, attributes, axes=None):
    """The output shape ONNX Runtime computes, when the input shape and scales or sizes are known (an axis of
    scale 1 keeps its symbolic length)."""
    if input_shape is None:
        return None
    if not all(_is_length(d) for d in input_shape):
        if scales is None or len(scales) != len(input_shape) or sizes is not None or \
                any(not _is_length(n) and (n is None or s != 1.0) for n, s in zip(input_shape, scales)):
            return None
        return tuple(int(np.float32(s) * np.float32(n)) if _is_length(n) else n for n, s in zip(input_shape, scales))
    if sizes is not None and len(sizes) == len(input_shape):
        policy = attributes.get("keep_aspect_ratio_policy") or "stretch"
        if policy == "stretch":
            return tuple(int(s) for s in sizes)
        axes = [a for a in range(len(input_shape)) if axes is None or a in axes]
        ratios = [np.float32(sizes[a]) / np.float32(input_shape[a]) for a in axes if input_shape[a]]
        if not ratios:
            return None
        scale = min(ratios) if policy == "not_larger" else max(ratios)
        out = list(input_shape)
        for a in axes:
            out[a] = math.floor(float(np.float32(scale * np.float32(input_shape[a]))) + 0.5)
        return tuple(out)
    if scales is not None and len(scales) == len(input_shape):
        return tuple(int(np.float32(s) * np.float32(n)) for n, s in zip(input_shape, scales))
    return None


def _walk(graph: _Graph, opset: int):
    for node in graph.graph.node:
        if node.op_type in OP_TYPES and node.domain in ("", "ai.onnx"):
            yield graph, node
        for attr in node.attribute:
            held = attribute_graphs(attr)
            for k, sub in enumerate(held):
                index = f"[{k}]" if len(held) > 1 else ""
                path = f"{graph.path}/{node.name or node.op_type}.{attr.name}{index}"
                yield from _walk(_Graph(sub, graph, path.lstrip("/")), opset)


def resize_nodes(model, example_inputs=None) -> list[ResizeNode]:
    """Every Resize/Upsample node of ``model`` (path, bytes or ModelProto), in graph order."""
    proto = load_model(model)
    opset = model_opset(proto)
    if example_inputs is not None:
        proto = _with_input_shapes(proto, example_inputs)
    inferred, whys = _infer(proto)
    root = _Graph(inferred.graph)
    root.opset = opset
    out = []
    for g, node in _walk(root, opset):
        found = _node(g, node, opset)
        why = whys.get(node.output[0]) if node.output else None
        if why and not found.static and not found.analysable:
            found = dataclasses.replace(found, unknown_why=why)
        out.append(found)
    for function in inferred.functions:
        fgraph = _FunctionGraph(function, root)
        fopset = next((int(o.version) for o in function.opset_import if o.domain in ("", "ai.onnx")), opset)
        for node in function.node:
            if node.op_type in OP_TYPES and node.domain in ("", "ai.onnx"):
                out.append(_node(fgraph, node, fopset))
    return out


class _FunctionGraph(_Graph):
    """A local function's body: constants inside it, no shapes (functions carry none)."""

    def __init__(self, function, root: _Graph):
        self.graph, self.parent, self.path = function, root, f"function {function.domain}.{function.name}"
        self.initializers = {}
        self.producers = {out: node for node in function.node for out in node.output if out}
        self.shapes = {}

    def shape(self, name):
        return None

    def initializer(self, name):
        return None

    def producer(self, name):
        return self.producers.get(name)

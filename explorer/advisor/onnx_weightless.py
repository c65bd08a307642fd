"""An ONNX model's bytes without its weights: what a scan reads (the graph and the small constants).

A scan needs the graph, the shapes of the weights and the values of the small constants that shape arithmetic
uses; never the weights' values.  :func:`weightless` walks the protocol-buffer wire format of a ``ModelProto``
(``graph`` is field 7; in ``GraphProto``, ``initializer`` is field 5; in ``TensorProto``, the data fields are
``float_data`` 4, ``int32_data`` 5, ``string_data`` 6, ``int64_data`` 7, ``raw_data`` 9, ``double_data`` 10 and
``uint64_data`` 11, as in onnx/onnx.proto3) and copies every byte but the data of the initializers larger than
``limit``: those keep their name, type and dims.  Read through :class:`explorer.reading.FileView` (``pread``
of the parts walked), the weights' bytes are never read, so a scan's memory follows the graph, not the file.

>>> from onnx import TensorProto, helper, numpy_helper
>>> import numpy as np
>>> weight = numpy_helper.from_array(np.zeros((256, 256), np.float32), "w")
>>> small = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 3, 8, 8])
>>> graph = helper.make_graph([], "g", [], [], initializer=[weight, small])
>>> data = helper.make_model(graph).SerializeToString()
>>> from onnx import ModelProto
>>> model = ModelProto.FromString(weightless(data, limit=1024))
>>> [(t.name, list(t.dims), len(t.raw_data)) for t in model.graph.initializer]
[('w', [256, 256], 0), ('sizes', [4], 0)]
>>> list(model.graph.initializer[1].int64_data), len(data) > 256 * 256 * 4 > 10 * len(weightless(data, 1024))
([1, 3, 8, 8], True)
"""

from __future__ import annotations

from ..errors import ArgumentValueError

_MODEL_GRAPH, _GRAPH_INITIALIZER, _TENSOR_NAME = 7, 5, 8
_TENSOR_DATA = frozenset({4, 5, 6, 7, 9, 10, 11})


def _varint(buf, pos: int, end: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise ArgumentValueError("the bytes are not an ONNX model (a truncated or overlong varint)")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _encode_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _fields(buf, start: int, end: int):
    """(field number, wire type, field start, payload start, field end) of each field in ``buf[start:end]``."""
    pos = start
    while pos < end:
        key, payload = _varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, stop = _varint(buf, payload, end)
        elif wire == 1:
            stop = payload + 8
        elif wire == 2:
            length, payload = _varint(buf, payload, end)
            stop = payload + length
        elif wire == 5:
            stop = payload + 4
        else:
            raise ArgumentValueError(f"the bytes are not an ONNX model (wire type {wire} of field {field})")
        if stop > end:
            raise ArgumentValueError("the bytes are not an ONNX model (a field runs past its message)")
        yield field, wire, pos, payload, stop
        pos = stop


def _tensor(buf, start: int, end: int, limit: int) -> bytes:
    out = bytearray()
    for field, wire, begin, payload, stop in _fields(buf, start, end):
        if field in _TENSOR_DATA and wire == 2 and stop - payload > limit:
            continue
        out += buf[begin:stop]
    return bytes(out)


def _tensor_name(buf, start: int, end: int) -> str:
    for field, wire, _, payload, stop in _fields(buf, start, end):
        if field == _TENSOR_NAME and wire == 2:
            return bytes(buf[payload:stop]).decode("utf-8", "replace")
    return ""


def _graph(buf, start: int, end: int, limit: int, keep: frozenset) -> bytes:
    out = bytearray()
    for field, wire, begin, payload, stop in _fields(buf, start, end):
        if field == _GRAPH_INITIALIZER and wire == 2 and stop - payload > limit and \
                not (keep and _tensor_name(buf, payload, stop) in keep):
            tensor = _tensor(buf, payload, stop, limit)
            out += _encode_varint(field << 3 | 2) + _encode_varint(len(tensor)) + tensor
        else:
            out += buf[begin:stop]
    return bytes(out)


def weightless(buf, limit: int, keep=frozenset()) -> bytes:
    """The bytes of the ``ModelProto`` in ``buf`` (bytes, a memoryview, an mmap or a FileView) with the data of every main-graph
    initializer larger than ``limit`` bytes left out (its name, type and dims kept), but those named in ``keep``."""
    out = bytearray()
    keep = frozenset(keep)
    for field, wire, begin, payload, stop in _fields(buf, 0, len(buf)):
        if field == _MODEL_GRAPH and wire == 2:
            graph = _graph(buf, payload, stop, limit, keep)
            out += _encode_varint(field << 3 | 2) + _encode_varint(len(graph)) + graph
        else:
            out += buf[begin:stop]
    return bytes(out)

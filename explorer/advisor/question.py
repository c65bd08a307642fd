"""The question the advisor answers, validated once where it enters: one frozen :class:`Question`.

Every entry point (:func:`explorer.check`, :func:`explorer.suggest_fixes`, :func:`explorer.scan`, ``lint``, the
app's Backends tab and the command line) takes the same fields, declared once in :data:`FIELDS`, and builds a
Question with :meth:`Question.of`; what the knowledge base answers depends on nothing else.

>>> q = Question.of(mode="nearest_exact", backend="burn-libtorch")
>>> q.backend.id, q.mode, q.version
('burn-tch', 'NearestExact', '0.22.0-pre.2')
>>> t = Question.of(mode="bilinear", backend="torch", version="2.5.1", export="onnx")
>>> t.version, t.exporter, t.opset
('2.5.1', 'torchscript', 17)
>>> Question.of(mode="bilinear", backend="torch", trainig=False)
Traceback (most recent call last):
...
explorer.errors.ArgumentTypeError: question field='trainig' is not valid; choose one of: 'align_corners', ... (did you mean 'training'?)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from ..versions import parse_version
from .knowledge import Backend, load

DTYPES = ("float32", "float64", "float16", "bfloat16", "uint8", "int8", "int16", "int32", "int64", "uint16",
          "complex64", "complex128")
_DTYPE_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "bf16": "bfloat16",
                  "f32": "float32", "f64": "float64", "f16": "float16", "byte": "uint8", "int": "int32",
                  "long": "int64"}
EXPORTS = ("onnx", "onnx-dynamo", "onnx-torchscript", "coreml", "tflite")

#: The fields of a question, as a user gives them, with their defaults: every entry point takes these names.
FIELDS = {
    "training": True,          # the model trains through the resize (its backward runs)
    "version": None,           # the backend's release (default: the newest checked)
    "device": None,            # cpu, cuda, mps, ... (default: not said; device-only findings become warnings)
    "align_corners": None,     # True, False or None (not given)
    "antialias": False,
    "spatial_dims": 2,         # 1, 2 or 3 spatial axes (4 for 3-D volumes with time)
    "dtype": "float32",
    "deterministic": False,    # torch.use_deterministic_algorithms(True)
    "export": None,            # onnx, onnx-dynamo, onnx-torchscript, coreml, tflite
    "opset": None,             # the ONNX opset exported to or run at
    "scale_factor": None,      # given as a scale factor (a number or True) rather than a size
    "input_size": None,        # spatial sizes in and out: they settle the findings that depend on the ratio
    "output_size": None,
    "reference": "torch",      # the library or backend whose numbers the user expects (None: none)
    "converter_version": None,  # onnxscript (dynamo export) or coremltools (Core ML) release
    "attributes": None,        # the ONNX Resize node's attributes, {name: value} (see ATTRIBUTES)
}

#: The ONNX ``Resize`` attributes a question may name (``attributes=``), with the values each accepts (None: a
#: number).  A runtime that runs or converts the node is answered for that node ("this node on that EP").
ATTRIBUTES = {
    "coordinate_transformation_mode": ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                       "tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric"),
    "nearest_mode": ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"),
    "exclude_outside": (0, 1),
    "keep_aspect_ratio_policy": ("stretch", "not_larger", "not_smaller"),
    "cubic_coeff_a": None,
    "extrapolation_value": None,
}


def normalise_dtype(dtype) -> str:
    if isinstance(dtype, str):
        key = dtype.strip().lower().replace("torch.", "").replace("np.", "").replace("tf.", "")
        key = _DTYPE_ALIASES.get(key, key)
    else:
        try:
            key = np.dtype(dtype).name
        except TypeError:
            raise ArgumentTypeError(f"dtype must be a dtype name such as 'float32', got {dtype!r}") from None
    if key not in DTYPES:
        raise choice_error("dtype", dtype, DTYPES)
    return key


@dataclass(frozen=True)
class Target:
    """Where a resize runs, validated: a backend, the release answered for (the one asked for, else the newest
    checked) and the device.  The part of a question that does not depend on the call (what a scan of a whole
    model fixes before it reads a node).

    >>> Target.of("burn-libtorch", device="cuda").version
    '0.22.0-pre.2'
    """

    backend: Backend
    version: str
    requested_version: str | None
    device: str | None

    @classmethod
    def of(cls, backend, version=None, device=None) -> "Target":
        kb = load()
        if backend is None:
            raise choice_error("backend", None, sorted(kb.backends), kind=ArgumentTypeError)
        b = kb.backend(backend)
        version = _release(version, "version")
        resolved = version if version is not None else kb.runtimes[b.runtime].newest
        return cls(b, resolved, version, _device(device, b))


@dataclass(frozen=True)
class Question:
    """Everything the advisor needs to know about one resize call (see :data:`FIELDS`)."""

    backend: Backend
    mode: str                         # the backend's native name
    spelling: str                     # the mode as the user wrote it
    version: str                      # the release answered for: the one asked for, else the newest checked
    requested_version: str | None     # what the user asked for (None: nothing)
    device: str | None
    training: bool = True
    align_corners: bool | None = None
    antialias: bool = False
    spatial_dims: int = 2
    dtype: str = "float32"
    deterministic: bool = False
    export: str | None = None
    opset: int | None = None
    scale_factor: bool = False
    reference: str | None = "torch"
    converter_version: str | None = None   # onnxscript (dynamo export) or coremltools (Core ML) release
    export_defaulted: bool = False         # exporter and opset taken from the release's torch.onnx.export defaults
    sizes: tuple | None = None             # ((input spatial sizes), (output spatial sizes)), when given
    attributes: tuple = ()                 # ((ONNX attribute, value), ...) of the node, sorted; () when not given

    def attribute(self, name: str):
        """The value of an ONNX attribute the question gives (None when it does not)."""
        return dict(self.attributes).get(name)

    @classmethod
    def of(cls, mode=None, backend=None, **given) -> "Question":
        """A validated question from :data:`FIELDS` (unknown names raise listing the valid ones)."""
        for name in given:
            if name not in FIELDS:
                raise choice_error("question field", name, sorted(FIELDS), kind=ArgumentTypeError)
        f = {**FIELDS, **given}
        kb = load()
        target = Target.of(backend, f["version"], None)
        b = target.backend
        if not isinstance(mode, str) or not mode.strip():
            raise ArgumentValueError(f"mode must be a non-empty mode name such as 'nearest-exact', got {mode!r}")
        native = b.native_mode(mode)
        training = validate.strict_bool(f["training"], "training")
        deterministic = validate.strict_bool(f["deterministic"], "deterministic")
        version, resolved = target.requested_version, target.version
        converter_version = _release(f["converter_version"], "converter_version")
        device = _device(f["device"], b)
        align_corners = f["align_corners"]
        if align_corners not in (None, True, False):
            raise ArgumentTypeError(f"align_corners must be True, False or None, got {align_corners!r}")
        antialias = f["antialias"]
        if not isinstance(antialias, (bool, np.bool_)):
            raise ArgumentTypeError(f"antialias must be True or False, got {antialias!r}")
        spatial_dims = f["spatial_dims"]
        if (isinstance(spatial_dims, bool) or not isinstance(spatial_dims, (int, np.integer))
                or not 1 <= spatial_dims <= 4):
            raise ArgumentValueError(f"spatial_dims={spatial_dims!r} is not valid; choose 1, 2, 3 or 4")
        export = f["export"]
        if export is not None:
            if not isinstance(export, str) or export.strip().lower() not in EXPORTS:
                raise choice_error("export", export, EXPORTS)
            export = export.strip().lower()
        opset = f["opset"]
        if opset is not None:
            opset = validate.opset(opset)
        scale_factor = validate.scale_factor_given(f["scale_factor"], spatial_dims=int(spatial_dims))
        reference = None if f["reference"] is None else _reference_id(f["reference"])
        export, opset, defaulted = _export_defaults(kb.runtimes[b.runtime], resolved, export, opset)
        return cls(backend=b, mode=native, spelling=mode, version=resolved, requested_version=version,
                   device=device, training=training, align_corners=align_corners,
                   antialias=bool(antialias), spatial_dims=int(spatial_dims), dtype=normalise_dtype(f["dtype"]),
                   deterministic=deterministic, export=export, opset=None if opset is None else int(opset),
                   scale_factor=bool(scale_factor),
                   reference=reference, converter_version=converter_version, export_defaulted=defaulted,
                   sizes=_sizes(f["input_size"], f["output_size"]), attributes=_attributes(f["attributes"]))

    def with_sizes(self, spatial, out) -> "Question":
        """The same question for these input and output spatial sizes."""
        return replace(self, sizes=_sizes(spatial, out))

    @property
    def runtime(self) -> str:
        """The runtime the backend belongs to (the knowledge base's data file)."""
        return self.backend.runtime

    @property
    def library(self) -> str:
        """The runtime id (see :attr:`runtime`)."""
        return self.backend.runtime

    @property
    def family(self) -> str:
        return self.backend.family(self.mode)

    @property
    def exporter(self) -> str | None:
        """torchscript or dynamo for an ONNX export (``export="onnx"`` is resolved by the release's default)."""
        return {"onnx-dynamo": "dynamo", "onnx-torchscript": "torchscript"}.get(self.export)

    @property
    def in_scope(self) -> bool:
        """Whether the release answered for is one the knowledge base checked."""
        return load().runtimes[self.runtime].in_scope(self.version)

    def changed(self, **changes) -> "Question":
        """A copy with a fix's changes applied (mode in any spelling, backend id, version...)."""
        kb = load()
        fields = {}
        backend = self.backend
        if "backend" in changes:
            backend = kb.backend(changes["backend"])
            fields["backend"] = backend
            if backend.runtime != self.backend.runtime:
                fields["version"] = kb.runtimes[backend.runtime].newest
                fields["requested_version"] = None
                fields["converter_version"] = None
            if self.device is not None and self.device not in backend.devices:
                fields["device"] = None
        mode = changes.get("mode", self.mode if backend is self.backend else self.spelling)
        fields["mode"] = backend.native_mode(mode)
        if "mode" in changes:
            fields["spelling"] = changes["mode"]
        if "version" in changes:
            fields["version"] = changes["version"]
            fields["requested_version"] = changes["version"]
        if "device" in changes:
            fields["device"] = changes["device"]
        if "align_corners" in changes:
            value = changes["align_corners"]
            fields["align_corners"] = None if value == "unset" else bool(value)
        for key in ("antialias", "opset"):
            if key in changes:
                fields[key] = changes[key]
        if "dtype" in changes:
            fields["dtype"] = normalise_dtype(changes["dtype"])
        if "exporter" in changes:
            fields["export"] = "onnx-" + changes["exporter"]
        return replace(self, **fields)


def _device(device, backend: Backend) -> str | None:
    if device is None:
        return None
    if not isinstance(device, str):
        raise ArgumentTypeError(f"device must be a string such as 'cuda', got {device!r}")
    device = device.strip().lower()
    if device.startswith("cuda:"):
        device = "cuda"
    if device not in backend.devices:
        raise choice_error("device", device, backend.devices, context=f"for {backend.id}")
    return device


def _export_defaults(library, version: str, export, opset):
    """``export="onnx"`` means the release's default exporter; an ONNX export without an opset, its default."""
    if export not in ("onnx", "onnx-torchscript", "onnx-dynamo"):
        return export, opset, False
    default = next((d for d in library.export_defaults if d.versions.contains(version)), None)
    if default is None:
        return ("onnx-dynamo" if export == "onnx" else export), opset, False
    if export == "onnx":
        export = f"onnx-{default.exporter}"
    defaulted = opset is None
    return export, (default.opset if opset is None else opset), defaulted


def _reference_id(reference: str) -> str:
    """A library or backend id the user compares against."""
    kb = load()
    if not isinstance(reference, str):
        raise ArgumentTypeError(f"reference must be a library or backend id such as 'torch', got {reference!r}")
    key = reference.strip().lower()
    if key in kb.runtimes or key == "*":
        return key
    try:
        return kb.backend(key).id
    except ValueError:
        raise choice_error("reference", reference, sorted(set(kb.runtimes) | set(kb.backends))) from None


def _release(value, name: str) -> str | None:
    if value is None:
        return None
    value = validate.version_text(str(value) if validate.is_number(value) else value, name)
    parse_version(value)
    return value


def _attributes(given) -> tuple:
    """``{attribute: value}`` of an ONNX Resize node, checked against :data:`ATTRIBUTES`, as sorted pairs.

    >>> _attributes({"nearest_mode": "floor", "exclude_outside": True})
    (('exclude_outside', 1), ('nearest_mode', 'floor'))
    """
    if given is None:
        return ()
    if not isinstance(given, dict):
        raise ArgumentTypeError(f"attributes must be a dict of ONNX Resize attributes such as "
                                f"{{'nearest_mode': 'floor'}}, got {given!r}")
    out = {}
    for name, value in given.items():
        if name not in ATTRIBUTES:
            raise choice_error("attribute", name, sorted(ATTRIBUTES), kind=ArgumentTypeError)
        allowed = ATTRIBUTES[name]
        if allowed is None:
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                    or not np.isfinite(value):
                raise ArgumentValueError(f"attribute {name}={value!r} is not valid; give a finite number")
            value = float(value)
        else:
            if isinstance(value, (bool, np.bool_)):
                value = int(value)
            if value not in allowed:
                raise choice_error(f"attribute {name}", value, [str(a) for a in allowed])
        out[name] = value
    return tuple(sorted(out.items()))


def _sizes(input_size, output_size):
    """((input spatial sizes), (output spatial sizes)), or None when neither is given."""
    if input_size is None and output_size is None:
        return None
    if input_size is None or output_size is None:
        raise ArgumentValueError("give both input_size and output_size (spatial sizes), or neither")
    sizes = (validate.lengths(input_size, "input_size"), validate.lengths(output_size, "output_size", minimum=0))
    if len(sizes[0]) != len(sizes[1]):
        raise ArgumentValueError(f"input_size {sizes[0]} and output_size {sizes[1]} have different lengths")
    return sizes

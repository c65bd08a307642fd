"""A user's resize configuration, validated once: backend, mode, version, device and options.

>>> s = Setup.of(mode="nearest_exact", backend="burn-libtorch")
>>> s.backend.id, s.mode, s.version
('burn-tch', 'NearestExact', '0.22.0-pre.2')
>>> t = Setup.of(mode="bilinear", backend="torch", version="2.5.1", export="onnx")
>>> t.version, t.exporter, t.opset
('2.5.1', 'torchscript', 17)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .. import validate
from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from .knowledge import Backend, load
from .versions import parse_version

DTYPES = ("float32", "float64", "float16", "bfloat16", "uint8", "int8", "int16", "int32", "int64", "uint16",
          "complex64", "complex128")
_DTYPE_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "bf16": "bfloat16",
                  "f32": "float32", "f64": "float64", "f16": "float16", "byte": "uint8", "int": "int32",
                  "long": "int64"}
EXPORTS = ("onnx", "onnx-dynamo", "onnx-torchscript", "coreml", "tflite")


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
class Setup:
    """Everything :func:`~explorer.advisor.check` needs to know about one resize call."""

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

    @classmethod
    def of(cls, mode, backend, training=True, version=None, device=None, align_corners=None, antialias=False,
           spatial_dims=2, dtype="float32", deterministic=False, export=None, opset=None, scale_factor=None,
           reference="torch", converter_version=None) -> "Setup":
        kb = load()
        b = kb.backend(backend)
        if not isinstance(mode, str) or not mode.strip():
            raise ArgumentValueError(f"mode must be a non-empty mode name such as 'nearest-exact', got {mode!r}")
        native = b.native_mode(mode)
        training = validate.strict_bool(training, "training")
        deterministic = validate.strict_bool(deterministic, "deterministic")
        if version is not None:
            version = validate.version_text(str(version) if validate.is_number(version) else version)
            parse_version(version)
        if converter_version is not None:
            converter_version = validate.version_text(converter_version, "converter_version")
            parse_version(converter_version)
        device = _device(device, b)
        if align_corners not in (None, True, False):
            raise ArgumentTypeError(f"align_corners must be True, False or None, got {align_corners!r}")
        if not isinstance(antialias, (bool, np.bool_)):
            raise ArgumentTypeError(f"antialias must be True or False, got {antialias!r}")
        if (isinstance(spatial_dims, bool) or not isinstance(spatial_dims, (int, np.integer))
                or not 1 <= spatial_dims <= 4):
            raise ArgumentValueError(f"spatial_dims={spatial_dims!r} is not valid; choose 1, 2, 3 or 4")
        if export is not None:
            if not isinstance(export, str) or export.strip().lower() not in EXPORTS:
                raise choice_error("export", export, EXPORTS)
            export = export.strip().lower()
        if opset is not None:
            opset = validate.opset(opset)
        scale_factor = validate.scale_factor_given(scale_factor, spatial_dims=int(spatial_dims))
        if reference is not None:
            reference = _reference_id(reference)
        resolved = version if version is not None else kb.libraries[b.library].newest
        export, opset, defaulted = _export_defaults(kb.libraries[b.library], resolved, export, opset)
        return cls(backend=b, mode=native, spelling=mode, version=resolved, requested_version=version,
                   device=device, training=bool(training), align_corners=align_corners, antialias=bool(antialias),
                   spatial_dims=int(spatial_dims), dtype=normalise_dtype(dtype), deterministic=bool(deterministic),
                   export=export, opset=None if opset is None else int(opset), scale_factor=bool(scale_factor),
                   reference=reference, converter_version=converter_version, export_defaulted=defaulted)

    @property
    def library(self) -> str:
        return self.backend.library

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
        return load().libraries[self.library].in_scope(self.version)

    def changed(self, **changes) -> "Setup":
        """A copy with a fix's changes applied (mode in any spelling, backend id, version...)."""
        kb = load()
        fields = {}
        backend = self.backend
        if "backend" in changes:
            backend = kb.backend(changes["backend"])
            fields["backend"] = backend
            if backend.library != self.backend.library:
                fields["version"] = kb.libraries[backend.library].newest
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
    if key in kb.libraries or key == "*":
        return key
    try:
        return kb.backend(key).id
    except ValueError:
        raise choice_error("reference", reference, sorted(set(kb.libraries) | set(kb.backends))) from None

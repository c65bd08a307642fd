"""A user's resize configuration, validated once: backend, mode, version, device and options.

>>> s = Setup.of(mode="nearest_exact", backend="burn-libtorch")
>>> s.backend.id, s.mode, s.version
('burn-tch', 'NearestExact', '0.22.0-pre.2')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..errors import ArgumentTypeError, ArgumentValueError, choice_error
from .knowledge import Backend, load
from .versions import parse_version

DTYPES = ("float32", "float64", "float16", "bfloat16", "uint8", "int8", "int16", "int32", "int64", "uint16",
          "complex64", "complex128")
_DTYPE_ALIASES = {"float": "float32", "double": "float64", "half": "float16", "bf16": "bfloat16",
                  "f32": "float32", "f64": "float64", "f16": "float16", "byte": "uint8", "int": "int32",
                  "long": "int64"}
EXPORTS = ("onnx", "onnx-dynamo", "onnx-torchscript", "coreml")


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
    version: str | None               # a known version of the backend's library (None: it has none)
    requested_version: str | None     # what the user asked for
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

    @classmethod
    def of(cls, mode, backend, training=True, version=None, device=None, align_corners=None, antialias=False,
           spatial_dims=2, dtype="float32", deterministic=False, export=None, opset=None, scale_factor=None,
           reference="torch") -> "Setup":
        kb = load()
        b = kb.backend(backend)
        if not isinstance(mode, str) or not mode.strip():
            raise ArgumentValueError(f"mode must be a non-empty mode name such as 'nearest-exact', got {mode!r}")
        native = b.native_mode(mode)
        known = kb.versions(b.library)
        resolved = None
        if version is not None:
            version = str(version)
            parse_version(version)
            if known:
                from .versions import nearest_known
                resolved = version if version in known else nearest_known(version, known)
        elif known:
            resolved = max(known, key=parse_version)
        if device is not None:
            if not isinstance(device, str):
                raise ArgumentTypeError(f"device must be a string such as 'cuda', got {device!r}")
            device = device.strip().lower()
            if device.startswith("cuda:"):
                device = "cuda"
            if device not in b.devices:
                raise choice_error("device", device, b.devices, context=f"for {b.id}")
        if align_corners not in (None, True, False):
            raise ArgumentTypeError(f"align_corners must be True, False or None, got {align_corners!r}")
        if not isinstance(antialias, (bool, np.bool_)):
            raise ArgumentTypeError(f"antialias must be True or False, got {antialias!r}")
        if isinstance(spatial_dims, bool) or not isinstance(spatial_dims, (int, np.integer)) or not 1 <= spatial_dims <= 4:
            raise ArgumentValueError(f"spatial_dims={spatial_dims!r} is not valid; choose 1, 2, 3 or 4")
        if export is not None:
            if not isinstance(export, str) or export.strip().lower() not in EXPORTS:
                raise choice_error("export", export, EXPORTS)
            export = export.strip().lower()
        if opset is not None and (isinstance(opset, bool) or not isinstance(opset, (int, np.integer)) or opset < 1):
            raise ArgumentValueError(f"opset must be a positive integer such as 18, got {opset!r}")
        if reference is not None:
            reference = _reference_id(reference)
        return cls(backend=b, mode=native, spelling=mode, version=resolved, requested_version=version,
                   device=device, training=bool(training), align_corners=align_corners, antialias=bool(antialias),
                   spatial_dims=int(spatial_dims), dtype=normalise_dtype(dtype), deterministic=bool(deterministic),
                   export=export, opset=opset, scale_factor=bool(scale_factor), reference=reference)

    @property
    def library(self) -> str:
        return self.backend.library

    @property
    def family(self) -> str:
        return self.backend.family(self.mode)

    @property
    def exporter(self) -> str | None:
        if self.export in ("onnx", "onnx-dynamo"):
            return "dynamo"
        if self.export == "onnx-torchscript":
            return "torchscript"
        return None

    def changed(self, **changes) -> "Setup":
        """A copy with a fix's changes applied (mode in any spelling, backend id, version...)."""
        kb = load()
        fields = {}
        backend = self.backend
        if "backend" in changes:
            backend = kb.backend(changes["backend"])
            fields["backend"] = backend
            if backend.library != self.backend.library:
                known = kb.versions(backend.library)
                fields["version"] = max(known, key=parse_version) if known else None
                fields["requested_version"] = None
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

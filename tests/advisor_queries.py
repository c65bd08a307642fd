"""The check() query a knowledge-base record describes (shared by the findings and version tests)."""

from __future__ import annotations

from explorer.advisor import knowledge

KB = knowledge.load()
#: records check() can reach: no argument check() does not take, a release of the library in scope
REACHABLE = [r for r in KB.records if "argument" not in r.when
             and (r.versions.every or any(r.versions.contains(v) for v in KB.versions(r.library)))]


def query(record, version=None):
    """check() keyword arguments for the first backend, mode, device and version the record covers."""
    backend = KB.backends[record.backends[0]]
    mode = record.modes[0] if record.modes[0] != "*" else next(iter(backend.mode_table()))
    w = record.when
    versions = [v for v in KB.versions(backend.library) if record.versions.contains(v)]
    if record.library != backend.library:  # a fact of another library the backend runs on
        versions = []
    ac = w.get("align_corners")
    ac = ac[0] if isinstance(ac, list) else ac
    export = {"export_coreml": "coreml", "export_tflite": "tflite",
              "export_onnx": "onnx-" + w.get("exporter", ["dynamo"])[0]}.get(record.operation)
    out = dict(mode=mode, backend=backend.id, training=record.operation in ("backward", "double_backward"),
               version=version or (versions[-1] if versions else None),
               device=None if record.devices[0] == "*" else record.devices[0],
               align_corners=None if ac in (None, "unset") else ac, antialias=bool(w.get("antialias", False)),
               spatial_dims=w.get("spatial_dims", [2])[0], dtype=w.get("dtype", ["float32"])[0],
               deterministic=bool(w.get("deterministic", False)), export=export,
               scale_factor=True if w.get("scale_factor") else None, reference=None)
    attributes = {k: (w[k][0] if isinstance(w[k], list) else w[k]) for k in knowledge.ATTRIBUTE_KEYS if k in w}
    if attributes:
        out["attributes"] = attributes
    if "opset" in w:
        out["opset"] = next(o for o in range(7, 25) if knowledge.VersionRange(w["opset"]).contains(str(o)))
    if record.converter:
        out["converter_version"] = next(v for v in record.converter_versions.bound_versions() + ["0.1", "99.0"]
                                        if record.converter_versions.contains(v))
    return out

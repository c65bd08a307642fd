"""OpenVINO (CPU plugin): ``Core.read_model`` on the ONNX file (its ONNX frontend), then ``compile_model``.

What the frontend made of the node is read back from the model before compiling: each ``Interpolate`` op's
version and attributes (``mode``, ``shape_calculation_mode``, ``coordinate_transformation_mode``,
``nearest_mode``, ``antialias``, ``cube_coeff``, pads).  2023.0 is the oldest wheel for CPython 3.11 (2022.3
has none); releases before 2024.2 were built against numpy 1.x.  One inference thread, f32 precision hint
(the CPU plugin would otherwise run bf16 on processors that have it).
"""

NAME = "openvino"
PRODUCT = "openvino"
KINDS = ("onnx",)
REPEATS = 2  # each cell twice: an output that changes is marked unstable
PACKAGES = ("openvino", "numpy")
RELEASES = ("2023.0.2", "2023.3.0", "2024.2.0", "2024.6.0", "2025.2.0", "2025.4.1", "2026.4.1")
CURRENT = "2026.4.1"
_core = None


def install(release):
    year, minor = (int(p) for p in release.split(".")[:2])
    return [[f"openvino=={release}"] + (["numpy<2"] if (year, minor) < (2024, 2) else [])]


def version():
    import openvino

    v = getattr(openvino, "__version__", None)
    if v is None:
        from openvino.runtime import get_version

        v = get_version()
    return str(v).split("-")[0]


def _get_core():
    global _core
    if _core is None:
        try:
            from openvino import Core
        except ImportError:  # 2023.0: the runtime namespace only
            from openvino.runtime import Core
        _core = Core()
    return _core


def _plain(value):
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    try:
        return _plain(value.tolist())
    except AttributeError:
        return str(value)


def interpolates(model) -> list:
    out = []
    for op in model.get_ordered_ops():
        kind = op.get_type_name()
        if kind in ("Interpolate", "Resize", "Upsample"):
            info = op.get_type_info()
            entry = {"op": kind, "version": str(getattr(info, "version_id", "") or getattr(info, "version", ""))}
            entry.update({k: _plain(v) for k, v in sorted(op.get_attributes().items())})
            out.append(entry)
    return out


def run(case, inputs, cell):
    core = _get_core()
    with cell.stage("convert"):
        model = core.read_model(case["model_path"])
        cell.converted(interpolates(model))
    with cell.stage("load"):
        config = {"INFERENCE_NUM_THREADS": "1", "INFERENCE_PRECISION_HINT": "f32"}
        try:
            compiled = core.compile_model(model, "CPU", config)
        except RuntimeError as exc:
            if "INFERENCE" not in str(exc):
                raise
            compiled = core.compile_model(model, "CPU")
    with cell.stage("run"):
        request = compiled.create_infer_request()
        request.infer({0: inputs["X"]})
        y = request.get_output_tensor(0).data.copy()
    cell.output(y)

"""ONNX Runtime (CPU execution provider): ``InferenceSession`` on the case's one-node model.

Releases: 1.15 is the oldest with a CPython 3.11 wheel (1.12-1.14 have none: they cannot be probed here);
releases before 1.19 were built against numpy 1.x and get ``numpy<2``.  One intra-op thread.
"""

NAME = "onnxruntime"
PRODUCT = "onnxruntime"
KINDS = ("onnx",)
REPEATS = 2  # each cell twice: an output that changes is marked unstable
PACKAGES = ("onnxruntime", "numpy")
RELEASES = ("1.15.1", "1.16.3", "1.17.3", "1.18.1", "1.20.1", "1.22.1", "1.24.4", "1.28.0", "1.32.0")
CURRENT = "1.32.0"


def _older(release, than):
    return tuple(int(p) for p in release.split(".")[:2]) < than


def install(release):
    return [[f"onnxruntime=={release}"] + (["numpy<2"] if _older(release, (1, 19)) else [])]


def version():
    import onnxruntime

    return onnxruntime.__version__


def run(case, inputs, cell):
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    with cell.stage("load"):
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 4
        session = ort.InferenceSession(case["model_path"], options, providers=["CPUExecutionProvider"])
    with cell.stage("run"):
        (y,) = session.run(None, {"X": inputs["X"]})
    cell.output(y)

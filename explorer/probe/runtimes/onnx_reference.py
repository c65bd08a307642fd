"""The ONNX package's reference evaluator (``onnx.reference.ReferenceEvaluator``): the operator as the spec
writes it, in numpy.  Not a runtime anyone deploys: the ground truth the other runtimes are read against.

onnx wheels before 1.17 were built against numpy 1.x.
"""

NAME = "onnx-reference"
PRODUCT = "onnx"
KINDS = ("onnx",)
REPEATS = 2  # each cell twice: an output that changes is marked unstable
PACKAGES = ("onnx", "numpy")
RELEASES = ("1.14.1", "1.15.0", "1.16.2", "1.17.0", "1.19.1", "1.23.2")
CURRENT = "1.23.2"


def install(release):
    major, minor = (int(p) for p in release.split(".")[:2])
    return [[f"onnx=={release}"] + (["numpy<2"] if (major, minor) < (1, 17) else [])]


def version():
    import onnx

    return onnx.__version__


def run(case, inputs, cell):
    from onnx.reference import ReferenceEvaluator

    with cell.stage("load"):
        evaluator = ReferenceEvaluator(case["model_path"])
    with cell.stage("run"):
        (y,) = evaluator.run(None, {"X": inputs["X"]})
    cell.output(y)

"""OpenCV's DNN module: ``cv2.dnn.readNetFromONNX`` (its ONNX importer) and ``Net.forward`` on the CPU.

What the importer made of the node: the layer types of the net.  opencv-python-headless wheels before 4.10
were built against numpy 1.x.  One thread.
"""

NAME = "opencv-dnn"
PRODUCT = "opencv"
KINDS = ("onnx",)
REPEATS = 2  # each cell twice: an output that changes is marked unstable
PACKAGES = ("opencv-python-headless", "numpy")
RELEASES = ("4.5.5.64", "4.7.0.72", "4.8.1.78", "4.9.0.80", "4.10.0.84", "4.12.0.88", "4.14.0.94", "5.0.0.93")
CURRENT = "5.0.0.93"


def install(release):
    major, minor = (int(p) for p in release.split(".")[:2])
    return [[f"opencv-python-headless=={release}"] + (["numpy<2"] if (major, minor) < (4, 10) else [])]


def version():
    import importlib.metadata

    return importlib.metadata.version("opencv-python-headless")


def run(case, inputs, cell):
    import cv2

    cv2.setNumThreads(1)
    with cell.stage("convert"):
        net = cv2.dnn.readNetFromONNX(case["model_path"])
        layers = []
        for name in net.getLayerNames():
            layer = net.getLayer(net.getLayerId(name) if hasattr(net, "getLayerId") else name)
            layers.append({"name": name, "type": layer.type})
        cell.converted(layers)
    with cell.stage("load"):
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        net.setInput(inputs["X"], "X")
    with cell.stage("run"):
        y = net.forward()
    cell.output(y)

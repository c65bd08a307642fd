"""Keras 3 on its tensorflow backend (``KERAS_BACKEND=tensorflow``): ``keras.ops.image.resize``, ``layers.Resizing`` and
``layers.UpSampling2D`` (the shared code and the calls: ``runtimes/_keras.py``).  The release is Keras's;
the backend's own release is in the provenance's packages.
"""

NAME = "keras-tensorflow"
PRODUCT = "keras"
KINDS = ("keras-tensorflow",)
PACKAGES = ("keras", "tensorflow-cpu", "numpy")
RELEASES = ("3.0.5", "3.3.3", "3.4.1", "3.5.0", "3.6.0", "3.7.0", "3.8.0", "3.9.2", "3.15.1")
CURRENT = "3.15.1"
# older Keras releases with a backend release of their time (TensorFlow 2.16 is the first to install with
# Keras 3: it requires keras>=3.0, and 2.18 requires keras>=3.5); the current one gets the newest backend
PAIRED = {"3.0.5": ("tensorflow-cpu==2.16.2", "numpy"), "3.3.3": ("tensorflow-cpu==2.16.2", "numpy"),
          "3.4.1": ("tensorflow-cpu==2.16.2", "numpy"), "3.5.0": ("tensorflow-cpu==2.18.1", "numpy"),
          "3.6.0": ("tensorflow-cpu==2.18.1", "numpy"), "3.7.0": ("tensorflow-cpu==2.18.1", "numpy"),
          "3.8.0": ("tensorflow-cpu==2.18.1", "numpy"), "3.9.2": ("tensorflow-cpu==2.18.1", "numpy")}
BACKEND = "tensorflow"


def _shared():
    return load_sibling("_keras")  # noqa: F821 (given by the loader: child.load_adapter)


def install(release):
    return _shared().install(release, BACKEND, PAIRED)


def version():
    return _shared().version(BACKEND)


def run(case, inputs, cell):
    _shared().run(case, inputs, cell, BACKEND)

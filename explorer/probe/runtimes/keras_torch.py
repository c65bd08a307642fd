"""Keras 3 on its torch backend (``KERAS_BACKEND=torch``): ``keras.ops.image.resize``, ``layers.Resizing`` and
``layers.UpSampling2D`` (the shared code and the calls: ``runtimes/_keras.py``).  The release is Keras's;
the backend's own release is in the provenance's packages.
"""

NAME = "keras-torch"
PRODUCT = "keras"
KINDS = ("keras-torch",)
PACKAGES = ("keras", "torch", "numpy")
RELEASES = ("3.15.1",)
CURRENT = "3.15.1"
BACKEND = "torch"


def _shared():
    return load_sibling("_keras")  # noqa: F821 (given by the loader: child.load_adapter)


def install(release):
    return _shared().install(release, BACKEND)


def version():
    return _shared().version(BACKEND)


def run(case, inputs, cell):
    _shared().run(case, inputs, cell, BACKEND)

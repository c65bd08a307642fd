"""Keras 3 on its jax backend (``KERAS_BACKEND=jax``): ``keras.ops.image.resize``, ``layers.Resizing`` and
``layers.UpSampling2D`` (the shared code and the calls: ``runtimes/_keras.py``).  The release is Keras's;
the backend's own release is in the provenance's packages.
"""

import importlib.util
import os

NAME = "keras-jax"
PRODUCT = "keras"
KINDS = ("keras-jax",)
PACKAGES = ("keras", "jax", "numpy")
RELEASES = ("3.0.5", "3.3.3", "3.6.0", "3.9.2", "3.15.1")
CURRENT = "3.15.1"
# older Keras releases with a backend release of their time; Keras before 3.4 gets numpy<2 and packaging, which
# it imports without requiring it (TensorFlow brings it along; a jax-only venv fails "No module named
# 'packaging'"); the current one gets the newest backend
PAIRED = {"3.0.5": ("jax==0.4.30", "jaxlib==0.4.30", "numpy<2", "packaging"),
          "3.3.3": ("jax==0.4.30", "jaxlib==0.4.30", "numpy<2", "packaging"),
          "3.6.0": ("jax==0.4.30", "jaxlib==0.4.30", "numpy"), "3.9.2": ("jax==0.5.3", "jaxlib==0.5.3", "numpy")}
BACKEND = "jax"
_module = None


def _shared():
    global _module
    if _module is not None:
        return _module
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_keras.py")
    spec = importlib.util.spec_from_file_location("probe_adapter__keras", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _module = module
    return module


def install(release):
    return _shared().install(release, BACKEND, PAIRED)


def version():
    return _shared().version(BACKEND)


def run(case, inputs, cell):
    _shared().run(case, inputs, cell, BACKEND)

"""Keras 3 on its jax backend (``KERAS_BACKEND=jax``): ``keras.ops.image.resize``, ``layers.Resizing`` and
``layers.UpSampling2D`` (the shared code and the calls: ``runtimes/_keras.py``).  The release is Keras's;
the backend's own release is in the provenance's packages.
"""

NAME = "keras-jax"
PRODUCT = "keras"
KINDS = ("keras-jax",)
PACKAGES = ("keras", "jax", "numpy")
RELEASES = ("3.0.5", "3.3.3", "3.4.1", "3.5.0", "3.6.0", "3.9.2", "3.15.1")
CURRENT = "3.15.1"
# older Keras releases with a backend release of their time; Keras before 3.4 gets numpy<2 and packaging, which
# it imports without requiring it (TensorFlow brings it along; a jax-only venv fails "No module named
# 'packaging'"); the current one gets the newest backend
PAIRED = {"3.0.5": ("jax==0.4.30", "jaxlib==0.4.30", "numpy<2", "packaging"),
          "3.3.3": ("jax==0.4.30", "jaxlib==0.4.30", "numpy<2", "packaging"),
          "3.4.1": ("jax==0.4.30", "jaxlib==0.4.30", "numpy"), "3.5.0": ("jax==0.4.30", "jaxlib==0.4.30", "numpy"),
          "3.6.0": ("jax==0.4.30", "jaxlib==0.4.30", "numpy"), "3.9.2": ("jax==0.5.3", "jaxlib==0.5.3", "numpy")}
BACKEND = "jax"


def _shared():
    return load_sibling("_keras")  # noqa: F821 (given by the loader: child.load_adapter)


def install(release):
    return _shared().install(release, BACKEND, PAIRED)


def version():
    return _shared().version(BACKEND)


def run(case, inputs, cell):
    _shared().run(case, inputs, cell, BACKEND)

"""What the three Keras adapters share (``keras_tensorflow``, ``keras_jax``, ``keras_torch``): each sets
``KERAS_BACKEND`` before Keras is first imported in its child process, so one child runs one backend.

A case's ``call`` is ``ops.image.resize`` (``keras.ops.image.resize(x, size, interpolation=mode,
antialias=...)``), ``layers.Resizing`` (``keras.layers.Resizing(h, w, interpolation=mode, antialias=...)``
called on the tensor) or ``layers.UpSampling2D`` (``size=(m // n, ...)``, ``interpolation=mode``); every call is
channels_last.  The output is converted to numpy with ``keras.ops.convert_to_numpy``.
"""

import os


def install(release, backend, paired=None):
    """``keras==release`` with its backend: the pinned specs ``paired[release]`` names (an older Keras gets a
    backend release of its time that pip installs with it), else the backend's newest release."""
    if paired and release in paired:
        return [[f"keras=={release}", *paired[release]]]
    extra = {"tensorflow": ["tensorflow-cpu"], "jax": ["jax"],
             "torch": ["torch==2.13.0"]}[backend]
    return [[f"keras=={release}", "numpy"] + extra]


def keras_for(backend):
    os.environ["KERAS_BACKEND"] = backend
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import keras

    if keras.backend.backend() != backend:
        raise RuntimeError(f"Keras was imported with the {keras.backend.backend()} backend, not {backend}")
    return keras


def version(backend):
    return keras_for(backend).__version__


def run(case, inputs, cell, backend):
    import warnings

    import numpy as np

    keras = keras_for(backend)
    if case["options"]["backend"] != backend:
        cell.skip(f"a case of the {case['options']['backend']} backend")
    x_np = inputs["X"]
    size = tuple(case["size"])
    mode = case["mode"]
    antialias = bool(case["options"].get("antialias", False))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with cell.stage("convert"):
            x = keras.ops.convert_to_tensor(x_np)
            if case["call"] == "layers.Resizing":
                layer = keras.layers.Resizing(size[0], size[1], interpolation=mode, antialias=antialias)
            elif case["call"] == "layers.UpSampling2D":
                factors = tuple(m // n for m, n in zip(size, (x_np.shape[1], x_np.shape[2])))
                layer = keras.layers.UpSampling2D(size=factors, interpolation=mode)
            else:
                layer = None
        with cell.stage("run"):
            if layer is not None:
                y = layer(x)
            else:
                y = keras.ops.image.resize(x, size, interpolation=mode, antialias=antialias)
            out = np.asarray(keras.ops.convert_to_numpy(y))
    for w in caught:
        cell.note(f"{w.category.__name__}: {str(w.message).strip().splitlines()[0] if str(w.message).strip() else ''}"[:300])
    cell.note(f"output dtype {out.dtype}")
    cell.output(out)

"""JAX (CPU, 64-bit mode off as by default): ``jax.image.resize`` and ``jax.image.scale_and_translate`` (the
scale m/n per resized axis, no translation) under ``jax.jit``, and the gradient of ``sum(Y * G)`` by
``jax.grad`` of the jitted call for float32 inputs.  A float64 input is what jax.numpy makes of it with x64
off (float32, silently); bfloat16 outputs are returned as float32.  Warnings are the cell's notes.
"""

import os

NAME = "jax"
PRODUCT = "jax"
KINDS = ("jax",)
PACKAGES = ("jax", "jaxlib", "numpy")
RELEASES = ("0.4.30", "0.5.3", "0.6.2", "0.9.2", "0.10.0", "0.10.1", "0.10.2")
CURRENT = "0.10.2"


def install(release):
    return [[f"jax=={release}", f"jaxlib=={release}", "numpy"]]


def version():
    os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    return jax.__version__


def function(case):
    """The jitted call of the case: ``x -> y``."""
    import jax
    import jax.numpy as jnp

    shape = list(case["input_shape"])
    for axis in case["axes"]:
        shape[axis] = case["output_shape"][axis]
    antialias = bool(case["options"].get("antialias", True))
    method = case["mode"]
    if case["call"] == "scale_and_translate":
        axes = tuple(case["axes"])
        scale = jnp.asarray([case["output_shape"][a] / case["input_shape"][a] for a in axes], jnp.float32)
        translation = jnp.zeros(len(axes), jnp.float32)
        return jax.jit(lambda x: jax.image.scale_and_translate(x, tuple(shape), axes, scale, translation, method,
                                                               antialias=antialias))
    return jax.jit(lambda x: jax.image.resize(x, tuple(shape), method, antialias=antialias))


def to_numpy(y):
    import jax.numpy as jnp
    import numpy as np

    if y.dtype == jnp.bfloat16:
        y = y.astype(jnp.float32)
    return np.asarray(y)


def run(case, inputs, cell):
    import warnings

    import jax
    import jax.numpy as jnp

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = jnp.asarray(inputs["X"])
        if case["dtype"] == "bfloat16":
            x = x.astype(jnp.bfloat16)
    for w in caught:
        cell.note(f"{w.category.__name__}: {str(w.message).splitlines()[0]}")
    f = function(case)
    with cell.stage("run"):
        y = f(x)
        out = to_numpy(y)
    cell.output(out)
    if case["train"] and case["dtype"] == "float32":
        with cell.stage("gradient"):
            g = jnp.asarray(inputs["G"], y.dtype)
            grad = jax.jit(jax.grad(lambda v: jnp.sum(f(v) * g)))(x)
            cell.gradient(to_numpy(grad))

"""Runs Keras 3 resizes on one backend in a subprocess (``KERAS_BACKEND`` is read once, at ``import keras``).

:func:`run` sends a list of cases to ``python tests/keras_oracle.py`` with the backend set and returns, per case,
the output and (when the case has an upstream gradient ``g``) the gradient with respect to the input, computed by
the backend's own autodiff (TensorFlow ``GradientTape``, ``jax.vjp``, torch autograd), or the error texts
(``error``: the forward failed; ``grad_error``: only the gradient did).

A case: ``x`` (NHWC array), ``size`` (h, w) or ``factors`` (UpSampling2D), ``interpolation``, ``antialias``,
``layer`` ("op", "Resizing" or "UpSampling2D"), ``g`` (None: no gradient).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np


def available() -> bool:
    try:
        import keras  # noqa: F401
    except ImportError:
        return False
    return True


def run(backend: str, cases: list[dict], timeout: float = 600) -> list[dict]:
    env = dict(os.environ, KERAS_BACKEND=backend, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="",
               JAX_PLATFORMS="cpu", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, str(Path(__file__).resolve())], input=pickle.dumps(cases),
                          capture_output=True, env=env, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the Keras {backend} oracle failed: {done.stderr.decode()[-3000:]}")
    return pickle.loads(done.stdout)


# ------------------------------------------------------------------------------------------------ the subprocess
def _layer(keras, case):
    if case["layer"] == "UpSampling2D":
        return keras.layers.UpSampling2D(size=tuple(case["factors"]), interpolation=case["interpolation"])
    if case["layer"] == "Resizing":
        return keras.layers.Resizing(*case["size"], interpolation=case["interpolation"],
                                     antialias=case["antialias"])
    return lambda v: keras.ops.image.resize(v, tuple(case["size"]), interpolation=case["interpolation"],
                                            antialias=case["antialias"])


def _one(keras, backend, case):
    f = _layer(keras, case)
    x, g = case["x"], case.get("g")
    if g is not None:
        try:
            return _gradient(backend, f, x, g)
        except Exception as exc:  # the forward may stand alone; the gradient's error is reported
            return {"y": np.asarray(keras.ops.convert_to_numpy(f(x))), "grad_error": f"{type(exc).__name__}: {exc}"}
    return {"y": np.asarray(keras.ops.convert_to_numpy(f(x)))}


def _gradient(backend, f, x, g):
    if backend == "tensorflow":
        import tensorflow as tf
        v = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = f(v)
        return {"y": y.numpy(), "gx": tape.gradient(y, v, output_gradients=tf.constant(g)).numpy()}
    if backend == "jax":
        import jax
        y, pullback = jax.vjp(lambda v: f(v), x)
        return {"y": np.asarray(y), "gx": np.asarray(pullback(g.astype(np.asarray(y).dtype))[0])}
    import torch
    v = torch.from_numpy(x.copy()).requires_grad_(True)
    y = f(v)
    y.backward(torch.from_numpy(g.copy()))
    return {"y": y.detach().numpy(), "gx": v.grad.numpy()}


def _main():
    cases = pickle.loads(sys.stdin.buffer.read())
    import keras
    backend = keras.backend.backend()
    out = []
    for case in cases:
        try:
            out.append(_one(keras, backend, case))
        except Exception as exc:  # one bad case is reported, not fatal
            out.append({"error": f"{type(exc).__name__}: {exc}"})
    sys.stdout.buffer.write(pickle.dumps(out))


if __name__ == "__main__":
    _main()

"""TensorFlow (CPU): ``tf.image.resize`` (v2: every method, ``antialias``) and the v1 functions
``tf.compat.v1.image.resize_{nearest_neighbor,bilinear,bicubic,area}`` (``align_corners``,
``half_pixel_centers``), eagerly, on an NHWC input; the gradient of ``sum(Y * G)`` with ``tf.GradientTape``
for float32/float64 inputs.  One intra-op and one inter-op thread; bfloat16 outputs are returned as float32.

A case's ``variant``: ``"xla"`` runs the call and its gradient each in a ``tf.function(jit_compile=True)``;
``"second-order"`` runs the call eagerly and then, after the first-order gradient is recorded, a second
derivative by nested ``tf.GradientTape`` (:func:`run_second_order`): its failure (or a ``None``, raised as a
``LookupError`` saying so) is the cell's gradient error.
"""

import os

NAME = "tensorflow"
PRODUCT = "tensorflow"
KINDS = ("tensorflow",)
PACKAGES = ("tensorflow", "tensorflow-cpu", "numpy")
RELEASES = ("2.12.1", "2.13.1", "2.14.1", "2.16.2", "2.17.1", "2.18.1", "2.21.0")
CURRENT = "2.21.0"
#: an XLA compile error names the traced graph with a counter of the functions traced before it in the process
#: and the session's config hashes: recorded as ``__inference_<name>_<n>``
VOLATILE = ((r"(__inference_\S*?)_\d+\[_XlaMustCompile=true,config_proto=\d+,executor_type=\d+\]", r"\1_<n>"),)
V1_FUNCTIONS = {"nearest": "resize_nearest_neighbor", "bilinear": "resize_bilinear", "bicubic": "resize_bicubic",
                "area": "resize_area"}
_configured = False


def install(release):
    return [[f"tensorflow-cpu=={release}", "numpy"]]


def _tf():
    global _configured
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf

    if not _configured:
        _configured = True
        try:
            tf.config.threading.set_intra_op_parallelism_threads(1)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:  # already initialised
            pass
    return tf


def version():
    return _tf().__version__


def resize(tf, x, case):
    """The case's call on the tensor ``x``."""
    options = case["options"]
    size = list(case["size"])
    if options.get("version") == 1:
        function = getattr(tf.compat.v1.image, V1_FUNCTIONS[case["mode"]])
        kwargs = {"align_corners": bool(options.get("align_corners", False))}
        if case["mode"] != "area":
            kwargs["half_pixel_centers"] = bool(options.get("half_pixel_centers", False))
        return function(x, size, **kwargs)
    return tf.image.resize(x, size, method=case["mode"], antialias=bool(options.get("antialias", False)))


def to_numpy(tf, y):
    if y.dtype == tf.bfloat16:
        y = tf.cast(y, tf.float32)
    return y.numpy()


def run_xla(tf, x, case, inputs, cell):
    """The call and the gradient of ``sum(Y * G)``, each compiled by XLA."""
    g = tf.constant(inputs["G"], tf.float64)
    forward = tf.function(lambda v: resize(tf, v, case), jit_compile=True)

    def backward(v):
        with tf.GradientTape() as tape:
            tape.watch(v)
            loss = tf.reduce_sum(tf.cast(resize(tf, v, case), tf.float64) * g)
        return tape.gradient(loss, v)

    with cell.stage("run"):
        out = to_numpy(tf, forward(x))
    cell.output(out)
    if case["train"]:
        with cell.stage("gradient"):
            cell.gradient(to_numpy(tf, tf.function(backward, jit_compile=True)(x)))


def run_second_order(tf, x, case, inputs, cell):
    """The call and its gradient as in :func:`run`, then the second derivative ``d/dx sum(grad_x(L) * X)`` of
    ``L = sum(Y * Y * G) / 2``, a loss whose gradient depends on ``Y`` (as a gradient penalty's does): raises
    when TensorFlow has none."""
    g = tf.constant(inputs["G"], tf.float64)
    with cell.stage("run"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = resize(tf, x, case)
            loss = tf.reduce_sum(tf.cast(y, tf.float64) * g)
        cell.output(to_numpy(tf, y))
    with cell.stage("gradient"):
        cell.gradient(to_numpy(tf, tape.gradient(loss, x)))
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.cast(resize(tf, x, case), tf.float64)
                penalty = tf.reduce_sum(y * y * g) / 2
            grad = inner.gradient(penalty, x)
            second_loss = tf.reduce_sum(tf.cast(grad, tf.float64) * tf.constant(inputs["X"], tf.float64))
        second = outer.gradient(second_loss, x)
        if second is None:
            raise LookupError("the second derivative is None: the gradient op of this resize is not differentiable")
    cell.note(f"second derivative max |.| {float(tf.reduce_max(tf.abs(second))):.3g}")


def run(case, inputs, cell):
    tf = _tf()
    dtype = {"float32": tf.float32, "float16": tf.float16, "bfloat16": tf.bfloat16, "float64": tf.float64,
             "uint8": tf.uint8, "int8": tf.int8}[case["dtype"]]
    x = tf.cast(tf.constant(inputs["X"]), dtype)
    if case.get("variant") == "xla":
        return run_xla(tf, x, case, inputs, cell)
    if case.get("variant") == "second-order":
        return run_second_order(tf, x, case, inputs, cell)
    trains = case["train"] and dtype.is_floating
    with cell.stage("run"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = resize(tf, x, case)
            loss = tf.reduce_sum(tf.cast(y, tf.float64) * tf.constant(inputs["G"], tf.float64)) if trains else None
        out = to_numpy(tf, y)
    cell.output(out)
    if trains:
        with cell.stage("gradient"):
            grad = tape.gradient(loss, x)
            if grad is None:
                raise LookupError("tape.gradient returned None: no gradient is registered through this resize")
            cell.gradient(to_numpy(tf, tf.convert_to_tensor(grad)))

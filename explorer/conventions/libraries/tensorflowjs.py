"""TensorFlow.js as a runtime: ``tf.image.resizeBilinear`` / ``resizeNearestNeighbor`` on its backends (cpu,
wasm, webgl, webgpu) and the tfjs-converter that writes TensorFlow graphs for them (tensorflow/tfjs read at tags
tfjs-v1.2.8 ... tfjs-v4.22.0).

What its kernels compute is not modelled here (nothing was run): its records are what it refuses.
"""

from __future__ import annotations

from ..declarations import Backend, Runtime
from ..registry import register

RUNTIME = register(Runtime(
    id="tensorflowjs", title="TensorFlow.js", order=75,
    backends=(Backend("tensorflowjs", "tf.image.resizeBilinear / resizeNearestNeighbor on a TensorFlow.js backend "
                      "(cpu, wasm, webgl, webgpu)", ("cpu", "gpu"), "javascript",
                      aliases=("tfjs", "tfjs-wasm", "tfjs-webgl", "tfjs-converter", "tensorflow.js"),
                      modes={"resizeNearestNeighbor": "nearest", "resizeBilinear": "linear"}),),
    words=("tfjs", "tensorflowjs", "tfjs_graph_model", "tfjs_layers_model"),
    version_markers=("@tensorflow/tfjs@", "tfjs-v", "tensorflowjs==")))

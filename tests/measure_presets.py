"""Print the largest difference between every library preset and the real library (not a test).

    python tests/measure_presets.py            # every library found
    python tests/measure_presets.py opencv     # some of them

Each row resizes seeded [0, 1] float32 images (uint8 rows: 0..255 images) over sizes 1..60 up and down and
reports the worst absolute difference; nearest rows and uint8 rows report integer differences.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

from explorer.conventions import library_resize, presets  # noqa: E402
from preset_cases import image, options_id, size_grid  # noqa: E402

CASES = 30


def _worst(library, mode, options, run, dtype=np.float32, cases=CASES, channels=None, skip=lambda *c: False):
    worst = 0.0
    for h, w, H, W in size_grid(("measure", library, mode, options_id(options), np.dtype(dtype).name), cases):
        if skip(h, w, H, W):
            continue
        shape = (h, w) if channels is None else (h, w, channels)
        x = image((library, mode, h, w), shape, dtype)
        want = run(x, (H, W))
        got = library_resize(x, (H, W), library=library, mode=mode, axes=(0, 1), **options)
        worst = max(worst, float(np.abs(got.astype(np.float64) - want.astype(np.float64)).max()))
    return worst


def opencv():
    import cv2

    for row in presets("opencv"):
        flag = getattr(cv2, row.mode)
        run = lambda x, s, flag=flag: cv2.resize(x, (s[1], s[0]), interpolation=flag).reshape(s + x.shape[2:])  # noqa
        yield row, "float32", _worst("opencv", row.mode, {}, run)
        yield row, "float64", _worst("opencv", row.mode, {}, run, np.float64)
        if row.mode != "INTER_LINEAR_EXACT":
            yield row, "uint8", _worst("opencv", row.mode, {}, run, np.uint8, channels=3)


def pillow():
    from PIL import Image

    for row in presets("pillow"):
        f = getattr(Image.Resampling, row.mode)
        run = lambda x, s, f=f: np.asarray(Image.fromarray(x).resize((s[1], s[0]), f))  # noqa
        yield row, "float32", _worst("pillow", row.mode, {}, run)
        yield row, "uint8", _worst("pillow", row.mode, {}, run, np.uint8, channels=3)


def torch():
    import torch as t

    for row in presets("torch"):
        if row.mode in ("linear", "trilinear"):
            continue  # 1-D and 3-D: tests/conventions/test_torch_oracle.py

        def run(x, s, row=row):
            y = t.nn.functional.interpolate(t.from_numpy(np.moveaxis(x, -1, 0)[None].copy()), size=s, mode=row.mode,
                                            **row.options)
            return np.moveaxis(y[0].numpy(), 0, -1)

        # PyTorch 2.13 antialiased and uint8 kernels are wrong for an output width of 1 (see test_conventions_torch.py)
        skip = (lambda h, w, H, W: W == 1) if row.options.get("antialias") else (lambda *c: False)
        yield row, "float32", _worst("torch", row.mode, row.options, run, channels=3, skip=skip)
        if row.mode in ("bilinear", "bicubic", "lanczos"):
            yield row, "uint8", _worst("torch", row.mode, row.options, run, np.uint8, channels=3,
                                       skip=lambda h, w, H, W: W == 1)


def tensorflow():
    import tensorflow as tf

    ops = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor", "bicubic": "ResizeBicubic",
           "area": "ResizeArea"}
    for row in presets("tensorflow"):
        def run(x, s, row=row):
            if row.options.get("version") == 1:
                kw = {k: v for k, v in row.options.items() if k != "version"}
                return getattr(tf.raw_ops, ops[row.mode])(images=x[None], size=s, **kw).numpy()[0]
            return tf.image.resize(x[None], s, method=row.mode, **row.options).numpy()[0]
        yield row, "float32", _worst("tensorflow", row.mode, row.options, run, channels=2)


def jax():
    import jax as j

    for row in presets("jax"):
        run = lambda x, s, row=row: np.asarray(j.image.resize(x, s, row.mode, **row.options))  # noqa
        yield row, "float32", _worst("jax", row.mode, row.options, run, cases=4)
        with j.enable_x64(True):
            yield row, "float64", _worst("jax", row.mode, row.options, run, np.float64, cases=2)


def onnx():
    sys.path.insert(0, os.path.dirname(__file__))
    from onnx_models import attributes as _attributes, ort_resize

    for row in presets("onnx"):
        if row.options.get("opset") == 10:
            continue  # scales only: tests/conventions/test_conventions_onnx.py
        opset = row.options.get("opset", 19)
        run = lambda x, s, row=row, opset=opset: ort_resize(x, row.mode, sizes=s, opset=opset,  # noqa
                                                            **_attributes(row.options))
        yield row, "float32", _worst("onnx", row.mode, row.options, run, cases=10)


LIBRARIES = {"opencv": opencv, "pillow": pillow, "torch": torch, "tensorflow": tensorflow, "jax": jax, "onnx": onnx}


def main(names):
    for name in names or LIBRARIES:
        for row, dtype, worst in LIBRARIES[name]():
            print(f"{row.library:10s} {row.mode:20s} {options_id(row.options):60s} {dtype:8s} {worst:.3g}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Libraries: one mode in every library, outputs and gradients compared with a reference library.

Each library runs as it really is: its own mode name and, by default, its own defaults (``jax.image.resize``
antialiases, Burn aligns corners), or with ``same_options`` PyTorch's ``align_corners`` and ``antialias`` for
all; a mode or option a library lacks gets the closest call it has and a note
(:func:`explorer.conventions.native_call.native_call`).  Numbers only (no matplotlib): the view of the same name
in :mod:`explorer.ui.views` draws them.

>>> import numpy as np
>>> img = np.random.default_rng(0).random((16, 16, 1)).astype(np.float32)
>>> data = compute_libraries(img, "bilinear", ["torch", "jax"], scale=0.5)
>>> data.calls["jax"], data.metrics["jax"]["psnr"] < 60
(('linear', {'antialias': True}), True)
>>> print(data.code["jax"].split("  #")[0])
y = jax.image.resize(x_nhwc, (n, 8, 8, c), method="linear", antialias=True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...advisor.snippets import library_code
from ...conventions.library_resize import library_resize, library_resize_backward
from ...conventions.native_call import NativeCall, difference_note, native_call
from ...errors import NoGradientError


@dataclass
class LibrariesData:
    image: np.ndarray
    mode: str
    outputs: dict  # library -> (h, w, C) array or exception
    grads: dict  # library -> (H, W, C) gradient, exception or None
    reference: str | None
    metrics: dict = field(default_factory=dict)  # library -> {metric: value}
    calls: dict = field(default_factory=dict)  # library -> (its own mode name, the options it runs with)
    notes: dict = field(default_factory=dict)  # library -> [sentences: fallbacks, options left out, differences]
    code: dict = field(default_factory=dict)  # library -> the call in the library's own API
    same_options: bool = False


def compare_outputs(ref, y, g_ref=None, g=None) -> dict:
    """Differences of ``y`` from ``ref`` (and of gradient ``g`` from ``g_ref``).

    >>> compare_outputs(np.zeros((2, 2, 1)), np.full((2, 2, 1), 0.5))["psnr"]
    6.020599913279624
    """
    out = {"shape": f"{y.shape[0]}×{y.shape[1]}"}
    if ref is None or y.shape != ref.shape:
        out.update(max_abs=np.nan, rmse=np.nan, psnr=np.nan, changed=np.nan, grad_cosine=np.nan)
        return out
    d = np.asarray(y, np.float64) - np.asarray(ref, np.float64)
    rmse = float(np.sqrt(np.mean(d * d)))
    out.update(max_abs=float(np.abs(d).max()), rmse=rmse,
               psnr=float("inf") if rmse == 0 else float(20 * np.log10(1.0 / rmse)),
               changed=float(np.mean(np.abs(d) > 1e-6)))
    if g is not None and g_ref is not None and np.shape(g) == np.shape(g_ref):
        a, b = np.ravel(g).astype(np.float64), np.ravel(g_ref).astype(np.float64)
        denom = float(np.linalg.norm(a) * np.linalg.norm(b))
        out["grad_cosine"] = float(a @ b / denom) if denom else float("nan")
    else:
        out["grad_cosine"] = np.nan
    return out


def compute_libraries(image, mode, libraries, *, scale=None, size=None, align_corners=False, antialias=False,
                      training=True, seed=0, same_options=False) -> LibrariesData:
    """Run PyTorch's ``mode`` as each library calls it on ``image``; errors are kept, not raised.  With
    ``same_options`` every library gets ``align_corners`` and ``antialias`` (where it has them), else each
    runs at its own defaults.  Every library gets the same explicit output size (a ``scale`` becomes
    ``floor(n * scale)``, PyTorch's rule), so the outputs compare pixel by pixel, as in
    :func:`explorer.compare_conventions`; the first library that runs is the reference."""
    if scale is not None and size is None:
        size = tuple(max(int(n * scale), 0) for n in image.shape[:2])
    size = tuple(int(s) for s in size)
    calls = {lib: native_call(lib, mode, align_corners=align_corners, antialias=antialias,
                              same_options=same_options) for lib in libraries}
    torch_call = native_call("torch", mode, align_corners=align_corners, antialias=antialias,
                             same_options=same_options)
    lengths = list(zip(image.shape[:2], size))
    data = LibrariesData(image, mode, {}, {}, None, same_options=same_options)
    upstream = np.random.default_rng(seed).standard_normal(size + image.shape[2:]).astype(np.float32)
    for lib, call in calls.items():
        data.calls[lib] = (call.mode, dict(call.options))
        data.code[lib] = library_code(lib, call.mode, call.options, size)[1]
        data.notes[lib] = list(call.notes)
        if lib != "torch":
            data.notes[lib] += [n for n in [difference_note(call, torch_call, lengths)] if n]
        data.outputs[lib], data.grads[lib] = _run(call, image, size, upstream if training else None)
    data.reference = next((lib for lib in libraries if isinstance(data.outputs.get(lib), np.ndarray)), None)
    if data.reference is not None:
        g_ref = _array(data.grads.get(data.reference))
        for lib, y in data.outputs.items():
            if isinstance(y, np.ndarray):
                data.metrics[lib] = compare_outputs(data.outputs[data.reference], y, g_ref, _array(data.grads[lib]))
    return data


def _run(call: NativeCall, image, size, upstream):
    """(output, gradient) of one library's call on an (H, W, C) image; an error in place of either."""
    lib, mode, options = call.computed_as
    planes = np.ascontiguousarray(np.moveaxis(image, 2, 0))
    try:
        y = np.moveaxis(library_resize(planes, size, library=lib, mode=mode, axes=(1, 2), **options), 0, 2)
    except Exception as exc:  # noqa: BLE001 - shown in the panel
        return exc, None
    if upstream is None:
        return y, None
    if call.no_gradient:
        return y, NoGradientError(call.no_gradient)
    try:
        g = library_resize_backward(np.ascontiguousarray(np.moveaxis(upstream, 2, 0)), planes.shape, size,
                                    library=lib, mode=mode, axes=(1, 2), **options)
        return y, np.moveaxis(g, 0, 2)
    except Exception as exc:  # noqa: BLE001 - e.g. a library without gradients
        return y, exc


def _array(value):
    return value if isinstance(value, np.ndarray) else None

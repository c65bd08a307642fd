"""Libraries: one mode in every library, outputs and gradients compared with a reference library.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...conventions.image_resize import ImageResize


@dataclass
class LibrariesData:
    image: np.ndarray
    mode: str
    outputs: dict  # library -> (h, w, C) array or exception
    grads: dict  # library -> (H, W, C) gradient, exception or None
    reference: str | None
    metrics: dict = field(default_factory=dict)  # library -> {metric: value}


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
                      training=True, seed=0) -> LibrariesData:
    """Run ``mode`` under each library's convention on ``image``; errors are kept, not raised.  Every library
    gets the same explicit output size (a ``scale`` becomes ``floor(n * scale)``, PyTorch's rule), so the
    outputs compare pixel by pixel, as in :func:`explorer.compare_conventions`."""
    if scale is not None and size is None:
        size, scale = tuple(max(int(n * scale), 0) for n in image.shape[:2]), None
    outputs, grads = {}, {}
    upstream = {}
    for lib in libraries:
        try:
            r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=antialias,
                            library=lib)
            y = r.forward(image)
            outputs[lib] = y
        except Exception as exc:  # noqa: BLE001 - shown in the panel
            outputs[lib], grads[lib] = exc, None
            continue
        if not training:
            grads[lib] = None
            continue
        try:
            if y.shape not in upstream:
                upstream[y.shape] = np.random.default_rng(seed).standard_normal(y.shape).astype(np.float32)
            grads[lib] = r.backward(upstream[y.shape], image.shape)
        except Exception as exc:  # noqa: BLE001 - e.g. a library without gradients
            grads[lib] = exc
    reference = next((lib for lib in libraries if isinstance(outputs.get(lib), np.ndarray)), None)
    metrics = {}
    if reference is not None:
        g_ref = grads.get(reference)
        g_ref = g_ref if isinstance(g_ref, np.ndarray) else None
        for lib in libraries:
            y = outputs[lib]
            if isinstance(y, np.ndarray):
                g = grads.get(lib)
                metrics[lib] = compare_outputs(outputs[reference], y, g_ref, g if isinstance(g, np.ndarray) else None)
    return LibrariesData(image, mode, outputs, grads, reference, metrics)

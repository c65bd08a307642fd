"""Code to paste: the resize call a setup describes, in its framework's language.

>>> from explorer.advisor.question import Question
>>> print(resize_code(Question.of(mode="nearest", backend="burn-tch"), (64, 64))[1])
use burn::tensor::module::interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions};
let options = InterpolateOptions::new(InterpolateMode::Nearest);
let y = interpolate(x, [64, 64], options);
>>> print(resize_code(Question.of(mode="bilinear", backend="burn-wgpu", align_corners=False), None)[1].splitlines()[2])
let options = InterpolateOptions::new(InterpolateMode::Bilinear).with_align_corners(false);
"""

from __future__ import annotations

from ..conventions.registry import library as library_rules
from .question import Question


def _size(size, names=("h_out", "w_out")):
    if size is None:
        return names
    return tuple(str(int(s)) for s in size[-2:])


def resize_code(setup: Question, size=None, scale_factor=None) -> tuple[str, str]:
    """``(language, code)`` for the resize call of ``setup`` (output ``size`` or ``scale_factor``), as the
    backend's declaration writes it (``Backend.writes``)."""
    h, w = _size(size)
    writes = setup.backend.declared.writes if setup.backend.declared is not None else None
    if writes is None:
        return "python", f"# {setup.backend.id}: {setup.mode} to ({h}, {w})"
    return writes(setup, h, w, size, scale_factor)


def burn_backend_code(setup: Question) -> str:
    """The backend type alias for a Burn backend, with autodiff when training."""
    t = setup.backend.rust_type
    if setup.training:
        return f"use burn::backend::{{Autodiff, {t}}};\ntype MyBackend = Autodiff<{t}>;"
    return f"use burn::backend::{t};\ntype MyBackend = {t};"


def library_code(library: str, mode: str, options: dict, size) -> tuple[str, str]:
    """``(language, code)``: ``library``'s own resize call with its ``mode`` and ``options`` (its own names,
    as :func:`explorer.conventions.native_call.native_call` gives them), to output ``size`` (H, W).

    >>> library_code("jax", "linear", {"antialias": True}, (64, 48))[1].split("  #")[0]
    'y = jax.image.resize(x_nhwc, (n, 64, 48, c), method="linear", antialias=True)'
    >>> library_code("tensorflow", "bilinear", {"version": 1, "align_corners": True}, (64, 48))[1]
    'y = tf.compat.v1.image.resize(x_nhwc, (64, 48), method=tf.compat.v1.image.ResizeMethod.BILINEAR, align_corners=True)'
    """
    h, w = _size(size)
    return library_rules(library).code(mode, dict(options), h, w)

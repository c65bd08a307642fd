"""What a backend computes for a question, forward and backward, on a numpy array (N, C, *spatial).

Each backend's declaration says what it computes (``Backend.computes`` in its module of
:mod:`explorer.conventions.libraries`): a library preset (library, native mode, the library's own options), or
for a backend no library models, a bare Spec.  :func:`computation` asks it, and :func:`forward` /
:func:`backward` run the answer with :func:`explorer.library_resize` / :func:`explorer.library_resize_backward`,
so the advisor computes exactly what ``explorer.preset`` describes: every size, scale, arithmetic and gradient
rule lives in :mod:`explorer.conventions`.

``intended=False`` also reproduces the known silent bugs of the question's release (v0.22.0-pre.1's
NearestExact -> Nearest under fusion); ``intended=True`` computes what the mode means in its library, on a
backend that runs it when the question's does not (Burn NearestExact on burn-tch: the cubecl arithmetic).

>>> import numpy as np
>>> from explorer.advisor.question import Question
>>> x = np.arange(4.0).reshape(1, 1, 1, 4)
>>> y, gx = compute(Question.of(mode="NearestExact", backend="burn-wgpu"), x, (1, 8), grad_output=np.ones((1, 1, 1, 8)))
>>> y[0, 0, 0].tolist(), gx[0, 0, 0].tolist()
([0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [2.0, 2.0, 2.0, 2.0])
>>> call = computation(Question.of(mode="INTER_NEAREST_EXACT", backend="opencv"))
>>> call.library, call.mode, spec_of(call).index_arithmetic
('opencv', 'INTER_NEAREST_EXACT', 'incremental')
>>> computation(Question.of(mode="bilinear", backend="burn-flex")).describe()
"burn Bilinear (backend='flex', align_corners=True)"
"""

from __future__ import annotations

import math

import numpy as np

from .. import validate
from ..conventions import (
    NoGradientError,
    library_resize,
    library_resize_backward,
    library_resize_transpose,
    preset,
)
from ..conventions.declarations import Computation
from ..conventions.registry import Library, library
from ..engine.resize import resize, resize_backward
from ..engine.spec import Spec
from ..errors import ArgumentValueError, brief
from .question import Question


def computation(setup: Question, spatial=None, out=None, intended=True) -> Computation:
    """What the question's backend computes (its declaration's ``computes``); ``spatial`` and ``out`` (input and
    output sizes) matter only where the rule depends on them (MLX nearest).  Raises ValueError when the backend
    has no numeric model."""
    computes = setup.backend.declared.computes if setup.backend.declared is not None else None
    if computes is None:
        raise ArgumentValueError(f"no numeric model for {setup.backend.id} mode {setup.mode!r}")
    return computes(setup, spatial, out, intended)


def spec_of(call: Computation) -> Spec:
    """The Spec a computation runs (a preset's, or its own)."""
    return call.spec_only if call.spec_only is not None else preset(call.library, call.mode, **call.options)


def convention_text(call: Computation) -> str:
    """A computation and the Spec it runs, in one line: ``burn Bilinear (backend='flex'): Spec(...)``."""
    if call.library is None:
        return repr(call.spec_only)
    return f"{call.describe()}: {spec_of(call)!r}"


def _rules(call: Computation) -> Library | None:
    return None if call.library is None else library(call.library)


def takes_scale_factor(call: Computation) -> bool:
    """Whether the library turns a scale factor into the output size itself (else the size is given)."""
    if call.library is None:
        return call.steps_by_factor
    return _rules(call).takes_scale_factor


# ------------------------------------------------------------------------------------------------ sizes
def _factors(scale_factor, count):
    """One positive finite factor per spatial axis (a number is repeated)."""
    return tuple(validate.scale_factors(scale_factor, count))


def output_size(setup: Question, spatial, size=None, scale_factor=None) -> tuple[int, ...]:
    """The output size the backend produces for ``size`` or ``scale_factor`` (the library's own rule:
    PyTorch/MLX/Burn floor, ONNX ``int(float32(f) * n)``, OpenCV cvRound; libraries that take only a size get
    ``floor(n * f)``)."""
    if size is not None:
        size = (size,) * len(spatial) if validate.is_integer(size) else validate.lengths(size)
        if len(size) != len(spatial):
            raise ArgumentValueError(f"size={size} has {len(size)} entries but the input has {len(spatial)} spatial axes "
                             f"{tuple(spatial)}")
        return validate.lengths(size)
    factors = _factors(scale_factor, len(spatial))
    try:
        call = computation(setup)
        rules = _rules(call) if call.library is not None and takes_scale_factor(call) else None
        options = None if rules is None else rules.resolve_options(rules.mode(call.mode), call.options)
    except ValueError:
        rules = None  # no numeric model for these options: the size the user would compute
    try:
        if rules is not None:
            out = tuple(rules.output_length(int(n), f, options) for n, f in zip(spatial, factors))
        else:
            out = tuple(int(math.floor(n * f)) for n, f in zip(spatial, factors))
    except OverflowError:
        raise ArgumentValueError(f"scale_factor={brief(scale_factor)} makes the output of an input of size "
                                 f"{tuple(spatial)} too long to allocate") from None
    if any(m < 1 for m in out):  # a factor such as 1e-300: the library refuses an empty output
        raise ArgumentValueError(f"scale_factor={brief(scale_factor)} gives an empty output {out} for an input of "
                                 f"size {tuple(spatial)}; give a factor that leaves at least one sample on every axis")
    return out


def _arguments(call: Computation, dims, out, scale_factor) -> dict:
    """The size arguments of the call: the scale factor where the library takes one, else the size."""
    axes = tuple(range(2, 2 + dims))
    if scale_factor is not None and takes_scale_factor(call):
        factors = _factors(scale_factor, dims)
        if call.library is None:
            return dict(size=out, axes=axes, scale_factor=factors)
        return dict(axes=axes, scale_factor=factors)
    return dict(size=out, axes=axes)


# ------------------------------------------------------------------------------------------------ compute
def forward(setup: Question, x, size=None, scale_factor=None, intended=True) -> np.ndarray:
    """The setup's output for ``x`` (N, C, *spatial)."""
    x = np.asarray(x)
    spatial = x.shape[2:]
    out = output_size(setup, spatial, size, scale_factor)
    call = computation(setup, spatial, out, intended)
    args = _arguments(call, x.ndim - 2, out, scale_factor)
    if call.library is None:
        return resize(x, args.pop("size"), call.spec_only, **args)
    return library_resize(x, library=call.library, mode=call.mode, **args, **call.options)


def backward(setup: Question, grad_output, input_shape, size=None, scale_factor=None, intended=True,
             transpose=True) -> np.ndarray:
    """The gradient the setup's library returns for ``grad_output``.

    Where the library computes no gradient (OpenCV, Pillow, TensorFlow area, ONNX Runtime on CPU, some Burn
    backends) this is ``W^T grad_output``, the transpose of its forward, with ``transpose=True``; with
    ``transpose=False`` it raises :class:`explorer.conventions.NoGradientError` naming the library.
    """
    input_shape = tuple(int(s) for s in input_shape)
    spatial = input_shape[2:]
    out = output_size(setup, spatial, size, scale_factor)
    call = computation(setup, spatial, out, intended)
    args = _arguments(call, len(spatial), out, scale_factor)
    if call.library is None:
        return resize_backward(grad_output, input_shape, args.pop("size"), call.spec_only, **args)
    kwargs = dict(library=call.library, mode=call.mode, **args, **call.options)
    try:
        return library_resize_backward(grad_output, input_shape, **kwargs)
    except NoGradientError:
        if not transpose:
            raise
        return library_resize_transpose(grad_output, input_shape, **kwargs)


def compute(setup: Question, x, size=None, scale_factor=None, grad_output=None, intended=True):
    """``(y, grad_x)`` of the setup's resize; ``grad_x`` is None without ``grad_output`` (and ``W^T grad_output``
    where the library has no gradient, see :func:`backward`)."""
    x = np.asarray(x)
    y = forward(setup, x, size, scale_factor, intended)
    g = None if grad_output is None else backward(setup, grad_output, x.shape, size, scale_factor, intended)
    return y, g

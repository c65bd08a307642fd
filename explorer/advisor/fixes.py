"""``suggest_fixes``: candidate fixes ranked by what they change on the user's own tensor.

>>> import numpy as np
>>> x = np.random.default_rng(0).random((1, 2, 8, 8), dtype=np.float32)
>>> fixes = suggest_fixes(x, mode="nearest-exact", backend="burn-tch", scale_factor=2)
>>> print(fixes[0])
switch NearestExact -> Nearest: identical output and gradient for this 2x upscale
>>> fixes[0].exact, fixes[0].output_max_abs, fixes[0].grad_cosine
(True, 0.0, 1.0)
"""

from __future__ import annotations

import math

import numpy as np

from ..engine.memory import require, shape_text
from ..errors import ArgumentTypeError, ArgumentValueError
from ..validate import is_bfloat16, is_float
from .backend_calls import compute, output_size
from .findings import Finding, Fix, describe_change, findings_for, make_fix, unavailable_finding
from .knowledge import ModeUnavailable, load
from .snippets import burn_backend_code, resize_code
from .question import Question

_COST = {"setting": 0, "mode": 1, "convention": 1, "export": 1, "device": 2, "environment": 2, "workaround": 3,
         "version": 3, "backend": 4}


class Suggestions(list):
    """Ranked :class:`Fix` objects, plus the findings they answer and the candidates that were rejected."""

    def __init__(self, fixes, findings, rejected, setup, size):
        super().__init__(fixes)
        self.findings: list[Finding] = findings
        self.rejected: list[tuple[str, str]] = rejected
        self.setup = setup
        self.size = size

    def __str__(self):
        lines = [f"{k + 1}. {fix}" for k, fix in enumerate(self)]
        return "\n".join(lines) if lines else "no candidate fix runs on this setup"


def as_nchw(x) -> np.ndarray:
    """(H, W) and (C, H, W) arrays become (1, 1, H, W) and (1, C, H, W); N-D arrays stay (N, C, *spatial)."""
    try:
        x = np.asarray(x)
    except Exception as exc:  # noqa: BLE001 - report what was passed
        raise ArgumentTypeError(f"x must be an array, got {type(x).__name__}: {exc}") from None
    if x.dtype == object or (x.dtype.kind not in "fiub" and not is_bfloat16(x.dtype)):
        raise ArgumentTypeError(f"x must be a numeric array (integers, floats or bfloat16), got dtype {x.dtype}")
    if x.ndim < 2:
        raise ArgumentValueError(f"x must have at least 2 dimensions (H, W), got shape {x.shape}")
    if x.ndim == 2:
        return x[None, None]
    if x.ndim == 3:
        return x[None]
    return x


def scale_text(spatial, out) -> str:
    """'2x upscale', '0.75x downscale', '(2x, 1.5x) resize'."""
    factors = [m / n for n, m in zip(spatial, out)]
    fmt = [f"{f:.4g}x" for f in factors]
    if len(set(fmt)) == 1:
        f = factors[0]
        kind = "upscale" if f > 1 else ("downscale" if f < 1 else "same-size resize")
        return f"{fmt[0]} {kind}"
    return f"({', '.join(fmt)}) resize"


def compare(y_ref, y, g_ref=None, g=None) -> dict:
    """Difference metrics of an output (and a gradient) against the reference's."""
    tol = _tolerance(y_ref)  # in the reference's own dtype
    y_ref = np.asarray(y_ref, np.float64)
    y = np.asarray(y, np.float64)
    if y.shape != y_ref.shape:
        raise ArgumentValueError(f"output shapes differ: {y.shape} vs reference {y_ref.shape}")
    d = np.abs(y - y_ref)
    peak = float(np.max(y_ref) - np.min(y_ref)) if y_ref.size else 0.0
    max_abs = float(d.max()) if d.size else 0.0
    rmse = float(np.sqrt(np.mean(d * d))) if d.size else 0.0
    out = {"output_max_abs": max_abs, "output_rmse": rmse,
           "psnr": math.inf if rmse == 0 else 20 * math.log10((peak if peak > 0 else 1.0) / rmse),
           "changed_fraction": float(np.mean(d > tol)) if d.size else 0.0,
           "grad_cosine": None, "grad_rel_error": None, "grad_max_abs": None}
    exact = max_abs <= tol
    if g_ref is not None and g is not None:
        a = np.asarray(g_ref, np.float64).ravel()
        b = np.asarray(g, np.float64).ravel()
        na, nb = np.linalg.norm(a), np.linalg.norm(b)
        diff = np.linalg.norm(b - a)
        if diff == 0:
            out["grad_cosine"] = 1.0
        else:
            out["grad_cosine"] = 0.0 if na == 0 or nb == 0 else float(a @ b / (na * nb))
        out["grad_rel_error"] = 0.0 if diff == 0 else (math.inf if na == 0 else float(diff / na))
        out["grad_max_abs"] = float(np.max(np.abs(b - a))) if a.size else 0.0
        exact = exact and out["grad_max_abs"] <= _tolerance(g_ref)
    out["exact"] = bool(exact)
    return out


def _tolerance(ref) -> float:
    """Rounding noise of the reference's dtype at its magnitude: differences below it are not changes."""
    ref = np.asarray(ref)
    eps = np.finfo(ref.dtype).eps if ref.dtype.kind == "f" else np.finfo(np.float64).eps
    scale = float(np.max(np.abs(ref))) if ref.size else 0.0
    return 16 * eps * max(scale, 1e-30)


def measurement_bytes(input_shape, output_shape, training: bool) -> int:
    """Bytes measuring one candidate on a tensor holds at its peak, in float64: the input, the upstream
    gradient, the reference's output and gradient, the candidate's output, gradient and the resize's
    intermediate, and the difference arrays of :func:`compare` (four output-sized, four input-sized)."""
    n_in, n_out = math.prod(input_shape) * 8, math.prod(output_shape) * 8
    if not training:
        return 2 * n_in + 7 * n_out
    return 6 * n_in + 9 * n_out


def check_measurement_memory(input_shape, output_shape, training: bool, what: str):
    """Refuse, before anything is allocated, a measurement whose arrays cannot fit in memory."""
    require(measurement_bytes(input_shape, output_shape, training),
            f"{what} on a {shape_text(input_shape)} tensor resized to {shape_text(output_shape)}",
            hint="measure on a smaller tensor (the differences show at small sizes too)")


#: question fields suggest_fixes derives from ``x`` and ``size`` instead of taking them
_DERIVED = ("spatial_dims", "input_size", "output_size", "scale_factor")


def suggest_fixes(x, mode=None, backend=None, size=None, scale_factor=None, grad_output=None, *,
                  alternatives=True, **question) -> Suggestions:
    """Candidate fixes for ``mode`` on ``backend``, each measured on ``x`` and ranked.

    ``x`` is (N, C, *spatial), resized to ``size`` or by ``scale_factor``; the other fields of the question are
    those of :func:`explorer.check` (``training``, ``version``, ``device``, ``align_corners``, ``antialias``,
    ``dtype`` (default ``x``'s), ``deterministic``, ``export``, ``opset``, ``reference``, ``converter_version``);
    the spatial rank and sizes come from ``x``.  The reference is what the user asked for, as the backend's
    library defines it (or, given ``reference``, that library's meaning of the same mode).  Each fix is run
    through the numeric model of its target and compared with the reference: output max-abs and RMS
    difference, PSNR, share of values changed, and with ``training`` the gradient's cosine similarity and
    relative error (for ``grad_output``, or a seeded random one).  Fixes whose target still raises are left out
    (see ``.rejected``); ``exact`` fixes come first, the cheapest change first, then the rest by measured
    distance.  The memory the measurements need is checked before anything is computed
    (:class:`explorer.OutputTooLargeError`).
    """
    x = as_nchw(x)
    if (size is None) == (scale_factor is None):
        raise ArgumentValueError("give exactly one of size or scale_factor")
    derived = [name for name in _DERIVED if name in question]
    if derived:
        raise ArgumentTypeError(f"suggest_fixes takes no {derived[0]}=: the spatial rank and sizes come from x "
                                "and size or scale_factor")
    reference = question.pop("reference", None)
    question.setdefault("dtype", x.dtype)
    try:
        setup = Question.of(mode=mode, backend=backend, spatial_dims=x.ndim - 2, scale_factor=scale_factor,
                            reference=reference or "torch", **question)
    except ModeUnavailable as missing:
        return _closest_modes(x, missing, size, scale_factor, grad_output, reference, question)
    task = _sized_task(x, setup, size, scale_factor, grad_output)
    setup = task.setup
    reference_setup = setup if reference is None else setup.changed(backend=reference, mode=setup.spelling)
    task.y_ref, task.g_ref = compute(reference_setup, task.x, size, scale_factor, task.grad, intended=True)
    task.findings = findings_for(setup)
    ranked, rejected = _measure_all(task, _candidates(task, alternatives))
    ranked.sort(key=_rank_key)
    return Suggestions(ranked, task.findings, rejected, setup, task.out)


#: where the meaning of a mode a backend lacks is taken from when no ``reference`` is given: the first of
#: these libraries that has it (PyTorch, then the libraries whose mode names people port from)
_SOURCES = ("torch", "jax", "pillow", "tensorflow", "opencv")
#: question fields that belong to the target backend (its release, device, export), not to the source library
_TARGET_ONLY = ("version", "device", "export", "opset", "converter_version", "deterministic")


def _closest_modes(x, missing: ModeUnavailable, size, scale_factor, grad_output, reference, question):
    """The fixes for a mode the backend does not have: each of the backend's own modes, measured on ``x``
    against the mode as ``reference`` (or the first library of :data:`_SOURCES` that has it) computes it.

    >>> import numpy as np
    >>> x = np.random.default_rng(0).random((1, 1, 12, 12), dtype=np.float32)
    >>> fixes = suggest_fixes(x, mode="lanczos", backend="onnxruntime", scale_factor=0.5, antialias=True)
    >>> fixes.findings[0].severity, fixes[0].mode, fixes[0].backend
    ('error', 'cubic', 'onnxruntime')
    """
    common = {k: v for k, v in question.items() if k not in _TARGET_ONLY}
    source = None
    for sid in ([reference] if reference else list(_SOURCES)):
        try:
            source = Question.of(mode=missing.mode, backend=sid, spatial_dims=x.ndim - 2,
                                 scale_factor=scale_factor, **common)
            break
        except ModeUnavailable:
            continue
    if source is None:
        raise missing
    task = _sized_task(x, source, size, scale_factor, grad_output)
    source, spatial, out = task.setup, tuple(x.shape[2:]), task.out
    task.y_ref, task.g_ref = compute(source, task.x, size, scale_factor, task.grad, intended=True)
    task.findings = [unavailable_finding(missing)]
    ranked, rejected, target = [], [], None
    for native in missing.backend.mode_table():
        try:
            target = Question.of(mode=native, backend=missing.backend.id, spatial_dims=x.ndim - 2,
                                 scale_factor=scale_factor, **question).with_sizes(spatial, out)
        except ValueError as exc:
            rejected.append((f"{native} on {missing.backend.id}", str(exc)))
            continue
        language, code = resize_code(target, out, scale_factor)
        fix = Fix(description=f"use {native} on {missing.backend.id} ({missing.backend.id} has no "
                              f"{missing.mode}; measured against {source.backend.id} {source.mode})",
                  kind="mode", backend=missing.backend.id, mode=native, code=code, language=language,
                  change={"mode": native})
        reason = _measure(task, fix, target)
        if reason is None:
            ranked.append(fix)
        else:
            rejected.append((fix.description, reason))
    ranked.sort(key=_rank_key)
    return Suggestions(ranked, task.findings, rejected, target or source, out)


def _sized_task(x, setup: Question, size, scale_factor, grad_output) -> "_Task":
    """The measurement task of ``setup`` on ``x``: the output size by the setup's own rule, the memory checked
    before anything is allocated, the upstream gradient (the reference is left to the caller)."""
    spatial = tuple(x.shape[2:])
    out = tuple(output_size(setup, spatial, size, scale_factor))
    setup = setup.with_sizes(spatial, out)
    check_measurement_memory(x.shape, x.shape[:2] + out, setup.training, "measuring fixes")
    return _Task(setup, x if is_float(x.dtype) else x.astype(np.float64), size, scale_factor, out,
                 _upstream_gradient(x, out, setup.training, grad_output))


class _Task:
    """What every candidate is measured against: the setup, the input, the sizes and the reference."""

    def __init__(self, setup, x, size, scale_factor, out, grad):
        self.setup, self.x, self.size, self.scale_factor, self.out, self.grad = setup, x, size, scale_factor, out, grad
        self.y_ref = self.g_ref = None
        self.findings: list[Finding] = []

    @property
    def sizes(self):
        return tuple(self.x.shape[2:]), self.out


def _upstream_gradient(x, out, training: bool, grad_output):
    """The gradient flowing into the resize: the user's, or a seeded random one of the output's shape."""
    if not training:
        return None
    shape = x.shape[:2] + tuple(out)
    dtype = x.dtype if x.dtype.kind == "f" else np.float64
    grad = (np.random.default_rng(0).standard_normal(shape).astype(dtype) if grad_output is None
            else np.asarray(grad_output))
    if grad.shape != shape:
        raise ArgumentValueError(f"grad_output has shape {grad.shape} but the output has shape {shape}")
    return grad


def _candidates(task: _Task, alternatives: bool) -> list[Fix]:
    """The fixes the findings propose, then (with ``alternatives``) the other modes and backends."""
    has_error = any(f.severity == "error" for f in task.findings)
    candidates: list[Fix] = []
    for finding in task.findings:
        if finding.severity == "info":
            continue
        for fix in finding.fixes:
            # a fix that changes nothing in the setup only answers its own finding: with an error elsewhere
            # it would leave the error in place
            if has_error and not fix.change and finding.severity != "error":
                continue
            candidates.append(fix)
    if alternatives:
        candidates.extend(_alternatives(task.setup, task.out, task.scale_factor, has_error, candidates))
    return [fix for fix in candidates if fix.id != "smoke-test-backward"]


def _measure_all(task: _Task, candidates: list[Fix]):
    """``(measured fixes, [(description, why rejected)])``, each distinct target measured once."""
    ranked, rejected, seen = [], [], set()
    for fix in candidates:
        target = task.setup.changed(**dict(fix.change)) if fix.change else task.setup
        key = (target.backend.id, target.mode, target.version, target.device, target.align_corners,
               target.antialias, target.dtype, target.export, target.opset, fix.code if not fix.change else None)
        if key in seen:
            continue
        seen.add(key)
        reason = _measure(task, fix, target)
        if reason is None:
            ranked.append(fix)
        else:
            rejected.append((fix.description, reason))
    return ranked, rejected


def _measure(task: _Task, fix: Fix, target: Question) -> str | None:
    """Run ``fix``'s target on the task's input and record the differences on ``fix``; the reason it cannot
    run, or None."""
    target_findings = findings_for(target)
    # a fix that changes nothing in the setup (a workaround, an attribute set) answers the current errors
    errors = [f for f in target_findings if f.severity == "error"] if fix.change else []
    if errors:
        return errors[0].message
    try:
        y, g = compute(target, task.x, task.size, task.scale_factor, task.grad, intended=not fix.change)
    except (ValueError, TypeError, NotImplementedError) as exc:
        return str(exc)
    if y.shape != task.y_ref.shape:
        return f"output shape {y.shape} differs from {task.y_ref.shape}"
    for name, value in compare(task.y_ref, y, task.g_ref, g).items():
        setattr(fix, name, value)
    fix.scale_text = scale_text(*task.sizes)
    known = {f.record_id for f in task.findings}
    fix.caveats = [f.message for f in target_findings
                   if f.severity in ("warning", "differs") and f.record_id not in known]
    if fix.code and "h_out" in fix.code:
        out = task.out
        fix.code = fix.code.replace("h_out", str(out[-2] if len(out) > 1 else out[0])).replace("w_out", str(out[-1]))
    return None


def _rank_key(fix: Fix):
    if fix.exact:
        return (0, _COST.get(fix.kind, 5), 0.0)
    distance = (1 - fix.grad_cosine if fix.grad_cosine is not None else 0.0) + (
        fix.output_rmse / (1e-12 + fix.output_rmse + 1.0))
    return (1, distance, _COST.get(fix.kind, 5))


def _alternatives(setup: Question, out, scale_factor, has_error, existing) -> list[Fix]:
    """Other modes on the same backend; with an error, the same mode on the library's other backends."""
    kb = load()
    fixes = []
    for native in setup.backend.mode_table():
        if native == setup.mode:
            continue
        change = {"mode": native}
        if setup.backend.library == "burn" and native in ("Bilinear", "Bicubic", "Lanczos3"):
            change["align_corners"] = False
        fixes.append(_generic_fix(setup, change, "mode", out, scale_factor))
    if has_error and not any("backend" in f.change for f in existing):
        for other in kb.backends.values():
            if other.library == setup.backend.library and other.id != setup.backend.id:
                fixes.append(_generic_fix(setup, {"backend": other.id}, "backend", out, scale_factor))
    return [f for f in fixes if f is not None]


def _generic_fix(setup: Question, change, kind, out, scale_factor) -> Fix | None:
    try:
        target = setup.changed(**change)
    except ValueError:
        return None
    language, code = resize_code(target, out, scale_factor)
    if target.backend.library == "burn" and target.backend.id != setup.backend.id:
        code = burn_backend_code(target) + "\n" + code
    return Fix(description=describe_change(setup, target), kind=kind, backend=target.backend.id,
               mode=target.mode, code=code, language=language, change=change)


__all__ = ["suggest_fixes", "Suggestions", "compare", "scale_text", "as_nchw", "make_fix", "measurement_bytes",
           "check_measurement_memory"]

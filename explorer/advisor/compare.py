"""``compare_conventions``: one nominal mode across libraries, as a difference table on the user's tensor.

>>> import numpy as np
>>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
>>> table = compare_conventions(x, "bicubic", (3, 3), libraries=["torch", "tensorflow", "opencv"])
>>> [(row["backend"], row["mode"], row["exact"]) for row in table.rows]
[('torch', 'bicubic', True), ('tensorflow', 'bicubic', False), ('opencv', 'INTER_CUBIC', True)]
"""

from __future__ import annotations

import numpy as np

from .. import validate
from ..conventions import NoGradientError
from ..errors import ArgumentValueError
from .backend_calls import backward, computation, convention_text, forward
from .findings import findings_for
from .fixes import as_nchw, check_measurement_memory, compare
from .knowledge import ModeUnavailable
from .question import Question


class ConventionTable:
    """Rows of ``{backend, mode, convention, output_max_abs, ..., exact, grad_error}`` against the first library
    that runs; a library that cannot run the mode has a row ``{backend, mode, error, record_id, exact=False}``."""

    def __init__(self, rows, mode, size, reference):
        self.rows, self.mode, self.size, self.reference = rows, mode, size, reference

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    def to_dict(self):
        return {"mode": self.mode, "size": list(self.size), "reference": self.reference, "rows": self.rows}

    def __str__(self):
        head = (f"{'backend':<18}{'mode':<20}{'max abs':>10}{'RMSE':>10}{'PSNR dB':>9}{'changed':>9}"
                f"{'grad cos':>10}  convention")
        lines = [f"'{self.mode}' to {tuple(self.size)}, against {self.reference}", head]
        for r in self.rows:
            if r.get("error"):
                lines.append(f"{r['backend']:<18}{r['mode'] or '-':<20}  {r['error']}")
                continue
            cos = "none" if r.get("grad_error") else ("" if r["grad_cosine"] is None else f"{r['grad_cosine']:.4f}")
            lines.append(f"{r['backend']:<18}{r['mode']:<20}{r['output_max_abs']:>10.3g}{r['output_rmse']:>10.3g}"
                         f"{r['psnr']:>9.1f}{100 * r['changed_fraction']:>8.0f}%{cos:>10}  {r['convention']}")
            if r.get("grad_error"):
                lines.append(f"{'':<38}no gradient: {r['grad_error']}")
        return "\n".join(lines)


def _failure_text(finding) -> str:
    """The knowledge base's message, with the exact text the user sees (the panic, the exception)."""
    if not finding.error_text:
        return finding.message
    kind = finding.error_type or "error"
    return f"{finding.message} [{kind}: {finding.error_text}]"


def _first_error(findings, operations):
    return next((f for f in findings if f.severity == "error" and f.operation in operations), None)


def compare_conventions(x, mode, size, libraries=("torch", "tensorflow", "jax", "onnxruntime", "opencv",
                                                    "pillow", "burn-flex"),
                        training=True, grad_output=None, align_corners=None, antialias=False) -> ConventionTable:
    """The same nominal ``mode`` on each library or backend id of ``libraries``, against the first.

    Each row has the library's native mode name, the convention it computes (its preset, see
    :func:`explorer.preset`), and the output and gradient differences from the first row on ``x`` (N, C, H, W)
    resized to ``size``: what a port changes.  Each library computes through :func:`explorer.library_resize`
    (backends without presets through the mapping of :mod:`explorer.advisor.backend_calls`), in ``x``'s precision.

    A row is an error (``error`` holds the text, ``record_id`` the knowledge-base record) when the library does
    not have the mode, when :func:`explorer.check` reports that its forward fails for this configuration
    (a float32 tensor of ``x``'s sizes), or when the options are not valid for it.  With ``training``, a library
    whose backward fails keeps its output numbers, and ``grad_error`` says why there is no gradient.
    """
    x = as_nchw(x)
    libraries = list(libraries)
    if not libraries:
        raise ArgumentValueError("libraries must name at least one library or backend, e.g. ['torch', 'tensorflow']")
    out = _output_lengths(size, x)
    check_measurement_memory(x.shape, x.shape[:2] + out, training, "comparing conventions")
    xf = x.astype(np.float64) if x.dtype.kind != "f" else x
    grad = None
    if training:
        grad = (np.random.default_rng(0).standard_normal(x.shape[:2] + out).astype(xf.dtype)
                if grad_output is None else np.asarray(grad_output))
    options = {"mode": mode, "training": training, "align_corners": align_corners, "antialias": antialias,
               "spatial_dims": x.ndim - 2, "reference": None}
    rows, ref = [], None
    for name in libraries:
        row, y, g = _library_row(name, options, xf, out, grad)
        if row.get("error") is None:
            ref = ref or (y, g, row["backend"])
            row.update(compare(ref[0], y, ref[1], g))
        rows.append(row)
    return ConventionTable(rows, mode, out, ref[2] if ref else None)


def _output_lengths(size, x) -> tuple[int, ...]:
    """``size`` (one length for every spatial axis, or one per axis) as a tuple matching ``x``'s spatial axes."""
    out = (validate.length(size, "size"),) * (x.ndim - 2) if validate.is_integer(size) else validate.lengths(size)
    if len(out) != x.ndim - 2:
        raise ArgumentValueError(f"size={size!r} has {len(out)} entries but x has {x.ndim - 2} spatial axes "
                                 f"{tuple(x.shape[2:])}")
    return out


def _library_row(name, options, xf, out, grad) -> tuple[dict, np.ndarray | None, np.ndarray | None]:
    """(row, output, gradient) of one library: an error row (no numbers) when it lacks the mode, the knowledge
    base says its forward fails, or the call is refused; otherwise its convention and numbers."""
    try:
        setup = Question.of(backend=name, **options)
    except ModeUnavailable as exc:
        return {"backend": exc.backend.id, "mode": None, "error": str(exc), "exact": False, "record_id": None}, \
            None, None
    findings = findings_for(setup.with_sizes(tuple(xf.shape[2:]), out))
    failure = _first_error(findings, ("forward", None))
    if failure is not None:
        return {"backend": setup.backend.id, "mode": setup.mode, "error": _failure_text(failure), "exact": False,
                "record_id": failure.record_id}, None, None
    try:
        call = computation(setup, xf.shape[2:], out)
        y = forward(setup, xf, out)
    except (ValueError, NotImplementedError, TypeError) as exc:
        return {"backend": setup.backend.id, "mode": setup.mode, "error": str(exc), "exact": False,
                "record_id": None}, None, None
    g, grad_error = _gradient(setup, findings, grad, xf.shape, out)
    row = {"backend": setup.backend.id, "mode": setup.mode, "convention": convention_text(call), "error": None,
           "grad_error": grad_error}
    return row, y, g


def _gradient(setup, findings, grad, shape, out) -> tuple[np.ndarray | None, str | None]:
    """(the gradient, why there is none): None when not training, or the backward fails or does not exist."""
    if grad is None:
        return None, None
    no_gradient = _first_error(findings, ("backward",))
    if no_gradient is not None:
        return None, _failure_text(no_gradient)
    try:
        return backward(setup, grad, shape, out, transpose=False), None
    except NoGradientError as exc:
        return None, str(exc)

"""``compare_conventions``: one nominal mode across libraries, as a difference table on the user's tensor.

>>> import numpy as np
>>> x = np.arange(16, dtype=np.float64).reshape(1, 1, 4, 4)
>>> table = compare_conventions(x, "bicubic", (3, 3), libraries=["torch", "tensorflow", "opencv"])
>>> [(row["backend"], row["mode"], row["exact"]) for row in table.rows]
[('torch', 'bicubic', True), ('tensorflow', 'bicubic', False), ('opencv', 'INTER_CUBIC', True)]
"""

from __future__ import annotations

import numpy as np

from .knowledge import ModeUnavailable
from .measure import as_nchw, compare
from .numbers import compute, library_spec
from .setup import Setup


class ConventionTable:
    """Rows of ``{backend, mode, convention, output_max_abs, ..., exact}`` against the first library."""

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
            cos = "" if r["grad_cosine"] is None else f"{r['grad_cosine']:.4f}"
            lines.append(f"{r['backend']:<18}{r['mode']:<20}{r['output_max_abs']:>10.3g}{r['output_rmse']:>10.3g}"
                         f"{r['psnr']:>9.1f}{100 * r['changed_fraction']:>8.0f}%{cos:>10}  {r['convention']}")
        return "\n".join(lines)


def _convention(setup: Setup, spatial, out) -> str:
    if setup.backend.library == "torch" or setup.backend.id == "keras-torch":
        from ..torch_api import torch_spec
        from .numbers import _torch_call
        mode, ac, aa = _torch_call(setup)
        return f"torch {mode}: " + repr(torch_spec(mode, bool(ac), aa))
    if setup.backend.library == "burn" and setup.mode != "Lanczos3":
        from .numbers import _BURN_TORCH, _burn_align_corners
        mode = _BURN_TORCH[setup.mode]
        ac = f", align_corners={_burn_align_corners(setup)}" if mode in ("bilinear", "bicubic") else ""
        return f"torch {mode} with an explicit size{ac}"
    return repr(library_spec(setup, spatial, out))


def compare_conventions(x, mode, size, libraries=("torch", "tensorflow", "jax", "onnxruntime", "opencv",
                                                    "pillow", "burn-flex"),
                        training=True, grad_output=None, align_corners=None, antialias=False) -> ConventionTable:
    """The same nominal ``mode`` on each library or backend id of ``libraries``, against the first.

    Each row has the library's native mode name, the convention it computes, and the output and gradient
    differences from the first row on ``x`` (N, C, H, W) resized to ``size``: what a port changes.
    A library without the mode gets a row with ``error``.
    """
    x = as_nchw(x)
    libraries = list(libraries)
    if not libraries:
        raise ValueError("libraries must name at least one library or backend, e.g. ['torch', 'tensorflow']")
    out = (size,) * (x.ndim - 2) if isinstance(size, (int, np.integer)) else tuple(int(s) for s in size)
    xf = x.astype(np.float64) if x.dtype.kind != "f" else x
    grad = None
    if training:
        grad = (np.random.default_rng(0).standard_normal(x.shape[:2] + out).astype(xf.dtype)
                if grad_output is None else np.asarray(grad_output))
    rows, ref = [], None
    for name in libraries:
        try:
            setup = Setup.of(mode=mode, backend=name, align_corners=align_corners, antialias=antialias,
                             spatial_dims=x.ndim - 2, reference=None)
        except ModeUnavailable as exc:
            rows.append({"backend": exc.backend.id, "mode": None, "error": str(exc), "exact": False})
            continue
        try:
            y, g = compute(setup, xf, out, None, grad)
        except (ValueError, NotImplementedError, TypeError) as exc:
            rows.append({"backend": setup.backend.id, "mode": setup.mode, "error": str(exc), "exact": False})
            continue
        if ref is None:
            ref = (y, g, setup.backend.id)
        row = {"backend": setup.backend.id, "mode": setup.mode, "convention": _convention(setup, x.shape[2:], out),
               "error": None}
        row.update(compare(ref[0], y, ref[1], g))
        rows.append(row)
    return ConventionTable(rows, mode, out, ref[2] if ref else None)

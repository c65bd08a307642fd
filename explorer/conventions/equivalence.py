"""Whether two conventions compute the same thing for a size pair: same weights, same extrapolated outputs.

>>> from explorer.conventions import equivalent, preset
>>> equivalent(preset("torch", "bilinear", antialias=True), preset("pillow", "BILINEAR"), 17, 5)
True
>>> equivalent(preset("torch", "nearest"), preset("torch", "nearest-exact"), 4, 3)
False
"""

from __future__ import annotations

import numpy as np

from ..engine.plan import axis_plan
from ..engine.spec import Spec
from ..errors import ArgumentTypeError, ArgumentValueError


def weight_difference(spec_a: Spec, spec_b: Spec, n_in: int, n_out: int, scale: float | None = None) -> float:
    """The largest absolute difference between the two weight matrices (inf if extrapolation differs)."""
    a = axis_plan(n_in, n_out, spec_a, scale)
    b = axis_plan(n_in, n_out, spec_b, scale)
    outside_a = a.outside if a.outside is not None else np.zeros(n_out, bool)
    outside_b = b.outside if b.outside is not None else np.zeros(n_out, bool)
    if not np.array_equal(outside_a, outside_b):
        return float("inf")
    if outside_a.any() and spec_a.extrapolation_value != spec_b.extrapolation_value:
        return float("inf")
    return float(np.abs(a.band.dense() - b.band.dense()).max(initial=0.0))


def equivalent(spec_a: Spec, spec_b: Spec, n_in: int, n_out: int, scale: float | None = None,
               atol: float = 1e-5) -> bool:
    """True when the two specs give the same weights (within ``atol``) resizing ``n_in`` to ``n_out``.

    ``scale`` is a user scale factor (output/input) when the kernels step by it rather than by the sizes.
    The default ``atol`` counts float32 coordinate rounding (a few 1e-6) as agreement, as the measured cross-library equivalences do
    does; ``atol=0`` asks for identical weights.  A nearest rule that picks another index differs by 1, and
    TensorFlow's table bicubic differs from exact Keys by about 1e-3.
    """
    for name, spec in (("spec_a", spec_a), ("spec_b", spec_b)):
        if not isinstance(spec, Spec):
            raise ArgumentTypeError(f"{name} must be an explorer.Spec, got {type(spec).__name__}")
    if not atol >= 0:
        raise ArgumentValueError(f"atol must be a non-negative number, got {atol!r}")
    return weight_difference(spec_a, spec_b, n_in, n_out, scale) <= atol

"""Sampling and bookkeeping of the large-size oracle tests (``tests/conventions/test_fidelity_*.py``).

Sizes are drawn log-uniformly per axis, up to 8192 in 2-D (under an element budget, so the tests stay within a
minute or two) and up to 100 000 in 1-D, from a fixed seed (``--fidelity-seed`` changes it, ``--runslow``
draws more cases from larger budgets).  Every comparison records its error; ``--fidelity-table`` prints the
worst error per library and dtype at the end of the run, the table the README quotes:

    python -m pytest tests/conventions/test_fidelity_*.py --fidelity-table

Errors: float forward ``max |explorer - library| / max(1, max |library|)`` on inputs drawn from [0, 1);
gradients the same, relative to ``max(1, max |library gradient|)``; integers (uint8, uint16) in LSB; NaN
placement as the count of outputs whose NaN-ness differs.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

SEED = 2026
SLOW = {"enabled": False}  # set by conftest from --runslow
_SETTINGS = {"seed": SEED}


def configure(seed: int | None, slow: bool):
    if seed is not None:
        _SETTINGS["seed"] = seed
    SLOW["enabled"] = slow


def count(fast: int) -> int:
    """How many cases a test draws: ``fast`` in a normal run, five times as many with --runslow."""
    return fast * 5 if SLOW["enabled"] else fast


def budget(fast: int) -> int:
    """An element budget per array: ``fast``, four times as large with --runslow."""
    return fast * 4 if SLOW["enabled"] else fast


def rng(*key) -> np.random.Generator:
    """A generator seeded by the run's seed and ``key`` (each test draws its own stream)."""
    return np.random.default_rng([_SETTINGS["seed"], zlib.crc32(repr(key).encode())])


def log_uniform(gen: np.random.Generator, lo: int, hi: int) -> int:
    return int(min(hi, math.exp(gen.uniform(math.log(lo), math.log(hi + 1)))))


def sizes_2d(gen, elements: int, top: int = 8192, low: int = 1):
    """(h, w, H, W), every length log-uniform in [low, top], input and output under ``elements``."""
    while True:
        h, w, H, W = (log_uniform(gen, low, top) for _ in range(4))
        if h * w <= elements and H * W <= elements:
            return h, w, H, W


def sizes_1d(gen, top: int = 100_000, low: int = 1, product: float | None = None):
    """(n, m) log-uniform in [low, top]; ``product`` bounds n * m (libraries that build a dense matrix)."""
    while True:
        n, m = log_uniform(gen, low, top), log_uniform(gen, low, top)
        if product is None or n * m <= product:
            return n, m


# ------------------------------------------------------------------------------------------------ errors
def forward_error(got, want) -> float:
    """max |got - want| / max(1, max |want|), NaN where both are NaN counted as equal."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, (got.shape, want.shape)
    both = np.isnan(got) & np.isnan(want)
    diff = np.where(both, 0.0, np.abs(got - want))
    if np.isnan(diff).any():
        return math.inf
    return float(diff.max(initial=0.0)) / max(1.0, float(np.nanmax(np.abs(want), initial=0.0)))


def _ratio(numerator, denominator, axes) -> int:
    out = 1
    for axis in axes:
        out *= -(-numerator[axis] // denominator[axis])
    return out


def forward_tolerance(dtype, input_shape, output_shape, axes) -> float:
    """The tolerance of a float forward: rounding of the contraction, which sums about ``n / m`` taps per output
    when shrinking (the library and the explorer add them in different orders; a sequential float32 sum of
    ``k`` values is off by about ``eps * sqrt(k)`` relative; TensorFlow's ResizeArea 2232 -> 4 with
    align_corners, 744 taps per output, was 7.3e-6 away in a --runslow draw).

    >>> forward_tolerance(np.float32, (4486, 4), (1, 13), (0, 1)) > 3e-6
    True
    """
    taps = _ratio(input_shape, output_shape, axes)
    if np.dtype(dtype) == np.float64:
        return 1e-12 * max(1.0, math.sqrt(taps))
    return 3e-6 + 3e-7 * math.sqrt(taps)


def gradient_tolerance(dtype, input_shape, output_shape, axes) -> float:
    """The tolerance of a gradient: each input accumulates the outputs it feeds (``fan_in`` of them), and
    libraries add them in their own float order: float32 rounding grows like ``sqrt(fan_in)``.

    >>> round(gradient_tolerance(np.float32, (2,), (62336,), (0,)), 7)
    4.03e-05
    """
    fan_in = _ratio(output_shape, input_shape, axes)
    if np.dtype(dtype) == np.float64:
        return 1e-11 * max(1.0, math.sqrt(fan_in))
    return 5e-6 + 2e-7 * math.sqrt(fan_in)


def lsb_error(got, want) -> float:
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    return float(np.abs(got.astype(np.int64) - want.astype(np.int64)).max(initial=0))


@dataclass
class Worst:
    error: float
    case: str
    cases: int


WORST: dict[tuple[str, str, str], Worst] = {}
_KINDS = ("forward", "gradient", "integer (LSB)", "NaN placement")


def record(library: str, dtype: str, kind: str, error: float, case: str) -> float:
    """Keep the worst error of (library, dtype, kind); returns ``error``."""
    assert kind in _KINDS, kind
    key = (library, dtype, kind)
    worst = WORST.get(key)
    if worst is None:
        WORST[key] = Worst(error, case, 1)
    else:
        worst.cases += 1
        if error > worst.error:
            worst.error, worst.case = error, case
    return error


def table() -> str:
    """The worst errors recorded in this run, as a markdown table (rows: library and dtype)."""
    rows = {}
    for (library, dtype, kind), worst in WORST.items():
        rows.setdefault((library, dtype), {})[kind] = worst
    lines = ["| library | dtype | " + " | ".join(_KINDS) + " | cases |", "|---" * (len(_KINDS) + 3) + "|"]
    for (library, dtype) in sorted(rows):
        cells = rows[(library, dtype)]
        shown = []
        for kind in _KINDS:
            worst = cells.get(kind)
            if worst is None:
                shown.append("—")
            elif kind in ("integer (LSB)", "NaN placement"):
                shown.append(f"{worst.error:g}")
            else:
                shown.append(f"{worst.error:.1e}")
        total = sum(w.cases for w in cells.values())
        lines.append(f"| {library} | {dtype} | " + " | ".join(shown) + f" | {total} |")
    return "\n".join(lines)


def worst_cases() -> str:
    return "\n".join(f"{lib} {dtype} {kind}: {w.error:.3g} at {w.case}"
                     for (lib, dtype, kind), w in sorted(WORST.items()))

"""``smoke_matrix``: the mode x option combinations to backprop through in a user's own test suite.

>>> cases = smoke_matrix("burn-tch")
>>> [(c.mode, c.align_corners, c.ratio, c.expected) for c in cases if c.mode == "NearestExact"][:1]
[('NearestExact', None, '2x', 'fails')]
"""

from __future__ import annotations

from dataclasses import dataclass

from .findings import check
from .knowledge import load
from .snippets import resize_code
from .question import Question

RATIOS = {"2x": ((16, 16), (32, 32)), "0.75x": ((16, 16), (12, 12))}


@dataclass
class SmokeCase:
    """One combination to run forward and backward, and what the knowledge base expects of it."""

    backend: str
    mode: str
    align_corners: bool | None
    antialias: bool
    ratio: str
    input_size: tuple
    output_size: tuple
    expected: str            # ok | fails | differs | unknown
    reason: str
    code: str

    def __str__(self):
        opts = []
        if self.align_corners is not None:
            opts.append(f"align_corners={self.align_corners}")
        if self.antialias:
            opts.append("antialias=True")
        opt = f" ({', '.join(opts)})" if opts else ""
        why = f": {self.reason}" if self.reason else ""
        return f"{self.backend} {self.mode}{opt} {self.ratio}: expect {self.expected}{why}"

    def to_dict(self):
        return dict(self.__dict__)


def _options(setup_backend, native: str):
    family = setup_backend.family(native)
    library = setup_backend.library
    ac = [None]
    if family in ("linear", "cubic", "lanczos3") and library in ("burn", "torch", "onnxruntime", "mlx", "candle"):
        ac = [True, False] if library == "burn" else [None, True]
    if library == "torch" and native == "lanczos":
        ac = [None]
    aa = [False]
    if library in ("torch", "tensorflow", "jax", "keras", "onnxruntime", "mlx") and family in ("linear", "cubic"):
        aa = [False, True]
    if library == "torch" and native == "lanczos":
        aa = [True]
    return [(a, b) for a in ac for b in aa if not (a and b)]


def smoke_matrix(backend: str, version=None, training: bool = True, device=None) -> list[SmokeCase]:
    """Every mode x option x (2x upscale, 0.75x downscale) case of ``backend``, with the expected outcome.

    Run each case forward and, when ``training``, backward in your own tests: unsupported gradients in
    Burn panic only when ``.backward()`` runs, so a model that builds fine can still fail its first step.
    """
    b = load().backend(backend)
    cases = []
    for native in b.mode_table():
        for ac, aa in _options(b, native):
            for ratio, (n, m) in RATIOS.items():
                findings = check(mode=native, backend=b.id, training=training, version=version, device=device,
                                 align_corners=ac, antialias=aa, input_size=n, output_size=m, reference=None)
                worst = next((f for f in findings if f.severity in ("error", "differs")), None)
                warn = next((f for f in findings if f.severity == "warning"), None)
                if worst is not None:
                    expected = "fails" if worst.severity == "error" else "differs"
                    reason = worst.error_text or worst.message
                elif warn is not None:
                    expected, reason = "unknown", warn.message
                else:
                    expected, reason = "ok", ""
                setup = Question.of(mode=native, backend=b.id, version=version, align_corners=ac, antialias=aa,
                                 reference=None)
                cases.append(SmokeCase(b.id, native, ac, aa, ratio, n, m, expected, reason,
                                       resize_code(setup, m)[1]))
    return cases

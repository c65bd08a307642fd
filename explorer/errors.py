"""The project's error types, one per kind of mistake, and the message every rejected choice gets.

Each type subclasses the builtin exception a Python user expects (``TypeError`` for a wrong type,
``ValueError`` for a wrong value), so ``except ValueError`` keeps working; where PyTorch raises something
else for the same mistake (``NotImplementedError`` for a mode it lacks, ``RuntimeError`` for an empty size),
the type subclasses that too.

>>> str(choice_error("mode", "bicubc", ["bicubic", "bilinear"]))
"mode='bicubc' is not valid; choose one of: 'bicubic', 'bilinear' (did you mean 'bicubic'?)"
>>> isinstance(choice_error("mode", "x", ["a"]), ValueError)
True
"""

from __future__ import annotations

import difflib
from typing import Iterable


class ArgumentTypeError(TypeError):
    """An argument of the wrong type (a string where a number belongs, a list where an array belongs)."""


class ArgumentValueError(ValueError):
    """An argument of the right type with a value outside what is allowed (not a choice, not positive, ...)."""


class InvalidSizeError(ArgumentValueError, RuntimeError):
    """An empty input or output size (PyTorch raises RuntimeError; this is also a ValueError)."""


class OutputTooLargeError(MemoryError, ValueError):
    """Raised before allocating when a resize would not fit in memory."""


class UnreadableError(ArgumentValueError, OSError):
    """A file, stream or path that is not read as given: not a regular file, too large, outside the tree being
    read (an ``OSError`` for code that skips unreadable files, a ``ValueError`` for code that reports bad input)."""


class UnsupportedError(NotImplementedError):
    """A mode, dtype or rank the chosen library does not implement (it raises NotImplementedError)."""


class NoGradientError(NotImplementedError):
    """The library computes no gradient for this mode (use ``library_resize_transpose`` for ``W^T g``)."""


#: Longest repr of a value an error message echoes (characters).
SHOWN_REPR = 120


def brief(value, limit: int = SHOWN_REPR) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters (a 1 MB argument is not echoed whole) and with
    control characters escaped.

    >>> brief("x" * 1000, 12)
    "'xxxxxxxxxx… (1002 characters)"
    """
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still named
        text = f"<{type(value).__name__}>"
    if len(text) > limit:
        text = text[:limit - 1] + f"… ({len(text)} characters)"
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def choice_error(argument: str, value, choices: Iterable[str], *, kind=ArgumentValueError, context: str = ""):
    """Build (not raise) an error for ``argument=value`` not being one of ``choices``.

    >>> str(choice_error("library", "pytorh", ["torch", "jax"]))
    "library='pytorh' is not valid; choose one of: 'jax', 'torch' (did you mean 'torch'?)"
    """
    choices = sorted(choices)
    text = f"{argument}={brief(value)} is not valid"
    if context:
        text += f" {context}"
    text += "; choose one of: " + ", ".join(repr(c) for c in choices)
    if isinstance(value, str) and len(value) <= 200:
        close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
        if not close:
            close = difflib.get_close_matches(value.lower().replace("_", "-"), choices, n=1, cutoff=0.6)
        if close:
            text += f" (did you mean {close[0]!r}?)"
    return kind(text)

"""Error helpers: every rejected argument names itself, its value and the valid choices."""

from __future__ import annotations

import difflib
from typing import Iterable


def choice_error(argument: str, value, choices: Iterable[str], *, kind=ValueError, context: str = ""):
    """Build (not raise) an error for ``argument=value`` not being one of ``choices``.

    >>> str(choice_error("mode", "bicubc", ["bicubic", "bilinear"]))
    "mode='bicubc' is not valid; choose one of: 'bicubic', 'bilinear' (did you mean 'bicubic'?)"
    """
    choices = sorted(choices)
    text = f"{argument}={value!r} is not valid"
    if context:
        text += f" {context}"
    text += "; choose one of: " + ", ".join(repr(c) for c in choices)
    if isinstance(value, str):
        close = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
        if not close:
            close = difflib.get_close_matches(value.lower().replace("_", "-"), choices, n=1, cutoff=0.6)
        if close:
            text += f" (did you mean {close[0]!r}?)"
    return kind(text)


class OutputTooLargeError(MemoryError, ValueError):
    """Raised before allocating when a resize would not fit in memory."""

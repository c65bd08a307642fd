"""Version strings and ranges of the knowledge base: ``0.22.0-pre.1``, ``>=0.21.0-pre.2,<0.22.0-pre.2``.

A pre-release sorts before its release; a missing patch number is 0.

>>> parse_version("0.22.0-pre.1") < parse_version("0.22.0-pre.2") < parse_version("0.22.0")
True
>>> VersionRange(">=0.21.0-pre.2,<0.22.0-pre.2").contains("0.21.0")
True
>>> nearest_known("0.19.5", ["0.19.0", "0.20.0"])
'0.19.0'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ArgumentTypeError, ArgumentValueError

_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-.]?(pre|rc|alpha|beta|a|b)\.?(\d+)?)?(?:\+[\w.]+)?$",
                      re.IGNORECASE)
_STAGES = {"alpha": 0, "a": 0, "beta": 1, "b": 1, "pre": 2, "rc": 3}
_OPERATORS = ("==", "!=", ">=", "<=", ">", "<")


def parse_version(text: str) -> tuple:
    """A sortable key for ``text``; ValueError naming the text when it is not a version."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"version must be a string such as '0.22.0-pre.1', got {text!r}")
    match = _VERSION.match(text.strip())
    if not match:
        raise ArgumentValueError(f"version={text!r} is not a version number; write it like '2.13.0', '0.21' or "
                         "'0.22.0-pre.1'")
    major, minor, patch, stage, number = match.groups()
    release = (int(major), int(minor or 0), int(patch or 0))
    if stage is None:
        return release + (9, 0)
    return release + (_STAGES[stage.lower()], int(number or 0))


@dataclass(frozen=True)
class VersionRange:
    """A comma-separated conjunction of ``op version`` clauses; ``*`` (or empty) is every version."""

    text: str = "*"

    def __post_init__(self):
        self.clauses  # validates

    @property
    def clauses(self) -> list[tuple[str, tuple]]:
        text = (self.text or "*").strip()
        if text == "*":
            return []
        out = []
        for part in text.split(","):
            part = part.strip()
            op = next((o for o in _OPERATORS if part.startswith(o)), None)
            if op is None:
                raise ArgumentValueError(f"version range {self.text!r}: clause {part!r} must start with one of "
                                 + ", ".join(_OPERATORS))
            out.append((op, parse_version(part[len(op):])))
        return out

    def contains(self, version: str) -> bool:
        key = parse_version(version)
        for op, bound in self.clauses:
            ok = {"==": key == bound, "!=": key != bound, ">=": key >= bound, "<=": key <= bound,
                  ">": key > bound, "<": key < bound}[op]
            if not ok:
                return False
        return True

    def __str__(self):
        return self.text or "*"


def nearest_known(version: str, known: list[str]) -> str:
    """The newest known version not newer than ``version`` (the oldest known one if all are newer)."""
    key = parse_version(version)
    ordered = sorted(known, key=parse_version)
    older = [v for v in ordered if parse_version(v) <= key]
    return older[-1] if older else ordered[0]

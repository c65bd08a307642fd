"""Version strings and ranges of the knowledge base: ``0.22.0-pre.1``, ``>=0.21.0-pre.2,<0.22.0-pre.2``.

A pre-release sorts before its release; a missing patch number is 0.

>>> parse_version("0.22.0-pre.1") < parse_version("0.22.0-pre.2") < parse_version("0.22.0")
True
>>> VersionRange(">=0.21.0-pre.2,<0.22.0-pre.2").contains("0.21.0")
True
>>> VersionRange(">=2.6,<2.8").bound_versions()
['2.6', '2.8']
>>> describe_range("torch", VersionRange(">=2.6,<2.8"), VersionRange(">=2.0,<2.14"))
'torch 2.6 up to (not including) 2.8'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import validate
from .errors import ArgumentTypeError, ArgumentValueError, brief

_VERSION = re.compile(r"^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.\d+)*(?:[-.]?(pre|rc|alpha|beta|a|b|dev)\.?(\d+)?)?"
                      r"(?:\+[\w.]+)?$", re.IGNORECASE)
_STAGES = {"dev": 0, "alpha": 0, "a": 0, "beta": 1, "b": 1, "pre": 2, "rc": 3}
_OPERATORS = ("==", "!=", ">=", "<=", ">", "<")
_LOWER = (">=", ">", "==")
_UPPER = ("<", "<=", "==")


def parse_version(text: str) -> tuple:
    """A sortable key for ``text``; ValueError naming the text when it is not a version.

    A local suffix (``2.5.1+cu124``) and a fourth number (``10.0.1.6``) are ignored.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"version must be a string such as '0.22.0-pre.1', got {brief(text)}")
    match = _VERSION.match(validate.version_text(text))
    if not match:
        raise ArgumentValueError(f"version={brief(text)} is not a version number; write it like '2.13.0', '0.21' or "
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
        return [(op, parse_version(v)) for op, v in self.raw_clauses]

    @property
    def raw_clauses(self) -> list[tuple[str, str]]:
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
            version = part[len(op):].strip()
            parse_version(version)
            out.append((op, version))
        return out

    @property
    def every(self) -> bool:
        return not self.raw_clauses

    @property
    def has_lower(self) -> bool:
        return any(op in _LOWER for op, _ in self.raw_clauses)

    @property
    def has_upper(self) -> bool:
        return any(op in _UPPER for op, _ in self.raw_clauses)

    def contains(self, version: str) -> bool:
        key = parse_version(version)
        for op, bound in self.clauses:
            ok = {"==": key == bound, "!=": key != bound, ">=": key >= bound, "<=": key <= bound,
                  ">": key > bound, "<": key < bound}[op]
            if not ok:
                return False
        return True

    def bound_versions(self) -> list[str]:
        """The versions at which the range starts or stops holding (where an answer can change)."""
        return [v for _, v in self.raw_clauses]

    def __str__(self):
        return self.text or "*"


def describe_range(library: str, versions: VersionRange, scope: VersionRange | None = None) -> str:
    """The range in words: ``torch 2.6 up to (not including) 2.8``, ``burn 0.22.0-pre.1 only``."""
    if versions.every:
        within = f" ({scope_text(scope)})" if scope is not None and not scope.every else ""
        return f"every {library} release checked{within}"
    lower = [(op, v) for op, v in versions.raw_clauses if op in (">=", ">")]
    upper = [(op, v) for op, v in versions.raw_clauses if op in ("<", "<=")]
    exact = [v for op, v in versions.raw_clauses if op == "=="]
    if exact:
        return f"{library} {exact[0]} only"
    start = (f"{lower[0][1]}" if lower[0][0] == ">=" else f"after {lower[0][1]}") if lower else None
    stop = (f"up to (not including) {upper[0][1]}" if upper[0][0] == "<" else f"up to {upper[0][1]}") if upper else None
    if start and stop:
        return f"{library} {start} {stop}"
    if start:
        return f"{library} {start} and later"
    return f"{library} releases {stop}"


def era_label(start: str, stop: str | None, newest: str | None = None) -> str:
    """How a version choice reads: the releases from ``start`` up to (not including) ``stop``, or, for the
    last era, up to the newest release checked.

    >>> era_label("2.6", "2.8"), era_label("2.5", "2.6"), era_label("2.13", None, "2.13.0")
    ('2.6 – 2.7.x', '2.5.x', '2.13 (newest checked)')
    >>> era_label("0.21.0-pre.4", "0.22.0-pre.1"), era_label("2.18", None, "2.21.0")
    ('0.21.0-pre.4 – before 0.22.0-pre.1', '2.18 – 2.21.0')
    """
    if stop is None:
        if newest is None or parse_version(newest) == parse_version(start):
            return f"{start} (newest checked)"
        return f"{start} – {newest}"
    a, b = parse_version(start), parse_version(stop)
    if b[3:] == (9, 0) and a[3:] == (9, 0) and b[2] == 0 and b[1] > 0 and a[0] == b[0]:
        last = f"{b[0]}.{b[1] - 1}"
        return f"{last}.x" if (a[0], a[1]) == (b[0], b[1] - 1) and a[2] == 0 else f"{start} – {last}.x"
    return f"{start} – before {stop}"


def scope_text(scope: VersionRange) -> str:
    """``2.0 up to (not including) 2.14`` for a library's scope."""
    return describe_range("", scope).strip()

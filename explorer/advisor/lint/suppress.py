"""Inline suppressions with a reason, and the baseline file that lets a new CI start from today's findings.

A suppression is a comment on a site's lines or on the line above it::

    y = F.interpolate(x, scale_factor=2, mode="nearest-exact")  # explorer: ignore[burn-tch-nearest-exact-forward] inference only, never ported

``ignore[rule, ...]`` names the rules (the ids in brackets in the output; ``ignore`` alone: every rule at the
site).  The reason is required: a suppression without one suppresses nothing and is reported.

A baseline is a JSON file of the findings a project accepts for now; a finding it lists is reported as known and
does not fail the run.  Findings are matched by file, rule and the text of the site's line, not by line number,
so edits elsewhere in a file do not invalidate it.

>>> parse_suppression("explorer: ignore[a-b, c] measured: identical on our data")
(('a-b', 'c'), 'measured: identical on our data')
>>> parse_suppression("explorer: ignore[a-b]") is None, parse_suppression("just a comment")
(False, None)
"""

from __future__ import annotations

import io
import json
import os
import re
import tokenize
from collections import Counter

from ...errors import UnreadableError
from ...limits import JSON_MAX_DEPTH, LINT_MAX_BASELINE_BYTES
from ...reading import printable, read_text
from .sites import source_lines

_SUPPRESS = re.compile(r"explorer\s*:\s*ignore(?:\[([^\]]*)\])?(.*)", re.IGNORECASE)
BASELINE_VERSION = 1


def parse_suppression(comment: str):
    """(rules, reason) of a suppression comment (rules () means every rule; reason '' when missing), or None."""
    m = _SUPPRESS.search(comment)
    if m is None:
        return None
    rules = tuple(r.strip() for r in (m.group(1) or "").split(",") if r.strip())
    reason = m.group(2).strip().lstrip("-:—– ").strip()
    return rules, reason


def python_comments(text: str) -> dict[int, str]:
    """{line: comment} of a Python source (tokenize; a file it cannot read gives none)."""
    out: dict[int, str] = {}
    if "explorer" not in text:
        return out
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string.lstrip("#").strip()
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return out


def hash_comments(text: str) -> dict[int, str]:
    """{line: comment} for ``#`` comments of configuration files (a ``#`` that starts a comment, not a value)."""
    out = {}
    if "explorer" not in text:
        return out
    for number, line in enumerate(source_lines(text), 1):
        m = re.search(r"(?:^|\s)[#;]\s?(.*)$", line)
        if m:
            out[number] = m.group(1).strip()
    return out


def suppression_for(site_lines, rule: str, comments: dict[int, str]):
    """(applies, reason, line) of the suppression covering ``rule`` at a site, or None."""
    for line in (min(site_lines) - 1, *site_lines):
        comment = comments.get(line)
        if not comment:
            continue
        parsed = parse_suppression(comment)
        if parsed is None:
            continue
        rules, reason = parsed
        if rules and rule not in rules:
            continue
        return bool(reason), reason, line
    return None


def fingerprint(relative: str, rule: str, snippet: str) -> tuple[str, str, str]:
    return relative, rule, " ".join(snippet.split())


def read_baseline(path) -> Counter:
    """The findings a baseline file lists (a clear error for a file that is not one).  The file is read through
    :mod:`explorer.reading`: a regular file of at most LINT_MAX_BASELINE_BYTES (``/dev/zero`` or a FIFO is
    refused without waiting), JSON nested at most JSON_MAX_DEPTH deep (a baseline is a flat list)."""
    shown = printable(os.fspath(path))
    if not os.path.lexists(path):
        raise FileNotFoundError(f"baseline file {shown!r} does not exist (write one with --write-baseline)")
    try:
        text = read_text(path, LINT_MAX_BASELINE_BYTES, what="baseline file")
    except UnreadableError as exc:
        raise UnreadableError(f"{exc} (a lint baseline is a JSON file written by --write-baseline)") from None
    depth = _nesting(text)
    if depth > JSON_MAX_DEPTH:
        raise ValueError(f"baseline file {shown!r} is not a lint baseline: its JSON nests {depth} levels deep "
                         f"(more than {JSON_MAX_DEPTH})")
    try:
        data = json.loads(text)
    except (RecursionError, json.JSONDecodeError) as exc:
        raise ValueError(f"baseline file {shown!r} cannot be read as a lint baseline: "
                         f"{printable(exc)}") from None
    if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION or not isinstance(data.get("findings"), list):
        raise ValueError(f"baseline file {shown!r} is not a lint baseline (version {BASELINE_VERSION}, "
                         "with a 'findings' list)")
    known = Counter()
    for item in data["findings"]:
        try:
            known[fingerprint(item["path"], item["rule"], item["code"])] += int(item.get("count", 1))
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
            raise ValueError(f"baseline file {shown!r}: malformed entry {printable(repr(item))}") from None
    return known


def _nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside JSON strings (a linear scan)."""
    deepest = depth = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', text):
        token = m.group(0)
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def baseline_document(entries, backend: str) -> dict:
    """The JSON document of a baseline holding ``entries`` ((path, rule, code) fingerprints)."""
    counts = Counter(entries)
    return {"tool": "interpolation-explorer lint", "version": BASELINE_VERSION, "backend": backend,
            "findings": [{"path": p, "rule": r, "code": c, "count": n} for (p, r, c), n in sorted(counts.items())]}

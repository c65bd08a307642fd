"""``diagnose``: a pasted error message or panic, matched to its finding, explanation and fixes.

>>> d = diagnose("thread 'main' panicked at crates/burn-tch/src/ops/module.rs:458:17:\\n"
...              "nearest exact interpolation backward is not supported by PyTorch/tch backend")
>>> d.matched, d.findings[0].record_id
(True, 'burn-tch-nearest-exact-backward')
>>> diagnose("segmentation fault in my toaster").matched
False
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..errors import ArgumentTypeError, ArgumentValueError
from .findings import Finding, make_fix
from .knowledge import Record, load
from .target import Setup


@dataclass
class Diagnosis:
    """The findings whose exact error text matches, or the closest ones with ``matched=False``."""

    text: str
    matched: bool
    findings: list = field(default_factory=list)
    message: str = ""

    def __str__(self):
        lines = [self.message]
        for f in self.findings:
            lines.append(f"[{f.backend} {f.mode or ''}] {f}")
            lines.extend(f"    fix: {fix}" for fix in f.fixes)
        return "\n".join(lines)

    def to_dict(self):
        return {"text": self.text, "matched": self.matched, "message": self.message,
                "findings": [f.to_dict() for f in self.findings]}


def _clean(text: str) -> str:
    return " ".join(text.split())


def _record_setup(record: Record) -> Setup:
    kb = load()
    backend = kb.backend(record.backends[0])
    mode = record.modes[0] if record.modes[0] != "*" else next(iter(backend.mode_table()))
    when = record.when
    ac = when.get("align_corners")
    ac = ac[0] if isinstance(ac, list) else ac
    versions = [v for v in kb.versions(backend.library) if record.versions.contains(v)]
    exporter = when.get("exporter", [None])[0]
    export = {"export_coreml": "coreml"}.get(record.operation) or (f"onnx-{exporter}" if exporter else
                                                                  ("onnx" if record.operation == "export_onnx" else None))
    dims = when.get("spatial_dims", [2])[0]
    return Setup.of(mode=mode, backend=backend.id, version=versions[-1] if versions else None,
                    device=None if record.devices[0] == "*" else record.devices[0],
                    align_corners=None if ac in (None, "unset") else ac, antialias=bool(when.get("antialias", False)),
                    spatial_dims=dims, dtype=when.get("dtype", ["float32"])[0],
                    deterministic=bool(when.get("deterministic", False)), export=export, reference=None)


def _finding(record: Record) -> Finding:
    setup = _record_setup(record)
    fixes = [f for f in (make_fix(fid, setup) for fid in record.fixes) if f is not None]
    return Finding(severity=record.default_severity, message=record.message, source=record.source,
                   error_text=record.error_text, error_type=record.error_type, fixes=fixes, record_id=record.id,
                   backend=", ".join(record.backends), mode=", ".join(record.modes), operation=record.operation,
                   status=record.status, evidence=record.evidence)


_WILD = "\0"


def _tokens(text: str, placeholders: bool = False) -> list[str]:
    if placeholders:
        text = re.sub(r"\{\w+\}|…", f" {_WILD} ", text)
        return re.findall(r"[a-z0-9_]+|\0", text.lower())
    return re.findall(r"[a-z0-9_]+", text.lower())


def _longest_run(pasted: list[str], known: list[str]) -> int:
    """Tokens in the longest contiguous run common to both (a placeholder token matches any one token)."""
    best = 0
    previous = [0] * (len(known) + 1)
    for a in pasted:
        current = [0] * (len(known) + 1)
        for j, b in enumerate(known, 1):
            if a == b or b == _WILD:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


def _score(pasted: list[str], record: Record) -> int:
    """How much of the pasted text one of the record's texts explains (0: it does not match)."""
    kb = load()
    best = 0
    for known in record.texts:
        tokens = _tokens(known, placeholders=True)
        run = _longest_run(pasted, tokens)
        if run < min(6, len(tokens)):
            continue
        if run < 0.5 * len(tokens) and run < 0.8 * len(pasted):
            continue
        if "{mode}" in known and "*" not in record.modes:
            spelled = {m.lower() for m in record.modes} | {
                kb.backends[b].native_mode(m).lower() for b in record.backends for m in record.modes}
            if not spelled & set(pasted):
                continue
        best = max(best, run)
    return best


def diagnose(text: str) -> Diagnosis:
    """Match ``text`` (a whole traceback or panic, or a fragment of it) to the catalogue of exact texts.

    Matching is by the longest run of words shared with a known text (placeholders such as the mode or dtype
    match any word), so a message with or without its exception class, quotes or file prefix is found.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be the error message as a string, got {type(text).__name__}")
    if not text.strip():
        raise ArgumentValueError("text is empty: paste the error message or panic you saw")
    kb = load()
    pasted = _tokens(text)
    scored = [(score, record) for record in kb.records if (score := _score(pasted, record))]
    if scored:
        top = max(score for score, _ in scored)
        hits = [record for score, record in scored if score == top]
        findings = [_finding(r) for r in hits]
        where = sorted({b for r in hits for b in r.backends})
        return Diagnosis(text, True, findings,
                         f"Known {'error' if len(hits) == 1 else 'errors'} on {', '.join(where)}: "
                         f"{len(hits)} matching finding{'s' if len(hits) > 1 else ''}.")
    close = []
    cleaned = _clean(text).lower()[:400]
    ratios = sorted(((difflib.SequenceMatcher(None, cleaned, _clean(t).lower()[:400]).ratio(), r)
                     for r in kb.records for t in r.texts), key=lambda t: -t[0])
    for ratio, record in ratios:
        if ratio >= 0.5 and record not in close:
            close.append(record)
        if len(close) == 3:
            break
    message = ("No known resize error matches this text. Try `python -m explorer check --backend <id> --mode "
               "<mode> --train` for your configuration, or paste the first line of the error.")
    if close:
        message += " The closest known messages follow."
    return Diagnosis(text, False, [_finding(r) for r in close], message)

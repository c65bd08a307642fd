"""``lint``: find interpolate/upsample/resize uses in Rust, Python and config files and report risky ones.

>>> import pathlib, tempfile
>>> src = pathlib.Path(tempfile.mkdtemp()) / "model.rs"
>>> _ = src.write_text("let o = InterpolateOptions::new(InterpolateMode::NearestExact);\\n")
>>> issue = lint(src, backend="burn-tch")[0]
>>> issue.use.line, issue.severity, issue.record_id
(1, 'error', 'burn-tch-nearest-exact-forward')
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .findings import SEVERITY_ORDER, check

SUFFIXES = {".rs": "rust", ".py": "python", ".toml": "config", ".yaml": "config", ".yml": "config",
            ".json": "config", ".cfg": "config", ".ini": "config"}
SKIP_DIRS = {".git", "target", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist"}

_RUST_MODE = re.compile(r"InterpolateMode::(\w+)")
_RUST_CANDLE = re.compile(r"\.(upsample_nearest[12]d|interpolate[12]d|upsample_bilinear2d)\s*\(")
_PY_CALL = re.compile(r"\b(interpolate|Upsample|resize|Resizing|UpSampling[123]D|upsample)\s*\(")
_PY_MODE = re.compile(r"\b(mode|method|interpolation|resample)\s*=\s*([\w.]+\.)?[\"']?([\w\-.]+)[\"']?")
_PY_CV2 = re.compile(r"cv2\.(INTER_\w+)")
_PY_PIL = re.compile(r"(?:Image|Resampling)\.(NEAREST|BILINEAR|BICUBIC|LANCZOS|BOX|HAMMING)\b")
_PY_FLAG = re.compile(r"\b(align_corners|antialias)\s*=\s*(True|False|None)")
_CONFIG = re.compile(r"[\"']?([\w\-.]*(?:mode|interpolation|interp|upsample|resize|resample)[\w\-.]*)[\"']?\s*[:=]\s*"
                     r"[\"']([\w\-.:]+)[\"']", re.IGNORECASE)
_RUST_AC = re.compile(r"with_align_corners\s*\(\s*(true|false)\s*\)|align_corners\s*:\s*(true|false)")


@dataclass
class Use:
    path: str
    line: int
    column: int
    mode: str
    align_corners: bool | None = None
    antialias: bool = False
    snippet: str = ""


@dataclass
class LintIssue:
    """One finding at one place, printed like a compiler diagnostic: ``path:line:col: severity: message``."""

    use: Use
    severity: str
    message: str
    record_id: str | None = None
    error_text: str | None = None
    fixes: list = field(default_factory=list)

    def __str__(self):
        tag = f" [{self.record_id}]" if self.record_id else ""
        return f"{self.use.path}:{self.use.line}:{self.use.column}: {self.severity}: {self.message}{tag}"

    def to_dict(self):
        return {"path": self.use.path, "line": self.use.line, "column": self.use.column, "mode": self.use.mode,
                "severity": self.severity, "message": self.message, "record_id": self.record_id,
                "error_text": self.error_text, "fixes": [f.to_dict() for f in self.fixes]}


def iter_files(path):
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"path {str(path)!r} does not exist")
    if path.is_file():
        yield path
        return
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            p = Path(root) / name
            if p.suffix.lower() in SUFFIXES:
                yield p


def find_uses(path) -> list[Use]:
    """Every resize use in one file, with the mode and the options visible near it."""
    path = Path(path)
    kind = SUFFIXES.get(path.suffix.lower(), "config" if path.is_file() else None)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise OSError(f"cannot read {path}: {exc.strerror}") from None
    lines = text.splitlines()
    uses = []
    for k, line in enumerate(lines):
        window = " ".join(lines[k:k + 4])
        if kind == "rust":
            statement = []
            for following in lines[k:k + 6]:
                statement.append(following)
                if following.rstrip().endswith((";", "}")):
                    break
            window = " ".join(statement)
            for m in _RUST_MODE.finditer(line):
                ac = _RUST_AC.search(window)
                value = None if ac is None else (ac.group(1) or ac.group(2)) == "true"
                uses.append(Use(str(path), k + 1, m.start() + 1, m.group(1), value, False, line.strip()))
            for m in _RUST_CANDLE.finditer(line):
                mode = "upsample_bilinear2d" if "bilinear" in m.group(1) else "upsample_nearest2d"
                uses.append(Use(str(path), k + 1, m.start() + 1, mode, None, False, line.strip()))
        elif kind == "python":
            call = _PY_CALL.search(line)
            marks = list(_PY_CV2.finditer(line)) + list(_PY_PIL.finditer(line))
            if call is None and not marks:
                continue
            flags = dict((f, v) for f, v in _PY_FLAG.findall(window))
            ac = {"True": True, "False": False}.get(flags.get("align_corners"))
            aa = flags.get("antialias") == "True"
            found = False
            if call is not None:
                mode = _PY_MODE.search(window[call.start():])
                if mode is not None:
                    uses.append(Use(str(path), k + 1, call.start() + 1, mode.group(3), ac, aa, line.strip()))
                    found = True
                elif call.group(1) in ("interpolate", "Upsample", "UpSampling2D", "upsample"):
                    uses.append(Use(str(path), k + 1, call.start() + 1, "nearest", ac, aa, line.strip()))
                    found = True
            if not found:
                for m in marks:
                    uses.append(Use(str(path), k + 1, m.start() + 1, m.group(1), ac, aa, line.strip()))
        else:
            for m in _CONFIG.finditer(line):
                uses.append(Use(str(path), k + 1, m.start() + 1, m.group(2), None, False, line.strip()))
    return uses


def lint(path, backend: str, training: bool = True, version=None, device=None, min_severity: str = "warning",
         reference: str | None = "torch") -> list[LintIssue]:
    """Risky resize uses under ``path`` (a file or a directory) for ``backend``, most severe first per file."""
    if min_severity not in SEVERITY_ORDER:
        from ..errors import choice_error
        raise choice_error("min_severity", min_severity, SEVERITY_ORDER)
    from .knowledge import load
    load().backend(backend)  # a clear error for an unknown backend before scanning
    limit = SEVERITY_ORDER[min_severity]
    issues = []
    for file in iter_files(path):
        for use in find_uses(file):
            try:
                findings = check(mode=use.mode, backend=backend, training=training, version=version, device=device,
                                 align_corners=use.align_corners, antialias=use.antialias, reference=reference)
            except ValueError:
                continue  # a string that only looks like a mode in a config file
            for f in findings:
                if SEVERITY_ORDER[f.severity] <= limit:
                    issues.append(LintIssue(use, f.severity, f.message, f.record_id, f.error_text, f.fixes))
    return issues

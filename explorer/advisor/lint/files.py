"""The files a lint run reads: which ones (suffixes, ``--include``/``--exclude``), and reading them safely.

A source tree is untrusted input (``docs/threat-model.md``); files are read through :mod:`explorer.reading`:
only regular files, without blocking (a FIFO named ``model.py`` is skipped, never waited on), at most
:data:`~explorer.limits.LINT_MAX_FILE_BYTES` bytes, and only inside the tree (a symbolic link to
``/etc/passwd`` or ``/proc/self/environ`` is skipped, its lines never quoted in a report).  A broken symlink,
a directory that cannot be listed or a file that cannot be read is skipped with a warning, and the scan goes
on.  Python sources are decoded as Python decodes them (a UTF-8 byte-order mark, a ``coding:`` line).

>>> matches("tests/unit/test_up.py", ["tests"]), matches("src/up.py", ["tests"]), matches("a/b.py", ["*.py"])
(True, False, True)
"""

from __future__ import annotations

import fnmatch
import io
import os
import stat
import tokenize
from dataclasses import dataclass
from pathlib import Path

from ... import reading
from ...errors import ArgumentValueError
from ...limits import LINT_MAX_FILE_BYTES

#: Suffix -> reader.
SUFFIXES = {".py": "python", ".pyi": "python", ".rs": "rust", ".toml": "config", ".yaml": "config",
            ".yml": "config", ".json": "config", ".cfg": "config", ".ini": "config", ".onnx": "onnx"}
#: Hidden folders that hold the project's code: Jupyter's saved copies of the modules it edits.
WALKED_HIDDEN = {".ipynb_checkpoints"}
SKIP_DIRS = {".git", "target", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist"}


@dataclass(frozen=True)
class Skipped:
    """A file (or directory) the run could not read, and why."""

    path: str
    reason: str

    def __str__(self):
        return f"{reading.printable(self.path, None)}: skipped: {reading.printable(self.reason, 400)}"


def matches(relative: str, patterns) -> bool:
    """True when a relative path matches a glob: the whole path, a directory in it, or its file name.

    ``tests`` matches ``tests/x.py`` and ``a/tests/x.py``; ``*.json`` any JSON file; ``src/gen/*`` everything
    below ``src/gen``.
    """
    relative = relative.replace(os.sep, "/")
    for pattern in patterns:
        pattern = pattern.strip().rstrip("/")
        if not pattern:
            continue
        for candidate in (pattern, pattern + "/*", "*/" + pattern, "*/" + pattern + "/*"):
            if fnmatch.fnmatchcase(relative, candidate):
                return True
    return False


def walk(root, include=(), exclude=(), skipped: list | None = None):
    """(path, path relative to the root, reader) of every file to lint under ``root`` (a file or a directory)."""
    if isinstance(root, (str, bytes)) and not root.strip():
        raise ArgumentValueError(f"path={root!r} is empty; give a file or a directory ('.' for the working "
                                 "directory)")
    root = Path(root)
    skipped = skipped if skipped is not None else []
    try:
        info = root.stat()
    except FileNotFoundError:
        raise FileNotFoundError(f"path {str(root)!r} does not exist") from None
    except OSError as exc:
        raise OSError(f"cannot read {str(root)!r}: {exc.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        yield root, root.name, SUFFIXES.get(root.suffix.lower(), "config")
        return

    def on_error(exc: OSError):
        skipped.append(Skipped(str(exc.filename), f"cannot list the directory ({exc.strerror})"))

    for directory, dirs, files in os.walk(root, onerror=on_error):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and (not d.startswith(".") or d in WALKED_HIDDEN))
        for name in sorted(files):
            path = Path(directory) / name
            reader = SUFFIXES.get(path.suffix.lower())
            if reader is None:
                continue
            relative = path.relative_to(root).as_posix()
            if include and not matches(relative, include):
                continue
            if exclude and matches(relative, exclude):
                continue
            yield path, relative, reader


def read_bytes(path, limit: int = LINT_MAX_FILE_BYTES, root=None) -> bytes:
    """At most ``limit`` bytes of a regular file inside ``root`` (when given), without blocking;
    :class:`~explorer.errors.UnreadableError` (an OSError, with the reason) otherwise."""
    return reading.read_file(path, limit, root=root, what="the file")


def read_text(path, limit: int = LINT_MAX_FILE_BYTES, root=None, python: bool = False) -> str:
    """The text of a file (see :func:`read_bytes`); ``python``: decoded as Python decodes a source."""
    data = read_bytes(path, limit, root)
    return decode_python(data) if python else reading.decode(data)


def decode_python(data: bytes) -> str:
    """A Python source's text: the encoding its ``coding:`` line or byte-order mark names (UTF-8 by default),
    undecodable bytes replaced; the byte-order mark itself is not part of the text."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except (SyntaxError, LookupError):
        encoding = "utf-8"
    if encoding == "utf-8-sig" or data.startswith(b"\xef\xbb\xbf"):
        return reading.decode(data)
    try:
        return data.decode(encoding, errors="replace")
    except LookupError:
        return reading.decode(data)


def is_directory(path) -> bool:
    """Whether ``path`` is a directory (following a symbolic link given as the root itself)."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False

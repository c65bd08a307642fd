"""The files a lint run reads: which ones (suffixes, ``--include``/``--exclude``), and reading them safely.

Only regular files are opened, without blocking (a FIFO named ``model.py`` is skipped, never waited on), and
at most :data:`~explorer.limits.LINT_MAX_FILE_BYTES` bytes; a broken symlink, a directory that cannot be
listed or a file that cannot be read is skipped with a warning, and the scan goes on.

>>> matches("tests/unit/test_up.py", ["tests"]), matches("src/up.py", ["tests"]), matches("a/b.py", ["*.py"])
(True, False, True)
"""

from __future__ import annotations

import fnmatch
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from ...limits import LINT_MAX_FILE_BYTES

#: Suffix -> reader.
SUFFIXES = {".py": "python", ".pyi": "python", ".rs": "rust", ".toml": "config", ".yaml": "config",
            ".yml": "config", ".json": "config", ".cfg": "config", ".ini": "config", ".onnx": "onnx"}
SKIP_DIRS = {".git", "target", "node_modules", "__pycache__", ".venv", "venv", ".tox", "build", "dist"}


@dataclass(frozen=True)
class Skipped:
    """A file (or directory) the run could not read, and why."""

    path: str
    reason: str

    def __str__(self):
        return f"{self.path}: skipped: {self.reason}"


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
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
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


def read_bytes(path, limit: int = LINT_MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` bytes of a regular file, without blocking; OSError (with a reason) otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise OSError("a broken symbolic link or a file that vanished") from None
    except OSError as exc:
        raise OSError(f"cannot open it ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError("not a regular file (a FIFO, socket or device)")
        if info.st_size > limit:
            raise OSError(f"{info.st_size} bytes, above the limit of {limit} bytes")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise OSError(f"more than {limit} bytes")
        return b"".join(chunks)
    except OSError as exc:
        if exc.args and isinstance(exc.args[0], str):
            raise
        raise OSError(f"cannot read it ({exc.strerror})") from None
    finally:
        os.close(fd)


def read_text(path, limit: int = LINT_MAX_FILE_BYTES) -> str:
    return read_bytes(path, limit).decode("utf-8", errors="replace")

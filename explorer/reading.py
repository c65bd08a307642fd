"""Reading what the project is given, and showing it back: the one layer every entry point reads through.

Everything a user, a link or a stranger's upload hands the project is untrusted (``docs/threat-model.md``):
model files, images, source trees, baselines, configurations, pasted text and standard input.  This module is
the only place they are read from, so the rules hold everywhere:

* **regular files only**, opened without blocking and without a controlling terminal: a FIFO, a socket, a
  device (``/dev/zero``) or a directory is refused before a byte is read (a FIFO would block, a device never
  ends);
* **bounded reads**: at most ``limit + 1`` bytes are ever read, whatever size the file reports (``/proc``
  files report 0), and more than ``limit`` is refused;
* **confined paths**: given a ``root``, a path that resolves outside it (a symbolic link to ``/etc/passwd``,
  ``../..``) is refused, so reading a tree never reads what lies outside it;
* **bounded streams**: standard input and file objects are read up to a limit in characters or bytes;
* **shown escaped**: text that came from outside (a file name, a node name, an argument) is echoed through
  :func:`printable`, with control characters (newlines, ANSI escapes) written as escapes and its length
  bounded, so it cannot forge a line of output or colour a terminal.

Every refusal is an :class:`~explorer.errors.UnreadableError` (an ``OSError`` and a ``ValueError``) that names
the input and says why.

>>> printable("evil.py\\n\\x1b[31merror: forged")
'evil.py\\\\n\\\\x1b[31merror: forged'
>>> printable("x" * 50, limit=20)
'xxxxxxxxxxxxxxxxxxxx… (50 characters)'
>>> read_file("/dev/zero", 10)
Traceback (most recent call last):
...
explorer.errors.UnreadableError: '/dev/zero' is a character device, not a regular file
"""

from __future__ import annotations

import os
import re
import stat

from .errors import UnreadableError

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
_CHUNK = 1 << 20
#: Longest text :func:`printable` echoes by default (characters).
SHOWN_CHARS = 200


def kind_of(mode: int) -> str | None:
    """'a directory', 'a named pipe (FIFO)', ... for a file that is not regular (None for a regular file)."""
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return None if stat.S_ISREG(mode) else "not a regular file"


def inside(path, root) -> bool:
    """True when ``path`` resolves (symbolic links followed) to ``root`` or below it."""
    real, base = os.path.realpath(path), os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def _label(path) -> str:
    return printable(os.fspath(path))


class FileView:
    """A read-only view of an open file that indexes and slices like ``bytes``, read with ``os.pread`` a block
    at a time (the last few blocks kept).  Unlike a memory map, only what is read enters this process's memory:
    touching a mapped file that sits in the page cache maps whole large folios, megabytes at a time, into the
    resident set, so a walk over a model's headers would count most of its weights.

    >>> import tempfile
    >>> with tempfile.TemporaryFile() as f:
    ...     _ = f.write(bytes(range(200)) * 1000)
    ...     _ = f.flush()
    ...     view = FileView(f.fileno(), 200_000)
    ...     len(view), view[5], view[-1], list(view[65534:65538]), len(view[10:150_000])  # across a block
    (200000, 5, 199, [134, 135, 136, 137], 149990)
    """

    BLOCK = 1 << 16
    KEEP = 8

    def __init__(self, fd: int, size: int):
        self._fd, self._size, self._blocks = fd, int(size), {}

    def __len__(self) -> int:
        return self._size

    def _read(self, offset: int, length: int) -> bytes:
        parts, done = [], 0
        while done < length:
            chunk = os.pread(self._fd, length - done, offset + done)
            if not chunk:
                break
            parts.append(chunk)
            done += len(chunk)
        return b"".join(parts)

    def _block(self, k: int) -> bytes:
        block = self._blocks.pop(k, None)
        if block is None:
            block = self._read(k * self.BLOCK, self.BLOCK)
            if len(self._blocks) >= self.KEEP:
                del self._blocks[next(iter(self._blocks))]
        self._blocks[k] = block  # (most recent last)
        return block

    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = key.indices(self._size)
            if step != 1:
                raise ValueError("a FileView is sliced with step 1 only")
            if stop <= start:
                return b""
            first, last = start // self.BLOCK, (stop - 1) // self.BLOCK
            if last - first > 1:
                return self._read(start, stop - start)
            head = self._block(first)[start - first * self.BLOCK:stop - first * self.BLOCK]
            return head if first == last else head + self._block(last)[:stop - last * self.BLOCK]
        index = key + self._size if key < 0 else key
        if not 0 <= index < self._size:
            raise IndexError("FileView index out of range")
        return self._block(index // self.BLOCK)[index % self.BLOCK]


def read_file(path, limit: int, *, root=None, what: str = "", through=None) -> bytes:
    """At most ``limit`` bytes of the regular file ``path``; an :class:`UnreadableError` otherwise.

    With ``root``, the path must resolve inside it.  ``what`` names the input in messages ("model file", ...).
    ``through(view)``, when given, is called with a :class:`FileView` of the file (bytes when it is empty) and
    its result returned instead of the bytes: a reader that needs only part of a large file (a model's graph,
    not its weights) never brings the rest into memory.
    """
    label = f"{what} {_label(path)!r}" if what else repr(_label(path))
    path = os.fspath(path)
    if root is not None and not inside(path, root):
        raise UnreadableError(f"{label} resolves outside {_label(root)!r} (a symbolic link out of the tree); "
                              "it is not read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        info = os.stat(path)  # before opening: opening a FIFO for reading blocks on some systems
    except FileNotFoundError:
        raise UnreadableError(f"cannot read {label}: it does not exist (or is a broken symbolic link)") from None
    except OSError as exc:
        raise UnreadableError(f"cannot read {label}: {exc.strerror or exc}") from None
    kind = kind_of(info.st_mode)
    if kind is not None:
        raise UnreadableError(f"{label} is {kind}, not a regular file")
    if info.st_size > limit:
        raise UnreadableError(f"{label} has {info.st_size} bytes, more than the limit of {limit}")
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UnreadableError(f"cannot open {label}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        kind = kind_of(info.st_mode)  # replaced since it was looked at
        if kind is not None:
            raise UnreadableError(f"{label} is {kind}, not a regular file")
        if through is not None:
            if info.st_size > limit:
                raise UnreadableError(f"{label} has more bytes than the limit of {limit}")
            if info.st_size == 0:
                return through(b"")
            return through(FileView(fd, info.st_size))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise UnreadableError(f"{label} has more bytes than the limit of {limit}")
        return b"".join(chunks)
    except UnreadableError:
        raise
    except OSError as exc:
        raise UnreadableError(f"cannot read {label}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def decode(data: bytes) -> str:
    """UTF-8 text of ``data``: a byte-order mark dropped (as Python and editors do), undecodable bytes replaced."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def read_text(path, limit: int, *, root=None, what: str = "") -> str:
    """:func:`read_file` decoded by :func:`decode`."""
    return decode(read_file(path, limit, root=root, what=what))


def read_stream(stream, limit: int, what: str = "the input"):
    """At most ``limit`` characters (or bytes) of a file object such as ``sys.stdin``; more is refused."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise UnreadableError(f"{what} has more than the limit of {limit} "
                              f"{'characters' if isinstance(data, str) else 'bytes'}; give a shorter text")
    return data


def read_bytes_given(data, limit: int, what: str = "the given bytes") -> bytes:
    """``data`` (bytes, bytearray or memoryview) as bytes, when it holds at most ``limit`` bytes."""
    size = data.nbytes if isinstance(data, memoryview) else len(data)
    if size > limit:
        raise UnreadableError(f"{what} have {size} bytes, more than the limit of {limit}")
    return bytes(data)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text, limit: int | None = SHOWN_CHARS) -> str:
    """``text`` safe to print on one line: control characters (newline, carriage return, ESC, bidirectional
    overrides) written as Python escapes, and at most ``limit`` characters (None: any length) with the
    length said after them."""
    text = str(text)
    total = len(text)
    if limit is not None and total > limit:
        text = text[:limit]
    text = _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), text)
    if limit is not None and total > limit:
        text += f"… ({total} characters)"
    return text


__all__ = ["SHOWN_CHARS", "decode", "inside", "kind_of", "printable", "read_bytes_given", "read_file", "read_stream",
           "read_text"]

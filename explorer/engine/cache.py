"""A least-recently-used cache bounded by the bytes of what it holds, never by a count of entries.

>>> cache = ByteCache(max_bytes=100, share=0.5, size_of=len)
>>> cache.get("a", lambda: b"x" * 40), cache.get("b", lambda: b"y" * 40), cache.nbytes
(b'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', b'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy', 80)
>>> _ = cache.get("c", lambda: b"z" * 40)   # over 100 bytes: the least recently used ("a") goes
>>> sorted(cache.keys()), cache.nbytes
(['b', 'c'], 80)
>>> _ = cache.get("d", lambda: b"w" * 60)   # larger than half the cache: returned, not kept
>>> sorted(cache.keys())
['b', 'c']
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable


class ByteCache:
    """Values built on demand by key (any hashable), the least recently used dropped first.

    ``size_of(value)`` gives a value's bytes.  A value may grow after it is handed out (a plan caches the
    dense blocks and the transpose its contractions build): the ``recent`` values handed out last are measured
    again on every call, so the total stays within ``max_bytes`` one call later at most.  A value larger than
    ``share * max_bytes`` is never kept.
    """

    def __init__(self, max_bytes: int, share: float, size_of: Callable[[object], int], recent: int = 16):
        self.max_bytes = int(max_bytes)
        self.share = float(share)
        self._size_of = size_of
        self._entries: OrderedDict[Hashable, list] = OrderedDict()  # key -> [value, bytes]
        self._recent: deque = deque(maxlen=recent)
        self._lock = threading.Lock()
        self.nbytes = 0

    def get(self, key: Hashable, build: Callable[[], object]):
        """The value of ``key``, built by ``build()`` when it is not held."""
        with self._lock:
            self._remeasure()
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                self._recent.append(key)
                return entry[0]
        value = build()  # outside the lock: another thread may build another plan meanwhile
        size = self._size_of(value)
        with self._lock:
            if size <= self.share * self.max_bytes and key not in self._entries:
                self._entries[key] = [value, size]
                self.nbytes += size
                self._recent.append(key)
                self._evict()
        return value

    def _remeasure(self):
        for key in set(self._recent):
            entry = self._entries.get(key)
            if entry is not None:
                size = self._size_of(entry[0])
                self.nbytes += size - entry[1]
                entry[1] = size
                if size > self.share * self.max_bytes:
                    self._drop(key)
        self._evict()

    def _evict(self):
        while self.nbytes > self.max_bytes and self._entries:
            self._drop(next(iter(self._entries)))

    def _drop(self, key):
        _, size = self._entries.pop(key)
        self.nbytes -= size

    def keys(self):
        return list(self._entries)

    def values(self):
        """The values held, least recently used first (their recency is left as it is)."""
        return [entry[0] for entry in list(self._entries.values())]

    def __contains__(self, key) -> bool:
        return key in self._entries

    def __iter__(self):
        return iter(self.keys())

    def __len__(self):
        return len(self._entries)

    def clear(self):
        """Drop every value."""
        with self._lock:
            self._entries.clear()
            self._recent.clear()
            self.nbytes = 0

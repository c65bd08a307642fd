"""How the explorer runs a resize: directly (:data:`DIRECT`), or through a cache the tabs share.

A forward computed for the Modes tab is reused by the Gradients tab.  The cache is bounded by bytes
(:data:`explorer.limits.APP_CACHE_BYTES`), least recently used first out, and :meth:`CachedEngine.retain`
drops the large results of output sizes that are no longer shown.

>>> import numpy as np
>>> from explorer.conventions.image_resize import ImageResize
>>> engine = CachedEngine()
>>> img = np.zeros((8, 8, 1), np.float32)
>>> r = ImageResize("bilinear", scale=0.5)
>>> engine.forward(r, img) is engine.forward(r, img), engine.hits, engine.bytes
(True, 1, 64)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

import numpy as np

from ..conventions.image_resize import ImageResize
from ..limits import APP_CACHE_BYTES, APP_CACHE_KEEP_BYTES


class Engine:
    """A resize run directly, with no cache."""

    def forward(self, resize: ImageResize, image):
        return resize.forward(image)

    def backward(self, resize: ImageResize, grad, shape):
        return resize.backward(grad, shape)

    def coverage(self, resize: ImageResize, shape, out_shape):
        """``W.T @ 1`` on an (H, W) grid: how much each input pixel feeds the (h, w) output."""
        return resize.transpose(ones(out_shape[:2]), tuple(shape[:2]) + (1,))[:, :, 0]

    def transpose(self, resize: ImageResize, grad, shape):
        return resize.transpose(grad, shape)


DIRECT = Engine()


@lru_cache(maxsize=1)
def ones(out_hw) -> np.ndarray:
    """A read-only (h, w, 1) array of ones, kept for the last output size (every mode's coverage reads it)."""
    a = np.ones(tuple(out_hw) + (1,), np.float32)
    a.setflags(write=False)
    return a


class CachedEngine(Engine):
    """Forward results and coverage maps keyed by the resize, for one image at a time (arrays are compared
    by identity, never by value: a new image empties the cache).  At most ``budget`` bytes are kept; the
    least recently used results go first.  Safe to share between the app's threads."""

    def __init__(self, budget: int = APP_CACHE_BYTES):
        self.budget = budget
        self._store = OrderedDict()  # key -> (array, output (h, w))
        self._image = None
        self._lock = threading.RLock()
        self.bytes = 0
        self.hits = 0

    def _get(self, key, out_hw, make):
        with self._lock:
            if key in self._store:
                self._store.move_to_end(key)
                self.hits += 1
                return self._store[key][0]
        value = make()
        value.setflags(write=False)
        with self._lock:
            if key not in self._store and value.nbytes <= self.budget:
                self._store[key] = (value, tuple(out_hw))
                self.bytes += value.nbytes
                while self.bytes > self.budget:
                    _, (old, _) = self._store.popitem(last=False)
                    self.bytes -= old.nbytes
        return value

    def _check_image(self, image):
        with self._lock:
            if image is not self._image:
                self.clear()
                self._image = image

    def forward(self, resize, image):
        self._check_image(image)
        return self._get(("forward", resize), resize.output_size(image.shape),
                         lambda: super(CachedEngine, self).forward(resize, image))

    def coverage(self, resize, shape, out_shape):
        return self._get(("coverage", resize, tuple(shape[:2]), tuple(out_shape[:2])), out_shape[:2],
                         lambda: super(CachedEngine, self).coverage(resize, shape, out_shape))

    def retain(self, output_size, keep_bytes: int = APP_CACHE_KEEP_BYTES):
        """Drop every result of at least ``keep_bytes`` whose output size is not ``output_size`` (H, W): the
        app calls this when the size shown changes, so large results of earlier sizes do not linger."""
        with self._lock:
            for key, (value, out_hw) in list(self._store.items()):
                if out_hw != tuple(output_size) and value.nbytes >= keep_bytes:
                    del self._store[key]
                    self.bytes -= value.nbytes

    def clear(self):
        with self._lock:
            self._store.clear()
            self._image = None
            self.bytes = 0

"""How the explorer runs a resize: directly (:data:`DIRECT`), or through a cache the tabs share.

A forward computed for the Modes tab is reused by the Gradients tab.

>>> import numpy as np
>>> from explorer.conventions.image_resize import ImageResize
>>> engine = CachedEngine()
>>> img = np.zeros((8, 8, 1), np.float32)
>>> r = ImageResize("bilinear", scale=0.5)
>>> engine.forward(r, img) is engine.forward(r, img), engine.hits
(True, 1)
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ..conventions.image_resize import ImageResize


class Engine:
    """A resize run directly, with no cache."""

    def forward(self, resize: ImageResize, image):
        return resize.forward(image)

    def backward(self, resize: ImageResize, grad, shape):
        return resize.backward(grad, shape)

    def coverage(self, resize: ImageResize, shape, out_shape):
        """``W.T @ 1`` on an (H, W) grid: how much each input pixel feeds the (h, w) output."""
        h, w = out_shape[:2]
        return resize.transpose(np.ones((h, w, 1), np.float32), tuple(shape[:2]) + (1,))[:, :, 0]

    def transpose(self, resize: ImageResize, grad, shape):
        return resize.transpose(grad, shape)


DIRECT = Engine()


class CachedEngine(Engine):
    """The last ``capacity`` forward results and coverage maps, keyed by the resize and the image's
    identity.  :meth:`clear` when the image changes (arrays are compared by identity, never by value)."""

    def __init__(self, capacity: int = 48):
        self.capacity = capacity
        self._store = OrderedDict()
        self._image = None
        self.hits = 0

    def _get(self, key, make):
        if key in self._store:
            self._store.move_to_end(key)
            self.hits += 1
            return self._store[key]
        value = make()
        value.setflags(write=False)
        self._store[key] = value
        if len(self._store) > self.capacity:
            self._store.popitem(last=False)
        return value

    def _check_image(self, image):
        if image is not self._image:
            self._store.clear()
            self._image = image

    def forward(self, resize, image):
        self._check_image(image)
        return self._get(("forward", resize), lambda: super(CachedEngine, self).forward(resize, image))

    def coverage(self, resize, shape, out_shape):
        return self._get(("coverage", resize, tuple(shape[:2]), tuple(out_shape[:2])),
                         lambda: super(CachedEngine, self).coverage(resize, shape, out_shape))

    def clear(self):
        self._store.clear()
        self._image = None

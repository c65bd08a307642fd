"""Engine results the tabs share: a forward computed for the Modes tab is reused by the Gradients tab.

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

from ..views.modes import Engine


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

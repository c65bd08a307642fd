"""The bounded working copy that the comparing tabs (Libraries, Backends' measured fixes, Pick) measure on.

Those tabs run many calls per change; on a large input or output they measure on a centred crop of the input
at the same scale, small enough that its input and its output each have at most
:data:`explorer.limits.APP_WORK_PIXELS` pixels, and their captions say so.

>>> import numpy as np
>>> w = working_copy(np.zeros((256, 256, 3), np.float32), None, (4000, 4000))
>>> w.image.shape, w.size
((32, 32, 3), (500, 500))
>>> print(w.note)
Measured on a working copy: the centred 32×32 of the input, resized to 500×500 at the same scale (the full 256×256 → 4000×4000 is larger than the 262144 pixels these comparisons use).
>>> working_copy(np.zeros((64, 64, 1), np.float32), 0.5, None).note
''
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...limits import APP_WORK_PIXELS


@dataclass
class WorkingCopy:
    image: np.ndarray
    scale: float | None
    size: tuple | None
    note: str = ""


def working_copy(image, scale, size, budget: int = APP_WORK_PIXELS) -> WorkingCopy:
    """``image`` with ``scale`` or ``size`` when both the input and the output fit ``budget`` pixels; else a
    centred crop of the input at the same per-axis scale (a size becomes the crop's size at that scale)."""
    H, W = image.shape[:2]
    sy, sx = (scale, scale) if size is None else (size[0] / H, size[1] / W)
    out_h, out_w = (int(H * scale), int(W * scale)) if size is None else tuple(size)
    shrink = min(1.0, math.sqrt(budget / (H * W)), math.sqrt(budget / max(out_h * out_w, 1)))
    if shrink >= 1.0:
        return WorkingCopy(image, scale, size)
    h = min(H, max(2, int(H * shrink), math.ceil(1 / sy)))
    w = min(W, max(2, int(W * shrink), math.ceil(1 / sx)))
    top, left = (H - h) // 2, (W - w) // 2
    crop = image[top:top + h, left:left + w]
    new_size = None if size is None else (max(1, round(h * sy)), max(1, round(w * sx)))
    got = new_size or (int(h * scale), int(w * scale))
    note = (f"Measured on a working copy: the centred {h}×{w} of the input, resized to {got[0]}×{got[1]} at the "
            f"same scale (the full {H}×{W} → {out_h}×{out_w} is larger than the {budget} pixels these "
            "comparisons use).")
    return WorkingCopy(crop, scale, new_size, note)

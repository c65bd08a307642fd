"""Modes: every mode's output on the image (and a reference mode's), computed by the engine; errors are kept, not raised.

Numbers only (no matplotlib): the view of the same name in :mod:`explorer.ui.views` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...conventions.image_resize import ImageResize
from ..defaults import DEFAULT_CROP
from ..engine import DIRECT


@dataclass
class ModesData:
    """What the Modes view shows.  ``outputs`` maps a label to an (h, w, C) array or the exception raised;
    ``crop`` is (top, left, bottom, right) as fractions of the input."""

    image: np.ndarray
    outputs: dict
    reference: str
    reference_output: object
    crop: tuple = DEFAULT_CROP
    notes: dict = field(default_factory=dict)


def compute_modes(image, modes, reference="bilinear", *, scale=None, size=None, align_corners=False,
                  antialias=False, library="torch", crop=DEFAULT_CROP, engine=DIRECT) -> ModesData:
    """Run every mode (and the reference) on ``image`` with the engine; errors are kept, not raised."""
    outputs, notes = {}, {}
    for mode in modes:
        outputs[mode], notes[mode] = run_forward(image, mode, scale, size, align_corners, antialias, library,
                                                 engine)
    if reference in outputs:
        ref = outputs[reference]
    else:
        ref, _ = run_forward(image, reference, scale, size, align_corners, antialias, library, engine)
    return ModesData(image, outputs, reference, ref, tuple(crop), notes)


def run_forward(image, mode, scale, size, align_corners, antialias, library, engine=DIRECT):
    """(output or exception, notes) of one mode."""
    try:
        r = ImageResize(mode, scale=scale, size=size, align_corners=align_corners, antialias=antialias,
                        library=library)
        return engine.forward(r, image), "; ".join(r.notes)
    except Exception as exc:  # noqa: BLE001 - shown in the panel
        return exc, ""

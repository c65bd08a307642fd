"""The explorer's state: one mapping shared by every tab, and the validation of every change.

:func:`validate` turns a batch of changes into normalised values or raises a ValueError that names the key,
the value and the valid choices; nothing here knows about widgets.

>>> s = State()
>>> s["mode"], s["scale"], s["size"]
('bilinear', 0.4, None)
>>> s.validate({"size": 64})
{'size': (64, 64), 'scale': None}
>>> s.apply(s.validate({"size": (64, 48)})); s.validate({"size": None})   # back to the last scale
{'size': None, 'scale': 0.4}
>>> check_budget((256, 256, 3), None, (30000, 30000))
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: size=(30000, 30000) is too large for the explorer: its output would be 30000×30000×3 float32 values, 10.1 GiB, more than the 256 MiB one output may take (explorer.limits.APP_MAX_OUTPUT_BYTES); the largest square output here is 4729×4729
>>> s.validate({"scale": 0})
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7
>>> s.validate({"mode": "bicubc"})
Traceback (most recent call last):
...
explorer.errors.ArgumentValueError: mode='bicubc' is not valid; choose one of: 'area', 'bicubic', ... (did you mean 'bicubic'?)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...errors import ArgumentValueError, brief, choice_error
from ...limits import APP_MAX_OUTPUT_BYTES
from .declared import DEFAULTS, TABS, all_settings
from .settings import SCALE_RANGE, device_check, is_image_file, opset_check, version_check

__all__ = ["DEFAULTS", "SCALE_RANGE", "TABS", "State", "check_budget", "is_image_file"]


def backend_table() -> dict:
    """backend id -> (versions, devices, opsets, advisor BackendInfo); the version and opset choices are the
    releases and opsets where some answer of the knowledge base changes."""
    from ...advisor import backends

    return {b.id: (tuple(b.versions), tuple(b.devices), tuple(b.opsets), b) for b in backends()}


class State(Mapping):
    """A read-only mapping of the current settings; :meth:`validate` checks changes, :meth:`apply` commits
    validated ones."""

    def __init__(self, **overrides):
        self._values = dict(DEFAULTS)
        self._backends = None
        self.last_scale = DEFAULTS["scale"]  # what clearing the size returns to
        if overrides:
            self.apply(self.validate(overrides))

    # Mapping
    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __repr__(self):
        shown = {k: ("<array>" if isinstance(v, np.ndarray) else v) for k, v in self._values.items()}
        return f"State({shown})"

    @property
    def backends(self) -> dict:
        if self._backends is None:
            self._backends = backend_table()
        return self._backends

    def apply(self, changes: dict):
        self._values.update(changes)
        if changes.get("scale") is not None:
            self.last_scale = changes["scale"]

    def validate(self, changes: dict) -> dict:
        """Normalised values for ``changes`` (plus the changes they imply), or a ValueError."""
        unknown = [k for k in changes if k not in DEFAULTS]
        if unknown:
            raise choice_error("setting", unknown[0], DEFAULTS, context="for the explorer")
        out = {}
        settings = all_settings()
        for key, value in changes.items():
            out[key] = settings[key].check(self, value, changes)
        if changes.get("scale") is not None and changes.get("size") is not None:
            raise ArgumentValueError("give scale or size, not both (got scale={!r}, size={!r})".format(
                changes["scale"], changes["size"]))
        if out.get("size") is not None:
            out["scale"] = None
        if out.get("scale") is not None:
            out["size"] = None
        if "scale" in out and "size" in out and out["scale"] is None and out["size"] is None:
            raise ArgumentValueError("scale=None and size=None leave no output size; give one of them")
        if "scale" in out and out["scale"] is None and "size" not in out and self["size"] is None:
            raise ArgumentValueError("scale=None needs a size; give size=(height, width) instead")
        if "size" in out and out["size"] is None and "scale" not in out and self["scale"] is None:
            out["scale"] = self.last_scale  # clearing the size returns to the scale
        if "backend" in out and out["backend"] != self["backend"]:
            # another backend has other versions and devices: keep them only when given with it
            out.setdefault("version", version_check(self, changes.get("version"), changes))
            out.setdefault("device", device_check(self, changes.get("device"), changes))
            out.setdefault("opset", opset_check(self, changes.get("opset"), changes))
        return out


def check_budget(image_shape, scale, size):
    """Raise an ArgumentValueError when the output of an ``image_shape`` (H, W, C) image at ``scale`` or
    ``size`` would take more than :data:`explorer.limits.APP_MAX_OUTPUT_BYTES` (checked before anything is
    computed, so no value typed in the page can exhaust the kernel's memory)."""
    h, w, c = (int(n) for n in image_shape)
    if size is not None:
        out = tuple(int(n) for n in size)
        need = out[0] * out[1] * c * 4  # integers: exact however large
    else:
        scale = float(scale)
        out = (h * scale, w * scale)  # floats: a scale of 1e300 gives inf, never an int conversion
        need = out[0] * out[1] * c * 4.0
    if need <= APP_MAX_OUTPUT_BYTES:
        return
    side = int((APP_MAX_OUTPUT_BYTES / (4 * c)) ** 0.5)
    what = f"size={brief(tuple(size))}" if size is not None else f"scale={brief(scale)}"
    shape = "×".join(str(n) if isinstance(n, int) else f"{n:.3g}" for n in out)
    amount = f"{need / 2**30:.1f} GiB" if need < 2**70 else f"{float(need):.2g} bytes"
    raise ArgumentValueError(f"{what} is too large for the explorer: its output would be {shape}×{c} "
                             f"float32 values, {amount}, more than the "
                             f"{APP_MAX_OUTPUT_BYTES // 2**20} MiB one output may take "
                             f"(explorer.limits.APP_MAX_OUTPUT_BYTES); the largest square output here is "
                             f"{side}×{side}")

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

import os
from collections.abc import Mapping

import numpy as np

from ...advisor.pick import CONTENTS, PRIORITIES
from ...conventions.image_resize import MODES, check_scale, check_size
from ...conventions.mode_names import LIBRARIES
from ... import validate
from ...errors import ArgumentValueError, brief, choice_error
from ...images import TEST_IMAGES
from ...limits import APP_MAX_LENGTH, APP_MAX_OUTPUT_BYTES
from ..defaults import DEFAULT_CROP, DEFAULT_RECT, UPSTREAMS

TABS = ("modes", "gradients", "kernels", "libraries", "backends", "pick")
SCALE_RANGE = (0.05, 4.0)  # the slider's range; app.set accepts any positive scale

DEFAULTS = {
    "tab": "modes",
    "image": "photo",
    "mode": "bilinear",
    "modes": ("nearest", "bilinear", "bicubic"),
    "reference": "lanczos",
    "scale": 0.4,  # on the photo: aliasing on Modes; dead rows, dead pixels and uneven coverage on Gradients
    "size": None,
    "align_corners": False,
    "antialias": False,
    "library": "torch",
    "libraries": ("torch", "tensorflow", "jax", "opencv", "pillow"),
    "same_options": False,
    "backend": "torch",
    "version": None,
    "opset": None,
    "device": None,
    "training": True,
    "upstream": "ones",
    "seed": 0,
    "rect": DEFAULT_RECT,
    "crop": DEFAULT_CROP,
    "length": 8,
    "sample": None,
    "content": "photo",
    "priorities": None,
    "targets": ("torch",),
    "frameworks": ("torch", "tensorflow", "jax"),
}


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
        for key, value in changes.items():
            out[key] = _CHECKS[key](self, value, changes)
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
            out.setdefault("version", _check_version(self, changes.get("version"), changes))
            out.setdefault("device", _check_device(self, changes.get("device"), changes))
            out.setdefault("opset", _check_opset(self, changes.get("opset"), changes))
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


# ---------------------------------------------------------------------------------------------- checks
def _choice(choices, name):
    def check(state, value, changes):
        if not isinstance(value, str) or value not in choices:
            raise choice_error(name, value, choices)
        return value
    return check


def _subset(choices, name, allow_empty=False):
    def check(state, value, changes):
        if isinstance(value, str):
            value = (value,)
        try:
            items = tuple(value)
        except TypeError:
            raise ArgumentValueError(f"{name}={value!r} is not valid; give a list of: "
                             + ", ".join(repr(c) for c in choices)) from None
        if not items and not allow_empty:
            raise ArgumentValueError(f"{name}=() is not valid; choose at least one of: "
                             + ", ".join(repr(c) for c in choices))
        for item in items:
            if not isinstance(item, str) or item not in choices:
                raise choice_error(name, item, choices)
        return tuple(dict.fromkeys(items))
    return check


def _bool(name):
    def check(state, value, changes):
        if not isinstance(value, (bool, np.bool_)):
            raise ArgumentValueError(f"{name}={value!r} is not valid; choose one of: False, True")
        return bool(value)
    return check


def is_image_file(value) -> bool:
    """An image given as a file: its bytes, a path object, or a string naming a file (not a test image)."""
    if isinstance(value, (bytes, bytearray, memoryview)) or hasattr(value, "__fspath__"):
        return True
    return isinstance(value, str) and value not in TEST_IMAGES and os.path.isfile(value)


def _image(state, value, changes):
    from ...images import as_image, load_image

    if isinstance(value, str) and value in TEST_IMAGES:
        return value
    if is_image_file(value):
        return load_image(value)
    if isinstance(value, str):
        raise choice_error("image", value, TEST_IMAGES,
                           context="(a built-in test image or an image file; or pass an array or bytes)")
    return as_image(value)


def _scale(state, value, changes):
    return None if value is None else check_scale(value)


def _size(state, value, changes):
    return None if value is None else check_size(value)


def _fractions(name):
    def check(state, value, changes):
        try:
            top, left, bottom, right = (float(v) for v in value)
        except (TypeError, ValueError):
            raise ArgumentValueError(f"{name}={value!r} is not valid; give (top, left, bottom, right) as fractions "
                             "of the image, e.g. (0.25, 0.25, 0.75, 0.75)") from None
        if not (0 <= top < bottom <= 1 and 0 <= left < right <= 1):
            raise ArgumentValueError(f"{name}={value!r} is not valid; need 0 <= top < bottom <= 1 and "
                             "0 <= left < right <= 1")
        return (top, left, bottom, right)
    return check


def _int_range(name, lo, hi, allow_none=False):
    def check(state, value, changes):
        if value is None and allow_none:
            return None
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
            raise ArgumentValueError(f"{name}={value!r} is not valid; give an integer from {lo} to {hi}")
        return int(value)
    return check


def _backend(state, value, changes):
    table = state.backends
    if not isinstance(value, str) or value not in table:
        raise choice_error("backend", value, table)
    return value


def _backend_of(state, changes):
    return changes.get("backend", state["backend"])


def _check_version(state, value, changes):
    """Any release the knowledge base checked, kept as the first release of its era (same answers)."""
    if value is None:
        return None
    entry = state.backends.get(_backend_of(state, changes))
    versions = entry[0] if entry else ()
    value = str(value).strip()
    try:
        era = entry[3].era_of(value) if entry else None
    except ValueError:
        era = None
    if era is None:
        raise choice_error("version", value, versions or ("None",),
                           context=f"for backend {_backend_of(state, changes)!r} (a release from "
                                   f"{versions[0] if versions else '-'} on)")
    return era


def _check_opset(state, value, changes):
    """An opset of at least the backend's first known one; a later one is answered as the newest known opset
    at or below it (an opset past :data:`~explorer.limits.MAX_OPSET` is refused, not taken as the newest)."""
    if value is None:
        return None
    entry = state.backends.get(_backend_of(state, changes))
    opsets = entry[2] if entry else ()
    if validate.is_integer(value) and opsets and value >= opsets[0]:
        value = validate.opset(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not opsets or value < opsets[0]:
        raise choice_error("opset", value, [str(o) for o in opsets] or ["None"],
                           context=f"for backend {_backend_of(state, changes)!r}")
    return max(o for o in opsets if o <= value)


def _check_device(state, value, changes):
    if value is None:
        return None
    devices = state.backends.get(_backend_of(state, changes), ((), ()))[1]
    if value not in devices:
        raise choice_error("device", value, devices or ("None",),
                           context=f"for backend {_backend_of(state, changes)!r}")
    return value


def _backend_list(name):
    def check(state, value, changes):
        table = state.backends
        return _subset(tuple(table) or ("torch",), name)(state, value, changes)
    return check


def _priorities(state, value, changes):
    return None if value is None else _subset(tuple(PRIORITIES), "priorities", allow_empty=True)(state, value, changes)


_CHECKS = {
    "tab": _choice(TABS, "tab"),
    "image": _image,
    "mode": _choice(MODES, "mode"),
    "modes": _subset(MODES, "modes"),
    "reference": _choice(MODES, "reference"),
    "scale": _scale,
    "size": _size,
    "align_corners": _bool("align_corners"),
    "antialias": _bool("antialias"),
    "library": _choice(LIBRARIES, "library"),
    "libraries": _subset(LIBRARIES, "libraries"),
    "backend": _backend,
    "version": _check_version,
    "opset": _check_opset,
    "device": _check_device,
    "same_options": _bool("same_options"),
    "training": _bool("training"),
    "upstream": _choice(tuple(UPSTREAMS), "upstream"),
    "seed": _int_range("seed", 0, 2**31 - 1),
    "rect": _fractions("rect"),
    "crop": _fractions("crop"),
    "length": _int_range("length", 2, APP_MAX_LENGTH),
    "sample": _int_range("sample", 0, 10 * APP_MAX_LENGTH, allow_none=True),
    "content": _choice(tuple(CONTENTS), "content"),
    "priorities": _priorities,
    "targets": _backend_list("targets"),
    "frameworks": _backend_list("frameworks"),
}

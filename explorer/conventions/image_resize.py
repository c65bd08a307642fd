"""One resize of an (H, W, C) image under one library's convention: forward, backward and 1-D weights.

The explorer's views and :func:`explorer.pick` all go through :class:`ImageResize`, so what they show is what
the engine computes.  Every library goes through :func:`explorer.library_resize` on axes (0, 1); a scale is
passed as the library's own ``scale_factor`` where its ``image_scale`` says so (PyTorch: every
``scale_factor`` rule applies), else as the common output size ``floor(n * scale)``, so every library's
output has the same shape.

Options a mode does not take are left out and said in :attr:`ImageResize.notes` (PyTorch raises when
``align_corners`` is given to ``nearest``, and ``lanczos`` is always antialiased).

>>> import numpy as np
>>> img = np.random.rand(37, 53, 3).astype(np.float32)
>>> r = ImageResize("bicubic", scale=1.7, antialias=True)
>>> r.forward(img).shape, r.output_size(img.shape)
((62, 90, 3), (62, 90))
>>> r.backward(np.ones((62, 90, 3), np.float32), img.shape).shape
(37, 53, 3)
>>> ImageResize("nearest", scale=0.5, align_corners=True).notes
('align_corners does not apply to nearest; it is left out',)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import validate
from ..errors import ArgumentValueError, choice_error
from .library_resize import (
    build_plans,
    library_resize,
    library_resize_backward,
    library_resize_transpose,
    prepare,
)
from .registry import library as library_rules

#: The resize modes of a 2-D image, in PyTorch's names (the nominal mode every library maps to its own).
MODES = ("nearest", "nearest-exact", "bilinear", "bicubic", "area", "lanczos")
_TOGGLES = ("align_corners", "antialias")
#: :meth:`ImageResize.plan` describes the width axis of an image this tall (taller than PyTorch's small-output
#: nearest kernel, Note [nearest_idx] in explorer.conventions.libraries.pytorch).
AXIS_ROWS = 256


@dataclass(frozen=True)
class ImageResize:
    """``mode`` with an output ``size`` (H, W) or a ``scale`` factor, under ``library``'s convention."""

    mode: str
    scale: float | None = None
    size: tuple | None = None
    align_corners: bool = False
    antialias: bool = False
    library: str = "torch"
    notes: tuple = field(default=(), compare=False)

    def __post_init__(self):
        if self.mode not in MODES:
            raise choice_error("mode", self.mode, MODES)
        if (self.scale is None) == (self.size is None):
            raise ArgumentValueError("give exactly one of scale and size "
                             f"(got scale={self.scale!r}, size={self.size!r})")
        if self.scale is not None:
            object.__setattr__(self, "scale", check_scale(self.scale))
        if self.size is not None:
            object.__setattr__(self, "size", check_size(self.size))
        for name in ("align_corners", "antialias"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise ArgumentValueError(f"{name}={value!r} is not valid; choose one of: False, True")
            object.__setattr__(self, name, bool(value))
        object.__setattr__(self, "notes", tuple(self._notes()))

    # ------------------------------------------------------------------ options
    @property
    def rules(self):
        return library_rules(self.library)

    def _passed(self):
        """(options passed to the library, notes on what was left out or forced)."""
        rules, passed, notes = self.rules, {}, []
        for name in _TOGGLES:
            value, option = getattr(self, name), self.rules.option(name)
            if option is None:
                if value:
                    notes.append(f"{self.library} has no {name} option; it is left out")
                continue
            if not option.applies_to(self.mode):
                if value:
                    notes.append(f"{name} does not apply to {self.mode}; it is left out")
                continue
            required = option.required.get(self.mode)
            if required is not None and value != required:
                notes.append(f"{self.mode} is always antialiased in {rules.title.split()[0]}; shown with "
                             f"{name}={required}")
                value = required
            passed[name] = value
        return passed, notes

    def _notes(self):
        return self._passed()[1]

    def options(self) -> dict:
        """The options actually passed: ``align_corners`` and ``antialias`` where the library and mode take
        them (JAX's default ``antialias=True`` is overridden too)."""
        return self._passed()[0]

    def replace(self, **changes) -> "ImageResize":
        fields_ = dict(mode=self.mode, scale=self.scale, size=self.size, align_corners=self.align_corners,
                       antialias=self.antialias, library=self.library)
        fields_.update(changes)
        if "size" in changes and changes["size"] is not None:
            fields_["scale"] = None
        if "scale" in changes and changes["scale"] is not None:
            fields_["size"] = None
        return ImageResize(**fields_)

    # ------------------------------------------------------------------ sizes
    def output_size(self, shape) -> tuple[int, int]:
        """The (H, W) of the output for an input of ``shape`` (H, W[, C]): ``floor(n * scale)`` or ``size``."""
        if self.size is not None:
            return self.size
        return tuple(scaled_length(n, self.scale) for n in shape[:2])

    def _size(self, shape) -> dict:
        """The size argument of :func:`explorer.library_resize`: the scale itself where the library's
        ``image_scale`` asks for it, else the explicit output size ``floor(n * scale)``, so every library's
        output has the same shape and compares pixel by pixel, as :func:`explorer.compare_conventions` does."""
        if self.scale is not None and self.rules.image_scale == "scale_factor":
            return {"scale_factor": (self.scale, self.scale)}
        return {"size": self.output_size(shape)}

    # ------------------------------------------------------------------ compute
    def forward(self, image: np.ndarray) -> np.ndarray:
        """The resized image, (h, w, C)."""
        y = library_resize(_planes(image), library=self.library, mode=self.mode, axes=(1, 2),
                           **self._size(image.shape), **self.options())
        return np.moveaxis(y, 0, 2)

    def backward(self, grad: np.ndarray, input_shape) -> np.ndarray:
        """The gradient with respect to the input of ``sum(forward(x) * grad)``, (H, W, C)."""
        return self._transposed(library_resize_backward, grad, input_shape)

    def transpose(self, grad: np.ndarray, input_shape) -> np.ndarray:
        """``W.T @ grad``, whether or not the library differentiates its resize (where each output's value
        came from); equal to :meth:`backward` where the library has a gradient."""
        return self._transposed(library_resize_transpose, grad, input_shape)

    def _transposed(self, function, grad, input_shape):
        h, w, c = (int(s) for s in input_shape)
        gx = function(_planes(grad), (c, h, w), library=self.library, mode=self.mode, axes=(1, 2),
                      **self._size((h, w)), **self.options())
        return np.moveaxis(gx, 0, 2)

    # ------------------------------------------------------------------ one axis
    def spec(self, dtype=np.float32):
        """The :class:`~explorer.Spec` of one resized axis (of a float image of ``dtype``)."""
        call = self.axis_call(8, 8, dtype)
        return call.library.call_spec(call)

    def axis_lengths(self, n: int, image_length: int | None = None) -> int:
        """The output length of a 1-D axis of ``n`` samples: ``floor(n * scale)``, or the image's size ratio."""
        if self.scale is not None:
            return scaled_length(n, self.scale)
        m = self.size[1] * n / (image_length or self.size[1])
        return max(1, int(round(m)))

    def axis_call(self, n: int, m: int, dtype=np.float64):
        """The library's call resizing the width of a float image of :data:`AXIS_ROWS` rows from ``n`` to ``m``
        samples (the rows keep their number): what :meth:`plan` and :meth:`spec` describe."""
        rules = self.rules
        native = rules.mode(self.mode)
        options = rules.resolve_options(native, self.options())
        shape = (AXIS_ROWS, n, 1)
        if self.scale is not None and m == scaled_length(n, self.scale) and rules.image_scale == "scale_factor":
            return prepare(rules, native, options, shape, dtype, scale_factor=(1.0, self.scale), axes=(0, 1))
        return prepare(rules, native, options, shape, dtype, size=(AXIS_ROWS, m), axes=(0, 1))

    def plan(self, n: int, m: int | None = None):
        """The :class:`~explorer.engine.plan.AxisPlan` of one axis of ``n`` samples (weights, coordinates)."""
        m = self.axis_lengths(n) if m is None else m
        _, plans = build_plans(self.axis_call(n, m))
        return plans[1][1]

    def call(self, variable: str = "x") -> str:
        """The PyTorch call for this resize (for other libraries see :mod:`explorer.advisor.snippets`)."""
        args = [variable]
        args += [f"size={self.size}" if self.size is not None else f"scale_factor={self.scale!r}"]
        args.append(f"mode={self.mode!r}")
        args += [f"{k}={v!r}" for k, v in self.options().items()]
        return "F.interpolate(" + ", ".join(args) + ")"


def _planes(image: np.ndarray) -> np.ndarray:
    """(H, W, C) as contiguous (C, H, W) planes: every library resizes the two trailing axes of each plane."""
    return np.ascontiguousarray(np.moveaxis(image, 2, 0))


def scaled_length(n: int, scale: float) -> int:
    """``floor(n * scale)``, or a ValueError naming the scale when the product is too large to be a length.

    >>> scaled_length(37, 1.7)
    62
    """
    m = n * scale
    if not math.isfinite(m):
        raise ArgumentValueError(f"scale={scale!r} makes an axis of length {n} infinitely long; choose a smaller "
                                 "scale")
    return int(m)


def check_scale(scale) -> float:
    """A positive finite scale factor, or a ValueError naming it (:func:`explorer.validate.image_scale`)."""
    return validate.image_scale(scale)


def check_size(size) -> tuple[int, int]:
    """An output size (H, W) of positive integers; an int means a square (:func:`explorer.validate.image_size`)."""
    return validate.image_size(size)

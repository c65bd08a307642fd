"""One resize of an (H, W, C) image under one library's convention: forward, backward and 1-D weights.

The explorer's views and :func:`explorer.pick` all go through :class:`ImageResize`, so what they show is what
the engine computes.  Under the PyTorch convention (``library="torch"``) it calls
:func:`explorer.interpolate` / :func:`explorer.interpolate_backward` on the image as a (1, C, H, W) array,
with every PyTorch rule (``scale_factor`` steps, output size ``floor(n * scale)``); other libraries go
through :func:`explorer.library_resize` at the same explicit output size.

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

from ..errors import choice_error
from . import library_resize, library_resize_backward, library_resize_transpose, preset
from .registry import library as library_rules

#: The resize modes of a 2-D image, in PyTorch's names (the nominal mode every library maps to its own).
MODES = ("nearest", "nearest-exact", "bilinear", "bicubic", "area", "lanczos")
ALIGN_CORNERS_MODES = ("bilinear", "bicubic")
ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")
ALWAYS_ANTIALIASED = ("lanczos",)


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
            raise ValueError("give exactly one of scale and size "
                             f"(got scale={self.scale!r}, size={self.size!r})")
        if self.scale is not None:
            object.__setattr__(self, "scale", check_scale(self.scale))
        if self.size is not None:
            object.__setattr__(self, "size", check_size(self.size))
        for name in ("align_corners", "antialias"):
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name}={value!r} is not valid; choose one of: False, True")
            object.__setattr__(self, name, bool(value))
        object.__setattr__(self, "notes", tuple(self._notes()))

    # ------------------------------------------------------------------ options
    def _notes(self):
        if self.library != "torch":
            names = _library_option_names(self.library)
            return [f"{self.library} has no {name} option; it is left out"
                    for name, value in (("align_corners", self.align_corners), ("antialias", self.antialias))
                    if value and name not in names]
        notes = []
        if self.align_corners and self.mode not in ALIGN_CORNERS_MODES:
            notes.append(f"align_corners does not apply to {self.mode}; it is left out")
        if self.antialias and self.mode not in ANTIALIAS_MODES:
            notes.append(f"antialias does not apply to {self.mode}; it is left out")
        if not self.antialias and self.mode in ALWAYS_ANTIALIASED:
            notes.append(f"{self.mode} is always antialiased in PyTorch; shown with antialias=True")
        return notes

    def options(self) -> dict:
        """The mode options actually passed: ``align_corners`` and ``antialias`` where the mode takes them."""
        if self.library != "torch":  # passed by name where the library has the option (JAX's default
            names = _library_option_names(self.library)  # antialias=True is overridden too)
            return {k: v for k, v in (("align_corners", self.align_corners), ("antialias", self.antialias))
                    if k in names}
        out = {}
        if self.mode in ALIGN_CORNERS_MODES:
            out["align_corners"] = self.align_corners
        if self.mode in ANTIALIAS_MODES:
            out["antialias"] = self.antialias or self.mode in ALWAYS_ANTIALIASED
        return out

    @property
    def effective_antialias(self) -> bool:
        return bool(self.options().get("antialias", False))

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
        return tuple(int(n * self.scale) for n in shape[:2])

    def _size_kwargs(self):
        if self.size is not None:
            return {"size": self.size}
        return {"scale_factor": self.scale}

    # ------------------------------------------------------------------ compute
    def forward(self, image: np.ndarray) -> np.ndarray:
        """The resized image, (h, w, C)."""
        if self.library == "torch":
            from .torch_api import interpolate

            x = np.ascontiguousarray(np.moveaxis(image, 2, 0))[None]
            y = interpolate(x, mode=self.mode, **self._size_kwargs(), **self.options())
            return np.moveaxis(y[0], 0, 2)
        return library_resize(image, library=self.library, mode=self.mode, axes=(0, 1),
                              **self._library_size(image.shape), **self.options())

    def backward(self, grad: np.ndarray, input_shape) -> np.ndarray:
        """The gradient with respect to the input of ``sum(forward(x) * grad)``, (H, W, C)."""
        input_shape = tuple(int(s) for s in input_shape)
        if self.library == "torch":
            from .torch_api import interpolate_backward

            g = np.ascontiguousarray(np.moveaxis(grad, 2, 0))[None]
            shape = (1, input_shape[2]) + input_shape[:2]
            gx = interpolate_backward(g, shape, mode=self.mode, **self._size_kwargs(), **self.options())
            return np.moveaxis(gx[0], 0, 2)
        return library_resize_backward(grad, input_shape, library=self.library, mode=self.mode, axes=(0, 1),
                                       **self._library_size(input_shape), **self.options())

    def transpose(self, grad: np.ndarray, input_shape) -> np.ndarray:
        """``W.T @ grad``, whether or not the library differentiates its resize (where each output's value
        came from); equal to :meth:`backward` where the library has a gradient."""
        if self.library == "torch":
            return self.backward(grad, input_shape)
        input_shape = tuple(int(s) for s in input_shape)
        return library_resize_transpose(grad, input_shape, library=self.library, mode=self.mode, axes=(0, 1),
                         **self._library_size(input_shape), **self.options())

    def _library_size(self, shape):
        """The size argument of :func:`explorer.library_resize`: always an explicit output size (a scale
        becomes ``floor(n * scale)``), so every library's output has the same shape and compares pixel by
        pixel, as :func:`explorer.compare_conventions` does."""
        return {"size": self.output_size(shape)}

    # ------------------------------------------------------------------ one axis
    def spec(self, dtype=np.float32):
        """The :class:`~explorer.Spec` of one resized axis."""
        if self.library == "torch":
            from .torch_api import torch_spec

            opts = self.options()
            return torch_spec(self.mode, opts.get("align_corners", False), opts.get("antialias", False), dtype)
        return preset(self.library, self.mode, **self.options())

    def axis_lengths(self, n: int, image_length: int | None = None) -> int:
        """The output length of a 1-D axis of ``n`` samples: ``floor(n * scale)``, or the image's size ratio."""
        if self.scale is not None:
            return int(n * self.scale)
        m = self.size[1] * n / (image_length or self.size[1])
        return max(1, int(round(m)))

    def plan(self, n: int, m: int | None = None):
        """The :class:`~explorer.engine.plan.AxisPlan` of one axis of ``n`` samples (weights, source coordinates)."""
        from ..engine.plan import axis_plan

        m = self.axis_lengths(n) if m is None else m
        scale = self.scale if (self.scale is not None and m == int(n * self.scale)) else None
        if self.library == "torch" and self.mode == "area":
            scale = None  # PyTorch area always recomputes the scale from the sizes
        return axis_plan(n, m, self.spec(np.float64), scale)

    def call(self, variable: str = "x") -> str:
        """The PyTorch call for this resize (for other libraries see :mod:`explorer.snippets`)."""
        args = [variable]
        args += [f"size={self.size}" if self.size is not None else f"scale_factor={self.scale!r}"]
        args.append(f"mode={self.mode!r}")
        args += [f"{k}={v!r}" for k, v in self.options().items()]
        return "F.interpolate(" + ", ".join(args) + ")"


def _library_option_names(library: str) -> set[str]:
    """The option names the presets know for ``library``."""
    return {o.name for o in library_rules(library).options}


def check_scale(scale) -> float:
    """A positive finite scale factor, or a ValueError naming it.

    >>> check_scale(0)
    Traceback (most recent call last):
    ...
    ValueError: scale=0 is not valid; give a positive finite number (output / input), e.g. 0.5 or 1.7
    """
    if isinstance(scale, (bool, np.bool_)) or not isinstance(scale, (int, float, np.integer, np.floating)):
        raise ValueError(f"scale={scale!r} is not valid; give a positive finite number (output / input), "
                         "e.g. 0.5 or 1.7")
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale={scale!r} is not valid; give a positive finite number (output / input), "
                         "e.g. 0.5 or 1.7")
    return float(scale)


def check_size(size) -> tuple[int, int]:
    """An output size (H, W) of positive integers (an int means a square), or a ValueError naming it.

    >>> check_size(16), check_size((20, 30))
    ((16, 16), (20, 30))
    """
    if isinstance(size, (int, np.integer)) and not isinstance(size, (bool, np.bool_)):
        size = (size, size)
    try:
        items = tuple(size)
    except TypeError:
        raise ValueError(f"size={size!r} is not valid; give (height, width) as two positive integers") from None
    if (len(items) != 2 or any(isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer))
                               for v in items) or any(v < 1 for v in items)):
        raise ValueError(f"size={size!r} is not valid; give (height, width) as two positive integers")
    return (int(items[0]), int(items[1]))

"""PyTorch 2.13 ``torch.nn.functional.interpolate``: the Spec table lives in :mod:`explorer.conventions.torch_api`.

>>> from explorer.conventions import preset
>>> preset("torch", "bicubic", antialias=True)
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True)
"""

from __future__ import annotations

from .torch_api import torch_spec
from .registry import Library, Option, register

ALIGN_CORNERS_MODES = ("linear", "bilinear", "bicubic", "trilinear")
ANTIALIAS_MODES = ("bilinear", "bicubic", "lanczos")


class PyTorch(Library):
    id = "torch"
    title = "PyTorch torch.nn.functional.interpolate"
    options = (
        Option("align_corners", None, (None, False, True)),
        Option("antialias", False, (False, True)),
        Option("recompute_scale_factor", None, (None, False, True),
               "with scale_factor: True steps by n/m instead of 1/scale_factor"),
    )
    gradient_modes = None  # every mode has a backward kernel on CPU

    def validate(self, mode, options):
        if mode not in ALIGN_CORNERS_MODES and options["align_corners"] is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
        if options["antialias"] and mode not in ANTIALIAS_MODES:
            raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and "
                             "requires a 4-D tensor as input")
        if mode == "lanczos":
            if options["align_corners"]:
                raise ValueError("Lanczos mode does not support align_corners=True")
            if not options["antialias"]:
                raise ValueError("Lanczos mode requires antialias=True")

    def spec(self, mode, options):
        return torch_spec(mode, bool(options["align_corners"]), options["antialias"])

    def rows(self):
        out = []
        for mode in self.modes:
            if mode == "lanczos":
                out.append((mode, {"antialias": True}, "Lanczos-3, antialiased (PIL LANCZOS)"))
                continue
            out.append((mode, {}, ""))
            if mode in ALIGN_CORNERS_MODES:
                out.append((mode, {"align_corners": True}, ""))
            if mode in ("bilinear", "bicubic"):
                out.append((mode, {"antialias": True}, ""))
                out.append((mode, {"antialias": True, "align_corners": True}, ""))
        return out

    def output_length(self, n, factor, options):
        return int(n * factor)


LIBRARY = register(PyTorch())

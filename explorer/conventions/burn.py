"""Burn (tracel-ai/burn, main at 2c06be3) ``interpolate`` as Spec rows, by backend.

Burn's ``InterpolateOptions`` default to ``align_corners=true``; kernels receive only the output size
(``burn-nn`` truncates ``n * scale_factor``), so they step by ``n/m``.  Nearest ignores ``align_corners``.
The backend decides the nearest arithmetic (exact integers on ``cubecl``, an exact double division on
``flex``, ``floor(o * (in/out))`` on ``ndarray``, ATen's on ``tch``), which modes run forward, and which
have a backward (read from source; Burn was not run).

>>> from explorer.conventions import preset
>>> preset("burn", "Bilinear").coordinate_transformation_mode
'align_corners'
>>> preset("burn", "Lanczos3", align_corners=False)
Spec(kernel='lanczos3', exclude_outside=True)
"""

from __future__ import annotations

from ..engine.spec import Spec
from ..errors import ArgumentValueError
from .registry import Library, Option, register

BACKENDS = ("flex", "ndarray", "cubecl", "tch")
_FORWARD = {  # modes each backend runs forward
    "flex": ("Nearest", "Bilinear", "Bicubic", "Lanczos3"),
    "ndarray": ("Nearest", "Bilinear", "Bicubic", "Lanczos3"),
    "cubecl": ("Nearest", "NearestExact", "Bilinear", "Bicubic", "Lanczos3"),
    "tch": ("Nearest", "Bilinear", "Bicubic"),
}
_BACKWARD = {
    "flex": ("Nearest", "Bilinear", "Bicubic"),
    "ndarray": ("Nearest",),
    "cubecl": ("Nearest", "NearestExact"),
    "tch": ("Nearest", "Bilinear", "Bicubic"),
}
_NEAREST_ARITHMETIC = {"flex": "exact", "cubecl": "exact", "ndarray": "float64", "tch": "float32_scale"}
_FILTERS = {
    "Bilinear": dict(kernel="linear"),
    "Bicubic": dict(kernel="cubic", cubic_coeff_a=-0.75),
    "Lanczos3": dict(kernel="lanczos3", exclude_outside=True),
}


def forward_backends(mode: str) -> tuple[str, ...]:
    """The Burn backends (of :data:`BACKENDS`) that run ``mode`` forward, in that order.

    >>> forward_backends("NearestExact"), forward_backends("Lanczos3")
    (('cubecl',), ('flex', 'ndarray', 'cubecl'))
    """
    return tuple(b for b in BACKENDS if mode in _FORWARD[b])


class Burn(Library):
    id = "burn"
    title = "Burn interpolate"
    options = (
        Option("align_corners", True, (True, False)),
        Option("backend", "flex", BACKENDS, "which Burn backend runs the op"),
    )
    unsupported = {"antialias": "Burn has no antialias option", "mode": "give the mode as the mode"}
    nearest_keeps_dtype = False  # interpolate takes float tensors only

    def validate(self, mode, options):
        backend = options["backend"]
        if mode not in _FORWARD[backend]:
            raise ArgumentValueError(f"Burn's {backend} backend has no {mode} forward (it panics); backends that run it: "
                             f"{', '.join(forward_backends(mode))}")

    def spec(self, mode, options):
        arithmetic = _NEAREST_ARITHMETIC[options["backend"]]
        if mode == "Nearest":
            return Spec(kernel="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor",
                        index_arithmetic=arithmetic)
        if mode == "NearestExact":
            return Spec(kernel="nearest", coordinate_transformation_mode="tf_half_pixel_for_nn",
                        nearest_mode="floor", index_arithmetic=arithmetic)
        transform = "align_corners" if options["align_corners"] else "half_pixel"
        return Spec(**_FILTERS[mode], coordinate_transformation_mode=transform)

    def rows(self):
        out = []
        for mode in self.modes:
            if mode == "NearestExact":
                out.append((mode, {"backend": "cubecl"}, "cubecl backends only"))
            elif mode == "Nearest":
                out.append((mode, {}, "align_corners is ignored"))
            else:
                out.append((mode, {}, "align_corners=True (the Burn default)"))
                out.append((mode, {"align_corners": False}, ""))
        return out

    def output_length(self, n, factor, options):
        return int(n * float(factor))  # burn-nn: (n as f64 * scale) as usize

    def gradient_error(self, mode, options, dtype=None):
        backend = options["backend"]
        if mode in _BACKWARD[backend]:
            return None
        has = [b for b in BACKENDS if mode in _BACKWARD[b]]
        return (f"Burn's {backend} backend has no interpolate_backward for {mode} (it panics at .backward())"
                + (f"; backends with one: {', '.join(has)}" if has else "; no Burn backend has one"))


LIBRARY = register(Burn())

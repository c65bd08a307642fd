"""torchvision 0.28 ``transforms.Resize`` / ``functional.resize`` (v1 and v2) on tensors and on PIL images.

Read in torchvision 0.28.0 (``torchvision/transforms/functional.py``, ``_functional_tensor.py``,
``v2/functional/_geometry.py``) and run with torch 2.13.0 on the CPU:

* a **tensor** is resized by ``F.interpolate(img, size, mode=interpolation.value, align_corners=False,
  antialias=antialias)`` (the PyTorch library's rows, ``antialias`` defaulting to True since 0.17 and applied to
  bilinear and bicubic only; v2 also takes ``lanczos``, which requires it);
* **uint8 tensors**: v1 (``_functional_tensor.resize``) computes in float32, clamps bicubic to [0, 255], rounds
  half to even and casts back; v2 (``resize_image``) passes uint8 straight to ``F.interpolate`` for bilinear
  (on an AVX2/AVX512 or arm64 CPU), bicubic and lanczos: PyTorch's own int16 fixed-point kernels;
* a **PIL image** is resized by Pillow, ``image.resize((w, h), resample=pil_modes_mapping[interpolation])``
  (``NEAREST`` and ``NEAREST_EXACT`` both become Pillow's NEAREST: half-pixel, not PyTorch's floor) with
  antialiasing always on; the array stands for ``np.asarray(image)``, (H, W[, bands]);
* an output size equal to the input's returns the input unchanged (both versions, every mode).

Sizes are given as ``(h, w)``; torchvision's single ``int`` size (the smaller edge) and ``max_size`` are
rules about lengths, not weights: compute the ``(h, w)`` they give and pass it.

>>> from explorer.conventions import preset
>>> preset("torchvision", "bicubic")
Spec(kernel='cubic', cubic_coeff_a=-0.5, exclude_outside=True, antialias=True, index_arithmetic='torch')
>>> preset("torchvision", "nearest", input="pil").coordinate_transformation_mode
'tf_half_pixel_for_nn'
"""

from __future__ import annotations

import platform

import numpy as np

from ...engine.execute import execute
from ...engine.spec import Spec
from ...errors import ArgumentTypeError, ArgumentValueError
from ..declarations import Api, Backend, Computation, Runtime
from ..library_resize import float32_plans
from ..registry import Closest, Library, Option, Request, library, register
from .pytorch import interpolate_options

_MODES = {"nearest": "nearest", "nearest-exact": "nearest-exact", "bilinear": "linear", "bicubic": "cubic",
          "box": "box", "hamming": "hamming", "lanczos": "lanczos3"}
_TENSOR_MODES = {1: ("nearest", "nearest-exact", "bilinear", "bicubic"),
                 2: ("nearest", "nearest-exact", "bilinear", "bicubic", "lanczos")}
_AA = ("bilinear", "bicubic", "lanczos")
_PIL = {"nearest": "NEAREST", "nearest-exact": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC",
        "box": "BOX", "hamming": "HAMMING", "lanczos": "LANCZOS"}
_DEFAULTS = {"mode": "bilinear", "align_corners": None, "antialias": True}
_CONSTANTS = {"NEAREST": "nearest", "NEAREST_EXACT": "nearest-exact", "BILINEAR": "bilinear", "BICUBIC": "bicubic",
              "BOX": "box", "HAMMING": "hamming", "LANCZOS": "lanczos"}


def native_uint8_bilinear() -> bool:
    """Whether v2 passes uint8 bilinear to PyTorch's uint8 kernel on this machine (``_do_native_uint8_resize_on_cpu``:
    an AVX2/AVX512 x86 CPU or arm64; the explorer assumes an x86-64 CPU has AVX2)."""
    return platform.machine().lower() in ("x86_64", "amd64", "aarch64", "arm64")


class Torchvision(Library):
    id = "torchvision"
    title = "torchvision transforms.Resize"
    aliases = ("tv", "torchvision.transforms")
    order = 5
    mode_names = dict(_MODES)
    mode_aliases = {"nearestexact": "nearest-exact", "linear": "bilinear", "cubic": "bicubic",
                    "lanczos3": "lanczos"}
    options = (
        Option("input", "tensor", ("tensor", "pil"), "what is resized: a tensor (F.interpolate) or a PIL image "
                                                    "(Pillow)"),
        Option("version", 2, (1, 2), "torchvision.transforms (1) or torchvision.transforms.v2 (2)"),
        Option("antialias", True, (False, True), "tensors, bilinear / bicubic / lanczos (PIL images always)"),
    )
    unsupported = {"max_size": "compute the (h, w) it gives and pass it as the size",
                   "interpolation": "give the interpolation as the mode"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {"area": Closest("bilinear", {"antialias": True},
                               "torchvision's resize has no area mode: bilinear with antialias (its default) is shown")}
    toggle_options = {"antialias": {True: {"antialias": True}, False: {"antialias": False}}}
    toggle_notes = {("align_corners", True): "torchvision's resize has no align_corners (it passes False); left out"}
    shown = {"antialias": ("linear", "cubic", "lanczos3")}

    # the library's API, as the linter reads calls of it
    apis = (
        Api("torchvision.transforms.functional.resize", ("img", "size", "interpolation", "max_size", "antialias"),
            mode_param="interpolation", defaults=_DEFAULTS, runs="input", codes="pillow",
            antialias_modes=_AA[:2], rank=2, input="img",
            aliases=("torchvision.transforms.v2.functional.resize",)),
        Api("torchvision.transforms.functional.resized_crop",
            ("img", "top", "left", "height", "width", "size", "interpolation", "antialias"),
            mode_param="interpolation", defaults=_DEFAULTS, runs="input", codes="pillow",
            antialias_modes=_AA[:2], rank=2, input="img",
            aliases=("torchvision.transforms.v2.functional.resized_crop",)),
        Api("torchvision.transforms.Resize", ("size", "interpolation", "max_size", "antialias"),
            mode_param="interpolation", defaults=_DEFAULTS, runs="input", codes="pillow",
            antialias_modes=_AA[:2], rank=2,
            aliases=("torchvision.transforms.v2.Resize", "torchvision.transforms.transforms.Resize")),
        Api("torchvision.transforms.RandomResizedCrop", ("size", "scale", "ratio", "interpolation", "antialias"),
            mode_param="interpolation", defaults=_DEFAULTS, runs="input", codes="pillow",
            antialias_modes=_AA[:2], rank=2, aliases=("torchvision.transforms.v2.RandomResizedCrop",)),
    )
    constants = {ns: ("torchvision", _CONSTANTS) for ns in (
        "torchvision.transforms.InterpolationMode", "torchvision.transforms.functional.InterpolationMode",
        "torchvision.transforms.v2.InterpolationMode", "torchvision.transforms.v2.functional.InterpolationMode")}
    gradient_modes = None

    def code(self, mode, options, h, w):
        module = "torchvision.transforms.v2" if options.get("version", 2) == 2 else "torchvision.transforms"
        aa = ", antialias=False" if options.get("antialias") is False and mode in _AA else ""
        target = "pil_image" if options.get("input") == "pil" else "x  # (..., C, H, W)"
        return "python", (f"y = {module}.functional.resize({target.split()[0]}, [{h}, {w}], "
                          f"interpolation=InterpolationMode.{mode.upper().replace('-', '_')}{aa})"
                          + ("  # x: (..., C, H, W)" if options.get("input") != "pil" else ""))

    # ---------------------------------------------------------------- options
    def validate(self, mode, options):
        if options["input"] == "tensor" and mode not in _TENSOR_MODES[options["version"]]:
            raise ArgumentValueError(
                f"torchvision {'v2 ' if options['version'] == 2 else ''}resizes tensors with "
                f"{', '.join(_TENSOR_MODES[options['version']])}; {mode} exists for PIL images only (input='pil')")
        if options["input"] == "tensor" and mode == "lanczos" and not options["antialias"]:
            raise ArgumentValueError("InterpolationMode.LANCZOS requires antialias=True")

    def backend_call(self, mode: str, options: dict) -> tuple[Library, str, dict]:
        """(the library that computes, its mode, its options): PyTorch for tensors, Pillow for PIL images."""
        if options["input"] == "pil":
            lib = library("pillow")
            return lib, _PIL[mode], lib.resolve_options(_PIL[mode], {})
        lib = library("torch")
        opts = interpolate_options(mode, False, options["antialias"] and mode in _AA)
        return lib, mode, lib.resolve_options(mode, opts)

    def spec(self, mode, options):
        lib, native, opts = self.backend_call(mode, options)
        return lib.spec(native, opts)

    def rows(self):
        out = []
        for mode in _TENSOR_MODES[2]:
            out.append((mode, {}, "a float tensor (antialias=True, the default since 0.17)" if mode in _AA else ""))
            if mode in ("bilinear", "bicubic"):
                out.append((mode, {"antialias": False}, ""))
        for mode in _PIL:
            if mode != "nearest-exact":
                out.append((mode, {"input": "pil"}, "a PIL image: Pillow's filter"))
        return out

    # ---------------------------------------------------------------- sizes
    def resized_axes(self, ndim):
        return (ndim - 2, ndim - 1) if ndim >= 2 else None

    def _inner(self, call: Request) -> Request:
        lib, native, opts = self.backend_call(call.mode, call.options)
        shape, axes = call.shape, call.axes
        if lib.id == "torch":  # img.reshape(-1, C, H, W)
            spatial = tuple(call.shape[a] for a in call.axes)
            channels = call.shape[call.axes[0] - 1] if call.axes[0] >= 1 else 1
            batch = int(np.prod(call.shape)) // (int(np.prod(spatial)) * channels)
            shape, axes = (batch, channels, *spatial), tuple(range(2, 2 + len(spatial)))
        return Request(lib, native, opts, shape, self._compute_dtype(call), axes, call.lengths, call.factors,
                       call.direction, size_given=True)

    def _native_uint8(self, call: Request) -> bool:
        """Whether the tensor's integers go to PyTorch's uint8 kernel as they are (v2's native path)."""
        if call.dtype != np.uint8 or call.options["version"] != 2:
            return False
        return call.mode in ("bicubic", "lanczos") or (call.mode == "bilinear" and native_uint8_bilinear())

    def _compute_dtype(self, call: Request) -> np.dtype:
        if call.options["input"] == "pil" or call.dtype.kind == "f" or self._native_uint8(call):
            return call.dtype
        return np.dtype(np.float32)  # _cast_squeeze_in / need_cast

    def validate_call(self, call):
        if len(call.axes) != 2:
            raise ArgumentValueError(f"torchvision resizes the two trailing axes (H, W), got axes {call.axes}")
        if self._identity(call):
            return
        inner = self._inner(call)
        if call.options["input"] == "pil" and call.dtype.kind not in "uf":
            raise ArgumentTypeError(f"a PIL image holds uint8, uint16 or float32 values, not {call.dtype}")
        inner.library.validate_call(inner)

    def _identity(self, call: Request) -> bool:
        return all(n == m for n, m in call.lengths)

    def call_spec(self, call):
        inner = self._inner(call)
        return inner.library.call_spec(inner)

    def kernel_scales(self, call):
        return [None] * len(call.lengths)

    def axis_specs(self, call, spec, scales):
        if self._identity(call):  # `if (new_height, new_width) == (old_height, old_width): return image`
            return [Spec("nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")] * 2
        inner = self._inner(call)
        return inner.library.axis_specs(inner, spec, scales)

    def adjust_plans(self, call, plans):
        if self._identity(call):
            return plans
        inner = self._inner(call)
        return inner.library.adjust_plans(inner, plans)

    def pass_order(self, call):
        if call.options["input"] == "pil" and not self._identity(call):
            return self._inner(call).library.pass_order(self._inner(call))
        return None

    def resize_integer(self, call, x, plans, specs):
        """v2's native uint8 kernels are PyTorch's; otherwise float32, bicubic/lanczos clamped, rounded half to
        even, cast back (``_cast_squeeze_out``); PIL images are Pillow's."""
        inner = self._inner(call)
        if call.options["input"] == "pil" or self._native_uint8(call):
            return inner.library.resize_integer(inner, x, plans, specs)
        if x.dtype.kind not in "iu":
            raise ArgumentTypeError(f"torchvision resizes float and integer tensors, not {x.dtype}")
        y = execute(x.astype(np.float32), float32_plans(call))
        if call.mode in ("bicubic", "lanczos") and x.dtype == np.uint8:
            y = np.clip(y, 0, 255)
        info = np.iinfo(x.dtype)
        return np.clip(np.rint(y), info.min, info.max).astype(x.dtype)

    def gradient_error(self, mode, options, dtype=None):
        if options["input"] == "pil":
            return "a PIL image has no gradient (torchvision resizes it with Pillow)"
        lib, native, opts = self.backend_call(mode, options)
        return lib.gradient_error(native, opts, dtype)


LIBRARY = register(Torchvision())


# ------------------------------------------------------------------------------------------------ the runtime
def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    if q.mode not in _TENSOR_MODES[2]:  # box and hamming exist for PIL images: what torchvision computes there
        return Computation("torchvision", q.mode, {"input": "pil"})
    return Computation("torchvision", q.mode, {"antialias": bool(q.antialias) or q.mode == "lanczos"})


def _writes(q, h, w, size, scale_factor):
    aa = "" if q.antialias or q.mode not in _AA else ", antialias=False"
    return "python", (f"y = torchvision.transforms.v2.functional.resize(x, [{h}, {w}], "
                      f"interpolation=InterpolationMode.{q.mode.upper().replace('-', '_')}{aa})")


RUNTIME = register(Runtime(
    id="torchvision", title="torchvision", order=15,
    backends=(Backend("torchvision", "torchvision.transforms(.v2) Resize / functional.resize on tensors",
                      ("cpu", "cuda", "mps"), "python", spelling="torchvision", computes=_computes,
                      writes=_writes),),
    version_markers=("torchvision==",)))

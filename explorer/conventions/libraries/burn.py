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

from ...engine.spec import Spec
from ...errors import ArgumentValueError
from ...versions import parse_version
from ..declarations import Backend, Computation, Runtime
from ..registry import Closest, Library, Option, register

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
    order = 60
    mode_names = {"Nearest": "nearest", "NearestExact": "nearest-exact", "Bilinear": "linear", "Bicubic": "cubic",
                  "Lanczos3": "lanczos3"}

    # ported from PyTorch (explorer.conventions.native_call)
    closest = {
        "area": Closest(
            "adaptive_avg_pool2d", {},
            "Burn's interpolate has no area mode: burn::tensor::module::adaptive_avg_pool2d averages PyTorch's "
            "bins, floor(i·n/m) to ceil((i+1)·n/m) (tracel-ai/burn crates/burn-ndarray/src/ops/adaptive_avgpool.rs "
            "@ 01832cc2d6a9c13d5a6a3d17b83921683030c1db); shown with PyTorch's area",
            runs=("torch", "area", {})),
        "nearest-exact": Closest(
            "NearestExact", {"backend": "cubecl"},
            "Burn's default backend (flex) has no NearestExact forward: it panics; shown as the cubecl backends "
            "(wgpu, cuda, rocm, cpu) compute it"),
    }
    toggle_options = {"align_corners": {True: {"align_corners": True}, False: {"align_corners": False}}}
    toggle_notes = {("antialias", True): "Burn's interpolate has no antialias; left out"}
    shown = {"align_corners": ("linear", "cubic", "lanczos3")}
    options = (
        Option("align_corners", True, (True, False)),
        Option("backend", "flex", BACKENDS, "which Burn backend runs the op"),
    )
    unsupported = {"antialias": "Burn has no antialias option", "mode": "give the mode as the mode"}
    nearest_keeps_dtype = False  # interpolate takes float tensors only


    def code(self, mode, options, h, w):
        if mode == "adaptive_avg_pool2d":
            return "rust", ("use burn::tensor::module::adaptive_avg_pool2d;\n"
                            f"let y = adaptive_avg_pool2d(x, [{h}, {w}]);")
        build = f"InterpolateOptions::new(InterpolateMode::{mode})"
        if "align_corners" in options:
            build += f".with_align_corners({'true' if options['align_corners'] else 'false'})"
        lines = ["use burn::tensor::module::interpolate;",
                 "use burn::tensor::ops::{InterpolateMode, InterpolateOptions};",
                 f"let y = interpolate(x, [{h}, {w}], {build});"]
        if options.get("backend") == "cubecl":
            lines.insert(0, "// on a cubecl backend: Wgpu, Cuda, Rocm or Cpu (the others panic on this mode)")
        return "rust", "\n".join(lines)

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


# ------------------------------------------------------------------------------------------------ the runtime
_INTERPOLATING = ("Bilinear", "Bicubic", "Lanczos3")


def _computes(q, spatial=None, out=None, intended=True) -> Computation:
    """The preset a Burn backend runs: its arithmetic (``backend`` option), and with ``intended=False`` the
    known silent bug of its release (v0.22.0-pre.1's NearestExact -> Nearest under fusion); with
    ``intended=True`` a mode the backend lacks is computed as a backend that has it runs it."""
    backend = _ARITHMETIC[q.backend.id]
    mode = q.mode
    if not intended and mode == "NearestExact" and q.version == "0.22.0-pre.1" and backend == "cubecl":
        mode = "Nearest"  # the fusion IR's NearestExact -> Nearest (fixed in 0.22.0-pre.2)
    runs = forward_backends(mode)
    if intended and backend not in runs and runs:
        backend = runs[0]  # what the mode means in Burn, on a backend that has it
    options = {"backend": backend}
    if mode not in ("Nearest", "NearestExact"):  # nearest ignores align_corners
        options["align_corners"] = _align_corners(q)
    return Computation("burn", mode, options)


def _align_corners(q) -> bool:
    if q.version is not None and parse_version(q.version) < parse_version("0.21.0-pre.2"):
        return True  # hard-coded before the option existed
    return True if q.align_corners is None else bool(q.align_corners)


def _writes(q, h, w, size, scale_factor):
    has_option = q.version is None or parse_version(q.version) >= parse_version("0.21.0-pre.2")
    options = f"InterpolateOptions::new(InterpolateMode::{q.mode})"
    if q.mode in _INTERPOLATING and q.align_corners is False and has_option:
        options += ".with_align_corners(false)"
    lines = ["use burn::tensor::module::interpolate;",
             "use burn::tensor::ops::{InterpolateMode, InterpolateOptions};",
             f"let options = {options};", f"let y = interpolate(x, [{h}, {w}], options);"]
    return "rust", "\n".join(lines)


# backend id -> the arithmetic (the preset's ``backend`` option) it computes with; burn-candle runs candle's
# upsample_nearest2d, which floors o * (in/out) in f64 as burn-ndarray does
_ARITHMETIC = {"burn-flex": "flex", "burn-ndarray": "ndarray", "burn-tch": "tch", "burn-wgpu": "cubecl",
               "burn-cuda": "cubecl", "burn-rocm": "cubecl", "burn-cpu": "cubecl", "burn-candle": "ndarray"}


def _backend(bid, description, devices, rust_type, feature, **more) -> Backend:
    return Backend(bid, description, devices, "rust", rust_type=rust_type, cargo_feature=feature, spelling="burn",
                   computes=_computes, writes=_writes, **more)


RUNTIME = register(Runtime(
    id="burn", title="Burn", order=0, importer="burn",
    backends=(
        _backend("burn-ndarray", "Burn's pure-Rust CPU backend (burn-ndarray)", ("cpu",), "NdArray", "ndarray"),
        _backend("burn-tch", "Burn on LibTorch through tch-rs (burn-tch)", ("cpu", "cuda", "mps"), "LibTorch", "tch",
                 aliases=("burn-libtorch", "burn-torch")),
        _backend("burn-flex", "Burn's default CPU backend since v0.21.0-pre.4 (burn-flex)", ("cpu",), "Flex", "flex",
                 available=">=0.21.0-pre.4"),
        _backend("burn-wgpu", "Burn's cubecl backend on wgpu (Vulkan, Metal, WebGPU)", ("gpu",), "Wgpu", "wgpu",
                 aliases=("burn-cubecl", "burn-jit", "burn-vulkan", "burn-metal", "burn-webgpu")),
        _backend("burn-cuda", "Burn's cubecl backend on CUDA", ("cuda",), "Cuda", "cuda"),
        _backend("burn-rocm", "Burn's cubecl backend on ROCm", ("rocm",), "Rocm", "rocm"),
        _backend("burn-cpu", "Burn's cubecl backend on the CPU runtime", ("cpu",), "Cpu", "cpu"),
        _backend("burn-candle", "Burn on huggingface candle (deprecated in 0.21, removed after 0.22.0-pre.2)",
                 ("cpu", "cuda", "metal"), "Candle", "candle", available="<=0.22.0-pre.2"),
    ),
    words=("burn", "ndarray", "tch", "cubecl", "cubek", "wgpu"),
    version_markers=("burn-ndarray-", "burn-tch-", "burn-cubecl-", "burn-core-", "burn-wgpu-")))

"""Code to paste: the resize call a setup describes, in its framework's language.

>>> from explorer.advisor.target import Setup
>>> print(resize_code(Setup.of(mode="nearest", backend="burn-tch"), (64, 64))[1])
use burn::tensor::module::interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions};
let options = InterpolateOptions::new(InterpolateMode::Nearest);
let y = interpolate(x, [64, 64], options);
>>> print(resize_code(Setup.of(mode="bilinear", backend="burn-wgpu", align_corners=False), None)[1].splitlines()[2])
let options = InterpolateOptions::new(InterpolateMode::Bilinear).with_align_corners(false);
"""

from __future__ import annotations

from .target import Setup
from .versions import parse_version

_INTERPOLATING_BURN = ("Bilinear", "Bicubic", "Lanczos3")
_ONNX_NEAREST = {
    "nearest": ("asymmetric", "floor"),
    "nearest-exact": ("half_pixel", "round_prefer_ceil"),
}
_OPENCV = {"INTER_NEAREST", "INTER_NEAREST_EXACT", "INTER_LINEAR", "INTER_LINEAR_EXACT", "INTER_CUBIC",
           "INTER_AREA", "INTER_LANCZOS4"}
CARGO_FEATURE = {"burn-ndarray": "ndarray", "burn-tch": "tch", "burn-flex": "flex", "burn-wgpu": "wgpu",
                 "burn-cuda": "cuda", "burn-rocm": "rocm", "burn-cpu": "cpu", "burn-candle": "candle"}


def _size(size, names=("h_out", "w_out")):
    if size is None:
        return names
    return tuple(str(int(s)) for s in size[-2:])


def resize_code(setup: Setup, size=None, scale_factor=None) -> tuple[str, str]:
    """``(language, code)`` for the resize call of ``setup`` (output ``size`` or ``scale_factor``)."""
    b = setup.backend
    h, w = _size(size)
    if b.library == "burn":
        return "rust", _burn(setup, h, w)
    if b.id == "candle":
        if setup.family == "linear":
            ac = "true" if setup.align_corners else "false"
            return "rust", f"let y = x.upsample_bilinear2d({h}, {w}, {ac})?;"
        return "rust", f"let y = x.upsample_nearest2d({h}, {w})?;"
    if b.library == "torch":
        return "python", _torch(setup, size, scale_factor)
    if b.library == "tensorflow":
        aa = ", antialias=True" if setup.antialias else ""
        return "python", f'y = tf.image.resize(x_nhwc, ({h}, {w}), method="{setup.mode}"{aa})'
    if b.library == "keras":
        return "python", (f'y = keras.ops.image.resize(x, ({h}, {w}), interpolation="{setup.mode}", '
                          f"antialias={setup.antialias})")
    if b.library == "jax":
        return "python", (f'y = jax.image.resize(x, (n, c, {h}, {w}), method="{setup.mode}", '
                          f"antialias={setup.antialias})")
    if b.library == "opencv":
        return "python", f"y = cv2.resize(img, ({w}, {h}), interpolation=cv2.{setup.mode})"
    if b.library == "pillow":
        return "python", f"y = img.resize(({w}, {h}), resample=Image.Resampling.{setup.mode})"
    if b.library == "mlx":
        ac = bool(setup.align_corners)
        factor = scale_factor if scale_factor is not None else "scale_factor"
        return "python", (f'y = mlx.nn.Upsample(scale_factor={factor}, mode="{setup.mode}", align_corners={ac}, '
                          f"antialias={setup.antialias})(x_nhwc)")
    if b.library == "coreml":
        return "python", "# Core ML: convert the source model with coremltools; choose the source op as above"
    return "onnx", onnx_resize(setup.family, setup.align_corners, setup.antialias)


def onnx_resize(family: str, align_corners=None, antialias=False) -> str:
    """ONNX ``Resize`` attributes for a PyTorch-convention mode family.

    >>> onnx_resize("nearest-exact")
    'Resize(mode="nearest", coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil")'
    """
    if family in _ONNX_NEAREST:
        transform, rounding = _ONNX_NEAREST[family]
        return f'Resize(mode="nearest", coordinate_transformation_mode="{transform}", nearest_mode="{rounding}")'
    mode = {"linear": "linear", "cubic": "cubic"}.get(family, family)
    transform = "align_corners" if align_corners else "half_pixel"
    attrs = [f'mode="{mode}"', f'coordinate_transformation_mode="{transform}"']
    if mode == "cubic":
        attrs.append(f"cubic_coeff_a={-0.5 if antialias else -0.75}")
    if antialias:
        attrs += ["antialias=1", "exclude_outside=1"]
    return "Resize(" + ", ".join(attrs) + ")"


def _burn(setup: Setup, h, w) -> str:
    has_option = setup.version is None or parse_version(setup.version) >= parse_version("0.21.0-pre.2")
    options = f"InterpolateOptions::new(InterpolateMode::{setup.mode})"
    if setup.mode in _INTERPOLATING_BURN and setup.align_corners is False and has_option:
        options += ".with_align_corners(false)"
    lines = ["use burn::tensor::module::interpolate;",
             "use burn::tensor::ops::{InterpolateMode, InterpolateOptions};"]
    lines += [f"let options = {options};", f"let y = interpolate(x, [{h}, {w}], options);"]
    return "\n".join(lines)


def burn_backend_code(setup: Setup) -> str:
    """The backend type alias for a Burn backend, with autodiff when training."""
    t = setup.backend.rust_type
    if setup.training:
        return f"use burn::backend::{{Autodiff, {t}}};\ntype MyBackend = Autodiff<{t}>;"
    return f"use burn::backend::{t};\ntype MyBackend = {t};"


def _torch(setup: Setup, size, scale_factor) -> str:
    args = [f"size=({', '.join(str(int(s)) for s in size)})" if size is not None else
            (f"scale_factor={scale_factor}" if scale_factor is not None else "size=(h_out, w_out)"),
            f'mode="{setup.mode}"']
    if setup.align_corners is not None and setup.family in ("linear", "cubic"):
        args.append(f"align_corners={setup.align_corners}")
    if setup.antialias or setup.mode == "lanczos":
        args.append("antialias=True")
    x = "x.cpu()" if setup.device == "cpu" else "x"
    code = f"y = F.interpolate({x}, " + ", ".join(args) + ")"
    if setup.device == "cpu":
        code += ".to(x.device)"
    return code


# ------------------------------------------------------------------------------------------------ a library's call
_TF1_METHODS = {"bilinear": "BILINEAR", "nearest": "NEAREST_NEIGHBOR", "bicubic": "BICUBIC", "area": "AREA"}
_RUST = {True: "true", False: "false"}


def _kwargs(options, rename=None) -> str:
    rename = rename or {}
    return "".join(f", {rename.get(k, k)}={v!r}" for k, v in options.items())


def _torch_call(mode, options, h, w):
    return "python", f'y = F.interpolate(x, size=({h}, {w}), mode="{mode}"{_kwargs(options)})  # x: (N, C, H, W)'


def _tensorflow_call(mode, options, h, w):
    if options.get("version") == 1:
        rest = {k: v for k, v in options.items() if k != "version"}
        return "python", (f"y = tf.compat.v1.image.resize(x_nhwc, ({h}, {w}), "
                          f"method=tf.compat.v1.image.ResizeMethod.{_TF1_METHODS[mode]}{_kwargs(rest)})")
    return "python", f'y = tf.image.resize(x_nhwc, ({h}, {w}), method="{mode}"{_kwargs(options)})'


def _jax_call(mode, options, h, w):
    return "python", (f'y = jax.image.resize(x_nhwc, (n, {h}, {w}, c), method="{mode}"{_kwargs(options)})'
                      "  # the shape covers every axis")


def _onnx_call(mode, options, h, w):
    if mode == "adaptive_avg_pool2d":
        return "python", ("torch.onnx.export(model, (x,), \"model.onnx\", dynamo=True)\n"
                          "# F.interpolate(mode=\"area\") has no Resize node: it is exported as adaptive_avg_pool2d "
                          "decomposed into Gather/Where/Div nodes")
    attrs = "".join(f", {k}={v!r}" for k, v in options.items())
    return "python", (f'node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], mode="{mode}"{attrs})\n'
                      f"# sizes: an int64 initializer [n, c, {h}, {w}]")


def _opencv_call(mode, options, h, w):
    return "python", f"y = cv2.resize(img, ({w}, {h}), interpolation=cv2.{mode})  # dsize is (width, height)"


def _pillow_call(mode, options, h, w):
    return "python", f"y = img.resize(({w}, {h}), resample=Image.Resampling.{mode})  # size is (width, height)"


def _burn_call(mode, options, h, w):
    if mode == "adaptive_avg_pool2d":
        return "rust", ("use burn::tensor::module::adaptive_avg_pool2d;\n"
                        f"let y = adaptive_avg_pool2d(x, [{h}, {w}]);")
    build = f"InterpolateOptions::new(InterpolateMode::{mode})"
    if "align_corners" in options:
        build += f".with_align_corners({_RUST[bool(options['align_corners'])]})"
    lines = ["use burn::tensor::module::interpolate;",
             "use burn::tensor::ops::{InterpolateMode, InterpolateOptions};",
             f"let y = interpolate(x, [{h}, {w}], {build});"]
    if options.get("backend") == "cubecl":
        lines.insert(0, "// on a cubecl backend: Wgpu, Cuda, Rocm or Cpu (the others panic on this mode)")
    return "rust", "\n".join(lines)


#: library -> the writer of its resize call in its own API.
LIBRARY_CALLS = {"torch": _torch_call, "tensorflow": _tensorflow_call, "jax": _jax_call, "onnx": _onnx_call,
                 "opencv": _opencv_call, "pillow": _pillow_call, "burn": _burn_call}


def library_code(library: str, mode: str, options: dict, size) -> tuple[str, str]:
    """``(language, code)``: ``library``'s own resize call with its ``mode`` and ``options`` (its own names,
    as :func:`explorer.conventions.native_call.native_call` gives them), to output ``size`` (H, W).

    >>> library_code("jax", "linear", {"antialias": True}, (64, 48))[1].split("  #")[0]
    'y = jax.image.resize(x_nhwc, (n, 64, 48, c), method="linear", antialias=True)'
    >>> library_code("tensorflow", "bilinear", {"version": 1, "align_corners": True}, (64, 48))[1]
    'y = tf.compat.v1.image.resize(x_nhwc, (64, 48), method=tf.compat.v1.image.ResizeMethod.BILINEAR, align_corners=True)'
    """
    h, w = _size(size)
    return LIBRARY_CALLS[library](mode, dict(options), h, w)

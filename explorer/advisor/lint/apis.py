"""The Python resize functions the linter knows, their parameters and defaults, and the library constants.

Everything here is data: adding a function is adding a row.  A row names the public function (as Python
resolves it after imports: ``F.interpolate`` with ``import torch.nn.functional as F`` is
``torch.nn.functional.interpolate``), the library whose rules judge it, its positional parameters, the defaults
of the arguments the judgement needs, and what the function itself fixes.

>>> API["torch.nn.UpsamplingBilinear2d"].fixed
{'mode': 'bilinear', 'align_corners': True}
>>> lookup("torch.nn.modules.upsampling.Upsample").name
'torch.nn.Upsample'
>>> constant("PIL.Image.Resampling.LANCZOS"), constant("cv2.INTER_AREA"), constant("numpy.pi")
(('pillow', 'LANCZOS'), ('opencv', 'INTER_AREA'), None)
>>> code_mode("pillow", 3), code_mode("opencv", 3)
('BICUBIC', 'INTER_AREA')
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Api:
    """One resize function or class.

    ``params``: positional parameters in order (``self`` left out; for methods the receiver is not a parameter).
    ``mode_param``: the parameter that names the mode; ``defaults``: values of mode / align_corners / antialias
    when the argument is absent; ``fixed``: values the function implies whatever the call says.
    ``runs``: ``model`` | ``host`` | ``input`` (see :class:`~explorer.advisor.lint.sites.Site`).
    ``codes``: which integer codes the mode argument accepts (``pillow`` or ``opencv``).
    ``antialias_modes``: modes the antialias argument applies to (None: all).  ``rank``: spatial dims it
    implies; ``size_params``: parameters whose length gives the rank.  ``input``: the parameter holding the
    data (for ``runs="input"``).
    """

    name: str
    library: str
    params: tuple
    mode_param: str | None = "mode"
    defaults: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    runs: str = "model"
    codes: str | None = None
    antialias_modes: tuple | None = None
    rank: int | None = None
    size_params: tuple = ()
    scale_param: str | None = None
    input: str | None = None


_TORCH = {"mode": "nearest", "align_corners": None, "antialias": False}
_TV = {"mode": "bilinear", "align_corners": None, "antialias": True}
_TV_AA = ("bilinear", "bicubic")

_ROWS = [
    # PyTorch
    Api("torch.nn.functional.interpolate", "torch",
        ("input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias"),
        defaults=_TORCH, size_params=("size", "scale_factor"), scale_param="scale_factor", input="input"),
    Api("torch.nn.functional.upsample", "torch", ("input", "size", "scale_factor", "mode", "align_corners"),
        defaults=_TORCH, size_params=("size", "scale_factor"), scale_param="scale_factor", input="input"),
    Api("torch.nn.functional.upsample_bilinear", "torch", ("input", "size", "scale_factor"),
        fixed={"mode": "bilinear", "align_corners": True}, defaults={"antialias": False}, rank=2,
        scale_param="scale_factor"),
    Api("torch.nn.functional.upsample_nearest", "torch", ("input", "size", "scale_factor"),
        fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False},
        size_params=("size", "scale_factor"), scale_param="scale_factor"),
    Api("torch.nn.Upsample", "torch", ("size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"),
        defaults=_TORCH, size_params=("size", "scale_factor"), scale_param="scale_factor"),
    Api("torch.nn.UpsamplingBilinear2d", "torch", ("size", "scale_factor"),
        fixed={"mode": "bilinear", "align_corners": True}, defaults={"antialias": False}, rank=2,
        scale_param="scale_factor"),
    Api("torch.nn.UpsamplingNearest2d", "torch", ("size", "scale_factor"),
        fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False}, rank=2,
        scale_param="scale_factor"),
    # kornia resizes through F.interpolate: the torch rules apply
    Api("kornia.geometry.transform.resize", "torch",
        ("input", "size", "interpolation", "align_corners", "side", "antialias"), mode_param="interpolation",
        defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2, input="input"),
    Api("kornia.geometry.transform.rescale", "torch",
        ("input", "factor", "interpolation", "align_corners", "antialias"), mode_param="interpolation",
        defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2, scale_param="factor"),
    # torchvision: PIL images or tensors, antialiased by default (0.17+)
    Api("torchvision.transforms.functional.resize", "torch", ("img", "size", "interpolation", "max_size", "antialias"),
        mode_param="interpolation", defaults=_TV, runs="input", codes="pillow", antialias_modes=_TV_AA, rank=2,
        input="img"),
    Api("torchvision.transforms.functional.resized_crop", "torch",
        ("img", "top", "left", "height", "width", "size", "interpolation", "antialias"), mode_param="interpolation",
        defaults=_TV, runs="input", codes="pillow", antialias_modes=_TV_AA, rank=2, input="img"),
    Api("torchvision.transforms.Resize", "torch", ("size", "interpolation", "max_size", "antialias"),
        mode_param="interpolation", defaults=_TV, runs="input", codes="pillow", antialias_modes=_TV_AA, rank=2),
    Api("torchvision.transforms.RandomResizedCrop", "torch", ("size", "scale", "ratio", "interpolation", "antialias"),
        mode_param="interpolation", defaults=_TV, runs="input", codes="pillow", antialias_modes=_TV_AA, rank=2),
    # TensorFlow / Keras
    Api("tensorflow.image.resize", "tensorflow", ("images", "size", "method", "preserve_aspect_ratio", "antialias"),
        mode_param="method", defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2),
    Api("keras.layers.Resizing", "tensorflow",
        ("height", "width", "interpolation", "crop_to_aspect_ratio", "pad_to_aspect_ratio", "fill_mode",
         "fill_value", "antialias"),
        mode_param="interpolation", defaults={"mode": "bilinear", "align_corners": None, "antialias": False}, rank=2),
    Api("keras.layers.UpSampling2D", "tensorflow", ("size", "data_format", "interpolation"),
        mode_param="interpolation", defaults={"mode": "nearest", "align_corners": None, "antialias": False}, rank=2),
    Api("keras.layers.UpSampling1D", "tensorflow", ("size",), mode_param=None,
        fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False}, rank=1),
    Api("keras.layers.UpSampling3D", "tensorflow", ("size", "data_format"), mode_param=None,
        fixed={"mode": "nearest"}, defaults={"align_corners": None, "antialias": False}, rank=3),
    # JAX: antialias (default True) acts only when downscaling
    Api("jax.image.resize", "jax", ("image", "shape", "method", "antialias", "precision"), mode_param="method",
        defaults={"mode": None, "align_corners": None, "antialias": "downscale"},
        antialias_modes=("linear", "cubic", "lanczos3", "lanczos5")),
    # host-side image libraries
    Api("cv2.resize", "opencv", ("src", "dsize", "dst", "fx", "fy", "interpolation"), mode_param="interpolation",
        defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host", codes="opencv", rank=2),
    Api("PIL.Image.Image.resize", "pillow", ("size", "resample", "box", "reducing_gap"), mode_param="resample",
        defaults={"mode": "BICUBIC", "align_corners": None, "antialias": False}, runs="host", codes="pillow", rank=2),
    Api("PIL.Image.Image.thumbnail", "pillow", ("size", "resample", "reducing_gap"), mode_param="resample",
        defaults={"mode": "BICUBIC", "align_corners": None, "antialias": False}, runs="host", codes="pillow", rank=2),
    Api("albumentations.Resize", "opencv", ("height", "width", "interpolation"), mode_param="interpolation",
        defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host", codes="opencv",
        rank=2),
    Api("albumentations.SmallestMaxSize", "opencv", ("max_size", "interpolation"), mode_param="interpolation",
        defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host", codes="opencv",
        rank=2),
    Api("albumentations.LongestMaxSize", "opencv", ("max_size", "interpolation"), mode_param="interpolation",
        defaults={"mode": "INTER_LINEAR", "align_corners": None, "antialias": False}, runs="host", codes="opencv",
        rank=2),
]
API: dict[str, Api] = {row.name: row for row in _ROWS}

#: Other public paths of the same functions (module re-exports, versioned namespaces).
ALIASES = {
    "torch.nn.modules.upsampling.Upsample": "torch.nn.Upsample",
    "torch.nn.modules.Upsample": "torch.nn.Upsample",
    "torch.nn.modules.upsampling.UpsamplingBilinear2d": "torch.nn.UpsamplingBilinear2d",
    "torch.nn.modules.upsampling.UpsamplingNearest2d": "torch.nn.UpsamplingNearest2d",
    "kornia.geometry.resize": "kornia.geometry.transform.resize",
    "kornia.geometry.rescale": "kornia.geometry.transform.rescale",
    "torchvision.transforms.v2.functional.resize": "torchvision.transforms.functional.resize",
    "torchvision.transforms.v2.functional.resized_crop": "torchvision.transforms.functional.resized_crop",
    "torchvision.transforms.v2.Resize": "torchvision.transforms.Resize",
    "torchvision.transforms.v2.RandomResizedCrop": "torchvision.transforms.RandomResizedCrop",
    "torchvision.transforms.transforms.Resize": "torchvision.transforms.Resize",
    "tensorflow.compat.v2.image.resize": "tensorflow.image.resize",
    "tensorflow.keras.layers.Resizing": "keras.layers.Resizing",
    "tensorflow.keras.layers.experimental.preprocessing.Resizing": "keras.layers.Resizing",
    "keras.layers.experimental.preprocessing.Resizing": "keras.layers.Resizing",
    "tensorflow.keras.layers.UpSampling2D": "keras.layers.UpSampling2D",
    "tensorflow.keras.layers.UpSampling1D": "keras.layers.UpSampling1D",
    "tensorflow.keras.layers.UpSampling3D": "keras.layers.UpSampling3D",
    "albumentations.augmentations.Resize": "albumentations.Resize",
    "albumentations.augmentations.geometric.resize.Resize": "albumentations.Resize",
}


def lookup(qualified: str | None) -> Api | None:
    """The API row of a fully qualified name, or None."""
    if not qualified:
        return None
    return API.get(ALIASES.get(qualified, qualified))


#: Namespaces of mode constants -> (library whose spelling the name is in, {attribute: mode name}).
_PIL = {"NEAREST": "NEAREST", "BOX": "BOX", "BILINEAR": "BILINEAR", "LINEAR": "BILINEAR", "HAMMING": "HAMMING",
        "BICUBIC": "BICUBIC", "CUBIC": "BICUBIC", "LANCZOS": "LANCZOS", "ANTIALIAS": "LANCZOS"}
_CV2 = {"INTER_NEAREST": "INTER_NEAREST", "INTER_NEAREST_EXACT": "INTER_NEAREST_EXACT",
        "INTER_LINEAR": "INTER_LINEAR", "INTER_LINEAR_EXACT": "INTER_LINEAR_EXACT", "INTER_CUBIC": "INTER_CUBIC",
        "INTER_AREA": "INTER_AREA", "INTER_LANCZOS4": "INTER_LANCZOS4"}
_TV_MODES = {"NEAREST": "nearest", "NEAREST_EXACT": "nearest-exact", "BILINEAR": "bilinear",
             "BICUBIC": "bicubic", "BOX": "box", "HAMMING": "hamming", "LANCZOS": "lanczos"}
_TF_MODES = {"NEAREST_NEIGHBOR": "nearest", "BILINEAR": "bilinear", "BICUBIC": "bicubic", "AREA": "area",
             "LANCZOS3": "lanczos3", "LANCZOS5": "lanczos5", "MITCHELLCUBIC": "mitchellcubic",
             "GAUSSIAN": "gaussian"}
_JAX_MODES = {"NEAREST": "nearest", "LINEAR": "linear", "CUBIC": "cubic", "LANCZOS3": "lanczos3",
              "LANCZOS5": "lanczos5"}
CONSTANTS = {
    "PIL.Image": ("pillow", _PIL),
    "PIL.Image.Resampling": ("pillow", _PIL),
    "cv2": ("opencv", _CV2),
    "torchvision.transforms.InterpolationMode": ("torchvision", _TV_MODES),
    "torchvision.transforms.functional.InterpolationMode": ("torchvision", _TV_MODES),
    "torchvision.transforms.v2.InterpolationMode": ("torchvision", _TV_MODES),
    "torchvision.transforms.v2.functional.InterpolationMode": ("torchvision", _TV_MODES),
    "tensorflow.image.ResizeMethod": ("tensorflow", _TF_MODES),
    "jax.image.ResizeMethod": ("jax", _JAX_MODES),
}

#: Integer codes the mode arguments of Pillow and OpenCV (and torchvision, as Pillow's) accept.
CODES = {
    "pillow": {0: "NEAREST", 1: "LANCZOS", 2: "BILINEAR", 3: "BICUBIC", 4: "BOX", 5: "HAMMING"},
    "opencv": {0: "INTER_NEAREST", 1: "INTER_LINEAR", 2: "INTER_CUBIC", 3: "INTER_AREA", 4: "INTER_LANCZOS4",
               5: "INTER_LINEAR_EXACT", 6: "INTER_NEAREST_EXACT"},
}

#: torchvision's InterpolationMode values in Pillow's spelling (what a PIL image gets).
TORCHVISION_TO_PILLOW = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC", "box": "BOX",
                         "hamming": "HAMMING", "lanczos": "LANCZOS"}
#: Pillow's names in torchvision's spelling (a Pillow constant passed to torchvision).
PILLOW_TO_TORCHVISION = {v: k for k, v in TORCHVISION_TO_PILLOW.items()}


def constant(qualified: str) -> tuple[str, str] | None:
    """(library, mode name) of a mode constant such as ``PIL.Image.BICUBIC``, or None."""
    namespace, _, attr = qualified.rpartition(".")
    row = CONSTANTS.get(namespace)
    if row is None or attr not in row[1]:
        return None
    return row[0], row[1][attr]


def code_mode(codes: str, value: int) -> str | None:
    """The mode an integer code names in Pillow's or OpenCV's table."""
    return CODES[codes].get(value)


#: Calls that return a PIL image, and methods of a PIL image that return one.
PIL_MAKERS = ("PIL.Image.open", "PIL.Image.fromarray", "PIL.Image.new", "PIL.Image.frombytes",
              "torchvision.transforms.functional.to_pil_image", "torchvision.transforms.v2.functional.to_pil_image")
PIL_METHODS = ("convert", "crop", "rotate", "transpose", "copy", "filter", "resize", "quantize")
#: Calls that make a tensor on the host (from numpy or an image), and operations that keep it there.
CPU_TENSOR_MAKERS = ("torch.from_numpy", "torchvision.transforms.functional.to_tensor",
                     "torchvision.transforms.functional.pil_to_tensor", "torchvision.transforms.ToTensor",
                     "torchvision.transforms.v2.functional.to_image", "torchvision.transforms.PILToTensor")
DEVICE_KEEPING = ("unsqueeze", "squeeze", "permute", "float", "half", "double", "contiguous", "reshape", "view",
                  "clamp", "flip", "transpose", "repeat", "expand", "clone", "detach", "unsqueeze_", "squeeze_")
#: Calls that return a tensor (prefixes), and tensor methods that return one.
TENSOR_MAKERS = ("torch.", "torchvision.transforms.functional.to_tensor",
                 "torchvision.transforms.functional.pil_to_tensor")
TENSOR_METHODS = ("clamp", "clamp_", "float", "half", "double", "to", "cuda", "permute", "unsqueeze", "squeeze",
                  "reshape", "view", "contiguous", "detach", "type_as", "sigmoid", "softmax", "flatten", "repeat",
                  "expand", "narrow", "transpose", "mul", "add", "sub", "div", "sum", "mean", "requires_grad_")
#: Context managers and decorators that run code without gradients, and ones that turn them back on.
NO_GRAD = ("torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.grad_mode.no_grad")
ENABLE_GRAD = ("torch.enable_grad", "torch.autograd.enable_grad")
#: Calls that bind a function's arguments (a site at the binding).
PARTIAL = ("functools.partial",)
#: ONNX node builders: (qualified name, positional index of the op type).
ONNX_MAKE_NODE = {"onnx.helper.make_node": 0}
ONNX_RESIZE_OPS = ("Resize", "Upsample")
#: Base classes whose subclasses are trained models (their methods compute in the differentiated, exported
#: graph): qualified prefixes, and last names of bases defined in other modules of the project or a library.
MODEL_BASE_PREFIXES = ("torch.nn.", "pytorch_lightning.", "lightning.")
MODEL_BASE_NAMES = ("Module", "ModelMixin", "LightningModule", "PreTrainedModel", "Sequential", "ModuleList")
#: Calls that show a function differentiates what it computes.
DIFFERENTIATES = ("backward", "torch.autograd.grad", "torch.autograd.backward")
#: Device names a ``x.device.type == "mps"`` guard may test.
DEVICES = ("cpu", "cuda", "mps", "xpu")

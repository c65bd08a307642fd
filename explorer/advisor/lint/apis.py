"""The Python resize functions the linter knows, their parameters and defaults, and the library constants.

Everything here is derived from the declarations (:mod:`explorer.conventions.libraries`): each library (or
runtime) declares its public resize functions as :class:`~explorer.conventions.declarations.Api` rows, its mode
constants and its integer codes, and the tables below collect them.  A row names the public function (as Python
resolves it after imports: ``F.interpolate`` with ``import torch.nn.functional as F`` is
``torch.nn.functional.interpolate``), the library whose rules judge it, its positional parameters, the defaults
of the arguments the judgement needs, and what the function itself fixes.

>>> api_table()["torch.nn.UpsamplingBilinear2d"].fixed
{'mode': 'bilinear', 'align_corners': True}
>>> lookup("torch.nn.modules.upsampling.Upsample").name
'torch.nn.Upsample'
>>> constant("PIL.Image.Resampling.LANCZOS"), constant("cv2.INTER_AREA"), constant("numpy.pi")
(('pillow', 'LANCZOS'), ('opencv', 'INTER_AREA'), None)
>>> code_mode("pillow", 3), code_mode("opencv", 3)
('BICUBIC', 'INTER_AREA')
"""

from __future__ import annotations

from dataclasses import replace

from ...conventions import registry
from ...conventions.declarations import Api

__all__ = ["Api", "aliases", "api_table", "code_mode", "constant", "constants", "lookup"]


def _declarations():
    for lib in registry.all_libraries():
        yield lib.id, lib.apis, lib.constants, lib.codes
    for rt in registry.all_runtimes():
        yield rt.id, rt.apis, {}, {}


@registry.derived
def api_table() -> dict[str, Api]:
    """Every declared API row by its public name; a row that names no library is judged by its declarer's."""
    return {row.name: (row if row.library else replace(row, library=owner))
            for owner, rows, _, _ in _declarations() for row in rows}


@registry.derived
def aliases() -> dict[str, str]:
    """Other public paths of the same functions (module re-exports, versioned namespaces) -> the row's name."""
    return {alias: row.name for row in api_table().values() for alias in row.aliases}


@registry.derived
def constants() -> dict[str, tuple[str, dict]]:
    """Namespaces of mode constants -> (the library whose spelling the names are in, {attribute: mode name})."""
    return {ns: entry for _, _, declared, _ in _declarations() for ns, entry in declared.items()}


@registry.derived
def _codes() -> dict[str, dict]:
    return {owner: dict(codes) for owner, _, _, codes in _declarations() if codes}


def lookup(qualified: str | None) -> Api | None:
    """The API row of a fully qualified name, or None."""
    if not qualified:
        return None
    return api_table().get(aliases().get(qualified, qualified))


def constant(qualified: str) -> tuple[str, str] | None:
    """(library, mode name) of a mode constant such as ``PIL.Image.BICUBIC``, or None."""
    namespace, _, attr = qualified.rpartition(".")
    row = constants().get(namespace)
    if row is None or attr not in row[1]:
        return None
    return row[0], row[1][attr]


def code_mode(codes: str, value: int) -> str | None:
    """The mode an integer code names in a library's table (Pillow's, OpenCV's)."""
    return _codes().get(codes, {}).get(value)


#: torchvision's InterpolationMode values in Pillow's spelling (what a PIL image gets).
TORCHVISION_TO_PILLOW = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC", "box": "BOX",
                         "hamming": "HAMMING", "lanczos": "LANCZOS"}
#: Pillow's names in torchvision's spelling (a Pillow constant passed to torchvision).
PILLOW_TO_TORCHVISION = {v: k for k, v in TORCHVISION_TO_PILLOW.items()}


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
MODEL_BASE_PREFIXES = ("torch.nn.", "pytorch_lightning.", "lightning.", "keras.layers.Layer", "keras.Model",
                       "keras.models.Model", "tensorflow.keras.layers.Layer", "tensorflow.keras.Model",
                       "tensorflow.Module", "flax.linen.Module", "flax.nnx.Module", "haiku.Module", "equinox.Module",
                       "keras.src.layers.Layer", "keras.src.models.Model", "tf_keras.layers.Layer", "tf_keras.Model")
MODEL_BASE_NAMES = ("Module", "ModelMixin", "LightningModule", "PreTrainedModel", "Sequential", "ModuleList",
                    "Layer", "Model", "Backbone")
#: Calls that build a Keras model from the layers a function applies (the functional and Sequential APIs):
#: the function that calls one is model code.
MODEL_CONSTRUCTORS = ("keras.Model", "keras.models.Model", "keras.Sequential", "keras.models.Sequential",
                      "keras.src.models.Model", "keras.src.models.Functional", "tensorflow.keras.Model",
                      "tensorflow.keras.models.Model", "tensorflow.keras.Sequential",
                      "tensorflow.keras.models.Sequential", "tf_keras.Model", "tf_keras.Sequential")
#: Transforms that make a model of a function (Haiku): the function passed or decorated is model code.
MODEL_TRANSFORMS = ("haiku.transform", "haiku.transform_with_state", "haiku.multi_transform",
                    "haiku.multi_transform_with_state", "haiku.without_apply_rng")
#: Transforms that differentiate the function passed or decorated (JAX, Equinox, Flax NNX, torch.func).
GRADIENT_TRANSFORMS = ("jax.grad", "jax.value_and_grad", "jax.vjp", "jax.jacrev", "jax.jacfwd", "jax.hessian",
                       "equinox.filter_grad", "equinox.filter_value_and_grad", "flax.nnx.grad",
                       "flax.nnx.value_and_grad", "torch.func.grad", "torch.func.grad_and_value",
                       "torch.func.vjp", "functorch.grad")
#: Context managers that record what runs inside them for gradients.
GRADIENT_TAPES = ("tensorflow.GradientTape", "tensorflow.autodiff.GradientTape")
#: Calls that show a function differentiates what it computes.
DIFFERENTIATES = ("backward", "torch.autograd.grad", "torch.autograd.backward")
#: Device names a ``x.device.type == "mps"`` guard may test.
DEVICES = ("cpu", "cuda", "mps", "xpu")

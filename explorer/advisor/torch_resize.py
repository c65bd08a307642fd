"""Every interpolate/upsample call of a PyTorch module, with its resolved arguments and shapes.

:func:`interpolate_calls` exports the module with ``torch.export`` on ``example_inputs`` and reads every ATen
upsample op of the graph (``upsample_nearest2d.vec``, ``upsample_bilinear2d.vec``,
``_upsample_bicubic2d_aa.vec``, ... and ``adaptive_avg_pool*d`` when it comes from ``mode="area"``): the
sizes and scale factors as the graph holds them (arguments computed from shapes are resolved), the input and
output shapes, and the source line.  A module ``torch.export`` cannot trace (data-dependent control flow) is
run once instead, recording every ``F.interpolate`` call as it is made (``InterpolateSite.method``).

>>> import torch, torch.nn.functional as F
>>> class Up(torch.nn.Module):
...     def forward(self, x):
...         return F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)
>>> [call] = interpolate_calls(Up(), (torch.zeros(1, 3, 5, 7),))
>>> call.mode, call.scale_factor, call.align_corners, call.input_shape, call.output_shape
('bilinear', (2.0, 2.0), True, (1, 3, 5, 7), (1, 3, 10, 14))
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from dataclasses import dataclass

from ..errors import ArgumentTypeError, ArgumentValueError

# ATen op -> (F.interpolate mode, takes align_corners, antialias)
ATEN_OPS = {
    "upsample_nearest1d": ("nearest", False, False),
    "upsample_nearest2d": ("nearest", False, False),
    "upsample_nearest3d": ("nearest", False, False),
    "_upsample_nearest_exact1d": ("nearest-exact", False, False),
    "_upsample_nearest_exact2d": ("nearest-exact", False, False),
    "_upsample_nearest_exact3d": ("nearest-exact", False, False),
    "upsample_linear1d": ("linear", True, False),
    "upsample_bilinear2d": ("bilinear", True, False),
    "upsample_trilinear3d": ("trilinear", True, False),
    "upsample_bicubic2d": ("bicubic", True, False),
    "_upsample_bilinear2d_aa": ("bilinear", True, True),
    "_upsample_bicubic2d_aa": ("bicubic", True, True),
    "_upsample_lanczos2d_aa": ("lanczos", True, True),
    "adaptive_avg_pool1d": ("area", False, False),
    "adaptive_avg_pool2d": ("area", False, False),
    "adaptive_avg_pool3d": ("area", False, False),
    "_adaptive_avg_pool2d": ("area", False, False),
    "_adaptive_avg_pool3d": ("area", False, False),
}
# an adaptive average pool is a resize when F.interpolate(mode="area") or nn.Upsample made it (a pool whose
# stack trace shows neither, such as nn.AdaptiveAvgPool2d, is left out; without a stack trace it is kept)
_AREA_CALLER = re.compile(r"interpolate\s*\(|Upsample|upsample")


@dataclass(frozen=True)
class InterpolateSite:
    """One ``F.interpolate`` (or ``nn.Upsample``) call as the module makes it on the example inputs."""

    name: str                       # the graph node's name (or "interpolate_<k>" when recorded eagerly)
    op: str                         # the ATen op ("upsample_bilinear2d") or "interpolate"
    mode: str
    size: tuple | None
    scale_factor: tuple | None
    align_corners: bool | None
    antialias: bool
    input_shape: tuple
    output_shape: tuple
    location: str = ""              # "file.py:123" of the user's call
    module: str = ""                # the submodule path ("decoder.up1")
    method: str = "torch.export"    # or "recorded" (the module was run)

    @property
    def attributes(self) -> dict:
        out = {"mode": self.mode}
        if self.size is not None:
            out["size"] = list(self.size)
        if self.scale_factor is not None:
            out["scale_factor"] = list(self.scale_factor)
        out["align_corners"] = self.align_corners
        out["antialias"] = self.antialias
        return out


def _torch():
    try:
        import torch
    except ImportError:  # pragma: no cover - scanning a module needs torch
        raise ImportError("scanning a PyTorch module needs torch") from None
    return torch


def _location(stack: str) -> str:
    """The last ``File "...", line N`` of a stack trace outside torch itself."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', stack or "")
    user = [(f, n) for f, n in frames if "/torch/" not in f.replace("\\", "/")]
    if not user:
        return ""
    path, line = user[-1]
    return f"{path.rsplit('/', 1)[-1]}:{line}"


def _shape(value) -> tuple:
    return tuple(int(d) for d in value.shape)


def _module_path(node) -> str:
    stack = node.meta.get("nn_module_stack") or {}
    paths = [path for path, _ in stack.values() if path]
    return paths[-1] if paths else ""


def _from_graph(exported) -> list[InterpolateSite]:
    torch = _torch()
    calls = []
    for node in exported.graph.nodes:
        if node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
            continue
        op = node.target._schema.name.split("::")[-1]
        if op not in ATEN_OPS:
            continue
        mode, takes_align, antialias = ATEN_OPS[op]
        stack = node.meta.get("stack_trace", "") or ""
        if mode == "area" and stack and not _AREA_CALLER.search(stack):
            continue
        source, out = node.args[0], node.meta.get("val")
        if not hasattr(source, "meta") or "val" not in source.meta or out is None:
            continue
        input_shape, output_shape = _shape(source.meta["val"]), _shape(out)
        size, scale, align = _aten_arguments(node, mode, takes_align, len(input_shape) - 2)
        if size is None and scale is None:
            size = tuple(output_shape[2:])
        calls.append(InterpolateSite(node.name, op, mode, size, scale, align, antialias, input_shape, output_shape,
                                _location(stack), _module_path(node)))
    return calls


def _aten_arguments(node, mode: str, takes_align: bool, spatial: int) -> tuple:
    """(size, scale, align_corners) of an exported aten upsample call; a size only when no scale is given.

    The ``.vec`` overloads take (input, output_size, [align_corners], scale_factors); the ``.default`` ones take
    (input, output_size, [align_corners], one optional scale per axis). Area calls are read by their output."""
    args = list(node.args)
    size = scale = align = None
    if mode == "area":
        return tuple(_shape(node.meta["val"])[2:]), None, None
    if node.target._overloadname == "vec":
        size = args[1] if len(args) > 1 else None
        rest = args[2:]
        if takes_align:
            align, rest = (bool(rest[0]) if rest else False), rest[1:]
        scale = rest[0] if rest else None
    else:
        size, rest = args[1], args[2:]
        if takes_align:
            align, rest = bool(rest[0]), rest[1:]
        scales = list(rest[:spatial]) + [None] * (spatial - len(rest[:spatial]))
        if all(s is not None for s in scales):
            scale = scales
    scale = None if scale is None else tuple(float(s) for s in scale)
    size = None if size is None or scale is not None else tuple(int(s) for s in size)
    return size, scale, align


def _recorded(module, example_inputs, kwargs) -> list[InterpolateSite]:
    """Run ``module`` once and record every F.interpolate call with its arguments as passed."""
    torch = _torch()
    functional = torch.nn.functional
    calls = []

    class Recorder(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kw=None):
            kw = kw or {}
            out = func(*args, **kw)
            if func is functional.interpolate:
                import inspect
                bound = inspect.signature(functional.interpolate).bind(*args, **kw)
                bound.apply_defaults()
                a = bound.arguments
                size, scale = a["size"], a["scale_factor"]
                spatial = a["input"].dim() - 2
                if size is not None:
                    size = tuple(int(s) for s in (size if isinstance(size, (list, tuple)) else [size] * spatial))
                if scale is not None:
                    scale = tuple(float(s) for s in (scale if isinstance(scale, (list, tuple))
                                                     else [scale] * spatial))
                    if a["recompute_scale_factor"]:
                        size, scale = tuple(out.shape[2:]), None
                where = next((f for f in inspect.stack()[1:] if "/torch/" not in f.filename.replace("\\", "/")
                              and f.filename != __file__), None)
                location = "" if where is None else f"{where.filename.rsplit('/', 1)[-1]}:{where.lineno}"
                calls.append(InterpolateSite(f"interpolate_{len(calls)}", "interpolate", a["mode"], size, scale,
                                        a["align_corners"], bool(a["antialias"]), _shape(a["input"]),
                                        _shape(out), location, method="recorded"))
            return out

    with torch.no_grad(), Recorder():
        module(*example_inputs, **kwargs)
    return calls


@contextlib.contextmanager
def _quiet():
    """torch.export logs the graph it gave up on; the fallback makes that noise, not news."""
    loggers = [logging.getLogger(name) for name in ("torch", "torch.export", "torch._dynamo", "torch.fx",
                                                   "torch._export")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def interpolate_calls(module, example_inputs, kwargs=None) -> list[InterpolateSite]:
    """Every resize call ``module`` makes on ``example_inputs`` (a tuple of tensors, or one tensor)."""
    torch = _torch()
    if not isinstance(module, torch.nn.Module):
        raise ArgumentTypeError(f"module must be a torch.nn.Module, got {type(module).__name__}")
    if example_inputs is None:
        raise ArgumentValueError("scanning a PyTorch module needs example_inputs (a tuple of tensors, e.g. "
                                 "(torch.zeros(1, 3, 64, 64),)): the sizes of its resizes depend on them")
    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    kwargs = dict(kwargs or {})
    was_training = module.training
    module.eval()
    try:
        try:
            with _quiet():
                exported = torch.export.export(module, example_inputs, kwargs=kwargs)
        except Exception:  # noqa: BLE001 - untraceable modules are run once instead
            return _recorded(module, example_inputs, kwargs)
        return _from_graph(exported)
    finally:
        module.train(was_training)

"""explorer: every tensor interpolation mode, forward and backward, in numpy.

>>> import numpy as np, explorer
>>> x = np.random.rand(1, 3, 37, 53).astype(np.float32)
>>> y = explorer.interpolate(x, scale_factor=1.7, mode="bicubic")
>>> gx = explorer.interpolate_backward(np.ones_like(y), x.shape, scale_factor=1.7, mode="bicubic")
>>> y.shape, gx.shape, gx.dtype
((1, 3, 62, 90), (1, 3, 37, 53), dtype('float32'))
"""

from .conventions import (
    equivalent,
    library_resize,
    library_resize_backward,
    library_resize_transpose,
    preset,
    presets,
)
from .conventions.libraries.pytorch import MODES, interpolate, interpolate_backward, torch_spec
from .engine import Spec, axis_plan, resize, resize_backward, weights
from .engine.coords import ROUNDING, TRANSFORMS, source_coordinates
from .engine.kernels import KERNEL_NAMES, KERNELS
from .errors import InvalidSizeError, NoGradientError, OutputTooLargeError

#: The advisor's names, imported on first use (PEP 562): ``import explorer`` for a resize reads no knowledge
#: base, and an explorer kernel loads the linter, the model scanner or diagnose only if something calls them.
_ADVISOR = {"backends": ".advisor", "check": ".advisor.findings", "compare_conventions": ".advisor.compare",
            "diagnose": ".advisor.diagnose", "scan": ".advisor.scan", "smoke_matrix": ".advisor.smoke",
            "suggest_fixes": ".advisor.fixes", "pick": ".advisor.pick", "run_resize_node": ".advisor.node_calls"}

__version__ = "0.1.0"

__all__ = [
    "Spec", "resize", "resize_backward", "weights", "axis_plan", "interpolate", "interpolate_backward",
    "torch_spec", "MODES", "KERNELS", "KERNEL_NAMES", "TRANSFORMS", "ROUNDING", "source_coordinates",
    "InvalidSizeError", "OutputTooLargeError", "NoGradientError",
    "backends", "check", "suggest_fixes", "compare_conventions", "diagnose", "smoke_matrix", "scan",
    "run_resize_node",
    "pick",
    "preset", "presets", "equivalent", "library_resize", "library_resize_backward", "library_resize_transpose",
]


def __getattr__(name):
    """The advisor, the explorer app and its figures (ipywidgets and matplotlib), and the lessons of
    ``scenarios()`` (which compute their numbers): imported on first use."""
    import importlib

    if name in _ADVISOR:
        value = getattr(importlib.import_module(_ADVISOR[name], __name__), name)
        globals()[name] = value
        return value
    if name in ("explore", "App"):
        from .ui import app

        return getattr(app, name)
    if name == "scenarios":
        from .ui.scenarios import scenarios

        return scenarios
    if name in ("views", "plots"):
        return importlib.import_module(".ui.views", __name__)
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__) | {"explore", "App", "scenarios", "views"})

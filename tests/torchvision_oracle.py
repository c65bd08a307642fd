"""torchvision's transforms, loaded without its C extension.

The torchvision 0.28.0 wheel on the package index is built against a CUDA torch: ``import torchvision`` next to
the CPU torch 2.13.0 wheel fails in ``torchvision/__init__.py`` (``_meta_registrations.py`` registers fake
kernels for its C ops: ``RuntimeError: operator torchvision::nms does not exist``).  Resizing needs none of
them: ``torchvision.transforms`` (v1) and ``torchvision.transforms.v2`` are pure Python over
``torch.nn.functional.interpolate`` and Pillow.  :func:`load` registers the installed ``torchvision`` folder as
a package without running its ``__init__`` and imports the transforms from it.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path


def load():
    """``(transforms, transforms.v2, InterpolationMode, version)``, or None when torchvision is not installed."""
    spec = importlib.util.find_spec("torchvision") if "torchvision" not in sys.modules else None
    if "torchvision" not in sys.modules:
        if spec is None or spec.origin is None:
            return None
        root = Path(spec.origin).parent
        package = types.ModuleType("torchvision")
        package.__path__ = [str(root)]
        package.__file__ = spec.origin
        package.__spec__ = spec  # importlib.util.find_spec("torchvision") (transformers asks it) needs one
        package.__version__ = _version(root)
        sys.modules["torchvision"] = package
    v1 = importlib.import_module("torchvision.transforms")
    v2 = importlib.import_module("torchvision.transforms.v2")
    return v1, v2, v1.InterpolationMode, sys.modules["torchvision"].__version__


def _version(root: Path) -> str:
    info = sorted(root.parent.glob("torchvision-*.dist-info"))
    return info[-1].name[len("torchvision-"):-len(".dist-info")] if info else "unknown"

"""One module per library or runtime: everything the project knows how to say about it, declared once.

Each module registers its declarations (:func:`explorer.conventions.registry.register`): a
:class:`~explorer.conventions.registry.Library` (a numeric convention: its modes, options, hooks, its own call
as code, its API for the linter) and/or a :class:`~explorer.conventions.declarations.Runtime` (a product with
releases: its backends, devices, what each computes).  Every module of this package is imported here, so a new
module is found with no other edit (``docs/architecture.md``, "Where a new thing goes").
"""

from __future__ import annotations

import importlib
import pkgutil


def _import_all():
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")


_import_all()

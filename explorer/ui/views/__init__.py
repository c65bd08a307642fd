"""Figures of the explorer: pure functions from data to matplotlib Figures (no widgets, no pyplot).

Each view has a ``compute_*`` function (the engine's numbers), a ``*View`` class whose artists are created
once and updated in place by ``update(data)``, and a ``*_figure`` shortcut that does both on a new Agg
figure.  Available as ``explorer.ui.views`` and ``explorer.plots``.

>>> import explorer
>>> from explorer.images import checkerboard
>>> fig = explorer.plots.modes_figure(checkerboard(32, 4), ["nearest", "bilinear"], scale=0.5)
>>> len(fig.axes) > 0
True
"""

from .anatomy import AnatomyView, anatomy_figure, compute_anatomy, kernel_response
from .backends import BackendsView, backends_figure, compute_backends
from .gradients import (
    GradientsView,
    compute_gradients,
    gradients_figure,
    upstream_gradient,
)
from .libraries import LibrariesView, compute_libraries, libraries_figure
from .modes import ModesView, compute_modes, modes_figure
from .pick import PickView, pick_figure

__all__ = [
    "ModesView", "modes_figure", "compute_modes",
    "GradientsView", "gradients_figure", "compute_gradients", "upstream_gradient",
    "AnatomyView", "anatomy_figure", "compute_anatomy", "kernel_response",
    "LibrariesView", "libraries_figure", "compute_libraries",
    "BackendsView", "backends_figure", "compute_backends",
    "PickView", "pick_figure",
]

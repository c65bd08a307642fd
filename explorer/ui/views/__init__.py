"""Figures of the explorer: pure functions from data to matplotlib Figures (no widgets, no pyplot).

Each view has a ``compute_*`` function in :mod:`explorer.ui.compute` (the engine's numbers), a ``*View`` class whose artists are created
once and updated in place by ``update(data)``, and a ``*_figure`` shortcut that does both on a new Agg
figure.  Available as ``explorer.ui.views`` and ``explorer.plots``.

>>> import explorer
>>> from explorer.images import checkerboard
>>> fig = explorer.plots.modes_figure(checkerboard(32, 4), ["nearest", "bilinear"], scale=0.5)
>>> len(fig.axes) > 0
True
"""

from ..compute.anatomy import compute_anatomy, kernel_response
from ..compute.backends import compute_backends
from ..compute.gradients import compute_gradients, upstream_gradient
from ..compute.libraries import compute_libraries
from ..compute.modes import compute_modes
from .anatomy import AnatomyView, anatomy_figure
from .backends import BackendsView, backends_figure
from .gradients import GradientsView, gradients_figure
from .libraries import LibrariesView, libraries_figure
from .modes import ModesView, modes_figure
from .pick import PickView, pick_figure

__all__ = [
    "ModesView", "modes_figure", "compute_modes",
    "GradientsView", "gradients_figure", "compute_gradients", "upstream_gradient",
    "AnatomyView", "anatomy_figure", "compute_anatomy", "kernel_response",
    "LibrariesView", "libraries_figure", "compute_libraries",
    "BackendsView", "backends_figure", "compute_backends",
    "PickView", "pick_figure",
]

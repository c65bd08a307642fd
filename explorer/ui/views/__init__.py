"""Figures of the explorer: pure functions from data to figures (no widgets, no pyplot).

Each view has a ``compute_*`` function in :mod:`explorer.ui.compute` (the engine's numbers) and a drawing:

* image tabs (Modes, Gradients, Libraries): ``*_panels(data)`` gives a
  :class:`~explorer.ui.views.panels.PanelFigure` (panels of numbers and their pixels, colour bars, caption),
  drawn as HTML in the app (:mod:`~explorer.ui.views.html_figure`) and as a matplotlib figure for slides
  (:mod:`~explorer.ui.views.export`); ``*_figure(...)`` computes and draws the latter;
* plots (Kernels) and tables (Backends, Pick): a matplotlib ``*View`` (artists created once, updated in place)
  and, for the tables, an HTML form for the app.

Available as ``explorer.ui.views`` and ``explorer.plots``.

>>> import explorer
>>> from explorer.images import checkerboard
>>> fig = explorer.plots.modes_figure(checkerboard(32, 4), ["nearest", "bilinear"], scale=0.5)
>>> bool(fig.get_size_inches()[0] >= 16)
True
"""

from ..compute.kernels import compute_kernels, kernel_response
from ..compute.backends import compute_backends
from ..compute.gradients import compute_gradients, upstream_gradient
from ..compute.libraries import compute_libraries
from ..compute.modes import compute_modes
from .kernels import KernelsView, kernels_figure
from .backends import BackendsView, backends_figure, backends_html
from .gradients import gradients_figure, gradients_panels
from .libraries import libraries_figure, libraries_panels
from .modes import modes_figure, modes_panels
from .pick import PickView, pick_figure, pick_html

__all__ = [
    "KernelsView",
    "BackendsView",
    "PickView",
    "kernels_figure",
    "backends_figure",
    "backends_html",
    "compute_kernels",
    "compute_backends",
    "compute_gradients",
    "compute_libraries",
    "compute_modes",
    "gradients_figure",
    "gradients_panels",
    "kernel_response",
    "libraries_figure",
    "libraries_panels",
    "modes_figure",
    "modes_panels",
    "pick_figure",
    "pick_html",
    "upstream_gradient",
]

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

#: Each public name and the module defining it, imported on first use (PEP 562): the app's image tabs draw
#: with ``panels``, ``pixels`` and ``html_figure`` alone, and matplotlib's figures (the Kernels plot, slides)
#: are imported only when a tab or an export draws one.
_WHERE = {
    "compute_kernels": "..compute.kernels", "kernel_response": "..compute.kernels",
    "compute_backends": "..compute.backends", "compute_gradients": "..compute.gradients",
    "upstream_gradient": "..compute.gradients", "compute_libraries": "..compute.libraries",
    "compute_modes": "..compute.modes",
    "KernelsView": ".kernels", "kernels_figure": ".kernels",
    "BackendsView": ".backends", "backends_figure": ".backends", "backends_html": ".backends",
    "gradients_figure": ".gradients", "gradients_panels": ".gradients",
    "libraries_figure": ".libraries", "libraries_panels": ".libraries",
    "modes_figure": ".modes", "modes_panels": ".modes",
    "PickView": ".pick", "pick_figure": ".pick", "pick_html": ".pick",
}


def __getattr__(name):
    if name in _WHERE:
        import importlib

        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_WHERE))


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

"""Gradients: what flows back to the input, for an upstream gradient of your choice, per mode.

Rows: the gradient with respect to the input dL/dx = Wᵀ g, a zoom on it, a zoom on the *coverage* Wᵀ 1 (how
much each input pixel feeds the output), and the upstream gradient dL/dy it came from (output space).  Input pixels with
zero coverage never receive any gradient (red): nearest downsampling leaves most pixels dead, bilinear
downsampling without antialias skips whole rows and columns, and nearest upsampling by a non-integer factor
gives a checkerboard of 1s and 2s.

>>> import numpy as np
>>> from explorer.images import impulse
>>> data = compute_gradients(impulse(9), ["nearest"], "ones", scale=0.5)
>>> r = data.results["nearest"]
>>> r.grad.shape, int((r.coverage == 0).sum()), r.dead
((9, 9, 1), 65, 65)
>>> fig = gradients_panels(data)
>>> bool(np.array_equal(fig.panels["grad:nearest"].values, r.grad[:, :, 0]))
True
"""

from __future__ import annotations

import numpy as np

from ..compute.gradients import GradientResult, GradientsData, compute_gradients
from ..defaults import UPSTREAMS
from . import style as S
from .panels import (
    ColourBar,
    PanelFigure,
    column_limits,
    error_panel,
    recolour,
    symmetric_limit,
    whole_panel,
    zoom_panel,
)

ROWS = ("upstream", "grad", "grad_zoom", "coverage_zoom")


def gradients_panels(data: GradientsData) -> PanelFigure:
    """The Gradients figure: one column per mode, the four rows of :data:`ROWS`, one scale per row."""
    labels = tuple(data.results)
    image_hw = data.image.shape[:2]
    # the upstream row is in output space, the other rows in input space: each is laid out on its own arrays
    # (an upsampled output too wide for 1:1 must not turn the input-space rows into overviews: a 2 x 2
    # average of a period-2 checkerboard is flat)
    outputs = column_limits([r.upstream.shape[:2] if isinstance(r, GradientResult) else image_hw
                             for r in data.results.values()])
    inputs = column_limits([image_hw] * len(labels))
    box = data.crop
    panels = {}
    for (label, r), out_limits, in_limits in zip(data.results.items(), outputs, inputs):
        if not isinstance(r, GradientResult):
            panels[f"upstream:{label}"] = error_panel(f"{label}: not available", r)
            for name in ROWS[1:]:
                panels[f"{name}:{label}"] = error_panel("", "")
            continue
        _mode_panels(panels, label, r, box, (out_limits, in_limits), data.image.shape)
    limits_of = {}
    for name, scale in (("upstream", "signed"), ("grad", "signed"), ("coverage_zoom", "coverage")):
        shown = [panels[f"{n}:{m}"] for m in labels for n in ((name, "grad_zoom") if name == "grad" else (name,))]
        values = [p.values for p in shown if p.values is not None]
        limit = (max([float(np.max(v)) for v in values] + [1e-12]) if scale == "coverage"
                 else symmetric_limit(values))
        limits_of[name] = limit
        for p in shown:
            recolour(p, limit)
    lu, lg, lc = limits_of["upstream"], limits_of["grad"], limits_of["coverage_zoom"]
    # dL/dx first: what a lesson talks about is on the first screen; the upstream gradient (often all ones) last
    bars = {0: ColourBar("signed", -lg, lg, "dL/dx = Wᵀ g (per input pixel)"),
            1: ColourBar("signed", -lg, lg, "dL/dx = Wᵀ g (per input pixel)"),
            2: ColourBar("coverage", 0.0, lc, "coverage Wᵀ 1: total weight an input pixel gives",
                         ((S.DEAD, "0: dead, no gradient"),)),
            3: ColourBar("signed", -lu, lu, "dL/dy, upstream gradient (per output pixel)")}
    rows = [("gradient with respect to the input, dL/dx", [f"grad:{m}" for m in labels]),
            ("zoom on dL/dx in the orange box: every pixel", [f"grad_zoom:{m}" for m in labels]),
            ("zoom on the coverage in the box: red pixels never receive a gradient",
             [f"coverage_zoom:{m}" for m in labels]),
            ("upstream gradient dL/dy, output space", _upstream_row(panels, data, labels))]
    widths = [max(o[1], i[1]) for o, i in zip(outputs, inputs)]
    return PanelFigure("gradients", rows, panels, bars, gradients_caption(data), widths)


def _upstream_row(panels, data: GradientsData, labels) -> list:
    """The keys of the upstream row: one panel per mode, or only the first when every mode got the same dL/dy
    (every upstream but ``mse``, which reads each mode's output): a row of identical squares says nothing the
    one does not, and its title then says it is every mode's (and the value when it is constant)."""
    keys = [f"upstream:{m}" for m in labels]
    ups = [r.upstream for r in data.results.values() if isinstance(r, GradientResult)]
    if len(ups) < 2 or len(ups) < len(labels) or any(not np.array_equal(ups[0], u) for u in ups[1:]):
        return keys
    first = panels[keys[0]]
    lo, hi = float(ups[0].min()), float(ups[0].max())
    value = f", every value {lo:g}" if lo == hi else ""
    first.title = f"every mode's (the same): {first.title.split(': ', 1)[1]}{value}"  # the size, any overview
    return keys[:1] + [None] * (len(keys) - 1)


def _mode_panels(panels, label, r, box, limits_of_spaces, image_shape):
    H, W = image_shape[:2]
    up = r.upstream
    mark = " *" if r.notes else ""
    out_limits, limits = limits_of_spaces
    panels[f"upstream:{label}"] = whole_panel(up, f"{label}{mark}: {up.shape[0]}×{up.shape[1]}", "signed",
                                              limits=out_limits, mean_channels=True)
    grad = S.channel_mean(r.grad)
    lo, hi = float(grad.min()), float(grad.max())
    panels[f"grad:{label}"] = whole_panel(grad, f"{label}: range [{lo:.3g}, {hi:.3g}]", "signed",
                                          limits=limits, box=box)
    panels[f"grad_zoom:{label}"] = zoom_panel(grad, box, f"{label}, zoom", "signed", limits=limits)
    dead = 100.0 * r.dead / (H * W)
    panels[f"coverage_zoom:{label}"] = zoom_panel(
        r.coverage, box, f"{label}: dead {dead:.1f}%, variation {r.variation:.2f}", "coverage", limits=limits)


def gradients_caption(data: GradientsData) -> str:
    """What the Gradients figure shows, in words, with the dead-pixel counts and every number of a title."""
    H, W = data.image.shape[:2]
    text = (f"Upstream gradient = {data.upstream}: {UPSTREAMS[data.upstream]}.  Rows: the gradient with "
            "respect to the input dL/dx = Wᵀ g (range: its smallest and largest value), a zoom on it in the "
            "orange box, a zoom on the coverage Wᵀ 1 (how much each input pixel feeds the output), and the "
            "upstream gradient dL/dy (height × width of the output).  dead: the share of all input pixels whose coverage "
            "is 0, red: they never receive any gradient; variation: the standard deviation of the coverage over "
            "the other pixels divided by its mean (0: every pixel weighs the same; stripes and checkerboards "
            "show as variation).  Every row is on one scale (mean over channels).")
    parts = []
    for label, r in data.results.items():
        if isinstance(r, GradientResult):
            part = f"{label}: {r.dead} of {H * W} input pixels dead, coverage variation {r.variation:.2f}"
            if r.notes:
                part += f" (* {r.notes})"
            parts.append(part)
        else:
            parts.append(f"{label}: {r}")
    return text + "  " + "; ".join(parts) + "."


def gradients_figure(image, modes, upstream="ones", *, stamp="", dpi=100, **options):
    """Compute the Gradients view and draw it as a matplotlib Figure."""
    from .export import panel_export

    return panel_export(gradients_panels(compute_gradients(image, modes, upstream, **options)), stamp, dpi)

"""Modes: the input and each mode's output, a zoom on the same box of each, and each output minus a reference.

>>> import numpy as np
>>> from explorer.images import checkerboard
>>> data = compute_modes(checkerboard(32, 4), ["nearest", "bilinear"], reference="bicubic", scale=0.5)
>>> fig = modes_panels(data)
>>> fig.panels["output:bilinear"].values.shape, fig.panels["output:bilinear"].title
((16, 16, 1), 'bilinear 16×16')
>>> d = data.outputs["nearest"] - data.reference_output
>>> bool(np.allclose(fig.panels["diff:nearest"].values, d.mean(axis=2)))
True
"""

from __future__ import annotations

import numpy as np

from ..compute.modes import ModesData, compute_modes
from . import pixels as P
from . import style as S
from .panels import (
    ColourBar,
    PanelFigure,
    colour_scale_of,
    column_limits,
    error_panel,
    grey_bar,
    recolour,
    symmetric_limit,
    whole_panel,
    zoom_panel,
)


def modes_panels(data: ModesData) -> PanelFigure:
    """The Modes figure: rows of whole images, zooms on the box (orange in the input) and differences from
    the reference; columns: the input, each mode, the reference."""
    labels = tuple(data.outputs)
    image, box = data.image, data.crop
    ref = data.reference_output
    arrays = [image] + [data.outputs[m] for m in labels] + [ref]
    columns = column_limits([a.shape[:2] if isinstance(a, np.ndarray) else (1, 1) for a in arrays])
    limits = dict(zip(["input", *labels, "reference"], columns))
    scale = colour_scale_of(image)
    h, w = image.shape[:2]
    panels = {"input": whole_panel(image, f"input {h}×{w}", scale, limits=limits["input"], box=box),
              "input_crop": zoom_panel(image, box, "input, zoom", scale, limits=limits["input"])}
    ref_ok = isinstance(ref, np.ndarray)
    title = f"reference: {data.reference}"
    if ref_ok:
        panels["reference"] = whole_panel(ref, f"{title} {ref.shape[0]}×{ref.shape[1]}", scale,
                                          limits=limits["reference"])
        panels["reference_crop"] = zoom_panel(ref, box, f"{data.reference}, zoom", scale, limits=limits["reference"])
    else:
        panels["reference"], panels["reference_crop"] = error_panel(title, ref), error_panel("", "")
    for label in labels:
        _mode_panels(panels, label, data.outputs[label], bool(data.notes.get(label)), ref if ref_ok else None, box,
                     scale, limits[label])
    diffs = [panels[f"diff:{m}"] for m in labels]
    limit = symmetric_limit(p.values for p in diffs if p.values is not None)
    for p in diffs:
        recolour(p, limit)
    rows = [("whole images" + ("" if scale else " (colour, clipped to [0, 1])"),
             ["input"] + [f"output:{m}" for m in labels] + ["reference"]),
            ("zoom on the orange box: every pixel",
             ["input_crop"] + [f"crop:{m}" for m in labels] + ["reference_crop"]),
            ("each output minus the reference, mean over channels", [None] + [f"diff:{m}" for m in labels])]
    bars = {2: ColourBar("signed", -limit, limit, "output − reference (pixel value)")}
    if scale:
        bars[0] = bars[1] = grey_bar()
    return PanelFigure("modes", rows, panels, bars, modes_caption(data), [c[1] for c in columns],
                       frozenset({"input", "input_crop"}))


def _mode_panels(panels, label, out, noted, ref, box, scale, limits):
    """The output, zoom and difference panels of one mode (the reference panels already in ``panels``)."""
    if not isinstance(out, np.ndarray):
        panels[f"output:{label}"] = error_panel(f"{label}: not available", out)
        panels[f"crop:{label}"] = error_panel(f"{label}, zoom", "")
        panels[f"diff:{label}"] = error_panel(f"{label} − reference", "")
        return
    whole = whole_panel(out, f"{label} {out.shape[0]}×{out.shape[1]}{' *' if noted else ''}", scale, limits=limits)
    panels[f"output:{label}"] = whole
    panels[f"crop:{label}"] = zoom_panel(out, box, f"{label}, zoom", scale, limits=limits)
    panels[f"diff:{label}"] = _difference(label, out, ref, limits, (whole.values, panels["reference"].values))


def _difference(label, out, ref, limits, shown):
    """``out`` minus ``ref`` as a panel: the difference of the panels ``shown`` (block averages are linear)."""
    if ref is None or out.shape != ref.shape:
        return error_panel(f"{label} − reference", "" if ref is None else "another output size")
    f = P.reduction(out.shape, *limits)
    d = S.channel_mean(shown[0] - shown[1])
    rms = P.rms_difference(out, ref)
    title = f"{label} − reference, rms {rms:.3g}" + (f" · overview ÷{f}" if f > 1 else "")
    panel = whole_panel(d, title, "signed", limits=limits)
    panel.factor, panel.source_shape = f, tuple(out.shape[:2])
    return panel


def modes_caption(data: ModesData) -> str:
    """What the Modes figure shows, every number in its titles included."""
    text = ("Top: the input and each mode's output, height × width in pixels, every pixel a square of whole "
            "screen pixels (grey images: orange above 1.02 and blue below −0.02 is overshoot).  Middle: the pixels "
            "inside the orange box, zoomed by a whole factor; move the box with the zoom sliders.  Bottom: each "
            f"output minus the reference ({data.reference}), mean over channels, on one signed scale; rms is "
            "the root mean square of that difference over all pixels, in pixel values (0 to 1).  A panel "
            "marked 'overview ÷f' shows the average of each f × f block, because the array is larger than its "
            "cell: judge aliasing in the zoom row.")
    notes = [f"{label}: {data.notes[label]}" for label in data.outputs if data.notes.get(label)]
    if notes:
        text += "  * " + "; ".join(notes) + "."
    return text


def modes_figure(image, modes, reference="bilinear", *, stamp="", dpi=100, **options):
    """Compute the Modes view and draw it as a matplotlib Figure (for notebooks and slides)."""
    from .export import panel_export

    return panel_export(modes_panels(compute_modes(image, modes, reference, **options)), stamp, dpi)

"""Libraries: the same nominal mode under several libraries' conventions, what a port changes.

Each library's output comes from :func:`explorer.library_resize` (its gradient from
:func:`explorer.library_resize_backward`, for one seeded random upstream gradient shared by all); the first
library that runs is the reference.  Rows: the outputs, a zoom on the box, and each output minus the
reference on one signed scale; :func:`metrics_rows` and :func:`calls_html` give the table and each library's
call, notes and code.

>>> import numpy as np
>>> from explorer.images import checkerboard
>>> data = compute_libraries(checkerboard(32, 4), "bilinear", ["torch", "pillow"], scale=0.5)
>>> fig = libraries_panels(data)
>>> fig.panels["output:pillow"].title, fig.panels["diff:torch"].title
('pillow BILINEAR 16×16', 'torch: the reference')
"""

from __future__ import annotations

import html as H

import numpy as np

from ..compute.libraries import LibrariesData, compute_libraries
from ..defaults import DEFAULT_CROP
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


def libraries_panels(data: LibrariesData, box=DEFAULT_CROP) -> PanelFigure:
    """The Libraries figure: one column per library; outputs, zooms on ``box`` and differences."""
    libs = tuple(data.outputs)
    columns = column_limits([y.shape[:2] if isinstance(y, np.ndarray) else (1, 1) for y in data.outputs.values()])
    scale = colour_scale_of(data.image)
    ref = data.outputs.get(data.reference) if data.reference else None
    panels = {}
    for lib, limits in zip(libs, columns):
        y = data.outputs[lib]
        if not isinstance(y, np.ndarray):
            panels[f"output:{lib}"] = error_panel(f"{lib}: not available", y)
            panels[f"crop:{lib}"] = panels[f"diff:{lib}"] = error_panel("", "")
            continue
        native = data.calls.get(lib, (None,))[0]  # the library's own name of the mode
        title = f"{lib}" + (f" {native}" if native else "") + f" {y.shape[0]}×{y.shape[1]}"
        panels[f"output:{lib}"] = whole_panel(y, title, scale, limits=limits)
        panels[f"crop:{lib}"] = zoom_panel(y, box, f"{lib}, zoom", scale, limits=limits)
        ref_values = panels[f"output:{data.reference}"].values if ref is not None else None
        panels[f"diff:{lib}"] = _difference(lib, y, ref, data, limits, (panels[f"output:{lib}"].values, ref_values))
    diffs = [panels[f"diff:{lib}"] for lib in libs]
    limit = symmetric_limit(p.values for p in diffs if p.values is not None)
    for p in diffs:
        recolour(p, limit)
    rows = [("each library's output" + ("" if scale else " (colour, clipped to [0, 1])"),
             [f"output:{lib}" for lib in libs]),
            ("zoom on the box: every pixel", [f"crop:{lib}" for lib in libs]),
            (f"each output minus the reference ({data.reference}), mean over channels",
             [f"diff:{lib}" for lib in libs])]
    bars = {2: ColourBar("signed", -limit, limit, "output − reference (pixel value)")}
    if scale:
        bars[0] = bars[1] = grey_bar()
    return PanelFigure("libraries", rows, panels, bars, libraries_caption(data), [c[1] for c in columns])


def _difference(lib, y, ref, data, limits, shown):
    """``y`` minus ``ref`` as a panel: the difference of the panels ``shown`` (block averages are linear)."""
    if lib == data.reference:
        return error_panel(f"{lib}: the reference", "")
    if ref is None or y.shape != ref.shape:
        return error_panel(f"{lib} − reference", "another output size" if ref is not None else "")
    f = P.reduction(y.shape, *limits)
    d = S.channel_mean(shown[0] - shown[1])
    psnr = data.metrics.get(lib, {}).get("psnr", np.nan)
    words = "identical" if psnr == np.inf else f"PSNR {psnr:.1f} dB"
    panel = whole_panel(d, f"{lib} − reference: {words}" + (f" · overview ÷{f}" if f > 1 else ""), "signed",
                        limits=limits)
    panel.factor, panel.source_shape = f, tuple(y.shape[:2])
    return panel


def libraries_caption(data: LibrariesData) -> str:
    return ("The same nominal mode under each library's convention (explorer.library_resize), every output "
            "height × width in pixels, and each output minus the reference (the first library that runs), "
            "mean over channels, on one signed scale.  PSNR: 20·log10(1 / RMSE) in dB, RMSE the root mean "
            "square of the difference in pixel values (0 to 1); 'identical': no pixel differs.  The table "
            "compares outputs and gradients (one seeded random upstream gradient) with the reference: max |Δ| "
            "the largest difference, changed the share of pixels that differ by more than 1e-6, grad cosine "
            "the cosine between the gradients.")


def metrics_rows(data: LibrariesData) -> list:
    """The metrics table as rows of strings, a header first."""
    rows = [["library", "output", "max |Δ|", "RMSE", "PSNR dB", "changed", "grad cosine"]]
    for lib, y in data.outputs.items():
        if not isinstance(y, np.ndarray):
            rows.append([lib, "error", "", "", "", "", S.wrap(str(y), 40).split("\n")[0]])
            continue
        m = data.metrics.get(lib, {})

        def fmt(v, spec):
            return "" if v is None or (isinstance(v, float) and np.isnan(v)) else format(v, spec)

        rows.append([lib, m.get("shape", ""), fmt(m.get("max_abs"), ".3g"), fmt(m.get("rmse"), ".3g"),
                     "inf" if m.get("psnr") == np.inf else fmt(m.get("psnr"), ".1f"), fmt(m.get("changed"), ".0%"),
                     fmt(m.get("grad_cosine"), ".4f")])
    return rows


def calls_html(data: LibrariesData) -> str:
    """Each library's call as it ran: its own mode name and options, the notes (fallbacks, options it lacks)
    and the code in its own API."""
    calls, notes, code = data.calls, data.notes, data.code
    items = []
    for lib in data.outputs:
        parts = [f"<b>{H.escape(lib)}</b>"]
        if lib in calls:
            native, options = calls[lib]
            opts = ", ".join(f"{k}={v!r}" for k, v in options.items())
            parts.append(f"mode <code>{H.escape(str(native))}</code>" + (f", {H.escape(opts)}" if opts else ""))
        for note in notes.get(lib, ()):
            parts.append(f"<span style='color:#8a6d00'>{H.escape(note)}</span>")
        if lib in code:
            parts.append(f"<pre style='margin:2px 0'>{H.escape(code[lib])}</pre>")
        if len(parts) > 1:
            items.append("<li>" + " · ".join(parts[:2]) + "".join(f"<br>{p}" for p in parts[2:]) + "</li>")
    return "<ul>" + "".join(items) + "</ul>" if items else ""


def libraries_figure(image, mode, libraries, *, stamp="", dpi=100, crop=DEFAULT_CROP, **options):
    """Compute the Libraries view and draw it as a matplotlib Figure."""
    from .export import panel_export

    return panel_export(libraries_panels(compute_libraries(image, mode, libraries, **options), crop), stamp, dpi)

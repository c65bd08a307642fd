"""Where a tab's figure lives: a live ipympl canvas, or a PNG in an ``ipywidgets.Image``.

Under ``%matplotlib widget`` the figure's canvas *is* a widget: artists are updated in place and the canvas
redraws itself (``draw_idle``).  Anywhere else (Colab, JupyterLite, a plain kernel, tests) the figure is
rendered with Agg and its PNG bytes go into an Image widget.

>>> host = FigureHost("image")
>>> host.figure.add_subplot().plot([0, 1])  # doctest: +ELLIPSIS
[...]
>>> host.refresh(); bytes(host.widget.value[:4])
b'\\x89PNG'
"""

from __future__ import annotations

import io

import ipywidgets as W
import numpy as np
from matplotlib.figure import Figure

from ..views.style import DPI

DISPLAYS = ("ipympl", "image")


def ipympl_active() -> bool:
    """Whether matplotlib's backend is ipympl (``%matplotlib widget`` / ``%matplotlib ipympl``)."""
    import matplotlib

    backend = str(matplotlib.get_backend()).lower()
    return "ipympl" in backend or backend == "widget"


def default_display() -> str:
    return "ipympl" if ipympl_active() else "image"


_FAST_CANVAS = None


def fast_canvas_class():
    """ipympl's Canvas, sending every frame whole, as a lightly compressed PNG.

    Whole frames: a frame sent as a difference against the previous one is applied by the browser to what
    its canvas holds, which is not the previous frame when the canvas was hidden in another tab (it then
    showed empty or stale panels).  Compression level 1 encodes a 600 x 450 frame about twice as fast as
    the default level 6, for a file about 15% larger."""
    global _FAST_CANVAS
    if _FAST_CANVAS is None:
        from ipympl.backend_nbagg import Canvas
        from PIL import Image

        class FastCanvas(Canvas):
            def get_diff_image(self):
                # matplotlib's FigureCanvasWebAggCore.get_diff_image, with compress_level=1
                try:
                    if not self._png_is_old:
                        return None
                    pixels = np.asarray(self.get_renderer().buffer_rgba())
                    buff = pixels.view(np.uint32).squeeze(2)
                    self.set_image_mode("full")
                    output = buff
                    self._last_buff = buff.copy()
                    self._force_full = False
                    self._png_is_old = False
                except AttributeError:  # another matplotlib: its own implementation
                    return super().get_diff_image()
                data = output.view(dtype=np.uint8).reshape((*output.shape, 4))
                with io.BytesIO() as png:
                    Image.fromarray(data).save(png, format="png", compress_level=1)
                    return png.getvalue()

        _FAST_CANVAS = FastCanvas
    return _FAST_CANVAS


class FigureHost:
    """A figure and the widget that shows it; :meth:`refresh` after the artists changed."""

    def __init__(self, display: str = "image", css_class: str = "explorer-figure"):
        if display not in DISPLAYS:
            from ...errors import choice_error

            raise choice_error("display", display, DISPLAYS)
        self.display = display
        if display == "ipympl":
            from ipympl.backend_nbagg import FigureManager

            self.figure = Figure(figsize=(6, 4), dpi=DPI)
            canvas = fast_canvas_class()(self.figure)
            self._manager = FigureManager(canvas, id(self))  # the canvas needs its manager to draw
            canvas.header_visible = False
            canvas.resizable = False
            canvas.toolbar_position = "right"
            self.widget = canvas
        else:
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            self.figure = Figure(figsize=(6, 4), dpi=DPI)
            FigureCanvasAgg(self.figure)
            self.widget = W.Image(format="png", layout=W.Layout(align_self="flex-start"))
        self.widget.add_class(css_class)

    def refresh(self):
        """Show the figure's current state."""
        if self.display == "ipympl":
            self.widget.draw_idle()
        else:
            self.widget.value = self.png(fast=True)

    def render(self):
        """Draw the figure now (Agg); what ipympl does when the browser asks for a frame."""
        self.figure.canvas.draw()

    def png(self, fast: bool = False) -> bytes:
        """The figure as PNG bytes.  ``fast``: light compression (for live updates)."""
        if not fast or self.display != "image":
            buf = io.BytesIO()
            self.figure.savefig(buf, format="png", dpi=self.figure.dpi)
            return buf.getvalue()
        from PIL import Image

        self.figure.canvas.draw()
        rgba = np.asarray(self.figure.canvas.buffer_rgba())
        buf = io.BytesIO()
        Image.fromarray(rgba[:, :, :3]).save(buf, format="PNG", compress_level=1)
        return buf.getvalue()

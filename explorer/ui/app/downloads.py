"""The export row: one click downloads the visible tab's figure (PNG at a chosen dpi, SVG or PDF), the
configuration (JSON) or the fix code.

The file is made in the kernel and handed to the page as a data link that clicks itself once (an ``<img>``
whose source cannot load runs the click), so one click on the button is one download; the link stays for a
second copy.
"""

from __future__ import annotations

import base64
import html

import ipywidgets as W

from ..views.export import DPIS, FORMATS

MIME = {"png": "image/png", "svg": "image/svg+xml", "pdf": "application/pdf", "json": "application/json",
        "txt": "text/plain"}


class Downloads:
    """The export widgets of ``app``: format and dpi choices, three buttons, the link and a text area."""

    def __init__(self, app):
        self.app = app
        self.count = 0
        style = {"description_width": "initial"}
        self.format = W.Dropdown(options=FORMATS, value="png", description="figure as", style=style,
                                 layout=W.Layout(width="160px"))
        self.format.add_class("explorer-export-format")
        self.dpi = W.Dropdown(options=DPIS, value=150, description="dpi", style=style,
                              layout=W.Layout(width="120px"),
                              tooltip="pixels per inch of a PNG: 100 makes a figure 1600 pixels wide")
        self.dpi.add_class("explorer-export-dpi")
        self.page = W.Dropdown(options=[("page", "page"), ("slide 16:9", "slide")], value="page",
                               description="on a", style=style, layout=W.Layout(width="170px"),
                               tooltip="a page 16 inches wide, or a 13.33 x 7.5 inch slide with 18 pt text")
        self.page.add_class("explorer-export-page")
        self.caption = W.Checkbox(value=True, description="caption", indent=False, layout=W.Layout(width="auto"))
        self.caption.add_class("explorer-export-caption")
        buttons = []
        for name, text, handler in (("figure", "download figure", self.figure),
                                    ("config", "configuration (JSON)", self.config),
                                    ("code", "fix code", self.code)):
            b = W.Button(description=text, layout=W.Layout(width="190px"))
            b.add_class(f"explorer-export-{name}")
            b.on_click(handler)
            buttons.append(b)
        self.link = W.HTML()
        self.link.add_class("explorer-export")
        self.text = W.Textarea(layout=W.Layout(width="100%", height="140px", display="none"))
        self.text.add_class("explorer-export-text")
        self.widget = W.VBox([W.HBox([self.format, self.dpi, self.page, self.caption] + buttons, layout=W.Layout(flex_flow="row wrap")),
                              self.link, self.text])

    def offer(self, data: bytes, filename: str, what: str):
        """Download ``data`` as ``filename`` now (the link clicks itself), and keep the link."""
        self.count += 1
        kind = MIME[filename.rsplit(".", 1)[1]]
        url = f"data:{kind};base64,{base64.b64encode(data).decode()}"
        name = html.escape(filename)
        self.link.value = (f"<a download='{name}' href='{url}' data-n='{self.count}'>{html.escape(what)}: {name} "
                           f"({max(1, len(data) // 1024)} KiB) — download again</a><img src='data:,' alt='' "
                           f"style='display:none' onerror='this.previousElementSibling.click(); this.remove()'>")

    def figure(self, _=None):
        tab, fmt, dpi = self.app.state["tab"], self.format.value, int(self.dpi.value)
        slide = self.page.value == "slide"
        data = self.app.figure_bytes(tab, fmt=fmt, dpi=dpi, slide=slide, caption=self.caption.value)
        self.text.layout.display = "none"
        self.offer(data, f"explorer-{tab}" + ("-slide" if slide else "") + (f"-{dpi}dpi" if fmt == "png" else "")
                   + f".{fmt}", f"the {tab} figure")

    def _text(self, text, filename, what):
        self.text.value = text
        self.text.layout.display = None
        self.offer(text.encode(), filename, what)

    def config(self, _=None):
        self._text(self.app.config_json(), "explorer-config.json", "configuration")

    def code(self, _=None):
        code = self.app.fix_code() or "# no fixes: the advisor found nothing to fix for this backend setup"
        self._text(code, "explorer-fixes.txt", "fix code")

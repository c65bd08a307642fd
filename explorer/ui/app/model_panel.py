"""The Backends tab's "Model" entry: upload an .onnx file, see every resize node and its findings.

The nodes are scanned with :func:`explorer.scan` for the app's backend, version, device and training, and
scanned again when those change.  A file larger than :data:`explorer.limits.APP_MAX_MODEL_BYTES` or one that is
not a model is refused with a message; the previous model stays.

>>> from explorer.ui.app.model_panel import ModelPanel
>>> panel = ModelPanel(lambda: {"backend": "onnxruntime", "version": None, "device": None, "training": False})
>>> "upload an .onnx file" in panel.table.value
True
"""

from __future__ import annotations

import html

import ipywidgets as W

from ...limits import APP_MAX_MODEL_BYTES

_COLOURS = {"error": "#b00000", "differs": "#c05000", "warning": "#8a6d00", "info": "#444"}
_LIBRARIES = ("torch", "onnx", "burn")


class ModelPanel:
    """An upload button and the scanned nodes (``setup()`` returns backend, version, device and training)."""

    def __init__(self, setup):
        self.setup = setup
        self.upload = W.FileUpload(accept=".onnx", multiple=False, description="Model (.onnx)",
                                   layout=W.Layout(width="180px"))
        self.upload.add_class("explorer-model-upload")
        self.table = W.HTML(layout=W.Layout(max_width="1100px"))
        self.table.add_class("explorer-model-nodes")
        self.name = None
        self.data = None
        self.result = None
        self.error = None
        self._key = None
        self.upload.observe(self._on_upload, "value")
        self.widget = W.VBox([W.HTML("<b>Model</b>: every Resize/Upsample node of an ONNX file, what computes "
                                     "the same in each library, and the findings for the backend above."),
                              self.upload, self.table])
        self.widget.add_class("explorer-model")
        self.render()

    # ------------------------------------------------------------------ input
    def load(self, data: bytes, name: str = "model.onnx") -> "ModelPanel":
        """Scan the model in ``data`` (the file's bytes); a refused file keeps the previous model."""
        if len(data) > APP_MAX_MODEL_BYTES:
            self.error = (f"{name}: {len(data) / 2**20:.1f} MiB is more than the explorer reads "
                          f"({APP_MAX_MODEL_BYTES // 2**20} MiB); scan it with python -m explorer scan")
            self.render()
            return self
        previous = self.name, self.data, self.result, self._key
        self.name, self.data, self._key, self.error = name, bytes(data), None, None
        try:
            self.refresh()
        except (ValueError, TypeError, OSError) as exc:
            self.name, self.data, self.result, self._key = previous
            self.error = f"{name}: {exc}"
            self.render()
        except Exception as exc:  # noqa: BLE001 - an uploaded model never breaks the handler: it is refused
            self.name, self.data, self.result, self._key = previous
            self.error = f"{name}: this model cannot be scanned ({type(exc).__name__}: {exc})"
            self.render()
        return self

    def _on_upload(self, change):
        if not change["new"]:
            return
        item = change["new"][0]
        self.load(bytes(item["content"]), str(item.get("name", "model.onnx")))

    # ------------------------------------------------------------------ scanning
    def refresh(self) -> bool:
        """Scan again when the model or the setup changed; True when it did."""
        if self.data is None:
            self.render()
            return False
        s = self.setup()
        key = (self.name, len(self.data), s["backend"], s["version"], s["device"], bool(s["training"]))
        if key == self._key:
            return False
        from ...advisor.scan import scan  # the scanner (and ONNX) only when a model is uploaded

        self.result = scan(self.data, backend=s["backend"], version=s["version"], device=s["device"],
                           training=bool(s["training"]))
        self._key = key
        self.render()
        return True

    # ------------------------------------------------------------------ drawing
    def render(self):
        parts = []
        if self.error:
            parts.append(f"<p class='explorer-model-error' style='color:#b00000'>{html.escape(self.error)}</p>")
        if self.result is None:
            parts.append("<p>upload an .onnx file to list its resize nodes</p>")
            self.table.value = "".join(parts)
            return
        r = self.result
        what = "training" if r.training else "inference"
        parts.append(f"<p><b>{html.escape(self.name)}</b>: {len(r)} resize node(s) on {html.escape(r.backend)} "
                     f"{html.escape(r.version or '')} ({what}), {r.errors} error(s)</p>")
        head = ["node", "op", "input → output", "mode"] + [f"= {lib}" for lib in _LIBRARIES] + ["worst"]
        rows = []
        for n in r:
            shapes = f"{_shape(n.input_shape)} → {_shape(n.output_shape)}"
            same = [n.equivalent_in(lib) for lib in _LIBRARIES]
            worst = n.severity or "-"
            cells = [n.node, n.op_type, shapes, str(n.attributes.get("mode"))]
            cells += ["—" if e is None else e["mode"] for e in same]
            colour = _COLOURS.get(worst, "#444")
            rows.append("<tr>" + "".join(f"<td style='padding:2px 8px'>{html.escape(str(c))}</td>" for c in cells)
                        + f"<td style='padding:2px 8px;color:{colour}'><b>{html.escape(worst)}</b></td></tr>")
        header = "".join(f"<th style='padding:2px 8px'>{html.escape(h)}</th>" for h in head)
        parts.append(f"<table><tr>{header}</tr>{''.join(rows)}</table>")
        for n in r:
            items = []
            for f in n.findings:
                if f.severity == "info":
                    continue
                text = (f"<span style='color:{_COLOURS[f.severity]}'><b>{f.severity}</b></span>: "
                        f"{html.escape(f.message)}")
                if f.error_text:
                    text += f"<br><code>{html.escape(f.error_text)}</code>"
                for fix in f.fixes:
                    text += f"<br>fix: {html.escape(str(fix))}"
                items.append(f"<li>{text}</li>")
            if items:
                parts.append(f"<p><b>{html.escape(n.node)}</b></p><ul>{''.join(items)}</ul>")
        self.table.value = "".join(parts)


def _shape(shape) -> str:
    return "?" if shape is None else "×".join("?" if d is None else str(d) for d in shape)

"""A list of choices that adds and removes with a plain click: one toggle button per option (an HTML
multiple selection drops the whole selection on a click without Ctrl).

``value`` is the tuple of chosen options, in the order they were chosen; it is set like any widget's value.

>>> w = ToggleList(["nearest", "bilinear", "bicubic"], ("bicubic",), "compare")
>>> w.buttons[0].value = True  # a click on "nearest" adds it
>>> w.value
('bicubic', 'nearest')
>>> w.buttons[2].value = False  # a click on "bicubic" removes it
>>> w.value, [b.value for b in w.buttons]
(('nearest',), [True, False, False])
"""

from __future__ import annotations

import ipywidgets as W
import traitlets


class ToggleList(W.HBox):
    """Toggle buttons for ``options`` (strings, or (label, value) pairs), ``value`` the chosen ones."""

    value = traitlets.Tuple()
    options = traitlets.Tuple()
    disabled = traitlets.Bool(False)
    description = traitlets.Unicode("")

    def __init__(self, options, value=(), description="", **kwargs):
        self._label = W.Label(description, layout=W.Layout(width="auto", min_width="max-content"))
        self._label.add_class("xf-toggle-label")
        self._row = W.HBox(layout=W.Layout(flex_flow="row wrap", width="auto"))
        self.buttons, self._setting = [], False
        super().__init__([self._label, self._row], **kwargs)
        self.add_class("xf-toggle-list")
        self.description = description
        self.options = tuple(options)
        self.value = tuple(value)

    def _pairs(self):
        return [o if isinstance(o, tuple) else (str(o), o) for o in self.options]

    @traitlets.observe("options")
    def _rebuild(self, change):
        self.buttons = []
        for label, item in self._pairs():
            button = W.ToggleButton(value=item in self.value, description=label, disabled=self.disabled,
                                    tooltip=f"add or remove {label}", layout=W.Layout(width="auto"))
            button.observe(lambda change, item=item: self._clicked(item, change["new"]), "value")
            self.buttons.append(button)
        self._row.children = tuple(self.buttons)

    @traitlets.observe("value")
    def _show_value(self, change):
        self._setting = True
        try:
            for button, (_, item) in zip(self.buttons, self._pairs()):
                button.value = item in self.value
        finally:
            self._setting = False

    @traitlets.observe("disabled")
    def _show_disabled(self, change):
        for button in self.buttons:
            button.disabled = change["new"]

    @traitlets.observe("description")
    def _show_description(self, change):
        self._label.value = change["new"]

    def _clicked(self, item, on):
        if self._setting:
            return
        chosen = [v for v in self.value if v != item]
        self.value = tuple(chosen + [item] if on else chosen)

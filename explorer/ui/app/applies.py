"""Which controls cannot change what the visible tab shows, and why: such a control is greyed out with the
reason as its tooltip, never silently ignored.

>>> from explorer.ui.app.state import State
>>> s = State(modes=("nearest", "area"))
>>> disabled(s, "modes")["align_corners"]
'align_corners does not apply to nearest, area or lanczos under the torch convention'
>>> "antialias" in disabled(s, "pick"), "seed" in disabled(s, "gradients")
(True, True)
"""

from __future__ import annotations

from functools import lru_cache

from ...conventions.image_resize import ImageResize
from ...conventions.mode_names import libraries as library_ids
from .declared import tab_class


def tab_modes(state, tab: str) -> tuple:
    """(modes, libraries) whose options align_corners and antialias act on in ``tab`` (its declaration's
    ``option_targets``)."""
    modes, libraries = tab_class(tab).option_targets(state)
    return tuple(dict.fromkeys(modes)), tuple(libraries)


@lru_cache(maxsize=512)
def takes(option: str, mode: str, library: str) -> bool:
    """Whether ``library`` passes ``option`` to ``mode`` (``lanczos`` is always antialiased: it does not)."""
    try:
        r = ImageResize(mode, scale=1.0, library=library, **{option: True})
    except ValueError:
        return False
    return option in r.options() and not any("always" in n for n in r.notes)


def _or(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def disabled(state, tab: str, backends: dict | None = None) -> dict:
    """control key -> why it cannot change what ``tab`` shows, for the controls that cannot."""
    out = {}
    modes, libraries = tab_modes(state, tab)
    for option in ("align_corners", "antialias"):
        if tab == "pick" and option == "antialias":
            out[option] = "Pick a mode ranks every mode both with and without antialias"
        elif modes and not any(takes(option, m, lib) for m in modes for lib in libraries if lib in library_ids()):
            out[option] = (f"{option} does not apply to {_or(modes)} under the "
                           f"{_or(libraries)} convention")
    if state["upstream"] != "random":
        out["seed"] = "the seed draws the random upstream gradient: choose upstream gradient = random"
    entry = (backends or {}).get(state["backend"])
    if entry is not None:
        versions, devices, opsets = entry[0], entry[1], entry[2]
        for key, values, what in (("version", versions, "versions"), ("device", devices, "devices"),
                                  ("opset", opsets, "ONNX opsets")):
            if not values:
                out[key] = f"the knowledge base lists no {what} of {state['backend']}"
    return out

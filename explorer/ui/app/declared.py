"""The explorer's tabs and settings as declarations: every table the app reads is derived from them.

A *setting* is one key of the app's state, declared once with its default, its check and the widget that shows
it (:class:`Setting`).  A *tab* is one class (:class:`explorer.ui.app.tabs.Tab`) registered with
:func:`register_tab`: its name, title, the keys it redraws on, its own controls, the settings only it uses,
and its compute and draw.  The state's defaults and checks, the controls, the tab list and the link keys all
come from here, so a tab declared in one module appears in every one of them.

>>> "modes" in tab_names(), DEFAULTS["scale"], "length" in DEFAULTS
(True, 0.4, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Callable

from ...errors import ArgumentValueError


@dataclass(frozen=True)
class Setting:
    """One key of the state.

    ``check(state, value, changes)`` returns the normalised value or raises a ValueError naming the key, the
    value and the valid choices (``changes`` is the whole batch, for checks that depend on another key).
    ``widget(value, state)`` makes the ipywidget that shows it (None: no widget of its own); ``to_widget`` and
    ``from_widget`` convert between the state's value and the widget's.  ``label`` names it on the page.
    """

    key: str
    default: object
    check: Callable
    widget: Callable | None = None
    to_widget: Callable | None = None
    from_widget: Callable | None = None
    label: str = ""


_SHARED: dict[str, Setting] = {}
_TABS: list = []
_LOADED = []


def _load():
    """The app's own declarations (the shared settings and the six tabs), imported on first use."""
    if not _LOADED:
        _LOADED.append(True)
        from . import settings, tabs  # noqa: F401 - each declares itself here


def share(*settings: Setting) -> None:
    """Declare settings every tab may read (the image, the resize, the mode...)."""
    for s in settings:
        _SHARED[s.key] = s


def register_tab(cls):
    """Declare a tab class (a decorator): it is placed after the tabs declared before it."""
    if not cls.name or any(t.name == cls.name for t in _TABS):
        raise ArgumentValueError(f"a tab needs a new name; {cls.name!r} is empty or taken")
    taken = set(_SHARED) | {s.key for t in _TABS for s in t.settings}
    clash = [s.key for s in cls.settings if s.key in taken]
    if clash:
        raise ArgumentValueError(f"tab {cls.name!r} declares setting {clash[0]!r}, which is declared already")
    _TABS.append(cls)
    return cls


def unregister_tab(name: str) -> None:
    _TABS[:] = [t for t in _TABS if t.name != name]


def tab_classes() -> tuple:
    _load()
    return tuple(_TABS)


def tab_names() -> tuple[str, ...]:
    _load()
    return tuple(t.name for t in _TABS)


def tab_class(name: str):
    _load()
    for t in _TABS:
        if t.name == name:
            return t
    from ...errors import choice_error

    raise choice_error("tab", name, tab_names())


def all_settings() -> dict[str, Setting]:
    """Every setting: the shared ones, then each tab's own, in declaration order."""
    _load()
    out = dict(_SHARED)
    for t in _TABS:
        out.update((s.key, s) for s in t.settings)
    return out


class _Defaults(Mapping):
    """The default of every setting (a live view: a tab declared later adds its own)."""

    def __getitem__(self, key):
        return all_settings()[key].default

    def __iter__(self):
        return iter(all_settings())

    def __len__(self):
        return len(all_settings())

    def __repr__(self):
        return repr(dict(self))


class _Tabs(Sequence):
    """The tab names in order (a live view)."""

    def __getitem__(self, index):
        return tab_names()[index]

    def __len__(self):
        return len(tab_names())

    def __repr__(self):
        return repr(tab_names())


DEFAULTS = _Defaults()
TABS = _Tabs()

"""Send the explorer's widgets again after a page has loaded them, so that no update is lost to the page's load.

A page that connects to a running kernel (Voila, or a notebook reopened in JupyterLab) asks for every widget's
state at once on the ``jupyter.widget.control`` channel, then creates one model per widget.  An update the
kernel sends after answering and before the page has created that widget's model is dropped by the page
(no model listens yet), and since the kernel only sends values that change, the page keeps the stale value
until it changes again.  The render worker prepares the hidden tabs exactly while pages load, so a tab could
open with an old caption or an empty selection.  When a page asks for the states, each explorer sends the
state of all its widgets again once :data:`SETTLE_S` has passed, and each tab again the first time it is shown.

>>> import explorer.ui.app.page_load as page_load
>>> page_load.SETTLE_S
2.0
"""

from __future__ import annotations

import weakref

#: Seconds between a page asking for the widgets' states and the explorer sending them again.
SETTLE_S = 2.0
CONTROL_TARGET = "jupyter.widget.control"

_apps: weakref.WeakSet = weakref.WeakSet()


def watch(app) -> bool:
    """Call ``app.page_loaded()`` whenever a page asks this kernel for the widgets' states; False when there
    is no comm manager (outside a kernel)."""
    from ipywidgets import comm

    manager = comm.get_comm_manager()
    if manager is None:
        return False
    _apps.add(app)
    if manager.targets.get(CONTROL_TARGET) is not control_opened:
        manager.register_target(CONTROL_TARGET, control_opened)
    return True


def control_opened(comm, msg):
    """ipywidgets' own handler (it answers the page), then every watched explorer hears that a page loads."""
    import ipywidgets as W

    W.Widget.handle_control_comm_opened(comm, msg)
    for app in list(_apps):
        if not app.renderer.loop.is_closed():  # an explorer of a finished event loop shows nothing
            app.page_loaded()


def resend(widget) -> int:
    """Send the whole state of ``widget`` and of every widget inside it; the number of widgets sent."""
    seen, stack = set(), [widget]
    while stack:
        w = stack.pop()
        if id(w) in seen or getattr(w, "comm", None) is None:
            continue
        seen.add(id(w))
        w.send_state()
        stack.extend(getattr(w, "children", ()))
        layout = getattr(w, "layout", None)
        if layout is not None:
            stack.append(layout)
    return len(seen)

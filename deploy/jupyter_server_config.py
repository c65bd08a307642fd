"""Jupyter server (JupyterLab, and each student's server under JupyterHub) for a class: kernels of closed
notebooks and explorer pages are shut down, and each explorer prepares only the tabs its page has shown.

    jupyter lab --config=deploy/jupyter_server_config.py notebooks/explorer.ipynb

JupyterHub's single-user servers read it through ``deploy/jupyterhub_config.py``.  A kernel nobody is connected
to (its notebook tab or Voila page closed) and idle for ``cull_idle_timeout`` seconds is shut down, checked every
``cull_interval`` seconds; an open notebook keeps its kernel.  The numbers can be set from the environment
(``EXPLORER_CULL_IDLE_TIMEOUT``, ``EXPLORER_CULL_INTERVAL``) or on the command line, which wins over this file.
"""

import os

c = get_config()  # noqa: F821 - defined by the configuration loader


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    try:
        return int(text) if text.strip() else default
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a whole number of seconds (default {default})") from None


c.MappingKernelManager.cull_idle_timeout = _number("EXPLORER_CULL_IDLE_TIMEOUT", 600)
c.MappingKernelManager.cull_interval = _number("EXPLORER_CULL_INTERVAL", 60)
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False
# The server gives its environment to every kernel: explorers prepare only the tabs their page has shown
# (explorer/ui/app/render.py), which a class sharing a machine's CPUs needs.
os.environ.setdefault("EXPLORER_PREPARE_HIDDEN", "opened")

"""Voila for a class: one server, one kernel per open page, and no kernel left behind.

Voila starts a kernel for every page it serves and, out of the box, never shuts down the kernel of a page that
was closed or reloaded: a class that reloads a few times fills the machine with kernels nobody sees.  This file
makes the server cull them and caps how many run at once:

    voila notebooks/explorer.ipynb --Voila.config_file_paths=deploy      # (Voila reads deploy/voila.py)

* A kernel whose page is gone (no websocket connected) and that has been idle for ``cull_idle_timeout``
  seconds is shut down; the culler looks every ``cull_interval`` seconds.  A page that is still open keeps its
  kernel however long the student is away (``cull_connected = False``); a connection that died without closing
  (a laptop put to sleep) is dropped by the server's websocket pings within about 90 s, and then culled.
* Each kernel prepares only the tabs its page has shown (``EXPLORER_PREPARE_HIDDEN=opened``, inherited by the
  kernels): preparing all five hidden tabs after every change costs about ten times the CPU of the visible one,
  which a class on one machine cannot afford, and a tab never opened imports nothing it draws with.
* At most ``max_kernels`` kernels run at once.  A new page past that first shuts down the kernel whose page has
  been gone the longest (no connection, idle at least ``evict_after`` seconds) and, when every kernel still has
  its page, is refused with HTTP 503 and a sentence saying why, instead of exhausting the machine's memory.

Each number can be set from the environment (``EXPLORER_CULL_IDLE_TIMEOUT``, ``EXPLORER_CULL_INTERVAL``,
``EXPLORER_MAX_KERNELS``, ``EXPLORER_EVICT_AFTER``) or on the command line, which wins over this file
(``--MappingKernelManager.cull_idle_timeout=120``, ``--ClassroomKernelManager.max_kernels=60``).  The numbers
measured with them, and how many students one machine holds, are in the README (``benchmarks/classroom_load.py``).
"""

import os

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Integer

c = get_config()  # noqa: F821 - defined by the configuration loader


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    try:
        return int(text) if text.strip() else default
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a whole number of seconds or kernels (default {default})") from None


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with a cap on running kernels: a new page past the cap first takes the place of
    the longest-gone page's kernel, and is refused with 503 when every kernel still has its page."""

    max_kernels = Integer(_number("EXPLORER_MAX_KERNELS", 40), config=True,
                          help="Most kernels running at once (0: no cap).")
    evict_after = Integer(_number("EXPLORER_EVICT_AFTER", 60), config=True,
                          help="A kernel with no page connected and idle this many seconds may be shut down to "
                               "make room for a new page when the cap is reached.")

    _starting = 0

    def _gone(self) -> list:
        """Kernels with no connection, idle at least evict_after seconds, the longest idle first."""
        from jupyter_server._tz import utcnow

        now, found = utcnow(), []
        for kernel_id in self.list_kernel_ids():
            kernel = self._kernels.get(kernel_id)
            last = getattr(kernel, "last_activity", None)
            if kernel is None or last is None or self._kernel_connections.get(kernel_id, 0):
                continue
            idle = (now - last).total_seconds()
            if idle >= self.evict_after and getattr(kernel, "execution_state", "") != "busy":
                found.append((idle, kernel_id))
        return [kernel_id for _, kernel_id in sorted(found, reverse=True)]

    async def start_kernel(self, *args, **kwargs):
        if self.max_kernels > 0 and kwargs.get("kernel_id") is None:
            while len(self.list_kernel_ids()) + self._starting >= self.max_kernels:
                gone = self._gone()
                if not gone:
                    self.log.warning("Refusing a new page: %d kernels running, the cap is %d",
                                     len(self.list_kernel_ids()), self.max_kernels)
                    raise web.HTTPError(503, reason=(
                        f"This server already runs {self.max_kernels} explorers, its limit; every one has its page "
                        "open. Close a page you no longer use, or try again in a few minutes."))
                self.log.warning("Shutting down kernel %s (its page is gone) to make room for a new page", gone[0])
                await self.shutdown_kernel(gone[0])
        self._starting += 1
        try:
            return await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1


os.environ.setdefault("EXPLORER_PREPARE_HIDDEN", "opened")  # Voila gives its environment to every kernel
c.VoilaConfiguration.multi_kernel_manager_class = ClassroomKernelManager
c.MappingKernelManager.cull_idle_timeout = _number("EXPLORER_CULL_IDLE_TIMEOUT", 600)
c.MappingKernelManager.cull_interval = _number("EXPLORER_CULL_INTERVAL", 60)
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

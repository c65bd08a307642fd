"""How many BLAS threads a contraction may use (one by default).

On a shared machine more threads are often slower, and the benchmark compares single-threaded libraries, so
numpy's BLAS is held to :data:`BLAS_THREADS` threads (threadpoolctl) inside every contraction.  The app uses
the same limiter.
"""

from __future__ import annotations

import contextlib

#: BLAS threads used inside a resize (None leaves numpy's setting alone).
BLAS_THREADS: int | None = 1

_controller = None


@contextlib.contextmanager
def blas_threads():
    """Hold numpy's BLAS to :data:`BLAS_THREADS` threads inside the block."""
    global _controller
    if BLAS_THREADS is None:
        yield
        return
    try:
        if _controller is None:
            from threadpoolctl import ThreadpoolController

            _controller = ThreadpoolController()
        ctx = _controller.limit(limits=BLAS_THREADS, user_api="blas")
    except Exception:  # threadpoolctl missing or unable to inspect: run with numpy's own setting
        ctx = contextlib.nullcontext()
    with ctx:
        yield

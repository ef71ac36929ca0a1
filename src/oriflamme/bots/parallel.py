"""Worker processes shared by the searches of one process, for root-parallel search.

A search bot with ``workers=N`` runs N independent searches of one decision at once (root
parallelisation: each with its own seed and share of the iterations, the root statistics summed
at the end), N - 1 of them here. The pool is started at the first such decision and kept for the
life of the process, so that bots built per decision (the server does) pay the start once.
On Linux the processes are forked from the first caller (quick, and a script without an
``if __name__ == "__main__":`` guard is not run again); elsewhere they are spawned.

If no pool can be started (a sandbox that forbids processes), :func:`shared_pool` returns None
and the searches run one after the other in this process: the same answer, more slowly.
"""

from __future__ import annotations

import atexit
import multiprocessing
import sys
import threading
from concurrent.futures import Executor, ProcessPoolExecutor

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_size = 0
_serial = False


def shared_pool(workers: int) -> Executor | None:
    """A pool of at least ``workers`` processes, or None if processes cannot be started."""
    global _pool, _size, _serial
    with _lock:
        if _serial:
            return None
        if _pool is None or _size < workers:
            if _pool is not None:
                _pool.shutdown(wait=False, cancel_futures=True)
            try:
                method = "fork" if sys.platform.startswith("linux") else "spawn"
                context = multiprocessing.get_context(method)
                _pool = ProcessPoolExecutor(workers, mp_context=context)
            except (OSError, ValueError, NotImplementedError):
                _serial = True
                _pool = None
                return None
            _size = workers
        return _pool


def discard_pool() -> None:
    """Stop the shared pool (a broken pool is replaced at the next decision)."""
    global _pool, _size
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool, _size = None, 0


def disable_pool() -> None:
    """Run every later search of this process serially (tests compare both ways)."""
    global _serial
    discard_pool()
    with _lock:
        _serial = True


def enable_pool() -> None:
    """Undo :func:`disable_pool`."""
    global _serial
    with _lock:
        _serial = False


atexit.register(discard_pool)

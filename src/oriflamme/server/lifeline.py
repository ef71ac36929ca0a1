"""Processes that must not outlive the process that started them (stdlib only)."""

from __future__ import annotations

import os
import threading
import time

#: Seconds between checks that the parent is still alive.
PARENT_CHECK_S = 1.0


def end_with(parent: int) -> None:
    """End this process (at once, without clean-up) when ``parent`` is no longer its parent:
    the parent died, even by ``kill -9``, or had died before this was called."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()

"""A server process that stops cleanly: on SIGTERM or SIGINT (Ctrl-C) it shuts down (the app's
stop: bot claims given back, bot workers ended, the database closed) and then exits normally,
with status 0.

uvicorn's own server sends the signal to itself again once it has shut down, so that its
process ends "by the signal" (status 143 for SIGTERM): a service manager or a script then sees
a failure where the stop was asked for and went well. A process killed by a signal also skips
its exit work (``atexit``, multiprocessing's finalizers): the bot pool's semaphores would be
left behind ("leaked semaphore objects"). With ``--workers`` each worker process runs this
server too (:func:`run_workers`).
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator

import uvicorn
from uvicorn.supervisors import multiprocess

from . import draining, metrics

#: The signals that ask the server to stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class CleanStopServer(uvicorn.Server):
    """uvicorn's server, ending normally once a stop signal has shut it down; its shutdown
    hands the app's WebSockets over a batch at a time once it stopped accepting connections
    (``draining``), then does uvicorn's (which closes those left)."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # stop accepting: new connections go to another process
            server.close()
        for sock in sockets or []:
            sock.close()
        await draining.hand_over_all()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only
            return
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


class CleanStopProcess(multiprocess.Process):
    """A worker process of uvicorn's process manager that runs a :class:`CleanStopServer`
    (pickled to the spawned worker by name: this module is imported there)."""

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = CleanStopServer(config=self.config)
        return self._server

    def join(self) -> None:
        """Wait for the worker to end (the manager does, whether it stopped, died or was
        killed); then its live gauges leave the metrics' sum, even if it could not say so
        itself (``kill -9``, a crash)."""
        super().join()
        if self.pid is not None:
            metrics.process_stopped(self.pid)


def run_workers(app: str, workers: int, **options: object) -> None:
    """uvicorn's process manager with ``workers`` processes, each ending normally once a stop
    signal has shut it down (the manager itself ends with status 0)."""
    # The manager names its worker class as a module global; this process only supervises.
    multiprocess.Process = CleanStopProcess  # type: ignore[misc]
    uvicorn.run(app, workers=workers, **options)  # type: ignore[arg-type]

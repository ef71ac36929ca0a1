"""A real ``oriflamme serve`` for a module of browser tests: a fresh SQLite database in
``folder``, bots that answer at once, and whatever else the tests ask for (``options``,
``env``); yields its address, and stops it at the end of the ``with``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from servers import running_server


@contextmanager
def serving(
    folder: Path, options: Sequence[str] = (), env: Mapping[str, str] | None = None
) -> Iterator[str]:
    """The server's address (``http://127.0.0.1:PORT``) while it runs; its log is
    ``folder/server.log``."""
    db, log = folder / "games.sqlite3", folder / "server.log"
    with running_server(db, log, "--bot-delay", "0", *options, env=env) as (_, client):
        yield str(client.base_url).rstrip("/")

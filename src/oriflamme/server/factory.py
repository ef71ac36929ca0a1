"""The app built from the environment, for ``oriflamme serve`` and its worker processes.

``ORIFLAMME_DB``: where the games are (a ``postgresql://`` address or an SQLite path);
``ORIFLAMME_BOT_DELAY``: the bots' shortest pause in seconds (default 0.8);
``ORIFLAMME_TABLES_PER_HOUR``, ``ORIFLAMME_BOT_TABLES``, ``ORIFLAMME_PUBLIC_TABLES``,
``ORIFLAMME_QUEUED_ANALYSES``: the per-address quotas;
``ORIFLAMME_API_DOCS``: ``1`` serves Swagger UI at ``/docs`` (``serve --api-docs``);
``ORIFLAMME_BODY_TIMEOUT``: seconds a request's body may take to arrive (0: no deadline; the
connection-level limits, read by ``connections``, are ``ORIFLAMME_HEADER_TIMEOUT`` and
``ORIFLAMME_CONNECTIONS_PER_ADDRESS``);
``ORIFLAMME_LOG_FORMAT``: ``json`` when ``serve --log-format json`` (the app then logs each
request); ``ORIFLAMME_METRICS_FROM``: who besides loopback may read ``/metrics``;
``ORIFLAMME_SUPERVISOR``: the process id of ``serve`` when it runs several worker processes,
which then end with it.
"""

from __future__ import annotations

import os

from fastapi import FastAPI

from .app import create_app
from .lifeline import end_with
from .limits import BODY_TIMEOUT
from .log_format import LOG_FORMAT_ENV
from .quotas import Quotas


def app_from_environment() -> FastAPI:
    """The server's app as ``oriflamme serve`` configured it (uvicorn's ``factory``)."""
    supervisor = os.environ.get("ORIFLAMME_SUPERVISOR")
    if supervisor and int(supervisor) != os.getpid():
        end_with(int(supervisor))
    url = os.environ.get("ORIFLAMME_DB")
    if not url:
        raise RuntimeError("ORIFLAMME_DB is not set: start the server with 'oriflamme serve'")
    defaults = Quotas()
    quotas = Quotas(
        tables_per_hour=int(os.environ.get("ORIFLAMME_TABLES_PER_HOUR", defaults.tables_per_hour)),
        bot_tables=int(os.environ.get("ORIFLAMME_BOT_TABLES", defaults.bot_tables)),
        public_tables=int(os.environ.get("ORIFLAMME_PUBLIC_TABLES", defaults.public_tables)),
        queued_analyses=int(
            os.environ.get("ORIFLAMME_QUEUED_ANALYSES", defaults.queued_analyses)
        ),
    )
    bot_delay = float(os.environ.get("ORIFLAMME_BOT_DELAY", "0.8"))
    api_docs = os.environ.get("ORIFLAMME_API_DOCS") == "1"
    body_timeout = float(os.environ.get("ORIFLAMME_BODY_TIMEOUT", BODY_TIMEOUT))
    return create_app(
        url, bot_delay=bot_delay, quotas=quotas, api_docs=api_docs, body_timeout=body_timeout,
        access_log=os.environ.get(LOG_FORMAT_ENV) == "json",
    )

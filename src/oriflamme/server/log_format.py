"""The server's log lines (``oriflamme serve --log-format``; docs/server.md, "Logs"): people's
lines by default, or one JSON object per line for log collectors. Tokens never appear in
either: the query parameters that carry them are hidden (``token=…``)."""

from __future__ import annotations

import json
import logging
import re
import time
from typing import Any

from . import log_context

#: The log format ``serve`` chose (``text`` or ``json``), for the app of each process.
LOG_FORMAT_ENV = "ORIFLAMME_LOG_FORMAT"
#: Query parameters that carry a secret (a seat's or spectator's token, a page's seat link).
_TOKEN_PARAM = re.compile(r"\b(token|seat|watch|creator_token)=[^&\s\"']+")
#: Fields a log call may add (``extra=``) that the JSON line keeps.
_EXTRA = ("event", "method", "path", "status", "code", "duration_ms")


def redact(text: str) -> str:
    """``text`` with the values of token-carrying query parameters hidden."""
    return _TOKEN_PARAM.sub(r"\1=…", text)


class RedactTokens(logging.Filter):
    """Hide tokens in the arguments of log records (uvicorn's access lines carry the query)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


class AnsweredErrors(logging.Filter):
    """Drop uvicorn's traceback of an unexpected error the app answered ``500
    internal_error``: the app logged it already, with its request id, at most once per 10 s
    per route (``errors.QuietLog``); uvicorn would log every one, in full."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.name == "uvicorn.error"
            and str(record.msg).startswith("Exception in ASGI application")
            and log_context.refusal() == "internal_error"
        )


class JsonLines(logging.Formatter):
    """One JSON object per record: ``time`` (UTC, ISO 8601), ``level``, ``process``,
    ``logger``, ``event`` (``request`` for an access line, ``refusal`` for a refused
    WebSocket message, else ``log``), ``message``, and when known ``request_id``, ``table``,
    ``seat``, ``method``, ``path``, ``status``, ``code`` (of a refusal), ``duration_ms`` and
    ``error`` (the traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        moment = time.gmtime(record.created)
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", moment)
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "process": record.process,
            "logger": record.name,
            "event": "log",
            "message": redact(record.getMessage()),
        }
        for key, value in (
            ("request_id", log_context.REQUEST_ID.get()),
            ("table", log_context.TABLE.get()),
            ("seat", log_context.SEAT.get()),
        ):
            if value is not None:
                entry[key] = value
        for key in _EXTRA:
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["error"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)


def json_line(logger: str, message: str) -> str:
    """An information line of ``logger`` in the JSON format (for what is printed, not
    logged)."""
    record = logging.LogRecord(logger, logging.INFO, __file__, 0, message, None, None)
    return JsonLines().format(record)

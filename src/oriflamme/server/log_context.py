"""What a log line is about: the request (its id), the table and the seat, as context
variables set while a request or a WebSocket message is handled (docs/server.md, "Logs").

A request id is given to every HTTP request and every WebSocket message; refusals and errors
carry it (``{"error": {…, "request_id"}}``, the ``X-Request-ID`` header, a WebSocket error's
``request_id``) and the client shows it, so that a player's report leads to its log lines.
"""

from __future__ import annotations

import secrets
from contextvars import ContextVar

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
TABLE: ContextVar[str | None] = ContextVar("table", default=None)
SEAT: ContextVar[int | None] = ContextVar("seat", default=None)


class Outcome:
    """How the request being handled was answered, as far as its log line must tell: the
    ``code`` of its refusal (``None`` until one is answered). One mutable object per request,
    so that a refusal answered in a task of its own still reaches the request's log line."""

    __slots__ = ("code",)

    def __init__(self) -> None:
        self.code: str | None = None


OUTCOME: ContextVar[Outcome | None] = ContextVar("outcome", default=None)


def new_request_id() -> str:
    """A fresh request id: 12 hexadecimal digits (random: it tells nothing about the server)."""
    return secrets.token_hex(6)


def begin(request_id: str | None = None) -> str:
    """Handle a new request or message from here on (in this task): a new id (or
    ``request_id``), no table nor seat yet. Returns the id."""
    rid = request_id or new_request_id()
    REQUEST_ID.set(rid)
    TABLE.set(None)
    SEAT.set(None)
    OUTCOME.set(Outcome())
    return rid


def about(table: str | None, seat: int | None = None) -> None:
    """What is handled concerns ``table`` (and the ``seat`` that asks, if a seat does)."""
    TABLE.set(table)
    SEAT.set(seat)


def refused(code: str) -> None:
    """The request being handled is answered with the error ``code``."""
    outcome = OUTCOME.get()
    if outcome is not None:
        outcome.code = code


def refusal() -> str | None:
    """The error code the request being handled was answered with, if any."""
    outcome = OUTCOME.get()
    return None if outcome is None else outcome.code

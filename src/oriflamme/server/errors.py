"""The one error type of the server: a status, a stable code and a message for people.

Messages are fixed texts or echo only what the client sent: never hidden information.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from . import log_context


class ApiError(Exception):
    """A refused request; rendered as ``{"error": {"code", "message", "request_id"}}`` with
    ``status`` (the id of the request or message refused, when there is one), and a
    ``Retry-After`` header when ``retry_after`` (seconds) says when to try again."""

    def __init__(
        self, status: int, code: str, message: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def body(self) -> dict[str, dict[str, Any]]:
        return error_body(self.code, self.message)


def error_body(code: str, message: str) -> dict[str, dict[str, Any]]:
    """The body of an error answer, with the id of the request being handled (if any); the
    request's log line names ``code`` (``request_ids``)."""
    log_context.refused(code)
    detail: dict[str, Any] = {"code": code, "message": message}
    request_id = log_context.REQUEST_ID.get()
    if request_id is not None:
        detail["request_id"] = request_id
    return {"error": detail}


def unknown_table() -> ApiError:
    return ApiError(404, "unknown_table", "no table with this id")


def bad_token() -> ApiError:
    return ApiError(401, "bad_token", "this token does not belong to this table")


UNAVAILABLE = "the game database cannot be reached: try again shortly"


def unavailable() -> ApiError:
    return ApiError(503, "database_unavailable", UNAVAILABLE)


def too_many_requests() -> ApiError:
    return ApiError(429, "too_many_requests", "too many requests: slow down")


class QuietLog:
    """Logs failures at most once per ``every`` seconds per place (a client sending the same
    bad input many times a second, or every request while the database is away, cannot flood
    the log). An expected failure left out is counted and reported with the next one; an
    unexpected error left out still leaves one line, without its traceback, so that each
    error's request id can be found. Lines name the request being handled, if any."""

    def __init__(self, log: logging.Logger, every: float = 10.0) -> None:
        self._log = log
        self._every = every
        self._last: dict[str, float] = {}
        self._skipped: dict[str, int] = {}

    def error(self, where: str, message: str, *args: object, exc: BaseException) -> None:
        """An unexpected error: with its traceback at most once per ``every`` seconds, else
        one line."""
        if self._due(where):
            self._emit(logging.ERROR, where, message, args, exc)
        else:
            self._skipped[where] = self._skipped.get(where, 0) + 1
            text = _with_request_id(_formatted(message, args))
            self._log.error("%s (%s; traceback not repeated)", text, type(exc).__name__)

    def warning(self, where: str, message: str, *args: object) -> None:
        """An expected failure (the database away…): one line, no traceback."""
        if self._due(where):
            self._emit(logging.WARNING, where, message, args, None)
        else:
            self._skipped[where] = self._skipped.get(where, 0) + 1

    def _due(self, where: str) -> bool:
        """Whether a line about ``where`` may be logged with all it says now."""
        now = time.monotonic()
        if now - self._last.get(where, -self._every) < self._every:
            return False
        self._last[where] = now
        return True

    def _emit(
        self,
        level: int,
        where: str,
        message: str,
        args: tuple[object, ...],
        exc: BaseException | None,
    ) -> None:
        skipped = self._skipped.pop(where, 0)
        left_out = "logged without their traceback" if exc is not None else "not logged"
        suffix = f" ({skipped} more like it {left_out})" if skipped else ""
        text = _with_request_id(_formatted(message, args))
        self._log.log(level, "%s", text + suffix, exc_info=exc)


def _formatted(message: str, args: tuple[object, ...]) -> str:
    return message % args if args else message


def _with_request_id(text: str) -> str:
    """``text``, naming the request being handled if it does not already."""
    request_id = log_context.REQUEST_ID.get()
    if request_id is None or request_id in text:
        return text
    return f"{text} (request {request_id})"

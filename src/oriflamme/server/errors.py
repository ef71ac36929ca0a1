"""The one error type of the server: a status, a stable code and a message for people.

Messages are fixed texts or echo only what the client sent: never hidden information.
"""

from __future__ import annotations


class ApiError(Exception):
    """A refused request; rendered as ``{"error": {"code", "message"}}`` with ``status``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}


def unknown_table() -> ApiError:
    return ApiError(404, "unknown_table", "no table with this id")


def bad_token() -> ApiError:
    return ApiError(401, "bad_token", "this token does not belong to this table")


def too_many_requests() -> ApiError:
    return ApiError(429, "too_many_requests", "too many requests: slow down")

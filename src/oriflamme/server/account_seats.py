"""Seats that belong to accounts: the link that opens an owned seat from any browser where its
player is signed in.

A seat's own token is stored only as a digest, so it cannot be handed out again. An owned seat
has a second token instead, derived from the table's secret (``replay_key``, kept in storage
and never sent), the seat and its account: ``GET /api/account/games`` gives it to the signed-in
owner only, and it opens the seat like the seat's own token (which keeps working for whoever
holds it). It stops working when the seat stops being the account's (the player left the
table, or the account was deleted).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

#: Bytes of an account's seat token (32 characters of URL-safe base64).
TOKEN_BYTES = 24
#: The prefix that tells an account's seat token from a seat's own (never a valid own token).
PREFIX = "a."


def account_seat_token(key: str, table_id: str, seat: int, account_id: str) -> str:
    """The token that opens seat ``seat`` of ``table_id`` for ``account_id``."""
    message = f"oriflamme-account-seat:{table_id}:{seat}:{account_id}".encode()
    digest = hmac.new(key.encode(), message, hashlib.sha256).digest()[:TOKEN_BYTES]
    return PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def opens_seat(key: str, table_id: str, seat: int, account_id: str | None, token: str) -> bool:
    """Whether ``token`` is the account's token of that seat (a seat nobody owns has none)."""
    if not key or account_id is None or not token.startswith(PREFIX):
        return False
    expected = account_seat_token(key, table_id, seat, account_id)
    return secrets.compare_digest(expected.encode(), token.encode("utf-8", "replace"))


def seat_url(key: str, table_id: str, seat: int, account_id: str) -> str:
    """The page of the seat, opened with the account's token."""
    return f"/t/{table_id}?seat={account_seat_token(key, table_id, seat, account_id)}"

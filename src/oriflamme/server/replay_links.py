"""Replay links: a read-only token per finished game, never a seat's token.

Sharing "look at my game" must not give a seat away. The replay link of game ``n`` of a table
carries a token derived from a secret of the table (``replay_key``, kept in storage and never
sent) and the game's number: it opens that game's replay, frames and analysis once the game is
over, and nothing else (no view, no action, no other game). Every seat and spectator of the
table is given the same link when the game ends (``View.replay_url``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from urllib.parse import urlencode

#: Bytes of a replay token (32 characters of URL-safe base64).
TOKEN_BYTES = 24


def new_replay_key() -> str:
    """The secret of a new table."""
    return secrets.token_urlsafe(24)


def replay_token(key: str, table_id: str, number: int) -> str:
    """The token of game ``number`` of table ``table_id`` whose secret is ``key``."""
    message = f"oriflamme-replay:{table_id}:{number}".encode()
    digest = hmac.new(key.encode(), message, hashlib.sha256).digest()[:TOKEN_BYTES]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def opens_replay(key: str, table_id: str, number: int, token: str) -> bool:
    """Whether ``token`` is the replay token of that game (a table without a key has none)."""
    if not key:
        return False
    expected = replay_token(key, table_id, number)
    return secrets.compare_digest(expected.encode(), token.encode("utf-8", "replace"))


def replay_url(key: str, table_id: str, number: int) -> str:
    """The replay page of game ``number``, with its token."""
    query = urlencode({"game": number, "token": replay_token(key, table_id, number)})
    return f"/t/{table_id}/replay?{query}"

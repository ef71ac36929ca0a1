"""The queries that keep post-game analyses fair, for both backends: round-robin by the address
that asked (the address served least recently first), and a few queued per address.

Each analysis records the address digest that asked for it (``origin``) and when a server last
started on it (``started``). The next analysis a server claims is that of the address whose
latest start is the oldest (an address never served, first), then the one asked for first: an
address that queued several analyses gets one in turn with every other address.
"""

from __future__ import annotations

from .base import FAILED, QUEUED, RUNNING
from .dialect import Sql, Statement


def _served(alias: str) -> str:
    """When the address of analysis ``alias`` was last served (null: never, or unknown)."""
    return (
        f"CASE WHEN {alias}.origin = '' THEN NULL ELSE (SELECT MAX(b.started) FROM analyses b"
        f" WHERE b.origin = {alias}.origin) END"
    )


#: The claim order of analyses (alias ``a``): round-robin by address, then the first asked.
CLAIM_ORDER = f"{_served('a')} ASC NULLS FIRST, a.requested"


def queued_before(q: Sql, table_id: str, game: int, origin: str) -> Statement:
    """How many analyses the asking address has waiting or under way, or 0 if this one needs
    no new place (it exists and has not failed)."""
    return q.statement(
        f"SELECT CASE WHEN EXISTS (SELECT 1 FROM analyses WHERE table_id = {q(table_id)}"
        f" AND game = {q(game)} AND status <> '{FAILED}') THEN 0 ELSE (SELECT COUNT(*)"
        f" FROM analyses WHERE origin = {q(origin)} AND status IN ('{QUEUED}', '{RUNNING}')) END"
    )

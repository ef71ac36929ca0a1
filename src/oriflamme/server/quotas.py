"""What one network address may do, and the checks that hold it to that (docs/server.md,
"Limits and abuse"). An address is known only by its digest (``addresses.origin_digest``); the
counts come from storage, by the database's clock, so every server process counts alike."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import ApiError
from .storage import SeatRecord, Store
from .tables import Table


@dataclass(frozen=True, slots=True)
class Quotas:
    """What one network address may do (0: no limit)."""

    #: Tables it may create in an hour.
    tables_per_hour: int = 120
    #: Unfinished tables where no human plays (every seat a bot) it may have at once.
    bot_tables: int = 4
    #: Public tables it may have in the lobby at once (waiting for players).
    public_tables: int = 3
    #: Post-game analyses it may have waiting for their turn or under way at once.
    queued_analyses: int = 3


async def check_hourly(
store: Store, quotas: Quotas, origin: str, code: str = "too_many_tables"
) -> None:
    """429 if ``origin`` created or joined its quota of tables in the last hour."""
    quota = quotas.tables_per_hour
    if origin and quota:
        created, _ = await store.origin_counts(origin, 3600.0)
        if created >= quota:
            raise ApiError(
                429,
                code,
                f"at most {quota} tables created or joined an hour from one address:"
                " wait a while",
            )


async def check_bot_tables(
store: Store, quotas: Quotas, table: Table, seats: Sequence[SeatRecord]
) -> None:
    """429 if these seats would make one more table where only bots play, from an address
    that has its quota of them."""
    limit = quotas.bot_tables
    if limit and table.origin and table.self_playing(seats) and not table.game.is_over:
        _, playing = await store.origin_counts(table.origin, 0.0)
        if playing >= limit:
            raise ApiError(
                429,
                "too_many_bot_tables",
                f"at most {limit} tables where only bots play, per address",
            )

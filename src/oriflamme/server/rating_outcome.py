"""What a finished game means for its players: each seat's player (account, bot level or
guest), rank, whether they left or let the stand-in play most of their decisions, and the pool
it is rated in (:class:`~.rating_model.RatedGame`), built when its last action is stored."""

from __future__ import annotations

from oriflamme.api import Game

from . import sources, time_bank
from .rating_model import (
    GUEST,
    RatedGame,
    RatedSeat,
    account_player,
    bot_player,
    finishing_ranks,
    pool_of,
)
from .tables import BOT, Table


def outcome(table: Table, after: Game, source: str | None) -> RatedGame | None:
    """The outcome of ``table``'s current game once ``after`` (one more action, played by
    ``source``) ends it; None when it does not end it, or when nobody's record changes (no
    account seated and the table is not rated)."""
    result = after.result()
    if result is None:
        return None
    played = [*table.sources, source]
    decided = [0] * len(table.seats)
    by_stand_in = [0] * len(table.seats)
    for step in range(len(after.history)):
        last = step == len(table.game.history)
        decider = table.game.current_player if last else table.move_at(step)[0]
        if decider is None:
            continue
        decided[decider] += 1
        if sources.parse(played[step])[0] == sources.STAND_IN:
            by_stand_in[decider] += 1
    # This last action may be a run-out too (``time_bank``).
    deciding = table.game.current_player
    ran_out = [0] * len(table.seats)
    if deciding is not None and source is not None and time_bank.run_out(table, deciding, source):
        ran_out[deciding] = 1
    players, left = [], []
    for seat in table.seats:
        if seat.account_id is not None:
            players.append(account_player(seat.account_id))
            # Left, handed to a bot by the creator (away too long), mostly played for, or (at
            # a rated table) ran out of time too often.
            gone = (
                seat.left_at is not None
                or seat.kind == BOT
                or 2 * by_stand_in[seat.seat] > decided[seat.seat]
                or time_bank.counts_as_left(table, seat.seat, ran_out[seat.seat])
            )
        elif seat.kind == BOT:
            players.append(bot_player(seat.level or "random"))
            gone = False
        else:
            players.append(GUEST)
            gone = False
        left.append(gone)
    pool = pool_of(table.config.players, table.config.variant or "") if table.rated else None
    if pool is None and not any(p.startswith("account:") for p in players):
        return None
    ranks = finishing_ranks(list(zip(result.scores, result.queue_cards, strict=True)), left)
    seats = tuple(
        RatedSeat(i, players[i], ranks[i], left[i], ranks[i] == 1 and not left[i])
        for i in range(len(players))
    )
    return RatedGame(table.id, table.game_number, pool, seats)

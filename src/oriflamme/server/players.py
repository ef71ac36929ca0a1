"""Seats that belong to players, and what a player's account changes at a table: a rated
table's rules, joining (owning the seat, a table's minimum reputation), "Take this seat",
"Leave the game" (docs/server.md, "Seats of accounts", "Ratings", "Reputation")."""

from __future__ import annotations

from . import thinking
from .errors import ApiError
from .manager import TableManager
from .names import name_key
from .protocol import CreateTableRequest, HumanSeatIn
from .rating_model import pool_of
from .reputation import reputation_for_joining
from .storage import AccountRecord, Store
from .tables import HUMAN, OPEN, Identity, Role, Table


def signed_out_for(what: str) -> ApiError:
    return ApiError(401, "signed_out", f"sign in first: {what}")


def check_creation(request: CreateTableRequest, account: AccountRecord | None) -> None:
    """Refuse a table the request may not create: an account's seat or a rated table without
    being signed in, a rated table that is not fair to rate (each refusal says why)."""
    wants_account = any(isinstance(s, HumanSeatIn) and s.account for s in request.seats)
    if wants_account and account is None:
        raise signed_out_for("an account's seat is the signed-in creator's")
    if not request.rated:
        return
    if account is None:
        raise signed_out_for("a rated table is created by a signed-in player")
    if request.seed is not None or request.save is not None:
        raise ApiError(
            422,
            "rated_custom_deal",
            "a rated table is dealt by the server, in secret: no seed, no saved game",
        )
    if request.hints:
        raise ApiError(422, "rated_hints", "a rated table has no hints")
    if any(isinstance(s, HumanSeatIn) and not s.account for s in request.seats):
        raise ApiError(
            422,
            "rated_needs_accounts",
            "every human seat of a rated table is an account's: your own seat"
            ' ({"kind": "human", "account": true}), open seats that signed-in players join,'
            " or bots",
        )
    variant = request.variant or ("two-families" if request.players == 2 else "standard")
    if pool_of(request.players, variant) is None:
        raise ApiError(
            422,
            "rated_variant",
            "two-player rated games are played with two families each (the two-families"
            " variant)",
        )
    if request.cards not in ("base", "embrasement"):
        raise ApiError(
            422, "rated_cards", 'a rated table plays a whole box: cards "base" or "embrasement"'
        )


def check_account_name(request: CreateTableRequest, account: AccountRecord | None) -> None:
    """The account's seat takes the account's name: no other seat may have it."""
    if account is None:
        return
    key = name_key(account.name)
    for i, seat in enumerate(request.seats):
        name = getattr(seat, "name", None)
        if name is not None and name_key(name) == key:
            raise ApiError(
                422, "name_taken", f"seats.{i}.name: your account's seat is called {account.name!r}"
            )


async def check_join(store: Store, table: Table, account: AccountRecord | None) -> None:
    """Refuse a join the player may not make: a rated table or a minimum reputation for a
    guest, an account already seated at the table, a reputation below the table's minimum."""
    if account is None:
        if table.rated:
            raise signed_out_for("the seats of a rated table are for signed-in players")
        if table.min_reputation is not None:
            raise signed_out_for("this table asks for a reputation, which guests do not have")
        return
    if any(s.account_id == account.account_id for s in table.seats):
        raise ApiError(409, "already_seated", "you already have a seat at this table")
    if table.min_reputation is not None:
        reputation = await reputation_for_joining(store, account.account_id)
        if reputation < table.min_reputation:
            raise ApiError(
                409,
                "reputation_too_low",
                f"this table asks for a reputation of {table.min_reputation:.0%}; yours is"
                f" {reputation:.0%} (the share of your games you finished)",
            )


async def claim(
    manager: TableManager, table: Table, identity: Identity, account: AccountRecord
) -> int:
    """"Take this seat": the seat the invite link opens becomes the account's (under the
    account's name); its link keeps working."""
    seat = identity.seat
    if identity.role is not Role.SEAT or seat is None:
        raise ApiError(403, "not_a_player", "only a seat's link can take its seat")
    record = table.seats[seat]
    if record.kind != HUMAN:
        raise ApiError(409, "seat_is_bot", "this seat is now played by a bot")
    if record.account_id == account.account_id:
        return seat
    if record.account_id is not None:
        raise ApiError(409, "seat_owned", "this seat already belongs to a player")
    if any(s.account_id == account.account_id for s in table.seats):
        raise ApiError(409, "already_seated", "you already have a seat at this table")
    key = name_key(account.name)
    if any(name_key(s.name) == key for s in table.seats if s.seat != seat and s.kind != OPEN):
        raise ApiError(409, "name_taken", "someone else at this table has your account's name")
    async with table.lock:
        done = await manager.store.claim_seat(table.id, seat, account.account_id, account.name)
        await manager.registry.reload_locked(table)
    manager.broadcast.changed(table)
    if not done:
        raise ApiError(409, "seat_owned", "this seat already belongs to a player")
    return seat


async def leave(manager: TableManager, table: Table, identity: Identity) -> None:
    """"Leave the game": the seat's player hands it to the stand-in for the rest of the
    table; they rank last in this game (docs/server.md, "Ratings")."""
    seat = identity.seat
    if identity.role is not Role.SEAT or seat is None:
        raise ApiError(403, "not_a_player", "only a seat's link can leave the game")
    if table.seats[seat].kind != HUMAN:
        raise ApiError(409, "seat_is_bot", "this seat is already played by a bot")
    if table.waiting() or table.closed:
        raise ApiError(409, "not_started", "the game has not started: nothing to leave")
    if table.game.is_over:
        raise ApiError(409, "game_over", "the game is over")
    level = table.options.stand_in
    name = thinking.bot_name(level, seat)
    async with table.lock:
        done = await manager.store.leave_seat(table.id, seat, name, level)
        await manager.registry.reload_locked(table)
    manager.broadcast.changed(table)
    if not done:
        raise ApiError(409, "game_over", "the game is over")


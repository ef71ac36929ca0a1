"""The lobby: ``GET /api/lobby``, the public tables that wait for players, a page at a time.

Storage ranks every listed table among its creator's (see :mod:`.storage.lobby_sql`): a page
shows each creator's newest table before anyone's second, so that one address (which may list
only a few tables at once, ``Quotas.public_tables``) cannot push the others out. Filters keep
the tables a player wants (players, card set, clock, hints); ``next`` is the cursor of the next
page. Each entry says what matters before joining: the seats (bots marked, with their level),
the set-up, the clock, the stand-in and the absence limit, hints, the table's language.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam

from oriflamme.api import FAMILY_COLOURS

from .errors import ApiError
from .protocol import ErrorBody, LobbyPage, LobbySeat, LobbyTable
from .reputation import shown_reputation
from .storage import LobbyEntry, LobbyFilter, LobbyPlace, SeatRecord
from .storage.rating_records import Reputation
from .tables import OPEN, Table

#: Seconds a public table with open seats stays in the lobby after its creation or last join.
LOBBY_FOR = 86400.0
#: Tables on one page, by default and at most.
PAGE_SIZE, PAGE_MAX = 20, 50
#: The longest cursor a client may send back.
CURSOR_MAX = 200


def encode_cursor(place: LobbyPlace) -> str:
    """The opaque cursor of the page after ``place``."""
    text = json.dumps([place.rank, place.listed, place.table_id], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> LobbyPlace:
    """The place a cursor names; 422 ``invalid_request`` if it is not one this server made."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        rank, listed, table_id = json.loads(base64.urlsafe_b64decode(padded.encode()))
        if (
            type(rank) is int
            and rank >= 1
            and type(listed) in (int, float)
            and isinstance(table_id, str)
            and len(table_id) <= 32
        ):
            return LobbyPlace(rank, float(listed), table_id)
    except (ValueError, TypeError, binascii.Error):
        pass
    raise ApiError(
        422, "invalid_request", "cursor: not a lobby cursor (use the 'next' of a lobby page)"
    )


def cards_text(cards: Any) -> str:
    """A configuration's cards as the lobby shows them: ``base``, ``embrasement``, or the ten
    card types' slugs joined by commas."""
    return ",".join(str(slug) for slug in cards) if isinstance(cards, list) else str(cards)


def lobby_seats(
    seats: Sequence[SeatRecord], reputations: Mapping[str, Reputation]
) -> list[LobbySeat]:
    """A table's seats as the lobby shows them: an account's with its reputation."""
    return [
        LobbySeat(
            seat=s.seat,
            kind=s.kind,
            name=s.name,
            level=s.level,
            colour=FAMILY_COLOURS[s.seat],
            account=s.account_id is not None,
            reputation=None if s.account_id is None else shown_reputation(
                reputations.get(s.account_id)
            ),
        )
        for s in seats
    ]


def lobby_table(
    entry: LobbyEntry, now: float, reputations: Mapping[str, Reputation] | None = None
) -> LobbyTable:
    """The lobby's entry of a listed table."""
    return LobbyTable(
        table_id=entry.table_id,
        players=int(entry.config["players"]),
        cards=cards_text(entry.config.get("cards", "base")),
        variant=str(entry.config.get("variant") or "standard"),
        edition=str(entry.config.get("edition") or "revised"),
        lang=entry.lang,
        seats=lobby_seats(entry.seats, reputations or {}),
        open_seats=[s.seat for s in entry.seats if s.kind == OPEN],
        rated=entry.rated,
        min_reputation=entry.min_reputation,
        clock=entry.clock,
        bank=entry.bank,
        increment=entry.increment,
        stand_in=entry.stand_in,
        absent_after=entry.absent_after,
        no_show_after=entry.no_show_after,
        hints=entry.hints,
        age=max(0.0, now - entry.created),
    )


def invitation(table: Table, reputations: Mapping[str, Reputation] | None = None) -> LobbyTable:
    """The lobby's entry of one table a join link names, listed or not (no age: a private
    table was never listed), full or closed."""
    options = table.options
    return LobbyTable(
        table_id=table.id,
        players=table.config.players,
        cards=cards_text(table.config.to_dict()["cards"]),
        variant=table.config.variant or "standard",
        edition=table.config.edition,
        lang=table.lang,
        seats=lobby_seats(table.seats, reputations or {}),
        open_seats=table.open_seats(),
        rated=table.rated,
        min_reputation=table.min_reputation,
        clock=options.clock,
        bank=options.bank,
        increment=options.increment,
        stand_in=options.stand_in,
        absent_after=options.absent_after,
        no_show_after=options.no_show_after,
        hints=table.hints,
        age=None,
        closed=table.closed,
    )


def lobby_router() -> APIRouter:
    """The lobby's route."""
    router = APIRouter()

    @router.get(
        "/api/lobby",
        response_model=LobbyPage,
        responses={422: {"model": ErrorBody}, 503: {"model": ErrorBody}},
        summary="Public tables with open seats, a page at a time",
    )
    async def lobby(
        request: Request,
        players: Annotated[int | None, Query(ge=2, le=5, description="only N players")] = None,
        cards: Annotated[
            Literal["base", "embrasement", "custom"] | None,
            Query(description="only this card set (custom: another choice of ten types)"),
        ] = None,
        clock: Annotated[
            bool | None, Query(description="true: only tables with a turn clock; false: without")
        ] = None,
        hints: Annotated[
            bool | None, Query(description="true: only learning tables (hints); false: without")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=PAGE_MAX, description="tables per page")] = PAGE_SIZE,
        cursor: Annotated[
            str | None,
            Query(max_length=CURSOR_MAX, description="the `next` of the previous page"),
        ] = None,
    ) -> LobbyPage:
        """The public tables whose open seats anyone may take (``join``): every creator's newest
        table first, then every creator's second newest, and so on (the newest first within
        each round), so that one address cannot push the others out. ``next`` is the cursor of
        the following page (null on the last). A table leaves the list once every seat is
        taken, when its creator closes it, or 24 hours after its creation or last join."""
        after = None if cursor is None else decode_cursor(cursor)
        only = LobbyFilter(players=players, cards=cards, clock=clock, hints=hints)
        store = request.app.state.manager.store
        now = time.time()
        # One more than the page: whether a next page exists.
        entries = await store.lobby(LOBBY_FOR, limit + 1, only, after)
        shown = entries[:limit]
        last = shown[-1].place if len(entries) > limit else None
        accounts = sorted({s.account_id for e in shown for s in e.seats if s.account_id})
        reputations = await store.reputations(accounts)
        return LobbyPage(
            tables=[lobby_table(entry, now, reputations) for entry in shown],
            next=None if last is None else encode_cursor(last),
        )

    @router.get(
        "/api/lobby/{table_id}",
        response_model=LobbyTable,
        responses={status: {"model": ErrorBody} for status in (404, 422, 503)},
        summary="One table's lobby entry (the table of a join link)",
    )
    async def invited(
        request: Request,
        table_id: Annotated[
            str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")
        ],
    ) -> LobbyTable:
        """The entry of a table, public or not, as the lobby shows it: what a join link
        (``/?join={table_id}``) leads to. ``open_seats`` is empty once every seat is taken;
        ``closed`` says that its creator closed it."""
        table = await request.app.state.manager.get(table_id)
        accounts = [s.account_id for s in table.seats if s.account_id]
        return invitation(table, await request.app.state.manager.store.reputations(accounts))

    return router

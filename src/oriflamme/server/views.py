"""The view of a seat or spectator (docs/server.md), built once per change and shared.

A view is encoded once per (seat, language) and game change, and every connection with that
identity (and the HTTP answers) sends the same text. What is costly to build is kept between
changes in the table's :class:`~.tables.ViewCache`: the log lines of each (viewer, language),
labelling only the new events and the few old ones whose wording changed, and the card labels.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import orjson

from oriflamme.api import FAMILY_COLOURS, Action, Observation, ObservedCard

from . import absence, display, sources, time_bank
from .replay_links import replay_url

if TYPE_CHECKING:
    from .tables import Identity, Table

LOG_LINES = 200


def seat_infos(table: Table, lang: str | None = None) -> list[dict[str, Any]]:
    """The seats as views show them: a bot's name the server gave it in ``lang`` (None: as
    stored, in English)."""
    now = time.time()
    return [
        {
            "seat": s.seat,
            "name": s.name if lang is None else display.seat_name(s, lang),
            "kind": s.kind,
            "level": s.level,
            "connected": table.connected(s.seat),
            "away": absence.stood_in(table, s.seat, now) or time_bank.out_of_time(table, s.seat),
            "replaceable": absence.replaceable(table, s.seat, now),
            "colour": FAMILY_COLOURS[s.seat],
            "account": s.account_id is not None,
            "left": s.left_at is not None,
            "bank_left": time_bank.bank_left(table, s.seat),
            "ran_out": s.ran_out,
        }
        for s in table.seats
    ]


def clock_info(table: Table) -> dict[str, Any] | None:
    """The table's turn clock: seconds per decision, and when the stand-in may play the current
    decision (the clock's end, or sooner the end of an absence or the no-show limit)."""
    due = absence.deadline(table)
    return time_bank.clock_info(table, None if due is None else due[0])


def deadline_info(table: Table) -> dict[str, Any] | None:
    """When the stand-in may play the current human decision, why, and whose it is."""
    due = absence.deadline(table)
    if due is None:
        return None
    return {"at": due[0], "reason": due[1], "seat": table.game.current_player}


def summary(table: Table) -> dict[str, Any]:
    """The public summary of a table (``TableSummary``)."""
    game = table.game
    return {
        "table_id": table.id,
        "game_number": table.game_number,
        "step": len(game.history),
        "over": game.is_over,
        "seats": seat_infos(table),
        "public": table.options.public,
        "clock": table.options.clock,
        "bank": table.options.bank,
        "increment": table.options.increment,
        "absent_after": table.options.absent_after,
        "stand_in": table.options.stand_in,
        "open_seats": table.open_seats(),
        "closed": table.closed,
        "hints": table.hints,
        "no_show_after": table.options.no_show_after,
        "custom_deal": table.custom_deal,
        "rated": table.rated,
        "chat": table.options.chat,
    }


def replay_link(table: Table) -> str | None:
    """The replay link of the table's current game once it is over (``replay_links``)."""
    if not table.game.is_over or not table.replay_key:
        return None
    return replay_url(table.replay_key, table.id, table.game_number)


#: A family's hand and set-aside cards where the view has none (not the owner's).
_NO_CARDS: list[ObservedCard] = []


def card_ids(observation: Observation, legal: list[Action]) -> set[int]:
    """Every card id an observation (docs/api.md) and the legal actions mention."""
    ids = {card["id"] for stack in observation["queue"] for card in stack}
    for family in observation["families"]:
        for zone in (family["reserve"], family["discarded"], family["eliminated"],
                     family.get("hand", _NO_CARDS), family.get("set_aside", _NO_CARDS)):
            ids.update(card["id"] for card in zone)
        if family["corruption_on"] is not None:
            ids.add(family["corruption_on"])
    ids.update(frame["card"] for frame in observation["pending"])
    decision = observation["decision"]
    for card in (observation["resolving"], None if decision is None else decision["card"]):
        if card is not None:
            ids.add(card)
    for action in legal:
        data = action.to_json()
        ids.update(data[key] for key in ("card", "to") if isinstance(data.get(key), int))
    return ids


def build_view(table: Table, seat: int | None, lang: str) -> dict[str, Any]:
    """The view of ``seat`` (None: the public view) in ``lang``; reads only what it may know."""
    game, cache = table.game, table.views
    observation = game.observe(seat)
    decision = observation["decision"]
    # A table waiting for players (or closed) offers no move and says who decides nothing.
    stopped = table.waiting() or table.closed
    player = None if decision is None or stopped else decision["player"]
    legal = game.legal_actions() if seat is not None and player == seat else []
    ids = card_ids(observation, legal)
    waiting = None if player is None else table.seats[player]
    names = display.sentence_names(table, lang)
    log = cache.log_lines(game, seat, lang, names)
    shown = log[-LOG_LINES:]
    return {
        "table_id": table.id,
        "game_number": table.game_number,
        "step": len(game.history),
        "you": seat,
        "lang": lang,
        "seats": seat_infos(table, lang),
        "observation": observation,
        "prompt": (
            "" if stopped and not game.is_over
            else game.prompt(viewer=seat, lang=lang, names=names)
        ),
        "legal": [
            {"action": a.to_json(), "label": game.label(a, viewer=seat, lang=lang, names=names)}
            for a in legal
        ],
        "log": shown,
        "stand_ins": sources.stand_in_moves(table, len(log), len(shown)),
        "cards": cache.card_labels(game, ids, seat, lang),
        "result": observation["result"],
        "scores_by_round": observation["scores_by_round"],
        "waiting_for": None
        if waiting is None
        else {"seat": waiting.seat, "name": display.seat_name(waiting, lang), "kind": waiting.kind},
        "waiting_for_players": table.waiting() and not table.closed,
        "closed": table.closed,
        "clock": clock_info(table),
        "deadline": deadline_info(table),
        "hints": table.hints,
        "custom_deal": table.custom_deal,
        "rated": table.rated,
        "chat": table.options.chat,
        "replay_url": replay_link(table),
    }


def view_text(table: Table, seat: int | None, lang: str, handed_over: bool = False) -> str:
    """The view of ``seat`` in ``lang`` as JSON text, encoded once per change of the table;
    ``handed_over``: for the old link of a seat handed to a bot (it gets the public view)."""
    key, version = (seat, lang), (len(table.game.history), table.version)
    text = table.views.text(key, version)
    if text is None:
        view = build_view(table, seat, lang)
        text = orjson.dumps(view).decode()  # several times faster than json.dumps
        table.views.keep(key, version, text)
    # The server's time as it sends the view: clients count clocks down from it.
    return (
        f'{text[:-1]},"handed_over":{"true" if handed_over else "false"},'
        f'"server_time":{time.time():.3f}}}'
    )



def view_for(table: Table, identity: Identity, lang: str) -> str:
    """The view the holder of ``identity`` may see: their seat's own, or the public one (with
    ``handed_over`` for the old link of a seat handed to a bot)."""
    return view_text(table, table.view_seat(identity), lang, table.handed_over(identity))

"""The view of a seat or spectator (docs/server.md), built once per change and shared.

A view is encoded once per (seat, language) and game change, and every connection with that
identity (and the HTTP answers) sends the same text. What is costly to build is kept between
changes: the log lines of each (viewer, language), labelling only the new events and the few old
ones whose wording changed, and the card labels.

The wording of an event depends on the current game only through the card named in its
``other`` field (placed on it, eliminated or activated by it, copied, replaced): whether that
card is face up and whether it is in the Queue. Each line remembers that card's state when it was
written; a line is written again when the state changed (tests compare with
``Game.log_lines``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from oriflamme.api import FAMILY_COLOURS, Action, Game
from oriflamme.search import State, state_of

from . import absence
from .replay_links import replay_url

if TYPE_CHECKING:
    from .tables import Identity, Table

LOG_LINES = 200
#: Events whose ``other`` field is a card that their sentence names (docs/formats.md, events).
_OTHER_IS_CARD = frozenset(
    {"placed", "twin_placed", "eliminated", "activated", "copied", "replaced"}
)

#: What a sentence may depend on of a card: face up, and in the Queue.
CardState = tuple[bool, bool]


def _card_state(s: State, queue_cards: frozenset[int], card: int) -> CardState:
    return s.face_up[card], card in queue_cards


def _queue_cards(s: State) -> frozenset[int]:
    return frozenset(card for stack in s.queue for card in stack)


@dataclass
class _Lines:
    """The log as one viewer sees it in one language, and what each line depends on."""

    lines: list[str] = field(default_factory=list)
    marks: list[CardState | None] = field(default_factory=list)


class ViewCache:
    """Everything kept between the views of one game of a table."""

    def __init__(self) -> None:
        self._others: list[int] = []  #: per event: the card its sentence names, or -1
        self._logs: dict[tuple[int | None, str], _Lines] = {}
        self._labels: dict[tuple[int | None, str], dict[tuple[int, CardState], str]] = {}
        self._texts: dict[tuple[int | None, str], tuple[tuple[int, int], str]] = {}

    def log_lines(self, game: Game, viewer: int | None, lang: str) -> list[str]:
        """``game.log_lines(viewer, lang)``, labelling only what is new or changed."""
        s = state_of(game)
        events = s.log or []
        if len(self._others) < len(events):
            for event in game.events(None, start=len(self._others)):
                named = event["kind"] in _OTHER_IS_CARD and event["other"] >= 0
                self._others.append(event["other"] if named else -1)
        cached = self._logs.setdefault((viewer, lang), _Lines())
        queue_cards = _queue_cards(s)
        first = len(cached.lines)
        for i, mark in enumerate(cached.marks):
            if mark is not None and mark != _card_state(s, queue_cards, self._others[i]):
                first = i
                break
        if first < len(events):
            cached.lines[first:] = game.log_lines(viewer, lang, start=first)
            cached.marks[first:] = [
                None if other < 0 else _card_state(s, queue_cards, other)
                for other in self._others[first : len(events)]
            ]
        return cached.lines

    def card_labels(
        self, game: Game, cards: set[int], viewer: int | None, lang: str
    ) -> dict[str, str]:
        """``game.card_label(card, viewer, lang)`` of each card by id (as text), each label kept
        while its card's state is the same."""
        s = state_of(game)
        queue_cards = _queue_cards(s)
        labels = self._labels.setdefault((viewer, lang), {})
        out = {}
        for card in sorted(cards):
            key = (card, _card_state(s, queue_cards, card))
            label = labels.get(key)
            if label is None:
                label = labels[key] = game.card_label(card, viewer, lang)
            out[str(card)] = label
        return out

    def text(self, key: tuple[int | None, str], version: tuple[int, int]) -> str | None:
        """The encoded view of ``key`` (viewer, language) if it is still ``version``."""
        found = self._texts.get(key)
        return found[1] if found is not None and found[0] == version else None

    def keep(self, key: tuple[int | None, str], version: tuple[int, int], text: str) -> None:
        self._texts[key] = (version, text)


# -- building views ---------------------------------------------------------------------------
def seat_infos(table: Table) -> list[dict[str, Any]]:
    now = time.time()
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            "connected": table.connected(s.seat),
            "away": absence.stood_in(table, s.seat, now),
            "replaceable": absence.replaceable(table, s.seat, now),
            "colour": FAMILY_COLOURS[s.seat],
        }
        for s in table.seats
    ]


def clock_info(table: Table) -> dict[str, Any] | None:
    """The table's turn clock: seconds per decision, and when the current one runs out."""
    if table.options.clock is None:
        return None
    return {"per_decision": table.options.clock, "deadline": table.deadline()}


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
        "absent_after": table.options.absent_after,
        "stand_in": table.options.stand_in,
        "open_seats": table.open_seats(),
        "closed": table.closed,
        "hints": table.hints,
        "no_show_after": table.options.no_show_after,
        "custom_deal": table.custom_deal,
    }


def replay_link(table: Table) -> str | None:
    """The replay link of the table's current game once it is over (``replay_links``)."""
    if not table.game.is_over or not table.replay_key:
        return None
    return replay_url(table.replay_key, table.id, table.game_number)


_ZONES = ("hand", "set_aside", "reserve", "discarded", "eliminated")


def card_ids(observation: dict[str, Any], legal: list[Action]) -> set[int]:
    """Every card id an observation (docs/api.md) and the legal actions mention."""
    ids = {card["id"] for stack in observation["queue"] for card in stack}
    for family in observation["families"]:
        for zone in _ZONES:
            ids.update(card["id"] for card in family.get(zone, ()))
        if family["corruption_on"] is not None:
            ids.add(family["corruption_on"])
    ids.update(frame["card"] for frame in observation["pending"])
    for card in (observation["resolving"], (observation["decision"] or {}).get("card")):
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
    player = None if decision is None else decision["player"]
    legal = game.legal_actions() if seat is not None and player == seat else []
    ids = card_ids(observation, legal)
    waiting = None if player is None else table.seats[player]
    return {
        "table_id": table.id,
        "game_number": table.game_number,
        "step": len(game.history),
        "you": seat,
        "lang": lang,
        "seats": seat_infos(table),
        "observation": observation,
        "prompt": game.prompt(lang, seat),
        "legal": [{"action": a.to_json(), "label": game.label(a, lang, seat)} for a in legal],
        "log": cache.log_lines(game, seat, lang)[-LOG_LINES:],
        "cards": cache.card_labels(game, ids, seat, lang),
        "result": observation["result"],
        "scores_by_round": observation["scores_by_round"],
        "waiting_for": None
        if waiting is None
        else {"seat": waiting.seat, "name": waiting.name, "kind": waiting.kind},
        "waiting_for_players": table.waiting() and not table.closed,
        "closed": table.closed,
        "clock": clock_info(table),
        "hints": table.hints,
        "custom_deal": table.custom_deal,
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

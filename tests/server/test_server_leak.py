"""No payload the server sends tells its receiver a card it may not know (R-INFO-1).

Whole games are played by several human seats (over the WebSocket and HTTP) with bots, and
every payload each connection (seats and spectator) receives is kept. Each payload is then
checked against the true game at the payload's step, rebuilt from the server's own game: a card
the receiver may not know (another family's hand, set-aside or pile card, or a face-down card in
the Queue) must never appear with its type, nor its type's name in a label, log line or prompt
about it, and every card type named anywhere must be the type of a card the receiver may know.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from oriflamme.api import FAMILY_COLOURS, CardType, Game, card_name
from oriflamme.server import SqliteStore, create_app

Json = dict[str, Any]
SLUGS = {t.slug for t in CardType}
_NAME_PATTERNS = {
    t.slug: re.compile(
        "|".join(
            rf"(?<![\w-]){re.escape(name)}(?![\w-])"
            for name in {card_name(t, "en"), card_name(t, "fr")}
        )
    )
    for t in CardType
}
#: Event kinds whose ``other`` field is a card id (docs/formats.md, events).
_OTHER_IS_CARD = {"eliminated", "copied", "activated", "replaced", "placed", "twin_placed"}
_PUBLIC_ZONES = {"discarded", "eliminated", "reserve"}
_TYPE_KEYS = ("type", "card_type", "ability")


def names_in(text: str) -> set[str]:
    """The card types whose English or French name appears in ``text``."""
    return {slug for slug, pattern in _NAME_PATTERNS.items() if pattern.search(text)}


# -- the truth --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Truth:
    """What everyone, and each seat, may know of a position."""

    types: dict[int, str]
    public: frozenset[int]
    own: dict[int, frozenset[int]]
    events: list[Json]

    def known(self, seat: int | None) -> frozenset[int]:
        return self.public if seat is None else self.public | self.own[seat]


def _ref(text: str) -> tuple[str, str, str]:
    match = re.match(r"^(?:([a-z]+):)?([a-z_]+)(.*)$", text)
    assert match is not None, text
    return match[1] or "", match[2], match[3]


def truth_of(game: Game) -> Truth:
    position = game.position()
    ids: dict[str, int] = position["ids"]
    types = {card: ref.split(":")[1] for ref, card in ids.items()}
    public: set[int] = set()
    for stack in position["queue"]:
        for text in stack:
            colour, slug, mods = _ref(text)
            if "*" in mods:
                public.add(ids[f"{colour}:{slug}"])
    pile: set[int] = set()
    for colour, zones in position["families"].items():
        for zone, cards in zones.items():
            zone_ids = {ids[f"{colour}:{_ref(c)[1]}"] for c in cards}
            if zone in _PUBLIC_ZONES:
                public |= zone_ids
            elif zone == "pile":
                pile |= zone_ids
    config = game.config
    own = {}
    for player in range(config.players):
        colours = {FAMILY_COLOURS[f] for f in config.player_families(player)}
        own[player] = frozenset(c for r, c in ids.items() if r.split(":")[0] in colours) - pile
    return Truth(types, frozenset(public), own, game.events(None))


def truths(game: Game) -> list[Truth]:
    """The truth after each number of actions of ``game``, replayed from its seed."""
    assert game.seed is not None
    replay = Game.new(game.config, game.seed)
    out = [truth_of(replay)]
    for action in game.history:
        replay.apply(action)
        out.append(truth_of(replay))
    return out


# -- the checks -------------------------------------------------------------------------------
def _dicts(data: object) -> Iterator[Json]:
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _dicts(value)
    elif isinstance(data, list):
        for item in data:
            yield from _dicts(item)


def _strings(data: object) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            if key != "config":  # the card set in play is public
                yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def _action_cards(action: Json) -> list[int]:
    return [v for k, v in action.items() if k in ("card", "to") and isinstance(v, int)]


def check_view(view: Json, seat: int | None, truth: Truth) -> list[str]:
    """Every way ``view`` reveals to ``seat`` a card it may not know (empty: none)."""
    known = truth.known(seat)
    hidden = set(truth.types) - known
    known_types = {truth.types[c] for c in known}
    problems = []

    def about(text: str, cards: list[int | None], what: str) -> None:
        """``text`` is about ``cards``: it may not name a hidden one's type."""
        named = names_in(text)
        shown = {truth.types[c] for c in cards if c is not None and c in known}
        secret = {truth.types[c] for c in cards if c is not None and c in hidden} - shown
        if named & secret:
            problems.append(f"{what} names hidden {sorted(named & secret)}: {text!r}")
        if named - known_types:
            problems.append(f"{what} names unknown {sorted(named - known_types)}: {text!r}")

    if view["you"] != seat:
        problems.append(f"view of seat {view['you']} sent to {seat}")
    for node in _dicts([view["observation"], view["legal"], view["result"]]):
        card = node.get("id", node.get("card"))
        if not isinstance(card, int) or card < 0:
            continue
        shown_type = node.get("type", node.get("card_type"))
        # A decision's ability is its card's, except for a Royal Decree's move_to: its card is
        # the one the (face-up) Decree moves, which may be face down.
        type_keys = ("type", "card_type") if node.get("kind") == "move_to" else _TYPE_KEYS
        if card in hidden and any(node.get(k) is not None for k in type_keys):
            problems.append(f"hidden card {card} shown with its type: {node}")
        if shown_type is not None and shown_type != truth.types[card]:
            problems.append(f"card {card} shown as {shown_type}, is {truth.types[card]}")
    for text in _strings([view["observation"], view["result"]]):
        if text in SLUGS and text not in known_types:
            problems.append(f"type {text!r} of no card the receiver may know")
    decision = view["observation"]["decision"]
    acting = None if decision is None else decision["card"]
    about(view["prompt"], [acting], "prompt")
    for option in view["legal"]:
        about(option["label"], [*_action_cards(option["action"]), acting], "legal label")
    for key, label in view["cards"].items():
        about(label, [int(key)], "card label")
        if int(key) in hidden and names_in(label):
            problems.append(f"label of hidden card {key} names a type: {label!r}")
    events = truth.events
    if len(view["log"]) != min(200, len(events)):
        problems.append(f"log of {len(view['log'])} lines for {len(events)} events")
    for line, event in zip(view["log"], events[len(events) - len(view["log"]) :], strict=True):
        cards = [event["card"]]
        if event["kind"] in _OTHER_IS_CARD and event["other"] >= 0:
            cards.append(event["other"])
        about(line, cards, "log line")
    return problems


def check_payload(payload: Json, seat: int | None, truths_by_step: list[Truth]) -> list[str]:
    if payload.get("type") == "view":
        payload = payload["view"]
    if "observation" in payload:
        return check_view(payload, seat, truths_by_step[payload["step"]])
    texts = list(_strings(payload))
    return [f"error names a card: {t!r}" for t in texts if names_in(t) or t in SLUGS]


# -- playing ----------------------------------------------------------------------------------
def receive(ws: WebSocketTestSession, timeout: float = 5.0) -> Json:
    async def next_message() -> Json:
        with anyio.fail_after(timeout):
            return dict(await ws._send_rx.receive())

    return dict(json.loads(ws.portal.call(next_message)["text"]))


class Recorder:
    """Every payload each receiver got: WebSocket messages and HTTP answers."""

    def __init__(
        self, client: TestClient, table: Json, sockets: dict[int | None, WebSocketTestSession]
    ) -> None:
        self.client = client
        self.table = table
        self.sockets = sockets
        self.payloads: list[tuple[int | None, Json]] = []
        self.last_step: dict[int | None, int] = {}  #: of the last view each socket received

    def token(self, seat: int | None) -> str:
        table = self.table
        return str(table["spectator_token"] if seat is None else table["seats"][seat]["token"])

    def until(self, seat: int | None, wanted: Callable[[Json], bool]) -> Json:
        while True:
            message = receive(self.sockets[seat])
            self.payloads.append((seat, message))
            if message["type"] == "view":
                self.last_step[seat] = message["view"]["step"]
            if wanted(message):
                return message

    def get_view(self, seat: int | None, lang: str = "en") -> Json:
        response = self.client.get(
            f"/api/tables/{self.table['table_id']}/view",
            params={"token": self.token(seat), "lang": lang},
        )
        assert response.status_code == 200, response.text
        self.payloads.append((seat, response.json()))
        return dict(response.json())

    def post_action(self, seat: int, action: Json, step: int) -> Json:
        response = self.client.post(
            f"/api/tables/{self.table['table_id']}/actions",
            json={"token": self.token(seat), "action": action, "step": step},
        )
        self.payloads.append((seat, response.json()))
        return dict(response.json())


def view_after(step: int) -> Callable[[Json], bool]:
    return lambda m: bool(m["type"] == "view" and m["view"]["step"] > step)


def play(recorder: Recorder, humans: list[int], rng: random.Random) -> int:
    """Play random legal actions for the humans until the game ends; return the last step."""
    turns = 0
    while (public := recorder.get_view(None))["result"] is None:
        waiting = public["waiting_for"]
        if waiting["kind"] == "bot":
            time.sleep(0.001)
            continue
        seat = waiting["seat"]
        mine = recorder.get_view(seat, lang=rng.choice(["en", "fr"]))
        option = rng.choice(mine["legal"])
        turns += 1
        if turns == 5:  # a seat changes language; another tries to act out of turn
            recorder.sockets[humans[-1]].send_json({"type": "lang", "lang": "fr"})
            other = next(h for h in humans if h != seat)
            recorder.sockets[other].send_json({"type": "act", "action": option["action"]})
            recorder.until(other, lambda m: m["type"] == "error")
        if rng.random() < 0.5:
            recorder.post_action(seat, option["action"], mine["step"])
        else:
            message = {"type": "act", "action": option["action"], "step": mine["step"]}
            recorder.sockets[seat].send_json(message)
            recorder.until(seat, view_after(mine["step"]))
    return int(public["step"])


@pytest.mark.parametrize(
    ("players", "cards", "bots"),
    [(4, "base", [3]), (2, "embrasement", []), (3, "embrasement", [1])],
)
def test_no_payload_reveals_a_hidden_card(
    tmp_path: Path, players: int, cards: str, bots: list[int]
) -> None:
    seats = [
        {"kind": "bot", "level": "random"} if s in bots else {"kind": "human", "name": f"P{s}"}
        for s in range(players)
    ]
    humans = [s for s in range(players) if s not in bots]
    app = create_app(
        SqliteStore(tmp_path / "db.sqlite3"), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False
    )
    with TestClient(app) as client:
        body = {"players": players, "cards": cards, "seats": seats, "seed": 11 + players}
        table = client.post("/api/tables", json=body).json()
        tid = table["table_id"]
        tokens: dict[int | None, str] = {s: table["seats"][s]["token"] for s in humans}
        tokens[None] = table["spectator_token"]
        with ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(client.websocket_connect(f"/ws/{tid}?token={token}"))
                for seat, token in tokens.items()
            }
            recorder = Recorder(client, table, sockets)
            final = play(recorder, humans, random.Random(players))
            for seat in sockets:  # every connection ends with the final view
                if recorder.last_step.get(seat) != final:
                    recorder.until(
                        seat, lambda m: m["type"] == "view" and m["view"]["step"] == final
                    )
        game = app.state.manager.cached(tid).game
    assert game.is_over and len(game.history) == final
    by_step = truths(game)
    problems = [
        f"seat {seat}: {problem}"
        for seat, payload in recorder.payloads
        for problem in check_payload(payload, seat, by_step)
    ]
    assert problems == []
    received = {seat for seat, p in recorder.payloads if p.get("type") == "view"}
    assert received == set(sockets)
    assert any(p.get("type") == "error" for _, p in recorder.payloads)
    assert any(p.get("view", p).get("lang") == "fr" for _, p in recorder.payloads)


def test_the_check_finds_leaks(tmp_path: Path) -> None:
    """A seat's view handed to another seat or to a spectator is caught, in both languages."""
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]
    app = create_app(SqliteStore(tmp_path / "db.sqlite3"), bot_delay=0, tune_gc=False)
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"players": 3, "seats": seats}).json()
        url = f"/api/tables/{table['table_id']}/view"
        red = table["seats"][0]["token"]
        first = client.get(url, params={"token": red}).json()
        client.post(
            f"/api/tables/{table['table_id']}/actions",
            json={"token": red, "action": first["legal"][0]["action"]},
        )
        after = {
            lang: client.get(url, params={"token": red, "lang": lang}).json()
            for lang in ["en", "fr"]
        }
        game = app.state.manager.cached(table["table_id"]).game
    by_step = truths(game)
    assert check_payload(after["en"], 0, by_step) == []
    for lang, view in after.items():
        for receiver in (1, None):
            problems = check_payload(view, receiver, by_step)
            assert any("hidden card" in p for p in problems), (lang, receiver)
            assert any(p.startswith("log line names hidden") for p in problems), (lang, problems)
            without_observation = {**view, "observation": {**view["observation"], "families": []}}
            assert any(
                "card label" in p for p in check_view(without_observation, receiver, by_step[1])
            )

"""Bot seats on the server: names, seeds, the worker processes, every level, and no stalls."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.api import Action, new_game
from oriflamme.server import SqliteStore, create_app, thinking
from oriflamme.server.protocol import NAME_MAX
from test_server_ws import connect, receive, until, view_at


def make_client(tmp_path: Path) -> TestClient:
    store = SqliteStore(tmp_path / "games.sqlite3")
    return TestClient(create_app(store, bot_delay=0, rate=1e4, burst=1e4, tune_gc=False))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def test_default_bot_names_differ_at_a_table() -> None:
    names = [thinking.bot_name(level, seat) for seat, level in enumerate(thinking.LEVELS)]
    assert names == [
        "Red bot (easy)",
        "Blue bot (medium)",
        "Green bot (hard)",
        "Yellow bot (expert)",
        "Purple bot (random)",
    ]
    assert all(len(name) <= NAME_MAX for name in names)
    assert len({thinking.bot_name("easy", seat) for seat in range(5)}) == 5


def test_decision_seeds_follow_the_game_the_seat_and_the_step() -> None:
    seed = thinking.decision_seed(7, 1, 12)
    assert seed == thinking.decision_seed(7, 1, 12) and 0 <= seed < 2**63
    others = {thinking.decision_seed(*key) for key in [(8, 1, 12), (7, 2, 12), (7, 1, 13)]}
    assert seed not in others and len(others) == 3


class _Answering:
    name = "answering"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> object:
        return self.answer


def test_a_bot_answer_that_is_not_legal_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(players=3, seed=2)
    legal = game.legal_actions()
    for answer, accepted in [(legal[1], True), (Action.spend(), False), ("place 4 end", False)]:
        monkeypatch.setattr(thinking, "make_bot", lambda level, seed, a=answer: _Answering(a))
        if accepted:
            assert thinking.decide("easy", 1, game.observe(0), legal) == answer
        else:
            with pytest.raises(ValueError, match="not a legal action"):
                thinking.decide("easy", 1, game.observe(0), legal)


def test_the_pool_thinks_in_workers_and_falls_back_to_a_seeded_random_move() -> None:
    game = new_game(players=3, seed=5)
    observation, legal = game.observe(0), game.legal_actions()

    async def scenario() -> list[Action]:
        pool = thinking.BotPool(workers=1)
        slow = thinking.BotPool(workers=1, timeout=0.05)
        try:
            return [
                await pool.think("easy", 11, observation, legal, delay=0),
                await pool.think("easy", 11, observation, legal, delay=0),
                await pool.think("nobody", 11, observation, legal, delay=0),
                await slow.think("expert", 12, observation, legal, delay=0),
            ]
        finally:
            pool.shutdown()
            slow.shutdown()

    easy, again, unknown, too_slow = asyncio.run(scenario())
    assert easy in legal and again == easy  # the same seed plays the same move
    assert easy == thinking.decide("easy", 11, observation, legal)  # as it would here
    assert unknown == random.Random(11).choice(legal)
    assert too_slow == random.Random(12).choice(legal)


def spawned_children() -> set[int]:
    """This process's children started by multiprocessing's spawn (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == os.getpid() and b"spawn_main" in command:
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_dead_worker_costs_one_random_move_then_a_new_pool_thinks() -> None:
    game = new_game(players=3, seed=5)
    observation, legal = game.observe(0), game.legal_actions()
    # A seed whose random fallback differs from the bot's own move, to tell them apart.
    seed = next(
        s
        for s in range(50)
        if thinking.decide("easy", s, observation, legal) != _fallback(s, legal)
    )

    async def scenario() -> list[Action]:
        pool = thinking.BotPool(workers=1)
        try:
            before = spawned_children()
            first = await pool.think("easy", seed, observation, legal, delay=0)
            killed = spawned_children() - before
            assert killed, "no worker process"
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
            await asyncio.sleep(0.5)  # the pool notices that its worker died
            after_death = await pool.think("easy", seed, observation, legal, delay=0)
            again = await pool.think("easy", seed, observation, legal, delay=0)
            return [first, after_death, again]
        finally:
            pool.shutdown()

    first, after_death, again = asyncio.run(scenario())
    assert after_death == _fallback(seed, legal)
    assert again == first == thinking.decide("easy", seed, observation, legal)


def _fallback(seed: int, legal: list[Action]) -> Action:
    return random.Random(seed).choice(legal)


def test_the_pause_before_a_bot_move_is_kept() -> None:
    """A bot's answer comes no sooner than the pause after the decision began. (How much later
    it comes on this machine: benchmarks/server/timings.py.)"""
    game = new_game(players=3, seed=5)

    async def timed() -> float:
        pool = thinking.BotPool(workers=1)
        try:
            await pool.think("random", 1, game.observe(0), game.legal_actions(), delay=0)
            start = time.monotonic()
            await pool.think("random", 1, game.observe(0), game.legal_actions(), delay=0.3)
            return time.monotonic() - start
        finally:
            pool.shutdown()

    assert asyncio.run(timed()) >= 0.3


def test_every_level_plays_its_seat(client: TestClient) -> None:
    # Five players: the four levels place their first cards, then the human must decide.
    seats: list[dict[str, Any]] = [{"kind": "bot", "level": lv} for lv in thinking.LEVELS[:4]]
    seats.append({"kind": "human", "name": "Ann"})
    response = client.post("/api/tables", json={"players": 5, "seats": seats})
    assert response.status_code == 201, response.text
    table = response.json()
    assert [s["name"] for s in table["seats"][:4]] == [
        thinking.bot_name(level, seat) for seat, level in enumerate(thinking.LEVELS[:4])
    ]
    with connect(client, table, table["seats"][4]["token"]) as ann:
        mine = until(ann, lambda m: m["type"] == "view" and bool(m["view"]["legal"]))["view"]
    assert mine["step"] == 4 and mine["waiting_for"]["seat"] == 4
    placed = [line for line in mine["log"] if " placed a card " in line]
    # Each bot named by its name, isolated (docs/server.md, "Names in sentences").
    assert [line.split("\u2069")[0] for line in placed] == [
        f"\u2068{thinking.bot_name(level, seat)}" for seat, level in enumerate(thinking.LEVELS[:4])
    ]
    random_seat = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}]
    duel = client.post("/api/tables", json={"players": 2, "seats": random_seat, "first_player": 1})
    with connect(client, duel.json(), duel.json()["seats"][0]["token"]) as ann:
        assert until(ann, lambda m: m["type"] == "view" and m["view"]["step"] >= 1)


def test_a_thinking_bot_stalls_no_other_game(client: TestClient) -> None:
    """While an expert bot thinks for table A, table B's actions are answered: the search runs
    in a worker process, never in the server's event loop (which would answer nothing until the
    bot moved). (How fast B is answered meanwhile, and the server's share of the CPU:
    benchmarks/server/timings.py.)"""
    seats_a = [{"kind": "bot", "level": "expert"}, {"kind": "human", "name": "Ann"}]
    seats_b = [{"kind": "human", "name": "Ben"}, {"kind": "human", "name": "Cid"}]
    table_b = client.post("/api/tables", json={"players": 2, "seats": seats_b, "seed": 9}).json()
    summary_a = ""

    def thinking() -> bool:
        """A's bot has its decision and has not answered yet."""
        playing = client.get("/healthz").json()["bots_playing"]
        return bool(playing == 1 and client.get(summary_a).json()["step"] == 0)

    with (
        connect(client, table_b, table_b["seats"][0]["token"]) as ben,
        connect(client, table_b, table_b["seats"][1]["token"]) as cid,
    ):
        views = [receive(ben)["view"], receive(cid)["view"]]
        table_a = client.post("/api/tables", json={"players": 2, "seats": seats_a}).json()
        summary_a = f"/api/tables/{table_a['table_id']}"
        deadline = time.monotonic() + 20
        while not thinking():
            assert time.monotonic() < deadline, "the expert bot never started thinking"
            time.sleep(0.01)
        answered_while_thinking = 0
        while thinking() and (views[0]["legal"] or views[1]["legal"]):  # until B's game ends
            seat = 0 if views[0]["legal"] else 1
            socket, view = (ben, cid)[seat], views[seat]
            socket.send_json(
                {"type": "act", "action": view["legal"][0]["action"], "step": view["step"]}
            )
            views = [until(ws, view_at(view["step"] + 1))["view"] for ws in (ben, cid)]
            answered_while_thinking += thinking()
        while client.get(summary_a).json()["step"] == 0:
            assert time.monotonic() < deadline, "the expert bot never moved"
            time.sleep(0.05)
    assert answered_while_thinking >= 3, "table B could not play while the bot thought"

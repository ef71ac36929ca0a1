"""Hints and analyses use only the deciding seat's observation (R-INFO-1).

As in the bots' test (tests/bots/test_ismcts.py; the positions come from tests/hidden_cards.py):
the same position with the hidden cards of the other seats dealt differently must get the same
hint and the same analysis of a decision; dealing the seat's own hidden cards differently (which
it knows) changes some answers, so the test would catch an adviser that read the hidden cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hidden_cards import placement_positions, rotated
from oriflamme.api import Game
from oriflamme.server import SqliteStore, create_app, hints
from oriflamme.server.analysis import review_step

HUMANS3 = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]
ITERATIONS = 60


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ORIFLAMME_REVIEW_ITERATIONS", str(ITERATIONS))
    # The search stops at its iterations, never at its time cap: a loaded machine (the hint
    # worker runs below the bots' priority) would otherwise cut some searches short, and the
    # same observation could get a different hint for a reason that is not the hidden cards.
    monkeypatch.setattr(hints, "HINT_SECONDS", 600.0)
    app = create_app(
        SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, rate=1000, burst=1000,
        tune_gc=False,
    )
    with TestClient(app) as c:
        yield c


def hint_at(client: TestClient, game: Game) -> dict[str, Any]:
    """The hint red (seat 0) gets at a learning table continuing ``game``'s position."""
    body = {"players": 3, "seats": HUMANS3, "save": game.position(), "hints": True}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table = created.json()
    answer = client.get(
        f"/api/tables/{table['table_id']}/hint", params={"token": table["seats"][0]["token"]}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_a_hint_ignores_the_hidden_cards_of_the_other_seats(client: TestClient) -> None:
    own_changes = 0
    for game in placement_positions(4):
        others = rotated(game, {"blue", "green"})
        assert others.observe(0) == game.observe(0) and others.position() != game.position()
        hint = hint_at(client, game)
        assert hint_at(client, others) == hint
        own_changes += hint_at(client, rotated(game, {"red"})) != hint
    assert own_changes > 0


def _record(game: Game, action: dict[str, Any]) -> dict[str, Any]:
    """A replay record of one action from ``game``'s position."""
    return {
        "format": "oriflamme-replay",
        "version": 1,
        "config": game.config.to_dict(),
        "seed": None,
        "start": game.save(),
        "actions": [action],
    }


def test_an_analysed_decision_ignores_the_hidden_cards_of_the_other_seats() -> None:
    own_changes = 0
    for game in placement_positions(4):
        played = game.legal_actions()[-1].to_json()
        judged = review_step(_record(game, played), 0, ITERATIONS, None)
        others = rotated(game, {"blue", "green"})
        assert review_step(_record(others, played), 0, ITERATIONS, None) == judged
        assert judged["player"] == 0 and judged["played"] == played
        own = rotated(game, {"red"})
        if own.legal_actions() == game.legal_actions():
            own_changes += review_step(_record(own, played), 0, ITERATIONS, None) != judged
    assert own_changes > 0

"""The server's ``View`` model (the OpenAPI schema clients read) and what ``build_view`` sends
agree, and so do the observation it carries and the observation's typed dicts
(``oriflamme.api.Observation``, which mypy checks every read against): at every step of real
games served over HTTP, for every seat and a spectator, each object has exactly the keys its
type names and each value its type."""

from __future__ import annotations

import random
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel

from oriflamme.api import Observation, ObservedResult, new_game
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.protocol import ResultInfo, View

#: Fields whose model type is looser than what is sent: checked against the precise type.
PRECISE: dict[tuple[type, str], object] = {(View, "observation"): Observation}


def conforms(kind: object, value: object, where: str = "view") -> None:
    """Fail unless the JSON ``value`` has the type ``kind``: a pydantic model's fields, all
    present and no others; a typed dict's required keys, and optional ones only."""
    origin = get_origin(kind)
    if kind is Any:
        return
    if origin in (Union, types.UnionType):
        failures = []
        for option in get_args(kind):
            try:
                conforms(option, value, where)
                return
            except AssertionError as failure:
                failures.append(str(failure))
        raise AssertionError(f"{where}: {value!r} is none of {kind}: {failures}")
    if kind is type(None):
        assert value is None, f"{where}: {value!r} is not null"
    elif origin is Literal:
        assert value in get_args(kind), f"{where}: {value!r} is not one of {get_args(kind)}"
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            conforms(get_args(kind)[0], item, f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        for key, item in value.items():
            conforms(get_args(kind)[0], key, f"{where} key")
            conforms(get_args(kind)[1], item, f"{where}.{key}")
    elif is_typeddict(kind):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        hints = get_type_hints(kind)
        missing = kind.__required_keys__ - set(value)  # type: ignore[attr-defined]
        unknown = set(value) - set(hints)
        assert not missing and not unknown, f"{where}: missing {missing}, unknown {unknown}"
        for key, item in value.items():
            conforms(hints[key], item, f"{where}.{key}")
    elif isinstance(kind, type) and issubclass(kind, BaseModel):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        hints = get_type_hints(kind)
        assert set(value) == set(kind.model_fields), (
            f"{where}: missing {set(kind.model_fields) - set(value)},"
            f" not in the model {set(value) - set(kind.model_fields)}")
        for key, item in value.items():
            conforms(PRECISE.get((kind, key), hints[key]), item, f"{where}.{key}")
    elif kind is bool:
        assert type(value) is bool, f"{where}: {value!r} is not a boolean"
    elif kind is int:  # an IntEnum is one (a frame's argument may be a CardType)
        assert isinstance(value, int) and type(value) is not bool, f"{where}: {value!r} not an int"
    elif kind is float:
        assert type(value) in (int, float), f"{where}: {value!r} is not a number"
    elif kind is str:
        assert isinstance(value, str), f"{where}: {value!r} is not a string"
    else:
        raise AssertionError(f"{where}: no check for the type {kind}")


def test_the_checker_catches_a_key_or_a_value_the_types_do_not_name() -> None:
    observation = new_game(players=3, seed=1).observe(0)
    conforms(Observation, observation)
    for broken in (
        {**observation, "extra": 1},
        {key: value for key, value in observation.items() if key != "pending"},
        {**observation, "round": "1"},
        {**observation, "decision": {**observation["decision"], "card": "a"}},  # type: ignore[dict-item]
        {**observation, "families": [{**observation["families"][0], "hand": [{"id": 1}]}]},
    ):
        with pytest.raises(AssertionError):
            conforms(Observation, broken)


def test_the_result_model_names_the_observed_result() -> None:
    assert set(ResultInfo.model_fields) == set(get_type_hints(ObservedResult))


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 3, "cards": "embrasement", "clock": {"per_decision": 600}},
        {"players": 2, "cards": "base"},
    ],
)
def test_every_view_sent_matches_the_view_model_and_the_observation_types(
    tmp_path: Path, setup: dict[str, Any]
) -> None:
    rng = random.Random(3)
    players = setup["players"]
    seats = [{"kind": "human", "name": f"P{seat}"} for seat in range(players)]
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, rate=1e4,
                     burst=1e4, tune_gc=False)
    seen = {"hand": 0, "pending": 0, "decision": 0, "result": 0, "legal": 0}
    if "clock" in setup:
        seen["clock"] = 0
    with TestClient(app) as client:
        created = client.post("/api/tables", json={**setup, "seats": seats, "seed": 11})
        assert created.status_code == 201, created.text
        table = created.json()
        tokens = [seat["token"] for seat in table["seats"]] + [table["spectator_token"]]
        url = f"/api/tables/{table['table_id']}"
        while True:
            views = [client.get(f"{url}/view", params={"token": token}).json()
                     for token in tokens]
            for view in views:
                conforms(View, view)
                observation = view["observation"]
                seen["hand"] += any("hand" in family for family in observation["families"])
                seen["pending"] += bool(observation["pending"])
                seen["decision"] += observation["decision"] is not None
                seen["result"] += view["result"] is not None
                if "clock" in seen:
                    seen["clock"] += view["clock"] is not None
                seen["legal"] += bool(view["legal"])
            decision = views[-1]["observation"]["decision"]
            if decision is None:
                break
            seat = decision["player"]
            action = rng.choice(views[seat]["legal"])["action"]
            step = views[seat]["step"]
            posted = client.post(f"{url}/actions",
                                 json={"token": tokens[seat], "action": action, "step": step})
            assert posted.status_code == 200, posted.text
    # every optional part of a view was sent at least once, so each was checked
    assert all(seen.values()), seen


def test_observations_with_their_log_match_the_observation_types() -> None:
    rng = random.Random(4)
    game = new_game(players=4, cards="embrasement", seed=2)
    while not game.is_over:
        game.apply(game.random_action(rng))
        for viewer in (None, *range(4)):
            conforms(Observation, game.observe(viewer, log=True), f"observation({viewer})")
    assert game.observe(0, log=True)["log"]

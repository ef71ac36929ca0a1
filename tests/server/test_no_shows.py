"""Ghost joins (issue #26, item 7), on SQLite and PostgreSQL: a stranger who takes a seat and
never connects is never "away", so a public table without a clock used to wait for them
forever. A table strangers can join always has a limit: a turn clock, or a no-show limit after
which the stand-in plays for a seat whose player never connected; the lobby shows it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from fairplay import (
    ANN,
    BEN,
    OPEN,
    act_first,
    app_client,
    create,
    join,
    receive,
    refused,
    summary,
    view,
    wait_until,
)
from oriflamme.server.absence import NO_SHOW_DEFAULT


@pytest.mark.parametrize(
    ("fields", "limit", "clock"),
    [
        ({"public": True}, NO_SHOW_DEFAULT, None),
        ({"public": False}, NO_SHOW_DEFAULT, None),  # its join link is enough to take a seat
        ({"public": True, "no_show_after": 45}, 45, None),
        ({"public": True, "clock": {"per_decision": 60}, "no_show_after": None}, None, 60),
    ],
)
def test_a_table_strangers_can_join_always_has_a_limit(
    store_url: str, fields: dict[str, Any], limit: float | None, clock: float | None
) -> None:
    with app_client(store_url) as client:
        table = create(client, seats=[ANN, OPEN], **fields)
        shown = summary(client, table["table_id"])
        assert (shown["no_show_after"], shown["clock"]) == (limit, clock)
        if fields["public"]:
            [listed] = client.get("/api/lobby").json()["tables"]
            assert (listed["no_show_after"], listed["clock"]) == (limit, clock)


def test_no_limit_at_all_is_refused_where_strangers_can_join(store_url: str) -> None:
    with app_client(store_url) as client:
        for public in (True, False):
            answer = client.post(
                "/api/tables",
                json={"players": 2, "seats": [ANN, OPEN], "public": public,
                      "no_show_after": None},
            )
            message = refused(answer, 422, "invalid_request")
            assert message.startswith("no_show_after:") and "clock" in message
        # Among invited people, waiting for a friend stays the default.
        invited = create(client, seats=[ANN, BEN])
        assert summary(client, invited["table_id"])["no_show_after"] is None
        bounds = [{"no_show_after": 1}, {"no_show_after": 10**7}, {"no_show_after": 2.5}]
        for fields in bounds:
            body = {"players": 2, "seats": [ANN, OPEN], "public": True, **fields}
            refused(client.post("/api/tables", json=body), 422, "invalid_request")


def test_the_stand_in_plays_for_a_ghost_after_the_no_show_limit(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(
            client, public=True, seats=[ANN, OPEN], no_show_after=2, stand_in="random"
        )
        table_id, ann = table["table_id"], table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ws:
            receive(ws)
            joined = time.monotonic()
            ghost = join(client, table_id, "Ghost").json()  # and never connects
            assert ghost["seat"] == 1
            assert act_first(client, table_id, ann).status_code == 200  # Ann places first
            public = table["spectator_token"]
            waiting = view(client, table_id, public)
            assert (waiting["step"], waiting["waiting_for"]["seat"]) == (1, 1)
            played = wait_until(
                lambda: view(client, table_id, public), lambda v: v["step"] > 1, 10
            )
            assert time.monotonic() - joined >= 1.5  # not before the limit
            assert played["seats"][1]["kind"] == "human"  # still the ghost's seat
            assert played["seats"][1]["away"] is True  # its stand-in plays
            assert played["seats"][0]["away"] is False


def test_a_player_who_connected_once_is_not_a_no_show(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(
            client, public=True, seats=[OPEN, ANN], no_show_after=2, stand_in="random",
            absent_after=None, clock={"per_decision": 600},
        )
        table_id, ann = table["table_id"], table["seats"][1]["token"]
        with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ann_ws:
            receive(ann_ws)
            ben = join(client, table_id, "Ben").json()
            with client.websocket_connect(f"/ws/{table_id}?token={ben['token']}") as ws:
                assert receive(ws)["view"]["you"] == 0
                wait_until(lambda: summary(client, table_id),
                           lambda s: s["seats"][0]["connected"], 5)
            # Ben came, then left: an absence (never played for at this table), not a no-show.
            time.sleep(3)
            seen = view(client, table_id, ann)
            assert seen["step"] == 0 and seen["waiting_for"]["seat"] == 0
            assert seen["seats"][0]["away"] is False

"""A table whose game was played to its end through the HTTP API: what the benchmarks and tests
that ask for analyses start from (benchmarks/server/bot_flood.py imports it; the server's tests
of fair queues load it with ``scripts.load_module``)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import httpx

#: Two human seats: every move of the table is the caller's.
PAIR = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
#: The pause before sending again a move refused as too fast (429).
RETRY_S = 0.05


def finished_table(
    client: httpx.Client, headers: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A 2-player table of two humans whose first game was played to its end, each seat playing
    its first legal option. ``headers`` go with the requests that count against the address's
    quota (creating the table, acting; e.g. ``X-Forwarded-For``); a move refused as too fast
    is sent again, any other refusal raises."""
    body = {"players": 2, "variant": "standard", "seats": PAIR}
    created = client.post("/api/tables", json=body, headers=headers)
    created.raise_for_status()
    table: dict[str, Any] = created.json()
    tokens = [seat["token"] for seat in table["seats"]]
    path = f"/api/tables/{table['table_id']}"
    while True:
        for token in tokens:
            view = client.get(f"{path}/view", params={"token": token}).json()
            if view["result"] is not None:
                return table
            if view["legal"]:
                action = {"token": token, "action": view["legal"][0]["action"]}
                while (moved := client.post(f"{path}/actions", json=action, headers=headers)
                       ).status_code == 429:
                    time.sleep(RETRY_S)
                if moved.status_code != 200:
                    raise RuntimeError(f"a move was refused: {moved.status_code} {moved.text}")

"""The lobby across two real server processes on one PostgreSQL database (issue #26 item 3): one
address creating public tables through both servers at once gets exactly its quota listed, and
both servers list the same pages. The client's address comes through ``X-Forwarded-For``, which
a server trusts from 127.0.0.1 (uvicorn's default ``FORWARDED_ALLOW_IPS``), as behind a proxy.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from test_scale_out import two_servers

ANN = {"kind": "human", "name": "Ann"}
OPEN = {"kind": "open"}


def create(client: httpx.Client, address: str) -> httpx.Response:
    body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True}
    return client.post("/api/tables", json=body, headers={"X-Forwarded-For": address})


def every_page(client: httpx.Client, **params: Any) -> list[str]:
    ids: list[str] = []
    cursor = None
    while True:
        query = {**params, **({"cursor": cursor} if cursor else {})}
        found = client.get("/api/lobby", params=query).json()
        ids += [t["table_id"] for t in found["tables"]]
        if (cursor := found["next"]) is None:
            return ids


def test_one_address_racing_through_two_servers_lists_its_quota(
    pg_url: str, tmp_path: Path
) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b), ThreadPoolExecutor(12) as pool:
        real = create(a, "198.51.100.7")
        assert real.status_code == 201, real.text
        spammer = "2001:db8:77::1"
        answers = list(
            pool.map(
                lambda i: create((a, b)[i % 2], f"2001:db8:77::{i + 1:x}"), range(12)
            )
        )
        codes = sorted(r.status_code for r in answers)
        assert codes == [201] * 3 + [429] * 9, [r.text for r in answers]
        assert {r.json()["error"]["code"] for r in answers if r.status_code == 429} == {
            "too_many_public_tables"
        }
        assert create(b, spammer).status_code == 429
        assert create(a, "2001:db8:78::1").status_code == 201  # another /64
        listed = every_page(a, limit=2)
        assert len(listed) == 5 and real.json()["table_id"] in listed
        assert every_page(b, limit=2) == listed

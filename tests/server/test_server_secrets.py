"""What the server keeps secret (docs/server.md, "Concepts" and "Limits and abuse"): tokens are
stored only as SHA-256 digests and client addresses only as digests, on SQLite and PostgreSQL;
the server's logs hide the values of ``token=``, ``seat=`` and ``watch=``; every page carries
the documented Content-Security-Policy and every response the other security headers.

Each test reads what the real server wrote (every row of every table of its database, its log)
rather than the code that writes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from oriflamme.server import create_app
from oriflamme.server.quotas import Quotas
from servers import running_server

ROOT = Path(__file__).resolve().parents[2]
#: An address of the documentation range (RFC 5737): the client every request comes from.
ADDRESS = "203.0.113.77"
SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}, {"kind": "open"}]


def documented_policy() -> list[str]:
    """The Content-Security-Policy that docs/server.md gives the pages, directive by directive."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    found = re.search(r"`Content-Security-Policy: ([^`]*)`", text)
    assert found, "docs/server.md gives no Content-Security-Policy"
    return directives(" ".join(found.group(1).split()))


def directives(policy: str) -> list[str]:
    return [" ".join(part.split()) for part in policy.split(";") if part.strip()]


# -- what the database holds -------------------------------------------------------------------
def sqlite_rows(path: Path) -> list[str]:
    """Every value of every row of every table of the SQLite database ``path``, as text."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return [repr(row) for name in names for row in db.execute(f'SELECT * FROM "{name}"')]


async def _postgres_rows(url: str) -> list[str]:
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        names = await db.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        rows = []
        for (name,) in names:
            rows += [repr(tuple(r.values())) for r in await db.fetch(f'SELECT * FROM "{name}"')]
        return rows
    finally:
        await db.close()


def postgres_rows(url: str) -> list[str]:
    return asyncio.run(_postgres_rows(url))


def play_the_secrets(db: str) -> tuple[list[str], str]:
    """Through a server on ``db`` (from :data:`ADDRESS`): a table with two human seats and an
    open one, which someone joins. Returns every token handed out, and the table's id."""
    app = create_app(db, bot_delay=0, rate=1e6, burst=1e6, tune_gc=False, quotas=Quotas(0, 0))
    with TestClient(app, client=(ADDRESS, 50000)) as client:
        created = client.post("/api/tables", json={"players": 3, "seats": SEATS})
        assert created.status_code == 201, created.text
        table = created.json()
        joined = client.post(f"/api/tables/{table['table_id']}/join", json={"name": "Cid"})
        assert joined.status_code == 201, joined.text
        tokens = [table["creator_token"], table["spectator_token"], joined.json()["token"]]
        tokens += [s["token"] for s in table["seats"] if s["token"]]
    assert len(set(tokens)) == 5
    return tokens, table["table_id"]


def assert_kept_as_digests(rows: list[str], tokens: list[str], table_id: str) -> None:
    dump = "\n".join(rows)
    assert table_id in dump  # the rows of the table were read
    for token in tokens:
        assert token not in dump, "a token is stored in clear"
        assert hashlib.sha256(token.encode()).hexdigest() in dump, "a token's digest is missing"
    assert ADDRESS not in dump, "a client's address is stored in clear"


def test_tokens_and_addresses_are_stored_only_as_digests_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    tokens, table_id = play_the_secrets(str(path))
    assert_kept_as_digests(sqlite_rows(path), tokens, table_id)


def test_tokens_and_addresses_are_stored_only_as_digests_on_postgresql(pg_url: str) -> None:
    tokens, table_id = play_the_secrets(pg_url)
    assert_kept_as_digests(postgres_rows(pg_url), tokens, table_id)


def test_the_address_digest_serves_the_per_address_quota(tmp_path: Path) -> None:
    """The digest is what the quota counts: a second table from the same address is refused
    with a quota of one, while another address may create one."""
    quotas = Quotas(1, 0)
    app = create_app(
        str(tmp_path / "games.sqlite3"), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False,
        quotas=quotas,
    )
    body = {"players": 2, "seats": SEATS[:2]}
    with TestClient(app, client=(ADDRESS, 50000)) as client:
        assert client.post("/api/tables", json=body).status_code == 201
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_many_tables"
    with TestClient(app, client=("198.51.100.5", 50000)) as other:
        assert other.post("/api/tables", json=body).status_code == 201
    assert ADDRESS not in "\n".join(sqlite_rows(tmp_path / "games.sqlite3"))


# -- what the logs hold ------------------------------------------------------------------------
def test_the_logs_hide_every_token_of_every_link(tmp_path: Path) -> None:
    """A real ``oriflamme serve``: the invite links (``?seat=``), the spectator link
    (``?watch=``), the replay page, the API and the WebSocket (``?token=``) are requested; its
    log shows each request line without the token."""
    log = tmp_path / "server.log"
    with running_server(tmp_path / "games.sqlite3", log, "--bot-delay", "0") as (_, client):
        body = {"players": 3, "seats": [*SEATS[:2], {"kind": "human", "name": "Cid"}]}
        table = client.post("/api/tables", json=body).json()
        table_id = table["table_id"]
        ann, ben, cid = (s["token"] for s in table["seats"])
        watch, creator = table["spectator_token"], table["creator_token"]
        pages: list[tuple[str, dict[str, Any]]] = [
            (f"/t/{table_id}", {"seat": ann}),
            (f"/t/{table_id}", {"watch": watch}),
            (f"/t/{table_id}/replay", {"game": 1, "token": creator}),
            (f"/api/tables/{table_id}/view", {"token": ben}),
            (f"/api/tables/{table_id}/view", {"lang": "fr", "token": "not-a-token-of-it"}),
        ]
        for path, params in pages:
            assert client.get(path, params=params).status_code in (200, 401)
        base = str(client.base_url).replace("http://", "ws://")
        with connect(f"{base}/ws/{table_id}?token={cid}&lang=fr") as ws:
            assert '"view"' in str(ws.recv(timeout=10))
        assert client.get("/healthz").status_code == 200  # the access lines are written
    logged = log.read_text(encoding="utf-8", errors="replace")
    for token in (ann, ben, cid, watch, creator, "not-a-token-of-it"):
        assert token not in logged, f"a token is in the log:\n{logged}"
    for shown in ("?seat=…", "?watch=…", "&token=…", "?token=…", f"/ws/{table_id}?token=…"):
        assert shown in logged, f"no request line with {shown} in the log:\n{logged}"


# -- what every response carries ---------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        str(tmp_path / "games.sqlite3"), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False
    )
    with TestClient(app) as c:
        yield c


def test_every_page_carries_the_whole_documented_policy(client: TestClient) -> None:
    """The lobby, a seat's and a spectator's game page and the replay page: the exact policy of
    docs/server.md (no directive more, none less), and the three other headers."""
    policy = documented_policy()
    assert "frame-ancestors 'none'" in policy and len(policy) == 9
    table = client.post("/api/tables", json={"players": 2, "seats": SEATS[:2]}).json()
    table_id = table["table_id"]
    pages = [
        "/",
        f"/t/{table_id}?seat={table['seats'][0]['token']}",
        f"/t/{table_id}?watch={table['spectator_token']}",
        f"/t/{table_id}/replay?game=1&token={table['creator_token']}",
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200 and "<html" in response.text.lower(), page
        assert directives(response.headers["content-security-policy"]) == policy, page
        assert_security_headers(response)


def assert_security_headers(response: httpx.Response) -> None:
    """docs/server.md: ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and
    ``X-Frame-Options: DENY`` on every response."""
    where = f"{response.request.method} {response.request.url.path} ({response.status_code})"
    assert response.headers.get("referrer-policy") == "no-referrer", where
    assert response.headers.get("x-content-type-options") == "nosniff", where
    assert response.headers.get("x-frame-options") == "DENY", where


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    """Pages, static files, the API's answers and its errors, the refusals of the body limits."""
    table = client.post("/api/tables", json={"players": 2, "seats": SEATS[:2]}).json()
    table_id, ann = table["table_id"], table["seats"][0]["token"]
    responses = [
        client.get("/static/js/main.js"),
        client.get("/static/css/base.css"),
        client.get("/favicon.ico"),  # not_found
        client.get("/api/cards"),
        client.get("/api/lobby"),
        client.get("/healthz"),
        client.get("/openapi.json"),
        client.get(f"/api/tables/{table_id}"),
        client.get(f"/api/tables/{table_id}/view", params={"token": ann}),
        client.get(f"/api/tables/{table_id}/view", params={"token": "nobody"}),  # 401
        client.get("/api/tables/nothing-here"),  # 404 unknown_table
        client.delete(f"/api/tables/{table_id}"),  # 405
        client.post("/api/tables", json={"players": 9}),  # 422
        client.post(f"/api/tables/{table_id}/actions", content=b"{" + b" " * 20_000 + b"}"),
        client.post("/api/tables", content=b"[" * 40 + b"]" * 40),  # 400 bad_json
        client.get(f"/api/tables/{table_id}/games/1/replay", params={"token": ann}),  # 409
    ]
    statuses = {response.status_code for response in responses}
    assert {200, 400, 401, 404, 405, 409, 413, 422} <= statuses
    for response in responses:
        assert_security_headers(response)

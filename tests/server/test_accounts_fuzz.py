"""Fuzzing the accounts' API from the server's OpenAPI schema (schemathesis), signed in: no
request, however odd, is a 5xx or an ``internal_error``; every error has the documented shape;
a refused request changes no stored account, session, passkey or table. (The server-wide fuzz,
tests/test_server_fuzz.py, reaches the same endpoints as a guest.)"""

from __future__ import annotations

import contextlib
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from oriflamme.server import SqliteStore, create_app
from test_server_fuzz import assert_documented_error

DB = Path(tempfile.mkdtemp(prefix="oriflamme-accounts-fuzz-")) / "games.sqlite3"
APP = create_app(SqliteStore(DB), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP).include(path_regex="^/api/account")
PASSWORD = "correct horse battery"
SIGNED_IN: dict[str, str] = {}
RECORDS = ("accounts", "sessions", "passkeys", "tables", "seats")


def _signed_in() -> dict[str, str]:
    """A session (cookie and CSRF token) of an account made once, signed in again if a fuzzed
    request ended it."""
    call = SCHEMA["/api/account/session"]["GET"].Case(cookies=SIGNED_IN.get("cookies")).call()
    if SIGNED_IN and call.json()["account"] is not None:
        return SIGNED_IN
    body = {"name": "Fuzzy", "password": PASSWORD}
    response = SCHEMA["/api/account/signup"]["POST"].Case(body=body).call()
    if response.status_code == 409:
        response = SCHEMA["/api/account/signin"]["POST"].Case(body=body).call()
    assert response.status_code < 300, response.text
    headers = response.headers.get("set-cookie") or response.headers.get("Set-Cookie") or []
    cookies = [headers] if isinstance(headers, str) else headers
    cookie = next(c for c in cookies if c.startswith("oriflamme_session=")).split(";")[0]
    cookie = cookie.split("=", 1)[1]
    SIGNED_IN.update(cookies={"oriflamme_session": cookie}, csrf=response.json()["csrf"])
    return SIGNED_IN


def stored() -> dict[str, list[tuple[Any, ...]]]:
    with contextlib.closing(sqlite3.connect(f"file:{DB}?mode=ro", uri=True)) as db:
        return {name: sorted(db.execute(f"SELECT * FROM {name}"), key=repr) for name in RECORDS}


@SCHEMA.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_account_request_is_a_server_error(case: Any) -> None:
    session = _signed_in()
    case.cookies = {**(case.cookies or {}), **session["cookies"]}
    case.headers = {**(case.headers or {}), "X-CSRF-Token": session["csrf"]}
    before = stored()
    response = case.call()
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_documented_error(response)
        if response.status_code != 429:  # a refused sign-in is counted (sign_in_failures)
            assert stored() == before, response.text

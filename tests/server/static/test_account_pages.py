"""The accounts' pages and strings (server/static: account.html, account*.js): both languages
complete and every string used, the account page served under the pages' policy, the front page
loading the account area (the error codes' texts are i18n.js's, checked by test_page_texts.py),
the common passwords shipped as generated, and no account script
reading or writing the session cookie (it is HttpOnly)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from oriflamme.server import SqliteStore, create_app
from oriflamme.server.accounts.common import common_passwords, is_common
from scripts import ROOT
from test_web_client import (
    JS,
    STATIC,
    check_string_table,
    source,
)


def test_the_account_strings_are_complete_in_both_languages_and_all_used() -> None:
    check_string_table("account_i18n.js", "at", 40, page="account.html")


def test_no_script_touches_the_session_cookie() -> None:
    for path in JS.glob("account*.js"):
        assert "document.cookie" not in source(path), path


def test_the_account_page_is_served_and_the_front_page_loads_the_account_area(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(SqliteStore(tmp_path / "g.sqlite3"), tune_gc=False)) as client:
        page = client.get("/account")
        assert page.status_code == 200 and "account.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert client.get("/static/js/account.js").status_code == 200
        assert client.get("/static/css/account.css").status_code == 200
    assert 'import { installAccountBar, renderAccountBar } from "./account_bar.js";' in source(
        JS / "lobby.js"
    )
    assert "/static/css/account.css" in source(STATIC / "index.html")


def test_the_common_passwords_are_the_generated_list() -> None:
    script = ROOT / "tools" / "common_passwords.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True)
    assert done.returncode == 0, "run tools/common_passwords.py to write the list again"
    listed = common_passwords()
    assert 5000 < len(listed) < 20000
    assert all(len(p) >= 8 and p == p.lower() for p in listed)
    assert is_common("Password123") and is_common("AZERTY123") and not is_common("Oriflamme-7f3k")

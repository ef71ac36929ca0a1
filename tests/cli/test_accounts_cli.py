"""``oriflamme accounts`` on the database the server uses (both backends): list, suspend and
unsuspend (a suspended account cannot sign in; its sessions end), reset a password, grant and
revoke the admin role; clear errors for unknown names and weak passwords."""

from __future__ import annotations

import io
import re

import pytest
from fastapi.testclient import TestClient

from oriflamme.cli.main import main
from oriflamme.server import create_app

PASSWORD = "correct horse battery"
ORIGIN = {"Origin": "http://testserver"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["accounts", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_accounts_command(
    store_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(store_url, bot_delay=0, tune_gc=False)
    with TestClient(app, headers=ORIGIN) as client:
        for name in ("Cid", "Ann", "ben"):
            client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert client.get("/api/account").json()["name"] == "ben"

        code, out, err = run(capsys, "list", "--db", store_url)
        assert code == 0 and err.strip() == "3 accounts"
        assert [line.split("\t")[0] for line in out.splitlines()] == ["Ann", "ben", "Cid"]
        assert all(line.endswith("\t-") for line in out.splitlines())
        code, out, _ = run(capsys, "list", "--db", store_url, "--limit", "1", "--after", "ann")
        assert [line.split("\t")[0] for line in out.splitlines()] == ["ben"]

        code, out, _ = run(capsys, "suspend", "BEN", "--db", store_url)
        assert (code, out.strip()) == (0, "ben is suspended (1 sessions ended)")
        assert client.get("/api/account").status_code == 401
        refused = client.post("/api/account/signin", json={"name": "ben", "password": PASSWORD})
        assert refused.json()["error"]["code"] == "account_suspended"
        code, out, _ = run(capsys, "list", "--db", store_url)
        assert "\tsuspended" in out.splitlines()[1]
        code, out, _ = run(capsys, "unsuspend", "ben", "--db", store_url)
        assert (code, out.strip()) == (0, "ben is no longer suspended")
        again = client.post("/api/account/signin", json={"name": "ben", "password": PASSWORD})
        assert again.status_code == 200

        code, out, _ = run(capsys, "grant-admin", "ben", "--db", store_url)
        assert (code, out.strip()) == (0, "ben is an admin")
        assert client.get("/api/account").json()["admin"] is True
        code, out, _ = run(capsys, "revoke-admin", "ben", "--db", store_url)
        assert client.get("/api/account").json()["admin"] is False

        code, out, _ = run(capsys, "reset-password", "ben", "--db", store_url)
        assert code == 0
        found = re.search(r"the new password: (\S+)$", out.strip())
        assert found is not None and len(found.group(1)) == 16
        assert client.get("/api/account").status_code == 401  # its sessions ended
        old = client.post("/api/account/signin", json={"name": "ben", "password": PASSWORD})
        assert old.status_code == 401
        new = client.post("/api/account/signin", json={"name": "ben", "password": found.group(1)})
        assert new.status_code == 200

        monkeypatch.setattr("sys.stdin", io.StringIO("my chosen passphrase\n"))
        code, out, _ = run(capsys, "reset-password", "ben", "--stdin", "--db", store_url)
        assert code == 0 and "new password" not in out
        chosen = {"name": "ben", "password": "my chosen passphrase"}
        assert client.post("/api/account/signin", json=chosen).status_code == 200

        monkeypatch.setattr("sys.stdin", io.StringIO("password1\n"))
        code, _, err = run(capsys, "reset-password", "ben", "--stdin", "--db", store_url)
        assert code == 2 and "common" in err
        code, _, err = run(capsys, "suspend", "Nobody", "--db", store_url)
        assert code == 2 and "no account is called 'Nobody'" in err
        code, _, err = run(capsys, "--db", store_url)
        assert code == 2


def test_without_a_subcommand_it_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "say what to do" in err

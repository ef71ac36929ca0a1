"""The words of the player's page (issue #26, page item 7): no raw error code ever reaches a toast
(every code the server can send has its text in English and French, and the client's toasts use
it), and French typography in the client's French strings (a narrow no-break space before
":", ";", "!", "?" and "%"; "robot", never "bot").
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_web_client import i18n_tables, require_node

ROOT = Path(__file__).resolve().parents[3]
SERVER = ROOT / "src" / "oriflamme" / "server"
JS = SERVER / "static" / "js"
#: Codes the client makes itself (api.js: the server cannot be reached).
CLIENT_CODES = {"network", "generic"}


def server_error_codes() -> set[str]:
    """Every error code of the server: raised in its source, or listed in docs/server.md."""
    codes: set[str] = set()
    for path in SERVER.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'ApiError\(\s*(?:\d{3}|[\w.]+),\s*"([a-z_]+)"', text, re.S))
        codes |= set(re.findall(r'_error\(\s*"([a-z_]+)"', text))
    doc = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    table = re.search(r"\| status \| codes \|\n\|---\|---\|\n((?:\|.*\|\n)+)", doc)
    assert table, "docs/server.md lost its table of error codes"
    for row in table.group(1).splitlines():
        codes |= set(re.findall(r"`([a-z][a-z_]*)`", row.split("|")[2]))
    return codes


def test_the_list_of_codes_is_complete_enough_to_mean_something() -> None:
    codes = server_error_codes()
    named = {"waiting_for_players", "seat_is_bot", "not_a_player", "table_closed",
             "too_many_tables", "too_many_joins", "too_many_connections", "busy", "name_taken",
             "seat_taken", "seat_active", "request_timeout", "too_large"}
    assert named <= codes and len(codes) > 40


def test_every_error_code_has_english_and_french_text() -> None:
    tables = i18n_tables()
    missing = {
        lang: sorted(code for code in server_error_codes() | CLIENT_CODES
                     if f"error_{code}" not in tables[lang])
        for lang in ("en", "fr")
    }
    assert missing == {"en": [], "fr": []}
    for code in server_error_codes():
        assert tables["en"][f"error_{code}"] != tables["fr"][f"error_{code}"], code


TOASTS = """
import { readFileSync } from "node:fs";
import { setLang } from "./i18n.js";
import { errorText } from "./ui.js";
const codes = JSON.parse(readFileSync(0, "utf8"));
const out = {};
for (const lang of ["en", "fr"]) {
  setLang(lang);
  out[lang] = codes.map((code) => errorText({ code, message: `raw message of ${code}` }));
}
console.log(JSON.stringify(out));
"""


def test_no_raw_code_or_english_message_reaches_a_toast(tmp_path: Path) -> None:
    node = require_node()
    target = tmp_path / "js"
    shutil.copytree(JS, target)
    (target / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    codes = sorted(server_error_codes())
    done = subprocess.run(
        [node, "--input-type=module", "-e", TOASTS], input=json.dumps(codes),
        capture_output=True, text=True, cwd=target, timeout=30, check=False,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    tables = i18n_tables()
    for lang in ("en", "fr"):
        for code, text in zip(codes, shown[lang], strict=True):
            assert "raw message" not in text and text != code, (lang, code, text)
            assert text == tables[lang][f"error_{code}"]
    # Every page's own error function goes through the same table.
    for module in ("main.js", "replay.js", "ui.js"):
        source = (JS / module).read_text(encoding="utf-8")
        assert "`error_${" in source, module


FRENCH_FILES = (
    "i18n.js", "review_i18n.js", "learn_i18n.js", "account_i18n.js", "players_i18n.js"
)


@pytest.mark.parametrize("module", FRENCH_FILES)
def test_french_typography(module: str) -> None:
    french = i18n_tables(module)["fr"]
    assert french
    for key, text in french.items():
        # A narrow no-break space (U+202F) before high punctuation, never a plain space.
        assert not re.search(r"[ \u00a0][:;!?%]", text), (key, text)
        assert not re.search(r"\w[:;!?]", text.replace("https:", "")), (key, text)
        # French pages say "robot".
        assert not re.search(r"\bbots?\b", text, re.I), (key, text)

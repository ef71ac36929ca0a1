"""The chat's words (#29 section 1): every quick phrase of the server has its English and French
text (each reader sees a phrase in their own language), the two tables of chat_i18n.js match and
are all used, the page's phrase menu offers exactly the server's phrases, and French typography."""

from __future__ import annotations

import re

from oriflamme.server.chat import PHRASES
from test_page_texts import test_french_typography
from test_web_client import JS, check_string_table, i18n_tables, source


def test_every_phrase_reads_in_english_and_in_french() -> None:
    tables = i18n_tables("chat_i18n.js")
    for phrase in PHRASES:
        key = f"chat_phrase_{phrase}"
        english, french = tables["en"][key], tables["fr"][key]
        assert english.strip() and french.strip() and english != french, phrase
    prefix = "chat_phrase_"
    known = {key.removeprefix(prefix) for key in tables["en"] if key.startswith(prefix)}
    assert known == set(PHRASES)


def test_the_menu_offers_the_servers_phrases_in_order() -> None:
    menu = re.search(r"const PHRASES = \[(.*?)\];", source(JS / "chat.js"), re.S)
    assert menu
    assert tuple(re.findall(r'"(\w+)"', menu.group(1))) == PHRASES


def test_chat_strings_are_complete_and_all_used() -> None:
    # Built at run time: the tabs' names, the phrases, the admins' notes.
    built = {"chat_tab_players", "chat_tab_spectators"} | {f"chat_phrase_{p}" for p in PHRASES}
    built |= {"admin_deleted", "admin_suspended", "admin_dismissed"}
    check_string_table("chat_i18n.js", "ct", 30, built=built)


def test_french_typography_of_the_chat() -> None:
    test_french_typography("chat_i18n.js")

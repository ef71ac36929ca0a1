"""Checks of the learning pages that need no browser (#31): the rules page is complete in both
languages and agrees with the engine's card texts and rulings; the strings of the guided games
are complete in both languages and all used.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from oriflamme.api import CARD_TEXTS, CardType
from test_web_client import (
    JS,
    STATIC,
    check_string_table,
    source,
    strip_js_comments,
)

ROOT = Path(__file__).resolve().parents[3]
RULING_ID = re.compile(r"\bR-[A-Z0-9]+-\d+\b")


class _RulesPage(HTMLParser):
    """The ids, the clarifications (id -> the cards they are about) and the visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.clarifications: dict[str, set[str]] = {}
        self.cards: list[str] = []
        self.text: list[str] = []
        self.print_css = False
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        classes = (values.get("class") or "").split()
        if "clarification" in classes:
            self.clarifications[str(values["id"])] = set((values.get("data-cards") or "").split())
        if "card-entry" in classes:
            self.cards.append(str(values["data-card"]))
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def rules_page(lang: str) -> _RulesPage:
    parser = _RulesPage()
    parser.feed(source(STATIC / f"rules-{lang}.html"))
    return parser


def ruling_ids() -> set[str]:
    """Every ruling the project's rules reference cites."""
    return set(RULING_ID.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_rules_page_has_every_card_and_a_clarification_for_every_ruling(lang: str) -> None:
    page = rules_page(lang)
    assert sorted(page.cards) == sorted(t.slug for t in CardType)
    assert {f"card-{t.slug}" for t in CardType} <= set(page.ids)
    rulings = ruling_ids()
    assert len(rulings) > 40
    assert set(page.clarifications) == {ruling.lower() for ruling in rulings}
    assert len(page.ids) == len(set(page.ids)), "ids are unique"


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_each_card_links_to_the_clarifications_of_its_rulings(lang: str) -> None:
    """A card's entry lists the clarifications tagged with it: exactly its rulings in the
    engine's card texts."""
    page = rules_page(lang)
    for card_type in CardType:
        tagged = {c for c, cards in page.clarifications.items() if card_type.slug in cards}
        expected = {ruling.lower() for ruling in CARD_TEXTS[card_type].rulings}
        assert tagged == expected, card_type.slug


def test_both_languages_are_complete_and_shown_without_ruling_ids() -> None:
    english, french = rules_page("en"), rules_page("fr")
    assert english.ids == french.ids, "the same sections, cards and clarifications, in order"
    for page in (english, french):
        visible = " ".join(page.text)
        assert not RULING_ID.search(visible), RULING_ID.search(visible)
        assert "edition=" not in visible
    # Each clarification is written in each language, not copied.
    en_text = " ".join(english.text)
    fr_text = " ".join(french.text)
    assert len(fr_text) > 0.9 * len(en_text)
    assert "Influence" in fr_text and "File" in fr_text and "Queue" not in fr_text


def test_the_rules_page_can_be_printed() -> None:
    css = source(STATIC / "css" / "rules.css")
    block = css[css.index("@media print") :]
    assert ".topbar" in block and "break-inside: avoid" in block


# ---------------------------------------------------------------------------- /learn strings
def test_the_guided_games_strings_are_complete_in_both_languages_and_all_used() -> None:
    check_string_table("learn_i18n.js", "lt", 30, page="learn.html")


def test_card_help_links_to_the_cards_entry_on_the_rules_page() -> None:
    code = strip_js_comments(source(JS / "tooltip.js"))
    assert "/rules?lang=${getLang()}#card-${type}" in code

"""Tests of the card names and texts (:mod:`oriflamme.rules.texts`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doctests import check_examples
from oriflamme.rules import texts
from oriflamme.rules.cards import CardType
from oriflamme.rules.texts import (
    CARD_TEXTS,
    FAMILY_COLOURS,
    KIND_NAMES,
    LANGS,
    card_help,
    card_name,
    card_text,
    family_colour_name,
)

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
RULING_ID = re.compile(r"\bR-[A-Z0-9]+-\d+\b")

EXPECTED_NAMES: dict[CardType, tuple[str, str]] = {
    CardType.ARCHER: ("Archer", "Archer"),
    CardType.SOLDIER: ("Soldier", "Soldat"),
    CardType.SPY: ("Spy", "Espion"),
    CardType.HEIR: ("Heir", "Héritier"),
    CardType.ASSASSINATION: ("Assassination", "Assassinat"),
    CardType.ROYAL_DECREE: ("Royal Decree", "Décret royal"),
    CardType.LORD: ("Lord", "Seigneur"),
    CardType.SHAPESHIFTER: ("Shapeshifter", "Changeforme"),
    CardType.AMBUSH: ("Ambush", "Embuscade"),
    CardType.CONSPIRACY: ("Conspiracy", "Complot"),
    CardType.PRINCE: ("Prince", "Prince"),
    CardType.TWIN: ("Twin", "Jumeau"),
    CardType.QUEEN: ("Queen", "Reine"),
    CardType.CUTTHROAT: ("Cutthroat", "Coupe-jarret"),
    CardType.APOTHECARY: ("Apothecary", "Apothicaire"),
    CardType.FELON: ("Felon", "Félon"),
    CardType.SCHEMER: ("Schemer", "Intrigante"),
    CardType.USURPATION: ("Usurpation", "Usurpation"),
    CardType.MACHINATION: ("Machination", "Machination"),
    CardType.TRAP: ("Trap", "Guet-apens"),
    CardType.CORRUPTION: ("Corruption", "Corruption"),
}


def _defined_ruling_ids() -> list[str]:
    """The rulings listed under "Every ruling" in docs/rules.md, in order: the repository's list
    of the rulings, each opening a bullet ``- **R-SOLDIER-1**: …``."""
    text = RULES_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Every ruling\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- \*\*(R-[A-Z0-9]+-\d+)\*\*:", section, flags=re.MULTILINE)


def test_every_card_type_has_texts() -> None:
    assert set(CARD_TEXTS) == set(CardType)
    assert list(CARD_TEXTS) == list(CardType)
    for card_type, entry in CARD_TEXTS.items():
        for field in ("name_en", "name_fr", "text_en", "text_fr", "notes_en", "notes_fr"):
            value = getattr(entry, field)
            assert isinstance(value, str), (card_type, field)
            assert value.strip() == value and value, (card_type, field)
        assert entry.rulings, card_type
        assert len(set(entry.rulings)) == len(entry.rulings), card_type


@pytest.mark.parametrize("card_type", list(CardType), ids=lambda t: t.slug)
def test_names_match_the_project_names(card_type: CardType) -> None:
    name_en, name_fr = EXPECTED_NAMES[card_type]
    assert card_name(card_type) == name_en
    assert card_name(card_type, "en") == name_en
    assert card_name(card_type, "fr") == name_fr
    assert CardType.from_name(name_en) is card_type
    assert CardType.from_name(name_fr) is card_type


@pytest.mark.parametrize("lang", LANGS)
def test_texts_are_distinct_per_language(lang: str) -> None:
    names = [card_name(t, lang) for t in CardType]
    assert len(set(names)) == len(names)
    abilities = [card_text(t, lang) for t in CardType]
    assert len(set(abilities)) == len(abilities)


def test_french_and_english_differ_where_expected() -> None:
    for card_type in CardType:
        assert card_text(card_type, "en") != card_text(card_type, "fr"), card_type


def test_every_cited_ruling_exists() -> None:
    defined = set(_defined_ruling_ids())
    assert len(defined) > 50, "the rulings of docs/rules.md were not found"
    for card_type, entry in CARD_TEXTS.items():
        for ruling in entry.rulings:
            assert RULING_ID.fullmatch(ruling), (card_type, ruling)
            assert ruling in defined, f"{card_type.slug}: {ruling} is not listed in docs/rules.md"


def test_each_card_cites_its_own_ruling() -> None:
    prefix = {
        CardType.ASSASSINATION: "R-ASSASSIN-",
        CardType.ROYAL_DECREE: "R-DECREE-",
        CardType.SHAPESHIFTER: "R-SHIFT-",
        CardType.CONSPIRACY: "R-CONSP-",
        CardType.CUTTHROAT: "R-CUT-",
        CardType.APOTHECARY: "R-APOTH-",
        CardType.USURPATION: "R-USURP-",
        CardType.MACHINATION: "R-MACH-",
        CardType.CORRUPTION: "R-CORR-",
    }
    for card_type, entry in CARD_TEXTS.items():
        expected = prefix.get(card_type, f"R-{card_type.name}-")
        assert any(r.startswith(expected) for r in entry.rulings), card_type


@pytest.mark.parametrize("lang", LANGS)
def test_card_help(lang: str) -> None:
    for card_type in CardType:
        help_text = card_help(card_type, lang)
        lines = help_text.splitlines()
        assert len(lines) >= 4
        kind = KIND_NAMES[lang]["character" if card_type.is_character else "intrigue"]
        assert lines[0] == f"{card_name(card_type, lang)} ({kind})"
        assert card_text(card_type, lang) in help_text
        assert CARD_TEXTS[card_type].notes(lang) in help_text
        for ruling in CARD_TEXTS[card_type].rulings:
            assert ruling in help_text


def test_kind_names() -> None:
    assert KIND_NAMES["en"] == {"character": "Character", "intrigue": "Intrigue"}
    assert KIND_NAMES["fr"] == {"character": "Personnage", "intrigue": "Intrigue"}
    assert card_help(CardType.AMBUSH).startswith("Ambush (Intrigue)")
    assert card_help(CardType.QUEEN, "fr").startswith("Reine (Personnage)")


@pytest.mark.parametrize("bad", ["de", "EN", "", "english", "fr_FR"])
def test_unknown_language_raises(bad: str) -> None:
    for func in (card_name, card_text, card_help):
        with pytest.raises(ValueError, match="unknown language"):
            func(CardType.SOLDIER, bad)
    with pytest.raises(ValueError, match="unknown language"):
        family_colour_name(0, bad)


def test_family_colours() -> None:
    assert FAMILY_COLOURS == ("red", "blue", "green", "yellow", "purple")
    assert [family_colour_name(i, "en") for i in range(5)] == list(FAMILY_COLOURS)
    assert [family_colour_name(i, "fr") for i in range(5)] == [
        "rouge",
        "bleu",
        "vert",
        "jaune",
        "violet",
    ]
    for bad_index in (-1, 5):
        with pytest.raises(ValueError, match="out of range"):
            family_colour_name(bad_index, "en")


def test_doctests() -> None:
    check_examples(texts)


def _cited_ruling_ids(paths: list[Path]) -> dict[str, set[str]]:
    """Ruling id -> the files (relative to the repository) that cite it."""
    cited: dict[str, set[str]] = {}
    for path in paths:
        for ruling in RULING_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(ruling, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_ruling_the_repository_cites_is_listed_once_and_tested() -> None:
    """docs/rules.md lists each ruling once; the code, the tests and the docs cite only those,
    and each is cited by some test (as docs/rules.md says)."""
    listed = _defined_ruling_ids()
    assert len(listed) > 50
    assert len(set(listed)) == len(listed), "a ruling is listed twice in docs/rules.md"
    sources = [*ROOT.glob("src/**/*.py"), *ROOT.glob("docs/*.md"), ROOT / "README.md"]
    tests = sorted(ROOT.glob("tests/**/*.py"))
    cited = _cited_ruling_ids([*sources, *tests])
    unknown = {ruling: sorted(files) for ruling, files in cited.items() if ruling not in listed}
    assert not unknown, f"rulings cited but not listed in docs/rules.md: {unknown}"
    tested = _cited_ruling_ids([path for path in tests if path.name != "test_texts.py"])
    assert sorted(set(listed) - set(tested)) == [], "rulings that no test cites"

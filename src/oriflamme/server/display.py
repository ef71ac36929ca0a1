"""The names a page shows: seats' names in the viewer's language, and players named in sentences.

A bot keeps the name the server gave it (``names.bot_label``: ``"Blue bot (hard)"``); a view in
French shows it as ``"Robot bleu (difficile)"``. A bot its creator named, and every human, keeps
their own name in every language.

The prompts, the options and the log name players by these names (``Game.prompt(names=…)``),
each wrapped in Unicode's first-strong isolate (U+2068) and pop directional isolate (U+2069):
invisible, they keep a name written right to left from reordering the sentence around it, and
tell a client exactly where each name is (the web client marks it with the player's colours).
Names can hold neither character (format characters are refused).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from oriflamme.api import family_colour_name

from .names import bot_label

if TYPE_CHECKING:
    from .storage import SeatRecord
    from .tables import Table

#: Around every name in a sentence (docs/server.md, "Names in sentences").
ISOLATE, POP = "\u2068", "\u2069"
BOT, OPEN = "bot", "open"

_BOT_NAMES: Mapping[str, str] = {"en": "{Colour} bot ({level})", "fr": "Robot {colour} ({level})"}
_LEVELS: Mapping[str, Mapping[str, str]] = {
    "en": {},
    "fr": {
        "easy": "facile",
        "medium": "moyen",
        "hard": "difficile",
        "expert": "expert",
        "random": "hasard",
    },
}


def seat_name(record: SeatRecord, lang: str) -> str:
    """The seat's name as a page in ``lang`` shows it (an open seat's is empty)."""
    if record.kind != BOT or record.level is None or record.name != bot_label(
        record.level, record.seat
    ):
        return record.name
    colour = family_colour_name(record.seat, lang)
    level = _LEVELS.get(lang, {}).get(record.level, record.level)
    words = _BOT_NAMES.get(lang, _BOT_NAMES["en"])
    return words.format(colour=colour, Colour=colour.capitalize(), level=level)


def sentence_names(table: Table, lang: str) -> tuple[str, ...]:
    """Each player's name as sentences in ``lang`` say it, isolated (an open seat, which plays
    no move, by its colour)."""
    return tuple(
        isolated(seat_name(record, lang) or family_colour_name(record.seat, lang).capitalize())
        for record in table.seats
    )


def isolated(name: str) -> str:
    return f"{ISOLATE}{name}{POP}"

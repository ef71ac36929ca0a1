"""Display names: what a name may be, when two names are the same, and the names of bots.

A name is normalised (Unicode NFC) and trimmed, then 1 to 24 characters; it must show something
(a letter, digit, punctuation mark or symbol that is not a blank filler), may not begin with a
combining mark (it would join the text before it), and holds no control, format or separator
character (except the zero-width joiner of emoji sequences). At one table no two seats share a
name, compared by :func:`name_key` (case, width and invisible joiners aside), and nobody but a bot
is called like one (``"Blue bot (hard)"``).
"""

from __future__ import annotations

import re
import unicodedata

from oriflamme.api import FAMILY_COLOURS

NAME_MAX = 24

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ZERO_WIDTH_JOINER = "\u200d"  # allowed: it builds emoji sequences
#: Letters and symbols that show nothing (fillers and blanks of Hangul and Braille).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
#: The key of a bot's label: its colour, "bot", and its level in brackets.
_BOT_LABEL = re.compile(rf"^({'|'.join(FAMILY_COLOURS)}) bot \([^()]*\)$")


def _visible(ch: str) -> bool:
    return unicodedata.category(ch).startswith(_VISIBLE_CATEGORIES) and ch not in _BLANKS


def _trimmed(text: str) -> str:
    """``text`` without white space or blank fillers at either end."""
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or text[start] in _BLANKS):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _BLANKS):
        end -= 1
    return text[start:end]


def clean_name(text: str) -> str:
    """A display name, normalised (NFC) and trimmed; ValueError saying what is wrong if it is
    empty, too long, invisible or unsafe."""
    normal = unicodedata.normalize("NFC", text)
    name = _trimmed(normal)
    if not name and normal:
        raise ValueError("a name must show a visible character (a letter, digit or sign)")
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name is 1 to {NAME_MAX} characters")
    for ch in name:
        if ch != _ZERO_WIDTH_JOINER and unicodedata.category(ch) in _REFUSED_CATEGORIES:
            raise ValueError("a name may not contain control or invisible characters")
    if unicodedata.category(name[0]).startswith("M"):
        raise ValueError(
            "a name must begin with a visible character, not a combining mark"
        )
    if not any(_visible(ch) for ch in name):
        raise ValueError("a name must show a visible character (a letter, digit or sign)")
    return name


def name_key(name: str) -> str:
    """What two names that read the same have in common: compatibility-normalised (full-width
    letters as letters), without format characters (joiners), case-folded, spaces collapsed."""
    folded = unicodedata.normalize("NFKC", name)
    shown = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return " ".join(shown.casefold().split())


def bot_label(level: str, seat: int) -> str:
    """The name of a bot seat: its colour and level (distinct at a table)."""
    return f"{FAMILY_COLOURS[seat].capitalize()} bot ({level})"


def is_bot_label(name: str) -> bool:
    """Whether ``name`` reads like a bot's label (``"<Colour> bot (<level>)"``, any case)."""
    return _BOT_LABEL.match(name_key(name)) is not None

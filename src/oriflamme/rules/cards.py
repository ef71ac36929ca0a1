"""The 21 card types of Oriflamme and Oriflamme Embrasement (plain data).

Each card type has a stable integer value (its index), a kind (Character or Intrigue) and the
set it comes from. Names and ability texts in English and French live in :mod:`.texts`.

>>> CardType.SOLDIER.is_character
True
>>> CardType.from_name("Décret royal") is CardType.ROYAL_DECREE
True
>>> len(BASE_SET), len(EMBRASEMENT_SET)
(10, 10)
"""

from __future__ import annotations

import unicodedata
from enum import IntEnum
from typing import Final


class CardType(IntEnum):
    """A card type; the value is stable and used in saved games."""

    ARCHER = 0
    SOLDIER = 1
    SPY = 2
    HEIR = 3
    ASSASSINATION = 4
    ROYAL_DECREE = 5
    LORD = 6
    SHAPESHIFTER = 7
    AMBUSH = 8
    CONSPIRACY = 9
    PRINCE = 10
    TWIN = 11
    QUEEN = 12
    CUTTHROAT = 13
    APOTHECARY = 14
    FELON = 15
    SCHEMER = 16
    USURPATION = 17
    MACHINATION = 18
    TRAP = 19
    CORRUPTION = 20

    @property
    def is_character(self) -> bool:
        return self not in INTRIGUES

    @property
    def is_intrigue(self) -> bool:
        return self in INTRIGUES

    @property
    def slug(self) -> str:
        """Lower-case identifier used in JSON and notation, e.g. ``royal_decree``."""
        return self.name.lower()

    @classmethod
    def from_name(cls, text: str) -> CardType:
        """Parse a card type from its slug or its English or French name (any case/accents)."""
        key = _normalise(text)
        try:
            return _BY_NAME[key]
        except KeyError:
            raise ValueError(f"unknown card type {text!r}") from None


INTRIGUES: Final = frozenset(
    {
        CardType.ASSASSINATION,
        CardType.ROYAL_DECREE,
        CardType.AMBUSH,
        CardType.CONSPIRACY,
        CardType.USURPATION,
        CardType.MACHINATION,
        CardType.TRAP,
        CardType.CORRUPTION,
    }
)

#: The 10 base cards (seeds 002/004), in rulebook order.
#: ``IS_CHARACTER[t]``: whether the card type of value ``t`` is a Character: the rules test
#: types held as ints, and ``CardType(t).is_character`` builds the enum member first.
IS_CHARACTER: Final[tuple[bool, ...]] = tuple(t not in INTRIGUES for t in CardType)
BASE_SET: Final[tuple[CardType, ...]] = tuple(CardType(i) for i in range(10))
#: The 10 shuffled Embrasement cards (seed 000); the Twin comes with the Prince.
EMBRASEMENT_SET: Final[tuple[CardType, ...]] = (
    CardType.PRINCE,
    CardType.QUEEN,
    CardType.CUTTHROAT,
    CardType.APOTHECARY,
    CardType.FELON,
    CardType.SCHEMER,
    CardType.USURPATION,
    CardType.MACHINATION,
    CardType.TRAP,
    CardType.CORRUPTION,
)
#: The 20 types a family may be built from (R-SET-1); the Twin is never chosen on its own.
CHOOSABLE: Final[tuple[CardType, ...]] = BASE_SET + EMBRASEMENT_SET

# English and French names, for parsing; the display texts are in .texts.
_NAMES: dict[CardType, tuple[str, ...]] = {
    CardType.ARCHER: ("Archer",),
    CardType.SOLDIER: ("Soldier", "Soldat"),
    CardType.SPY: ("Spy", "Espion"),
    CardType.HEIR: ("Heir", "Héritier"),
    CardType.ASSASSINATION: ("Assassination", "Assassinat"),
    CardType.ROYAL_DECREE: ("Royal Decree", "Décret royal", "Decree"),
    CardType.LORD: ("Lord", "Seigneur"),
    CardType.SHAPESHIFTER: ("Shapeshifter", "Changeforme"),
    CardType.AMBUSH: ("Ambush", "Embuscade"),
    CardType.CONSPIRACY: ("Conspiracy", "Complot"),
    CardType.PRINCE: ("Prince",),
    CardType.TWIN: ("Twin", "Jumeau"),
    CardType.QUEEN: ("Queen", "Reine"),
    CardType.CUTTHROAT: ("Cutthroat", "Coupe-jarret"),
    CardType.APOTHECARY: ("Apothecary", "Apothicaire"),
    CardType.FELON: ("Felon", "Félon"),
    CardType.SCHEMER: ("Schemer", "Intrigante"),
    CardType.USURPATION: ("Usurpation", "Impersonation"),
    CardType.MACHINATION: ("Machination", "Plot"),
    CardType.TRAP: ("Trap", "Guet-apens"),
    CardType.CORRUPTION: ("Corruption", "Bribery"),
}


def _normalise(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.replace("-", "_").replace(" ", "_")


_BY_NAME: dict[str, CardType] = {}
for _t, _names in _NAMES.items():
    _BY_NAME[_normalise(_t.name)] = _t
    for _n in _names:
        _BY_NAME[_normalise(_n)] = _t

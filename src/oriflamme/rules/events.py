"""Kinds of game-log events and the meaning of their fields.

Every event is a :class:`~oriflamme.rules.state.Event` ``(kind, round, player, card,
card_type, other, amount)``. ``card_type`` is filled only when the card's identity was public
at that moment (R-INFO-1); the owner of a face-down card still sees its name when the log is
rendered for them (see :mod:`.observe`).
"""

from __future__ import annotations

from enum import IntEnum


class EventKind(IntEnum):
    PLACED = 0  # player placed card at other (FRONT/END/on top card id)
    REVEALED = 1  # player revealed card
    LEFT = 2  # player left card face down; amount = tokens now on it
    ELIMINATED = 3  # player eliminated card with card `other`
    DISCARDED = 4  # card was discarded; player = its owner's player
    MOVED = 5  # player moved card to gap `other`
    STOLE = 6  # player stole amount from player `other` (card = the Spy or Trap)
    GAINED = 7  # player gained amount (card = source)
    LOST = 8  # player lost amount (card = source)
    CORRUPTED = 9  # player put family `other`'s Corruption token on card
    COPIED = 10  # player's Shapeshifter `card` copied card `other`
    ACTIVATED = 11  # player's Machination `other` activated card
    TWIN_PLACED = 12  # player placed Twin `card` at `other`
    REPLACED = 13  # Usurpation put card in place of eliminated card `other`
    DREW = 14  # player drew amount cards (2-player variant)
    ROUND_ENDED = 15
    GAME_ENDED = 16

    @property
    def slug(self) -> str:
        return self.name.lower()

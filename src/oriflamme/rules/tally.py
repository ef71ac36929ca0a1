"""What each card type did in a game, from its log: for statistics over finished games
(tournaments, analysis), without rendering the log or the position as JSON.

Influence is credited to the type of the card an event names as its source: a GAINED event's
``card`` (the acting card, a revealed card's tokens, an eliminated Ambush, or an eliminated
Queen, whose bonus goes to the eliminator) and a STOLE event's ``card`` (the Spy, a
Shapeshifter copying it, or the Trap); an event without a source counts as unknown. Influence
lost is not counted. The tally sees every card's type: it is omniscient, like the position.
"""

from __future__ import annotations

from typing import Final

from .cards import CardType
from .events import EventKind
from .state import State

_REVEALED: Final = int(EventKind.REVEALED)
_ELIMINATED: Final = int(EventKind.ELIMINATED)
_GAINED: Final = int(EventKind.GAINED)
_STOLE: Final = int(EventKind.STOLE)
_TYPES: Final = len(CardType)


class CardTally:
    """Per card type (indexed by :class:`CardType` value): Influence earned, cards revealed,
    cards eliminated, and cards left face down in the Queue; plus Influence from no known
    source (never expected from this engine)."""

    __slots__ = ("eliminated", "hidden", "influence", "revealed", "unknown_influence")

    def __init__(self) -> None:
        self.influence = [0] * _TYPES
        self.revealed = [0] * _TYPES
        self.eliminated = [0] * _TYPES
        self.hidden = [0] * _TYPES
        self.unknown_influence = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardTally):
            return NotImplemented
        return (
            self.influence == other.influence
            and self.revealed == other.revealed
            and self.eliminated == other.eliminated
            and self.hidden == other.hidden
            and self.unknown_influence == other.unknown_influence
        )

    __hash__ = None  # type: ignore[assignment]  # its counts are mutable lists

    def __repr__(self) -> str:
        # The non-zero counts only: the lists hold a zero for every type not in the game.
        figures = [
            name + "={" + ", ".join(f"{t.slug}: {n}" for t, n in counts.items()) + "}"
            for name, counts in self.by_type().items()
        ]
        return f"CardTally({', '.join(figures)}, unknown_influence={self.unknown_influence})"

    def by_type(self) -> dict[str, dict[CardType, int]]:
        """The non-zero counts by figure (``influence``, ``revealed``, ``eliminated``,
        ``hidden``) and card type."""
        types = list(CardType)
        return {
            name: {types[t]: n for t, n in enumerate(counts) if n}
            for name, counts in (
                ("influence", self.influence),
                ("revealed", self.revealed),
                ("eliminated", self.eliminated),
                ("hidden", self.hidden),
            )
        }


def card_tally(state: State) -> CardTally:
    """The :class:`CardTally` of the game so far (``ValueError`` if its log was not kept)."""
    log = state.log
    if log is None:
        raise ValueError("this game keeps no log (it was dealt or copied with log=False)")
    types = state.card_type
    tally = CardTally()
    for e in log:
        kind = e.kind
        if kind == _REVEALED:
            tally.revealed[types[e.card]] += 1
        elif kind == _ELIMINATED:
            tally.eliminated[types[e.card]] += 1
        elif kind in (_GAINED, _STOLE):
            if e.card >= 0:
                tally.influence[types[e.card]] += e.amount
            else:
                tally.unknown_influence += e.amount
    face_up = state.face_up
    for stack in state.queue:
        for c in stack:
            if not face_up[c]:
                tally.hidden[types[c]] += 1
    return tally

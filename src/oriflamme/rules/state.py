"""The game state: plain mutable records with slots and a hand-written fast ``copy``.

Cards are integers ``0 .. families*family_size-1``; family ``f`` owns the ids
``f*family_size .. f*family_size+family_size-1``. Which type each id is (``card_type``) is dealt
at random from the seed, so an id says nothing about the card (R-INFO-1). (A dealt game gives
the Twin, which is public, the last id of its family; a position may give it any id.)

Everything that can happen between two decisions is data: the Queue (a list of stacks, bottom
first), one list per family and zone, per-card face/tokens/Corruption, Influence, the round,
phase, placement progress, the resolution cursor and the *pending stack* of unfinished
abilities (tuples of ints: :class:`Frame`).

The names :data:`Card`, :data:`Family`, :data:`Player` and :data:`CardTypeId` are ``int``: they
say in a signature which of the game's numbers an argument is (as python-chess names its
squares and colours), at no cost.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple, TypeAlias

from .config import GameConfig

#: A card id, ``0 .. families * family_size - 1`` (or -1: no card).
Card: TypeAlias = int
#: A family, ``0 .. families - 1``; family ``f`` is played by player ``f % players``.
Family: TypeAlias = int
#: A player (a seat), ``0 .. players - 1``.
Player: TypeAlias = int
#: A card type as its integer value (:class:`~.cards.CardType`), or -1: unknown.
CardTypeId: TypeAlias = int


class Frame(IntEnum):
    """The kind of a pending frame ``(kind, card, family, arg)``: an unfinished ability, the
    top one being worked on (docs/architecture.md, "The pending stack")."""

    CHOOSE = 0  # the ability of the card type ``arg`` chooses
    REVEAL = 1  # reveal or leave the face-down card at the cursor (arg 0)
    GAP = 2  # where the Royal Decree moves the card ``arg``
    TWIN = 3  # where the Prince puts the Twin ``arg``
    ACTIVATE = 4  # the Character a Machination activates, ``arg`` tokens held
    TOKENS = 5  # gain or spend the next of ``arg`` held tokens
    DISCARD = 6  # discard this Intrigue once the frames above it are done (arg 0)

    @property
    def slug(self) -> str:
        return self.name.lower()


#: A frame as the pending stack holds it: plain ints, so that copies are list slices.
PendingFrame: TypeAlias = tuple[int, Card, Family, int]

# Final: compiled code reads these as constants (a module global is a dict lookup). The frame
# kinds are plain ints on the pending stack: compared there as machine ints when compiled, and
# without the enum's slower comparisons in pure Python.
CHOOSE: Final = int(Frame.CHOOSE)
REVEAL: Final = int(Frame.REVEAL)
GAP: Final = int(Frame.GAP)
TWIN: Final = int(Frame.TWIN)
ACTIVATE: Final = int(Frame.ACTIVATE)
TOKENS: Final = int(Frame.TOKENS)
DISCARD: Final = int(Frame.DISCARD)


# Zones of a family; zones[family * N_ZONES + zone] is a list of card ids.
HAND: Final = 0
SET_ASIDE: Final = 1
RESERVE: Final = 2
PILE: Final = 3
DISCARDED: Final = 4
ELIMINATED: Final = 5
N_ZONES: Final = 6
ZONE_NAMES: Final = ("hand", "set_aside", "reserve", "pile", "discarded", "eliminated")

# Phases.
PLACEMENT: Final = 0
RESOLUTION: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("placement", "resolution", "over")

NO_CARD: Final = -1
NO_FAMILY: Final = -1


class Event(NamedTuple):
    """One entry of the game log; see :mod:`.events` for the kinds and their fields.

    ``card_type`` is the type of ``card`` only when it was public at that moment, else -1.
    """

    kind: int
    round: int
    player: Player = -1
    card: Card = -1
    card_type: CardTypeId = -1
    other: int = -1
    amount: int = 0


#: Every field of a :class:`State` (its slots; what equality compares).
STATE_FIELDS: Final = (
    "card_family",
    "card_type",
    "config",
    "corrupt",
    "cursor",
    "face_up",
    "first_player",
    "influence",
    "log",
    "pending",
    "phase",
    "placed",
    "queue",
    "resolving",
    "round",
    "scores_by_round",
    "tokens",
    "zones",
)


class State:
    """A position. Mutate it only through the engine; copy it with :meth:`copy`."""

    __slots__ = STATE_FIELDS

    config: GameConfig
    card_type: tuple[CardTypeId, ...]  # by card; shared by copies, replaced whole by sampling
    card_family: tuple[Family, ...]  # by card; shared, never changes
    face_up: list[bool]  # by card
    tokens: list[int]  # by card
    corrupt: list[Family]  # by card: family whose Corruption token is on it, or NO_FAMILY
    queue: list[list[Card]]
    zones: list[list[Card]]
    influence: list[int]  # by player
    round: int
    phase: int
    first_player: Player
    placed: int  # placements made this round
    cursor: int  # index of the stack being resolved
    resolving: Card  # card whose resolution is under way at the cursor, or NO_CARD
    pending: list[PendingFrame]
    log: list[Event] | None  # None: not recorded (fast copies for search)
    scores_by_round: list[tuple[int, ...]]

    def copy(self, keep_log: bool = True) -> State:
        """An independent copy (the log is shared-nothing too, or dropped with ``keep_log``)."""
        s = State.__new__(State)
        s.config = self.config
        s.card_type = self.card_type
        s.card_family = self.card_family
        s.face_up = self.face_up[:]
        s.tokens = self.tokens[:]
        s.corrupt = self.corrupt[:]
        s.queue = [st[:] for st in self.queue]
        s.zones = [z[:] for z in self.zones]
        s.influence = self.influence[:]
        s.round = self.round
        s.phase = self.phase
        s.first_player = self.first_player
        s.placed = self.placed
        s.cursor = self.cursor
        s.resolving = self.resolving
        s.pending = self.pending[:]
        s.log = self.log[:] if keep_log and self.log is not None else None
        s.scores_by_round = self.scores_by_round[:]
        return s

    # -- small queries used everywhere ---------------------------------------------------
    def zone(self, family: Family, zone: int) -> list[Card]:
        return self.zones[family * N_ZONES + zone]

    def controller(self, card: Card) -> Family:
        """Controlling family: the Corruption token's family, else the owner (R-CORR-1)."""
        c = self.corrupt[card]
        return c if c >= 0 else self.card_family[card]

    def player_of(self, family: Family) -> Player:
        return family % self.config.players

    def stack_index(self, card: Card) -> int:
        """Index of the stack whose top card is ``card``, or -1."""
        for i, st in enumerate(self.queue):
            if st[-1] == card:
                return i
        return -1

    def in_queue(self, card: Card) -> bool:
        return any(card in st for st in self.queue)

    def family_card(self, family: Family, card_type: CardTypeId) -> Card:
        """The id of ``family``'s card of ``card_type`` (a family holds one of each), or -1."""
        size = self.config.family_size
        base = family * size
        types = self.card_type
        for c in range(base, base + size):
            if types[c] == card_type:
                return c
        return NO_CARD

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in STATE_FIELDS)

    __hash__ = None  # type: ignore[assignment]

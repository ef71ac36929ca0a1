"""The game state: plain mutable records with slots and a hand-written fast ``copy``.

Cards are integers ``0 .. families*family_size-1``; family ``f`` owns the ids
``f*family_size .. f*family_size+family_size-1``. Which type each id is (``card_type``) is dealt
at random from the seed, so an id says nothing about the card (R-INFO-1). (A dealt game gives
the Twin, which is public, the last id of its family; a position may give it any id.)

Everything that can happen between two decisions is data: the Queue (a list of stacks, bottom
first), one list per family and zone, per-card face/tokens/Corruption, Influence, the round,
phase, placement progress, the resolution cursor and the *pending stack* of unfinished
abilities (tuples of ints, see :mod:`.engine`).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .config import GameConfig

# Final: compiled code reads these as constants (a module global is a dict lookup).

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
    player: int = -1
    card: int = -1
    card_type: int = -1
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
    card_type: tuple[int, ...]  # shared between copies; replaced whole by world sampling
    card_family: tuple[int, ...]  # shared, never changes
    face_up: list[bool]
    tokens: list[int]
    corrupt: list[int]  # family whose Corruption token is on the card, or NO_FAMILY
    queue: list[list[int]]
    zones: list[list[int]]
    influence: list[int]
    round: int
    phase: int
    first_player: int
    placed: int  # placements made this round
    cursor: int  # index of the stack being resolved
    resolving: int  # card whose resolution is under way at the cursor, or NO_CARD
    pending: list[tuple[int, int, int, int]]
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
    def zone(self, family: int, zone: int) -> list[int]:
        return self.zones[family * N_ZONES + zone]

    def controller(self, card: int) -> int:
        """Controlling family: the Corruption token's family, else the owner (R-CORR-1)."""
        c = self.corrupt[card]
        return c if c >= 0 else self.card_family[card]

    def player_of(self, family: int) -> int:
        return family % self.config.players

    def stack_index(self, card: int) -> int:
        """Index of the stack whose top card is ``card``, or -1."""
        for i, st in enumerate(self.queue):
            if st[-1] == card:
                return i
        return -1

    def in_queue(self, card: int) -> bool:
        return any(card in st for st in self.queue)

    def family_card(self, family: int, card_type: int) -> int:
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

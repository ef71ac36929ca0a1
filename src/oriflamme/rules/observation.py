"""The shape of an observation (:func:`~oriflamme.rules.observe.observe`), as typed dicts.

An observation is plain JSON data: what one player (or a spectator) may know (R-INFO-1). These
types name its keys so that ``mypy --strict`` checks every ``observation["…"]`` read in the
bots, the adapters, the server and the terminal; at run time they are ordinary ``dict``\\ s.
docs/api.md describes each field.
"""

from typing import Any, NotRequired, TypedDict

from .config import ConfigDict
from .state import Card, Family, Player


class ObservedCard(TypedDict):
    """A card as the viewer may know it: ``type`` is its slug, or ``None`` if hidden."""

    id: Card
    family: Family
    type: str | None


class QueueCard(ObservedCard):
    """A card of the Queue, with what lies on it."""

    face_up: bool
    tokens: int
    corrupted_by: Family | None
    controller: Player


class ObservedFamily(TypedDict):
    """A family: its sizes and public piles; ``hand`` and ``set_aside`` for its owner only."""

    family: Family
    player: Player
    colour: str
    hand_size: int
    set_aside_size: int
    pile_size: int
    reserve: list[ObservedCard]
    discarded: list[ObservedCard]
    eliminated: list[ObservedCard]
    corruption_on: Card | None
    hand: NotRequired[list[ObservedCard]]
    set_aside: NotRequired[list[ObservedCard]]


class ObservedFrame(TypedDict):
    """A pending frame of the resolution (``frame`` is a :class:`~.state.Frame` slug)."""

    frame: str
    card: Card
    family: Family
    arg: int


class ObservedDecision(TypedDict):
    """Who decides what now: ``kind`` is a decision slug, ``ability`` a card-type slug."""

    player: Player
    kind: str
    card: Card | None
    ability: str | None


class ObservedResult(TypedDict):
    """The end of the game (R-END-1): scores, tie-break counts and winners, by player."""

    scores: list[int]
    queue_cards: list[int]
    winners: list[Player]


class ObservedEvent(TypedDict):
    """One event of the log as the viewer may see it."""

    kind: str
    round: int
    player: Player | None
    card: Card | None
    card_type: str | None
    other: int
    amount: int


class Observation(TypedDict):
    """What ``viewer`` may know (``None``: a spectator's public view)."""

    viewer: Player | None
    config: ConfigDict
    round: int
    phase: str
    first_player: Player
    placed: int
    influence: list[int]
    scores_by_round: list[list[int]]
    queue: list[list[QueueCard]]
    families: list[ObservedFamily]
    cursor: int | None
    resolving: Card | None
    pending: list[ObservedFrame]
    decision: ObservedDecision | None
    #: The viewer's legal actions in their JSON form (empty unless the viewer decides).
    legal: list[dict[str, Any]]
    result: ObservedResult | None
    #: With ``with_log`` (``Game.observe(player, log=True)``) only.
    log: NotRequired[list[ObservedEvent]]

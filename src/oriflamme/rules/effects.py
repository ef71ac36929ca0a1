"""The verbs every ability shares, written once: gain, lose, steal, eliminate, discard, move,
and the Queue edits that keep the resolution cursor right (R-RES-2/3)."""

from __future__ import annotations

from typing import Final

from .cards import CardType
from .events import EventKind
from .state import DISCARDED, ELIMINATED, N_ZONES, Event, State

# Final: compiled code reads these as constants (a plain module global is a dict lookup).
_QUEEN: Final = CardType.QUEEN
_AMBUSH: Final = CardType.AMBUSH
_TRAP: Final = CardType.TRAP
_PRINCE: Final = CardType.PRINCE
_TWIN: Final = CardType.TWIN
_EVENT: Final = Event
_new: Final = tuple.__new__  # Event(...) through its NamedTuple constructor costs twice as much


def log(
    s: State,
    kind: EventKind,
    player: int = -1,
    card: int = -1,
    card_type: int = -1,
    other: int = -1,
    amount: int = 0,
) -> None:
    if s.log is not None:
        s.log.append(_new(_EVENT, (kind, s.round, player, card, card_type, other, amount)))


def public_type(s: State, card: int) -> int:
    """The card's type if it is face up (public), else -1."""
    return s.card_type[card] if s.face_up[card] else -1


# -- Influence (R-SCORE-1) ------------------------------------------------------------------
def gain(s: State, player: int, amount: int, source: int = -1) -> None:
    if amount > 0:
        s.influence[player] += amount
        if s.log is not None:
            log(s, EventKind.GAINED, player, source, public_type(s, source) if source >= 0 else -1,
                amount=amount)


def lose(s: State, player: int, amount: int, source: int = -1) -> None:
    taken = min(amount, s.influence[player])
    if taken > 0:
        s.influence[player] -= taken
        if s.log is not None:
            log(s, EventKind.LOST, player, source, public_type(s, source) if source >= 0 else -1,
                amount=taken)


def steal(s: State, thief: int, victim: int, amount: int, source: int = -1) -> None:
    """The thief gains exactly what the victim loses; stealing from yourself does nothing.
    ``source`` is the card that steals (the Spy, or a Shapeshifter copying it; the Trap)."""
    if thief == victim:
        return
    taken = min(amount, s.influence[victim])
    if taken > 0:
        s.influence[victim] -= taken
        s.influence[thief] += taken
        if s.log is not None:
            log(s, EventKind.STOLE, thief, source, public_type(s, source) if source >= 0 else -1,
                victim, taken)


# -- Queue edits ----------------------------------------------------------------------------
def take_top(s: State, i: int) -> int:
    """Remove the top card of stack ``i``; an emptied stack closes up (cursor shifts back)."""
    stack = s.queue[i]
    card = stack.pop()
    if not stack:
        del s.queue[i]
        if i < s.cursor:
            s.cursor -= 1
    return card


def insert_stack(s: State, i: int, card: int) -> None:
    """Open a new stack ``[card]`` before stack ``i`` (cursor shifts on if at or before it)."""
    s.queue.insert(i, [card])
    if i <= s.cursor:
        s.cursor += 1


def _leave_queue(s: State, card: int, pile: int) -> None:
    """Turn a card that has left the Queue face up, drop its tokens, file it (R-ELIM-1/2)."""
    s.face_up[card] = True
    s.tokens[card] = 0
    owner = s.card_family[card]
    if s.corrupt[card] >= 0:  # R-CORR-2: the token is gone, the card counts as eliminated
        s.corrupt[card] = -1
        pile = ELIMINATED
    s.zones[owner * N_ZONES + pile].append(card)


def discard(s: State, card: int) -> bool:
    """Discard a top card of the Queue (no clause applies); False if it is not a top card."""
    i = s.stack_index(card)
    if i < 0:
        return False
    take_top(s, i)
    _leave_queue(s, card, DISCARDED)
    if s.log is not None:
        log(s, EventKind.DISCARDED, s.player_of(s.card_family[card]), card, s.card_type[card])
    return True


def move(s: State, card: int, gap: int) -> None:
    """Royal Decree: move top ``card`` to ``gap`` (0 = front, len = end); R-DECREE-1, R-ELIM-3."""
    i = s.stack_index(card)
    closed = len(s.queue[i]) == 1
    take_top(s, i)
    if closed and gap > i:
        gap -= 1
    insert_stack(s, gap, card)


# -- Elimination (R-ELIM-1, R-QUEEN-1, R-AMBUSH-2/3, R-TRAP-2, R-PRINCE-2/3, R-CORR-2) ---------
def eliminate(s: State, target: int, by: int, family: int, reward: bool = True) -> None:
    """``by`` (controlled by ``family``) eliminates top card ``target``, with every clause.

    ``reward`` False is the Cutthroat hitting a single card (R-CUT-1): no +1, but the Queen
    bonus and the Ambush/Trap clauses still apply.
    """
    controller = s.controller(target)
    owner = s.card_family[target]
    kind = s.card_type[target]
    take_top(s, s.stack_index(target))
    me = family % s.config.players
    victim = owner % s.config.players
    # An eliminated Ambush is discarded, whoever eliminated it (R-AMBUSH-2/3): it counts as an
    # elimination, then goes with its tokens to its owner's discarded cards. The log says both.
    _leave_queue(s, target, DISCARDED if kind == _AMBUSH else ELIMINATED)
    if s.log is not None:
        log(s, EventKind.ELIMINATED, me, target, kind, by)
        if kind == _AMBUSH:
            log(s, EventKind.DISCARDED, victim, target, kind)
    if reward:
        gain(s, me, 1, by)
    if kind == _QUEEN:
        if controller != family:
            gain(s, me, 1, target)
    elif kind == _AMBUSH:
        if victim != me:
            discard(s, by)
            gain(s, victim, 4, target)
        elif s.config.edition == "first" and owner == family:
            # First edition, the family's own card: +2 in all, attacker discarded. Between a
            # player's two families only the +1 (seed 003's 2-player example; docs/rules.md).
            gain(s, me, 1, target)
            discard(s, by)
    elif kind == _TRAP:
        if victim != me:
            discard(s, by)
            steal(s, victim, me, 3, target)
    elif kind in (_PRINCE, _TWIN):
        linked = _TWIN if kind == _PRINCE else _PRINCE
        types = s.card_type
        for card in [st[-1] for st in s.queue if types[st[-1]] == linked]:
            if s.controller(card) == controller:
                discard(s, card)

"""The verbs every ability shares, written once: gain, lose, steal, eliminate, discard, move,
and the Queue edits that keep the resolution cursor right (R-RES-2/3)."""

from __future__ import annotations

from typing import Final

from .cards import CardType
from .events import EventKind
from .state import (
    DISCARDED,
    ELIMINATED,
    N_ZONES,
    Card,
    CardTypeId,
    Event,
    Family,
    Player,
    State,
)

# Final: compiled code reads these as constants (a plain module global is a dict lookup).
_QUEEN: Final = CardType.QUEEN
_AMBUSH: Final = CardType.AMBUSH
_TRAP: Final = CardType.TRAP
_PRINCE: Final = CardType.PRINCE
_TWIN: Final = CardType.TWIN
_EVENT: Final = Event
_new: Final = tuple.__new__  # Event(...) through its NamedTuple constructor costs twice as much


def log(
    state: State,
    kind: EventKind,
    player: Player = -1,
    card: Card = -1,
    card_type: CardTypeId = -1,
    other: int = -1,
    amount: int = 0,
) -> None:
    if state.log is not None:
        state.log.append(_new(_EVENT, (kind, state.round, player, card, card_type, other, amount)))


def public_type(state: State, card: Card) -> int:
    """The card's type if it is face up (public), else -1."""
    return state.card_type[card] if state.face_up[card] else -1


# -- Influence (R-SCORE-1) ------------------------------------------------------------------
def gain(state: State, player: Player, amount: int, source: int = -1) -> None:
    if amount > 0:
        state.influence[player] += amount
        if state.log is not None:
            shown = public_type(state, source) if source >= 0 else -1
            log(state, EventKind.GAINED, player, source, shown, amount=amount)


def lose(state: State, player: Player, amount: int, source: int = -1) -> None:
    taken = min(amount, state.influence[player])
    if taken > 0:
        state.influence[player] -= taken
        if state.log is not None:
            shown = public_type(state, source) if source >= 0 else -1
            log(state, EventKind.LOST, player, source, shown, amount=taken)


def steal(state: State, thief: Player, victim: Player, amount: int, source: int = -1) -> None:
    """The thief gains exactly what the victim loses; stealing from yourself does nothing.
    ``source`` is the card that steals (the Spy, or a Shapeshifter copying it; the Trap)."""
    if thief == victim:
        return
    taken = min(amount, state.influence[victim])
    if taken > 0:
        state.influence[victim] -= taken
        state.influence[thief] += taken
        if state.log is not None:
            shown = public_type(state, source) if source >= 0 else -1
            log(state, EventKind.STOLE, thief, source, shown, victim, taken)


# -- Queue edits ----------------------------------------------------------------------------
def take_top(state: State, i: int) -> int:
    """Remove the top card of stack ``i``; an emptied stack closes up (cursor shifts back)."""
    stack = state.queue[i]
    card = stack.pop()
    if not stack:
        del state.queue[i]
        if i < state.cursor:
            state.cursor -= 1
    return card


def insert_stack(state: State, i: int, card: Card) -> None:
    """Open a new stack ``[card]`` before stack ``i`` (cursor shifts on if at or before it)."""
    state.queue.insert(i, [card])
    if i <= state.cursor:
        state.cursor += 1


def _leave_queue(state: State, card: Card, pile: int) -> None:
    """Turn a card that has left the Queue face up, drop its tokens, file it (R-ELIM-1/2)."""
    state.face_up[card] = True
    state.tokens[card] = 0
    owner = state.card_family[card]
    if state.corrupt[card] >= 0:  # R-CORR-2: the token is gone, the card counts as eliminated
        state.corrupt[card] = -1
        pile = ELIMINATED
    state.zones[owner * N_ZONES + pile].append(card)


def discard(state: State, card: Card) -> bool:
    """Discard a top card of the Queue (no clause applies); False if it is not a top card."""
    i = state.stack_index(card)
    if i < 0:
        return False
    take_top(state, i)
    _leave_queue(state, card, DISCARDED)
    if state.log is not None:
        owner = state.player_of(state.card_family[card])
        log(state, EventKind.DISCARDED, owner, card, state.card_type[card])
    return True


def move(state: State, card: Card, gap: int) -> None:
    """Royal Decree: move top ``card`` to ``gap`` (0 = front, len = end); R-DECREE-1, R-ELIM-3."""
    i = state.stack_index(card)
    closed = len(state.queue[i]) == 1
    take_top(state, i)
    if closed and gap > i:
        gap -= 1
    insert_stack(state, gap, card)


# -- Elimination (R-ELIM-1, R-QUEEN-1, R-AMBUSH-2/3, R-TRAP-2, R-PRINCE-2/3, R-CORR-2) ---------
def eliminate(state: State, target: Card, by: Card, family: Family, reward: bool = True) -> None:
    """``by`` (controlled by ``family``) eliminates top card ``target``, with every clause.

    ``reward`` False is the Cutthroat hitting a single card (R-CUT-1): no +1, but the Queen
    bonus and the Ambush/Trap clauses still apply.
    """
    controller = state.controller(target)
    owner = state.card_family[target]
    kind = state.card_type[target]
    take_top(state, state.stack_index(target))
    me = family % state.config.players
    victim = owner % state.config.players
    # An eliminated Ambush is discarded, whoever eliminated it (R-AMBUSH-2/3): it counts as an
    # elimination, then goes with its tokens to its owner's discarded cards. The log says both.
    _leave_queue(state, target, DISCARDED if kind == _AMBUSH else ELIMINATED)
    if state.log is not None:
        log(state, EventKind.ELIMINATED, me, target, kind, by)
        if kind == _AMBUSH:
            log(state, EventKind.DISCARDED, victim, target, kind)
    if reward:
        gain(state, me, 1, by)
    if kind == _QUEEN:
        if controller != family:
            gain(state, me, 1, target)
    elif kind == _AMBUSH:
        if victim != me:
            discard(state, by)
            gain(state, victim, 4, target)
        elif state.config.edition == "first" and owner == family:
            # First edition, the family's own card: +2 in all, attacker discarded. Between a
            # player's two families only the +1 (seed 003's 2-player example; docs/rules.md).
            gain(state, me, 1, target)
            discard(state, by)
    elif kind == _TRAP:
        if victim != me:
            discard(state, by)
            steal(state, victim, me, 3, target)
    elif kind in (_PRINCE, _TWIN):
        linked = _TWIN if kind == _PRINCE else _PRINCE
        types = state.card_type
        for card in [st[-1] for st in state.queue if types[st[-1]] == linked]:
            if state.controller(card) == controller:
                discard(state, card)

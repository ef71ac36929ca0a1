"""One small unit per card: what choices its ability offers and what it does.

An ability runs for an *acting card* ``card`` on behalf of a *family* ``family`` (its
controller, or the Machination's family). An ability without choice acts at once in
:meth:`Ability.act`. One with a choice pushes a ``(CHOOSE, card, family, card_type)`` frame on
the pending stack; the engine
asks :meth:`Ability.choices` for the options (an empty list means "no effect", R-ABIL-1) and
calls :meth:`Ability.choose` with the one taken. Multi-step abilities push further frames
(``GAP``, ``TWIN``, ``ACTIVATE``, ``TOKENS``), so the state stays plain data mid-ability.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .cards import IS_CHARACTER, CardType
from .effects import discard, eliminate, gain, insert_stack, log, lose, move, steal
from .events import EventKind
from .state import (
    ACTIVATE,
    CHOOSE,
    DISCARDED,
    ELIMINATED,
    GAP,
    N_ZONES,
    RESERVE,
    SET_ASIDE,
    TWIN,
    Card,
    Family,
    Player,
    State,
)

FRONT: Final = -1
END: Final = -2


class DecisionKind(IntEnum):
    """What a decision is about."""

    PLACE = 0  # a card from hand and where (R-PLACE-1)
    REVEAL = 1  # reveal or leave face down (R-RES-1)
    ELIMINATE = 2  # the card to eliminate (Archer, Soldier, Assassination, Cutthroat, ...)
    STEAL = 3  # the player the Spy steals from
    COPY = 4  # the character the Shapeshifter copies
    MOVE_CARD = 5  # the card the Royal Decree moves
    MOVE_TO = 6  # where it goes
    PLACE_TWIN = 7  # where the Prince puts the Twin
    ACTIVATE = 8  # the character a Machination activates
    TOKEN = 9  # gain or spend a Machination token
    CORRUPT = 10  # the character receiving the Corruption token

    @property
    def slug(self) -> str:
        return self.name.lower()


def adjacent_tops(state: State, card: Card) -> list[int]:
    """Top cards of the stacks next to the stack topped by ``card`` (R-QUEUE-2)."""
    q = state.queue
    i = state.cursor  # usually the card being resolved there: no search
    if not (i < len(q) and q[i][-1] == card):
        i = next((k for k, st in enumerate(q) if st[-1] == card), -1)
        if i < 0:
            return []
    out = []
    if i > 0:
        out.append(q[i - 1][-1])
    if i + 1 < len(q):
        out.append(q[i + 1][-1])
    return out


def _me(state: State, family: Family) -> Player:
    return family % state.config.players


class Ability:
    """Base: a card type's ability. Subclasses set ``card_type``, ``rulings`` and
    ``decision``; the methods act for the acting ``card`` on behalf of ``family``."""

    card_type: CardType
    rulings: tuple[str, ...] = ()
    decision: DecisionKind | None = None

    def start(self, state: State, card: Card, family: Family, on_reveal: bool) -> None:
        if self.decision is None:
            self.act(state, card, family)
        else:
            state.pending.append((CHOOSE, card, family, self.card_type))

    def act(self, state: State, card: Card, family: Family) -> None:
        """Apply an ability that has no choice."""

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        """Card ids (or players, for the Spy) that may be chosen."""
        return []

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        """Apply the ability with ``choice``."""


class Archer(Ability):
    card_type = CardType.ARCHER
    rulings: tuple[str, ...] = ("R-ARCHER-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        q = state.queue
        first, last = q[0][-1], q[-1][-1]
        return [first] if first == last else [first, last]

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        eliminate(state, choice, card, family)


class Soldier(Ability):
    card_type = CardType.SOLDIER
    rulings: tuple[str, ...] = ("R-SOLDIER-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        return adjacent_tops(state, card)

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        eliminate(state, choice, card, family)


class Spy(Ability):
    card_type = CardType.SPY
    rulings: tuple[str, ...] = ("R-SPY-1", "R-SPY-2", "R-2P-2")
    decision: DecisionKind | None = DecisionKind.STEAL

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        n = state.config.players
        return sorted({state.controller(c) % n for c in adjacent_tops(state, card)})

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        steal(state, _me(state, family), choice, 1, card)


class Heir(Ability):
    card_type = CardType.HEIR
    rulings: tuple[str, ...] = ("R-HEIR-1",)

    def act(self, state: State, card: Card, family: Family) -> None:
        name = state.card_type[card]
        types, up = state.card_type, state.face_up
        for st in state.queue:
            c = st[-1]
            if c != card and up[c] and types[c] == name:
                return
        gain(state, _me(state, family), 2, card)


class Assassination(Ability):
    card_type = CardType.ASSASSINATION
    rulings: tuple[str, ...] = ("R-ASSASSIN-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        return [st[-1] for st in state.queue]

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        eliminate(state, choice, card, family)


def decree_gaps(state: State, card: Card) -> list[int]:
    """Gaps that really move ``card`` (R-DECREE-1): not the two beside its own lone stack."""
    i = state.stack_index(card)
    n = len(state.queue)
    if len(state.queue[i]) > 1:
        return list(range(n + 1))
    return [g for g in range(n + 1) if g != i and g != i + 1]


class RoyalDecree(Ability):
    card_type = CardType.ROYAL_DECREE
    rulings: tuple[str, ...] = ("R-DECREE-1", "R-ELIM-3", "R-RES-3")
    decision: DecisionKind | None = DecisionKind.MOVE_CARD

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        if len(state.queue) < 2:
            return []
        return [st[-1] for st in state.queue if st[-1] != card]

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        state.pending.append((GAP, card, family, choice))


def decree_move(state: State, decree: Card, family: Family, card: Card, gap: int) -> None:
    """The Royal Decree ``decree`` of ``family`` moves ``card`` to ``gap`` (R-DECREE-1)."""
    moved_type = state.card_type[card] if state.face_up[card] else -1
    log(state, EventKind.MOVED, _me(state, family), card, moved_type, gap)
    move(state, card, gap)


class Lord(Ability):
    card_type = CardType.LORD
    rulings: tuple[str, ...] = ("R-LORD-1", "R-EDITION-1")

    def act(self, state: State, card: Card, family: Family) -> None:
        q = state.queue
        i = state.stack_index(card)
        amount = 1
        for j in (i - 1, i + 1):
            if 0 <= j < len(q):
                if state.config.edition == "first":
                    amount += sum(1 for c in q[j] if state.controller(c) == family)
                elif state.controller(q[j][-1]) == family:
                    amount += 1
        gain(state, _me(state, family), amount, card)


class Shapeshifter(Ability):
    card_type = CardType.SHAPESHIFTER
    rulings: tuple[str, ...] = ("R-SHIFT-1", "R-HEIR-1")
    decision: DecisionKind | None = DecisionKind.COPY

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        types, up = state.card_type, state.face_up
        return [c for c in adjacent_tops(state, card) if up[c] and IS_CHARACTER[types[c]]]

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        model = state.card_type[choice]
        log(state, EventKind.COPIED, _me(state, family), card, CardType.SHAPESHIFTER, choice)
        if model != CardType.SHAPESHIFTER:
            ABILITIES[model].start(state, card, family, False)


class Ambush(Ability):
    card_type = CardType.AMBUSH
    rulings: tuple[str, ...] = ("R-AMBUSH-1", "R-AMBUSH-2", "R-AMBUSH-3")

    def act(self, state: State, card: Card, family: Family) -> None:
        gain(state, _me(state, family), 1, card)  # its tokens were discarded on reveal


class Conspiracy(Ability):
    card_type = CardType.CONSPIRACY
    rulings: tuple[str, ...] = ("R-CONSP-1",)

    def act(self, state: State, card: Card, family: Family) -> None:
        held, state.tokens[card] = state.tokens[card], 0
        gain(state, _me(state, family), 2 * held, card)


class Prince(Ability):
    card_type = CardType.PRINCE
    rulings: tuple[str, ...] = ("R-PRINCE-1", "R-PRINCE-2", "R-PRINCE-3", "R-RES-4")
    decision: DecisionKind | None = DecisionKind.PLACE_TWIN

    def start(self, state: State, card: Card, family: Family, on_reveal: bool) -> None:
        reserve = state.zones[family * N_ZONES + RESERVE]
        if on_reveal and reserve:
            state.pending.append((TWIN, card, family, reserve[0]))
        else:
            gain(state, _me(state, family), 1, card)


def twin_places(state: State, family: Family) -> list[int]:
    """Where a Prince may put the Twin: either end, or on a stack ``family`` controls whose top
    is not a Prince, from round 2 (R-PRINCE-1, R-PLACE-1)."""
    out = [FRONT, END]
    if state.round > 1:
        types = state.card_type
        out += [st[-1] for st in state.queue
                if state.controller(st[-1]) == family and types[st[-1]] != CardType.PRINCE]
    return out


def place_twin(state: State, prince: Card, family: Family, twin: Card, to: int) -> None:
    """The Prince ``prince`` of ``family`` puts the Twin at ``to`` (R-PRINCE-1)."""
    state.zones[family * N_ZONES + RESERVE].remove(twin)
    state.face_up[twin] = True
    if to == FRONT:
        insert_stack(state, 0, twin)
    elif to == END:
        state.queue.append([twin])
    else:
        state.queue[state.stack_index(to)].append(twin)
    log(state, EventKind.TWIN_PLACED, _me(state, family), twin, CardType.TWIN, to)
    gain(state, _me(state, family), 1, prince)


class Twin(Ability):
    card_type = CardType.TWIN
    rulings: tuple[str, ...] = ("R-TWIN-1", "R-PRINCE-2")

    def act(self, state: State, card: Card, family: Family) -> None:
        gain(state, _me(state, family), 1, card)


class Queen(Ability):
    card_type = CardType.QUEEN
    rulings: tuple[str, ...] = ("R-QUEEN-1",)

    def act(self, state: State, card: Card, family: Family) -> None:
        gain(state, _me(state, family), 2, card)


class Cutthroat(Ability):
    card_type = CardType.CUTTHROAT
    rulings: tuple[str, ...] = ("R-CUT-1", "R-QUEEN-1")
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        return adjacent_tops(state, card)

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        name = state.card_type[choice]
        eliminate(state, choice, card, family, reward=False)
        types, up = state.card_type, state.face_up
        same = [st[-1] for st in state.queue
                if up[st[-1]] and types[st[-1]] == name and state.controller(st[-1]) != family]
        count = 1
        for other in same:
            if state.stack_index(other) >= 0:  # a linked discard may have taken it already
                eliminate(state, other, card, family, reward=False)
                count += 1
        if count > 1:
            gain(state, _me(state, family), count, card)


class Apothecary(Ability):
    card_type = CardType.APOTHECARY
    rulings: tuple[str, ...] = ("R-APOTH-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        q = state.queue
        n = len(q)
        refs = [i for i, st in enumerate(q)
                if st[-1] != card and state.controller(st[-1]) == family]
        near = sorted({j for i in refs for j in (i - 1, i + 1) if 0 <= j < n})
        return [q[j][-1] for j in near]

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        eliminate(state, choice, card, family)


class Felon(Ability):
    card_type = CardType.FELON
    rulings: tuple[str, ...] = ("R-FELON-1", "R-2P-2")

    def act(self, state: State, card: Card, family: Family) -> None:
        n = state.config.players
        for c in adjacent_tops(state, card):
            lose(state, state.controller(c) % n, 1, card)


class Schemer(Ability):
    card_type = CardType.SCHEMER
    rulings: tuple[str, ...] = ("R-SCHEMER-1",)

    def act(self, state: State, card: Card, family: Family) -> None:
        q = state.queue
        i = state.stack_index(card)
        if (i > 0 and len(q[i - 1]) > 1) or (i + 1 < len(q) and len(q[i + 1]) > 1):
            discard(state, card)
        else:
            gain(state, _me(state, family), 2, card)


class Usurpation(Ability):
    card_type = CardType.USURPATION
    rulings: tuple[str, ...] = ("R-USURP-1", "R-USURP-2", "R-RES-4", "R-2P-2")
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        return adjacent_tops(state, card)

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        i = state.stack_index(choice)
        before = i < state.stack_index(card)
        alone = len(state.queue[i]) == 1
        opponent = state.controller(choice) != family
        name = state.card_type[choice]
        eliminate(state, choice, card, family)
        if not (alone and opponent and IS_CHARACTER[name]):
            return
        replacement = state.family_card(family, name)
        at = state.stack_index(card)
        if replacement < 0 or at < 0:
            return
        for zone in (SET_ASIDE, DISCARDED, ELIMINATED):
            pool = state.zones[family * N_ZONES + zone]
            if replacement in pool:
                pool.remove(replacement)
                state.face_up[replacement] = True
                state.tokens[replacement] = 0
                insert_stack(state, at if before else at + 1, replacement)
                log(state, EventKind.REPLACED, _me(state, family), replacement, name, choice)
                return


def activable(state: State, family: Family) -> list[int]:
    """Revealed top-card Characters that ``family`` controls (R-MACH-1)."""
    types, up = state.card_type, state.face_up
    return [st[-1] for st in state.queue
            if up[st[-1]] and IS_CHARACTER[types[st[-1]]] and state.controller(st[-1]) == family]


class Machination(Ability):
    card_type = CardType.MACHINATION
    rulings: tuple[str, ...] = ("R-MACH-1", "R-MACH-2", "R-RES-2")
    decision: DecisionKind | None = DecisionKind.ACTIVATE

    def start(self, state: State, card: Card, family: Family, on_reveal: bool) -> None:
        held, state.tokens[card] = state.tokens[card], 0
        discard(state, card)
        state.pending.append((ACTIVATE, card, family, held))


class Trap(Ability):
    card_type = CardType.TRAP
    rulings: tuple[str, ...] = ("R-TRAP-1", "R-TRAP-2")

    def act(self, state: State, card: Card, family: Family) -> None:
        gain(state, _me(state, family), 1, card)  # its tokens were discarded on reveal


class Corruption(Ability):
    card_type = CardType.CORRUPTION
    rulings: tuple[str, ...] = ("R-CORR-1", "R-CORR-2", "R-CORR-3")
    decision: DecisionKind | None = DecisionKind.CORRUPT

    def choices(self, state: State, card: Card, family: Family) -> list[int]:
        types, up = state.card_type, state.face_up
        out = []
        for st in state.queue:
            c = st[-1]
            if up[c] and IS_CHARACTER[types[c]]:
                if len(st) > 1 and state.controller(c) != family:
                    continue  # on top of an opponent's stack of two or more cards
                out.append(c)
        return out

    def choose(self, state: State, card: Card, family: Family, choice: int) -> None:
        state.corrupt[choice] = family
        log(state, EventKind.CORRUPTED, _me(state, family), choice, state.card_type[choice], family)


ABILITIES: Final[tuple[Ability, ...]] = tuple(
    sorted(
        (
            Archer(), Soldier(), Spy(), Heir(), Assassination(), RoyalDecree(), Lord(),
            Shapeshifter(), Ambush(), Conspiracy(), Prince(), Twin(), Queen(), Cutthroat(),
            Apothecary(), Felon(), Schemer(), Usurpation(), Machination(), Trap(), Corruption(),
        ),
        key=lambda a: int(a.card_type),
    )
)
assert [int(a.card_type) for a in ABILITIES] == list(range(21))

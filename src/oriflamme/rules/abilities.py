"""One small unit per card: what choices its ability offers and what it does.

An ability runs for an *acting card* ``x`` on behalf of a *family* ``f`` (its controller, or
the Machination's family). An ability without choice acts at once in :meth:`Ability.act`. One
with a choice pushes a ``(CHOOSE, x, f, card_type)`` frame on the pending stack; the engine
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


def adjacent_tops(s: State, x: int) -> list[int]:
    """Top cards of the stacks next to the stack topped by ``x`` (R-QUEUE-2)."""
    q = s.queue
    i = s.cursor  # usually x is the card being resolved there: no search
    if not (i < len(q) and q[i][-1] == x):
        i = next((k for k, st in enumerate(q) if st[-1] == x), -1)
        if i < 0:
            return []
    out = []
    if i > 0:
        out.append(q[i - 1][-1])
    if i + 1 < len(q):
        out.append(q[i + 1][-1])
    return out


def _me(s: State, f: int) -> int:
    return f % s.config.players


class Ability:
    """Base: a card's ability. Subclasses set ``card``, ``rulings`` and ``decision``."""

    card: CardType
    rulings: tuple[str, ...] = ()
    decision: DecisionKind | None = None

    def start(self, s: State, x: int, f: int, on_reveal: bool) -> None:
        if self.decision is None:
            self.act(s, x, f)
        else:
            s.pending.append((CHOOSE, x, f, self.card))

    def act(self, s: State, x: int, f: int) -> None:
        """Apply an ability that has no choice."""

    def choices(self, s: State, x: int, f: int) -> list[int]:
        """Card ids (or players, for the Spy) that may be chosen."""
        return []

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        """Apply the ability with ``choice``."""


class Archer(Ability):
    card = CardType.ARCHER
    rulings: tuple[str, ...] = ("R-ARCHER-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        q = s.queue
        first, last = q[0][-1], q[-1][-1]
        return [first] if first == last else [first, last]

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        eliminate(s, choice, x, f)


class Soldier(Ability):
    card = CardType.SOLDIER
    rulings: tuple[str, ...] = ("R-SOLDIER-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        return adjacent_tops(s, x)

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        eliminate(s, choice, x, f)


class Spy(Ability):
    card = CardType.SPY
    rulings: tuple[str, ...] = ("R-SPY-1", "R-SPY-2", "R-2P-2")
    decision: DecisionKind | None = DecisionKind.STEAL

    def choices(self, s: State, x: int, f: int) -> list[int]:
        n = s.config.players
        return sorted({s.controller(c) % n for c in adjacent_tops(s, x)})

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        steal(s, _me(s, f), choice, 1, x)


class Heir(Ability):
    card = CardType.HEIR
    rulings: tuple[str, ...] = ("R-HEIR-1",)

    def act(self, s: State, x: int, f: int) -> None:
        name = s.card_type[x]
        types, up = s.card_type, s.face_up
        for st in s.queue:
            c = st[-1]
            if c != x and up[c] and types[c] == name:
                return
        gain(s, _me(s, f), 2, x)


class Assassination(Ability):
    card = CardType.ASSASSINATION
    rulings: tuple[str, ...] = ("R-ASSASSIN-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        return [st[-1] for st in s.queue]

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        eliminate(s, choice, x, f)


def decree_gaps(s: State, card: int) -> list[int]:
    """Gaps that really move ``card`` (R-DECREE-1): not the two beside its own lone stack."""
    i = s.stack_index(card)
    n = len(s.queue)
    if len(s.queue[i]) > 1:
        return list(range(n + 1))
    return [g for g in range(n + 1) if g != i and g != i + 1]


class RoyalDecree(Ability):
    card = CardType.ROYAL_DECREE
    rulings: tuple[str, ...] = ("R-DECREE-1", "R-ELIM-3", "R-RES-3")
    decision: DecisionKind | None = DecisionKind.MOVE_CARD

    def choices(self, s: State, x: int, f: int) -> list[int]:
        if len(s.queue) < 2:
            return []
        return [st[-1] for st in s.queue if st[-1] != x]

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        s.pending.append((GAP, x, f, choice))


def decree_move(s: State, x: int, f: int, card: int, gap: int) -> None:
    log(s, EventKind.MOVED, _me(s, f), card, s.card_type[card] if s.face_up[card] else -1, gap)
    move(s, card, gap)


class Lord(Ability):
    card = CardType.LORD
    rulings: tuple[str, ...] = ("R-LORD-1", "R-EDITION-1")

    def act(self, s: State, x: int, f: int) -> None:
        q = s.queue
        i = s.stack_index(x)
        amount = 1
        for j in (i - 1, i + 1):
            if 0 <= j < len(q):
                if s.config.edition == "first":
                    amount += sum(1 for c in q[j] if s.controller(c) == f)
                elif s.controller(q[j][-1]) == f:
                    amount += 1
        gain(s, _me(s, f), amount, x)


class Shapeshifter(Ability):
    card = CardType.SHAPESHIFTER
    rulings: tuple[str, ...] = ("R-SHIFT-1", "R-HEIR-1")
    decision: DecisionKind | None = DecisionKind.COPY

    def choices(self, s: State, x: int, f: int) -> list[int]:
        types, up = s.card_type, s.face_up
        return [c for c in adjacent_tops(s, x) if up[c] and IS_CHARACTER[types[c]]]

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        model = s.card_type[choice]
        log(s, EventKind.COPIED, _me(s, f), x, CardType.SHAPESHIFTER, choice)
        if model != CardType.SHAPESHIFTER:
            ABILITIES[model].start(s, x, f, False)


class Ambush(Ability):
    card = CardType.AMBUSH
    rulings: tuple[str, ...] = ("R-AMBUSH-1", "R-AMBUSH-2", "R-AMBUSH-3")

    def act(self, s: State, x: int, f: int) -> None:
        gain(s, _me(s, f), 1, x)  # its tokens were discarded on reveal


class Conspiracy(Ability):
    card = CardType.CONSPIRACY
    rulings: tuple[str, ...] = ("R-CONSP-1",)

    def act(self, s: State, x: int, f: int) -> None:
        held, s.tokens[x] = s.tokens[x], 0
        gain(s, _me(s, f), 2 * held, x)


class Prince(Ability):
    card = CardType.PRINCE
    rulings: tuple[str, ...] = ("R-PRINCE-1", "R-PRINCE-2", "R-PRINCE-3", "R-RES-4")
    decision: DecisionKind | None = DecisionKind.PLACE_TWIN

    def start(self, s: State, x: int, f: int, on_reveal: bool) -> None:
        reserve = s.zones[f * N_ZONES + RESERVE]
        if on_reveal and reserve:
            s.pending.append((TWIN, x, f, reserve[0]))
        else:
            gain(s, _me(s, f), 1, x)


def twin_places(s: State, f: int) -> list[int]:
    """Where a Prince may put the Twin: either end, or on a stack ``f`` controls whose top is
    not a Prince, from round 2 (R-PRINCE-1, R-PLACE-1)."""
    out = [FRONT, END]
    if s.round > 1:
        types = s.card_type
        out += [st[-1] for st in s.queue
                if s.controller(st[-1]) == f and types[st[-1]] != CardType.PRINCE]
    return out


def place_twin(s: State, x: int, f: int, twin: int, to: int) -> None:
    s.zones[f * N_ZONES + RESERVE].remove(twin)
    s.face_up[twin] = True
    if to == FRONT:
        insert_stack(s, 0, twin)
    elif to == END:
        s.queue.append([twin])
    else:
        s.queue[s.stack_index(to)].append(twin)
    log(s, EventKind.TWIN_PLACED, _me(s, f), twin, CardType.TWIN, to)
    gain(s, _me(s, f), 1, x)


class Twin(Ability):
    card = CardType.TWIN
    rulings: tuple[str, ...] = ("R-TWIN-1", "R-PRINCE-2")

    def act(self, s: State, x: int, f: int) -> None:
        gain(s, _me(s, f), 1, x)


class Queen(Ability):
    card = CardType.QUEEN
    rulings: tuple[str, ...] = ("R-QUEEN-1",)

    def act(self, s: State, x: int, f: int) -> None:
        gain(s, _me(s, f), 2, x)


class Cutthroat(Ability):
    card = CardType.CUTTHROAT
    rulings: tuple[str, ...] = ("R-CUT-1", "R-QUEEN-1")
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        return adjacent_tops(s, x)

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        name = s.card_type[choice]
        eliminate(s, choice, x, f, reward=False)
        types, up = s.card_type, s.face_up
        same = [st[-1] for st in s.queue
                if up[st[-1]] and types[st[-1]] == name and s.controller(st[-1]) != f]
        count = 1
        for card in same:
            if s.stack_index(card) >= 0:  # a linked discard may have taken it already
                eliminate(s, card, x, f, reward=False)
                count += 1
        if count > 1:
            gain(s, _me(s, f), count, x)


class Apothecary(Ability):
    card = CardType.APOTHECARY
    rulings: tuple[str, ...] = ("R-APOTH-1",)
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        q = s.queue
        n = len(q)
        refs = [i for i, st in enumerate(q) if st[-1] != x and s.controller(st[-1]) == f]
        near = sorted({j for i in refs for j in (i - 1, i + 1) if 0 <= j < n})
        return [q[j][-1] for j in near]

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        eliminate(s, choice, x, f)


class Felon(Ability):
    card = CardType.FELON
    rulings: tuple[str, ...] = ("R-FELON-1", "R-2P-2")

    def act(self, s: State, x: int, f: int) -> None:
        n = s.config.players
        for c in adjacent_tops(s, x):
            lose(s, s.controller(c) % n, 1, x)


class Schemer(Ability):
    card = CardType.SCHEMER
    rulings: tuple[str, ...] = ("R-SCHEMER-1",)

    def act(self, s: State, x: int, f: int) -> None:
        q = s.queue
        i = s.stack_index(x)
        if (i > 0 and len(q[i - 1]) > 1) or (i + 1 < len(q) and len(q[i + 1]) > 1):
            discard(s, x)
        else:
            gain(s, _me(s, f), 2, x)


class Usurpation(Ability):
    card = CardType.USURPATION
    rulings: tuple[str, ...] = ("R-USURP-1", "R-USURP-2", "R-RES-4", "R-2P-2")
    decision: DecisionKind | None = DecisionKind.ELIMINATE

    def choices(self, s: State, x: int, f: int) -> list[int]:
        return adjacent_tops(s, x)

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        i = s.stack_index(choice)
        before = i < s.stack_index(x)
        alone = len(s.queue[i]) == 1
        opponent = s.controller(choice) != f
        name = s.card_type[choice]
        eliminate(s, choice, x, f)
        if not (alone and opponent and IS_CHARACTER[name]):
            return
        card = s.family_card(f, name)
        xi = s.stack_index(x)
        if card < 0 or xi < 0:
            return
        for zone in (SET_ASIDE, DISCARDED, ELIMINATED):
            pool = s.zones[f * N_ZONES + zone]
            if card in pool:
                pool.remove(card)
                s.face_up[card] = True
                s.tokens[card] = 0
                insert_stack(s, xi if before else xi + 1, card)
                log(s, EventKind.REPLACED, _me(s, f), card, name, choice)
                return


def activable(s: State, f: int) -> list[int]:
    """Revealed top-card Characters that family ``f`` controls (R-MACH-1)."""
    types, up = s.card_type, s.face_up
    return [st[-1] for st in s.queue
            if up[st[-1]] and IS_CHARACTER[types[st[-1]]] and s.controller(st[-1]) == f]


class Machination(Ability):
    card = CardType.MACHINATION
    rulings: tuple[str, ...] = ("R-MACH-1", "R-MACH-2", "R-RES-2")
    decision: DecisionKind | None = DecisionKind.ACTIVATE

    def start(self, s: State, x: int, f: int, on_reveal: bool) -> None:
        held, s.tokens[x] = s.tokens[x], 0
        discard(s, x)
        s.pending.append((ACTIVATE, x, f, held))


class Trap(Ability):
    card = CardType.TRAP
    rulings: tuple[str, ...] = ("R-TRAP-1", "R-TRAP-2")

    def act(self, s: State, x: int, f: int) -> None:
        gain(s, _me(s, f), 1, x)  # its tokens were discarded on reveal


class Corruption(Ability):
    card = CardType.CORRUPTION
    rulings: tuple[str, ...] = ("R-CORR-1", "R-CORR-2", "R-CORR-3")
    decision: DecisionKind | None = DecisionKind.CORRUPT

    def choices(self, s: State, x: int, f: int) -> list[int]:
        types, up = s.card_type, s.face_up
        out = []
        for st in s.queue:
            c = st[-1]
            if up[c] and IS_CHARACTER[types[c]]:
                if len(st) > 1 and s.controller(c) != f:
                    continue  # on top of an opponent's stack of two or more cards
                out.append(c)
        return out

    def choose(self, s: State, x: int, f: int, choice: int) -> None:
        s.corrupt[choice] = f
        log(s, EventKind.CORRUPTED, _me(s, f), choice, s.card_type[choice], f)


ABILITIES: Final[tuple[Ability, ...]] = tuple(
    sorted(
        (
            Archer(), Soldier(), Spy(), Heir(), Assassination(), RoyalDecree(), Lord(),
            Shapeshifter(), Ambush(), Conspiracy(), Prince(), Twin(), Queen(), Cutthroat(),
            Apothecary(), Felon(), Schemer(), Usurpation(), Machination(), Trap(), Corruption(),
        ),
        key=lambda a: int(a.card),
    )
)
assert [int(a.card) for a in ABILITIES] == list(range(21))

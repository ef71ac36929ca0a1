"""The engine: set-up, whose decision it is, the legal options, applying an action.

The state always rests at a decision (or at the end). :func:`apply` checks the action, applies
it, then :func:`advance` runs everything that needs no choice (R-RES-1..3) until the next
decision. Pending frames (tuples of ints) on ``state.pending`` hold unfinished abilities:

``(REVEAL, card, family, 0)``     reveal-or-leave decision for the card under the cursor
``(CHOOSE, card, family, type)``  the choice of the ability of ``type`` acting as ``card``
``(GAP, decree, family, card)``   where the Royal Decree puts ``card``
``(TWIN, prince, family, twin)``  where the Prince puts the Twin
``(ACTIVATE, mach, family, n)``   the character a Machination activates, ``n`` tokens held
``(TOKENS, mach, family, n)``     gain or spend the next of ``n`` held tokens
``(DISCARD, card, family, 0)``    discard this Intrigue once its ability is done
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from .abilities import (
    ABILITIES,
    END,
    FRONT,
    DecisionKind,
    activable,
    decree_gaps,
    decree_move,
    place_twin,
    twin_places,
)
from .actions import (
    KIND_GAIN,
    KIND_LEAVE,
    KIND_MOVE,
    KIND_PLACE,
    KIND_PLAYER,
    KIND_REVEAL,
    KIND_SPEND,
    KIND_TARGET,
    KIND_TWIN,
    Action,
    ActionError,
)
from .cards import INTRIGUES, CardType
from .config import GameConfig
from .draws import Draws, shuffle
from .effects import discard, gain, insert_stack, log
from .events import EventKind
from .state import (
    ACTIVATE,
    CHOOSE,
    DISCARD,
    GAP,
    HAND,
    N_ZONES,
    OVER,
    PILE,
    PLACEMENT,
    RESERVE,
    RESOLUTION,
    REVEAL,
    SET_ASIDE,
    TOKENS,
    TWIN,
    Card,
    Family,
    PendingFrame,
    Player,
    State,
)
from .texts import FAMILY_COLOURS

# Final: compiled code reads these as constants (a plain module global is a dict lookup).
_new_action: Final = tuple.__new__
_ACTION: Final = Action

# The most frequent actions, built once (actions are immutable values): legal_actions and
# random playouts hand these out instead of building tuples, most of a placement's cost.
#: Card ids are below this (5 families of 11 cards, the Twin included).
MAX_CARDS: Final = 55
#: ``PLACEMENTS[card][to + 2]``: placing ``card`` at ``to`` (``END`` -2, ``FRONT`` -1 or a card).
PLACEMENTS: Final[tuple[tuple[Action, ...], ...]] = tuple(
    tuple(_new_action(_ACTION, (KIND_PLACE, c, to)) for to in range(-2, MAX_CARDS))
    for c in range(MAX_CARDS)
)
#: ``REVEAL_OR_LEAVE[card]``: the two options of a face-down card's turn (R-RES-1).
REVEAL_OR_LEAVE: Final[tuple[tuple[Action, Action], ...]] = tuple(
    (_new_action(_ACTION, (KIND_REVEAL, c, -1)), _new_action(_ACTION, (KIND_LEAVE, c, -1)))
    for c in range(MAX_CARDS)
)
#: ``TARGETS[card]``: choosing ``card`` as the target of an ability.
TARGETS: Final[tuple[Action, ...]] = tuple(
    _new_action(_ACTION, (KIND_TARGET, c, -1)) for c in range(MAX_CARDS))
#: A tokens frame's two options, gain then spend (as ``legal_actions`` lists them).
GAIN_OR_SPEND: Final[tuple[Action, Action]] = (
    _new_action(_ACTION, (KIND_GAIN, -1, -1)), _new_action(_ACTION, (KIND_SPEND, -1, -1)))
_TWO_OPTIONS: Final = (0, 1)
_AMBUSH: Final = CardType.AMBUSH
_TRAP: Final = CardType.TRAP
# Their ability uses their tokens:
_KEEP_TOKENS: Final = frozenset({CardType.CONSPIRACY, CardType.MACHINATION})
_LOSE_TOKENS: Final = frozenset({CardType.AMBUSH, CardType.TRAP})  # R-AMBUSH-1, R-TRAP-1


class IllegalAction(ActionError):
    """An action that is well formed but not legal in this position."""


class Decision(NamedTuple):
    """Who decides what: ``card`` is the card concerned (-1 for a placement) and ``ability``
    the card type whose ability asks (e.g. Soldier when a Shapeshifter copies a Soldier)."""

    player: int
    kind: DecisionKind
    card: int = -1
    ability: int = -1


# -- set-up (R-SETUP-1, R-2P-1) ---------------------------------------------------------------
def new_state(config: GameConfig, seed: int, log_events: bool = True) -> State:
    """Deal a new game; everything random comes from ``seed``."""
    rng = random.Random(seed)
    types: list[int] = []
    kinds = [int(t) for t in config.card_types]
    twin = config.has_twin
    for _ in range(config.families):
        deck = kinds[:]
        shuffle(rng, deck)  # rng.shuffle(deck)'s draws, the same deals, fewer calls
        if twin:
            deck.append(int(CardType.TWIN))
        types.extend(deck)
    fp = config.first_player
    first = rng.randrange(config.players) if fp is None else fp
    return _set_up(config, tuple(types), first, log_events)


def state_from_deal(
    config: GameConfig, card_types: Sequence[object], first_player: object, log_events: bool = True
) -> State:
    """The game a given deal starts: card ``f*S + k`` (``S`` = ``config.family_size``) is of
    type ``card_types[f*S + k]``, exactly as :func:`new_state` lays a shuffled deal out: ids
    ``+0..2`` of a family set aside, the rest in hand (two-families: ``+3..5`` in hand and
    ``+6..9`` the pile, drawn in that order), the Twin, if any, ``+10`` in the reserve.

    Raises ``ValueError`` (and builds nothing) unless each family holds each of the set-up's
    10 types once, then the Twin with the Prince, and ``first_player`` is a seat. The types are
    checked here, not only by mypy (callers pass data read from outside): hence ``object``, which
    the compiled build also accepts (it would raise ``TypeError`` at a narrower signature).
    """
    size, families = config.family_size, config.families
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not (
            0 <= first_player < config.players):
        raise ValueError(f"first_player must be 0 to {config.players - 1}, not {first_player!r}")
    given = tuple(card_types)
    if len(given) != families * size:
        raise ValueError(f"a deal gives the type of each of the {families * size} cards"
                         f" ({families} families of {size}), not {len(given)}")
    plain = all(type(t) is int for t in given)  # the usual case: skip the per-card checks
    expected = sorted(int(t) for t in config.card_types)
    twin = config.has_twin
    types: list[int] = []
    for f in range(families):
        raw = given[f * size:(f + 1) * size]
        where = f"family {f} ({FAMILY_COLOURS[f]}, ids {f * size}-{(f + 1) * size - 1})"
        if not plain and any(isinstance(t, bool) or not isinstance(t, int) for t in raw):
            raise ValueError(f"{where}: card types are integers (CardType), got {raw!r}")
        family = [int(t) for t in raw if isinstance(t, int)]  # every one, checked above
        types += family
        chosen = sorted(family[:10])
        if chosen != expected:
            missing = [t for t in expected if t not in chosen]
            twice = sorted({t for t in chosen if chosen.count(t) > 1})
            foreign = sorted({t for t in chosen if t not in expected})
            parts = [f"{what} {', '.join(_slug(t) for t in ts)}" for what, ts in (
                ("missing", missing), ("more than once", twice), ("not in the set-up", foreign),
            ) if ts]
            raise ValueError(f"{where}: ids +0..9 must hold each of the set-up's 10 card types"
                             f" once ({'; '.join(parts)})")
        if twin and family[10] != CardType.TWIN:
            raise ValueError(f"{where}: the Twin comes with the Prince as the last card (+10),"
                             f" not {_slug(family[10])}")
    return _set_up(config, tuple(types), first_player, log_events)


def _slug(t: int) -> str:
    return CardType(t).slug if t in _CARD_TYPE_VALUES else str(t)


_CARD_TYPE_VALUES: Final = frozenset(int(t) for t in CardType)


def _set_up(config: GameConfig, types: tuple[int, ...], first_player: int,
            log_events: bool) -> State:
    """The state at the start of a game whose card ``c`` is of type ``types[c]``."""
    size = config.family_size
    nf = config.families
    twin, two = config.has_twin, config.two_families  # properties: read once
    s = State.__new__(State)
    s.config = config
    s.zones = [[] for _ in range(nf * N_ZONES)]
    for f in range(nf):
        base = f * size
        z = f * N_ZONES
        s.zones[z + SET_ASIDE] = [base, base + 1, base + 2]
        if two:
            s.zones[z + HAND] = [base + 3, base + 4, base + 5]
            s.zones[z + PILE] = [base + k for k in range(6, 10)]
        else:
            s.zones[z + HAND] = [base + k for k in range(3, 10)]
        if twin:
            s.zones[z + RESERVE] = [base + 10]
    s.card_type = types
    s.card_family = tuple(c // size for c in range(nf * size))
    n = nf * size
    s.face_up = [False] * n
    if twin:
        for f in range(nf):
            s.face_up[f * size + 10] = True  # the Twin waits face up (R-PRINCE-1)
    s.tokens = [0] * n
    s.corrupt = [-1] * n
    s.queue = []
    s.influence = [1] * config.players
    s.round = 1
    s.phase = PLACEMENT
    s.first_player = first_player
    s.placed = 0
    s.cursor = 0
    s.resolving = -1
    s.pending = []
    s.log = [] if log_events else None
    s.scores_by_round = []
    return s


# -- decisions ----------------------------------------------------------------------------------
def placing_player(state: State) -> Player:
    """Who places next (R-PLACE-1). The hot paths spell this out rather than call it (marked
    "placing_player, inlined"); tests/rules/test_next_placer.py checks each copy against it."""
    return (state.first_player + state.placed) % state.config.players


def current_player(state: State) -> Player | None:
    """``decision(s).player`` without building the Decision (None once the game is over)."""
    if state.pending:
        return state.pending[-1][2] % state.config.players
    if state.phase == PLACEMENT:
        return (state.first_player + state.placed) % state.config.players  # placing_player, inlined
    return None


def decision(state: State) -> Decision | None:
    """The decision the game waits for, or None when it is over."""
    if state.pending:
        kind, x, f, arg = state.pending[-1]
        p = f % state.config.players
        if kind == REVEAL:
            return Decision(p, DecisionKind.REVEAL, x)  # its type is hidden (R-INFO-1)
        if kind == CHOOSE:
            ability = ABILITIES[arg]
            assert ability.decision is not None
            # ability.card_type (== arg) keeps the CardType, which a compiled int variable drops.
            return Decision(p, ability.decision, x, ability.card_type)
        if kind == GAP:
            return Decision(p, DecisionKind.MOVE_TO, arg, CardType.ROYAL_DECREE)
        if kind == TWIN:
            return Decision(p, DecisionKind.PLACE_TWIN, arg, CardType.PRINCE)
        if kind == ACTIVATE:
            return Decision(p, DecisionKind.ACTIVATE, x, CardType.MACHINATION)
        return Decision(p, DecisionKind.TOKEN, x, CardType.MACHINATION)
    if state.phase == PLACEMENT:
        return Decision(placing_player(state), DecisionKind.PLACE)
    return None


def placement_targets(state: State, family: Family) -> list[int]:
    """Where a card of ``family`` may go (R-PLACE-1): front, end, or on a stack it controls."""
    q = state.queue
    if not q:
        return [END]
    out = [FRONT, END]
    if state.round > 1:
        corrupt, owner = state.corrupt, state.card_family
        for st in q:
            c = st[-1]
            k = corrupt[c]
            if (k if k >= 0 else owner[c]) == family:
                out.append(c)
    return out


def hand_of(state: State, player: Player) -> list[Card]:
    z = state.zones
    if state.config.two_families:
        return z[player * N_ZONES + HAND] + z[(player + 2) * N_ZONES + HAND]
    return z[player * N_ZONES + HAND]


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, in a stable order (empty when the game is over)."""
    if state.pending:
        frame = state.pending[-1]
        if frame[0] == REVEAL:  # the most frequent decision, spelled out
            return list(REVEAL_OR_LEAVE[frame[1]])
        return [frame_action(frame, v) for v in frame_options(state, frame)]
    if state.phase != PLACEMENT:
        return []
    cfg = state.config
    # placing_player, inlined: the longest lists
    p = (state.first_player + state.placed) % cfg.players
    if cfg.variant != "two-families":
        targets = placement_targets(state, p)
        return [PLACEMENTS[c][t + 2] for c in state.zones[p * N_ZONES + HAND] for t in targets]
    out: list[Action] = []
    for f in (p, p + 2):
        targets = placement_targets(state, f)
        out += [PLACEMENTS[c][t + 2] for c in state.zones[f * N_ZONES + HAND] for t in targets]
    return out


def _index(pick: Callable[[int], int], count: int) -> int:
    # A Draws (the random bot's generator) is called as itself, not as a Python callable.
    return pick.below(count) if isinstance(pick, Draws) else pick(count)


def frame_options(state: State, frame: PendingFrame) -> Sequence[int]:
    """The options of the pending ``frame`` on top, as the values :func:`frame_action` turns
    into actions, in the order of :func:`legal_actions` (which builds them all at once): for
    drawing one option without building the others (:func:`pick_legal`, random playouts)."""
    kind, x, f, arg = frame
    if kind == CHOOSE:
        return ABILITIES[arg].choices(state, x, f)
    if kind == GAP:
        return decree_gaps(state, arg)
    if kind == TWIN:
        return twin_places(state, f)
    if kind == ACTIVATE:
        return activable(state, f)
    return _TWO_OPTIONS  # reveal or leave; gain or spend a token


def frame_action(frame: PendingFrame, value: int) -> Action:
    """The action of option ``value`` (one of :func:`frame_options`) of the pending ``frame``."""
    kind, x, _, arg = frame
    if kind == REVEAL:
        return REVEAL_OR_LEAVE[x][value]
    if kind == CHOOSE:
        if arg == CardType.SPY:
            return _new_action(_ACTION, (KIND_PLAYER, -1, value))
        return TARGETS[value]
    if kind == GAP:
        return _new_action(_ACTION, (KIND_MOVE, arg, value))
    if kind == TWIN:
        return _new_action(_ACTION, (KIND_TWIN, arg, value))
    if kind == ACTIVATE:
        return TARGETS[value]
    return GAIN_OR_SPEND[value]


def pick_legal(state: State, pick: Callable[[int], int]) -> Action:
    """``legal_actions(s)[i]`` for ``i = pick(len(legal_actions(s)))``, building only that
    action (not the list: placements are the longest lists): for bots that choose by position
    alone (the random bot). ``IndexError`` if ``i`` is not an index of that list or the game
    is over.
    """
    pending = state.pending
    if pending:
        frame = pending[-1]
        if frame[0] == REVEAL:  # the most frequent decision, spelled out (no option list)
            i = _index(pick, 2)
            if not 0 <= i < 2:
                raise IndexError(f"no legal action {i}: there are 2")
            return REVEAL_OR_LEAVE[frame[1]][i]
        options = frame_options(state, frame)
        i = _index(pick, len(options))
        if not 0 <= i < len(options):
            raise IndexError(f"no legal action {i}: there are {len(options)}")
        return frame_action(frame, options[i])
    placements: Sequence[Action] = ()
    if state.phase == PLACEMENT:
        cfg = state.config
        p = (state.first_player + state.placed) % cfg.players  # placing_player, inlined
        if cfg.variant != "two-families":
            hand = state.zones[p * N_ZONES + HAND]
            targets = placement_targets(state, p)
            n = len(targets)
            count = len(hand) * n
            i = _index(pick, count)
            if not 0 <= i < count:
                raise IndexError(f"no legal action {i}: there are {count}")
            return PLACEMENTS[hand[i // n]][targets[i % n] + 2]
        placements = legal_actions(state)  # two families: rarely played in bulk
    i = _index(pick, len(placements))
    if not 0 <= i < len(placements):
        raise IndexError(f"no legal action {i}: there are {len(placements)}")
    return placements[i]


# -- applying -----------------------------------------------------------------------------------
def apply(state: State, action: Action) -> None:
    """Apply a legal action (else raise :class:`IllegalAction` and change nothing)."""
    if not isinstance(action, Action):
        raise ActionError(f"not an Action: {action!r}")
    legal = legal_actions(state)
    if action not in legal:
        if not legal:
            raise IllegalAction("the game is over: no action is legal")
        d = decision(state)
        assert d is not None
        raise IllegalAction(
            f"{action} is not legal now; player {d.player} must decide {d.kind.slug}"
            f" ({len(legal)} option{'s' if len(legal) != 1 else ''})"
        )
    apply_unchecked(state, action)


def apply_unchecked(state: State, action: Action) -> None:
    """Apply an action known to be legal (search and playouts), then advance."""
    kind = action[0]
    if kind == KIND_PLACE:
        place(state, action[1], action[2])
        return
    frame = state.pending.pop()
    fk, x, f, arg = frame
    if fk == REVEAL:
        if kind == KIND_REVEAL:
            _reveal(state, x, f)
        else:
            state.tokens[x] += 1
            if state.log is not None:
                log(state, EventKind.LEFT, f % state.config.players, x, -1, amount=state.tokens[x])
    elif fk == CHOOSE:
        ABILITIES[arg].choose(state, x, f, action[2] if kind == KIND_PLAYER else action[1])
    elif fk == GAP:
        decree_move(state, x, f, arg, action[2])
    elif fk == TWIN:
        place_twin(state, x, f, arg, action[2])
    elif fk == ACTIVATE:
        y = action[1]
        state.pending.append((TOKENS, x, f, arg))
        log(state, EventKind.ACTIVATED, f % state.config.players, y, state.card_type[y], x)
        ABILITIES[state.card_type[y]].start(state, y, f, False)
    else:  # TOKENS
        if kind == KIND_GAIN:
            gain(state, f % state.config.players, 1, x)
            if arg > 1:
                state.pending.append((TOKENS, x, f, arg - 1))
        else:
            state.pending.append((ACTIVATE, x, f, arg - 1))
    advance(state)


def place(state: State, card: Card, to: int) -> None:
    """Place ``card`` at ``to`` (a legal placement, unchecked), then advance if it was the
    round's last (another placement follows otherwise: advance would find nothing to do)."""
    f = state.card_family[card]
    state.zones[f * N_ZONES + HAND].remove(card)
    if to == END:
        state.queue.append([card])
    elif to == FRONT:
        state.queue.insert(0, [card])
    else:
        state.queue[state.stack_index(to)].append(card)
    if state.log is not None:
        log(state, EventKind.PLACED, f % state.config.players, card, -1, to)
    state.placed += 1
    if state.placed == state.config.placements:
        advance(state)


def _reveal(state: State, card: Card, family: Family) -> None:
    state.face_up[card] = True
    t = state.card_type[card]
    p = family % state.config.players
    if state.log is not None:
        log(state, EventKind.REVEALED, p, card, t)
    if t in _LOSE_TOKENS:
        state.tokens[card] = 0
    elif t not in _KEEP_TOKENS:
        held, state.tokens[card] = state.tokens[card], 0
        gain(state, p, held, card)
    activate(state, card, family, True)


def activate(state: State, card: Card, family: Family, on_reveal: bool) -> None:
    """Apply the ability of ``card`` for ``family``; an Intrigue is discarded afterwards."""
    t = state.card_type[card]
    if t in INTRIGUES and t != CardType.MACHINATION:
        state.pending.append((DISCARD, card, family, 0))
    ABILITIES[t].start(state, card, family, on_reveal)


# -- advancing ----------------------------------------------------------------------------------
def advance(state: State) -> None:
    """Run everything that needs no decision, up to the next decision or the end."""
    pending = state.pending
    while True:
        if pending:
            kind, x, f, arg = pending[-1]
            if kind == CHOOSE:
                if ABILITIES[arg].choices(state, x, f):
                    return
                pending.pop()  # no legal choice: no effect (R-ABIL-1)
            elif kind == DISCARD:
                pending.pop()
                discard(state, x)  # only if still in the Queue
            elif kind in (ACTIVATE, TOKENS):
                # The first activation is due even with no token; "spend" only while some
                # character can be activated, else the held tokens are gained (R-MACH-1/2).
                if (kind == ACTIVATE or arg) and activable(state, f):
                    return
                pending.pop()
                gain(state, f % state.config.players, arg, x)
            else:
                return  # REVEAL, GAP, TWIN always offer a choice
            continue
        if state.phase == RESOLUTION:
            q = state.queue
            if state.resolving >= 0:  # R-RES-2: move on only if the card is still there
                if state.cursor < len(q) and q[state.cursor][-1] == state.resolving:
                    state.cursor += 1
                state.resolving = -1
            if state.cursor >= len(q):
                _end_round(state)
                continue
            top = q[state.cursor][-1]
            state.resolving = top
            f = state.corrupt[top]
            if f < 0:
                f = state.card_family[top]
            if not state.face_up[top]:
                pending.append((REVEAL, top, f, 0))
                return
            activate(state, top, f, False)
            continue
        if state.phase == PLACEMENT and state.placed == state.config.placements:
            state.phase = RESOLUTION
            state.cursor = 0
            state.resolving = -1
            continue
        return


def _end_round(state: State) -> None:
    if state.log is not None:
        log(state, EventKind.ROUND_ENDED, -1, amount=state.round)
    state.scores_by_round.append(tuple(state.influence))
    cfg = state.config
    if cfg.two_families:  # R-2P-1: draw 2 (one per family) while the pile lasts
        for k in range(cfg.players):
            p = (state.first_player + k) % cfg.players  # placing_player of placement k
            drawn = 0
            for f in cfg.player_families(p):
                pile = state.zones[f * N_ZONES + PILE]
                if pile:
                    state.zones[f * N_ZONES + HAND].append(pile.pop(0))
                    drawn += 1
            if drawn:
                log(state, EventKind.DREW, p, amount=drawn)
    if state.round >= 6:
        state.phase = OVER
        if state.log is not None:
            log(state, EventKind.GAME_ENDED)
        return
    state.round += 1
    state.first_player = (state.first_player + 1) % cfg.players
    state.placed = 0
    state.phase = PLACEMENT
    state.cursor = 0


# -- result (R-END-1) ---------------------------------------------------------------------------
class Result(NamedTuple):
    scores: tuple[int, ...]
    queue_cards: tuple[int, ...]  # tie-break: cards each player's families control in the Queue
    winners: tuple[int, ...]

    def shares(self) -> tuple[float, ...]:
        """Each player's share of the victory: 1/k for each of k co-winners (a shared victory,
        R-END-1), 0 for the others; they add up to 1.

        >>> Result((5, 5, 2), (1, 1, 0), (0, 1)).shares()
        (0.5, 0.5, 0.0)
        """
        part = 1 / len(self.winners)
        return tuple(part if p in self.winners else 0.0 for p in range(len(self.scores)))


def result(state: State) -> Result | None:
    if state.phase != OVER:
        return None
    n = state.config.players
    counts = [0] * n
    for st in state.queue:
        for c in st:
            counts[state.controller(c) % n] += 1
    best = max((state.influence[p], counts[p]) for p in range(n))
    winners = tuple(p for p in range(n) if (state.influence[p], counts[p]) == best)
    return Result(tuple(state.influence), tuple(counts), winners)


__all__ = [
    "Decision",
    "DecisionKind",
    "IllegalAction",
    "Result",
    "advance",
    "apply",
    "apply_unchecked",
    "decision",
    "insert_stack",
    "legal_actions",
    "new_state",
    "result",
    "state_from_deal",
]

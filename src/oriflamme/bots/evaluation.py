"""Position evaluation and a fast one-step policy, shared by the greedy and search bots.

Both work on the state of a *full* game (``state_of(game)`` of a real one, or of a world drawn
with :class:`~oriflamme.api.WorldSampler`) and read it directly, read-only, for speed: search
calls them thousands of times per decision.

- :func:`evaluate_state` estimates a player's **expected share of victory**, a value in [0, 1]:
  the exact share (1/number of winners, or 0) once the game is over, otherwise a softmax of the
  players' *projected final scores* whose temperature shrinks as the game nears its end.
- :func:`projected_state_scores` gives those projections: Influence, plus what each player's
  cards in the Queue should still bring (tokens, abilities still to act), minus the threats they
  face (revealed enemy attackers next to them), plus the placements still to come and a small
  share of the tie-break (cards in the Queue).
- :func:`greedy_state_action` is a one-step rule-of-thumb policy for rollouts (tens of
  microseconds): it scores each legal option with small heuristics using only what the acting
  player may know (face-up cards and their own cards; other face-down cards count at their
  expected worth).

>>> import random
>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=1)
>>> round(evaluate_state(state_of(game), 0), 2)      # the deal: everyone equal
0.33
>>> game.legal_actions().count(greedy_state_action(state_of(game), 0, random.Random(0)))
1
"""

from __future__ import annotations

import math
import random
from typing import Final, NamedTuple

from oriflamme.api import Action, CardType
from oriflamme.search import (
    CHOOSE,
    HAND,
    IS_CHARACTER,
    KIND_GAIN,
    KIND_LEAVE,
    KIND_PLACE,
    KIND_PLAYER,
    KIND_REVEAL,
    KIND_SPEND,
    KIND_TARGET,
    KIND_TWIN,
    N_ZONES,
    OVER,
    PILE,
    PLACEMENT,
    RESOLUTION,
    TOKENS,
    State,
    adjacent_tops,
    apply_unchecked,
    current_player,
    legal_actions,
    randbelow,
    result,
    state_of,
)

__all__ = [
    "action_score",
    "evaluate_state",
    "evaluate_state_all",
    "greedy_state_action",
    "play_heuristic_state",
    "projected_state_scores",
    "state_of",
]

# Final: compiled code reads these as constants, not by a dict lookup in the module's globals.
# The card types used by name below (CardType values).
ARCHER: Final = int(CardType.ARCHER)
SOLDIER: Final = int(CardType.SOLDIER)
SPY: Final = int(CardType.SPY)
HEIR: Final = int(CardType.HEIR)
ASSASSINATION: Final = int(CardType.ASSASSINATION)
ROYAL_DECREE: Final = int(CardType.ROYAL_DECREE)
LORD: Final = int(CardType.LORD)
SHAPESHIFTER: Final = int(CardType.SHAPESHIFTER)
AMBUSH: Final = int(CardType.AMBUSH)
CONSPIRACY: Final = int(CardType.CONSPIRACY)
PRINCE: Final = int(CardType.PRINCE)
QUEEN: Final = int(CardType.QUEEN)
CUTTHROAT: Final = int(CardType.CUTTHROAT)
APOTHECARY: Final = int(CardType.APOTHECARY)
FELON: Final = int(CardType.FELON)
SCHEMER: Final = int(CardType.SCHEMER)
USURPATION: Final = int(CardType.USURPATION)
MACHINATION: Final = int(CardType.MACHINATION)
TRAP: Final = int(CardType.TRAP)
CORRUPTION: Final = int(CardType.CORRUPTION)
_ATTACKERS: Final = frozenset({SOLDIER, CUTTHROAT, ARCHER, APOTHECARY})
_GUARDS: Final = frozenset({AMBUSH, TRAP})
_FRONT: Final = -1
_END: Final = -2

#: Influence a card of each type typically brings per activation once revealed (Characters), or
#: once on its reveal beyond its tokens (Intrigues): the worth of a card whose details are unknown.
_GAIN_BY_TYPE: Final[dict[CardType, float]] = {
    CardType.ARCHER: 1.0,
    CardType.SOLDIER: 1.1,
    CardType.SPY: 0.9,
    CardType.HEIR: 1.6,
    CardType.ASSASSINATION: 1.6,
    CardType.ROYAL_DECREE: 0.4,
    CardType.LORD: 1.5,
    CardType.SHAPESHIFTER: 0.9,
    CardType.AMBUSH: 1.0,  # its reveal; the threat it poses is GUARD_WORTH
    CardType.CONSPIRACY: 0.0,  # its tokens, doubled
    CardType.PRINCE: 1.5,
    CardType.TWIN: 1.0,
    CardType.QUEEN: 2.0,
    CardType.CUTTHROAT: 1.1,
    CardType.APOTHECARY: 1.0,
    CardType.FELON: 0.3,
    CardType.SCHEMER: 1.4,
    CardType.USURPATION: 1.6,
    CardType.MACHINATION: 1.2,
    CardType.TRAP: 1.0,
    CardType.CORRUPTION: 1.4,
}
#: :data:`_GAIN_BY_TYPE` indexed by CardType value (the raw state's card types), for speed.
TYPICAL_GAIN: Final[tuple[float, ...]] = tuple(_GAIN_BY_TYPE[t] for t in CardType)
#: Later activations count less: the card may be eliminated or its neighbours change.
DECAY: Final = 0.8
#: What a face-down Ambush or Trap is worth beyond its reveal: the punishment it may inflict.
GUARD_WORTH: Final = 0.8
#: Projected worth of a placement still to come, by the number of rounds it will act in.
PLACEMENT_WORTH: Final = (0.0, 1.2, 2.0, 2.6, 3.0, 3.3, 3.5)
#: Chance that a revealed attacker eliminates a given opponent neighbour, per activation it has
#: left (shared among its possible victims), and at most.
THREAT_PER_ACTIVATION: Final = 0.3
THREAT_MAX: Final = 0.9
#: Chance that a face-down Assassination in the Queue takes the best card it may target.
ASSASSINATION_RISK: Final = 0.5
#: Weight of the tie-break (cards controlled in the Queue) in a projected score.
TIE_WEIGHT: Final = 0.1
#: Softmax temperature of :func:`evaluate_state`: uncertainty grows with the rounds left (fitted on
#: the outcomes of greedy and random self-play games, by Brier score).
TEMPERATURE_BASE: Final = 0.2
TEMPERATURE_PER_ROUND: Final = 1.6


def _decayed(activations: int) -> float:
    """Sum of DECAY**k over ``activations`` activations."""
    return (1.0 - DECAY ** activations) / (1.0 - DECAY) if activations > 0 else 0.0


def controller(state: State, card: int) -> int:
    """The controlling family of ``card`` (its own, or the one that corrupted it)."""
    c = state.corrupt[card]
    return c if c >= 0 else state.card_family[card]


def _activations_left(state: State, index: int, card: int) -> int:
    """How many more times the top card of stack ``index`` should act (this round included)."""
    later = 6 - state.round
    if state.phase == PLACEMENT:
        return later + 1
    if state.phase != RESOLUTION:
        return 0
    if index > state.cursor or (index == state.cursor and state.resolving != card):
        return later + 1
    return later


# -- evaluation ---------------------------------------------------------------------------------
def evaluate_state(state: State, player: int) -> float:
    """``player``'s expected share of victory in [0, 1] (exact once the game is over); ``s`` is
    a game's state (``state_of(game)``), read only."""
    return evaluate_state_all(state)[player]


def evaluate_state_all(state: State) -> list[float]:
    """:func:`evaluate_state` for every player at once (one projection instead of one per
    player).

    >>> from oriflamme.api import new_game
    >>> state = state_of(new_game(players=3, seed=1))
    >>> evaluate_state_all(state) == [evaluate_state(state, p) for p in range(3)]
    True
    """
    n = state.config.players
    if state.phase == OVER:
        r = result(state)
        assert r is not None
        return [1.0 / len(r.winners) if p in r.winners else 0.0 for p in range(n)]
    scores = projected_state_scores(state)
    remaining = 6 - state.round + (1.0 if state.phase == PLACEMENT else 0.5)
    return softmax(scores, TEMPERATURE_BASE + TEMPERATURE_PER_ROUND * remaining)


def softmax(values: list[float], temperature: float = 1.0) -> list[float]:
    """Win chances from utilities: ``exp(v / temperature)``, normalised."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def projected_state_scores(state: State) -> list[float]:
    """Each player's projected final score (Influence plus expected gains; see the module)."""
    return [sum(w * v for w, v in zip(PART_WEIGHTS, parts, strict=True))
            for parts in score_parts(state)]


#: The parts of a projected score, as :func:`score_parts` lists them.
SCORE_PARTS: Final = ("influence", "face-up cards", "face-down cards", "cards in the Queue",
                      "harm from Spies and Felons", "placements to come")
#: The weight of each part in :func:`projected_state_scores`.
PART_WEIGHTS: Final = (1.0, 1.0, 1.0, TIE_WEIGHT, 1.0, 1.0)


def score_parts(state: State) -> list[list[float]]:
    """Each player's projected score split into the parts named by :data:`SCORE_PARTS`:
    Influence, the worth of the face-up and of the face-down cards it controls on top of the
    Queue (threats deducted), the cards it controls in the Queue (the tie-break), the Influence
    revealed Spies and Felons should take from it (negative), the placements it has left."""
    n = state.config.players
    parts = [[float(v), 0.0, 0.0, 0.0, 0.0, 0.0] for v in state.influence]
    harm = [0.0] * n
    q = state.queue
    tops = [st[-1] for st in q]
    worth = [_card_worth(state, i, c) for i, c in enumerate(tops)]
    for i, c in enumerate(tops):
        if state.face_up[c] and state.card_type[c] in _ATTACKERS:
            _apply_threat(state, i, c, worth)
        elif state.face_up[c]:
            _apply_harm(state, i, c, harm)
        elif state.card_type[c] == ASSASSINATION:
            _apply_assassination(state, i, c, worth)
    for i, c in enumerate(tops):
        parts[controller(state, c) % n][1 if state.face_up[c] else 2] += worth[i]
    for st in q:
        for c in st:
            parts[controller(state, c) % n][3] += 1.0
    future = [0.0] * n
    _add_future_placements(state, future)
    for p in range(n):
        parts[p][4] = harm[p]
        parts[p][5] = future[p]
    return parts


def _card_worth(state: State, index: int, card: int) -> float:
    """What the top card of stack ``index`` should still bring its controller."""
    acts = _activations_left(state, index, card)
    if acts == 0:
        return 0.0
    t = state.card_type[card]
    tokens = state.tokens[card]
    if state.face_up[card]:
        now = max(ability_value(state, controller(state, card), card, t), 0.0)
        return now + 0.5 * (now + TYPICAL_GAIN[t]) * (_decayed(acts) - 1.0)
    if t in _GUARDS:
        return TYPICAL_GAIN[t] + GUARD_WORTH
    if t == CONSPIRACY:
        return 2.0 * (tokens + 0.7 * (acts - 1))
    if IS_CHARACTER[t]:
        return tokens + max(TYPICAL_GAIN[t] * _decayed(acts), 0.8 * (acts - 1) + TYPICAL_GAIN[t])
    return tokens + TYPICAL_GAIN[t] + 0.6 * (acts - 1)


def _apply_threat(state: State, index: int, attacker: int, worth: list[float]) -> None:
    """A revealed attacker endangers the opponent cards it may hit next: lower their worth."""
    acts = _activations_left(state, index, attacker)
    if acts == 0:
        return
    n = state.config.players
    me = controller(state, attacker) % n
    victims = [c for c in _attack_options(state, attacker, state.card_type[attacker], controller(
        state, attacker)) if controller(state, c) % n != me]
    if not victims:
        return
    share = min(THREAT_PER_ACTIVATION * acts, THREAT_MAX) / len(victims)
    tops = [st[-1] for st in state.queue]
    for c in victims:
        i = tops.index(c)
        worth[i] -= share * (worth[i] + TIE_WEIGHT)


def _apply_assassination(state: State, index: int, card: int, worth: list[float]) -> None:
    """A face-down Assassination in the Queue threatens the most valuable opponent card."""
    if _activations_left(state, index, card) == 0:
        return
    n = state.config.players
    me = controller(state, card) % n
    targets = [i for i, st in enumerate(state.queue) if controller(state, st[-1]) % n != me]
    if targets:
        best = max(targets, key=lambda i: worth[i])
        worth[best] -= ASSASSINATION_RISK * max(worth[best] + TIE_WEIGHT, 0.0)


def _apply_harm(state: State, index: int, card: int, scores: list[float]) -> None:
    """A revealed Spy or Felon will take Influence from its neighbours' controllers."""
    t = state.card_type[card]
    if t not in (SPY, FELON):
        return
    acts = _activations_left(state, index, card)
    n = state.config.players
    me = controller(state, card) % n
    players = [controller(state, c) % n for c in adjacent_tops(state, card)]
    if t == SPY:
        others = [p for p in players if p != me]
        if others:
            richest = max(state.influence[p] for p in others)
            victims = {p for p in others if state.influence[p] == richest}
            for p in victims:
                scores[p] -= 0.8 * _decayed(acts) / len(victims)
    else:
        for p in players:
            scores[p] -= 0.8 * _decayed(acts)


def _add_future_placements(state: State, scores: list[float]) -> None:
    """Count the placements each player still has to make, as far as their cards go."""
    cfg = state.config
    per_round = cfg.placements_per_round
    later = 6 - state.round
    for p in range(cfg.players):
        slots: list[float] = []
        if state.phase == PLACEMENT:
            order = (p - state.first_player) % cfg.players
            done = sum(1 for k in range(state.placed) if k % cfg.players == order)
            slots += [PLACEMENT_WORTH[later + 1]] * (per_round - done)
        if state.phase != OVER:
            slots += [PLACEMENT_WORTH[r] for r in range(later, 0, -1) for _ in range(per_round)]
        cards = sum(len(state.zones[f * N_ZONES + z]) for f in cfg.player_families(p)
                    for z in (HAND, PILE))
        scores[p] += sum(slots[:cards])


# -- what an ability would do -------------------------------------------------------------------
def _attack_options(state: State, card: int, t: int, family: int) -> list[int]:
    """Top cards an attacking ability of type ``t`` acting as ``card`` may eliminate."""
    q = state.queue
    if not q:
        return []
    if t == ARCHER:
        first, last = q[0][-1], q[-1][-1]
        return [first] if first == last else [first, last]
    if t == ASSASSINATION:
        return [st[-1] for st in q]
    if t == APOTHECARY:
        n = len(q)
        refs = [i for i, st in enumerate(q)
                if st[-1] != card and controller(state, st[-1]) == family]
        near = sorted({j for i in refs for j in (i - 1, i + 1) if 0 <= j < n})
        return [q[j][-1] for j in near]
    return adjacent_tops(state, card)


def harm_weight(state: State) -> float:
    """What one point lost by one opponent is worth, against one point gained: the other
    opponents gain nothing on you either way."""
    return 1.0 / max(state.config.players - 1, 1)


def _known_type(state: State, card: int, player: int) -> int:
    """The type of ``card`` if ``player`` may know it, else -1."""
    if state.face_up[card] or state.card_family[card] % state.config.players == player:
        return state.card_type[card]
    return -1


def _guard_risk(state: State, card: int, player: int) -> tuple[float, float]:
    """Chances, as ``player`` sees it, that face-down ``card`` is an Ambush, and a Trap."""
    f = state.card_family[card]
    size = state.config.family_size
    hidden = sum(1 for c in range(f * size, f * size + size) if not state.face_up[c])
    if hidden == 0:
        return 0.0, 0.0
    risks = []
    for guard in (AMBUSH, TRAP):
        g = state.family_card(f, guard)
        risks.append(0.0 if g < 0 or state.face_up[g] else 1.0 / hidden)
    return risks[0], risks[1]


def target_value(state: State, player: int, target: int) -> float:
    """What eliminating top card ``target`` is worth to ``player`` (the eliminator)."""
    n = state.config.players
    owner = controller(state, target) % n
    t = _known_type(state, target, player)
    index = state.stack_index(target)
    acts = max(_activations_left(state, index, target), 1)
    tokens = state.tokens[target]
    if t >= 0:
        if t == CONSPIRACY:
            loss = 2.0 * tokens + 1.0
        elif t in _GUARDS:
            loss = GUARD_WORTH + 1.0
        else:
            loss = tokens + TYPICAL_GAIN[t] * _decayed(acts)
    else:
        loss = tokens + 1.2 * _decayed(min(acts, 3))
    if owner == player:
        return 1.0 - loss - TIE_WEIGHT
    lead = state.influence[owner] - state.influence[player]
    harm = harm_weight(state)
    value = 1.0 + harm * (loss + TIE_WEIGHT) + 0.1 * lead
    if t == QUEEN:
        value += 1.0
    if t < 0:  # an Ambush or a Trap would discard the attacker and pay its owner
        ambush, trap = _guard_risk(state, target, player)
        value -= ambush * (1.0 + 4.0 * harm) + trap * (3.0 + 3.0 * harm)
    return value


def ability_value(state: State, family: int, card: int, t: int) -> float:
    """Roughly what the ability of type ``t`` acting as ``card`` for ``family`` would bring its
    player now (gains, plus half the harm done to opponents), as that player sees the game."""
    n = state.config.players
    me = family % n
    if t in (SOLDIER, CUTTHROAT, ARCHER, APOTHECARY, ASSASSINATION, USURPATION):
        options = _attack_options(state, card, t, family)
        return max((target_value(state, me, c) for c in options), default=0.0)
    if t == SPY:
        others = [state.influence[controller(state, c) % n] for c in adjacent_tops(state, card)
                  if controller(state, c) % n != me]
        return 1.0 + harm_weight(state) if others and max(others) > 0 else 0.0
    if t == HEIR:
        for st in state.queue:
            c = st[-1]
            if c != card and state.face_up[c] and state.card_type[c] == state.card_type[card]:
                return 0.0
        return 2.0
    if t == LORD:
        return 1.0 + sum(1 for c in adjacent_tops(state, card) if controller(state, c) == family)
    if t == FELON:
        return sum((-1.0 if controller(state, c) % n == me else harm_weight(state)
                    for c in adjacent_tops(state, card)), 0.0)
    if t == SCHEMER:
        i = state.stack_index(card)
        q = state.queue
        tall = (i > 0 and len(q[i - 1]) > 1) or (i + 1 < len(q) and len(q[i + 1]) > 1)
        return -1.0 if tall else 2.0
    if t == SHAPESHIFTER:
        models = [state.card_type[c] for c in adjacent_tops(state, card)
                  if state.face_up[c] and IS_CHARACTER[state.card_type[c]]]
        return max((ability_value(state, family, card, m) for m in models if m != SHAPESHIFTER),
                   default=0.0)
    if t == CONSPIRACY:
        return 2.0 * state.tokens[card]
    if t == CORRUPTION:
        return max((TYPICAL_GAIN[state.card_type[c]] * 1.5 for c in _corruptible(state, family)
                    if controller(state, c) % n != me), default=0.0)
    if t == MACHINATION:
        best = max((ability_value(state, family, c, state.card_type[c])
                    for c in _activable(state, family)), default=0.0)
        return best + state.tokens[card] * max(best, 1.0)
    if t == QUEEN:
        return 2.0
    if t == PRINCE:
        return 1.0
    return TYPICAL_GAIN[t]


def _corruptible(state: State, family: int) -> list[int]:
    """Revealed top Characters the Corruption of ``family`` may take."""
    out = []
    for st in state.queue:
        c = st[-1]
        if state.face_up[c] and IS_CHARACTER[state.card_type[c]]:
            if len(st) > 1 and controller(state, c) != family:
                continue
            out.append(c)
    return out


def _activable(state: State, family: int) -> list[int]:
    """Revealed top Characters ``family`` controls (what a Machination may activate)."""
    return [st[-1] for st in state.queue
            if state.face_up[st[-1]] and IS_CHARACTER[state.card_type[st[-1]]]
            and controller(state, st[-1]) == family]


# -- the one-step policy ------------------------------------------------------------------------
def greedy_state_action(state: State, player: int, rng: random.Random) -> Action:
    """A good-enough action for ``player`` (who must be deciding now), by simple heuristics;
    ties are broken with ``rng``."""
    options = legal_actions(state)
    if len(options) <= 1:
        if not options:
            raise ValueError("no legal action: the game is over or the player has no card")
        return options[0]
    if options[0][0] == KIND_PLACE:
        spots = {to: spot(state, player, to) for to in {a[2] for a in options}}
        types = state.card_type
        scores = [placement_fit(state, types[a[1]], spots[a[2]]) for a in options]
    else:
        scores = [action_score(state, player, a) for a in options]
    best = max(scores)
    ties = [a for a, v in zip(options, scores, strict=True) if v >= best - 1e-9]
    return ties[0] if len(ties) == 1 else ties[randbelow(rng, len(ties))]


def modelled_opponent_action(state: State, player: int, legal: list[Action], noise: float,
                             rng: random.Random) -> Action:
    """What a search expects opponent ``player`` to play among ``legal``: the heuristic's
    choice, or with chance ``noise`` a random legal action (an opponent that may surprise:
    lines that only beat the heuristic's exact reply lose their shine)."""
    if noise and rng.random() < noise:
        return legal[randbelow(rng, len(legal))]
    return greedy_state_action(state, player, rng)


def play_heuristic_state(state: State, last_round: int, rng: random.Random) -> None:
    """Play :func:`greedy_state_action` for every player until the game ends or the first
    decision after round ``last_round``, on the raw state of a world the search owns (its
    rollout): no Game bookkeeping, so a Game's history does not list these moves (see
    :mod:`oriflamme.search`)."""
    while True:
        player = current_player(state)
        if player is None or state.round > last_round:
            return
        apply_unchecked(state, greedy_state_action(state, player, rng))


def action_score(state: State, player: int, action: Action) -> float:
    """The heuristic worth of one legal ``action`` to ``player`` (higher is better)."""
    kind = action[0]
    if kind == KIND_PLACE:
        return placement_value(state, player, action[1], action[2])
    if kind in (KIND_REVEAL, KIND_LEAVE):
        gain = reveal_gain(state, action[1])
        return gain if kind == KIND_REVEAL else 0.0
    frame, x, f, arg = state.pending[-1]
    if kind == KIND_PLAYER:
        victim = action[2]
        if victim == player:
            return -1.0
        return min(state.influence[victim], 1) + 0.01 * state.influence[victim]
    if kind == KIND_TARGET:
        c = action[1]
        if frame == CHOOSE and arg == SHAPESHIFTER:
            return ability_value(state, f, x, state.card_type[c])
        if frame == CHOOSE and arg == ROYAL_DECREE:
            return 0.0  # which card to move: no opinion
        if frame == CHOOSE and arg == CORRUPTION:
            return (0.0 if controller(state, c) % state.config.players == player
                    else TYPICAL_GAIN[state.card_type[c]])
        if frame == CHOOSE:
            return target_value(state, player, c) + _cutthroat_bonus(state, f, c, arg)
        # Machination: the character to activate
        return ability_value(state, f, c, state.card_type[c])
    if kind == KIND_TWIN:
        return _twin_place_value(state, player, action[2])
    if kind == KIND_GAIN:
        return 1.0
    if kind == KIND_SPEND:
        return max((ability_value(state, f, c, state.card_type[c]) for c in _activable(state, f)),
                   default=0.0) if frame == TOKENS else 0.0
    return 0.0  # Royal Decree moves: no opinion


def _cutthroat_bonus(state: State, family: int, target: int, ability: int) -> float:
    """A Cutthroat also takes every revealed opponent card of the target's name."""
    if ability != CUTTHROAT or not state.face_up[target]:
        return 0.0
    name = state.card_type[target]
    same = sum(1 for st in state.queue if st[-1] != target and state.face_up[st[-1]]
               and state.card_type[st[-1]] == name and controller(state, st[-1]) != family)
    return 2.0 * same


def reveal_gain(state: State, card: int) -> float:
    """How much better revealing the face-down ``card`` now is than leaving it (its controller
    knows it): positive means reveal."""
    t = state.card_type[card]
    family = controller(state, card)
    tokens = state.tokens[card]
    if t in _GUARDS:
        return 1.0 if state.round == 6 else -1.0
    if state.round == 6:
        return 1.0 + tokens if t != CONSPIRACY else 2.0 * tokens - 0.5
    if t == CONSPIRACY:
        return 2.0 * tokens - 5.0 + 3.0 * _danger(state, card)
    if t == ROYAL_DECREE:
        return tokens + state.round - 5.0
    return ability_value(state, family, card, t) + 0.3 * tokens + _danger(state, card) - 0.9


def _danger(state: State, card: int) -> float:
    """1 if a revealed enemy attacker will act on ``card`` later this round or next, else 0."""
    family = controller(state, card)
    for st in state.queue:
        a = st[-1]
        t = state.card_type[a]
        if state.face_up[a] and t in _ATTACKERS and controller(state, a) != family and (
                card in _attack_options(state, a, t, controller(state, a))):
            return 1.0
    return 0.0


class Spot(NamedTuple):
    """What a placement spot offers, whatever card goes there."""

    neighbours: int  # top cards next to it
    opponents: list[int]  # those another player controls
    guarded: int  # revealed enemy attackers among them
    tall: int  # neighbours on stacks of two or more cards (a Schemer's bane)
    exposure: float  # danger from revealed enemy attackers
    cover: float  # worth of covering one's own top card there (0 at either end)


def spot(state: State, player: int, to: int) -> Spot:
    """Describe the spot ``to`` of a placement by ``player``."""
    q = state.queue
    if to < 0:
        near = ([0] if to == _FRONT else [len(q) - 1]) if q else []
        at_end = True
    else:
        i = state.stack_index(to)
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(q)]
        at_end = i == 0 or i == len(q) - 1
    neighbours = [q[j][-1] for j in near]
    opponents = _opponents(state, player, neighbours)
    return Spot(
        neighbours=len(neighbours),
        opponents=opponents,
        guarded=sum(1 for c in opponents if state.face_up[c] and state.card_type[c] in _ATTACKERS),
        tall=sum(1 for j in near if len(q[j]) > 1),
        exposure=_exposure(state, player, opponents, at_end),
        cover=_cover_value(state, to) if to >= 0 else 0.0,
    )


def placement_value(state: State, player: int, card: int, to: int) -> float:
    """The worth of placing ``card`` (of ``player``) at ``to``."""
    return placement_fit(state, state.card_type[card], spot(state, player, to))


def placement_fit(state: State, t: int, where: Spot) -> float:
    """The worth of placing a card of type ``t`` at a spot: how pressing it is to play it, what
    its ability should do from there, the danger it faces, and what it covers."""
    value = _play_priority(state, t) + where.cover
    opponents = where.opponents
    if t in (SOLDIER, CUTTHROAT, USURPATION, SPY, FELON):
        value += 0.8 * len(opponents) - (0.8 if len(opponents) < where.neighbours else 0.0)
        value += 0.1 * sum(state.tokens[c] + (1.0 if state.face_up[c] else 0.0) for c in opponents)
    elif t == LORD:
        value += 0.7 * (where.neighbours - len(opponents))
    elif t == SCHEMER:
        value -= 1.5 * where.tall
    if t in _GUARDS:
        return value + 0.7 * where.guarded
    return value - where.exposure * (0.6 + 0.2 * TYPICAL_GAIN[t])


def _play_priority(state: State, t: int) -> float:
    """How pressing it is to play a card of type ``t`` now rather than later."""
    left = 6 - state.round
    if t == CONSPIRACY or t in _GUARDS:
        return 1.0 + 0.25 * left
    if IS_CHARACTER[t]:
        return TYPICAL_GAIN[t] * (1.0 + 0.3 * left)
    return TYPICAL_GAIN[t] + 0.3 * (3 - abs(left - 2))


def _exposure(state: State, player: int, opponents: list[int], at_end: bool) -> float:
    """Revealed enemy attackers that could hit a card placed beside ``opponents``."""
    danger = sum((1.0 for c in opponents
                  if state.face_up[c] and state.card_type[c] in (SOLDIER, CUTTHROAT)), 0.0)
    if at_end:
        n = state.config.players
        danger += sum((0.5 for st in state.queue if state.face_up[st[-1]]
                       and state.card_type[st[-1]] == ARCHER
                       and controller(state, st[-1]) % n != player), 0.0)
    return danger


def _cover_value(state: State, top: int) -> float:
    """Covering one's own top card: protects it (if in danger) but stops it acting."""
    if state.face_up[top]:
        lost = max(ability_value(state, controller(state, top), top, state.card_type[top]), 0.0)
        return 0.6 * _danger(state, top) - lost - 0.3
    return 0.8 * _danger(state, top) - 0.3 * state.tokens[top] - 0.8


def _twin_place_value(state: State, player: int, to: int) -> float:
    """The Twin acts this round only if placed later than the cursor; avoid enemy attackers."""
    q = state.queue
    if to == _FRONT:
        return -_exposure(state, player, _opponents(state, player, [q[0][-1]] if q else []), True)
    if to == _END:
        last = [q[-1][-1]] if q else []
        return 1.0 - _exposure(state, player, _opponents(state, player, last), True)
    # covers one of its own cards
    return (1.0 if state.stack_index(to) > state.cursor else 0.0) - 0.5


def _opponents(state: State, player: int, cards: list[int]) -> list[int]:
    """The cards among ``cards`` that another player controls."""
    n = state.config.players
    return [c for c in cards if controller(state, c) % n != player]

"""Oriflamme as a pure-Python OpenSpiel game, registered as ``python_oriflamme`` on import.

>>> import pyspiel
>>> import oriflamme.envs.openspiel
>>> game = pyspiel.load_game("python_oriflamme(players=4,cards=base)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 551, 10)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 10)

Parameters: ``players`` (2-5, default 3), ``cards`` (``base``, ``embrasement`` or 10 card
names joined by ``+``), ``variant`` (``auto``, ``standard`` or ``two-families``), ``edition``
(``revised`` or ``first``) and ``first_player`` (default 0).

* **Chance**: the deal is explicit. For each family in turn, ``S - 1`` chance nodes give the
  types of its card ids ``f*S``, ``f*S + 1``, ... (outcome = index in the set-up's card list,
  uniform over the types not dealt yet; the last card is forced), exactly the engine's deal:
  ids ``+0..2`` set aside, the rest in hand (two-families: 3 in hand, 4 in the pile, drawn in
  id order); the Twin, if any, is ``+10``.
* **Actions**: :class:`~oriflamme.encoding.ActionCodec`; ``action_to_string`` is the
  engine's label of the action as its player may read it.
* **Returns**: the win share, 1/k to each of the k winners (R-END-1), 0 to the others:
  constant-sum (1), rewarded at the end only.
* **Observations** (:class:`Observer`): :class:`~oriflamme.encoding.ObservationEncoder` of
  the player's observation, and :func:`observation_text`; the information state (perfect
  recall) adds the public action sequence with the player's own dealt cards (string) or when
  and how each card was placed (tensor); the public view (``private_info=NONE``) is the
  spectators' observation, encoded from the player's seat. All come only from what the player
  may know (R-INFO-1); the tensors are made by the encoder's fast path (tested equal to
  encoding ``Game.observe``).
* **The dealt game** is built with :meth:`~oriflamme.api.Game.from_deal` once the last chance
  node is applied.
* ``resample_from_infostate`` draws a world with :class:`~oriflamme.api.WorldSampler` from the
  player's observation, so OpenSpiel's ISMCTS bot runs on this game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import pyspiel

from oriflamme.api import (
    FAMILY_COLOURS,
    Action,
    ActionKind,
    CardType,
    Game,
    GameConfig,
    WorldSampler,
    card_name,
)
from oriflamme.bots.base import NO_OBSERVATION, Bot, needs_observation
from oriflamme.encoding import ROUNDS, ActionCodec, Layout, ObservationEncoder, Vector
from oriflamme.search import state_of

DEFAULTS: dict[str, Any] = {
    "players": 3,
    "cards": "base",
    "variant": "auto",
    "edition": "revised",
    "first_player": 0,
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_oriflamme",
    long_name="Python Oriflamme",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TWIN = int(CardType.TWIN)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

#: Decisions per card in the Queue and per round allowed for in ``max_game_length`` (a loose
#: bound: a reveal, an ability's choices and a Machination's repeats; random games take 50-100
#: decisions in all).
DECISIONS_PER_CARD = 6


def config_from_params(params: Mapping[str, Any]) -> GameConfig:
    """The :class:`GameConfig` of OpenSpiel parameters (missing ones take :data:`DEFAULTS`)."""
    p = {**DEFAULTS, **params}
    cards = str(p["cards"]).replace("+", ",")
    variant = None if p["variant"] == "auto" else str(p["variant"])
    return GameConfig(players=int(p["players"]), cards=cards, variant=variant,
                      edition=str(p["edition"]), first_player=int(p["first_player"]))


class Setup:
    """What every state of one game shares: configuration, layout and encoders (immutable;
    copying returns it, pickling rebuilds it from the configuration)."""

    __slots__ = ("codec", "config", "encoder", "known", "layout", "per_family")

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.layout = Layout.of(config)
        self.codec = ActionCodec(self.layout)
        self.encoder = ObservationEncoder(self.layout)
        #: Chance nodes per family (the last card is forced).
        self.per_family = len(config.card_types) - 1
        #: Dealt cards a family's player sees: all but the pile (ids 6-9, two-families).
        self.known = 6 if config.two_families else self.per_family

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_setup_from_dict, (self.config.to_dict(),))

    def deal_chances(self) -> int:
        return self.config.families * self.per_family

    def max_game_length(self) -> int:
        cfg = self.config
        return ROUNDS * (cfg.placements + DECISIONS_PER_CARD * self.layout.cards)


def _setup_from_dict(data: Mapping[str, Any]) -> Setup:
    return Setup(GameConfig.from_dict(data))


class Track:
    """What changes during one game: the deal (chance outcomes), then the game and its public
    actions.

    ``dealt`` lists, family after family, the type (index in the set-up's card types) of card
    ids ``f*S``, ``f*S + 1``, ...: the chance outcomes, and each player's private start.
    ``moves`` lists the public actions with their round, ``placed`` the placements among them
    as ``(card, round, where)`` (``where``: 0 end, 1 front, 2 on a stack).
    ``decision`` and ``legal`` (index -> action, once asked for) cache the current decision.
    Copies are cheap (``Game.copy``); pickling goes through the save format.
    """

    __slots__ = ("dealt", "decision", "game", "legal", "moves", "placed")

    def __init__(self, dealt: list[int] | None = None, game: Game | None = None,
                 moves: list[tuple[int, Action]] | None = None) -> None:
        self.dealt = dealt if dealt is not None else []
        self.game = game
        self.moves = moves if moves is not None else []
        self.placed = _placements(self.moves)
        self.decision = None if game is None else game.decision()
        self.legal: dict[int, Action] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Track:
        copy = Track.__new__(Track)
        copy.dealt = self.dealt[:]
        copy.game = None if self.game is None else self.game.copy(log=False)
        copy.moves = self.moves[:]
        copy.placed = self.placed[:]
        copy.decision = self.decision
        copy.legal = self.legal
        return copy

    def __getstate__(self) -> dict[str, Any]:
        return {
            "dealt": self.dealt,
            "save": None if self.game is None else self.game.save(),
            "moves": [(r, a.to_json()) for r, a in self.moves],
        }

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        save = data["save"]
        self.dealt = list(data["dealt"])
        self.game = None if save is None else Game.from_save(save)
        self.moves = [(r, Action.from_json(a)) for r, a in data["moves"]]
        self.placed = _placements(self.moves)
        self.decision = None if self.game is None else self.game.decision()
        self.legal = None


def _placements(moves: list[tuple[int, Action]]) -> list[tuple[int, int, int]]:
    """:attr:`Track.placed` of the public moves ``moves`` (kept alongside them for speed)."""
    return [_placement(r, a) for r, a in moves if a.kind is ActionKind.PLACE]


def _placement(round_no: int, move: Action) -> tuple[int, int, int]:
    """A placement as :attr:`Track.placed` lists it."""
    return move.card, round_no, min(move.to + 2, 2)  # END 0, FRONT 1, on a stack 2


class OriflammeGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; build it with ``pyspiel.load_game("python_oriflamme(...)")``."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.setup = Setup(config_from_params(params or {}))
        setup = self.setup
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.codec.size,
            max_chance_outcomes=len(setup.config.card_types),
            num_players=setup.config.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=setup.max_game_length(),
        )
        super().__init__(GAME_TYPE, info, {**DEFAULTS, **(params or {})})

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pyspiel's own pickling rebuilds the C++ game without running __init__ (no setup)
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> OriflammeState:
        return OriflammeState(self)

    def state_at(self, position: Game) -> OriflammeState:
        """A state at a copy of ``position`` (a game of this set-up, edition included), e.g. to
        search from it; it has no ``history()`` and its information states start there."""
        config = position.config
        if (Layout.of(config) is not self.setup.layout
                or config.edition != self.setup.config.edition):
            raise ValueError("the position is not a game of this set-up")
        game = position.copy(log=False)
        state = OriflammeState(self)
        state.track = Track(types_by_id(self.setup, game), game)
        return state

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not obs_type.public_info or obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("supported: a player's own view or the public view")
        public = obs_type.private_info == pyspiel.PrivateInfoType.NONE
        return Observer(self.setup, obs_type.perfect_recall, public)


class OriflammeState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal in progress (chance nodes), then a :class:`~oriflamme.api.Game`."""

    def __init__(self, game: OriflammeGame) -> None:
        super().__init__(game)
        #: Shared by every state of the game (read-only).
        self.setup = game.setup
        #: This state's deal, game and public actions (read-only: change it by applying
        #: actions).
        self.track = Track()

    # -- the underlying game ---------------------------------------------------------------
    def oriflamme_game(self) -> Game | None:
        """The full game (hidden cards included), None during the deal. Show a player only
        its ``observe(player)``."""
        return self.track.game

    # -- OpenSpiel API -----------------------------------------------------------------------
    def current_player(self) -> int:
        track = self.track
        if track.game is None:
            return _CHANCE
        return _TERMINAL if track.decision is None else track.decision.player

    def _legal_actions(self, player: int) -> list[int]:
        track = self.track
        if track.legal is None:
            assert track.game is not None
            actions = track.game.legal_actions()
            track.legal = dict(zip(self.setup.codec.encode_all(actions, player), actions,
                                   strict=True))
        return sorted(track.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        setup, dealt = self.setup, self.track.dealt
        k = len(dealt) % setup.per_family
        taken = dealt[len(dealt) - k:]  # the family's cards dealt so far
        left = [i for i in range(setup.per_family + 1) if i not in taken]
        chance = 1.0 / len(left)
        return [(i, chance) for i in left]

    def _apply_action(self, action: int) -> None:
        track, setup = self.track, self.setup
        game = track.game
        if game is None:
            track.dealt.append(action)
            if len(track.dealt) == setup.deal_chances():
                self.track = Track(track.dealt, dealt_game(setup.config, track.dealt))
            return
        round_now = game.round
        move = None if track.legal is None else track.legal.get(action)
        if move is not None:
            game.apply(move, check=False)
        else:
            decision = track.decision
            assert decision is not None
            move = setup.codec.decode(action, decision.player, decision.card)
            game.apply(move)
        track.moves.append((round_now, move))
        if move.kind is ActionKind.PLACE:
            track.placed.append(_placement(round_now, move))
        track.decision = game.decision()
        track.legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        setup, game = self.setup, self.track.game
        if player == pyspiel.PlayerId.CHANCE:
            family, slot = divmod(len(self.track.dealt), setup.per_family)
            card = family * setup.config.family_size + slot
            kind = setup.config.card_types[action]
            return f"Deal {FAMILY_COLOURS[family]} card #{card}: {card_name(kind)}"
        decision = self.track.decision
        if game is None or decision is None or decision.player != player:
            return setup.codec.describe(action)
        move = setup.codec.decode(action, player, decision.card)
        if move not in game.legal_actions():
            return setup.codec.describe(action)
        return f"{game.label(move, viewer=player)} ({move})"

    def is_terminal(self) -> bool:
        game = self.track.game
        return game is not None and game.is_over

    def returns(self) -> list[float]:
        game = self.track.game
        result = None if game is None else game.result()
        n = self.setup.config.players
        if result is None:
            return [0.0] * n
        share = 1.0 / len(result.winners)
        return [share if p in result.winners else 0.0 for p in range(n)]

    def __str__(self) -> str:
        track = self.track
        if track.game is None:
            return f"dealing: {track.dealt}"
        return json.dumps(track.game.position(), sort_keys=True)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> OriflammeState:
        """A state drawn among those ``player_id`` cannot tell from this one (the world
        sampler on their observation; during the deal, other families' cards redealt).

        The new state has no ``history()``: the ids of hidden cards are placed at random, so
        no chance sequence leads to it.
        """
        rng = random.Random(int(probability_sampler() * 2**52))
        track, setup = self.track, self.setup
        state = OriflammeState(self.get_game())
        if track.game is None:
            state.track = Track(_redeal(setup, track.dealt, player_id, rng))
            return state
        world = WorldSampler(track.game.observe(player_id)).sample(rng)
        own = setup.config.player_families(player_id)
        per, known = setup.per_family, setup.known
        dealt = [t if i // per in own and i % per < known else w for i, (t, w) in
                 enumerate(zip(track.dealt, types_by_id(setup, world), strict=True))]
        state.track = Track(dealt, world, track.moves[:])
        return state


def _redeal(setup: Setup, dealt: Sequence[int], player: int, rng: random.Random) -> list[int]:
    """The deal so far with what ``player`` cannot know drawn again: every card of the other
    families and the player's own pile."""
    per, types = setup.per_family, len(setup.config.card_types)
    own = setup.config.player_families(player)
    out: list[int] = []
    for family, start in enumerate(range(0, len(dealt), per)):
        chunk = dealt[start:start + per]
        kept = list(chunk[:setup.known] if family in own else ())
        rest = [t for t in range(types) if t not in kept]
        out.extend(kept + rng.sample(rest, len(chunk) - len(kept)))
    return out


def dealt_game(config: GameConfig, dealt: Sequence[int]) -> Game:
    """The game the chance outcomes ``dealt`` (type indices, ``S - 1`` per family) deal.

    Card ``f*S + k`` gets the k-th type dealt to family f; ids 0-2 of a family are set aside,
    the rest in hand (two-families: 3 in hand, 4 in the pile in id order), like the engine
    (:meth:`~oriflamme.api.Game.from_deal`).
    """
    types = [int(t) for t in config.card_types]
    per = len(types) - 1
    by_id: list[int] = []
    for f in range(config.families):
        order = dealt[f * per:(f + 1) * per]
        by_id.extend(types[i] for i in order)
        by_id.extend(t for i, t in enumerate(types) if i not in order)  # the forced last card
        if config.has_twin:
            by_id.append(_TWIN)
    return Game.from_deal(config, by_id, first_player=config.first_player or 0, log=False)


def types_by_id(setup: Setup, game: Game) -> list[int]:
    """What :attr:`Track.dealt` would be for ``game``: the type (index in the layout's card
    types) of the first ``S - 1`` card ids of each family."""
    types = state_of(game).card_type
    index = {int(t): i for i, t in enumerate(setup.layout.card_types)}
    size = setup.config.family_size
    return [index[types[f * size + k]]
            for f in range(setup.config.families) for k in range(setup.per_family)]


# The observers: the tensors and strings of what one player knows (R-INFO-1) and the
# public actions only. Tensors come from the encoder's fast path (``encode_state``);
# strings are built from ``Game.observe`` itself (slower, but not in a training loop's
# path).

#: Per card in the information state tensor: round placed (one-hot) and how (end, front, on).
PLACEMENT_FEATURES = ROUNDS + 3


def observation_text(observation: Mapping[str, Any]) -> str:
    """A compact, complete text of an observation (one line per part)."""
    o = observation

    def card(e: Mapping[str, Any]) -> str:
        text = f"{e['id']}:{e['type'] or '?'}"
        if "face_up" in e:
            text += "*" if e["face_up"] else ""
            text += f"+{e['tokens']}" if e["tokens"] else ""
            if e["corrupted_by"] is not None:
                text += f"@{FAMILY_COLOURS[e['corrupted_by']]}"
        return text

    lines = [
        f"round {o['round']} {o['phase']} first {o['first_player']} placed {o['placed']}"
        f" influence {' '.join(map(str, o['influence']))}",
        " ".join(["queue", *("[" + " ".join(card(e) for e in st) + "]" for st in o["queue"])]),
        f"cursor {o['cursor']} resolving {o['resolving']}",
    ]
    for fam in o["families"]:
        line = (f"{fam['colour']} hand {fam['hand_size']} set_aside {fam['set_aside_size']}"
                f" pile {fam['pile_size']} corruption {fam['corruption_on']}")
        for zone in ("reserve", "discarded", "eliminated", "hand", "set_aside"):
            if fam.get(zone):
                line += f" {zone} " + " ".join(card(e) for e in fam[zone])
        lines.append(line)
    if o["pending"]:
        lines.append("pending " + " ".join(
            f"{p['frame']}:{p['card']}:{p['family']}:{p['arg']}" for p in o["pending"]))
    d = o["decision"]
    if d is not None:
        lines.append(f"decision {d['player']} {d['kind']} {d['card']} {d['ability']}")
    if o["legal"]:
        lines.append("legal " + ", ".join(str(Action.from_json(a)) for a in o["legal"]))
    if o["result"] is not None:
        lines.append(f"winners {o['result']['winners']}")
    return "\n".join(lines)


class Observer:
    """OpenSpiel observer (the ``PyObserver`` protocol): ``tensor``, ``dict``, ``set_from``,
    ``string_from``. With ``perfect_recall`` it adds the public history; with ``public`` it
    shows the spectators' view (no private cards) from the player's seat."""

    def __init__(self, setup: Setup, perfect_recall: bool, public: bool) -> None:
        self._setup = setup
        self._perfect_recall = perfect_recall
        self._public = public
        size = setup.encoder.size
        cards = setup.layout.cards
        extra = cards * PLACEMENT_FEATURES if perfect_recall else 0
        self.tensor: Vector = np.zeros(size + extra, dtype=np.float32)
        self.dict: dict[str, Vector] = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["placements"] = self.tensor[size:].reshape(cards, PLACEMENT_FEATURES)
        self._observation = self.dict["observation"]
        self._memory = cast("memoryview[float]", self.tensor.data)

    def _view(self, game: Game, player: int) -> dict[str, Any]:
        return game.observe(None if self._public else player)

    def set_from(self, state: OriflammeState, player: int) -> None:
        track = state.track
        if track.game is None:
            self.tensor.fill(0.0)
            return
        setup = self._setup
        setup.encoder.encode_state(state_of(track.game), player, self._observation,
                                   self._public)
        if self._perfect_recall:
            self.dict["placements"].fill(0.0)
            m = self._memory
            base = setup.encoder.size
            rel = setup.layout.relative_cards(player)
            for card, round_no, where in track.placed:
                row = base + rel[card] * PLACEMENT_FEATURES
                m[row + round_no - 1] = 1.0
                m[row + ROUNDS + where] = 1.0  # end, front, on a stack

    def string_from(self, state: OriflammeState, player: int) -> str:
        track = state.track
        private = "" if self._public else f"dealt {self._own_deal(track.dealt, player)}"
        if track.game is None:
            return f"dealing {len(track.dealt)} {private}"
        text = observation_text(self._view(track.game, player))
        if not self._perfect_recall:
            return text
        moves = " ".join(str(move) for _, move in track.moves)
        return f"{private}\nmoves {moves}\n{text}"

    def _own_deal(self, dealt: Sequence[int], player: int) -> str:
        """The player's dealt cards so far that they may see (not their pile)."""
        setup = self._setup
        per, types = setup.per_family, setup.layout.card_types
        out: list[str] = []
        for f in setup.config.player_families(player):
            chunk = dealt[f * per:f * per + setup.known]
            out.extend(f"{f * setup.config.family_size + k}:{types[i].slug}"
                       for k, i in enumerate(chunk))
        return " ".join(out)


class BotPlayer(pyspiel.Bot):  # type: ignore[misc]
    """One of this package's bots (``make_bot("greedy", seed)``) playing seat ``player`` of an
    OpenSpiel game: it sees the player's observation and legal actions only."""

    def __init__(self, bot: Bot, player: int) -> None:
        super().__init__()
        self._bot = bot
        self._player = player

    def step(self, state: OriflammeState) -> int:
        game = state.oriflamme_game()
        if game is None or game.current_player != self._player:
            raise ValueError(f"it is not player {self._player}'s decision")
        legal = game.legal_actions()
        observation = game.observe(self._player) if needs_observation(self._bot) else NO_OBSERVATION
        action = self._bot.act(observation, tuple(legal))
        if action not in legal:
            raise ValueError(f"bot {self._bot.name!r} chose the illegal action {action}")
        return state.setup.codec.encode(action, self._player)

    def restart_at(self, state: OriflammeState) -> None:
        """Nothing to forget: the wrapped bots decide from the observation alone."""


pyspiel.register_game(GAME_TYPE, OriflammeGame)

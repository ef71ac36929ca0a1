"""The public API of the rules: everything the CLI, servers, bots and RL adapters use.

>>> game = new_game(players=3, cards="base", seed=7)
>>> d = game.decision()
>>> d.player, d.kind.slug
(0, 'place')
>>> action = game.legal_actions()[0]
>>> game.apply(action)
>>> game.history == [action]
True
>>> clone = game.copy()
>>> clone.apply(clone.legal_actions()[0])
>>> len(game.history), len(clone.history)
(1, 2)
>>> same = Game.from_replay(game.replay())
>>> same.position() == game.position()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .rules import labels
from .rules.abilities import DecisionKind
from .rules.actions import END, FRONT, Action, ActionError, ActionKind
from .rules.cards import BASE_SET, CHOOSABLE, EMBRASEMENT_SET, CardType
from .rules.config import ConfigDict, ConfigError, GameConfig
from .rules.determinize import WorldSampler as _WorldSampler
from .rules.draws import Draws
from .rules.engine import (
    Decision,
    IllegalAction,
    Result,
    apply,
    apply_unchecked,
    current_player,
    decision,
    legal_actions,
    new_state,
    pick_legal,
    result,
    state_from_deal,
)
from .rules.observation import (
    Observation,
    ObservedCard,
    ObservedDecision,
    ObservedEvent,
    ObservedFamily,
    ObservedFrame,
    ObservedResult,
    QueueCard,
)
from .rules.observe import events_for, observe
from .rules.playout import pick_playout, random_action, random_playout
from .rules.records import (
    REPLAY_FORMAT,
    SAVE_FORMAT,
    RecordError,
    position_of,
    replay_dict,
    save_dict,
    state_from_position,
    state_from_save,
)
from .rules.state import OVER, State
from .rules.tally import CardTally, card_tally
from .rules.texts import (
    CARD_TEXTS,
    FAMILY_COLOURS,
    LANGS,
    card_help,
    card_name,
    family_colour_name,
    kind_name,
)

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "BASE_SET",
    "CARD_TEXTS",
    "CHOOSABLE",
    "EMBRASEMENT_SET",
    "END",
    "FAMILY_COLOURS",
    "FRONT",
    "LANGS",
    "Action",
    "ActionError",
    "ActionKind",
    "CardTally",
    "CardType",
    "ConfigDict",
    "ConfigError",
    "Decision",
    "DecisionKind",
    "Draws",
    "Game",
    "GameConfig",
    "IllegalAction",
    "Observation",
    "ObservedCard",
    "ObservedDecision",
    "ObservedEvent",
    "ObservedFamily",
    "ObservedFrame",
    "ObservedResult",
    "QueueCard",
    "RecordError",
    "Result",
    "WorldSampler",
    "card_help",
    "card_name",
    "family_colour_name",
    "kind_name",
    "load",
    "new_game",
    "sample_world",
]


_CARD_TYPES = len(CardType)  # their values are 0 .. _CARD_TYPES - 1


def _as_action(action: Action | str | Mapping[str, Any]) -> Action:
    if isinstance(action, Action):
        return action
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, Mapping):
        return Action.from_json(action)
    raise ActionError(f"an action is an Action, its notation or its JSON form, not {action!r}")


class Game:
    """A game in progress: its state, its seed and the actions applied since the deal.

    Create one with :func:`new_game`, :meth:`from_deal`, :meth:`from_position`,
    :meth:`from_save` or :meth:`from_replay`.
    """

    __slots__ = ("_history", "_seed", "_state")

    def __init__(self, state: State, seed: int | None = None, history: Iterable[Action] = ()):
        self._state = state
        self._seed = seed
        self._history = list(history)

    # -- creation ------------------------------------------------------------------------
    @classmethod
    def new(cls, config: GameConfig, seed: int = 0, log: bool = True) -> Game:
        return cls(new_state(config, seed, log_events=log), seed)

    @classmethod
    def from_position(cls, data: Mapping[str, Any]) -> Game:
        """Set up any position (see docs/formats.md); raises :class:`RecordError`."""
        return cls(state_from_position(data))

    @classmethod
    def from_deal(
        cls, config: GameConfig, card_types: Iterable[CardType | int | str],
        first_player: int | None = None, log: bool = True,
    ) -> Game:
        """Start the game of a given deal, without parsing a position (fast, for search and
        the OpenSpiel adapter's chance nodes).

        ``card_types`` gives the type of every card id in order (CardTypes, their values or
        names): each family's ids ``+0..9`` hold the set-up's 10 types once, in the order the
        engine deals them (``+0..2`` set aside, the rest in hand; two-families: ``+3..5`` in
        hand, ``+6..9`` the pile in drawing order), then the Twin with the Prince.
        ``first_player`` defaults to the configuration's. A bad deal raises ``ValueError``.

        >>> from oriflamme.search import state_of
        >>> dealt = new_game(players=3, seed=5)
        >>> Game.from_deal(dealt.config, state_of(dealt).card_type) == dealt
        True
        >>> Game.from_deal(GameConfig(players=2), ["spy"] * 4)
        Traceback (most recent call last):
        ...
        ValueError: a deal gives the type of each of the 40 cards (4 families of 10), not 4
        """
        if not isinstance(config, GameConfig):
            raise ValueError(f"config must be a GameConfig, not {type(config).__name__}")
        if first_player is None:
            first_player = config.first_player
            if first_player is None:
                raise ValueError("this configuration draws the first player from a seed:"
                                 " give first_player")
        types: list[int] = []
        for t in card_types:
            if isinstance(t, str):
                types.append(int(CardType.from_name(t)))
            elif isinstance(t, int) and not isinstance(t, bool) and 0 <= t < _CARD_TYPES:
                types.append(int(t))
            else:
                raise ValueError(f"not a card type: {t!r}")
        return cls(state_from_deal(config, types, first_player, log_events=log))

    @classmethod
    def from_save(cls, data: Mapping[str, Any]) -> Game:
        state = state_from_save(data)
        history = data.get("history")
        if history is not None and not isinstance(history, Mapping):
            raise RecordError("history must be an object or null")
        seed: int | None = None
        actions: list[Action] = []
        if isinstance(history, Mapping):
            seed = history.get("seed")
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise RecordError("history.seed must be an integer")
            raw = history.get("actions", [])
            if not isinstance(raw, list):
                raise RecordError("history.actions must be a list")
            # Every action must be legal where it was played, from the deal of the seed: a
            # history that was edited or damaged is refused here, not met later.
            replayed = cls.new(state.config, seed, log=False)
            for i, item in enumerate(raw):
                try:
                    action = Action.from_json(item)
                    replayed.apply(action)
                except (ActionError, TypeError, ValueError) as exc:
                    raise RecordError(f"history.actions[{i}]: {exc}") from None
                actions.append(action)
        return cls(state, seed, actions)

    @classmethod
    def from_replay(cls, data: Mapping[str, Any], upto: int | None = None) -> Game:
        """Replay ``config + seed + actions`` (the first ``upto`` actions if given); with a
        ``start`` (a save without history: a game set up from a position), the actions are
        played from that position instead of a deal, and ``seed`` may be null."""
        if not isinstance(data, Mapping) or data.get("format") != REPLAY_FORMAT:
            raise RecordError("not a replay file (format must be 'oriflamme-replay')")
        try:
            config = GameConfig.from_dict(data.get("config", {}))
        except ConfigError as exc:
            raise RecordError(f"config: {exc}") from None
        seed = data.get("seed")
        start = data.get("start")
        if start is not None and not isinstance(start, Mapping):
            raise RecordError("start must be a save (an object) or null")
        if (not isinstance(seed, int) or isinstance(seed, bool)) and not (
            seed is None and start is not None
        ):
            raise RecordError("seed must be an integer")
        raw = data.get("actions")
        if not isinstance(raw, list):
            raise RecordError("actions must be a list")
        if start is not None:
            game = cls.from_save(start)
            if game.config != config:
                raise RecordError("start: its configuration is not the replay's")
        else:
            assert isinstance(seed, int)
            game = cls.new(config, seed)
        for i, item in enumerate(raw[:upto]):
            try:
                game.apply(Action.from_json(item))
            except ActionError as exc:
                raise RecordError(f"actions[{i}]: {exc}") from None
        return game

    # -- the decision contract ------------------------------------------------------------
    @property
    def config(self) -> GameConfig:
        return self._state.config

    @property
    def seed(self) -> int | None:
        return self._seed

    @property
    def history(self) -> list[Action]:
        """Actions applied since the deal (or since the position was loaded)."""
        return list(self._history)

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def is_over(self) -> bool:
        return self._state.phase == OVER

    @property
    def current_player(self) -> int | None:
        return current_player(self._state)

    def decision(self) -> Decision | None:
        """Who must decide what now (None once the game is over)."""
        return decision(self._state)

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a stable order."""
        return legal_actions(self._state)

    def apply(
        self, action: Action | str | Mapping[str, Any], *, auto: bool = False, check: bool = True
    ) -> None:
        """Apply an action (an Action, its notation, or its JSON form).

        An illegal or malformed action raises :class:`ActionError` and changes nothing. With
        ``auto``, decisions that then have a single legal option are applied too. Search code
        that takes its actions from :meth:`legal_actions` may pass ``check=False`` to skip the
        legality check (an illegal action then corrupts the game).
        """
        act = action if type(action) is Action else _as_action(action)
        if check:
            apply(self._state, act)
        else:
            apply_unchecked(self._state, act)
        self._history.append(act)
        if auto:
            self.auto()

    def auto(self) -> int:
        """Apply every decision that has a single legal option; return how many."""
        n = 0
        while True:
            legal = legal_actions(self._state)
            if len(legal) != 1:
                return n
            apply_unchecked(self._state, legal[0])
            self._history.append(legal[0])
            n += 1

    def pick_action(self, pick: Callable[[int], int]) -> Action:
        """The legal action at the index ``pick(n)`` returns, ``n`` being the number of legal
        actions, in :meth:`legal_actions` order, without building that list where it can
        (placements): for a bot that chooses by position alone. ``IndexError`` if the index is
        out of range or the game is over.

        >>> game = new_game(players=3, seed=2)
        >>> game.pick_action(lambda n: n - 1) == game.legal_actions()[-1]
        True
        >>> game.pick_action(lambda n: n)
        Traceback (most recent call last):
        ...
        IndexError: no legal action 7: there are 7
        """
        return pick_legal(self._state, pick)

    def play_by_position(self, picks: Sequence[Callable[[int], int]]) -> int:
        """Play to the end, each player's decisions taken by ``picks[player]`` as in
        :meth:`pick_action` (bots that choose by position alone: the loop runs in the rules);
        return how many actions were played. ``IndexError`` if a pick is out of range: that
        decision is left pending, the actions before it stay played.

        >>> import random
        >>> game = new_game(players=3, seed=2)
        >>> rngs = [random.Random(seat) for seat in range(3)]
        >>> moves = game.play_by_position([rng.randrange for rng in rngs])
        >>> game.is_over and moves == len(game.history)
        True
        """
        if len(picks) != self.config.players:
            raise ValueError(f"play_by_position needs one pick per player"
                             f" ({self.config.players}), not {len(picks)}")
        return pick_playout(self._state, picks, self._history)

    def random_action(self, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn with ``rng`` (fast: no option list)."""
        if self.is_over:
            raise IllegalAction("the game is over: no action is legal")
        return random_action(self._state, rng)

    def playout(self, rng: random.Random) -> int:
        """Play uniformly random legal actions to the end; return how many were played."""
        return random_playout(self._state, rng, self._history)  # the loop runs in the rules

    def copy(self, log: bool = True) -> Game:
        """An independent copy (cheap; ``log=False`` drops the event log for search)."""
        return Game(self._state.copy(keep_log=log), self._seed, self._history)

    def result(self) -> Result | None:
        """Scores, tie-break counts and winners once the game is over (R-END-1)."""
        return result(self._state)

    # -- views --------------------------------------------------------------------------
    def observe(self, player: int | None = None, log: bool = False) -> Observation:
        """What ``player`` may know (R-INFO-1); ``None`` for the spectators' public view."""
        return observe(self._state, player, with_log=log)

    def events(self, player: int | None = None, start: int = 0) -> list[ObservedEvent]:
        """The event log from ``start``, as ``player`` may see it."""
        return events_for(self._state, player, start)

    def card(self, ref: str) -> int:
        """The id of a card named ``"colour:type"``, e.g. ``game.card("red:soldier")``;
        ``ValueError`` if the game has no such card."""
        colour, _, name = ref.partition(":")
        colours = FAMILY_COLOURS[: self.config.families]
        try:
            found = self._state.family_card(
                colours.index(colour.strip().lower()), CardType.from_name(name))
        except ValueError:
            found = -1
        if found < 0:
            raise ValueError(f"no card {ref!r} in this game")
        return found

    def card_tally(self) -> CardTally:
        """What each card type did so far: Influence earned (credited to the card an event
        names as its source), cards revealed, eliminated and left face down in the Queue, as
        lists by :class:`CardType` value. Omniscient like :meth:`position`; ``ValueError`` for
        a game without a log (``log=False``).

        >>> import random
        >>> game = new_game(3, seed=1)
        >>> _ = game.playout(random.Random(1))
        >>> tally = game.card_tally()
        >>> tally.influence[CardType.SOLDIER], tally.eliminated[CardType.HEIR]
        (2, 1)
        """
        return card_tally(self._state)

    # -- records ------------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        """The complete position (loads back identical with :meth:`from_position`)."""
        return position_of(self._state)

    def save(self) -> dict[str, Any]:
        """A save: position, log and (for a dealt game) seed and actions."""
        return save_dict(self._state, self._seed, [a.to_json() for a in self._history])

    def replay(self) -> dict[str, Any]:
        """The replay record: configuration, seed and actions."""
        if self._seed is None:
            raise RecordError("a game set up from a position has no replay (no seed)")
        return replay_dict(self.config, self._seed, [a.to_json() for a in self._history])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._state == other._state

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        d = self.decision()
        what = "over" if d is None else f"player {d.player} to {d.kind.slug}"
        return f"<Game {self.config.players}p round {self.round}: {what}>"

    # -- labels -------------------------------------------------------------------------
    def _names(self, names: Sequence[str] | None) -> tuple[str, ...] | None:
        """The players' names a caller gives (one string per player), checked."""
        if names is None:
            return None
        if isinstance(names, str) or not all(isinstance(name, str) for name in names):
            raise TypeError("names must be a sequence of strings, one per player")
        found = tuple(names)
        if len(found) != self.config.players:
            raise ValueError(f"names must name the {self.config.players} players")
        return found

    # The thing named comes first; then, by keyword only, whose knowledge (``viewer``, None:
    # the public's), which language and the players' names.
    def label(
        self,
        action: Action | str | Mapping[str, Any],
        *,
        viewer: int | None = None,
        lang: str = "en",
        names: Sequence[str] | None = None,
    ) -> str:
        """What ``action`` does now, in words, as ``viewer`` may know it (R-INFO-1); players
        are named by their colours, or by ``names`` (one per player) if given.

        >>> game = Game.from_position({"config": {"players": 3}, "round": 2,
        ...     "phase": "resolution", "queue": [["red:soldier*"], ["blue:archer*"]],
        ...     "families": {c: {"rest": "set_aside"} for c in ("red", "blue", "green")}})
        >>> game.label({"kind": "target", "card": game.card("blue:archer")})
        'Eliminate Blue Archer'
        >>> game.label(game.legal_actions()[0], lang="fr")
        "Éliminer l'Archer bleu"
        """
        return labels.action_label(
            self._state, _as_action(action), viewer, lang, self._names(names)
        )

    def prompt(
        self, *, viewer: int | None = None, lang: str = "en", names: Sequence[str] | None = None
    ) -> str:
        """The current decision as a prompt ("The game is over" at the end); players are
        named by their colours, or by ``names`` (one per player) if given.

        >>> new_game(players=3, seed=7).prompt()
        'Red: choose a card to place'
        >>> new_game(players=2, seed=7).prompt(lang="fr")
        'Rouge & vert\\u202f: choisissez une carte à placer'
        >>> new_game(players=2, seed=7).prompt(names=["Ann", "Ben"])
        'Ann: choose a card to place'
        """
        return labels.decision_label(self._state, viewer, lang, self._names(names))

    def log_lines(
        self,
        *,
        viewer: int | None = None,
        lang: str = "en",
        start: int = 0,
        names: Sequence[str] | None = None,
    ) -> list[str]:
        """The event log from ``start``, one sentence per event, as ``viewer`` may see it;
        players are named by their colours, or by ``names`` (one per player) if given."""
        return labels.log_lines(self._state, viewer, lang, start, self._names(names))

    def card_label(self, card: int, *, viewer: int | None = None, lang: str = "en") -> str:
        """A card by id, named only if ``viewer`` may know it ("Blue face-down card" if not)."""
        return labels.card_label(self._state, card, viewer, lang)

    def player_label(self, player: int, *, lang: str = "en") -> str:
        """A player's name: their colour, or "Red & green" with two families."""
        return labels.player_label(self._state, player, lang)


class WorldSampler:
    """Worlds consistent with one player's observation, for search (determinization).

    Build it once per decision from ``game.observe(player)`` (all a bot receives), then draw
    full games with :meth:`sample`: everything the player knows is as observed, the cards they
    cannot see are dealt at random among the types each family can still hold.

    >>> game = new_game(players=3, seed=2)
    >>> sampler = WorldSampler(game.observe(1))
    >>> world = sampler.sample(random.Random(0))
    >>> world.observe(1) == game.observe(1)
    True
    """

    __slots__ = ("_sampler",)

    def __init__(self, observation: Mapping[str, Any]) -> None:
        try:
            self._sampler = _WorldSampler(observation)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a player's observation: {exc}") from None

    def deal(self, rng: random.Random) -> tuple[int, ...]:
        """The card type (a :class:`CardType` value) of every card id in one consistent world,
        the hidden cards dealt at random: cheaper than a world, for searches that keep or
        redraw worlds by the types they hold. Build the world of a deal with
        ``sample(rng, deal=...)``.

        >>> game = new_game(players=3, seed=2)
        >>> sampler = WorldSampler(game.observe(0))
        >>> types = sampler.deal(random.Random(5))
        >>> world = sampler.sample(random.Random(6), deal=types)
        >>> world.observe(0) == game.observe(0)
        True
        >>> world.position() == sampler.sample(random.Random(6), deal=types).position()
        True
        """
        return self._sampler.deal(rng)

    def sample(
        self, rng: random.Random, log: bool = False, deal: Sequence[int] | None = None
    ) -> Game:
        """One consistent world (no seed, no history; no event log unless ``log``), its
        hidden cards dealt with ``rng`` or as in ``deal`` (from :meth:`deal`)."""
        if deal is not None and not isinstance(deal, tuple):
            deal = tuple(deal)
        state = self._sampler.sample(rng, deal)
        if log:
            state.log = []
        return Game(state)


def sample_world(
    source: Game | Mapping[str, Any], player: int | None = None, rng: random.Random | None = None
) -> Game:
    """One world consistent with what ``player`` knows of ``source`` (a game, or that player's
    observation); ``rng`` defaults to a fresh unseeded generator."""
    observation: Mapping[str, Any]
    if isinstance(source, Game):
        if player is None:
            raise ValueError("sampling a world from a game needs the player whose view it is")
        observation = source.observe(player)
    else:
        observation = source
        if player is not None and observation.get("viewer") != player:
            raise ValueError(f"this observation is player {observation.get('viewer')}'s")
    return WorldSampler(observation).sample(rng or random.Random())


def new_game(
    players: int = 3,
    cards: str | Iterable[CardType | str] = "base",
    variant: str | None = None,
    edition: str = "revised",
    first_player: int | None = 0,
    seed: int = 0,
    log: bool = True,
) -> Game:
    """Deal a new game; raises :class:`ConfigError` for an impossible set-up."""
    card_spec = cards if isinstance(cards, str) else tuple(cards)
    config = GameConfig(
        players=players,
        cards=card_spec if isinstance(card_spec, str) else _types(card_spec),
        variant=variant,
        edition=edition,
        first_player=first_player,
    )
    return Game.new(config, seed, log)


def _types(items: Iterable[CardType | str]) -> tuple[CardType, ...]:
    try:
        return tuple(t if isinstance(t, CardType) else CardType.from_name(t) for t in items)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def load(source: str | Path | Mapping[str, Any]) -> Game:
    """Load a save, replay or position (a dict, a JSON string or a file path)."""
    data: Any
    if isinstance(source, Mapping):
        data = source
    else:
        text = str(source)
        if not text.lstrip().startswith(("{", "[")):
            try:
                with open(text, encoding="utf-8") as file:  # not pathlib: 3 ms of start-up
                    text = file.read()
            except OSError as exc:
                raise RecordError(f"cannot read {source}: {exc.strerror or exc}") from None
            except UnicodeDecodeError:
                raise RecordError(f"{source} is not a text file (not UTF-8)") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested far too deep") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    fmt = data.get("format")
    if fmt == SAVE_FORMAT:
        return Game.from_save(data)
    if fmt == REPLAY_FORMAT:
        return Game.from_replay(data)
    return Game.from_position(data)

"""Playing one tournament game and extracting its statistics.

The bots play through :func:`oriflamme.bots.runner.play_game`, so each sees only its own
observation. The card-type statistics are the finished game's :meth:`Game.card_tally`: Influence
earned, credited to the type of the card each GAINED or STOLE event names as its source (the
acting card, a revealed card's tokens, an eliminated Ambush or Queen, the Spy, a Shapeshifter
copying it, the Trap), cards revealed and eliminated, and cards left face down in the Queue.
Influence lost is not counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import itemgetter
from types import MappingProxyType
from typing import Any

from oriflamme.api import Action, CardType, Game, GameConfig, Observation
from oriflamme.bots import Bot, bot_maker, needs_observation, play_game
from oriflamme.bots.base import Pick, picks_by_position

from .schedule import GameJob, Settings, lineups

#: The key of Influence whose source card is not known (never expected with this engine).
UNKNOWN = "unknown"
_SLUGS = tuple(t.slug for t in CardType)
#: Counts by type (indexed by CardType value) with nothing counted.
_NONE = (0,) * len(CardType)
#: The type indices in the order of their slugs, and those slugs: counts by type become counts
#: by slug already sorted, without a sort per game.
_SLUG_ORDER = sorted(range(len(CardType)), key=_SLUGS.__getitem__)
_SORTED_SLUGS = tuple(_SLUGS[t] for t in _SLUG_ORDER)
_in_slug_order = itemgetter(*_SLUG_ORDER)


class GameFailed(RuntimeError):
    """A game that could not be played to the end (a bot broke, a set-up failed)."""


class TimedBot:
    """Wraps a bot, counting its decisions and timing each of them; it declares what the
    wrapped bot declares (its observation, choosing by position: ``pick``)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_observation = needs_observation(bot)
        self._acts = 0
        self._acting = 0.0
        #: The wrapped bot's ``pick``, timed, if it chooses by position alone; else None.
        self.pick: Pick | None = None
        self._picked: Callable[[], tuple[int, float]] | None = None
        if (pick := picks_by_position(bot)) is not None:
            self.pick, self._picked = _timed(pick)

    @property
    def decisions(self) -> int:
        """The decisions taken so far."""
        return self._acts + (self._picked()[0] if self._picked is not None else 0)

    @property
    def seconds(self) -> float:
        """The time taken over them, in seconds."""
        return self._acting + (self._picked()[1] if self._picked is not None else 0.0)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        started = time.perf_counter()
        action = self.bot.act(observation, legal)  # a bot that raises fails the game
        self._acting += time.perf_counter() - started
        self._acts += 1
        return action


def _timed(pick: Pick) -> tuple[Pick, Callable[[], tuple[int, float]]]:
    """``pick`` timed at every call, and the function that tells the decisions and seconds so
    far. Cheap bots decide tens of times a game: the counts are the closure's own variables
    (no attribute writes), and nothing is added when ``pick`` raises (that fails the game)."""
    clock = time.perf_counter
    decisions = 0
    seconds = 0.0

    def timed_pick(count: int) -> int:
        nonlocal decisions, seconds
        started = clock()
        index = pick(count)
        seconds += clock() - started
        decisions += 1
        return index

    def totals() -> tuple[int, float]:
        return decisions, seconds

    return timed_pick, totals


def _by_slug(counts: Sequence[int]) -> dict[str, int]:
    """The non-zero ``counts`` (by type index) by slug, in slug order."""
    ordered = _in_slug_order(counts)
    return dict(compress(zip(_SORTED_SLUGS, ordered, strict=True), ordered))


@dataclass(frozen=True, slots=True)
class CardCounts:
    """Per card type: Influence earned, reveals, eliminations, cards left face down.

    The fields hold the counts by type index (:class:`CardType` value), as the game's tally
    counts them, and the Influence from no known source; the properties ``influence``,
    ``revealed``, ``eliminated`` and ``hidden`` give them by slug (read-only; types with
    nothing counted left out; in slug order), as :meth:`to_json` writes them. So a game's
    counts become slugs once, when its record's JSON is written, and the tournament's totals
    add up the tuples.

    >>> counts = CardCounts.of(influence={"spy": 2}, hidden={"lord": 1, "archer": 3})
    >>> dict(counts.influence), dict(counts.hidden), dict(counts.revealed)
    ({'spy': 2}, {'archer': 3, 'lord': 1}, {})
    """

    influence_by_type: tuple[int, ...] = _NONE
    revealed_by_type: tuple[int, ...] = _NONE
    eliminated_by_type: tuple[int, ...] = _NONE
    hidden_by_type: tuple[int, ...] = _NONE
    unknown_influence: int = 0

    @classmethod
    def of(
        cls,
        influence: Mapping[str, int] | None = None,
        revealed: Mapping[str, int] | None = None,
        eliminated: Mapping[str, int] | None = None,
        hidden: Mapping[str, int] | None = None,
    ) -> CardCounts:
        """Counts given by slug (``unknown`` for Influence from no known source)."""
        influence = dict(influence or {})
        unknown = influence.pop(UNKNOWN, 0)
        return cls(
            _by_index(influence), _by_index(revealed), _by_index(eliminated), _by_index(hidden),
            unknown,
        )

    @property
    def influence(self) -> Mapping[str, int]:
        """Influence earned by slug, in slug order (``unknown``: from no known source)."""
        return MappingProxyType(self._influence())

    @property
    def revealed(self) -> Mapping[str, int]:
        """Cards revealed by slug, in slug order."""
        return MappingProxyType(_by_slug(self.revealed_by_type))

    @property
    def eliminated(self) -> Mapping[str, int]:
        """Cards eliminated by slug, in slug order."""
        return MappingProxyType(_by_slug(self.eliminated_by_type))

    @property
    def hidden(self) -> Mapping[str, int]:
        """Cards left face down in the Queue by slug, in slug order."""
        return MappingProxyType(_by_slug(self.hidden_by_type))

    def _influence(self) -> dict[str, int]:
        counts = _by_slug(self.influence_by_type)
        if self.unknown_influence:
            counts[UNKNOWN] = self.unknown_influence
            counts = dict(sorted(counts.items()))
        return counts

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "influence": self._influence(),
            "revealed": _by_slug(self.revealed_by_type),
            "eliminated": _by_slug(self.eliminated_by_type),
            "hidden": _by_slug(self.hidden_by_type),
        }


def _by_index(counts: Mapping[str, int] | None) -> tuple[int, ...]:
    by_index = list(_NONE)
    for slug, n in (counts or {}).items():
        by_index[CardType[slug.upper()]] = n
    return tuple(by_index)


def count_cards(game: Game) -> CardCounts:
    """Card-type statistics of a finished game (see the module docstring)."""
    tally = game.card_tally()
    return CardCounts(
        tuple(tally.influence),
        tuple(tally.revealed),
        tuple(tally.eliminated),
        tuple(tally.hidden),
        tally.unknown_influence,
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one game gave: scores, tie-break counts, winners, decisions and time by seat, and
    the card-type statistics."""

    scores: tuple[int, ...]
    queue_cards: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]
    cards: CardCounts


def play_measured(game: Game, bots: Sequence[Bot]) -> Outcome:
    """Let ``bots`` (one per seat) play ``game`` to the end and measure it."""
    timed = [TimedBot(bot) for bot in bots]
    result = play_game(game, dict(enumerate(timed)))
    if result is None:
        raise GameFailed("the game stopped before its end: a seat had no bot")
    return Outcome(
        scores=result.scores,
        queue_cards=result.queue_cards,
        winners=result.winners,
        decisions=tuple([bot.decisions for bot in timed]),
        seconds=tuple([bot.seconds for bot in timed]),
        cards=count_cards(game),
    )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One tournament game: its job (index, seed, lineup) and its outcome."""

    index: int
    seed: int
    lineup: tuple[int, ...]
    specs: tuple[str, ...]
    outcome: Outcome

    def to_json(self) -> dict[str, Any]:
        o = self.outcome
        return {
            "index": self.index,
            "seed": self.seed,
            "lineup": list(self.lineup),
            "bots": list(self.specs),
            "scores": list(o.scores),
            "queue_cards": list(o.queue_cards),
            "winners": list(o.winners),
            "decisions": list(o.decisions),
            "decision_seconds": [round(s, 6) for s in o.seconds],
            "cards": o.cards.to_json(),
        }


class Table:
    """Plays tournament games, the game set-up and the bot makers of their settings prepared
    once for all the games of a tournament (or of a batch) rather than once a game. The games
    of a rotation share their deal (see :mod:`.schedule`): it is dealt once and each of them
    plays a copy (``Game.copy``: an eighth of the cost of dealing)."""

    def __init__(self) -> None:
        self._settings: Settings | None = None
        self._config: GameConfig | None = None
        self._makers: list[Callable[[int], Bot]] = []
        self._shared = False  # whether several games share a deal (more than one lineup)
        self._dealt: Game | None = None  # the last deal, unplayed
        self._dealt_seed = 0

    def _prepare(self, settings: Settings) -> GameConfig:
        self._settings = self._dealt = None  # until all is ready: a bad setting fails every game
        self._config = settings.config()
        read = {spec: bot_maker(spec) for spec in dict.fromkeys(settings.bots)}
        self._makers = [read[spec] for spec in settings.bots]
        self._shared = len(lineups(len(settings.bots), settings.players)) > 1
        self._settings = settings
        return self._config

    def _deal(self, config: GameConfig, seed: int) -> Game:
        """A new game dealt from ``seed``."""
        if not self._shared:
            return Game.new(config, seed)
        if self._dealt is None or seed != self._dealt_seed:
            self._dealt, self._dealt_seed = Game.new(config, seed), seed
        return self._dealt.copy()

    def play(self, job: GameJob) -> GameRecord:
        """Deal and play one game of the tournament."""
        try:
            config = self._config
            if job.settings is not self._settings or config is None:
                config = self._prepare(job.settings)
            makers = self._makers
            game = self._deal(config, job.seed)
            bots = [makers[b](seed) for b, seed in zip(job.lineup, job.bot_seeds, strict=True)]
            outcome = play_measured(game, bots)
        except Exception as exc:
            seats = ", ".join(job.specs)
            raise GameFailed(
                f"game {job.index} (deal seed {job.seed}; seats {seats}) failed:"
                f" {type(exc).__name__}: {exc}"
            ) from exc
        return GameRecord(job.index, job.seed, job.lineup, job.specs, outcome)


def play_one(job: GameJob) -> GameRecord:
    """Deal and play one game of the tournament."""
    return Table().play(job)


def play_batch(jobs: Sequence[GameJob]) -> list[GameRecord]:
    """Play several games in a row (one task of a process pool or of Ray)."""
    table = Table()
    return [table.play(job) for job in jobs]

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
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oriflamme.api import Action, CardType, Game, new_game
from oriflamme.bots import Bot, make_bot, needs_observation, play_game
from oriflamme.bots.base import Pick, picks_by_position

from .schedule import GameJob

#: The key of Influence whose source card is not known (never expected with this engine).
UNKNOWN = "unknown"
_SLUGS = tuple(t.slug for t in CardType)


class GameFailed(RuntimeError):
    """A game that could not be played to the end (a bot broke, a set-up failed)."""


class TimedBot:
    """Wraps a bot, counting its decisions and the time it takes over them; it declares what
    the wrapped bot declares (its observation, choosing by position: ``pick``)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_observation = needs_observation(bot)
        #: The wrapped bot's ``pick``, timed, if it chooses by position alone; else None.
        self.pick: Pick | None = self._timed(pick) if (pick := picks_by_position(bot)) else None
        self.decisions = 0
        self.seconds = 0.0

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        started = time.perf_counter()
        try:
            return self.bot.act(observation, legal)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1

    def _timed(self, pick: Pick) -> Pick:
        clock = time.perf_counter  # a local: this runs at every decision of cheap bots

        def timed_pick(count: int) -> int:
            started = clock()
            try:
                return pick(count)
            finally:
                self.seconds += clock() - started
                self.decisions += 1

        return timed_pick


@dataclass(slots=True)
class CardCounts:
    """Per card type (slug): Influence earned, reveals, eliminations, cards left face down."""

    influence: Counter[str] = field(default_factory=Counter)
    revealed: Counter[str] = field(default_factory=Counter)
    eliminated: Counter[str] = field(default_factory=Counter)
    hidden: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, dict[str, int]]:
        return {
            "influence": dict(sorted(self.influence.items())),
            "revealed": dict(sorted(self.revealed.items())),
            "eliminated": dict(sorted(self.eliminated.items())),
            "hidden": dict(sorted(self.hidden.items())),
        }


def count_cards(game: Game) -> CardCounts:
    """Card-type statistics of a finished game (see the module docstring), by slug; types
    with nothing to count are left out."""
    tally = game.card_tally()
    counts = CardCounts()
    for counter, by_type in (
        (counts.influence, tally.influence),
        (counts.revealed, tally.revealed),
        (counts.eliminated, tally.eliminated),
        (counts.hidden, tally.hidden),
    ):
        for t, n in enumerate(by_type):
            if n:
                counter[_SLUGS[t]] = n
    if tally.unknown_influence:
        counts.influence[UNKNOWN] = tally.unknown_influence
    return counts


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
        decisions=tuple(bot.decisions for bot in timed),
        seconds=tuple(bot.seconds for bot in timed),
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


def play_one(job: GameJob) -> GameRecord:
    """Deal and play one game of the tournament."""
    s = job.settings
    try:
        game = new_game(s.players, s.cards, s.variant, s.edition, first_player=0, seed=job.seed)
        bots = [make_bot(spec, seed) for spec, seed in zip(job.specs, job.bot_seeds, strict=True)]
        outcome = play_measured(game, bots)
    except Exception as exc:
        seats = ", ".join(job.specs)
        raise GameFailed(
            f"game {job.index} (deal seed {job.seed}; seats {seats}) failed:"
            f" {type(exc).__name__}: {exc}"
        ) from exc
    return GameRecord(job.index, job.seed, job.lineup, job.specs, outcome)


def play_batch(jobs: Sequence[GameJob]) -> list[GameRecord]:
    """Play several games in a row (one task of a process pool or of Ray)."""
    return [play_one(job) for job in jobs]

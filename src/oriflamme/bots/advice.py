"""A strong player's opinion of one decision: the move it prefers and everyone's chances.

The adviser is ``master``'s search (:mod:`oriflamme.bots.guided`: ISMCTS guided by the learned
network) in the set-ups where ``master`` is measured stronger than ``expert`` and the package
ships its network (:data:`MASTER_ADVISES_IN`: 3 players, base cards), the ``hard`` level's
(:mod:`oriflamme.bots.ismcts`) everywhere else; with the settings of that level (see
:mod:`oriflamme.bots.levels`) and a budget of its own: the caller's (the server's analyses and
hints allow about a second, which both levels fit). Like every bot it reads
only the deciding player's observation and the legal actions, never a hidden card: its opinion
is made from what that player knew at that moment (R-INFO-1). For every move it tried it
reports each player's expected share of victory after that move (the average, over the
iterations that tried it, of the rewards the search backs up: the share of victory at the end of
the game, or its estimate at the end of the round). Its preferred move is the one the bot would
play (the most tried); a move's *loss* is what the deciding player's chance drops from the
preferred move to that one (0 when it is the preferred move or better).

The seed of an opinion is drawn from the observation itself (:func:`observation_seed`), so the
same knowledge always gets the same opinion (with an iteration budget: a time cap stops a busy
machine's search earlier), and no other input can steer it.

>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=2)
>>> advice = advise(game.observe(0), game.legal_actions(), iterations=60)
>>> advice.best in game.legal_actions(), len(advice.win), 0 <= advice.win[0] <= 1
(True, 3, True)
>>> advice.loss(advice.best)
0.0
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oriflamme.api import Action, GameConfig, Observation

from .ismcts import IsmctsBot, ismcts_from_options
from .levels import LEVELS
from .shipped import packaged_path, setup_key

if TYPE_CHECKING:
    from .guided import GuidedBot

#: The level whose search gives the opinions in the set-ups of :data:`MASTER_ADVISES_IN`.
ADVISER_LEVEL = "master"
#: The set-ups where ``master`` is measured stronger than ``expert`` (issue #30, docs/bots.md):
#: 3 players, base cards (45.9% of 603 games against two ``expert``, the fair share a third).
#: Not 2 players (46.4% of 166 head to head), nor the set-ups without a shipped network.
MASTER_SETUPS: tuple[GameConfig, ...] = (GameConfig(players=3),)
#: Their names (:func:`oriflamme.bots.shipped.setup_key`): ``master`` advises there.
MASTER_ADVISES_IN = frozenset(setup_key(config) for config in MASTER_SETUPS)
#: The level that gives them in the other set-ups.
FALLBACK_LEVEL = "hard"


@dataclass(frozen=True, slots=True)
class Advice:
    """The opinion of the adviser on one decision of player ``player``."""

    player: int
    best: Action
    #: Each player's expected share of victory after ``best``.
    win: tuple[float, ...]
    #: For each move the search tried: each player's expected share after it, and how often
    #: it was tried.
    by_action: Mapping[Action, tuple[tuple[float, ...], int]]
    iterations: int

    def win_after(self, action: Action) -> tuple[float, ...] | None:
        """Everyone's chances after ``action``, or None if the search never tried it."""
        found = self.by_action.get(action)
        return None if found is None else found[0]

    def loss(self, action: Action) -> float:
        """How much the deciding player's chance drops by playing ``action`` rather than the
        preferred move (never negative; 0 for a move the search never tried)."""
        after = self.win_after(action)
        if after is None:
            return 0.0
        return max(0.0, self.win[self.player] - after[self.player])

    def to_json(self) -> dict[str, Any]:
        return {
            "best": self.best.to_json(),
            "win": [round(w, 4) for w in self.win],
            "iterations": self.iterations,
        }


def observation_seed(observation: Observation, salt: str = "") -> int:
    """A seed that depends on the observation alone (and ``salt``)."""
    text = json.dumps(observation, sort_keys=True, separators=(",", ":")) + salt
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def adviser_level(config: Mapping[str, Any]) -> str:
    """The level that advises in the set-up ``config`` (an observation's ``config``).

    >>> [adviser_level(GameConfig(players=n).to_dict()) for n in (2, 3, 4)]
    ['hard', 'master', 'hard']
    """
    measured = setup_key(config) in MASTER_ADVISES_IN and packaged_path(config) is not None
    return ADVISER_LEVEL if measured else FALLBACK_LEVEL


def warm_up() -> list[str]:
    """Give one tiny opinion in each set-up where ``master`` advises, so that a fresh worker
    has NumPy and the shipped networks loaded before its first real opinion (the server's hint
    worker runs this before its first hint: a hint has a deadline). Returns the set-ups warmed."""
    from oriflamme.api import Game

    warmed = []
    for config in MASTER_SETUPS:
        if adviser_level(config.to_dict()) != ADVISER_LEVEL:
            continue
        game = Game.new(config, seed=0)
        advise(game.observe(game.current_player), game.legal_actions(), iterations=2)
        warmed.append(setup_key(config))
    return warmed


def adviser(seed: int, iterations: int | None, seconds: float | None,
            config: Mapping[str, Any] | None = None) -> IsmctsBot | GuidedBot:
    """The search of :func:`adviser_level` (``hard`` without ``config``) with this budget
    (iterations, a time cap, or both)."""
    level = FALLBACK_LEVEL if config is None else adviser_level(config)
    spec = LEVELS[level][0]
    assert spec is not None
    options = dict(part.split("=", 1) for part in spec.split(":")[1:])
    options.pop("iterations", None)
    options.pop("time", None)
    if iterations is not None:
        options["iterations"] = str(iterations)
    if seconds is not None:
        options["time"] = str(seconds)
    if spec.startswith("guided"):
        from .guided import GuidedBot, guided_from_options  # NumPy: only when asked

        bot = guided_from_options(seed, options)
        assert isinstance(bot, GuidedBot)
        return bot
    return ismcts_from_options(seed, options)


def advise(
    observation: Observation,
    legal: Sequence[Action],
    iterations: int | None = 3000,
    seconds: float | None = None,
    seed: int | None = None,
) -> Advice:
    """The adviser's opinion of the decision ``observation`` shows its viewer (who must be the
    deciding player), among ``legal``; ``seed`` defaults to :func:`observation_seed`."""
    if not legal:
        raise ValueError("no legal action to advise on")
    player = observation.get("viewer")
    decision = observation.get("decision")
    if not isinstance(player, int) or decision is None or decision["player"] != player:
        raise ValueError("advice needs the observation of the player who decides")
    if seed is None:
        seed = observation_seed(observation)
    bot = adviser(seed, iterations, seconds, observation["config"])
    totals: dict[Action, list[float]] = {}
    stats, done = bot.search(observation, legal, iterations, seconds, totals=totals)
    if len(legal) == 1:
        stats = {legal[0]: (done, 0.0)}
    by_action: dict[Action, tuple[tuple[float, ...], int]] = {}
    for action, (visits, _) in stats.items():
        summed = totals.get(action)
        if visits and summed is not None:
            by_action[action] = (tuple(total / visits for total in summed), visits)
    best = max(
        (a for a in legal if a in by_action),
        key=lambda a: (by_action[a][1], by_action[a][0][player]),
        default=legal[0],
    )
    players = len(observation["influence"])
    win = by_action[best][0] if best in by_action else tuple(1.0 / players for _ in range(players))
    return Advice(player, best, win, by_action, done)

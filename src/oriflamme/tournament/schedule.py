"""Who sits where in each game of a tournament, and the seeds every game is played with.

Seat rotation, with B bots listed and P seats (seat 0 places first in round 1):

* B ≤ P: B lineups; in lineup r, seat s is taken by bot (r + s) mod B. With B == P these are
  the P cyclic rotations of the list; with B < P the list is repeated to fill the seats (one
  bot alone is self-play; ``a,b`` with 3 seats gives (a, b, a) and (b, a, b)).
* B > P: every set of P bots (combinations in the order of the list), each in its P cyclic
  rotations: C(B, P)·P lineups. Every pair of bots meets equally often.

A spec may be listed more than once (``hard,greedy,greedy``: one bot against two copies of
another); each listing is an entrant of its own, named ``greedy``, ``greedy #2``, ...
(:attr:`Settings.entrants`).

Over one rotation (all the lineups once) every bot takes every seat equally often: once when
B ≤ P, C(B-1, P-1) times when B > P. The number of games is rounded up to a whole number of
rotations and game i uses lineup i mod L. The games of one rotation share their deal (the seed
of block i // L), so every bot meets the same deals from every seat; each bot gets its own seed
per game and seat. Everything derives from the tournament seed and the game index only, so the
games do not depend on how many processes play them.

>>> lineups(2, 3)
[(0, 1, 0), (1, 0, 1)]
>>> lineups(3, 2)
[(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from oriflamme.api import GameConfig
from oriflamme.bots import make_bot
from oriflamme.bots.base import check_bot_setup

try:  # hashlib's own blake2b, without hashlib importing OpenSSL first (2.5 ms of start-up)
    from _blake2 import blake2b
except ImportError:  # an interpreter that keeps it elsewhere
    from hashlib import blake2b


class SettingsError(ValueError):
    """Tournament settings that cannot be run; the message says why."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What a tournament plays: the bot specs, the game set-up, the seed and the game count."""

    bots: tuple[str, ...]
    players: int = 3
    cards: str = "base"
    variant: str | None = None
    edition: str = "revised"
    seed: int = 0
    games: int = 1

    @property
    def entrants(self) -> tuple[str, ...]:
        """The name of each listed bot: its spec, with ``#k`` for the k-th listing of a spec.

        >>> Settings(bots=("hard", "greedy", "greedy")).entrants
        ('hard', 'greedy', 'greedy #2')
        """
        names = []
        for i, spec in enumerate(self.bots):
            k = self.bots[:i].count(spec) + 1
            names.append(spec if k == 1 else f"{spec} #{k}")
        return tuple(names)

    def config(self) -> GameConfig:
        """The game configuration (raises ``ConfigError`` for an impossible set-up)."""
        return GameConfig(
            players=self.players, cards=self.cards, variant=self.variant, edition=self.edition
        )


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: its index, deal seed, bots by seat and their seeds."""

    settings: Settings
    index: int
    seed: int
    lineup: tuple[int, ...]
    bot_seeds: tuple[int, ...]

    @property
    def specs(self) -> tuple[str, ...]:
        """The bot spec of each seat."""
        return tuple(self.settings.bots[b] for b in self.lineup)


@dataclass(frozen=True, slots=True)
class Plan:
    """The lineups of one rotation and every game to play."""

    lineups: tuple[tuple[int, ...], ...]
    jobs: tuple[GameJob, ...]

    @property
    def games(self) -> int:
        return len(self.jobs)


def lineups(n_bots: int, players: int) -> list[tuple[int, ...]]:
    """The lineups of one rotation: bot index per seat (see the module docstring)."""
    if n_bots < 1 or players < 1:
        raise ValueError("a lineup needs at least one bot and one seat")
    if n_bots <= players:
        return [tuple((r + s) % n_bots for s in range(players)) for r in range(n_bots)]
    return [
        group[r:] + group[:r]
        for group in combinations(range(n_bots), players)
        for r in range(players)
    ]


def games_to_play(requested: int, rotation: int) -> int:
    """``requested`` rounded up to a whole number of rotations of ``rotation`` lineups."""
    return -(-requested // rotation) * rotation


def derive_seed(*parts: object) -> int:
    """A stable 63-bit seed from the given parts (the same parts give the same seed): the first
    8 bytes of the BLAKE2b hash of the parts' text joined by ``/``, shifted right by one.

    >>> derive_seed("deal", 0, 0)
    3215420369551426619
    """
    return _seed(blake2b("/".join(str(p) for p in parts).encode(), digest_size=8))


def _seed(hashed: blake2b) -> int:
    return int.from_bytes(hashed.digest(), "big") >> 1


def _prefix(*parts: object) -> blake2b:
    """The hash of ``derive_seed``'s text for ``parts`` and a separator: copied and completed,
    it gives the seed of any longer list of parts without hashing the prefix again."""
    return blake2b("".join(str(p) + "/" for p in parts).encode(), digest_size=8)


def check(settings: Settings) -> None:
    """Raise ``SettingsError``, ``BotSpecError`` or ``ConfigError`` for unplayable settings."""
    if not settings.bots:
        raise SettingsError("--bots needs at least one bot spec")
    if any(not spec for spec in settings.bots):
        raise SettingsError("--bots has an empty spec (two commas in a row?)")
    if settings.games < 1:
        raise SettingsError(f"--games must be at least 1, not {settings.games}")
    config = settings.config()
    for spec in dict.fromkeys(settings.bots):
        check_bot_setup(make_bot(spec, 0), config)


def plan(settings: Settings) -> Plan:
    """Check the settings and lay out every game (see the module docstring).

    Game i of a rotation of L lineups is dealt with ``derive_seed("deal", seed, i // L)`` and
    its seat s gets ``derive_seed("bot", seed, i, s)``; these are computed from the hashes of
    their prefixes, copied (the same values, a third of the time: 4 seeds a game).
    """
    check(settings)
    rotation = lineups(len(settings.bots), settings.players)
    size = len(rotation)
    deals = _prefix("deal", settings.seed)
    bots = _prefix("bot", settings.seed)
    seats = [str(seat).encode() for seat in range(settings.players)]
    jobs = []
    for block in range(games_to_play(settings.games, size) // size):
        hashed = deals.copy()
        hashed.update(str(block).encode())
        deal = _seed(hashed)  # the games of one rotation share their deal
        for offset, lineup in enumerate(rotation):
            index = block * size + offset
            game = bots.copy()
            game.update(f"{index}/".encode())
            seeds = []
            for seat in seats:
                hashed = game.copy()
                hashed.update(seat)
                seeds.append(_seed(hashed))
            jobs.append(GameJob(settings, index, deal, lineup, tuple(seeds)))
    return Plan(tuple(rotation), tuple(jobs))

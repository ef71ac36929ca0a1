"""What storage keeps of players across tables: ratings per (player, pool), the results that
updated them (once per finished rated game), each rating's history, reputation, and an
account's games: the records and the :class:`PlayersStore` part of the :class:`~.base.Store`
interface (implemented once in SQL by :mod:`.sql_ratings`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rating_model import Belief, RatedGame


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One player's rating in one pool. ``name``: the account's name, or the bot level;
    ``bot``: the entry of a bot level."""

    player: str
    name: str
    pool: str
    mu: float
    sigma: float
    games: int
    wins: int
    bot: bool

    @property
    def rating(self) -> int:
        return Belief(self.mu, self.sigma).rating


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating after one game: the game, when it ended (epoch seconds), the belief."""

    table_id: str
    game: int
    at: float
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return Belief(self.mu, self.sigma).rating


@dataclass(frozen=True, slots=True)
class StoredResult:
    """A rated game's result as stored: its order of update (``seq``), when it was rated,
    the game."""

    seq: int
    at: float
    game: RatedGame


@dataclass(frozen=True, slots=True)
class Reputation:
    """An account's finished games (its seats in games that ended) and how many of them it
    left before the end."""

    finished: int = 0
    left: int = 0

    @property
    def share(self) -> float | None:
        """The share finished without leaving (None: no finished game yet)."""
        return None if not self.finished else (self.finished - self.left) / self.finished


@dataclass(frozen=True, slots=True)
class AccountGame:
    """A game of a seat an account owns, for its list of games."""

    table_id: str
    game: int
    seat: int
    finished: bool
    your_turn: bool
    #: When the game ended (finished) or its last turn began (ongoing), epoch seconds.
    at: float
    config: Mapping[str, object]
    rated: bool
    #: Each seat's name (in seat order).
    names: tuple[str, ...]
    #: Finished games: the seat's player left it, its rank (1 = best), whether it won; the
    #: table's secret (for the replay link and the owner's seat link; never sent).
    left: bool = False
    rank: int | None = None
    won: bool = False
    replay_key: str = ""


class PlayersStore(Protocol):
    """The storage of ratings, results, reputation and accounts' games."""

    async def ratings(self, players: Sequence[str]) -> list[RatingRow]:
        """The ratings of these players (keys ``account:<id>``, ``bot:<level>``), any pool."""
        ...

    async def leaderboard(
        self, pool: str, min_games: int, limit: int, offset: int
    ) -> tuple[list[RatingRow], int]:
        """A page of the pool's entries with at least ``min_games`` games, best shown rating
        first, and how many there are in all."""
        ...

    async def rating_history(self, player: str, pool: str, limit: int) -> list[RatingPoint]:
        """The player's last ``limit`` ratings in the pool, oldest first."""
        ...

    async def rating_results(self) -> list[StoredResult]:
        """Every stored result of a rated game, in the order the ratings were updated."""
        ...

    async def replace_ratings(
        self, ratings: Mapping[tuple[str, str], tuple[Belief, int, int]],
        history: Sequence[tuple[str, str, int, Belief]],
    ) -> None:
        """Replace every stored rating (``(player, pool)`` → belief, games, wins) and the
        beliefs of the history (``(player, pool, seq, belief)``), in one transaction."""
        ...

    async def reputations(self, account_ids: Sequence[str]) -> dict[str, Reputation]:
        """The reputation of each of these accounts (missing: no finished game)."""
        ...

    async def account_games(
        self, account_id: str, finished: bool, limit: int, offset: int
    ) -> tuple[list[AccountGame], int]:
        """A page of the games of the account's seats (ongoing: its turn first, then the most
        recent; finished: the most recently ended first), and how many there are."""
        ...

    async def results_by_players(self, account_id: str) -> dict[int, tuple[int, int]]:
        """The account's finished games and wins, by number of players."""
        ...

    async def bot_games(
        self, player: str, limit: int, offset: int
    ) -> tuple[list[AccountGame], int]:
        """A page of the rated games of a bot level (``bot:<level>``), the last rated first, and
        how many there are; each game's ``seat``, ``rank`` and ``won`` are the level's first
        seat, best rank, and whether one of its seats won."""
        ...

    async def bot_results_by_players(self, player: str) -> dict[int, tuple[int, int]]:
        """A bot level's rated games and wins, by number of players."""
        ...

    async def claim_seat(self, table_id: str, seat: int, account_id: str, name: str) -> bool:
        """The human seat nobody owns becomes the account's, under its ``name`` (no other
        seat of the table may have that name, nor the account another seat); False if it
        may not."""
        ...

    async def leave_seat(self, table_id: str, seat: int, name: str, level: str) -> bool:
        """The seat's player leaves the game under way: the human seat becomes the bot
        ``level`` (the table's stand-in) called ``name`` for the rest of the table, ``left_at``
        is set, and its pending decision is the bot's at once; False if it is not a human seat
        of an unfinished game any more."""
        ...

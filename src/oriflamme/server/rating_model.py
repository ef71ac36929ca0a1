"""The rating model of rated tables (docs/server.md, "Ratings"): OpenSkill's Plackett-Luce
on each finished game's finishing order, in two pools, shown as a conservative figure.

- **Pools**: ``2p`` (two players, the two-families variant) and ``3-5p`` (three to five
  players); a player has one rating in each.
- **Players**: an account (``account:<id>``) or a bot level (``bot:<level>``), so that players
  can measure themselves against the bots. Several seats of one bot level in one game are rated
  as separate entries from the level's rating; the level then takes the mean of their results.
- **Ranks**: by final score, ties kept (OpenSkill handles them); a player who left the game or
  whose decisions were mostly made by the stand-in ranks last, tied with any other such.
- **Shown**: ``round(1000 + 30 * (mu - 3 * sigma))``, the ordinal of the belief (a skill the
  player has with about 99.9 % certainty) on a scale near the familiar chess-like figures: a
  newcomer (mu 25, sigma 25/3) shows 1000, an established average player about 1570.

The update is a pure function of the ratings before the game and the game's ranks, so that the
stored ratings can be recomputed exactly from the stored results (``oriflamme ratings
rebuild``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The pools: two players (two families), three to five players.
TWO_PLAYERS, MANY_PLAYERS = "2p", "3-5p"
POOLS = (TWO_PLAYERS, MANY_PLAYERS)
#: The belief of a player who never played in a pool.
MU, SIGMA = 25.0, 25.0 / 3
#: The displayed figure: ``BASE + SCALE * (mu - 3 sigma)``.
BASE, SCALE = 1000.0, 30.0

ACCOUNT_PREFIX, BOT_PREFIX = "account:", "bot:"

_MODEL = PlackettLuce()


def account_player(account_id: str) -> str:
    return f"{ACCOUNT_PREFIX}{account_id}"


def bot_player(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def pool_of(players: int, variant: str) -> str | None:
    """The pool of a game of ``players`` in ``variant``; None: not rated (two players in the
    one-family variant)."""
    if players == 2:
        return TWO_PLAYERS if variant == "two-families" else None
    return MANY_PLAYERS if 3 <= players <= 5 else None


def shown(mu: float, sigma: float) -> int:
    """The figure players see: the conservative ordinal, scaled."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class Belief:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def rating(self) -> int:
        return shown(self.mu, self.sigma)


GUEST = "guest"


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished game: who played it (an account, a bot level, or ``guest``),
    where it finished (1 = best, ties share a rank; leavers already last), whether its player
    left or let the stand-in play most of their decisions, and whether it won."""

    seat: int
    player: str
    rank: int
    left: bool = False
    won: bool = False


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game with an account at one of its seats, or of a rated table: what its
    accounts' results and, when it is rated (``pool``), the rating update need."""

    table_id: str
    game: int
    pool: str | None
    seats: tuple[RatedSeat, ...]

    def to_json(self) -> list[dict[str, object]]:
        return [
            {"seat": s.seat, "player": s.player, "rank": s.rank, "left": s.left, "won": s.won}
            for s in self.seats
        ]

    @classmethod
    def from_json(cls, table_id: str, game: int, pool: str | None, data: object) -> RatedGame:
        assert isinstance(data, list)
        return cls(
            table_id,
            game,
            pool,
            tuple(
                RatedSeat(
                    int(s["seat"]), str(s["player"]), int(s["rank"]), bool(s["left"]),
                    bool(s["won"]),
                )
                for s in data
            ),
        )

    @property
    def players(self) -> list[str]:
        """Each player once, in seat order."""
        return list(dict.fromkeys(s.player for s in self.seats))

    @property
    def accounts(self) -> list[tuple[RatedSeat, str]]:
        """The seats of accounts, with the account's id."""
        return [
            (s, s.player.removeprefix(ACCOUNT_PREFIX))
            for s in self.seats
            if s.player.startswith(ACCOUNT_PREFIX)
        ]


def finishing_ranks(scores: Sequence[tuple[int, int]], left: Sequence[bool]) -> list[int]:
    """Each seat's rank from its (score, tie-break) at the end, best first, ties sharing a
    rank; seats that ``left`` rank last (together)."""
    stayed = sorted({scores[i] for i in range(len(scores)) if not left[i]}, reverse=True)
    ranks = []
    for i, score in enumerate(scores):
        ranks.append(len(stayed) + 1 if left[i] else stayed.index(score) + 1)
    return ranks


def rate(before: Mapping[str, Belief], game: RatedGame) -> dict[str, Belief]:
    """The beliefs of ``game``'s players after it, from ``before`` (a player missing there
    starts at the prior). A player with several seats (one bot level) gets the mean of the
    seats' results."""
    teams = [
        [_MODEL.rating(mu=b.mu, sigma=b.sigma)]
        for b in (before.get(s.player, Belief()) for s in game.seats)
    ]
    rated = _MODEL.rate(teams, ranks=[float(s.rank) for s in game.seats])
    results: dict[str, list[Belief]] = {}
    for seat, team in zip(game.seats, rated, strict=True):
        results.setdefault(seat.player, []).append(Belief(team[0].mu, team[0].sigma))
    return {
        player: Belief(
            sum(b.mu for b in beliefs) / len(beliefs),
            sum(b.sigma for b in beliefs) / len(beliefs),
        )
        for player, beliefs in results.items()
    }

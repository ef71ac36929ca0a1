"""Players across tables, in SQL for both backends: the results of finished games for their
accounts, the ratings of rated games (updated once per game, in the transaction that ends it),
leaderboards, reputation, an account's games and leaving a game (see :mod:`.sql_store`).

Exactly once: a game's results are keyed by the game (``game_results``: table, game, seat;
``rating_results``: table, game) and written in the transaction that stores the game's last
action, itself unique by its index; so a game ends with its results on whichever server stored
it, or not at all. Rating updates wait for one another (one at a time on any server) and are
numbered (``seq``) in the order they were made, the order ``oriflamme ratings rebuild`` replays
them in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..names import name_key
from ..rating_model import Belief, RatedGame, rate
from .dialect import Sql
from .plans import Plan, SqlRunner
from .rating_records import AccountGame, RatingPoint, RatingRow, Reputation, StoredResult
from .sql_seats import lock_table, seat_changed

#: A rating row's columns, joined with its account (``r``, ``a``).
RATING_COLUMNS = (
    "r.player, COALESCE(a.name, r.player), r.pool, r.mu, r.sigma, r.games, r.wins,"
    " r.account_id IS NULL"
)
#: Ratings of accounts that still exist, and of bot levels.
RATING_FROM = (
    "ratings r LEFT JOIN accounts a ON a.id = r.account_id"
    " WHERE (r.account_id IS NULL OR a.id IS NOT NULL)"
)


def _rating(row: Sequence[Any]) -> RatingRow:
    player, name, pool, mu, sigma, games, wins, bot = row
    name = str(name)
    if bool(bot):  # a bot level's entry is named by its level
        name = name.partition(":")[2]
    return RatingRow(
        str(player), name, str(pool), float(mu), float(sigma), int(games), int(wins), bool(bot)
    )


class RatingsSql(SqlRunner):
    # -- when a game ends (within the transaction of its last action) ------------------------
    def _record_results(self, finished: RatedGame) -> Plan[None]:
        d = self.dialect
        players = len(finished.seats)
        for seat, account_id in finished.accounts:
            q = Sql(d)
            yield q.statement(
                "INSERT INTO game_results (table_id, game, seat, account_id, players, rank, won,"
                f" left_game, rated, at) VALUES ({q(finished.table_id)}, {q(finished.game)},"
                f" {q(seat.seat)}, {q(account_id)}, {q(players)}, {q(seat.rank)}, {q(seat.won)},"
                f" {q(seat.left)}, {q(finished.pool is not None)}, {q.now()})"
            )
        if finished.pool is not None:
            yield from self._rate(finished, finished.pool)

    def _rate(self, finished: RatedGame, pool: str) -> Plan[None]:
        d = self.dialect
        q = Sql(d)
        lock = d.serialize(q, "ratings")
        if lock is not None:  # one update at a time: each reads the ratings the last wrote
            yield q.statement(lock)
        q = Sql(d)
        rows = yield q.statement(
            f"SELECT player, mu, sigma FROM ratings WHERE pool = {q(pool)}"
            f" AND {q.among('player', finished.players)}"
        )
        before = {str(row[0]): Belief(float(row[1]), float(row[2])) for row in rows}
        after = rate(before, finished)
        q = Sql(d)
        seq_rows = yield q.statement("SELECT COALESCE(MAX(seq), 0) + 1 FROM rating_results")
        seq = int(seq_rows[0][0])
        q = Sql(d)
        yield q.statement(
            "INSERT INTO rating_results (table_id, game, seq, pool, seats, at) VALUES"
            f" ({q(finished.table_id)}, {q(finished.game)}, {q(seq)}, {q(pool)},"
            f" {q(json.dumps(finished.to_json()))}, {q.now()})"
        )
        won = {s.player for s in finished.seats if s.won}
        for player, belief in after.items():
            account = player.removeprefix("account:") if player.startswith("account:") else None
            q = Sql(d)
            yield q.statement(
                "INSERT INTO ratings (player, pool, account_id, mu, sigma, rating, games, wins,"
                f" updated) VALUES ({q(player)}, {q(pool)}, {q(account)}, {q(belief.mu)},"
                f" {q(belief.sigma)}, {q(belief.rating)}, 1, {q(int(player in won))}, {q.now()})"
                " ON CONFLICT (player, pool) DO UPDATE SET mu = excluded.mu,"
                " sigma = excluded.sigma, rating = excluded.rating,"
                " games = ratings.games + 1, wins = ratings.wins + excluded.wins,"
                " updated = excluded.updated"
            )
            q = Sql(d)
            yield q.statement(
                "INSERT INTO rating_history (player, pool, seq, table_id, game, mu, sigma, at)"
                f" VALUES ({q(player)}, {q(pool)}, {q(seq)}, {q(finished.table_id)},"
                f" {q(finished.game)}, {q(belief.mu)}, {q(belief.sigma)}, {q.now()})"
            )

    # -- ratings ------------------------------------------------------------------------------
    async def ratings(self, players: Sequence[str]) -> list[RatingRow]:
        if not players:
            return []
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(
                f"SELECT {RATING_COLUMNS} FROM {RATING_FROM} AND {q.among('r.player', players)}"
                " ORDER BY r.pool"
            )
        )
        return [_rating(row) for row in rows]

    async def leaderboard(
        self, pool: str, min_games: int, limit: int, offset: int
    ) -> tuple[list[RatingRow], int]:
        return await self._read(self._leaderboard(pool, min_games, limit, offset), snapshot=True)

    def _leaderboard(
        self, pool: str, min_games: int, limit: int, offset: int
    ) -> Plan[tuple[list[RatingRow], int]]:
        q = Sql(self.dialect)
        where = f"{RATING_FROM} AND r.pool = {q(pool)} AND r.games >= {q(min_games)}"
        rows = yield q.statement(
            f"SELECT {RATING_COLUMNS} FROM {where} ORDER BY r.rating DESC, r.games DESC,"
            f" r.player LIMIT {q(limit)} OFFSET {q(offset)}"
        )
        q = Sql(self.dialect)
        total = yield q.statement(
            f"SELECT COUNT(*) FROM {RATING_FROM} AND r.pool = {q(pool)}"
            f" AND r.games >= {q(min_games)}"
        )
        return [_rating(row) for row in rows], int(total[0][0])

    async def rating_history(self, player: str, pool: str, limit: int) -> list[RatingPoint]:
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(
                "SELECT table_id, game, at, mu, sigma FROM rating_history"
                f" WHERE player = {q(player)} AND pool = {q(pool)}"
                f" ORDER BY seq DESC LIMIT {q(limit)}"
            )
        )
        return [
            RatingPoint(str(t), int(g), float(at), float(mu), float(sigma))
            for t, g, at, mu, sigma in reversed(rows)
        ]

    async def rating_results(self) -> list[StoredResult]:
        rows = await self._read_one(
            Sql(self.dialect).statement(
                "SELECT seq, at, table_id, game, pool, seats FROM rating_results ORDER BY seq"
            )
        )
        return [
            StoredResult(
                int(seq), float(at), RatedGame.from_json(str(t), int(g), str(pool), json.loads(s))
            )
            for seq, at, t, g, pool, s in rows
        ]

    async def replace_ratings(
        self,
        ratings: Mapping[tuple[str, str], tuple[Belief, int, int]],
        history: Sequence[tuple[str, str, int, Belief]],
    ) -> None:
        await self._write(self._replace_ratings(ratings, history))

    def _replace_ratings(
        self,
        ratings: Mapping[tuple[str, str], tuple[Belief, int, int]],
        history: Sequence[tuple[str, str, int, Belief]],
    ) -> Plan[None]:
        d = self.dialect
        q = Sql(d)
        lock = d.serialize(q, "ratings")
        if lock is not None:
            yield q.statement(lock)
        yield Sql(d).statement("DELETE FROM ratings")
        for (player, pool), (belief, games, wins) in ratings.items():
            account = player.removeprefix("account:") if player.startswith("account:") else None
            q = Sql(d)
            yield q.statement(
                "INSERT INTO ratings (player, pool, account_id, mu, sigma, rating, games, wins,"
                f" updated) VALUES ({q(player)}, {q(pool)}, {q(account)}, {q(belief.mu)},"
                f" {q(belief.sigma)}, {q(belief.rating)}, {q(games)}, {q(wins)}, {q.now()})"
            )
        for player, pool, seq, belief in history:
            q = Sql(d)
            yield q.statement(
                f"UPDATE rating_history SET mu = {q(belief.mu)}, sigma = {q(belief.sigma)}"
                f" WHERE player = {q(player)} AND pool = {q(pool)} AND seq = {q(seq)}"
            )

    # -- reputation, an account's games ---------------------------------------------------------
    async def reputations(self, account_ids: Sequence[str]) -> dict[str, Reputation]:
        if not account_ids:
            return {}
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(
                "SELECT account_id, COUNT(*), SUM(CASE WHEN"
                f" {self.dialect.true('left_game')} THEN 1 ELSE 0 END) FROM game_results"
                f" WHERE {q.among('account_id', account_ids)} GROUP BY account_id"
            )
        )
        return {str(a): Reputation(int(n), int(left or 0)) for a, n, left in rows}

    async def results_by_players(self, account_id: str) -> dict[int, tuple[int, int]]:
        """The account's finished games and wins, by number of players."""
        q = Sql(self.dialect)
        rows = await self._read_one(
            q.statement(
                "SELECT players, COUNT(*), SUM(CASE WHEN"
                f" {self.dialect.true('won')} THEN 1 ELSE 0 END) FROM game_results"
                f" WHERE account_id = {q(account_id)} GROUP BY players ORDER BY players"
            )
        )
        return {int(p): (int(n), int(w or 0)) for p, n, w in rows}

    async def account_games(
        self, account_id: str, finished: bool, limit: int, offset: int
    ) -> tuple[list[AccountGame], int]:
        plan = self._finished_games if finished else self._ongoing_games
        return await self._read(plan(account_id, limit, offset), snapshot=True)

    def _ongoing_games(
        self, account_id: str, limit: int, offset: int
    ) -> Plan[tuple[list[AccountGame], int]]:
        d = self.dialect

        def ongoing(q: Sql) -> str:
            return (
            "seats s JOIN tables t ON t.id = s.table_id JOIN games g ON g.table_id = s.table_id"
            " AND g.number = (SELECT MAX(number) FROM games WHERE table_id = s.table_id)"
            f" WHERE s.account_id = {q(account_id)} AND s.kind = 'human' AND s.left_at IS NULL"
            f" AND {d.false('g.finished')} AND {d.false('t.closed')}"
            )

        q = Sql(d)
        where = ongoing(q)
        mine = (
            "(g.turn_seat = s.seat AND NOT EXISTS (SELECT 1 FROM seats o"
            " WHERE o.table_id = s.table_id AND o.kind = 'open'))"
        )
        rows = yield q.statement(
            f"SELECT s.table_id, g.number, s.seat, CASE WHEN {mine} THEN 1 ELSE 0 END,"
            " COALESCE(g.turn_since, t.created), t.config, t.rated, t.replay_key FROM "
            f"{where} ORDER BY 4 DESC, 5 DESC, s.table_id LIMIT {q(limit)} OFFSET {q(offset)}"
        )
        q = Sql(d)
        total = yield q.statement(f"SELECT COUNT(*) FROM {ongoing(q)}")
        names = yield from self._names([row[0] for row in rows])
        games = [
            AccountGame(
                str(t), int(g), int(seat), False, bool(turn), float(at), json.loads(config),
                bool(rated), names.get(str(t), ()), replay_key=str(key or ""),
            )
            for t, g, seat, turn, at, config, rated, key in rows
        ]
        return games, int(total[0][0])

    def _finished_games(
        self, account_id: str, limit: int, offset: int
    ) -> Plan[tuple[list[AccountGame], int]]:
        d = self.dialect
        q = Sql(d)
        rows = yield q.statement(
            "SELECT r.table_id, r.game, r.seat, r.at, t.config, r.rated, r.left_game, r.rank,"
            " r.won, t.replay_key FROM game_results r JOIN tables t ON t.id = r.table_id"
            f" WHERE r.account_id = {q(account_id)} ORDER BY r.at DESC, r.table_id, r.game"
            f" LIMIT {q(limit)} OFFSET {q(offset)}"
        )
        q = Sql(d)
        total = yield q.statement(
            f"SELECT COUNT(*) FROM game_results WHERE account_id = {q(account_id)}"
        )
        names = yield from self._names([row[0] for row in rows])
        games = [
            AccountGame(
                str(t), int(g), int(seat), True, False, float(at), json.loads(config),
                bool(rated), names.get(str(t), ()), bool(left), int(rank), bool(won),
                str(key or ""),
            )
            for t, g, seat, at, config, rated, left, rank, won, key in rows
        ]
        return games, int(total[0][0])

    def _names(self, table_ids: Sequence[str]) -> Plan[dict[str, tuple[str, ...]]]:
        if not table_ids:
            return {}
        q = Sql(self.dialect)
        rows = yield q.statement(
            f"SELECT table_id, name FROM seats WHERE {q.among('table_id', sorted(set(table_ids)))}"
            " ORDER BY table_id, seat"
        )
        names: dict[str, list[str]] = {}
        for table_id, name in rows:
            names.setdefault(str(table_id), []).append(str(name))
        return {t: tuple(n) for t, n in names.items()}

    # -- owning a seat, leaving a game ---------------------------------------------------------
    async def claim_seat(self, table_id: str, seat: int, account_id: str, name: str) -> bool:
        return await self._write(self._claim_seat(table_id, seat, account_id, name))

    def _claim_seat(self, table_id: str, seat: int, account_id: str, name: str) -> Plan[bool]:
        d = self.dialect
        yield from lock_table(d, table_id)
        q = Sql(d)
        key, account = q(name_key(name)), q(account_id)
        done = yield q.statement(
            f"UPDATE seats SET account_id = {account}, name = {q(name)}, name_key = {key}"
            f" WHERE table_id = {q(table_id)} AND seat = {q(seat)} AND kind = 'human'"
            " AND account_id IS NULL AND NOT EXISTS (SELECT 1 FROM seats o"
            " WHERE o.table_id = seats.table_id AND o.seat <> seats.seat"
            f" AND (o.name_key = {key} OR o.account_id = {account})) RETURNING seat"
        )
        if done:
            yield seat_changed(table_id)
        return bool(done)

    async def leave_seat(self, table_id: str, seat: int, name: str, level: str) -> bool:
        return await self._write(self._leave_seat(table_id, seat, name, level))

    def _leave_seat(self, table_id: str, seat: int, name: str, level: str) -> Plan[bool]:
        d = self.dialect
        yield from lock_table(d, table_id)
        q = Sql(d)
        table = q(table_id)
        latest = f"(SELECT MAX(number) FROM games WHERE table_id = {table})"
        left = yield q.statement(
            f"UPDATE seats SET kind = 'bot', level = {q(level)}, name = {q(name)},"
            f" name_key = {q(name_key(name))}, away_since = NULL, left_at = {q.now()}"
            f" WHERE table_id = {table} AND seat = {q(seat)} AND kind = 'human' AND EXISTS"
            f" (SELECT 1 FROM games WHERE table_id = {table} AND number = {latest}"
            f" AND {d.false('finished')}) RETURNING seat"
        )
        if not left:
            return False
        q = Sql(d)
        table = q(table_id)
        latest = f"(SELECT MAX(number) FROM games WHERE table_id = {table})"
        yield q.statement(
            f"UPDATE games SET turn_bot = {q(True)}, turn_deadline = {q.now()},"
            " lease_owner = NULL, lease_until = NULL"
            f" WHERE table_id = {table} AND number = {latest} AND {d.false('finished')}"
            f" AND turn_seat = {q(seat)} AND NOT EXISTS (SELECT 1 FROM seats"
            f" WHERE table_id = {table} AND kind = 'open')"
        )
        yield seat_changed(table_id)
        return True


"""A bot level's rated games, for its public profile (docs/server.md, "Ratings"), in SQL for
both backends (see :mod:`.sql_store`).

A bot level has no rows in ``game_results`` (those are accounts' results): its games are the
rated ones, found through its rating history (one row per rated game it played, numbered like
the updates) and read from ``rating_results`` (each seat's player, rank and win).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .dialect import Sql
from .plans import Plan, SqlRunner
from .rating_records import AccountGame

#: The rated games a bot level (``bot:<level>``) played, with their results and tables.
_GAMES = (
    "rating_history h JOIN rating_results r ON r.table_id = h.table_id AND r.game = h.game"
    " JOIN tables t ON t.id = h.table_id"
)


def won_pattern(player: str) -> str:
    """A LIKE pattern of a result's seats (``RatedGame.to_json`` as ``json.dumps`` writes it)
    in which a seat of ``player`` won. ``player`` is a bot level's key: letters and a colon,
    nothing LIKE would read as a wildcard."""
    return f'%"player": {json.dumps(player)}, "rank": 1, "left": false, "won": true}}%'


def _bot_game(player: str, row: Sequence[Any], names: tuple[str, ...]) -> AccountGame:
    table_id, game, at, seats, config, key = row
    mine = [s for s in json.loads(seats) if s["player"] == player]
    return AccountGame(
        str(table_id), int(game), int(mine[0]["seat"]), True, False, float(at),
        json.loads(config), True, names, False, min(int(s["rank"]) for s in mine),
        any(bool(s["won"]) for s in mine), str(key or ""),
    )


class BotGamesSql(SqlRunner):
    async def bot_games(
        self, player: str, limit: int, offset: int
    ) -> tuple[list[AccountGame], int]:
        return await self._read(self._bot_games(player, limit, offset), snapshot=True)

    def _bot_games(
        self, player: str, limit: int, offset: int
    ) -> Plan[tuple[list[AccountGame], int]]:
        q = Sql(self.dialect)
        rows = yield q.statement(
            "SELECT h.table_id, h.game, r.at, r.seats, t.config, t.replay_key FROM"
            f" {_GAMES} WHERE h.player = {q(player)} ORDER BY h.seq DESC"
            f" LIMIT {q(limit)} OFFSET {q(offset)}"
        )
        q = Sql(self.dialect)
        total = yield q.statement(f"SELECT COUNT(*) FROM {_GAMES} WHERE h.player = {q(player)}")
        table_ids = sorted({str(row[0]) for row in rows})
        names: dict[str, list[str]] = {}
        if table_ids:
            q = Sql(self.dialect)
            seats = yield q.statement(
                f"SELECT table_id, name FROM seats WHERE {q.among('table_id', table_ids)}"
                " ORDER BY table_id, seat"
            )
            for table_id, name in seats:
                names.setdefault(str(table_id), []).append(str(name))
        games = [_bot_game(player, row, tuple(names.get(str(row[0]), ()))) for row in rows]
        return games, int(total[0][0])

    async def bot_results_by_players(self, player: str) -> dict[int, tuple[int, int]]:
        q = Sql(self.dialect)
        # One row per game (its player count, whether the level won it), then counted.
        per_game = (
            "SELECT (SELECT COUNT(*) FROM seats s WHERE s.table_id = h.table_id) AS players,"
            f" CASE WHEN r.seats LIKE {q(won_pattern(player))} THEN 1 ELSE 0 END AS won"
            f" FROM {_GAMES} WHERE h.player = {q(player)}"
        )
        rows = await self._read_one(
            q.statement(
                f"SELECT players, COUNT(*), SUM(won) FROM ({per_game}) per_game"
                " GROUP BY players ORDER BY players"
            )
        )
        return {int(p): (int(n), int(w or 0)) for p, n, w in rows}

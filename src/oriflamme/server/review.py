"""Reviewing and learning: replays, post-game analyses and hints (docs/server.md).

This module is the :class:`Review` service (the finished games kept in memory, the analysis
runner, the hints being computed), on ``app.state.review``, started and stopped with the app;
its routes are ``review_routes``.

- ``GET /api/tables/{id}/games/{n}/replay`` — the replay record of a finished game;
- ``GET /api/tables/{id}/games/{n}/frames`` — what the replay page shows at each step;
- ``POST`` / ``GET /api/tables/{id}/games/{n}/analysis`` — ask for / read its analysis;
- ``GET /api/tables/{id}/hint`` — a strong player's move for the seat's current decision, at
  tables created with ``hints``;
- ``GET /t/{id}/replay`` — the replay page.

Any token of the table (a seat's, the spectators', the creator's) may review its finished games:
once a game is over nothing of it is secret; so may the replay token of a game (``replay_links``:
what the pages' replay links carry, never a seat's token), for that game only. A hint, during
the game, is made from the asking seat's observation only.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .analysis import AnalysisRunner
from .errors import ApiError
from .hints import HintDesk, busy
from .replays import Kept, Replays
from .tables import Table
from .throttle import BucketsByKey

#: Hints kept (a seat asking again at the same step gets the same answer at once).
KEEP_HINTS = 256


class Review:
    """The service behind the review routes: finished games, analyses and hints."""

    def __init__(self, manager: Any, rate: float = 20.0, burst: float = 20.0) -> None:
        self.manager = manager
        self.replays = Replays(manager.store)
        self.analyses = AnalysisRunner(manager, self.replays)
        self.hints = HintDesk()
        self._hints = Kept(KEEP_HINTS)
        self._thinking: dict[tuple[str, int, int, int], asyncio.Future[dict[str, Any]]] = {}
        #: Requests a second (and bursts) per address of the routes that make the server think
        #: (asking for an analysis, a hint): as many as the other POSTs.
        self.by_ip = BucketsByKey(rate, burst)

    def start(self) -> None:
        self.analyses.start()
        self.hints.start()

    def drain(self) -> None:
        """This process is going away: it takes no new analysis (another server does)."""
        self.analyses.drain()

    async def stop(self) -> None:
        await self.analyses.stop()
        await self.hints.stop()

    async def hint(self, table: Table, seat: int, address: str) -> dict[str, Any]:
        """The hint for ``seat``'s current decision (computed once per decision), asked from
        ``address`` (hints wait their turn address by address)."""
        game = table.game  # a table's game is replaced, never changed: this one stays put
        key = (table.id, table.game_number, len(game.history), seat)
        found: dict[str, Any] | None = self._hints.get_fresh(key)
        if found is not None:
            return found
        thinking = self._thinking.get(key)
        if thinking is None:
            thinking = self.hints.ask(address, game.observe(seat), game.legal_actions())
            self._thinking[key] = thinking
            thinking.add_done_callback(lambda _: self._thinking.pop(key, None))
        try:
            found = await asyncio.shield(thinking)
        except ApiError:
            raise
        except Exception:
            raise busy() from None
        self._hints.keep(key, found)
        return found

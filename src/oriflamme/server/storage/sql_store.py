"""The one SQL implementation of the :class:`~.base.Store`, for SQLite and PostgreSQL alike.

Every method is written once, over a :class:`~.dialect.Dialect` (placeholders, the database's
clock, booleans, lists of values, row locks) as a plan (:mod:`.plans`) that a backend runs:
:class:`~.sqlite.SqliteStore` and :class:`~.postgres.PostgresStore` keep only their
connections, transactions and announcements of changes. The methods are grouped by subject:

- :mod:`.sql_games`: tables, games and actions (create, load, play, set the turn);
- :mod:`.sql_seats`: open seats and the lobby, seats handed to a bot, players away or back;
- :mod:`.sql_claims`: bot decisions and periodic jobs, each claimed by one server;
- :mod:`.sql_analyses`: post-game analyses (queued, claimed, stored);
- :mod:`.sql_presence`: connections per server and heartbeats;
- :mod:`.sql_upkeep`: quotas and the deletion of abandoned tables;
- :mod:`.sql_accounts`: players' accounts, sessions, passkeys and failed sign-ins;
- :mod:`.sql_chat`: the table talk (messages, numbered per table, announced);
- :mod:`.sql_bot_games`: a bot level's rated games (its profile).
- :mod:`.sql_push`: "your turn" pushes (the server's keys, subscriptions, pushes sent).
"""

from __future__ import annotations

from .sql_accounts import AccountsSql
from .sql_analyses import AnalysesSql
from .sql_bot_games import BotGamesSql
from .sql_chat import ChatSql
from .sql_claims import ClaimsSql
from .sql_games import GamesSql
from .sql_presence import PresenceSql
from .sql_push import PushSql
from .sql_seats import SeatsSql
from .sql_upkeep import UpkeepSql


class SqlStore(
    GamesSql, SeatsSql, ClaimsSql, AnalysesSql, PresenceSql, UpkeepSql, AccountsSql, ChatSql,
    BotGamesSql,
    PushSql,
):
    """Every :class:`~.base.Store` method but a backend's own (``describe``, ``listen``,
    ``close``) and the running of plans (:meth:`~.plans.SqlRunner._run`)."""

"""The PostgreSQL store's schema and its migrations from older versions (see
:mod:`.postgres`): created on first start, migrated under an advisory lock, so that two servers
starting at once do it once; a newer schema than this server knows is refused before anything
is written."""

from __future__ import annotations

import secrets

import asyncpg

from ..names import name_key
from .base import StoreError
from .dialect import POSTGRES
from .schema_sql import tables

SCHEMA_VERSION = 9
#: Any constant: the advisory lock key that serialises schema creation and migrations.
MIGRATION_LOCK = 0x0F1F1A33E

#: The schema's own version, and the tables; an index SQLite does not have.
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS oriflamme_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
{tables(POSTGRES)}
CREATE INDEX IF NOT EXISTS games_unfinished ON games (table_id) WHERE NOT finished;
"""


#: Version 2 had no turns, claims or presence (the new tables come with the schema). The turn
#: of an unfinished game is unknown: it is marked as a bot decision at step -1, which a server
#: claims, finds wrong and corrects (``set_turn``), playing it if a bot must move.
MIGRATE_FROM_2 = """
ALTER TABLE games ADD COLUMN turn_step INTEGER;
ALTER TABLE games ADD COLUMN turn_seat INTEGER;
ALTER TABLE games ADD COLUMN turn_bot BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN turn_since DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN lease_owner TEXT;
ALTER TABLE games ADD COLUMN lease_until DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN turn_watched BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE games SET turn_step = -1, turn_bot = TRUE, turn_since = 0 WHERE NOT finished;
"""
#: Version 3 had no learning tables (hints) nor analyses (their table comes with the schema).
MIGRATE_FROM_3 = "ALTER TABLE tables ADD COLUMN hints BOOLEAN NOT NULL DEFAULT FALSE;"
#: Version 4 had no open seats, clocks or stand-ins: a bot decision was claimable at once
#: (now: from its deadline, which for a bot is when its turn began).
MIGRATE_FROM_4 = """
ALTER TABLE tables ADD COLUMN public BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN listed DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN closed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE tables ADD COLUMN clock DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN absent_after DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN stand_in TEXT NOT NULL DEFAULT 'medium';
ALTER TABLE seats ADD COLUMN away_since DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN joined DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN turn_deadline DOUBLE PRECISION;
UPDATE games SET turn_deadline = turn_since WHERE turn_bot;
DROP INDEX IF EXISTS games_bot_turns;
"""

#: Version 5 had no secret deals, no-show limits, replay tokens nor name keys (issue #26). A
#: game continued from a position was the creator's deal (whether an old seed was chosen is
#: unknown); the human seats of old tables count as come (the old rules stay theirs); public
#: tables without a clock get the no-show limit (300 s, the default then). Replay keys and name
#: keys are filled in by :func:`fill_keys`.
MIGRATE_FROM_5 = """
ALTER TABLE tables ADD COLUMN no_show_after DOUBLE PRECISION;
ALTER TABLE tables ADD COLUMN replay_key TEXT;
ALTER TABLE seats ADD COLUMN arrived DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN name_key TEXT;
ALTER TABLE games ADD COLUMN custom_deal BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE games SET custom_deal = TRUE WHERE start IS NOT NULL;
UPDATE seats SET arrived = (SELECT created FROM tables WHERE id = seats.table_id)
    WHERE kind = 'human';
UPDATE tables SET no_show_after = 300 WHERE public AND clock IS NULL;
"""


async def fill_keys(db: asyncpg.Connection) -> None:
    """Give every table without one its replay key, and every seat the key of its name."""
    tables = await db.fetch("SELECT id FROM tables WHERE replay_key IS NULL")
    await db.executemany(
        "UPDATE tables SET replay_key = $2 WHERE id = $1",
        [(row["id"], secrets.token_urlsafe(24)) for row in tables],
    )
    seats = await db.fetch("SELECT table_id, seat, name FROM seats WHERE name_key IS NULL")
    await db.executemany(
        "UPDATE seats SET name_key = $3 WHERE table_id = $1 AND seat = $2",
        [(row["table_id"], row["seat"], name_key(row["name"])) for row in seats],
    )


#: Version 6 did not know who asked for an analysis nor when each started: analyses were
#: claimed in the order they were asked for (now: round-robin by address, a few queued each).
MIGRATE_FROM_6 = """
ALTER TABLE analyses ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE analyses ADD COLUMN started DOUBLE PRECISION;
"""


#: Version 7 did not record who played each action (``server.sources``): its actions' source
#: stays unknown (NULL).
MIGRATE_FROM_7 = "ALTER TABLE actions ADD COLUMN source TEXT;"


#: Version 8 had no accounts (issue #28) and no table talk or time banks (#29): its seats
#: belong to no account, its tables are not rated, have no minimum reputation, their chat is on
#: and their clocks are per decision; when its finished games ended is unknown (NULL). The
#: accounts', ratings', chat's and push's own tables come with the schema.
MIGRATE_FROM_8 = """
ALTER TABLE tables ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN min_reputation DOUBLE PRECISION, ADD COLUMN chat TEXT NOT NULL DEFAULT 'on',
    ADD COLUMN bank DOUBLE PRECISION, ADD COLUMN increment DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN account_id TEXT, ADD COLUMN left_at DOUBLE PRECISION,
    ADD COLUMN bank_left DOUBLE PRECISION, ADD COLUMN ran_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ended DOUBLE PRECISION;
"""


async def migrate(db: asyncpg.Connection) -> None:
    """Create or migrate the schema on ``db``, inside the caller's transaction."""
    await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
    exists = await db.fetchval("SELECT to_regclass('oriflamme_meta') IS NOT NULL")
    found = 0
    if exists:
        value = await db.fetchval("SELECT value FROM oriflamme_meta WHERE key = 'schema_version'")
        found = int(value) if value is not None else 0
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"the database has storage version {found}, newer than this server's "
            f"({SCHEMA_VERSION}): upgrade oriflamme"
        )
    if found == SCHEMA_VERSION:
        return
    if found == 2:
        await db.execute(MIGRATE_FROM_2)
    if found in (2, 3):
        await db.execute(MIGRATE_FROM_3)
    if found in (2, 3, 4):
        await db.execute(MIGRATE_FROM_4)
    if found in (2, 3, 4, 5):
        await db.execute(MIGRATE_FROM_5)
        await fill_keys(db)
    if found in (4, 5, 6):  # before 4 the analyses come with the schema, whole
        await db.execute(MIGRATE_FROM_6)
    if found in (2, 3, 4, 5, 6, 7):  # every older database has its actions table
        await db.execute(MIGRATE_FROM_7)
    if found in (2, 3, 4, 5, 6, 7, 8):
        await db.execute(MIGRATE_FROM_8)
    await db.execute(SCHEMA)
    await db.execute(
        "INSERT INTO oriflamme_meta (key, value) VALUES ('schema_version', $1)"
        " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        str(SCHEMA_VERSION),
    )

"""The SQLite store's schema and its migrations from older versions (see :mod:`.sqlite`): the
version is SQLite's ``user_version``; a file with a newer schema than this server knows is
refused before anything is written."""

from __future__ import annotations

import secrets
import sqlite3
from pathlib import Path

from ..names import name_key
from .base import StoreError
from .dialect import SQLITE
from .schema_sql import tables

SCHEMA_VERSION = 9

SCHEMA = tables(SQLITE)

#: Version 1 had no starting positions: every game was dealt from its seed.
MIGRATE_FROM_1 = ["ALTER TABLE games ADD COLUMN start TEXT"]
#: Version 2 had no turns, claims or presence (the new tables come with the schema). The turn
#: of an unfinished game is unknown: it is marked as a bot decision at step -1, which a server
#: claims, finds wrong and corrects (``set_turn``), playing it if a bot must move.
MIGRATE_FROM_2 = [
    "ALTER TABLE games ADD COLUMN turn_step INTEGER",
    "ALTER TABLE games ADD COLUMN turn_seat INTEGER",
    "ALTER TABLE games ADD COLUMN turn_bot INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN turn_since REAL",
    "ALTER TABLE games ADD COLUMN lease_owner TEXT",
    "ALTER TABLE games ADD COLUMN lease_until REAL",
    "ALTER TABLE games ADD COLUMN turn_watched INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN origin TEXT NOT NULL DEFAULT ''",
    "UPDATE games SET turn_step = -1, turn_bot = 1, turn_since = 0 WHERE finished = 0",
]

#: Version 3 had no learning tables (hints) nor analyses (their table comes with the schema).
MIGRATE_FROM_3 = ["ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0"]
#: Version 4 had no open seats, clocks or stand-ins: a bot decision was claimable at once
#: (now: from its deadline, which for a bot is when its turn began).
MIGRATE_FROM_4 = [
    "ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN listed REAL",
    "ALTER TABLE tables ADD COLUMN closed INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE tables ADD COLUMN clock REAL",
    "ALTER TABLE tables ADD COLUMN absent_after REAL",
    "ALTER TABLE tables ADD COLUMN stand_in TEXT NOT NULL DEFAULT 'medium'",
    "ALTER TABLE seats ADD COLUMN away_since REAL",
    "ALTER TABLE seats ADD COLUMN origin TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE seats ADD COLUMN joined REAL",
    "ALTER TABLE games ADD COLUMN turn_deadline REAL",
    "UPDATE games SET turn_deadline = turn_since WHERE turn_bot = 1",
    "DROP INDEX IF EXISTS games_bot_turns",
]


#: Version 5 had no secret deals, no-show limits, replay tokens nor name keys (issue #26).
MIGRATE_FROM_5 = (
    ("tables", "no_show_after", "REAL"),
    ("tables", "replay_key", "TEXT"),
    ("seats", "arrived", "REAL"),
    ("seats", "name_key", "TEXT"),
    ("games", "custom_deal", "INTEGER NOT NULL DEFAULT 0"),
)


def migrate_from_5(db: sqlite3.Connection) -> None:
    """Version 5 to 6, in steps that may run again if one was interrupted. A game continued
    from a position was the creator's deal (whether an old seed was chosen is unknown); the
    human seats of old tables count as come (the old rules stay theirs); public tables without
    a clock get the no-show limit (300 s, the default then); each table gets its replay key and
    each seat the key of its name."""
    for table, column, declaration in MIGRATE_FROM_5:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
    db.execute("UPDATE games SET custom_deal = 1 WHERE start IS NOT NULL")
    db.execute(
        "UPDATE seats SET arrived = (SELECT created FROM tables WHERE id = seats.table_id)"
        " WHERE kind = 'human' AND arrived IS NULL"
    )
    db.execute(
        "UPDATE tables SET no_show_after = 300 WHERE public = 1 AND clock IS NULL"
        " AND no_show_after IS NULL"
    )
    for (table_id,) in db.execute("SELECT id FROM tables WHERE replay_key IS NULL").fetchall():
        db.execute(
            "UPDATE tables SET replay_key = ? WHERE id = ?", (secrets.token_urlsafe(24), table_id)
        )
    names = db.execute("SELECT table_id, seat, name FROM seats WHERE name_key IS NULL").fetchall()
    for table_id, seat, name in names:
        db.execute(
            "UPDATE seats SET name_key = ? WHERE table_id = ? AND seat = ?",
            (name_key(name), table_id, seat),
        )


#: Version 6 did not know who asked for an analysis nor when each started: analyses were
#: claimed in the order they were asked for (now: round-robin by address, a few queued each).
MIGRATE_FROM_6 = [
    "ALTER TABLE analyses ADD COLUMN origin TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE analyses ADD COLUMN started REAL",
]


def migrate_from_7(db: sqlite3.Connection) -> None:
    """Version 7 to 8 (may run again if interrupted): version 7 did not record who played each
    action (``server.sources``); its actions' source stays unknown (NULL)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(actions)")}
    if "source" not in columns:
        db.execute("ALTER TABLE actions ADD COLUMN source TEXT")


#: Version 8 had no accounts (issue #28) and no table talk or time banks (#29): its seats
#: belong to no account, its tables are not rated, have no minimum reputation, their chat is on
#: and their clocks are per decision; when its finished games ended is unknown (NULL). The
#: accounts', ratings', chat's and push's own tables come with the schema.
MIGRATE_FROM_8 = (
    ("tables", "rated", "INTEGER NOT NULL DEFAULT 0"),
    ("tables", "min_reputation", "REAL"),
    ("tables", "chat", "TEXT NOT NULL DEFAULT 'on'"),
    ("tables", "bank", "REAL"),
    ("tables", "increment", "REAL"),
    ("seats", "account_id", "TEXT"),
    ("seats", "left_at", "REAL"),
    ("seats", "bank_left", "REAL"),
    ("seats", "ran_out", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "ended", "REAL"),
)


def migrate_from_8(db: sqlite3.Connection) -> None:
    """Version 8 to 9 (may run again if interrupted): see :data:`MIGRATE_FROM_8`."""
    for table, column, declaration in MIGRATE_FROM_8:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")


def migrate(db: sqlite3.Connection, path: str | Path) -> None:
    """Create or migrate the schema of the database ``db`` (the file ``path``, for messages)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: storage version {version} is newer than this server's "
            f"({SCHEMA_VERSION}): upgrade oriflamme"
        )
    if version not in (0, 1, 2, 3, 4, 5, 6, 7, 8, SCHEMA_VERSION):
        raise StoreError(f"{path}: unknown storage version {version}")
    migrations = (
        (MIGRATE_FROM_1 if version == 1 else [])
        + (MIGRATE_FROM_2 if version in (1, 2) else [])
        + (MIGRATE_FROM_3 if version in (1, 2, 3) else [])
        + (MIGRATE_FROM_4 if version in (1, 2, 3, 4) else [])
        # Before 4 the analyses come with the schema, whole.
        + (MIGRATE_FROM_6 if version in (4, 5, 6) else [])
    )
    for statement in migrations:
        db.execute(statement)
    if version in (1, 2, 3, 4, 5):
        migrate_from_5(db)
    if version in (1, 2, 3, 4, 5, 6, 7):
        migrate_from_7(db)
    if version in (1, 2, 3, 4, 5, 6, 7, 8):
        migrate_from_8(db)
    db.executescript(SCHEMA)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

"""The tables of the current storage version, for both backends: written once with the
dialect's column types (:class:`~.dialect.Dialect`), created by :mod:`.sqlite_schema` and
:mod:`.postgres_schema`, which add their own extras and migrate older versions."""

from __future__ import annotations

from .dialect import Dialect


def tables(d: Dialect) -> str:
    """``CREATE TABLE`` and ``CREATE INDEX`` statements of every table (``IF NOT EXISTS``)."""
    real, flag, no, big = d.real, d.boolean, d.false_value, d.big_integer
    return f"""
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    lang TEXT NOT NULL,
    creator_hash TEXT NOT NULL,
    spectator_hash TEXT NOT NULL,
    created {real} NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    public {flag} NOT NULL DEFAULT {no},
    listed {real},
    closed {flag} NOT NULL DEFAULT {no},
    clock {real},
    absent_after {real},
    stand_in TEXT NOT NULL DEFAULT 'medium',
    hints {flag} NOT NULL DEFAULT {no},
    no_show_after {real},
    replay_key TEXT,
    rated {flag} NOT NULL DEFAULT {no},
    min_reputation {real},
    chat TEXT NOT NULL DEFAULT 'on',
    bank {real},
    increment {real}
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    away_since {real},
    origin TEXT NOT NULL DEFAULT '',
    joined {real},
    arrived {real},
    name_key TEXT,
    account_id TEXT,
    left_at {real},
    bank_left {real},
    ran_out INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed {big} NOT NULL,
    finished {flag} NOT NULL DEFAULT {no},
    start TEXT,
    turn_step INTEGER,
    turn_seat INTEGER,
    turn_bot {flag} NOT NULL DEFAULT {no},
    turn_since {real},
    turn_watched {flag} NOT NULL DEFAULT {no},
    lease_owner TEXT,
    lease_until {real},
    turn_deadline {real},
    custom_deal {flag} NOT NULL DEFAULT {no},
    ended {real},
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT,
    PRIMARY KEY (table_id, game, idx),
    FOREIGN KEY (table_id, game) REFERENCES games(table_id, number)
);
CREATE TABLE IF NOT EXISTS servers (
    id TEXT PRIMARY KEY,
    heartbeat {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS presence (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    server TEXT NOT NULL,
    connections INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat, server)
);
CREATE TABLE IF NOT EXISTS jobs (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    until {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS analyses (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    status TEXT NOT NULL,
    progress {real} NOT NULL DEFAULT 0,
    steps TEXT NOT NULL DEFAULT '[]',
    requested {real} NOT NULL,
    lease_owner TEXT,
    lease_until {real},
    origin TEXT NOT NULL DEFAULT '',
    started {real},
    PRIMARY KEY (table_id, game)
);
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT,
    created {real} NOT NULL,
    suspended {flag} NOT NULL DEFAULT {no},
    admin {flag} NOT NULL DEFAULT {no}
);
CREATE TABLE IF NOT EXISTS sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    csrf TEXT NOT NULL,
    created {real} NOT NULL,
    seen {real} NOT NULL,
    expires {real} NOT NULL,
    agent TEXT NOT NULL DEFAULT '',
    origin TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS passkeys (
    credential_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    public_key TEXT NOT NULL,
    sign_count {big} NOT NULL DEFAULT 0,
    label TEXT NOT NULL DEFAULT '',
    created {real} NOT NULL,
    used {real}
);
CREATE TABLE IF NOT EXISTS challenges (
    id_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    account_id TEXT,
    challenge TEXT NOT NULL,
    expires {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS sign_in_failures (
    key TEXT NOT NULL,
    at {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS game_results (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    players INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    won {flag} NOT NULL,
    left_game {flag} NOT NULL,
    rated {flag} NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, game, seat)
);
CREATE TABLE IF NOT EXISTS rating_results (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    seq {big} NOT NULL UNIQUE,
    pool TEXT NOT NULL,
    seats TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, game)
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL,
    pool TEXT NOT NULL,
    account_id TEXT,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    rating INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated {real} NOT NULL,
    PRIMARY KEY (player, pool)
);
CREATE TABLE IF NOT EXISTS rating_history (
    player TEXT NOT NULL,
    pool TEXT NOT NULL,
    seq {big} NOT NULL,
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (player, pool, seq)
);
CREATE INDEX IF NOT EXISTS game_results_account ON game_results (account_id, at);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (pool, rating);
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    channel TEXT NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT,
    phrase TEXT,
    game INTEGER NOT NULL,
    step INTEGER NOT NULL,
    at {real} NOT NULL,
    deleted {flag} NOT NULL DEFAULT {no},
    PRIMARY KEY (table_id, number)
);
CREATE INDEX IF NOT EXISTS chat_channel ON chat (table_id, channel, number);
CREATE TABLE IF NOT EXISTS chat_mutes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    muted INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat, muted)
);
CREATE TABLE IF NOT EXISTS chat_reports (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    reporter TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    at {real} NOT NULL,
    handled {real},
    PRIMARY KEY (table_id, number, reporter)
);
CREATE INDEX IF NOT EXISTS chat_reports_open ON chat_reports (at) WHERE handled IS NULL;
CREATE TABLE IF NOT EXISTS server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created {real} NOT NULL
);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created {real} NOT NULL,
    agent TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS push_subscriptions_account ON push_subscriptions (account_id);
CREATE TABLE IF NOT EXISTS push_sent (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    step INTEGER NOT NULL,
    account_id TEXT NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, game, step, account_id)
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account_id);
CREATE INDEX IF NOT EXISTS passkeys_account ON passkeys (account_id);
CREATE INDEX IF NOT EXISTS sign_in_failures_key ON sign_in_failures (key, at);
CREATE INDEX IF NOT EXISTS seats_account ON seats (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_deadlines ON games (turn_deadline)
    WHERE turn_deadline IS NOT NULL;
CREATE INDEX IF NOT EXISTS tables_lobby ON tables (listed) WHERE {d.true('public')};
CREATE INDEX IF NOT EXISTS seats_origin ON seats (origin, joined) WHERE joined IS NOT NULL;
CREATE INDEX IF NOT EXISTS tables_origin ON tables (origin, created);
CREATE INDEX IF NOT EXISTS analyses_origin ON analyses (origin, status);
"""

"""What storage keeps of players' accounts (docs/server.md, "Accounts and sessions"): the
records and the part of the :class:`~.base.Store` interface that reads and writes them.

Accounts, their sessions, passkeys, the challenges of passkey ceremonies and failed sign-ins are
rows of the database (the authority), so that any server process can serve any request of a
signed-in player. Session ids and ceremony ids are stored only as SHA-256 digests; passwords
only as argon2id hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class AccountRecord:
    account_id: str
    name: str
    created: float  #: epoch seconds (the database's clock)
    #: Suspended from the command line: cannot sign in, join or create tables.
    suspended: bool = False
    #: May moderate (granted from the command line).
    admin: bool = False


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A signed-in browser: the digest of its session id, its account, its CSRF token, when it
    signed in, when the session was last renewed, when it expires, and what it said it was."""

    id_hash: str
    account_id: str
    csrf: str
    created: float
    seen: float
    expires: float
    agent: str = ""

    @property
    def public_id(self) -> str:
        """What the account's list of sessions names it by (a prefix of the digest: knowing
        it signs nobody in)."""
        return self.id_hash[:16]


@dataclass(frozen=True, slots=True)
class PasskeyRecord:
    """A WebAuthn credential of an account (ids and keys base64url-encoded)."""

    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    label: str
    created: float
    used: float | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    """A passkey ceremony under way: what it is for, for which account (None: a sign-in that
    does not say whose), and the challenge sent to the browser."""

    purpose: str
    account_id: str | None
    challenge: str


class AccountStore(Protocol):
    """The accounts' part of the :class:`~.base.Store`."""

    # -- accounts ---------------------------------------------------------------------------
    async def create_account(
        self, account_id: str, name: str, password_hash: str | None
    ) -> AccountRecord:
        """Store a new account; :class:`~.base.AccountNameTaken` if an account's name has the same
        ``name_key``."""
        ...

    async def account(self, account_id: str) -> AccountRecord | None: ...

    async def account_by_name(self, name: str) -> AccountRecord | None:
        """The account whose name reads like ``name`` (``names.name_key``), or None."""
        ...

    async def password_hash(self, account_id: str) -> str | None:
        """The account's password hash (None: it has none, or no such account)."""
        ...

    async def set_password_hash(self, account_id: str, password_hash: str) -> bool:
        """Replace the account's password hash; False if there is no such account."""
        ...

    async def set_account_flags(
        self, account_id: str, *, suspended: bool | None = None, admin: bool | None = None
    ) -> AccountRecord | None:
        """Suspend or unsuspend, grant or revoke admin (None: unchanged); the account after,
        or None if there is no such account."""
        ...

    async def list_accounts(self, limit: int, after: str = "") -> list[AccountRecord]:
        """Up to ``limit`` accounts by name key, from the one after the key ``after`` on."""
        ...

    async def delete_account(self, account_id: str, shown_as: str) -> list[str] | None:
        """Delete an account, its sessions, passkeys and ceremonies; its seats in stored games
        keep their place but belong to nobody and are called ``shown_as`` (the change of those
        tables is announced). The ids of those tables, or None if there was no such account."""
        ...

    async def account_seats(self, account_id: str) -> list[tuple[str, int]]:
        """The seats ``(table_id, seat)`` an account owns, oldest table first."""
        ...

    # -- sessions ---------------------------------------------------------------------------
    async def create_session(
        self, id_hash: str, account_id: str, csrf: str, lifetime: float, agent: str = ""
    ) -> SessionRecord:
        """Store a new session, valid for ``lifetime`` seconds (by the database's clock)."""
        ...

    async def session(self, id_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        """The unexpired session with this digest and its account, or None."""
        ...

    async def renew_session(self, id_hash: str, lifetime: float) -> SessionRecord | None:
        """Make the session valid for ``lifetime`` seconds from now; None if it expired."""
        ...

    async def delete_session(self, id_hash: str) -> bool: ...

    async def account_sessions(self, account_id: str) -> list[SessionRecord]:
        """The account's unexpired sessions, the most recently renewed first."""
        ...

    async def delete_sessions(
        self, account_id: str, keep: str | None = None, public_id: str | None = None
    ) -> int:
        """Delete the account's sessions, but the one whose digest is ``keep``; with
        ``public_id``, only that one (:attr:`SessionRecord.public_id`). How many went."""
        ...

    # -- brute-force throttling -------------------------------------------------------------
    async def sign_in_failures(self, keys: Sequence[str], within: float) -> dict[str, int]:
        """How many failed sign-ins each key (an account's name key, an address) had in the
        last ``within`` seconds (by the database's clock)."""
        ...

    async def add_sign_in_failure(self, keys: Sequence[str], keep: float) -> None:
        """Record a failed sign-in under each key; forget failures older than ``keep`` s."""
        ...

    async def clear_sign_in_failures(self, key: str) -> None: ...

    # -- passkeys ---------------------------------------------------------------------------
    async def add_passkey(self, passkey: PasskeyRecord) -> None:
        """Store a new credential; :class:`~.base.StoreConflict` if its id is known."""
        ...

    async def passkey(self, credential_id: str) -> PasskeyRecord | None: ...

    async def account_passkeys(self, account_id: str) -> list[PasskeyRecord]: ...

    async def passkey_used(self, credential_id: str, sign_count: int) -> None: ...

    async def delete_passkey(self, account_id: str, credential_id: str) -> bool: ...

    async def store_challenge(self, id_hash: str, challenge: Challenge, ttl: float) -> None:
        """Keep a ceremony's challenge for ``ttl`` seconds (any server may finish it)."""
        ...

    async def take_challenge(self, id_hash: str, purpose: str) -> Challenge | None:
        """The unexpired challenge of the ceremony with this digest and purpose, removed (a
        challenge serves once), or None."""
        ...


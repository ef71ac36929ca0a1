"""Moderation of the table talk by the server's admins (docs/server.md, "Chat"): the messages
readers reported, and what an admin does with one: delete it (it keeps its place without its
words; every socket reading it, on every server, gets it again so), suspend the account of its
author's seat (its sessions end), or dismiss the reports."""

from __future__ import annotations

from typing import Any

from .chat import Chat, message_json
from .errors import ApiError
from .storage import AccountRecord, ReportedMessage, Store
from .tables import Table

#: The reported messages the admins' list shows at most.
REPORTS_SHOWN = 100


def not_admin() -> ApiError:
    return ApiError(403, "not_admin", "this needs an admin account")


def ensure_admin(account: AccountRecord) -> None:
    """Refuse (``403 not_admin``) anyone but an admin."""
    if not account.admin:
        raise not_admin()


def unknown_message() -> ApiError:
    return ApiError(404, "unknown_message", "this table has no such message")


def reported_json(found: ReportedMessage) -> dict[str, Any]:
    """A reported message as the admins' list shows it (its words included: they judge them)."""
    return {
        "table_id": found.message.table_id,
        "message": message_json(found.message),
        "reports": found.reports,
        "reasons": list(found.reasons),
        "first_at": found.first_at,
        "author_account": found.author_account_name,
    }


class Moderation:
    def __init__(self, store: Store, chat: Chat, cached: Any) -> None:
        self._store = store
        self._chat = chat
        #: The table held in memory here, or None (``TableRegistry.cached``).
        self._cached = cached

    async def reports(self) -> list[dict[str, Any]]:
        return [reported_json(found) for found in await self._store.open_chat_reports(
            REPORTS_SHOWN
        )]

    async def delete(self, table_id: str, number: int) -> dict[str, Any]:
        """Remove the message's words and close its reports; pushed to this server's sockets at
        once (the others hear of it from storage)."""
        deleted = await self._store.delete_chat(table_id, number)
        if deleted is None:
            raise unknown_message()
        table: Table | None = self._cached(table_id)
        if table is not None:
            await self._chat.deliver_here(table, deleted)
        return {"table_id": table_id, "number": number, "action": "deleted"}

    async def suspend(self, table_id: str, number: int) -> dict[str, Any]:
        """Suspend the account of the seat that wrote the message (its sessions end) and close
        the message's reports; ``409 no_account`` if the author has none."""
        if await self._store.chat_message(table_id, number) is None:
            raise unknown_message()
        account_id = await self._store.chat_author_account(table_id, number)
        if account_id is None:
            raise ApiError(
                409, "no_account", "its author has no account (a guest or a spectator)"
            )
        changed = await self._store.set_account_flags(account_id, suspended=True)
        if changed is None:  # deleted meanwhile
            raise ApiError(409, "no_account", "its author's account no longer exists")
        ended = await self._store.delete_sessions(account_id)
        closed = await self._store.close_chat_reports(table_id, number)
        return {
            "table_id": table_id, "number": number, "action": "suspended",
            "account": changed.name, "sessions_ended": ended, "reports_closed": closed,
        }

    async def dismiss(self, table_id: str, number: int) -> dict[str, Any]:
        """Close the message's reports, leaving it as it is."""
        if await self._store.chat_message(table_id, number) is None:
            raise unknown_message()
        closed = await self._store.close_chat_reports(table_id, number)
        return {
            "table_id": table_id, "number": number, "action": "dismissed",
            "reports_closed": closed,
        }

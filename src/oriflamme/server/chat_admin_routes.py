"""The admins' routes of the chat's moderation (docs/server.md, "Chat"), for a signed-in
account with the admin flag (``oriflamme accounts grant-admin``): others get ``401
signed_out`` or ``403 not_admin``; the CSRF rule of the accounts applies to the POSTs.

- ``GET /api/admin/chat/reports`` — the reported messages not handled yet;
- ``POST /api/admin/chat/{table_id}/{number}/delete`` — remove a message's words;
- ``POST /api/admin/chat/{table_id}/{number}/suspend`` — suspend its author's account;
- ``POST /api/admin/chat/{table_id}/{number}/dismiss`` — close its reports.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends

from .chat_models import Moderated, ReportList
from .chat_moderation import Moderation, ensure_admin
from .chat_routes import NUMBER
from .deps import TABLE_ID, AccountDep, ManagerDep, error_answers
from .storage import AccountRecord


async def require_admin(account: AccountDep) -> AccountRecord:
    """The signed-in admin; ``401 signed_out``, ``403 not_admin`` for anyone else."""
    ensure_admin(account)
    return account


Admin = Depends(require_admin)


def _moderation(manager: ManagerDep) -> Moderation:
    return Moderation(manager.store, manager.chat, manager.cached)


ModerationDep = Annotated[Moderation, Depends(_moderation)]
_ERRORS = error_answers(401, 403, 404, 409, 422, 503)


def chat_admin_router() -> APIRouter:
    router = APIRouter(dependencies=[Admin])

    @router.get(
        "/api/admin/chat/reports",
        response_model=ReportList,
        responses=error_answers(401, 403, 503),
        summary="The reported chat messages not handled yet (admins)",
    )
    async def reports(moderation: ModerationDep) -> dict[str, Any]:
        return {"reports": await moderation.reports()}

    @router.post(
        "/api/admin/chat/{table_id}/{number}/{verb}",
        response_model=Moderated,
        response_model_exclude_none=True,
        responses=_ERRORS,
        summary="Delete a reported message, suspend its author, or dismiss its reports (admins)",
    )
    async def moderate(
        moderation: ModerationDep,
        table_id: Annotated[str, TABLE_ID],
        number: Annotated[int, NUMBER],
        verb: Literal["delete", "suspend", "dismiss"],
    ) -> dict[str, Any]:
        """``verb``: ``delete`` (the message keeps its place without its words, on every
        page at once), ``suspend`` (the account of its author's seat: ``409 no_account`` for a
        guest or a spectator) or ``dismiss``. Each closes the message's reports."""
        if verb == "delete":
            return await moderation.delete(table_id, number)
        if verb == "suspend":
            return await moderation.suspend(table_id, number)
        return await moderation.dismiss(table_id, number)

    return router

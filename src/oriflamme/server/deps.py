"""What the route modules share: the table id in a path, the documented error answers, the
table manager and the table a request names, who the client is (its address; the signed-in
account: :func:`signed_in`, :func:`require_account`), and how a page is served."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection

from . import log_context
from .accounts.current import ensure_active, require_account, signed_in
from .addresses import client_key, origin_digest
from .errors import ApiError
from .limits import PAGE_POLICY
from .manager import TableManager
from .protocol import ErrorBody
from .storage import AccountRecord
from .tables import Table

__all__ = [
    "STATIC_DIR",
    "TABLE_ID",
    "AccountDep",
    "ManagerDep",
    "SignedInDep",
    "TableDep",
    "address_key",
    "client_host",
    "ensure_active",
    "error_answers",
    "manager_of",
    "origin_of",
    "page",
    "require_account",
    "signed_in",
    "table_of",
]

STATIC_DIR = Path(__file__).parent / "static"
TABLE_ID = PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="the table's id")


def error_answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's error answers (``{"error": {code, message}}``)."""
    return {status: {"model": ErrorBody} for status in statuses}


def manager_of(connection: HTTPConnection) -> TableManager:
    """This server's table manager (made when the app starts)."""
    manager: TableManager = connection.app.state.manager
    return manager


async def table_of(request: Request, table_id: Annotated[str, TABLE_ID]) -> Table:
    """The table the path names; ``404 unknown_table`` if none."""
    log_context.about(table_id)
    return await manager_of(request).get(table_id)


ManagerDep = Annotated[TableManager, Depends(manager_of)]
TableDep = Annotated[Table, Depends(table_of)]
#: The signed-in account, or None for a guest (an expired session, a suspended account).
SignedInDep = Annotated[AccountRecord | None, Depends(signed_in)]
#: The signed-in account; ``401 signed_out`` for anyone else.
AccountDep = Annotated[AccountRecord, Depends(require_account)]


def client_host(request: Request) -> str:
    return request.client.host if request.client else "?"


def address_key(request: Request) -> str:
    """The key the client's address counts under for rate limits (an IPv6 client's /64)."""
    return client_key(client_host(request))


def origin_of(request: Request) -> str:
    """A digest of the client's address, an IPv6 client's /64 (per-address quotas keep no
    address in clear)."""
    return origin_digest(client_host(request))


def page(static_dir: Path, name: str) -> FileResponse:
    """The page ``name`` of ``static_dir``, never cached without asking, under the pages'
    content security policy; ``404 not_found`` if it is not installed."""
    path = static_dir / name
    if not path.is_file():
        raise ApiError(404, "not_found", "this page is not installed")
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": PAGE_POLICY}
    return FileResponse(path, headers=headers)

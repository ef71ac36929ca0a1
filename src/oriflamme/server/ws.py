"""The WebSocket of a seat or spectator: views pushed on every change, actions received.

Each connection has two tasks: one reads and handles the client's messages (throttled, size
checked, errors answered), the other sends: replies first, then the latest view when the table
changed (unless it is the view already sent). A table only flags its connections, so a slow
client delays nobody else; views are encoded once per change and shared (``views.view_text``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import log_context, metrics
from .errors import UNAVAILABLE, ApiError, QuietLog
from .limits import MAX_DEPTH, json_depth
from .manager import TableManager
from .protocol import MAX_GAME, MAX_STEP
from .storage import StoreUnavailable
from .tables import Identity, Role, Table
from .tasks import spawn
from .throttle import TokenBucket
from .views import view_for
from .ws_refusals import RefusalLog

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)
#: The refusals of connections (a bad token, an unknown table), all connections together.
refused_connections = RefusalLog()

MAX_MESSAGE = 4096  #: bytes of one client message
SEND_TIMEOUT = 10.0  #: seconds a client may take to accept one message
CLOSE_TIMEOUT = 1.0  #: seconds the close of a connection that cannot receive may wait
MAX_REPLIES = 32  #: replies waiting to be sent; older ones are dropped
LANGS = ("en", "fr")
#: The close code of a connection refused for now (RFC 6455 "Try Again Later"): the client
#: connects again after a pause.
TRY_AGAIN_LATER = 1013
#: The close code of a connection this process hands over as it drains ("Service Restart"):
#: the client reconnects at once, to any process (``draining``).
SERVICE_RESTART = 1012


def _error(code: str, message: str) -> dict[str, str]:
    error = {"type": "error", "code": code, "message": message}
    request_id = log_context.REQUEST_ID.get()
    if request_id is not None:
        error["request_id"] = request_id
    return error


class Connection:
    """One open WebSocket following a table as ``identity``."""

    def __init__(
        self,
        socket: WebSocket,
        manager: TableManager,
        table: Table,
        identity: Identity,
        lang: str,
        bucket: TokenBucket,
    ) -> None:
        self.identity = identity
        self._socket = socket
        self._manager = manager
        self._table = table
        self._lang = lang
        self._bucket = bucket
        self._throttled = False
        self._dirty = True
        self._sent: str | None = None  #: the last view sent (its text but the server's clock)
        self._delivered = -1  #: the step of the last action whose delivery was timed
        self._replies: deque[dict[str, Any]] = deque(maxlen=MAX_REPLIES)
        self._refusals = RefusalLog()
        self._wake = asyncio.Event()
        self._wake.set()
        self._handing_over = False

    def notify(self) -> None:
        """The table changed: send a fresh view soon."""
        self._dirty = True
        self._wake.set()

    def resend(self) -> None:
        """Send the current view soon, even if this socket has it already."""
        self._sent = None
        self.notify()

    def push(self, message: dict[str, Any]) -> None:
        """Send a chat message soon (after the replies waiting)."""
        self._reply(message)

    def hand_over(self) -> None:
        """This process drains: send what is waiting, then close with :data:`SERVICE_RESTART`
        (the sending task closes it, so nothing is sent after the close)."""
        self._handing_over = True
        self._wake.set()

    def _reply(self, message: dict[str, Any]) -> None:
        self._replies.append(message)
        self._wake.set()

    async def run(self) -> None:
        """Serve the connection until the client leaves, or cannot take what is sent to it
        (then it is disconnected even while it still sends: the table forgets it)."""
        self._manager.add_listener(self._table, self)
        sockets = metrics.SOCKETS.labels(
            metrics.SEAT if self.identity.role is Role.SEAT else metrics.SPECTATOR
        )
        sockets.inc()
        sender = spawn(self._send_loop(), f"ws-send:{self._table.id}")
        receiver = asyncio.ensure_future(self._receive_loop())
        try:
            await asyncio.wait((sender, receiver), return_when=asyncio.FIRST_COMPLETED)
            if self._handing_over and not receiver.done():
                # Handed over: the message being handled (an action being stored) is finished,
                # not cut short; then the client's close ends the receiving task.
                await asyncio.wait((receiver,), timeout=SEND_TIMEOUT)
            if receiver.done():
                receiver.result()
        finally:
            sender.cancel()
            receiver.cancel()
            self._manager.remove_listener(self._table, self)
            sockets.dec()

    # -- sending ---------------------------------------------------------------------------
    async def _send(self, text: str) -> None:
        await asyncio.wait_for(self._socket.send_text(text), SEND_TIMEOUT)

    async def _send_loop(self) -> None:
        """Send replies and fresh views; a client that cannot take them is disconnected."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._replies:
                    await self._send(json.dumps(self._replies.popleft()))
                if self._handing_over:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(
                            self._socket.close(code=SERVICE_RESTART), CLOSE_TIMEOUT
                        )
                    return
                if self._dirty:
                    self._dirty = False
                    view = view_for(self._table, self.identity, self._lang)
                    # The same view but for the server's clock is not sent again.
                    content = view[: view.rfind(',"server_time":')]
                    if content != self._sent:
                        self._sent = content
                        await self._send(f'{{"type":"view","view":{view}}}')
                        self._timed_delivery()
        except (OSError, RuntimeError, TimeoutError, WebSocketDisconnect) as exc:
            log.info(
                "table %s: dropping a connection that cannot receive (%r)", self._table.id, exc
            )
        except Exception:
            log.exception("table %s: sending to a connection failed", self._table.id)
        # A client that does not read never takes the close frame either: do not wait for it.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._socket.close(code=1011), CLOSE_TIMEOUT)

    def _timed_delivery(self) -> None:
        """A view was sent: if it is the first to show the last action applied here, time it
        from the action's arrival (a view sent later, for a later change, is not)."""
        arrival = self._table.arrival
        if arrival is not None and arrival[0] > self._delivered:
            self._delivered = arrival[0]
            if arrival[0] == len(self._table.game.history):
                metrics.view_delivered(arrival[1])

    # -- receiving -------------------------------------------------------------------------
    async def _receive_loop(self) -> None:
        while True:
            message = await self._socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            log_context.begin()  # each message is a request of its own
            log_context.about(self._table.id, self.identity.seat)
            if not self._bucket.take():
                if not self._throttled:
                    self._refuse("too_many_requests", "too many messages: slow down")
                self._throttled = True
                continue
            self._throttled = False
            raw = message.get("text")
            size = len(raw.encode()) if isinstance(raw, str) else len(message.get("bytes") or b"")
            if size > MAX_MESSAGE:
                self._refuse("too_large", f"a message is at most {MAX_MESSAGE} bytes")
                continue
            try:
                await self._handle(raw if isinstance(raw, str) else message.get("bytes") or b"")
            except ApiError as exc:
                self._refuse(exc.code, exc.message)
            except StoreUnavailable:
                metrics.DB_ERRORS.inc()
                self._refusals.refused("database_unavailable")
                self._reply(_error("database_unavailable", UNAVAILABLE))
            except Exception as exc:
                quiet.error("ws", "table %s: message handling failed", self._table.id, exc=exc)
                self._reply(_error("internal_error", "the server failed to handle this message"))

    def _refuse(self, code: str, message: str) -> None:
        """Answer the message being handled with an error (counted, and logged)."""
        metrics.rejected(code)
        self._refusals.refused(code)
        self._reply(_error(code, message))

    async def _handle(self, raw: str | bytes) -> None:
        encoded = raw.encode("utf-8", "replace") if isinstance(raw, str) else raw
        if json_depth(encoded) > MAX_DEPTH:
            raise ApiError(400, "bad_json", f"a message is nested at most {MAX_DEPTH} levels deep")
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise ApiError(400, "bad_json", "a message is a JSON object") from None
        if not isinstance(data, dict):
            raise ApiError(400, "bad_json", "a message is a JSON object")
        kind = data.get("type")
        if kind == "ping":
            self._reply({"type": "pong"})
        elif kind == "lang":
            if data.get("lang") not in LANGS:
                raise ApiError(400, "bad_lang", "lang is 'en' or 'fr'")
            self._lang = data["lang"]
            self.notify()
        elif kind == "chat":
            writer = f"seat{self.identity.seat}" if self.identity.seat is not None else (
                f"socket{id(self)}"
            )
            await self._manager.chat.post(self._table, self.identity, data, writer)
        elif kind == "act":
            step, number = data.get("step"), data.get("game_number")
            for value, bound in ((step, MAX_STEP), (number, MAX_GAME)):
                if value is None:
                    continue
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= bound:
                    raise ApiError(
                        400, "malformed_action", "step and game_number are small whole numbers"
                    )
            again = await self._manager.act(
                self._table, self.identity, data.get("action"), step, number
            )
            if again:  # sent again after its answer was lost: the answer is the view, again
                self.resend()
        else:
            raise ApiError(400, "unknown_type", "type is 'act', 'chat', 'lang' or 'ping'")


async def serve_socket(
    socket: WebSocket,
    manager: TableManager,
    table_id: str,
    token: str,
    lang: str | None,
    bucket: TokenBucket,
) -> None:
    """Accept a connection, check its table and token, and serve it. A refusal is an error
    message, then a close code: 4000 + its HTTP status when retrying cannot help (a bad token,
    an unknown table), :data:`TRY_AGAIN_LATER` when it can (the database away)."""
    await socket.accept()
    log_context.about(table_id)
    if manager.draining:  # this process is going away: another one serves it (``draining``)
        with contextlib.suppress(OSError, RuntimeError, WebSocketDisconnect):
            await socket.close(code=SERVICE_RESTART)
        return
    try:
        table = await manager.get(table_id)
        identity = await manager.identify(table, token)
        connection = Connection(
            socket, manager, table, identity, lang if lang in LANGS else table.lang, bucket
        )
        await connection.run()
    except ApiError as exc:
        refused_connections.refused(exc.code, "connection")
        await _refuse(socket, _error(exc.code, exc.message), 4000 + exc.status)
    except StoreUnavailable as exc:
        quiet.warning("ws-open", "table %s: connection refused: %s", table_id, exc)
        await _refuse(socket, _error("database_unavailable", UNAVAILABLE), TRY_AGAIN_LATER)
    except Exception as exc:
        quiet.error("ws-open", "table %s: a connection failed", table_id, exc=exc)
        await _refuse(socket, _error("internal_error", "the server failed"), 1011)


async def _refuse(socket: WebSocket, error: dict[str, str], code: int) -> None:
    with contextlib.suppress(OSError, RuntimeError, WebSocketDisconnect):  # the client left
        await socket.send_text(json.dumps(error))
        await socket.close(code=code)

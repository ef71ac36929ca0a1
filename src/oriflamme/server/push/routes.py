"""The push API (docs/server.md, "Push notifications"): ``GET /api/push/key``, the server's
public VAPID key; ``GET``, ``POST`` and ``DELETE /api/push/subscriptions``, a signed-in
player's browsers that get pushes, one subscribing, one no longer (the session cookie, and
the CSRF rule of every state-changing request); ``GET /push-worker.js``, the service worker,
served at the site's root so that its scope covers every page."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from ..accounts.current import answers, ensure_active, posts_limited, require_account
from ..errors import ApiError
from ..storage import AccountRecord
from ..storage.push_records import PushSubscription
from .service import PushService
from .subscriptions import MAX_ENDPOINT, MAX_PER_ACCOUNT, check_endpoint, check_keys

#: The service worker's file (in the static folder) and where it is served.
WORKER_FILE = "push-worker.js"
WORKER_PATH = "/push-worker.js"

AccountDep = Annotated[AccountRecord, Depends(require_account)]
Key = Annotated[str, Field(min_length=1, max_length=256)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PushKey(BaseModel):
    key: str = Field(description="the server's VAPID public key (applicationServerKey), base64url")


class SubscriptionIn(_Strict):
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT,
                          description="the push service's URL for this browser (https)")
    p256dh: Key = Field(description="the browser's P-256 public key, base64url")
    auth: Key = Field(description="the browser's 16-byte secret, base64url")


class EndpointIn(_Strict):
    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)


class SubscriptionOut(BaseModel):
    endpoint: str
    agent: str = Field(description="the browser that subscribed (its User-Agent)")


class SubscriptionsOut(BaseModel):
    subscriptions: list[SubscriptionOut]


class PushDone(BaseModel):
    done: bool = True


def push_of(request: Request) -> PushService:
    service: PushService = request.app.state.push
    return service


def push_router(static_dir: Path, rate: float, burst: float) -> APIRouter:
    """The routes; an address may POST ``rate`` subscriptions a second (bursts of ``burst``)."""
    router = APIRouter()
    limited = Depends(posts_limited(rate, burst))

    @router.get("/api/push/key", response_model=PushKey, summary="The server's push key")
    async def push_key(request: Request) -> PushKey:
        """The public key a browser subscribes with (``applicationServerKey``)."""
        return PushKey(key=push_of(request).keys.public)

    @router.get(
        "/api/push/subscriptions", response_model=SubscriptionsOut, responses=answers(401),
        summary="The browsers that get the signed-in player's pushes",
    )
    async def subscriptions(request: Request, account: AccountDep) -> SubscriptionsOut:
        """The account's push subscriptions, oldest first."""
        found = await push_of(request).store.push_subscriptions(account.account_id)
        return SubscriptionsOut(subscriptions=[
            SubscriptionOut(endpoint=s.endpoint, agent=s.agent) for s in found
        ])

    @router.post(
        "/api/push/subscriptions", status_code=201, response_model=PushDone,
        responses=answers(401, 403, 409, 422, 429), dependencies=[limited],
        summary="Get \"your turn\" pushes in this browser",
    )
    async def subscribe(
        body: SubscriptionIn, request: Request, account: AccountDep
    ) -> PushDone:
        """Store this browser's push subscription for the signed-in account (again: replaced)."""
        ensure_active(account)
        push = push_of(request)
        endpoint = check_endpoint(body.endpoint, push.settings.loopback_http)
        check_keys(body.p256dh, body.auth)
        agent = request.headers.get("user-agent", "")[:200]
        subscription = PushSubscription(endpoint, account.account_id, body.p256dh, body.auth,
                                        agent)
        if not await push.store.add_push_subscription(subscription, MAX_PER_ACCOUNT):
            raise ApiError(409, "too_many_subscriptions",
                           f"an account may get pushes in {MAX_PER_ACCOUNT} browsers at most:"
                           " turn them off in one of the others")
        return PushDone()

    @router.delete(
        "/api/push/subscriptions", response_model=PushDone, responses=answers(401, 404, 422),
        summary="Stop \"your turn\" pushes in this browser",
    )
    async def unsubscribe(body: EndpointIn, request: Request, account: AccountDep) -> PushDone:
        """Remove this browser's subscription (one of the signed-in account's)."""
        if not await push_of(request).store.remove_push_subscription(
            body.endpoint, account.account_id
        ):
            raise ApiError(404, "no_subscription", "this browser has no push subscription here")
        return PushDone()

    @router.get(WORKER_PATH, include_in_schema=False)
    async def worker() -> FileResponse:
        return FileResponse(static_dir / WORKER_FILE, media_type="text/javascript",
                            headers={"cache-control": "no-cache"})

    return router

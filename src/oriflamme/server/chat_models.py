"""The requests and answers of the chat's routes beyond the history (mutes, reports, a game's
talk for its replay, moderation), and who a report comes from."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .errors import ApiError
from .protocol import ChatMessage, Token
from .storage import AccountRecord
from .tables import Identity, Role

#: The longest reason a report may give, in characters.
MAX_REASON = 200


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MuteRequest(_Strict):
    token: Token = Field(description="your seat's token")
    seat: int = Field(ge=0, le=4, description="the seat to mute or unmute")
    muted: bool = Field(True, description="true: mute; false: unmute")


class Mutes(BaseModel):
    muted: list[int] = Field(description="the seats you muted now")


class ReportRequest(_Strict):
    token: Token = Field(description="a seat or spectator token of the table")
    reason: str = Field("", max_length=4 * MAX_REASON, description="why (optional, 200 chars)")


class Reported(BaseModel):
    table_id: str
    number: int


class GameChat(BaseModel):
    game_number: int
    messages: list[ChatMessage] = Field(
        description="the players' messages written during the game, oldest first"
    )


class ReportedMessageOut(BaseModel):
    table_id: str
    message: ChatMessage
    reports: int = Field(description="how many readers reported it")
    reasons: list[str]
    first_at: float = Field(description="when it was first reported (epoch seconds)")
    author_account: str | None = Field(
        description="the name of the account of its author's seat (null: a guest, a spectator)"
    )


class ReportList(BaseModel):
    reports: list[ReportedMessageOut] = Field(description="open reports, longest waiting first")


class Moderated(BaseModel):
    table_id: str
    number: int
    action: Literal["deleted", "suspended", "dismissed"]
    account: str | None = Field(None, description="the suspended account's name")
    sessions_ended: int = 0
    reports_closed: int = 0


def clean_reason(reason: str) -> str:
    """A report's reason, normalised and trimmed; ``400 invalid_reason`` if too long or with
    control or invisible characters."""
    cleaned = unicodedata.normalize("NFC", reason).strip()
    if len(cleaned) > MAX_REASON:
        raise ApiError(400, "invalid_reason", f"a reason is at most {MAX_REASON} characters")
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"} for ch in cleaned):
        raise ApiError(400, "invalid_reason", "a reason may not hold control characters")
    return cleaned


def reporter_key(identity: Identity, account: AccountRecord | None, address: str) -> str:
    """Who reports, once per message: the signed-in account, else the seat, else (spectators
    share one token) the address."""
    if account is not None:
        return f"account:{account.account_id}"
    if identity.role is Role.SEAT:
        return f"seat:{identity.seat}"
    return f"address:{address}"


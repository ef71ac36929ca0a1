"""Requests and answers of the accounts' API (strict, as every request of the server)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..names import name_key
from ..protocol import ChosenName
from .passwords import MAX_LENGTH

#: How a deleted account's seats are named (nobody may take this name).
DELETED_PLAYER = "deleted player"

Password = Annotated[str, Field(min_length=1, max_length=MAX_LENGTH)]
#: A name as typed at sign-in (checked against the accounts, not against the rules of names).
TypedName = Annotated[str, Field(min_length=1, max_length=96)]


def not_reserved(name: str) -> str:
    if name_key(name) == DELETED_PLAYER:
        raise ValueError(f"'{DELETED_PLAYER}' is what the server calls deleted accounts")
    return name


class _Strict(BaseModel):
    """No unknown field, and no conversion (as the tables' requests)."""

    model_config = ConfigDict(extra="forbid", strict=True)


AccountName = Annotated[ChosenName, AfterValidator(not_reserved)]


class SignUpRequest(_Strict):
    name: AccountName = Field(description="display name, 1–24 characters, unique")
    password: Password = Field(description="at least 8 characters, not a common password")


class SignInRequest(_Strict):
    name: TypedName
    password: Password


class SignOutRequest(_Strict):
    everywhere: bool = Field(False, description="end every session of the account")


class ChangePasswordRequest(_Strict):
    current: Password
    new: Password


class DeleteAccountRequest(_Strict):
    password: Password = Field(description="the account's password, to confirm")


class RevokeRequest(_Strict):
    session: str | None = Field(
        None, max_length=16, description="the id of one session (from the list)"
    )
    others: bool = Field(False, description="every session but this one")


class AccountOut(BaseModel):
    id: str
    name: str
    created: float
    admin: bool
    csrf: str = Field(description="send it as X-CSRF-Token with state-changing requests")
    has_password: bool = True


class SignedInOut(BaseModel):
    account: AccountOut | None = Field(description="null for a guest")


class SessionOut(BaseModel):
    id: str
    created: float
    seen: float
    expires: float
    agent: str
    current: bool


class SessionsOut(BaseModel):
    sessions: list[SessionOut]


class PasskeyOut(BaseModel):
    id: str
    label: str
    created: float
    used: float | None


class PasskeysOut(BaseModel):
    passkeys: list[PasskeyOut]


class CeremonyOut(BaseModel):
    ceremony: str = Field(description="send it back with the browser's answer")
    options: dict[str, Any] = Field(description="for navigator.credentials (JSON form)")


class RegisterPasskeyRequest(_Strict):
    ceremony: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any] = Field(description="the browser's credential, as JSON")
    label: str = Field("", max_length=60)


class PasskeySignInRequest(_Strict):
    ceremony: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any]


class Done(BaseModel):
    done: bool = True
    count: int = 0

"""Request and response models of the HTTP API, and the view a seat or spectator receives.

Every user text (display names) is validated here: 1 to 24 characters after trimming, no control
or format characters. Texts are returned as data; escaping them is the client's job.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from .tables import HUMAN, OPEN
from .views import LOG_LINES

NAME_MAX = 24
#: Bounds of the numbers a client sends (storage keeps them as 32-bit integers).
MAX_STEP, MAX_GAME = 100_000, 2**31 - 1
TOKEN_MAX = 64
#: Fields a table created from a save takes from the save, not from the request.
SAVED_FIELDS = ("cards", "variant", "edition", "first_player", "seed")

Lang = Literal["en", "fr"]
Level = Literal["easy", "medium", "hard", "expert", "random"]
Token = Annotated[str, Field(min_length=1, max_length=TOKEN_MAX)]

_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_ZERO_WIDTH_JOINER = "\u200d"  # allowed: it builds emoji sequences


def clean_name(text: str) -> str:
    """A display name, normalised (NFC) and trimmed; ValueError if empty, long or unsafe."""
    name = unicodedata.normalize("NFC", text).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise ValueError(f"a name is 1 to {NAME_MAX} characters")
    for ch in name:
        if ch != _ZERO_WIDTH_JOINER and unicodedata.category(ch) in _REFUSED_CATEGORIES:
            raise ValueError("a name may not contain control or invisible characters")
    return name


DisplayName = Annotated[str, Field(max_length=4 * NAME_MAX), AfterValidator(clean_name)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- requests -------------------------------------------------------------------------------
class HumanSeatIn(_Strict):
    kind: Literal["human"]
    name: DisplayName = Field(description="display name, 1–24 characters")


class BotSeatIn(_Strict):
    kind: Literal["bot"]
    level: Level = "medium"
    name: DisplayName | None = Field(None, description='default "<Colour> bot (<level>)"')


class OpenSeatIn(_Strict):
    kind: Literal["open"]


SeatIn = Annotated[HumanSeatIn | BotSeatIn | OpenSeatIn, Field(discriminator="kind")]

#: Bounds of a turn clock and of an allowed absence, in seconds (a week; two days).
CLOCK_MIN, CLOCK_MAX = 2, 7 * 86400
ABSENT_MIN, ABSENT_MAX = 2, 2 * 86400


class ClockIn(_Strict):
    per_decision: int = Field(
        ge=CLOCK_MIN, le=CLOCK_MAX, description="seconds a human has for each decision"
    )


class CreateTableRequest(_Strict):
    players: int = Field(ge=2, le=5)
    cards: (
        Literal["base", "embrasement"]
        | list[Annotated[str, Field(max_length=32, pattern="^[^,]*$")]]
    ) = Field("base", description='"base", "embrasement" or 10 card slugs', max_length=16)
    variant: Literal["standard", "two-families"] | None = None
    edition: Literal["revised", "first"] = "revised"
    first_player: int | None = Field(0, description="seat that starts, or null for random")
    lang: Lang = "en"
    seats: list[SeatIn] = Field(min_length=2, max_length=5, description="one per player")
    seed: int | None = Field(None, ge=0, lt=2**62, description="random when null")
    public: bool = Field(False, description="listed in the lobby while seats are open")
    clock: ClockIn | None = Field(None, description="a turn clock; null: none")
    stand_in: Level = Field(
        "medium", description="the bot that plays for a human whose clock ran out or who is away"
    )
    absent_after: int | None = Field(
        120,
        ge=ABSENT_MIN,
        le=ABSENT_MAX,
        description="seconds a player may be disconnected at their decision before the stand-in"
        " plays it; null: never",
    )
    hints: bool = Field(False, description="a learning table: human seats may ask for hints")
    save: dict[str, Any] | None = Field(
        None,
        description="continue this game: a save (Game.save()), a position or a replay "
        "(docs/formats.md); the game's configuration is then the save's",
    )

    @model_validator(mode="after")
    def _check_seats(self) -> CreateTableRequest:
        if len(self.seats) != self.players:
            raise ValueError(f"seats: {self.players} players need {self.players} seats")
        if not any(seat.kind in (HUMAN, OPEN) for seat in self.seats):
            raise ValueError("seats: at least one seat must be human or open")
        if self.public and not any(seat.kind == OPEN for seat in self.seats):
            raise ValueError("public: a public table needs at least one open seat")
        if self.save is not None:
            for name in SAVED_FIELDS:
                if name in self.model_fields_set:
                    raise ValueError(f"{name}: not allowed with save (the save sets it)")
        return self


class ActRequest(_Strict):
    token: Token
    action: Any = Field(description="the action's JSON form, as in the view's `legal` list")
    step: int | None = Field(
        None, ge=0, le=MAX_STEP, description="actions of this game the client has seen"
    )
    game_number: int | None = Field(
        None, ge=1, le=MAX_GAME, description="the game the client has seen"
    )


class BotRequest(_Strict):
    creator_token: Token
    level: Level = "medium"


class JoinRequest(_Strict):
    name: DisplayName = Field(description="display name, 1–24 characters")
    seat: int | None = Field(None, ge=0, le=4, description="the seat to take; null: the first open")


class CloseRequest(_Strict):
    creator_token: Token


class RematchRequest(_Strict):
    token: Token
    game_number: int | None = Field(
        None,
        ge=1,
        le=MAX_GAME,
        description="the game that ended; if a newer one already started, it is returned",
    )


# -- responses ------------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class Health(BaseModel):
    status: Literal["ok"]
    server: str = Field(description="this server process's id (several may share a database)")
    bots_playing: int = Field(description="bot decisions this process is thinking about")


class SeatCreated(BaseModel):
    seat: int
    kind: str
    name: str
    level: str | None = None
    token: str | None = Field(None, description="private token of a human seat")
    url: str | None = Field(None, description="the seat's private invite link")


class JoinResponse(BaseModel):
    table_id: str
    seat: int
    name: str
    token: str = Field(description="the seat's private token; shown once")
    url: str = Field(description="the seat's private link")


class LobbySeat(BaseModel):
    seat: int
    kind: str = Field(description='"human", "bot" or "open"')
    name: str
    level: str | None = Field(None, description="a bot seat's level; null for a human or open")
    colour: str


class LobbyTable(BaseModel):
    table_id: str
    players: int
    cards: str = Field(description='"base", "embrasement", or the ten card slugs, comma-separated')
    variant: str = Field(description='"standard" or "two-families" (2 players)')
    edition: str = Field(description='"revised" or "first"')
    lang: str = Field(description="the table's language")
    seats: list[LobbySeat]
    open_seats: list[int]
    clock: float | None = Field(description="seconds per decision, or null")
    stand_in: str = Field(description="the bot level that plays for a late or absent player")
    absent_after: float | None = Field(
        description="seconds a disconnected player keeps their decision before the stand-in"
        " plays it; null: never"
    )
    hints: bool = Field(description="a learning table: its players may ask for hints")
    age: float | None = Field(
        description="seconds since the table was created (null: a table not listed, reached by"
        " its join link)"
    )
    closed: bool = Field(
        default=False, description="closed by its creator (only a join link shows it)"
    )


class LobbyPage(BaseModel):
    tables: list[LobbyTable] = Field(
        description="each creator's newest table first, then each one's second newest, …"
    )
    next: str | None = Field(description="the cursor of the next page (null: the last page)")


class CreateTableResponse(BaseModel):
    table_id: str
    creator_token: str = Field(description="lets its holder hand seats to bots; shown once")
    spectator_token: str
    spectator_url: str
    seats: list[SeatCreated]


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: str
    level: str | None
    connected: bool
    away: bool = Field(description="disconnected too long at their decision: a bot plays it")
    colour: str


class ClockView(BaseModel):
    per_decision: float
    deadline: float | None = Field(
        description="when the current human decision's time runs out (server epoch seconds)"
    )


class WaitingFor(BaseModel):
    seat: int
    name: str
    kind: str


class ResultInfo(BaseModel):
    scores: list[int]
    queue_cards: list[int]
    winners: list[int]


class LegalOption(BaseModel):
    action: dict[str, Any]
    label: str


class View(BaseModel):
    """What one seat (or a spectator) may see of the table's current game."""

    table_id: str
    game_number: int
    step: int = Field(description="actions applied in this game")
    you: int | None = Field(description="your seat, or null for a spectator")
    lang: str
    seats: list[SeatInfo]
    observation: dict[str, Any] = Field(description="Game.observe(you): see docs/api.md")
    prompt: str
    legal: list[LegalOption] = Field(description="empty unless it is your decision")
    log: list[str] = Field(description=f"the last {LOG_LINES} log lines, as you may see them")
    cards: dict[str, str] = Field(description="a label for every card id in the view")
    result: ResultInfo | None
    scores_by_round: list[list[int]]
    waiting_for: WaitingFor | None
    waiting_for_players: bool = Field(description="open seats: the game has not started")
    closed: bool = Field(description="closed by its creator before it started")
    clock: ClockView | None
    server_time: float = Field(description="the server's clock as it sent this view")
    hints: bool = Field(False, description="a learning table: you may ask for hints")


class TableSummary(BaseModel):
    table_id: str
    game_number: int
    step: int
    over: bool
    seats: list[SeatInfo]
    public: bool
    clock: float | None
    absent_after: float | None
    stand_in: str
    open_seats: list[int]
    closed: bool
    hints: bool = Field(False, description="a learning table (hints)")


class CardInfo(BaseModel):
    name: str
    kind: str
    text: str
    notes: str

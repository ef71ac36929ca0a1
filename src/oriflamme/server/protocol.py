"""Request and response models of the HTTP API, and the view a seat or spectator receives.

Requests are strict, like the WebSocket's messages: a number is a JSON number, a flag a JSON
boolean (``"5"``, ``true`` for a number, ``1`` for a flag: ``422 invalid_request``). Every user
text (display names) is validated here (:mod:`.names`). Texts are returned as data; escaping
them is the client's job.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from .absence import NO_SHOW_DEFAULT
from .names import NAME_MAX, clean_name, is_bot_label, name_key
from .tables import HUMAN, OPEN
from .views import LOG_LINES

#: Bounds of the numbers a client sends (storage keeps them as 32-bit integers).
MAX_STEP, MAX_GAME = 100_000, 2**31 - 1
TOKEN_MAX = 64
#: Fields a table created from a save takes from the save, not from the request.
SAVED_FIELDS = ("cards", "variant", "edition", "first_player", "seed")

Lang = Literal["en", "fr"]
Level = Literal["easy", "medium", "hard", "expert", "random"]
Token = Annotated[str, Field(min_length=1, max_length=TOKEN_MAX)]

DisplayName = Annotated[str, Field(max_length=4 * NAME_MAX), AfterValidator(clean_name)]


def chosen_name(name: str) -> str:
    """A name someone chose: not a bot's label (``"Blue bot (hard)"``: the server names bots
    so)."""
    if is_bot_label(name):
        raise ValueError("names like '<Colour> bot (<level>)' are the bots' own")
    return name


ChosenName = Annotated[DisplayName, AfterValidator(chosen_name)]


class _Strict(BaseModel):
    """No unknown field, and no conversion: a number is a number, a flag a boolean."""

    model_config = ConfigDict(extra="forbid", strict=True)


# -- requests -------------------------------------------------------------------------------
class HumanSeatIn(_Strict):
    kind: Literal["human"]
    name: ChosenName | None = Field(
        None, description="display name, 1–24 characters (an account's seat: the account's)"
    )
    account: bool = Field(
        False, description="the signed-in creator's own seat: it belongs to their account"
    )

    @model_validator(mode="after")
    def _named(self) -> HumanSeatIn:
        if self.account and self.name is not None:
            raise ValueError("name: an account's seat has the account's name")
        if not self.account and self.name is None:
            raise ValueError("name: a human seat needs a name")
        return self


class BotSeatIn(_Strict):
    kind: Literal["bot"]
    level: Level = "medium"
    name: ChosenName | None = Field(None, description='default "<Colour> bot (<level>)"')


class OpenSeatIn(_Strict):
    kind: Literal["open"]


SeatIn = Annotated[HumanSeatIn | BotSeatIn | OpenSeatIn, Field(discriminator="kind")]

#: Bounds of a turn clock, of an allowed absence and of a no-show limit, in seconds (a week;
#: two days).
CLOCK_MIN, CLOCK_MAX = 2, 7 * 86400
#: The largest time bank (and increment), in seconds: 30 days.
BANK_MAX = 30 * 86400
ABSENT_MIN, ABSENT_MAX = 2, 2 * 86400


class ClockIn(_Strict):
    """A turn clock: seconds per decision, a time bank per seat (Fischer: ``bank`` and
    ``increment``), or a named ``preset`` (``server.time_bank``); ``"daily"`` alone stands for
    ``{"preset": "daily"}``."""

    per_decision: int | None = Field(
        None, ge=CLOCK_MIN, le=CLOCK_MAX, description="seconds a human has for each decision"
    )
    bank: float | None = Field(
        None, ge=0, le=BANK_MAX, description="a time bank: seconds each seat starts with"
    )
    increment: float | None = Field(
        None, ge=0, le=BANK_MAX, description="seconds added to a seat's bank after each decision"
    )
    preset: Literal["daily"] | None = Field(
        None, description='"daily": a bank of 3 days, and 1 day more after each decision'
    )

    @model_validator(mode="after")
    def _one_kind(self) -> ClockIn:
        banked = self.bank is not None or self.increment is not None
        if (self.per_decision is not None) + banked + (self.preset is not None) != 1:
            raise ValueError("give per_decision, bank and increment, or preset (one kind)")
        if banked:
            if self.bank is None or self.increment is None:
                raise ValueError("a time bank needs both bank and increment (seconds)")
            if self.bank + self.increment <= 0:
                raise ValueError("a time bank needs a bank or an increment above 0")
        return self


def _preset_form(value: object) -> object:
    return {"preset": value} if isinstance(value, str) else value


#: A table's clock as asked for; a preset's name stands for ``{"preset": name}``.
ClockChoice = Annotated[ClockIn, BeforeValidator(_preset_form)]


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
    clock: ClockChoice | None = Field(
        None,
        description='a turn clock: {"per_decision": N}, {"bank": S, "increment": I} or "daily"'
        " (a bank of 3 days, 1 day more after each decision); null: none",
    )
    stand_in: Level = Field(
        "medium", description="the bot that plays for a human whose clock ran out or who is away"
    )
    absent_after: int | None = Field(
        120,
        ge=ABSENT_MIN,
        le=ABSENT_MAX,
        description="seconds a player may be disconnected at their decision before the stand-in"
        " plays it; null: never (the default with a clock of an hour or more: the daily preset)",
    )
    no_show_after: int | None = Field(
        None,
        ge=ABSENT_MIN,
        le=ABSENT_MAX,
        description="seconds a seat whose player never connected keeps its decisions before the"
        f" stand-in plays them; default {NO_SHOW_DEFAULT:.0f} at tables with an open seat, null"
        " (never) elsewhere; null needs a clock where strangers can join",
    )
    hints: bool = Field(False, description="a learning table: human seats may ask for hints")
    rated: bool = Field(
        False,
        description="its games update the players' ratings: a server-drawn deal, no hints, every"
        " human seat an account (docs/server.md, Ratings)",
    )
    min_reputation: float | None = Field(
        None,
        ge=0,
        le=1,
        description="a public table: the reputation (share of games finished without leaving)"
        " an account needs to join; null: anyone",
    )
    chat: Literal["on", "open", "off"] = Field(
        "on",
        description='the table talk: "on" (seated players talk; spectators have their own'
        ' chat), "open" (spectators read the players\' chat too), "off" (no players\' chat)',
    )
    save: dict[str, Any] | None = Field(
        None,
        description="continue this game: a save (Game.save()), a position or a replay "
        "(docs/formats.md); the game's configuration is then the save's; refused at tables "
        "with an open seat",
    )

    @property
    def strangers_can_join(self) -> bool:
        """Whether anyone with the table's id may take a seat (an open seat)."""
        return any(seat.kind == OPEN for seat in self.seats)

    @property
    def custom_deal(self) -> bool:
        """Whether the creator chose the deal (a seed or a saved game)."""
        return self.seed is not None or self.save is not None

    def no_show_limit(self) -> float | None:
        """The table's no-show limit: as asked, or the default where strangers can join."""
        if "no_show_after" in self.model_fields_set:
            return None if self.no_show_after is None else float(self.no_show_after)
        return NO_SHOW_DEFAULT if self.strangers_can_join else None

    @model_validator(mode="after")
    def _check_seats(self) -> CreateTableRequest:
        if len(self.seats) != self.players:
            raise ValueError(f"seats: {self.players} players need {self.players} seats")
        if not any(seat.kind in (HUMAN, OPEN) for seat in self.seats):
            raise ValueError("seats: at least one seat must be human or open")
        if self.public and not self.strangers_can_join:
            raise ValueError("public: a public table needs at least one open seat")
        if self.min_reputation is not None and not self.public:
            raise ValueError("min_reputation: only a public table may require a reputation")
        if sum(1 for seat in self.seats if getattr(seat, "account", False)) > 1:
            raise ValueError("seats: one account seat at most (the creator's)")
        if self.save is not None:
            for name in SAVED_FIELDS:
                if name in self.model_fields_set:
                    raise ValueError(f"{name}: not allowed with save (the save sets it)")
        self._check_names()
        if self.strangers_can_join:
            self._check_fair_for_strangers()
        return self

    def _check_names(self) -> None:
        """No two seats of the table under one name."""
        seen: set[str] = set()
        for i, seat in enumerate(self.seats):
            name = getattr(seat, "name", None)
            if name is None:
                continue
            key = name_key(name)
            if key in seen:
                raise ValueError(f"seats.{i}.name: another seat of the table is called {name!r}")
            seen.add(key)

    def _check_fair_for_strangers(self) -> None:
        """A table strangers can join is dealt by the server, and never waits forever."""
        for chosen in ("seed", "save"):
            if getattr(self, chosen) is not None:
                raise ValueError(
                    f"{chosen}: a table strangers can join (an open seat) is dealt by the server:"
                    " whoever chooses the deal can know every hidden card"
                )
        if self.clock is None and self.no_show_limit() is None:
            raise ValueError(
                "no_show_after: a table strangers can join needs a turn clock or a no-show limit"
                " (else a player who never comes stops the game)"
            )


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
    expect: Literal["open", "away"] = Field(
        description='what the seat must be to be handed over: "open" (not taken yet) or "away" '
        "(a human nobody is connected to; a seat someone joined: away, or never connected, "
        "for the table's limit)"
    )


class JoinRequest(_Strict):
    name: ChosenName | None = Field(
        None,
        description="display name, 1–24 characters; a signed-in player joins under the"
        " account's name (null)",
    )
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
    request_id: str | None = Field(
        default=None, description="the refused request's id, as in the logs (X-Request-ID)"
    )


class ErrorBody(BaseModel):
    error: ErrorDetail


class ChatMessage(BaseModel):
    number: int = Field(description="the message's number at its table: 1, 2, … in order")
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="the writer's seat; null for a spectator")
    name: str = Field(description="the writer's name then (empty for a spectator)")
    text: str | None = Field(description="the words (plain text), or null for a phrase")
    phrase: str | None = Field(description="a quick phrase's id, shown in the reader's language")
    game: int = Field(description="the game it was written in")
    step: int = Field(description="the actions of that game played when it was written")
    at: float = Field(description="when (epoch seconds, the server's clock)")
    deleted: bool = Field(description="removed by a moderator: its words are gone")


class ChatHistory(BaseModel):
    channel: Literal["players", "spectators"]
    messages: list[ChatMessage]
    muted: list[int] = Field(
        default_factory=list, description="the seats you muted (their messages are left out)"
    )


class Health(BaseModel):
    status: Literal["ok", "draining"] = Field(
        description="ok, or draining: this process was asked to stop (answered with 503)"
    )
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
    account: bool = Field(False, description="a human seat that belongs to a player's account")
    reputation: float | None = Field(
        None, description="an account's reputation: the share of its games it finished"
    )


class LobbyTable(BaseModel):
    table_id: str
    players: int
    cards: str = Field(description='"base", "embrasement", or the ten card slugs, comma-separated')
    variant: str = Field(description='"standard" or "two-families" (2 players)')
    edition: str = Field(description='"revised" or "first"')
    lang: str = Field(description="the table's language")
    rated: bool = Field(False, description="its games update the players' ratings")
    min_reputation: float | None = Field(
        None, description="the reputation an account needs to join (null: anyone)"
    )
    seats: list[LobbySeat]
    open_seats: list[int]
    clock: float | None = Field(description="seconds per decision, or null")
    bank: float | None = Field(
        None, description="a time bank: seconds each seat starts with (null: no bank)"
    )
    increment: float | None = Field(
        None, description="seconds added to a seat's bank after each of its decisions"
    )
    no_show_after: float | None = Field(
        None, description="seconds before the stand-in plays for a player who never comes"
    )
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
    away: bool = Field(
        description="away, or never came, for the table's limit: the stand-in plays its decisions"
    )
    replaceable: bool = Field(
        False, description='the creator may hand this seat to a bot now ("expect": "away")'
    )
    colour: str
    account: bool = Field(
        False, description="a player's account owns the seat (its name is the account's)"
    )
    left: bool = Field(False, description="its player left the game: the stand-in plays it")
    bank_left: float | None = Field(
        None,
        description="at a table with a time bank: seconds its bank held when its current"
        " decision began (the seat deciding: count down from the clock's deadline), or after"
        " its last one; null without a bank",
    )
    ran_out: int = Field(0, description="times its time bank ran out in this game")


class ClockView(BaseModel):
    kind: Literal["per_decision", "bank"] = Field(
        "per_decision", description="seconds per decision, or a time bank per seat (Fischer)"
    )
    per_decision: float | None = Field(None, description="seconds per decision (kind per_decision)")
    bank: float | None = Field(None, description="seconds each seat's bank starts with (kind bank)")
    increment: float | None = Field(
        None, description="seconds added to a seat's bank after each of its decisions (kind bank)"
    )
    preset: Literal["daily"] | None = Field(
        None, description='the named preset this bank is ("daily": 3 days, +1 day a decision)'
    )
    deadline: float | None = Field(
        description="when the stand-in may play the current human decision (server epoch"
        " seconds): the clock's end, or sooner the end of the player's absence or no-show limit"
    )


class DeadlineView(BaseModel):
    at: float = Field(description="when the stand-in may play (server epoch seconds)")
    reason: Literal["clock", "away", "no_show"] = Field(
        description="the turn clock, the player's allowed absence, or the no-show limit"
    )
    seat: int = Field(description="the seat that decides")


class StandInMove(BaseModel):
    step: int = Field(description="the index of the action in the game")
    seat: int | None = Field(description="the seat the stand-in played for")
    reason: Literal["clock", "away", "no_show"] | None
    log: list[int] = Field(description="indices in the view's log of the lines it wrote")


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
    deadline: DeadlineView | None = Field(
        None, description="when the stand-in may play the current human decision, and why"
    )
    stand_ins: list[StandInMove] = Field(
        default_factory=list, description="the moves the stand-in played in this game"
    )
    server_time: float = Field(description="the server's clock as it sent this view")
    hints: bool = Field(False, description="a learning table: you may ask for hints")
    rated: bool = Field(False, description="its games update the players' ratings")
    custom_deal: bool = Field(
        False, description="this game was dealt as the table's creator chose (seed or save)"
    )
    replay_url: str | None = Field(
        None, description="once the game is over: its replay page, with a read-only token"
    )
    handed_over: bool = Field(
        False, description="your seat was handed to a bot by the creator: this link watches"
    )
    chat: str = Field("on", description='the table talk: "on", "open" or "off"')


class TableSummary(BaseModel):
    table_id: str
    game_number: int
    step: int
    over: bool
    seats: list[SeatInfo]
    public: bool
    clock: float | None = Field(description="seconds per decision, or null")
    bank: float | None = Field(
        None, description="a time bank: seconds each seat starts with (null: no bank)"
    )
    increment: float | None = Field(
        None, description="seconds added to a seat's bank after each of its decisions"
    )
    absent_after: float | None
    stand_in: str
    open_seats: list[int]
    closed: bool
    hints: bool = Field(False, description="a learning table (hints)")
    rated: bool = Field(False, description="its games update the players' ratings")
    no_show_after: float | None = Field(
        None, description="seconds before the stand-in plays for a player who never came"
    )
    custom_deal: bool = Field(
        False,
        description="the current game was dealt as the creator chose (a seed or a saved game):"
        " the creator may know every hidden card",
    )
    chat: str = Field("on", description='the table talk: "on", "open" or "off"')


class CardInfo(BaseModel):
    name: str
    kind: str
    text: str
    notes: str

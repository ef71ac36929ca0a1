"""What the server needs from storage: the stored records and the :class:`Store` interface.

A game is stored as the table's configuration, the game's seed, its starting position when it
did not start from a deal (a game continued from a save or a position) and its accepted actions,
in order; that determines it completely. Every write is committed (and synced to disk) before it
returns, so an action acknowledged to anyone survives a crash. Tokens are stored only as SHA-256
digests.

The database is the authority: several servers may share one (PostgreSQL). The primary key of an
action, ``(table_id, game, idx)``, orders them: of two servers storing an action at the same
index, one commits and the other gets :class:`StoreConflict`. Every committed change of a table
is announced to every server (:meth:`Store.listen`) as a :class:`Change`, so that the tables
they hold in memory (caches) are brought up to date. Each game also records whose decision it
awaits (:class:`Turn`): a server *claims* a bot's decision for a few seconds (a lease it renews
while the bot thinks), so that exactly one server plays it, and another takes it over if that
server dies.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..rating_model import RatedGame
from .accounts import AccountStore
from .chat_records import ChatStore
from .push_records import PushStore
from .rating_records import PlayersStore


class StoreError(RuntimeError):
    """Storage that cannot be used: a wrong address or login, a newer schema, … (the message
    says what, without the password)."""


class StoreUnavailable(StoreError):
    """The database cannot be reached (now): the server answers 503 and tries again later."""


class StoreConflict(RuntimeError):
    """A write that contradicts what is stored (e.g. a second action at the same index)."""


class AccountNameTaken(StoreConflict):
    """An account already has this name, or one that reads the same (``names.name_key``)."""


class QuotaReached(RuntimeError):
    """A write refused because an address already holds its share of something (its listed
    tables, its queued analyses): checked in the write's own transaction, so that concurrent
    requests, on any servers, cannot exceed it."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    kind: str  #: "human", "bot" or "open" (waiting for someone to join)
    name: str
    level: str | None
    token_hash: str | None
    #: Since when (epoch seconds) a human seat has had no connection on any server, after one
    #: was open; None while connected or before it ever connected.
    away_since: float | None = None
    #: When the seat was taken by someone who joined (an open seat filled); None for the seats
    #: set at the table's creation.
    joined: float | None = None
    #: When the seat's player first connected (or acted); None while they never did.
    arrived: float | None = None
    #: The account that owns the seat (None: a guest's seat, reached by its token only).
    account_id: str | None = None
    #: When the seat's player left the game (the stand-in plays it from then on).
    left_at: float | None = None
    #: At a table with a time bank: seconds left at the start of the seat's current decision
    #: (or after its last one); None: the full bank.
    bank_left: float | None = None
    #: Times the seat's bank ran out in the current game (``server.time_bank``).
    ran_out: int = 0


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    config: Mapping[str, Any]  #: ``GameConfig.to_dict()``
    lang: str
    creator_hash: str
    spectator_hash: str
    seats: tuple[SeatRecord, ...]
    #: A digest of the creator's network address (for per-address quotas), or "".
    origin: str = ""
    #: Listed in the public lobby while it has open seats.
    public: bool = False
    #: Seconds a human has for each decision (None: no clock); then the stand-in plays it.
    clock: float | None = None
    #: Seconds a human may stay disconnected at their decision before the stand-in plays it.
    absent_after: float | None = None
    #: The bot level of the stand-in that plays for late or absent humans.
    stand_in: str = "medium"
    #: Closed by its creator before its open seats were taken: nobody can play at it.
    closed: bool = False
    #: When it entered the lobby or someone last joined (epoch seconds).
    listed: float | None = None
    #: A learning table: its human seats may ask what a strong player would do.
    hints: bool = False
    #: Seconds a seat whose player never connected may keep its decisions before the stand-in
    #: plays them (None: no such limit).
    no_show_after: float | None = None
    #: The secret from which the replay tokens of the table's finished games are derived.
    replay_key: str = ""
    #: When the table was created (epoch seconds; the database's clock once stored).
    created: float = field(default=0.0, compare=False)
    #: Its finished games update the players' ratings (docs/server.md, "Ratings").
    rated: bool = False
    #: The reputation (a share, 0 to 1) an account needs to join an open seat (None: any).
    min_reputation: float | None = None
    #: Who talks and reads at the table (docs/server.md, "Chat"): "on", "open" or "off".
    chat: str = "on"
    #: A time bank: seconds each seat starts with (None: no bank), and added after each
    #: decision (``server.time_bank``).
    bank: float | None = None
    increment: float | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    seed: int  #: the deal's seed; for a game with a ``start``, the seed of its bots
    actions: tuple[Mapping[str, Any], ...]  #: action JSON, in order
    start: Mapping[str, Any] | None = None  #: a save (``Game.save()``) the game starts from
    #: Dealt as the table's creator chose (a seed or a saved game), not by the server.
    custom_deal: bool = False
    #: Who played each action (``server.sources``: the player, their bot seat, or the stand-in
    #: and why), in order; None where unknown (stored before version 8, or from a save).
    sources: tuple[str | None, ...] = ()
    #: When the game's current decision began (epoch seconds, the database's clock); None
    #: where unknown. Clocks count from there.
    turn_since: float | None = field(default=None, compare=False)


#: The states of a game's analysis (docs/server.md, "Post-game analysis").
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"


@dataclass(frozen=True, slots=True)
class AnalysisRecord:
    """The analysis of one game: its state, the share of its decisions done, and the steps
    analysed so far (JSON objects, in order; kept while it runs so a server that takes a dead
    server's job over goes on from there)."""

    table_id: str
    game: int
    status: str
    progress: float = 0.0
    steps: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class BankMove:
    """A decision made at a table with a time bank: the seat whose bank it charges, and
    whether it is a new run-out (the stand-in played because the bank was empty: counted, and
    the seat is away from then on)."""

    seat: int
    ran_out: bool = False


@dataclass(frozen=True, slots=True)
class BankCharged:
    """A seat's time bank as storage left it after a decision (``SeatRecord``'s fields)."""

    bank_left: float
    ran_out: int
    away_since: float | None


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose decision a game awaits after ``step`` actions: ``seat`` (None once the game is
    over), whether a bot plays that seat, and whether a human follows the table (a watched
    table's bots are served first)."""

    step: int
    seat: int | None
    bot: bool
    watched: bool = False
    #: A human decides in a game under way: a stand-in may play for them once their clock
    #: runs out or they have been away too long (storage computes that deadline).
    timed: bool = False

    @property
    def over(self) -> bool:
        return self.seat is None


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot decision: the one game ``game`` of table ``table_id`` awaits after ``step`` actions."""

    table_id: str
    game: int
    step: int


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """A public table with open seats, as the lobby lists it."""

    table_id: str
    config: Mapping[str, Any]
    clock: float | None
    created: float
    seats: tuple[SeatRecord, ...]
    no_show_after: float | None = None
    lang: str = "en"
    hints: bool = False
    stand_in: str = "medium"
    absent_after: float | None = None
    #: Where it stands in the lobby's order (a page ends after an entry: the next starts here).
    place: LobbyPlace | None = None
    rated: bool = False
    min_reputation: float | None = None
    #: A time bank (None: none) and its increment, in seconds.
    bank: float | None = None
    increment: float | None = None


@dataclass(frozen=True, slots=True)
class HandOverGrace:
    """Seconds a joined player must have been away, or never came, before the creator may hand
    their seat to a bot, at tables that set no such limit of their own."""

    absent: float
    no_show: float


@dataclass(frozen=True, slots=True)
class LobbyPlace:
    """A table's place in the lobby's order: ``rank`` among its creator's listed tables (1: the
    newest), then the newest first, then by id. The lobby lists every creator's newest table,
    then every creator's second newest, …: one creator cannot push the others out."""

    rank: int
    listed: float
    table_id: str


#: The card sets a lobby filter names (``custom``: any other choice of ten types).
LOBBY_CARD_SETS = ("base", "embrasement", "custom")


@dataclass(frozen=True, slots=True)
class LobbyFilter:
    """What the lobby lists: only tables of ``players`` players, of the card set ``cards``,
    with a clock or without (``clock``), with hints or without (``hints``); None: any."""

    players: int | None = None
    cards: str | None = None
    clock: bool | None = None
    hints: bool | None = None


#: A filter that lets every listed table through.
NO_FILTER = LobbyFilter()


@dataclass(frozen=True, slots=True)
class SeatCount:
    """How many connections of a seat one server holds."""

    table_id: str
    seat: int
    connections: int


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """What a server's heartbeat found."""

    #: Whether the server's own record was still there: False for a new server, or for one
    #: silent so long that the others forgot it and its connections (a paused process).
    kept: bool
    #: The seats, ``(table_id, seat)``, whose connections on silent servers were forgotten.
    forgotten: tuple[tuple[str, int], ...] = ()


#: What changed at a table (the kinds of :class:`Change`).
ACTION, SEATS, GAME, PRESENCE, CHAT = "action", "seats", "game", "presence", "chat"
#: A chat message's words removed by a moderator (its step: the message's number).
CHAT_DELETED = "chat_deleted"
_KINDS = (ACTION, SEATS, GAME, PRESENCE, CHAT, CHAT_DELETED)


@dataclass(frozen=True, slots=True)
class Change:
    """A committed change of a table, announced to every server: its kind, the table's game and
    number of actions just after it, and for an action, the action itself (JSON text) and who
    played it (its ``source``), so that a server holding the table at the step before applies
    it without reading storage."""

    table_id: str
    kind: str
    game: int
    step: int
    action: str | None = None
    source: str | None = None

    def encode(self) -> str:
        head = f"{self.kind} {self.game} {self.step} {self.table_id}"
        if self.action is None:
            return head
        # A source has no space and never starts like the action's JSON object.
        return f"{head} {self.source} {self.action}" if self.source else f"{head} {self.action}"

    @staticmethod
    def decode(text: str) -> Change | None:
        """The change ``text`` encodes, or None if it is not one."""
        parts = text.split(" ", 4)
        if len(parts) < 4 or parts[0] not in _KINDS:
            return None
        try:
            game, step = int(parts[1]), int(parts[2])
        except ValueError:
            return None
        action = parts[4] if len(parts) == 5 else None
        source = None
        if action is not None and not action.startswith("{"):
            source, _, action = action.partition(" ")
        return Change(parts[3], parts[0], game, step, action, source)


class Store(AccountStore, PlayersStore, ChatStore, PushStore, Protocol):
    """What the server needs from storage: SQLite (one server) or PostgreSQL (any number).

    Every method may raise :class:`StoreUnavailable` when the database cannot be reached.
    """

    #: Whether other servers may share this database (then presence and claims matter).
    shared: bool

    def describe(self) -> str:
        """Where the games are, for people (no password)."""
        ...

    def pool_use(self) -> tuple[int, int]:
        """Connections of this server's pool to the database: in use, and idle (0, 0 for a
        store without a pool)."""
        ...

    async def create_table(
        self,
        table: TableRecord,
        seed: int,
        turn: Turn,
        start: Mapping[str, Any] | None = None,
        actions: Sequence[Mapping[str, Any]] = (),
        custom_deal: bool = False,
        listed_quota: tuple[int, float] | None = None,
    ) -> None:
        """Store a new table and its first game (number 1), with its actions so far;
        ``custom_deal``: the creator chose its deal (a seed or a saved game). With
        ``listed_quota`` ``(n, within)``, a public table is refused (:class:`QuotaReached`) if
        its origin already has ``n`` tables in the lobby (listed in the last ``within`` seconds,
        by the database's clock)."""
        ...

    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        """The table and its latest game, or None."""
        ...

    async def load_game(self, table_id: str, number: int) -> tuple[GameRecord, bool] | None:
        """Game ``number`` of a table (any of its games, not only the latest) and whether it
        is over, or None if the table has no such game."""
        ...

    async def load_actions(self, table_id: str, game: int, first: int) -> list[Mapping[str, Any]]:
        """The actions of a game from index ``first`` on, in order."""
        ...

    async def load_sources(self, table_id: str, game: int, first: int) -> list[str | None]:
        """Who played each action of a game from index ``first`` on (``server.sources``), in
        order; None where unknown."""
        ...

    async def unfinished_tables(self) -> list[str]:
        """Ids of the tables whose latest game is not over."""
        ...

    async def append_action(
        self,
        table_id: str,
        game: int,
        index: int,
        action: Mapping[str, Any],
        turn: Turn,
        stand_in: bool = False,
        source: str | None = None,
        finished: RatedGame | None = None,
        bank: BankMove | None = None,
    ) -> BankCharged | None:
        """Record action number ``index`` of a game, played by ``source`` (``server.sources``),
        after which the game awaits ``turn``; :class:`StoreConflict` if that index is taken
        (another server was first), or, for a ``stand_in``'s action, if the human's deadline
        has not passed (any more). ``finished``: the action ends a game with accounts at its
        seats or of a rated table: their results are stored and, for a rated game, the ratings
        updated in the same transaction, exactly once (the result's key is the game's).
        ``bank``: at a table with a time bank, the seat that decided, whose bank is charged
        the decision's time (from ``turn_since``, by the database's clock) and credited the
        increment in the same transaction; its bank as stored then is returned."""
        ...

    async def new_game(self, table_id: str, game: int, seed: int, turn: Turn) -> None:
        """Start game number ``game`` at a table (dealt from ``seed`` by the server);
        :class:`StoreConflict` if it exists."""
        ...

    async def hand_over(
        self, table_id: str, seat: SeatRecord, turn: Turn, grace: HandOverGrace, alive: float
    ) -> bool:
        """Give the human seat ``seat.seat`` to the bot ``seat`` if it may be handed over now
        (``absence.replaceable``): no server that beat in the last ``alive`` seconds holds a
        connection of it, and it was set at the table's creation, or it has been away, or never
        came, for the table's limit (``grace``'s where the table sets none). The current game
        then awaits ``turn``. False (nothing changed) if not."""
        ...

    async def fill_seat(self, table_id: str, seat: SeatRecord, origin: str = "") -> int | None:
        """Put ``seat`` (a human who joins from the address digest ``origin``, or a bot) in
        place of an open seat: the one at ``seat.seat``, or the first open one if that is -1,
        unless another seat of the table has the same name (:func:`~..names.name_key`).
        Once no seat is open, the game starts (its turn is stored). Returns the seat taken, or
        None if it is no longer open or the name is taken (another server was first: exactly
        one of two joins for one seat gets it)."""
        ...

    async def close_table(self, table_id: str) -> bool:
        """Close a table that still has open seats (it leaves the lobby; nobody plays there);
        False if no seat is open any more."""
        ...

    async def lobby(
        self,
        within: float,
        limit: int,
        only: LobbyFilter = NO_FILTER,
        after: LobbyPlace | None = None,
    ) -> list[LobbyEntry]:
        """Up to ``limit`` public tables with open seats, not closed, listed in the last
        ``within`` seconds (by the database's clock), that ``only`` lets through, in the lobby's
        order (:class:`LobbyPlace`), from the one after ``after`` on."""
        ...

    async def seat_away(self, table_id: str, seats: Sequence[int] | None, alive: float) -> bool:
        """Mark as away since now these human seats (None: all of the table's) that no live
        server holds a connection of; a stand-in may then play their decisions after the
        table's ``absent_after``. True if any seat changed."""
        ...

    async def seat_back(self, table_id: str, seat: int) -> bool:
        """A human seat is connected (or acted): if it was marked away, or its player had never
        come, its decisions are its own again (only its clock, if any, still runs). True if it
        was away or had never come."""
        ...

    async def set_turn(self, table_id: str, game: int, turn: Turn) -> bool:
        """Correct the turn a game awaits, unless its stored actions are no longer
        ``turn.step`` (another server moved on: it stored the newer turn). True if set."""
        ...

    # -- bot decisions, each played by exactly one server -----------------------------------
    async def claim_bot_turns(self, owner: str, limit: int, ttl: float) -> list[BotTurn]:
        """Claim, for ``ttl`` seconds, up to ``limit`` bot decisions that no live claim holds:
        those of tables a human follows first, then the longest waiting first. A human's
        decision whose deadline passed (clock, absence) is a bot decision: its stand-in's."""
        ...

    async def waiting_bot_turns(self) -> int:
        """Bot decisions that no live claim holds (more than the servers take: overload)."""
        ...

    async def claim_bot_turn(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        """Claim this bot decision if it is still awaited and no live claim holds it."""
        ...

    async def renew_claim(self, owner: str, turn: BotTurn, ttl: float) -> bool:
        """Extend ``owner``'s claim; False if it lost it (expired and taken, or decided)."""
        ...

    async def release_claim(self, owner: str, turn: BotTurn) -> None:
        """Give the claim up (the decision was not made: another server may take it); a
        claim of another step of the game is kept."""
        ...

    # -- post-game analyses, each computed once by one server ------------------------------
    async def request_analysis(
        self, table_id: str, game: int, origin: str = "", queued_limit: int = 0
    ) -> AnalysisRecord:
        """Queue the analysis of a game, asked for from the address digest ``origin``, unless
        it is queued, running or done (a failed one is queued again); return its record. With
        ``queued_limit``, an analysis that would be queued is refused (:class:`QuotaReached`)
        if ``origin`` already has that many queued or running."""
        ...

    async def load_analysis(self, table_id: str, game: int) -> AnalysisRecord | None:
        """The analysis of a game, or None if nobody asked for it."""
        ...

    async def claim_analysis(self, owner: str, ttl: float) -> AnalysisRecord | None:
        """Claim for ``ttl`` seconds, and mark running, an analysis no live claim holds (queued,
        or running on a server whose claim expired): round-robin by address, that of the
        address served least recently (never first), then the one asked for first."""
        ...

    async def save_analysis(
        self,
        owner: str,
        record: AnalysisRecord,
        ttl: float,
    ) -> bool:
        """Store the progress (or the end) of an analysis ``owner`` claimed, and extend the
        claim by ``ttl`` seconds; False if ``owner`` no longer holds it (nothing is stored)."""
        ...

    # -- who is connected, on any server ----------------------------------------------------
    async def set_presence(self, server: str, counts: Sequence[SeatCount]) -> None:
        """``server`` holds these numbers of open connections of these seats (0: none any
        more), all in one write."""
        ...

    async def present_seats(self, table_id: str, alive: float) -> set[int]:
        """Seats with a connection on a server whose heartbeat is younger than ``alive`` s."""
        ...

    async def heartbeat(self, server: str, alive: float) -> Heartbeat:
        """Say that ``server`` is alive; forget the connections of the other servers silent for
        ``alive`` seconds (0: of every other server), and say which seats had them."""
        ...

    # -- quotas and clean-up ----------------------------------------------------------------
    async def origin_counts(self, origin: str, within: float) -> tuple[int, int]:
        """Of the tables created from ``origin``: how many in the last ``within`` seconds (by
        the database's clock, with the seats joined from it meanwhile), and how many unfinished
        ones no human plays (every seat a bot: self-playing)."""
        ...

    async def delete_abandoned(self, idle: float, limit: int) -> list[str]:
        """Delete up to ``limit`` tables whose last change is more than ``idle`` seconds old (by
        the database's clock: a server whose own clock is wrong deletes nothing it should
        not), with their games and actions; return their ids."""
        ...

    async def claim_job(self, name: str, owner: str, ttl: float) -> bool:
        """Claim the periodic job ``name`` for ``ttl`` seconds (one server runs it at a time)."""
        ...

    # -- life ------------------------------------------------------------------------------
    async def queued_analyses(self) -> int:
        """Analyses queued and not yet started, on every server."""
        ...

    async def ping(self) -> None:
        """Return if the database answers; :class:`StoreUnavailable` otherwise."""
        ...

    async def listen(
        self, changed: Callable[[Change], None], reset: Callable[[], None]
    ) -> None:
        """Until cancelled: ``changed`` for every committed change, by any server, and ``reset``
        whenever listening (re)starts (changes may have been missed: caches are suspect)."""
        ...

    async def close(self) -> None: ...

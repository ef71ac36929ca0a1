"""A table held in memory: its seats, its current game, the connections following it and
what is kept between the views of its game (:class:`ViewCache`).

The database is the authority (``storage``); a :class:`Table` is this server's copy, rebuilt
from storage and brought up to date when another server changes it (``manager``).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Protocol

from oriflamme.api import Action, ActionError, Game, GameConfig, load
from oriflamme.search import State, state_of

from .account_seats import opens_seat
from .errors import ApiError, bad_token
from .storage import GameRecord, SeatRecord, TableRecord, Turn

HUMAN, BOT, OPEN = "human", "bot", "open"
#: Seeds are drawn below this bound (SQLite integers are 64-bit signed).
SEED_BOUND = 2**62


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Role(Enum):
    SEAT = "seat"
    SPECTATOR = "spectator"
    CREATOR = "creator"


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a token designates: a seat (with its index), a spectator or the creator."""

    role: Role
    seat: int | None = None


class Listener(Protocol):
    """A connection following a table: told (without waiting) when the table changes."""

    identity: Identity

    def notify(self) -> None: ...

    def push(self, message: dict[str, Any]) -> None:
        """Send ``message`` (a chat message) soon, without waiting."""
        ...

    def hand_over(self) -> None:
        """This process drains: close soon, telling the client to reconnect elsewhere."""
        ...


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How a table is played: listed in the lobby, turn clock, stand-in for late or absent
    humans (docs/server.md, "Open tables, clocks and absent players")."""

    public: bool = False
    clock: float | None = None  #: seconds per decision
    absent_after: float | None = None  #: seconds away at one's decision before the stand-in
    stand_in: str = "medium"  #: the stand-in's bot level
    #: Seconds a seat whose player never came keeps its decisions before the stand-in.
    no_show_after: float | None = None
    #: Its finished games update the players' ratings.
    rated: bool = False
    #: The reputation (a share, 0 to 1) an account needs to join an open seat (None: any).
    min_reputation: float | None = None
    #: Who talks and reads at the table: "on", "open" or "off" (``chat``).
    chat: str = "on"
    #: A time bank (``time_bank``): seconds each seat starts with (None: no bank), and added
    #: after each of its decisions.
    bank: float | None = None
    increment: float | None = None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for at creation: ``kind`` human (with a name), bot (with a level) or open
    (taken later by whoever joins)."""

    kind: str
    name: str | None = None  #: None: a bot's default name (:func:`thinking.bot_name`)
    level: str | None = None
    #: A human seat owned by this account (its creator, signed in).
    account_id: str | None = None


@dataclass(frozen=True, slots=True)
class GameSetup:
    """How a table's first game starts: dealt from ``seed`` and ``actions`` played on it, or
    from ``start`` (a save without history; ``seed`` then seeds the bots). ``custom_deal``: the
    creator chose it (a seed or a saved game), so they may know every hidden card."""

    config: GameConfig
    seed: int
    start: Mapping[str, Any] | None = None
    actions: tuple[Mapping[str, Any], ...] = ()
    custom_deal: bool = False


@dataclass(frozen=True, slots=True)
class NewTable:
    """A created table and the tokens handed out once: creator, spectator, one per human."""

    table: Table
    creator_token: str
    spectator_token: str
    seat_tokens: Mapping[int, str]


def _record_error(exc: Exception) -> ApiError:
    message = str(exc)
    if not message.startswith("save"):
        message = f"save: {message}"
    return ApiError(422, "invalid_save", message[:300])


#: Integers a saved game may hold: what JSON clients read exactly (seeds: what storage keeps).
NUMBER_BOUND = 2**53
STORED_SEED_BOUND = 2**63


def check_numbers(data: object) -> None:
    """ValueError naming the first integer of ``data`` (JSON, walked without recursion) outside
    what storage and clients hold: a ``seed`` outside 0 … 2**63 - 1, any other integer beyond
    ±2**53."""
    pending: list[tuple[str, object]] = [("save", data)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, Mapping):
            pending.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list):
            pending.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            if where.endswith(".seed") or where.endswith(".id_seed"):
                if not 0 <= value < STORED_SEED_BOUND:
                    raise ValueError(f"{where}: a seed is a whole number from 0 to 2**63 - 1")
            elif not -NUMBER_BOUND < value < NUMBER_BOUND:
                raise ValueError(f"{where}: {str(value)[:24]} is out of range")


def setup_from_record(data: Mapping[str, Any], players: int) -> GameSetup:
    """The set-up of a game continued from ``data``: a save (``Game.save()``), a position or a
    replay (docs/formats.md); 422 ``invalid_save`` saying what is wrong with it."""
    try:
        check_numbers(data)
        game = load(data)
        if game.seed is not None:
            # A dealt game: deal it again and replay its history, which must lead to the save's
            # position, so that the table stores it as a seed and actions like any other.
            replayed = Game.from_replay(game.replay())
            if replayed.position() != game.position():
                raise ValueError("its history does not lead to its position")
            game = replayed
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise _record_error(exc) from None
    if game.config.players != players:
        raise ApiError(
            422, "invalid_save", f"players: the saved game has {game.config.players} players"
        )
    if game.is_over:
        raise ApiError(422, "invalid_save", "save: this game is over")
    if game.seed is not None:
        actions = tuple(a.to_json() for a in game.history)
        return GameSetup(game.config, game.seed, None, actions, custom_deal=True)
    return GameSetup(game.config, secrets.randbelow(SEED_BOUND), game.save(), custom_deal=True)


def _dealt(config: GameConfig, record: GameRecord) -> Game:
    """A stored game at its start, before any action."""
    return Game.new(config, record.seed) if record.start is None else Game.from_save(record.start)


def _log_size(game: Game) -> int:
    return len(state_of(game).log or ())


class _Moves:
    """A game's moves as its log shows them: who decided each (the player whose decision it
    answered) and the log's length after it, so that each move's lines are known."""

    def __init__(self, first: Game) -> None:
        self.first = first  #: the game before its first action (never changed)
        self.start = _log_size(first)
        self.played: list[tuple[int | None, int]] = []

    def follow(self, game: Game, player: int | None) -> None:
        """Note the moves ``game`` made since this list was last brought up to date; its last
        one answered ``player``'s decision."""
        done = len(game.history)
        del self.played[done:]
        if len(self.played) == done - 1:
            self.played.append((player, _log_size(game)))
        elif len(self.played) < done:  # several moves at once: play them again from the start
            again = self.first.copy()
            self.played = []
            for action in game.history:
                player = again.current_player
                again.apply(action, check=False)
                self.played.append((player, _log_size(again)))


def _start(config: GameConfig, record: GameRecord) -> tuple[Game, _Moves]:
    game = _dealt(config, record)
    moves = _Moves(game.copy())
    for action in record.actions:
        player = game.current_player
        game.apply(action)
        moves.follow(game, player)
    return game, moves


def _sources(record: GameRecord) -> list[str | None]:
    """Who played each stored action (None where storage does not say)."""
    found = list(record.sources[: len(record.actions)])
    return found + [None] * (len(record.actions) - len(found))


#: Events whose ``other`` field is a card that their sentence names (docs/formats.md, events).
_OTHER_IS_CARD = frozenset(
    {"placed", "twin_placed", "eliminated", "activated", "copied", "replaced"}
)

#: What a sentence may depend on of a card: face up, and in the Queue.
CardState = tuple[bool, bool]


def _card_state(state: State, queue_cards: frozenset[int], card: int) -> CardState:
    return state.face_up[card], card in queue_cards


def _queue_cards(state: State) -> frozenset[int]:
    return frozenset(card for stack in state.queue for card in stack)


@dataclass
class _Lines:
    """The log as one viewer sees it in one language, and what each line depends on."""

    lines: list[str] = field(default_factory=list)
    marks: list[CardState | None] = field(default_factory=list)
    names: tuple[str, ...] | None = None  #: the players' names the lines say


class ViewCache:
    """Everything kept between the views of one game of a table (``views`` builds them).

    The wording of an event depends on the current game only through the card named in its
    ``other`` field (placed on it, eliminated or activated by it, copied, replaced): whether
    that card is face up and whether it is in the Queue. Each line remembers that card's state
    when it was written; a line is written again when the state changed (tests compare with
    ``Game.log_lines``).
    """

    def __init__(self) -> None:
        self._others: list[int] = []  #: per event: the card its sentence names, or -1
        self._logs: dict[tuple[int | None, str], _Lines] = {}
        self._labels: dict[tuple[int | None, str], dict[tuple[int, CardState], str]] = {}
        self._texts: dict[tuple[int | None, str], tuple[tuple[int, int], str]] = {}

    def log_lines(
        self, game: Game, viewer: int | None, lang: str, names: tuple[str, ...] | None = None
    ) -> list[str]:
        """``game.log_lines(viewer, lang, names=names)``, labelling only what is new or changed
        (all of it again when the names changed: a seat joined, or was handed to a bot)."""
        s = state_of(game)
        events = s.log or []
        if len(self._others) < len(events):
            for event in game.events(None, start=len(self._others)):
                named = event["kind"] in _OTHER_IS_CARD and event["other"] >= 0
                self._others.append(event["other"] if named else -1)
        cached = self._logs.get((viewer, lang))
        if cached is None or cached.names != names:
            cached = self._logs[(viewer, lang)] = _Lines(names=names)
        queue_cards = _queue_cards(s)
        first = len(cached.lines)
        for i, mark in enumerate(cached.marks):
            if mark is not None and mark != _card_state(s, queue_cards, self._others[i]):
                first = i
                break
        if first < len(events):
            cached.lines[first:] = game.log_lines(
                viewer=viewer, lang=lang, start=first, names=names)
            cached.marks[first:] = [
                None if other < 0 else _card_state(s, queue_cards, other)
                for other in self._others[first : len(events)]
            ]
        return cached.lines

    def card_labels(
        self, game: Game, cards: set[int], viewer: int | None, lang: str
    ) -> dict[str, str]:
        """``game.card_label(card, viewer=viewer, lang=lang)`` of each card by id (as text), each
        label kept while its card's state is the same."""
        s = state_of(game)
        queue_cards = _queue_cards(s)
        labels = self._labels.setdefault((viewer, lang), {})
        out = {}
        for card in sorted(cards):
            key = (card, _card_state(s, queue_cards, card))
            label = labels.get(key)
            if label is None:
                label = labels[key] = game.card_label(card, viewer=viewer, lang=lang)
            out[str(card)] = label
        return out

    def text(self, key: tuple[int | None, str], version: tuple[int, int]) -> str | None:
        """The encoded view of ``key`` (viewer, language) if it is still ``version``."""
        found = self._texts.get(key)
        return found[1] if found is not None and found[0] == version else None

    def keep(self, key: tuple[int | None, str], version: tuple[int, int], text: str) -> None:
        self._texts[key] = (version, text)


class Table:
    """One table as this server knows it: its seats, its current game and the connections that
    follow it here. Its identity never changes while connections hold it: a newer state from
    storage is loaded into it (:meth:`load`)."""

    def __init__(self, record: TableRecord, game: GameRecord) -> None:
        self.id = record.table_id
        self.config = GameConfig.from_dict(record.config)
        self.lang = record.lang
        self.options = TableOptions(
            record.public, record.clock, record.absent_after, record.stand_in,
            record.no_show_after, record.rated, record.min_reputation, record.chat,
            record.bank, record.increment,
        )
        self.created = record.created
        #: The secret of the table's replay tokens (``replay_links``); never sent.
        self.replay_key = record.replay_key
        self.closed = record.closed
        self._creator_hash = record.creator_hash
        self.origin = record.origin
        self.hints = record.hints
        #: Its finished games update the players' ratings (``rating_model``).
        self.rated = record.rated
        #: The reputation an account needs to join an open seat (None: any).
        self.min_reputation = record.min_reputation
        #: When this server last used the table (``time.monotonic()``): idle ones leave memory.
        self.touched = time.monotonic()
        self._spectator_hash = record.spectator_hash
        self.lock = asyncio.Lock()
        #: Each connection, with the seat whose view it gets (None: the public view).
        self.listeners: dict[Listener, int | None] = {}
        #: Changes of the seats or their connections (views show them): part of a view's key.
        self.version = 0
        #: Seats connected through other servers (only when storage is shared).
        self.elsewhere: frozenset[int] = frozenset()
        #: The order of the read of ``elsewhere`` last applied (``TableRegistry.read_elsewhere``):
        #: a read started before it never overwrites it.
        self.elsewhere_read = 0
        #: Whether storage may hold a newer state than this copy (e.g. after a lost connection).
        self.suspect = False
        self.seats = list(record.seats)
        self._open = [0] * len(self.seats)  #: connections getting each seat's view, here
        self.game_number = game.number
        self.seed = game.seed
        #: The current game was dealt as the creator chose (a seed or a saved game).
        self.custom_deal = game.custom_deal
        #: When the current decision began (epoch seconds, this server's clock): its clock
        #: counts from there.
        self.decision_since = time.time()
        self._game, self._moves = _start(self.config, game)
        self._stored_since(game)
        #: Who played each action of the current game (``sources``).
        self.sources = _sources(game)
        #: The step of the last action applied by this server and when it arrived
        #: (``time.perf_counter()``): the metrics time its delivery to each socket.
        self.arrival: tuple[int, float] | None = None
        self.views = ViewCache()
        #: Fires when a seat reaches one of the table's limits (``absence.next_change``: views
        #: then say "away", or that the seat may be handed over), at ``absence_due``.
        self.absence_timer: asyncio.TimerHandle | None = None
        self.absence_due = 0.0
        #: When an unknown token last made this server read the table again (monotonic).
        self.token_refreshed = -1e9

    @property
    def game(self) -> Game:
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        before = self._game
        if len(game.history) != len(before.history) or game is not before:
            self.decision_since = time.time()
        self._game = game
        self._moves.follow(game, before.current_player)

    def moved(self, game: Game, source: str | None) -> None:
        """Take ``game``, the current one after one more action, played by ``source``."""
        self.game = game
        del self.sources[len(game.history) - 1 :]
        self.sources.append(source)

    def move_at(self, step: int) -> tuple[int | None, int, int]:
        """Action ``step`` of the current game: who decided it, and the first and last (not
        included) of the log's lines it wrote."""
        played = self._moves.played
        start = played[step - 1][1] if step > 0 else self._moves.start
        player, end = played[step]
        return player, start, end

    def load(self, record: TableRecord, game: GameRecord) -> bool:
        """Bring this copy to the stored state; True if anything changed."""
        changed = False
        if list(record.seats) != self.seats or record.closed != self.closed:
            was_waiting = self.waiting()
            self.seats = list(record.seats)
            self.closed = record.closed
            if was_waiting and not self.waiting():
                self.decision_since = time.time()
            self.version += 1
            changed = True
        if game.number != self.game_number or len(game.actions) < len(self.game.history):
            self.game_number, self.seed = game.number, game.seed
            self.custom_deal = game.custom_deal
            started, self._moves = _start(self.config, game)
            self.game = started
            self.sources = _sources(game)
            self.views = ViewCache()
            self._stored_since(game)
            return True
        done = len(self.game.history)
        changed = self.extend(game.actions[done:], _sources(game)[done:]) or changed
        self._stored_since(game)
        return changed

    def _stored_since(self, game: GameRecord) -> None:
        """Count the current decision's clock from when storage says it began (a process
        started or reloaded later must not give it more time)."""
        if game.turn_since is not None and len(game.actions) == len(self.game.history):
            self.decision_since = game.turn_since

    def extend(
        self, actions: Sequence[Mapping[str, Any]], sources: Sequence[str | None] = ()
    ) -> bool:
        """Apply the actions stored after this copy's last one, played by ``sources`` (None
        where unknown); True if there were any."""
        if not actions:
            return False
        game = self.game.copy()
        for i, action in enumerate(actions):
            game.apply(action)
            self.moved(game, sources[i] if i < len(sources) else None)
            game = game.copy()
        return True

    def new_game(self, number: int, seed: int, game: Game | None = None) -> None:
        """Start game ``number``, dealt by the server from ``seed`` (``game``: that deal,
        already made)."""
        self.game_number, self.seed = number, seed
        self.custom_deal = False
        # Storage fills every bank again for a new game (``storage.bank_sql.reset_banks``).
        self.seats = [replace(s, bank_left=None, ran_out=0) for s in self.seats]
        game = Game.new(self.config, seed) if game is None else game
        self._moves = _Moves(game.copy())
        self.game = game
        self.sources = []
        self.views = ViewCache()

    def turn(self, game: Game | None = None) -> Turn:
        """Whose decision ``game`` (this table's by default) awaits, for storage. Nobody plays
        while seats are open (or once the table is closed)."""
        game = self.game if game is None else game
        seat = game.current_player
        started = not self.waiting() and not self.closed
        bot = started and seat is not None and self.seats[seat].kind == BOT
        timed = started and seat is not None and self.seats[seat].kind == HUMAN
        return Turn(len(game.history), seat, bot, self.watched(), timed)

    def waiting(self) -> bool:
        """Whether the game waits for players to take its open seats."""
        return any(s.kind == OPEN for s in self.seats)

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == OPEN]

    def watched(self) -> bool:
        """Whether a human follows the table (its bots are then served first)."""
        return any(s.kind == HUMAN and self.connected(s.seat) for s in self.seats)

    def self_playing(self, seats: Sequence[SeatRecord] | None = None) -> bool:
        """Whether no human plays at the table (with ``seats`` instead of its own)."""
        return all(s.kind != HUMAN for s in (self.seats if seats is None else seats))

    def identify(self, token: str) -> Identity:
        """The identity ``token`` designates; :func:`bad_token` if none."""
        digest = token_hash(token)
        found: Identity | None = None
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(digest, seat.token_hash):
                found = Identity(Role.SEAT, seat.seat)
            elif opens_seat(self.replay_key, self.id, seat.seat, seat.account_id, token):
                found = Identity(Role.SEAT, seat.seat)  # its owner's link (``account_seats``)
        if secrets.compare_digest(digest, self._spectator_hash):
            found = Identity(Role.SPECTATOR)
        if secrets.compare_digest(digest, self._creator_hash):
            found = Identity(Role.CREATOR)
        if found is None:
            raise bad_token()
        return found

    def view_seat(self, identity: Identity) -> int | None:
        """Whose view this identity gets: its seat while a human plays it, else the public one."""
        seat = identity.seat
        if identity.role is Role.SEAT and seat is not None and self.seats[seat].kind == HUMAN:
            return seat
        return None

    def handed_over(self, identity: Identity) -> bool:
        """Whether this is the old link of a seat the creator handed to a bot (it watches)."""
        seat = identity.seat
        return identity.role is Role.SEAT and seat is not None and self.seats[seat].kind == BOT

    def connected(self, seat: int) -> bool:
        """A bot, or a human with at least one open connection (here or on another server)."""
        return self.seats[seat].kind == BOT or self._open[seat] > 0 or seat in self.elsewhere

    def open_here(self, seat: int) -> int:
        """Connections of ``seat`` open on this server."""
        return self._open[seat]

    def spectators(self) -> int:
        """Connections following the public view here (spectators, the creator, old links)."""
        return len(self.listeners) - sum(self._open)

    def add_listener(self, listener: Listener) -> int | None:
        """Follow the table; the seat whose first connection here this was, if any."""
        seat = self.view_seat(listener.identity)
        self.listeners[listener] = seat
        if seat is None:
            return None
        self._open[seat] += 1
        if self._open[seat] != 1:
            return None
        self.version += 1
        return seat

    def remove_listener(self, listener: Listener) -> int | None:
        """Stop following; the seat left without a connection here by it, if any."""
        seat = self.listeners.pop(listener, None)
        if seat is None:
            return None
        self._open[seat] -= 1
        if self._open[seat] != 0:
            return None
        self.version += 1
        return seat

    def set_elsewhere(self, seats: frozenset[int]) -> bool:
        """Record the seats connected through other servers; True if that changed."""
        if seats == self.elsewhere:
            return False
        self.elsewhere = seats
        self.version += 1
        return True


def parse_action(data: object) -> Action:
    """An action from its JSON form; 400 ``malformed_action`` naming what is wrong."""
    if not isinstance(data, Mapping):
        raise ApiError(400, "malformed_action", "an action must be a JSON object")
    try:
        return Action.from_json(data)
    except (ActionError, TypeError, ValueError, KeyError) as exc:
        raise ApiError(400, "malformed_action", str(exc)[:200]) from None


def stale() -> ApiError:
    return ApiError(409, "stale", "the game has moved on since this view: reload it")

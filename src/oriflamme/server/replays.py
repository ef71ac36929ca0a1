"""Finished games of a table, played again: their replay record and their frames.

A finished game is read from storage (any game of the table, not only the latest), dealt again
(or set up from the save it started from) and its actions applied. Its replay record is the
``oriflamme-replay`` format of docs/formats.md; a game set up from a position replays from that
position (its ``start``, with ``seed`` null). Its *frames* are what the replay page shows at
each step, as one seat saw it then (its observation, the log lines as worded for it when they
were written) or everything (every hidden card shown: the game is over).

Finished games never change, so what is built is kept (a few games, in memory).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oriflamme.api import Action, Game, GameConfig, Observation

from . import sources as played_by
from .errors import ApiError
from .storage import GameRecord, Store
from .tables import Table
from .views import card_ids

#: Finished games kept in memory, and frame lists (per game, view and language).
KEEP_GAMES, KEEP_FRAMES = 32, 32
#: The view of every card (the other views are a seat's number).
EVERYTHING = "all"

REPLAY_FORMAT, REPLAY_VERSION = "oriflamme-replay", 1


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game of a table: its replay record and the game at its end."""

    table_id: str
    number: int
    record: dict[str, Any]
    final: Game
    #: Who played each action (``sources``; None where unknown).
    sources: tuple[str | None, ...] = ()

    @property
    def config(self) -> GameConfig:
        return self.final.config


def replay_record(config: GameConfig, game: GameRecord) -> dict[str, Any]:
    """The ``oriflamme-replay`` record of a stored game (with its ``start`` if it has one)."""
    record: dict[str, Any] = {
        "format": REPLAY_FORMAT,
        "version": REPLAY_VERSION,
        "config": config.to_dict(),
        "seed": game.seed if game.start is None else None,
        "actions": [dict(action) for action in game.actions],
    }
    if game.start is not None:
        record["start"] = dict(game.start)
    return record


class Kept(OrderedDict[Any, Any]):
    """A small least-recently-used store."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_fresh(self, key: Any) -> Any:
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
        return found

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Replays:
    """The finished games of the tables, loaded from storage when first asked for."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._games = Kept(KEEP_GAMES)
        self._frames = Kept(KEEP_FRAMES)

    async def finished(self, table: Table, number: int) -> FinishedGame:
        """Game ``number`` of ``table``, once over: 404 ``unknown_game`` if the table has no
        such game, 409 ``not_over`` while it is being played."""
        key = (table.id, number)
        found: FinishedGame | None = self._games.get_fresh(key)
        if found is not None:
            return found
        # This process's copy is the truth only when no other process writes: on a shared
        # database another server may have stored the last move before this one hears of it.
        if number == table.game_number and not table.game.is_over and not self._store.shared:
            raise not_over()
        loaded = await self._store.load_game(table.id, number)
        if loaded is None:
            raise ApiError(404, "unknown_game", f"this table has no game {number}")
        game_record, finished = loaded
        record = replay_record(table.config, game_record)
        final = Game.from_replay(record)
        if not (finished and final.is_over):
            raise not_over()
        found = FinishedGame(table.id, number, record, final, game_record.sources)
        self._games.keep(key, found)
        return found

    async def frames(
        self, game: FinishedGame, view: int | None, lang: str, names: tuple[str, ...] | None = None
    ) -> list[dict[str, Any]]:
        """The frames of ``game`` for seat ``view`` (None: everything), in ``lang``, naming the
        players ``names``; built in a thread the first time (a few tens of milliseconds), kept
        afterwards."""
        key = (game.table_id, game.number, view, lang, names)
        found: list[dict[str, Any]] | None = self._frames.get_fresh(key)
        if found is None:
            found = await asyncio.to_thread(
                build_frames, game.record, view, lang, names, game.sources
            )
            self._frames.keep(key, found)
        return found


def not_over() -> ApiError:
    return ApiError(409, "not_over", "this game is not over yet: it can be reviewed at its end")


def everything(game: Game) -> Observation:
    """The public observation with every hidden card shown (hands, set-aside cards, face-down
    cards in the Queue), each taken from the observation of its owner: for a game that is over."""
    public = game.observe(None)
    seen = [game.observe(player) for player in range(game.config.players)]
    for family in public["families"]:
        own = seen[family["player"]]["families"][family["family"]]
        family["hand"] = own["hand"]  # the zones only the owner's view has
        family["set_aside"] = own["set_aside"]
    for stack, *others in zip(public["queue"], *(view["queue"] for view in seen), strict=True):
        for i, card in enumerate(stack):
            if card["type"] is None:
                card["type"] = next(
                    (other[i]["type"] for other in others if other[i]["type"] is not None), None
                )
    return public


def _labels(game: Game, observation: Observation, viewer: int | None,
            lang: str) -> dict[str, str]:
    """A label for each card of the observation (hidden cards of the everything view have
    none: the page names their type)."""
    labels = {}
    public = game.observe(None) if viewer is None else None
    hidden = set()
    if public is not None:
        hidden = {card["id"] for stack in public["queue"] for card in stack
                  if card["type"] is None}
    for card in card_ids(observation, []):
        if card not in hidden:
            labels[str(card)] = game.card_label(card, viewer=viewer, lang=lang)
    return labels


def build_frames(
    record: Mapping[str, Any],
    view: int | None,
    lang: str,
    names: Sequence[str] | None = None,
    sources: Sequence[str | None] = (),
) -> list[dict[str, Any]]:
    """Frame ``i`` is the game after its first ``i`` actions: the observation (``view``'s, or
    :func:`everything`), the prompt, card labels, the log lines added by the action that led
    there (worded for ``view`` as they were then; the public lines for everything), whose
    decision that action answered (``actor``) and who played it (``by``: the player, their bot
    seat or the stand-in, with the stand-in's ``reason``; null where unknown). Players are
    named ``names`` (their colours if None)."""
    start = record.get("start")
    game = Game.from_save(start) if start is not None else Game.new(
        GameConfig.from_dict(record["config"]), record["seed"]
    )
    actions = [Action.from_json(a) for a in record["actions"]]
    frames: list[dict[str, Any]] = []
    written = 0
    actor: int | None = None
    for step in range(len(actions) + 1):
        observation = game.observe(view) if view is not None else everything(game)
        lines = game.log_lines(viewer=view, lang=lang, start=written, names=names)
        written += len(lines)
        by, reason = played_by.parse(sources[step - 1] if 0 < step <= len(sources) else None)
        frames.append(
            {
                "step": step,
                "actor": actor,
                "by": by,
                "reason": reason,
                "observation": observation,
                "prompt": game.prompt(viewer=view, lang=lang, names=names),
                "cards": _labels(game, observation, view, lang),
                "log": lines,
            }
        )
        if step < len(actions):
            actor = game.current_player
            game.apply(actions[step])
    return frames

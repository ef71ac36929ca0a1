"""A lesson's script: a starting position, then beats that the learner reads and plays.

A lesson is a real game on the engine. Each :class:`Beat` first lets the other seats play the
moves the script gives them (its ``bots``), then shows a short explanation; a beat that
``expect``\\ s a move waits for the learner to play exactly that one (any other legal move is
explained, not played). Moves are written in the action notation of docs/formats.md with card
references (``"place red:soldier on red:heir"``), turned into the game's card ids when played,
so a script reads like the game it plays and never depends on how ids were dealt.

:func:`beat_games` plays a script once and keeps the game as each beat shows it: the engine
decides everything; the script only chooses moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oriflamme.api import Action, Game

#: A card reference in a scripted move: ``colour:type`` (docs/formats.md, card references).
_CARD_REF = re.compile(r"\b([a-z]+:[a-z_]+)\b")
#: Parts of the board a beat may point at when the learner has nothing to click.
REGIONS = ("players", "queue", "hand", "log", "status")


@dataclass(frozen=True, slots=True)
class Words:
    """One text in English and French."""

    en: str
    fr: str

    def __call__(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


@dataclass(frozen=True, slots=True)
class Beat:
    """One step of a lesson.

    ``bots``: the other seats' moves, played before the beat is shown. ``expect``: the learner's
    move (None: the learner reads and goes on). ``stray``: why another move is not the lesson's.
    ``focus``: regions (:data:`REGIONS`) or cards (references) to point at.
    """

    title: Words
    text: Words
    bots: tuple[str, ...] = ()
    expect: str | None = None
    stray: Words | None = None
    focus: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Lesson:
    """A guided game: where it starts, who plays which seat, and its beats."""

    id: str
    title: Words
    summary: Words
    start: Mapping[str, Any]
    seat: int
    names: tuple[Words, ...]
    beats: tuple[Beat, ...]
    #: What "Play a real game against bots" creates (a ``POST /api/tables`` body without seats).
    real_game: Mapping[str, Any] = field(default_factory=dict)


def parse_move(game: Game, move: str) -> Action:
    """The action a scripted move names in ``game`` (its card references become ids)."""
    return Action.parse(_CARD_REF.sub(lambda m: str(game.card(m.group(1))), move))


def focus_cards(game: Game, refs: Sequence[str]) -> list[int]:
    """The ids of the card references among ``refs`` (regions are left out)."""
    return [game.card(ref) for ref in refs if ref not in REGIONS]


class ScriptError(ValueError):
    """A lesson whose script the engine refuses (a bug of the lesson, caught by the tests)."""


def beat_games(lesson: Lesson) -> list[Game]:
    """The game as each beat shows it: after its ``bots`` moves, before the learner's move.

    Raises :class:`ScriptError` if a scripted move is not legal when it comes, a bot move falls
    to the learner's seat or an expected move to another seat.
    """
    game = Game.from_position(lesson.start)
    games = []
    for index, beat in enumerate(lesson.beats):
        for move in beat.bots:
            _play(game, move, index, learner=False, seat=lesson.seat)
        games.append(game.copy())
        if beat.expect is not None:
            _play(game, beat.expect, index, learner=True, seat=lesson.seat)
    return games


def _play(game: Game, move: str, index: int, *, learner: bool, seat: int) -> None:
    player = game.current_player
    if player is None:
        raise ScriptError(f"beat {index}: {move!r} after the end of the game")
    if (player == seat) != learner:
        whose = "the learner's" if learner else "a bot's"
        raise ScriptError(f"beat {index}: {move!r} is {whose} move, but player {player} decides")
    try:
        action = parse_move(game, move)
        game.apply(action)
    except ValueError as exc:
        raise ScriptError(f"beat {index}: {move!r}: {exc}") from None

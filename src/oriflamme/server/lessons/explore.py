"""Off the lesson: the learner plays their own moves, and the other seats answer.

When the learner chooses to play another move than the lesson's, the game leaves the script:
from that beat's game, the learner's moves are played one by one, and after each the other
seats play until the learner decides again (or the game ends), as the ``easy`` bot would, each
from its own observation. Nothing is stored: the browser keeps its list of moves and sends it
whole; each bot decision is seeded from the lesson, the beat and the move number, so the same
moves always give the same game, on any server process. Games already played are kept in a
small cache, so that each new move costs only itself and the answers to it.
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence

from oriflamme.api import Action, Game
from oriflamme.bots import make_bot
from oriflamme.bots.runner import bot_move

from ..errors import ApiError
from .script import Lesson

#: The learner's moves one exploration may carry (a whole game is fewer than 40).
MAX_MOVES = 60
#: The level that answers for the other seats.
LEVEL = "easy"
#: Explored games kept by each server process.
KEEP = 128


def _seed(lesson: Lesson, step: int, played: int) -> int:
    return zlib.crc32(f"{lesson.id}:{step}:{played}".encode())


def answer(game: Game, lesson: Lesson, step: int) -> None:
    """Let the other seats play until the learner decides or the game ends."""
    while (player := game.current_player) is not None and player != lesson.seat:
        bot_move(game, make_bot(LEVEL, seed=_seed(lesson, step, len(game.history))))


def play(game: Game, lesson: Lesson, step: int, move: Action) -> None:
    """The learner's ``move`` on ``game`` (which must await it), then the others' answers.

    ``409 game_over`` once the game has ended; ``400 illegal_action`` for a move that is not
    one of the learner's legal moves now.
    """
    if game.current_player is None:
        raise ApiError(409, "game_over", "the game is over")
    if move not in game.legal_actions():
        raise ApiError(400, "illegal_action", f"{move} is not a legal move now")
    game.apply(move, check=False)
    answer(game, lesson, step)


class Explorations:
    """The games of explorations, by lesson, beat and moves, most recent last."""

    def __init__(self, keep: int = KEEP) -> None:
        self._keep = keep
        self._games: OrderedDict[tuple[str, int, tuple[Action, ...]], Game] = OrderedDict()
        self._lock = threading.Lock()

    def game(self, lesson: Lesson, step: int, start: Game, moves: Sequence[Action]) -> Game:
        """The game after the learner's ``moves`` from ``start`` (beat ``step``'s game, which
        must be the learner's decision), each answered by the other seats."""
        if start.current_player != lesson.seat:
            raise ApiError(409, "not_your_turn", "this step of the lesson asks for no move")
        done = len(moves)
        game = None
        while done > 0:
            game = self._get((lesson.id, step, tuple(moves[:done])))
            if game is not None:
                break
            done -= 1
        game = (game or start).copy()
        for index in range(done, len(moves)):
            try:
                play(game, lesson, step, moves[index])
            except ApiError as exc:
                raise ApiError(exc.status, exc.code, f"moves[{index}]: {exc.message}") from None
            self._put((lesson.id, step, tuple(moves[: index + 1])), game.copy())
        return game

    def _get(self, key: tuple[str, int, tuple[Action, ...]]) -> Game | None:
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
            return game

    def _put(self, key: tuple[str, int, tuple[Action, ...]], game: Game) -> None:
        with self._lock:
            self._games[key] = game
            self._games.move_to_end(key)
            while len(self._games) > self._keep:
                self._games.popitem(last=False)

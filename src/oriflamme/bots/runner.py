"""Playing bots against a game: the only place where a bot meets the game.

The runner gives each bot its own player's observation (unless the bot declares it needs none:
:func:`~oriflamme.bots.base.needs_observation`) and the legal actions, checks that the answer is
legal and applies it; a bot that chooses by position alone is asked only for an index among
the legal actions (:func:`~oriflamme.bots.base.picks_by_position`). Seats without a bot are
left to the caller (a human at the terminal, a server, ...): :func:`play_game` stops when one
of them must decide.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from oriflamme.api import Action, Game, Result

from .base import NO_OBSERVATION, Bot, needs_observation, picks_by_position

#: Called after each bot action is applied, with the game, the player and the action.
StepCallback = Callable[[Game, int, Action], None]


class BotError(RuntimeError):
    """A bot that broke the contract (an illegal or malformed answer); the message names it."""


def bot_move(game: Game, bot: Bot) -> Action:
    """Ask ``bot`` for the decision now pending, check it, apply it and return it."""
    player = game.current_player
    if player is None:
        raise ValueError("the game is over: there is nothing to decide")
    return _Seat(bot).move(game, player)


class _Seat:
    """A bot and what it declared it needs, read once per game rather than once per move."""

    __slots__ = ("bot", "observes", "pick")

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.observes = needs_observation(bot)
        self.pick = picks_by_position(bot)

    def move(self, game: Game, player: int) -> Action:
        """Ask the bot for ``player``'s pending decision, check the answer and apply it."""
        bot = self.bot
        if self.pick is not None:
            try:
                action = game.pick_action(self.pick)
            except (IndexError, TypeError) as error:
                raise _picked_nothing(bot, player, error) from None
            game.apply(action, check=False)  # taken from the legal actions by the engine
            return action
        legal = game.legal_actions()
        observation = game.observe(player) if self.observes else NO_OBSERVATION
        action = bot.act(observation, tuple(legal))
        if not isinstance(action, Action):
            raise BotError(f"bot {bot.name!r} (player {player}) returned {action!r}, not an Action")
        if action not in legal:
            d = game.decision()
            assert d is not None
            raise BotError(
                f"bot {bot.name!r} (player {player}) returned the illegal action {action}"
                f" for a {d.kind.slug} decision ({len(legal)} legal options)"
            )
        game.apply(action, check=False)  # just checked: one of the legal actions
        return action


def _picked_nothing(bot: Bot, player: int, error: Exception) -> BotError:
    return BotError(f"bot {bot.name!r} (player {player}) picked no legal action: {error}")


def play_game(
    game: Game, bots: Mapping[int, Bot], on_step: StepCallback | None = None
) -> Result | None:
    """Let the bots play until the game is over (return the result) or until a player without
    a bot must decide (return None, leaving the game at that decision)."""
    players = game.config.players
    if on_step is None and len(bots) == players:
        picks = [pick for p in range(players)
                 if (bot := bots.get(p)) is not None
                 and (pick := picks_by_position(bot)) is not None]
        if len(picks) == players:
            # Every seat chooses by position and nobody watches the steps: the loop runs in
            # the rules (the same moves, a fraction of the cost per decision).
            try:
                game.play_by_position(picks)
            except (IndexError, TypeError) as error:
                player = game.current_player
                assert player is not None
                raise _picked_nothing(bots[player], player, error) from None
            return game.result()
    seats = {player: _Seat(bot) for player, bot in bots.items()}
    while True:
        player = game.current_player
        if player is None:
            return game.result()
        seat = seats.get(player)
        if seat is None:
            return None
        action = seat.move(game, player)
        if on_step is not None:
            on_step(game, player, action)

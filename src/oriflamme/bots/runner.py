"""Playing bots against a game: the only place where a bot meets the game.

The runner gives each bot its own player's observation (unless the bot declares it needs none:
:func:`~oriflamme.bots.base.needs_observation`) and the legal actions, checks that the answer is
legal and applies it. Seats without a bot are left to the caller (a human at the
terminal, a server, ...): :func:`play_game` stops when one of them must decide.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from oriflamme.api import Action, Decision, Game, Result

from .base import NO_OBSERVATION, Bot, needs_observation

#: Called after each bot action is applied, with the game, the player and the action.
StepCallback = Callable[[Game, int, Action], None]


class BotError(RuntimeError):
    """A bot that broke the contract (an illegal or malformed answer); the message names it."""


def bot_move(game: Game, bot: Bot) -> Action:
    """Ask ``bot`` for the decision now pending, check it, apply it and return it."""
    d = game.decision()
    if d is None:
        raise ValueError("the game is over: there is nothing to decide")
    return _move(game, bot, d)


def _move(game: Game, bot: Bot, d: Decision) -> Action:
    """:func:`bot_move` for the decision ``d`` now pending."""
    legal = game.legal_actions()
    observation = game.observe(d.player) if needs_observation(bot) else NO_OBSERVATION
    action = bot.act(observation, tuple(legal))
    if not isinstance(action, Action):
        raise BotError(f"bot {bot.name!r} (player {d.player}) returned {action!r}, not an Action")
    if action not in legal:
        raise BotError(
            f"bot {bot.name!r} (player {d.player}) returned the illegal action {action}"
            f" for a {d.kind.slug} decision ({len(legal)} legal options)"
        )
    game.apply(action, check=False)  # just checked: one of the legal actions
    return action


def play_game(
    game: Game, bots: Mapping[int, Bot], on_step: StepCallback | None = None
) -> Result | None:
    """Let the bots play until the game is over (return the result) or until a player without
    a bot must decide (return None, leaving the game at that decision)."""
    while True:
        d = game.decision()
        if d is None:
            return game.result()
        bot = bots.get(d.player)
        if bot is None:
            return None
        action = _move(game, bot, d)
        if on_step is not None:
            on_step(game, d.player, action)

"""Search and bot-runner benchmarks behind ``oriflamme bench`` (figures in docs/benchmarks.md).

* :func:`measure_simulate`: whole random-bot games through the bot runner, as ``oriflamme
  simulate`` plays them (the random bot needs no observation, so none is built).
* :func:`measure_ismcts`: ISMCTS iterations per second on positions taken from greedy
  self-play, one search per position, as ``benchmarks/bots/levels.py`` measures the levels.
"""

from __future__ import annotations

import time
from typing import Any

from oriflamme.api import Action, Game, GameConfig
from oriflamme.bots import IsmctsBot, make_bot, play_game

#: The ISMCTS settings measured (the ``hard`` level's, without its time cap).
ISMCTS_SPEC = "ismcts:iterations=1000:opponents=greedy"


def measure_simulate(config: GameConfig, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random-bot games through :func:`~oriflamme.bots.play_game` for about ``seconds``
    (deal, bots and runner included): games/s and decisions/s."""
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(config, seed + games, log=False)
        bots = {p: make_bot("random", seed + games * 8 + p) for p in range(config.players)}
        play_game(game, bots)
        decisions += len(game.history)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": round(games / elapsed, 1),
            "decisions_per_s": round(decisions / elapsed, 1)}


def search_positions(config: GameConfig, count: int, seed: int = 0, per_game: int = 4) -> list[
        tuple[dict[str, Any], list[Action]]]:
    """``count`` decisions with a choice (observation, legal actions) from greedy self-play,
    about ``per_game`` from each game, spread over it (early, middle and late positions)."""
    found: list[tuple[dict[str, Any], list[Action]]] = []
    game_seed = seed
    while len(found) < count:
        game = Game.new(config, game_seed)
        bots = [make_bot("greedy", game_seed * 8 + p) for p in range(config.players)]
        kept = []
        while (decision := game.decision()) is not None:
            legal = game.legal_actions()
            observation = game.observe(decision.player)
            if len(legal) > 1:
                kept.append((observation, legal))
            action = bots[decision.player].act(observation, tuple(legal))
            game.apply(action)
        found.extend(kept[:: max(1, len(kept) // max(1, per_game))])
        game_seed += 1
    return found[:count]


def measure_ismcts(config: GameConfig, positions: int = 8, spec: str = ISMCTS_SPEC,
                   seed: int = 0) -> dict[str, Any]:
    """Iterations per second and milliseconds per decision of ``spec`` on ``positions``
    positions (one search each)."""
    sample = search_positions(config, positions, seed)
    bot = make_bot(spec, seed=1)
    assert isinstance(bot, IsmctsBot)
    iterations = 0
    start = time.perf_counter()
    for observation, legal in sample:
        bot.act(observation, legal)
        iterations += bot.last_search.iterations
    elapsed = time.perf_counter() - start
    return {"bot": spec, "positions": len(sample),
            "iterations_per_s": round(iterations / elapsed, 1),
            "ms_per_decision": round(elapsed / len(sample) * 1000, 1)}

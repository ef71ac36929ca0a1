"""``oriflamme replay``: step through a replay or a save, action by action."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.text import Text

from oriflamme.api import ActionError, Game, RecordError, load
from oriflamme.terminal.labels import GameLabels
from oriflamme.terminal.render import board, result_table, winners_line

from .common import CliError, LineReader, LineSource


def run_replay(
    args: argparse.Namespace, input: LineSource | None = None, console: Console | None = None
) -> int:
    console = console or Console()
    final = load(args.file)
    viewer: int | None = args.player
    if viewer is not None and not 0 <= viewer < final.config.players:
        raise CliError(f"--player must be 0 to {final.config.players - 1}, not {viewer}")
    if final.seed is None:
        labels = GameLabels(final, args.lang)
        console.print(labels.say("no_history"), markup=False)
        console.print(board(final.observe(viewer), labels))
        return 0
    actions = final.history
    game = Game.from_replay(final.replay(), upto=0)
    labels = GameLabels(game, args.lang)
    say = labels.say
    who = labels.player(viewer) if viewer is not None else say("a_spectator")
    console.print(
        say(
            "replay_banner",
            players=game.config.players,
            seed=game.seed,
            actions=len(actions),
            viewer=who,
            **say.setup(game.config),
        ),
        markup=False,
    )
    console.print(board(game.observe(viewer), labels))
    reader = LineReader(console, input)
    waiting = not args.all
    for step, action in enumerate(actions, start=1):
        if waiting:
            answer = reader.read(say("next_or_quit"))
            if answer is None:
                waiting = False
            elif answer.strip().lower() in say("quit_words").split():
                return 0
        d = game.decision()
        if action not in game.legal_actions():  # before any label: the action may name nothing
            raise RecordError(f"action {step} ({action}) is not legal at that point")
        who = labels.player(d.player) if d is not None else "?"
        label = labels.action(action, viewer)
        start = len(game.events(None))
        try:
            game.apply(action)
        except ActionError as exc:
            raise RecordError(f"action {step} ({action}): {exc}") from None
        console.rule(f"{step}/{len(actions)} · {who}: {label}")
        for line in labels.log_lines(viewer, start):
            console.print(f"  {line}", markup=False, highlight=False)
        console.print(board(game.observe(viewer), labels))
    if game.position() != final.position():
        console.print(Text(say("position_differs"), style="red"))
    result = game.result()
    if result is not None:
        console.print(result_table(result, labels))
        console.print(Text(winners_line(result, labels), style="bold"))
    return 0

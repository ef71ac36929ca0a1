"""``oriflamme play``: a game in the terminal, humans (hot-seat) against bots."""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.text import Text

from oriflamme.api import Action, ActionError, CardType, Game, card_help, new_game
from oriflamme.bots import Bot, play_game

from .common import CliError, LineReader, LineSource, check_first_player, seat_bots
from .labels import Labels
from .render import board, options_list, result_table, winners_line

#: How many log lines a turn shows at most (``log`` shows them all).
RECENT_EVENTS = 25

COMMANDS_HELP = """\
Answer with the number of an option or its notation (e.g. 'reveal 12', 'place 3 end').
Commands:
  help CARD   the text of a card, e.g. 'help soldier' or 'help royal decree'
  board       show the table and the options again
  log         the whole game log as you may see it
  save FILE   save the game (JSON; 'oriflamme replay FILE' plays it back)
  quit        leave the game"""


class _Quit(Exception):
    """The player typed quit."""


class _EndOfInput(Exception):
    """The input ended while the game waited for an answer."""


class PlaySession:
    """One game between the humans at ``humans`` seats and ``bots``."""

    def __init__(
        self,
        game: Game,
        humans: Sequence[int],
        bots: dict[int, Bot],
        console: Console,
        reader: LineReader,
        lang: str = "en",
    ) -> None:
        self.game = game
        self.humans = tuple(humans)
        self.bots = bots
        self.console = console
        self.reader = reader
        self.labels = Labels(game, lang)
        self.lang = lang
        self.seen: dict[int | None, int] = {}
        self.last_human: int | None = None
        #: Whose eyes the shared screen is for outside a turn: the only human, or nobody.
        self.screen_viewer = self.humans[0] if len(self.humans) == 1 else None

    # -- the game loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end; 0 when finished or quit, 1 if the input ended first."""
        try:
            while True:
                play_game(self.game, self.bots, on_step=self._after_bot)
                if self.game.is_over:
                    break
                if not self._forced_move():
                    d = self.game.decision()
                    assert d is not None
                    self._human_turn(d.player)
        except _Quit:
            self.console.print("Game abandoned.")
            return 0
        except _EndOfInput:
            self.console.print("[red]The input ended before the game did.[/red]")
            return 1
        self._finish()
        return 0

    def _after_bot(self, game: Game, player: int, action: Action) -> None:
        if not self.humans:
            self._print_events(None)

    def _forced_move(self) -> bool:
        """Apply a decision that has a single option, saying so; False if there is a choice."""
        legal = self.game.legal_actions()
        d = self.game.decision()
        if len(legal) != 1 or d is None:
            return False
        label = self.labels.action(legal[0], self.screen_viewer)
        self.game.apply(legal[0])
        who = self.labels.player(d.player)
        self.console.print(f"Only one option for {who}: {label} (applied automatically).")
        return True

    # -- a human's turn -------------------------------------------------------------------------
    def _human_turn(self, player: int) -> None:
        name = self.labels.player(player)
        if len(self.humans) > 1 and self.last_human != player:
            self.console.clear()
            self.console.rule()
            self.console.print(f"Pass to {name}, then press Enter.")
            if self._read("").strip().lower() in ("quit", "exit"):
                raise _Quit
        self.last_human = player
        legal = self.game.legal_actions()
        self._show_turn(player, legal)
        while True:
            line = self._read(f"{name}> ")
            action = self._interpret(line, player, legal)
            if action is not None:
                self.game.apply(action)
                return

    def _show_turn(self, player: int, legal: Sequence[Action]) -> None:
        self.console.rule(self.labels.player(player))
        self._print_events(player)
        self.console.print(board(self.game.observe(player), self.labels))
        self._show_options(player, legal)

    def _show_options(self, player: int, legal: Sequence[Action]) -> None:
        self.console.print(Text(self.labels.prompt(player), style="bold"))
        lines = [self._option_line(a, player) for a in legal]
        self.console.print(options_list(lines))

    def _option_line(self, action: Action, player: int) -> str:
        label = self.labels.action(action, player)
        notation = str(action)
        return label if notation in label else f"{label}  [{notation}]"

    def _interpret(self, line: str, player: int, legal: Sequence[Action]) -> Action | None:
        """The action a line chooses, or None after answering a command or a mistake."""
        words = line.split()
        if not words:
            return None
        command, rest = words[0].lower(), " ".join(words[1:])
        if command in ("quit", "exit"):
            raise _Quit
        if command in ("help", "?"):
            self._help(rest)
            return None
        if command == "log":
            for text in self.labels.log_lines(player) or ["(nothing has happened yet)"]:
                self.console.print(text, markup=False)
            return None
        if command == "board":
            self._show_turn(player, legal)
            return None
        if command == "save":
            self._save(rest)
            return None
        if line.strip().isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self._complain(f"There is no option {number}: choose 1 to {len(legal)}.")
            return None
        try:
            action = Action.parse(line)
        except ActionError:
            self._complain(
                f"Not understood: {line.strip()!r}. Type an option number (1 to {len(legal)}),"
                " an action such as 'reveal 12', or 'help'."
            )
            return None
        if action not in legal:
            self._complain(f"'{action}' is not a legal option now; type 'board' to see them.")
            return None
        return action

    def _help(self, topic: str) -> None:
        if not topic:
            self.console.print(COMMANDS_HELP, markup=False)
            return
        try:
            card_type = CardType.from_name(topic)
        except ValueError:
            self._complain(f"No card named {topic!r}; try e.g. 'help soldier'.")
            return
        self.console.print(card_help(card_type, self.lang), markup=False)

    def _save(self, path: str) -> None:
        if not path:
            self._complain("Say where to save: save FILE")
            return
        try:
            Path(path).write_text(json.dumps(self.game.save(), indent=1), encoding="utf-8")
        except OSError as exc:
            self._complain(f"Cannot save to {path}: {exc.strerror}")
            return
        self.console.print(f"Saved to {path}.", markup=False)

    def _complain(self, message: str) -> None:
        self.console.print(Text(message, style="red"))

    def _read(self, prompt: str) -> str:
        line = self.reader.read(prompt)
        if line is None:
            raise _EndOfInput
        return line

    # -- events and the end ---------------------------------------------------------------------
    def _print_events(self, viewer: int | None) -> None:
        start = self.seen.get(viewer, 0)
        lines = self.labels.log_lines(viewer, start)
        self.seen[viewer] = start + len(self.game.events(viewer, start))
        if len(lines) > RECENT_EVENTS:
            skipped = len(lines) - RECENT_EVENTS
            self.console.print(f"… {skipped} earlier events (type 'log' to see them)", style="dim")
            lines = lines[-RECENT_EVENTS:]
        for text in lines:
            self.console.print(f"  {text}", markup=False, highlight=False)

    def _finish(self) -> None:
        viewer = self.screen_viewer
        if viewer is None and self.humans:
            self.seen[None] = min(self.seen.get(h, 0) for h in self.humans)
        self.console.rule("The game is over")
        self._print_events(viewer)
        self.console.print(board(self.game.observe(viewer), self.labels))
        result = self.game.result()
        assert result is not None
        self.console.print(result_table(result, self.labels))
        top = max(result.scores)
        tied = [p for p, score in enumerate(result.scores) if score == top]
        if len(tied) > 1:
            names = ", ".join(self.labels.player(p) for p in tied)
            self.console.print(
                f"Tie on {top} Influence between {names}: the most cards controlled in the"
                " Queue wins (R-END-1)."
            )
        self.console.print(Text(winners_line(result, self.labels), style="bold"))


def run_play(
    args: argparse.Namespace, input: LineSource | None = None, console: Console | None = None
) -> int:
    """Set up the game the arguments describe and play it."""
    console = console or Console()
    check_first_player(args)
    if not 0 <= args.humans <= args.players:
        raise CliError(f"--humans must be 0 to {args.players} (the players), not {args.humans}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = new_game(
        players=args.players,
        cards=args.cards,
        variant=args.variant,
        edition=args.edition,
        first_player=args.first_player,
        seed=seed,
    )
    humans = list(range(args.humans))
    bots = seat_bots(args.bots, [p for p in range(args.players) if p >= args.humans], seed)
    session = PlaySession(game, humans, bots, console, LineReader(console, input), args.lang)
    labels = session.labels
    cfg = game.config
    console.print(
        f"Oriflamme: {cfg.players} players, {cfg.card_set_name()} cards, {cfg.variant},"
        f" {cfg.edition} edition, seed {seed}.",
        markup=False,
    )
    for p in range(cfg.players):
        who = f"{bots[p].name} bot" if p in bots else "human"
        console.print(f"  seat {p}, {labels.player(p)}: {who}", markup=False)
    if humans:
        console.print("Type 'help' for the commands.")
    return session.run()

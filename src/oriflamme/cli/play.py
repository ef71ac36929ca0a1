"""``oriflamme play``: a game in the terminal, humans (hot-seat) against bots.

Every line it prints is in the game's language: the rules' labels (``oriflamme.api``) and the
terminal's own texts (``oriflamme.terminal.texts``). A game can be saved at any time (``save
FILE``), when it ends, and before leaving (``quit``, Ctrl-C), and continued later with ``--load
FILE``.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from oriflamme.api import Action, ActionError, CardType, Game, card_help, load, new_game
from oriflamme.bots import Bot, bot_move
from oriflamme.bots.base import check_bot_setup
from oriflamme.terminal.labels import GameLabels
from oriflamme.terminal.render import board, options_list, result_table, winners_line

from .common import CliError, LineReader, LineSource, check_first_player, seat_bots

#: How many log lines a turn shows at most (``log`` shows them all).
RECENT_EVENTS = 25
#: The options that set a game up (a loaded game brings its own), and their defaults.
SETUP_DEFAULTS: dict[str, Any] = {
    "players": 3,
    "cards": "base",
    "variant": None,
    "first_player": 0,
    "edition": "revised",
    "seed": None,
}


class _Quit(Exception):
    """The player typed quit."""


class _EndOfInput(Exception):
    """The input ended while the game waited for an answer."""


def save_name(text: str) -> Path:
    """The file a typed name means: quotes around it are not part of it, ``~`` is the home."""
    name = text.strip()
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        name = name[1:-1].strip()
    return Path(name).expanduser()


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
        save_to: Path | None = None,
    ) -> None:
        self.game = game
        self.humans = tuple(humans)
        self.bots = bots
        self.console = console
        self.reader = reader
        self.labels = GameLabels(game, lang)
        self.say = self.labels.say
        self.lang = lang
        self.save_to = save_to
        self.seen: dict[int | None, int] = {}
        self.last_human: int | None = None
        #: Whose eyes the shared screen is for outside a turn: the only human, or nobody.
        self.screen_viewer = self.humans[0] if len(self.humans) == 1 else None

    # -- the game loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end; 0 when finished or left, 1 if the input ended first."""
        try:
            while not self.game.is_over:
                d = self.game.decision()
                assert d is not None
                if d.player in self.bots:
                    self._bot_turn(d.player)
                elif not self._forced_move():
                    self._human_turn(d.player)
        except _Quit:
            self._leave("abandoned")
            return 0
        except KeyboardInterrupt:
            self.console.print()
            self._leave("interrupted")
            return 130
        except _EndOfInput:
            self.console.print(Text(self.say("input_ended"), style="red"))
            if self.save_to is not None:
                self._write(self.save_to, ask=False)
            return 1
        self._finish()
        return 0

    def _bot_turn(self, player: int) -> None:
        """The bot of ``player`` decides, with a spinner while it thinks (on a terminal)."""
        bot = self.bots[player]
        thinking = self.say("thinking", player=self.labels.player(player), bot=bot.name)
        status = self.console.status(thinking) if self.console.is_terminal else nullcontext()
        with status:
            bot_move(self.game, bot)
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
        self.console.print(self.say("only_option", player=who, label=label), markup=False)
        return True

    # -- a human's turn -------------------------------------------------------------------------
    def _human_turn(self, player: int) -> None:
        name = self.labels.player(player)
        if len(self.humans) > 1 and self.last_human != player:
            self.console.clear()
            self.console.rule()
            self.console.print(self.say("pass_to", player=name), markup=False)
            if self.say.command(self._read("").strip() or "-") == "quit":
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
        command, rest = self.say.command(words[0]), line.strip()[len(words[0]) :].strip()
        if command == "quit":
            raise _Quit
        if command == "help":
            self._help(rest)
            return None
        if command == "log":
            for text in self.labels.log_lines(player) or [self.say("nothing_yet")]:
                self.console.print(text, markup=False)
            return None
        if command == "board":
            self._show_turn(player, legal)
            return None
        if command == "save":
            if not rest:
                self._complain(self.say("save_where"))
            else:
                self._write(save_name(rest), ask=True)
            return None
        if line.strip().isdigit():
            number = int(line)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self._complain(self.say("no_option", n=number, count=len(legal)))
            return None
        try:
            action = Action.parse(line)
        except ActionError:
            self._complain(self.say("not_understood", line=line.strip(), count=len(legal)))
            return None
        if action not in legal:
            self._complain(self.say("not_legal", action=action))
            return None
        return action

    def _help(self, topic: str) -> None:
        if not topic:
            self.console.print(self.say("help"), markup=False)
            return
        try:
            card_type = CardType.from_name(topic)
        except ValueError:
            self._complain(self.say("no_card", name=topic))
            return
        self.console.print(card_help(card_type, self.lang), markup=False)

    # -- saving and leaving ---------------------------------------------------------------------
    def _write(self, path: Path, ask: bool) -> bool:
        """Save the whole game to ``path``; an existing file is replaced only if the player says
        so (``ask``) or ``--force`` allowed it already. True if saved."""
        if ask and path.exists() and not self._confirm(self.say("overwrite", path=path)):
            self.console.print(self.say("not_overwritten", path=path), markup=False)
            return False
        try:
            path.write_text(json.dumps(self.game.save(), indent=1), encoding="utf-8")
        except OSError as exc:
            self._complain(self.say("cannot_save", path=path, reason=exc.strerror or exc))
            return False
        self.console.print(self.say("saved", path=path), markup=False)
        return True

    def _confirm(self, question: str) -> bool:
        answer = self.reader.read(question)
        return answer is not None and self.say.yes(answer)

    def _offer_save(self, question: str) -> None:
        """Save where ``--save`` says, or ask for a file name (Enter: no save)."""
        if self.save_to is not None:
            self._write(self.save_to, ask=False)
            return
        if not self.humans:
            return
        while True:
            try:
                answer = self.reader.read(question)
            except KeyboardInterrupt:  # a second Ctrl-C leaves at once
                return
            if answer is None or not answer.strip():
                return
            if self._write(save_name(answer), ask=True):
                return

    def _leave(self, why: str) -> None:
        self._offer_save(self.say("offer_save"))
        self.console.print(self.say(why), markup=False)

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
            self.console.print(self.say("earlier_events", n=skipped), style="dim")
            lines = lines[-RECENT_EVENTS:]
        for text in lines:
            self.console.print(f"  {text}", markup=False, highlight=False)

    def _finish(self) -> None:
        viewer = self.screen_viewer
        if viewer is None and self.humans:
            self.seen[None] = min(self.seen.get(h, 0) for h in self.humans)
        self.console.rule(self.say("game_over"))
        self._print_events(viewer)
        self.console.print(board(self.game.observe(viewer), self.labels))
        result = self.game.result()
        assert result is not None
        self.console.print(result_table(result, self.labels))
        top = max(result.scores)
        tied = [p for p, score in enumerate(result.scores) if score == top]
        if len(tied) > 1:
            names = ", ".join(self.labels.player(p) for p in tied)
            self.console.print(self.say("tie", score=top, players=names), markup=False)
        self.console.print(Text(winners_line(result, self.labels), style="bold"))
        self._offer_save(self.say("offer_save_end"))


def _setup(args: argparse.Namespace) -> dict[str, Any]:
    """The set-up options: those given, the others at their defaults."""
    return {name: getattr(args, name, default) for name, default in SETUP_DEFAULTS.items()}


def _given(args: argparse.Namespace) -> list[str]:
    return [name for name in SETUP_DEFAULTS if hasattr(args, name)]


def run_play(
    args: argparse.Namespace, input: LineSource | None = None, console: Console | None = None
) -> int:
    """Set up the game the arguments describe (or load it) and play it."""
    console = console or Console()
    save_to = None if args.save is None else save_name(str(args.save))
    if save_to is not None and save_to.exists() and not args.force:
        raise CliError(f"--save: {save_to} exists already (add --force to replace it)")
    if args.load is not None:
        given = _given(args)
        if given:
            option = "--" + given[0].replace("_", "-")
            raise CliError(f"{option} is not allowed with --load (the saved game sets it)")
        game = load(save_name(str(args.load)))
        if game.is_over:
            raise CliError(
                f"{args.load}: this game is over ('oriflamme replay {args.load}' shows it)"
            )
        seed = game.seed if game.seed is not None else random.SystemRandom().randrange(2**31)
    else:
        setup = _setup(args)
        check_first_player(argparse.Namespace(**setup))
        seed = setup["seed"]
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        game = new_game(
            players=setup["players"],
            cards=setup["cards"],
            variant=setup["variant"],
            edition=setup["edition"],
            first_player=setup["first_player"],
            seed=seed,
        )
    players = game.config.players
    if not 0 <= args.humans <= players:
        raise CliError(f"--humans must be 0 to {players} (the players), not {args.humans}")
    humans = list(range(args.humans))
    bots = seat_bots(args.bots, [p for p in range(players) if p >= args.humans], seed)
    for bot in bots.values():
        check_bot_setup(bot, game.config)
    reader = LineReader(console, input)
    session = PlaySession(game, humans, bots, console, reader, args.lang, save_to)
    say, labels = session.say, session.labels
    words = say.setup(game.config)
    if args.load is not None:
        line = say("banner_loaded", file=args.load, players=players, round=game.round, **words)
    else:
        line = say("banner", players=players, seed=seed, **words)
    console.print(line, markup=False)
    for p in range(players):
        if p in bots:
            text = say("seat_bot", seat=p, player=labels.player(p), bot=bots[p].name)
        else:
            text = say("seat_human", seat=p, player=labels.player(p))
        console.print(text, markup=False)
    if humans:
        console.print(say("type_help"), markup=False)
    return session.run()

"""The ``oriflamme`` command: play, simulate, replay, bench.

Bad input ends with a one-line message on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from oriflamme import __version__
from oriflamme.api import ConfigError, RecordError
from oriflamme.bots import BotSpecError, known_bots
from oriflamme.build import build_name

from .accounts import add_parser as add_accounts_parser
from .common import CliError, LineSource, file_path, seconds, whole
from .db import add_parser as add_db_parser
from .ratings import add_parser as add_ratings_parser
from .serve import add_parser as add_serve_parser
from .tournament import add_parser as add_tournament_parser
from .train import add_parser as add_train_parser

if TYPE_CHECKING:
    from rich.console import Console

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class _Version(argparse.Action):
    """``--version``: the version and the build (compiled or pure), found only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any) -> None:
        print(f"oriflamme {__version__} ({build_name()})")  # on stdout, as argparse's own
        parser.exit()


def _first_player(text: str) -> int | None:
    if text.strip().lower() == "random":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a player number or 'random', not {text!r}"
        ) from None


#: Seeds are 64-bit (what storage and the tournament files keep).
SEED = whole(0, 2**63 - 1)


def _add_game_options(
    parser: argparse.ArgumentParser,
    default_players: int | None,
    default_bots: str,
    unset: bool = False,
) -> None:
    """The set-up options; with ``unset``, options not given are left out of the arguments
    (``play.SETUP_DEFAULTS`` fills them in), so that the command sees which ones were given."""

    def default(value: object) -> object:
        return argparse.SUPPRESS if unset else value

    parser.add_argument(
        "--players",
        type=whole(2, 5),
        default=default(default_players),
        required=default_players is None,
        metavar="N",
        help="number of players, 2 to 5"
        + (f" (default {default_players})" if default_players else ""),
    )
    parser.add_argument(
        "--cards",
        default=default("base"),
        metavar="SET",
        help="'base', 'embrasement', or 10 card names separated by commas (default base)",
    )
    parser.add_argument(
        "--variant",
        choices=("two-families", "standard"),
        default=default(None),
        help="two-families (the 2-player variant, default for 2 players) or standard",
    )
    parser.add_argument(
        "--first-player",
        type=_first_player,
        default=default(0),
        metavar="P",
        help="who places first in round 1: a player number or 'random' (default 0)",
    )
    parser.add_argument(
        "--edition",
        choices=("revised", "first"),
        default=default("revised"),
        help="rules edition (default revised)",
    )
    bots = ", ".join(known_bots())
    parser.add_argument(
        "--bots",
        default=default_bots,
        metavar="SPEC",
        help="bot for the bot seats, or a comma list, one per seat: a level (easy, medium, hard,"
        f" expert) or a bot spec (default {default_bots}; known bots: {bots})",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="oriflamme",
        description="Oriflamme and Oriflamme Embrasement in the terminal.",
        epilog="Run 'oriflamme COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action=_Version, help="show the version and the build")
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play a game in the terminal against bots or friends (hot-seat)",
        description="Play a game. You are seat 0; the other seats are bots unless --humans "
        "gives more seats to people sharing this terminal. --load continues a saved game.",
    )
    _add_game_options(play, default_players=3, default_bots="medium", unset=True)
    play.add_argument(
        "--seed",
        type=SEED,
        default=argparse.SUPPRESS,
        metavar="S",
        help="seed of the deal (default: a random one, printed)",
    )
    play.add_argument(
        "--load",
        type=file_path,
        default=None,
        metavar="FILE",
        help="continue a saved game, a position or a replay (the file sets the players, cards,"
        " variant and edition; seats and bots as for a new game)",
    )
    play.add_argument(
        "--save",
        type=file_path,
        default=None,
        metavar="FILE",
        help="write the whole game to FILE when it ends (or is left)",
    )
    play.add_argument(
        "--force",
        action="store_true",
        help="with --save: replace FILE if it exists (otherwise an existing file is refused)",
    )
    play.add_argument("--lang", choices=("en", "fr"), default="en", help="language (default en)")
    play.add_argument(
        "--humans",
        type=whole(0, 5),
        default=1,
        metavar="K",
        help="the first K seats are humans taking turns at this terminal "
        "(default 1; 0 watches bots play)",
    )

    simulate = commands.add_parser(
        "simulate",
        help="play many bot games and summarise the results",
        description="Play K games between bots and report mean scores, wins and game length.",
    )
    _add_game_options(simulate, default_players=None, default_bots="random")
    simulate.add_argument(
        "--games", type=whole(1), required=True, metavar="K", help="number of games"
    )
    simulate.add_argument(
        "--seed",
        type=SEED,
        default=0,
        metavar="S",
        help="seed of the first game; game i uses S+i (default 0)",
    )
    simulate.add_argument(
        "--jobs",
        type=whole(1, 256),
        default=1,
        metavar="N",
        help="worker processes (default 1); the summary is the same for any N",
    )
    simulate.add_argument(
        "--json", action="store_true", help="print one JSON object instead of a table"
    )

    replay = commands.add_parser(
        "replay",
        help="step through a replay or a saved game",
        description="Show a replay or a save action by action: the events and the board.",
    )
    replay.add_argument("file", metavar="FILE", help="a replay or save file (JSON)")
    replay.add_argument("--lang", choices=("en", "fr"), default="en", help="language")
    seen = replay.add_mutually_exclusive_group()
    seen.add_argument(
        "--player", type=whole(0, 4), default=None, metavar="P",
        help="show what player P (0 to 4) could see",
    )
    seen.add_argument(
        "--public", action="store_true", help="show what a spectator could see (the default)"
    )
    pace = replay.add_mutually_exclusive_group()
    pace.add_argument(
        "--step",
        action="store_true",
        help="wait for Enter after each action, q to quit (the default)",
    )
    pace.add_argument("--all", action="store_true", help="print everything without waiting")

    bench = commands.add_parser(
        "bench",
        help="measure the speed of the engine, the bots and the adapters",
        description="Measure, on the build in use (compiled or pure Python): random playouts"
        " of every set-up, the engine loops, random-bot games through the bot runner, ISMCTS"
        " iterations per second and the adapters' step cost (with the rl extra). Pin it to one"
        " core (taskset -c 1 oriflamme bench) for stable figures.",
    )
    bench.add_argument(
        "--seconds",
        type=seconds(0, 3600, above=True),
        default=2.0,
        metavar="T",
        help="time per figure (default 2; the whole run takes about 15 times that)",
    )
    bench.add_argument("--json", action="store_true", help="print JSON instead of tables")
    bench.add_argument(
        "--other",
        action="append",
        metavar="PYTHON",
        help="also run the benchmark with this python (another install, e.g. the pure build"
        " beside a compiled one) and print both side by side; repeatable",
    )

    add_tournament_parser(commands)
    add_train_parser(commands)
    add_serve_parser(commands)
    add_db_parser(commands)
    add_ratings_parser(commands)
    add_accounts_parser(commands)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: LineSource | None = None,
    console: Console | None = None,
) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        for argument in arguments:
            # argparse reads "--option=--" as an empty list, not as a missing value.
            if argument.startswith("--") and argument.endswith("=--"):
                name = argument.split("=", 1)[0]
                parser.error(f"argument {name}: expected a value, not '--'")
        args = parser.parse_args(arguments)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    try:
        # Each command's module is imported when it runs: start-up stays short (simulate).
        if args.command == "play":
            from .play import run_play

            return run_play(args, input=stdin, console=console)
        if args.command == "simulate":
            from .simulate import run_simulate

            return run_simulate(args, console=console)
        if args.command == "replay":
            from .replay import run_replay

            return run_replay(args, input=stdin, console=console)
        if args.command == "bench":
            from .bench import run_bench

            return run_bench(args, console=console)
        if args.command == "tournament":
            from .tournament import run_tournament

            return run_tournament(args, console=console)
        if args.command == "train":
            from .train import run_train

            return run_train(args, console=console)
        if args.command == "serve":
            from .serve import run_serve

            return run_serve(args)
        if args.command == "db":
            from .db import run_db

            return run_db(args)
        if args.command == "ratings":
            from .ratings import run_ratings

            return run_ratings(args)
        if args.command == "accounts":
            from .accounts import run_accounts

            return run_accounts(args)
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    except (CliError, ConfigError, RecordError, BotSpecError) as exc:
        print(f"oriflamme {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""What the commands share: the error type, reading lines, seats and seeds of bots."""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from oriflamme.bots import Bot, bot_maker

if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console


class CliError(Exception):
    """Bad input on the command line; ``main`` prints the message and exits with code 2."""


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` (to ``high``), with a clear message.

    >>> whole(2, 5)("3")
    3
    >>> whole(2, 5)("7")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a whole number from 2 to 5, not '7'
    """
    wanted = f"from {low} to {high}" if high is not None else f"of at least {low}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected a whole number {wanted}, not {text!r}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def check_first_player(args: argparse.Namespace) -> None:
    """``--first-player`` names one of ``--players`` seats (or is ``random``: None)."""
    first, players = args.first_player, args.players
    if first is not None and not 0 <= first < players:
        raise CliError(
            f"--first-player must be a seat from 0 to {players - 1} or 'random', not {first}"
        )


def seconds(low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse type: seconds from ``low`` (excluded if ``above``) to ``high``."""
    wanted = f"more than {low:g} and at most {high:g}" if above else f"from {low:g} to {high:g}"

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        if not (value > low if above else value >= low) or not value <= high:
            raise argparse.ArgumentTypeError(f"expected seconds {wanted}, not {text!r}")
        return value

    parse.__name__ = "seconds"
    return parse


def file_path(text: str) -> Path:
    """A file option's value, for argparse's ``type``: pathlib is imported when a command
    runs with one, not by every start (3 ms)."""
    from pathlib import Path

    return Path(text)


#: Seats are below this (5 players at most): each game's bots get seeds of their own.
_SEATS = 8


def bot_seed(seed: int, seat: int) -> int:
    """A stable seed for the bot at ``seat`` of the game dealt with ``seed``: distinct for every
    game and seat. Consecutive values need no mixing here: every bot's generator mixes its
    seed (the random bot's ``Draws`` through SplitMix64, ``random.Random`` its own way).

    >>> bot_seed(5, 0), bot_seed(5, 2), bot_seed(6, 0)
    (40, 42, 48)
    """
    if not 0 <= seat < _SEATS:
        raise ValueError(f"a seat is 0 to {_SEATS - 1}, not {seat}")
    return seed * _SEATS + seat


def seat_makers(specs: str, seats: Sequence[int]) -> dict[int, Callable[[int], Bot]]:
    """For each of ``seats``, what makes its bot from a seed (:func:`bot_maker`), from a comma
    list of specs (the last one fills the remaining seats); every spec is checked here."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if not names:
        raise CliError("--bots needs at least one bot name")
    if len(names) > max(len(seats), 1):
        raise CliError(f"--bots names {len(names)} bots but there are {len(seats)} bot seats")
    makers = {name: bot_maker(name) for name in names}
    return {seat: makers[names[min(i, len(names) - 1)]] for i, seat in enumerate(seats)}


def seat_bots(specs: str, seats: Sequence[int], seed: int) -> dict[int, Bot]:
    """Bots for ``seats`` from a comma list of specs (the last one fills the remaining seats),
    each seeded with :func:`bot_seed` of the game's ``seed`` and its seat."""
    return {seat: make(bot_seed(seed, seat)) for seat, make in seat_makers(specs, seats).items()}


class LineSource(Protocol):
    """Where answers come from: a text stream such as ``sys.stdin`` or ``io.StringIO``."""

    def readline(self) -> str: ...


class LineReader:
    """Reads answers from a stream (tests, pipes) or from the terminal."""

    def __init__(self, console: Console, stream: LineSource | None = None) -> None:
        self.console = console
        self.stream = stream

    def read(self, prompt: str = "> ") -> str | None:
        """One line without its newline, or None at the end of the input."""
        self.console.print(prompt, end="", markup=False, highlight=False)
        if self.stream is None:
            try:
                return input()
            except EOFError:
                return None
        line = self.stream.readline()
        if not line:
            return None
        if not self.console.is_terminal:
            self.console.print(line.rstrip("\n"), markup=False, highlight=False)
        return line.rstrip("\r\n")


@contextmanager
def progress(what: str, total: int, unit: str) -> Iterator[Callable[[int], None]]:
    """Report ``n`` more of ``total`` units done by calling the yielded function: a bar on a
    terminal (stderr), else one line on stderr at every tenth, with the time left (a long run
    whose output goes to a file or a pipe is never silent)."""
    if sys.stderr.isatty():
        from rich.console import Console  # imported when used: start-up stays short
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (
            TextColumn(what),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(unit, total=total)
            yield lambda n: bar.advance(task, n)
        return
    started = time.perf_counter()
    done = 0
    next_tenth = 1

    def report(n: int) -> None:
        nonlocal done, next_tenth
        done += n
        if done * 10 < next_tenth * total:
            return
        next_tenth = done * 10 // total + 1
        elapsed = time.perf_counter() - started
        left = elapsed * (total - done) / done
        print(
            f"{what}: {done}/{total} {unit} ({100 * done // total}%), {elapsed:.1f} s,"
            f" about {left:.0f} s left",
            file=sys.stderr,
            flush=True,
        )

    yield report

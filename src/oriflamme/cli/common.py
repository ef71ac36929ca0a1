"""What the commands share: the error type, reading lines, seats and seeds of bots."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from rich.console import Console

from oriflamme.bots import Bot, make_bot


class CliError(Exception):
    """Bad input on the command line; ``main`` prints the message and exits with code 2."""


def bot_seed(seed: int, seat: int) -> int:
    """A stable seed for the bot at ``seat`` of the game dealt with ``seed``."""
    digest = hashlib.blake2b(f"{seed}/{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def seat_bots(specs: str, seats: Sequence[int], seed: int) -> dict[int, Bot]:
    """Bots for ``seats`` from a comma list of specs (the last one fills the remaining seats)."""
    names = [s.strip() for s in specs.split(",") if s.strip()]
    if not names:
        raise CliError("--bots needs at least one bot name")
    if len(names) > max(len(seats), 1):
        raise CliError(f"--bots names {len(names)} bots but there are {len(seats)} bot seats")
    return {
        seat: make_bot(names[min(i, len(names) - 1)], bot_seed(seed, seat))
        for i, seat in enumerate(seats)
    }


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

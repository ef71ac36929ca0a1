"""The ``oriflamme`` command line: terminal play, simulations, replays and benchmarks."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]

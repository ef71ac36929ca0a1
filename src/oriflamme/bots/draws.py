"""A small seeded random generator for bots that draw an index per decision (the random bot).

``random.Random(seed)`` fills 624 words of Mersenne Twister state before its first draw
(about 4 µs, more than a dozen engine steps); a simulation makes a bot per seat per game, so
that seeding alone was a fifth of a compiled random game. :class:`Draws` is a 64-bit linear
congruential generator (Knuth's MMIX constants) whose top 32 bits are scaled to the range
asked for by Lemire's method (2019), rejection step included, so that every index is exactly
equally likely. Seeding it is one operation and a draw a handful, the same in the pure and
compiled builds (the same numbers too). Its statistical quality is below the Mersenne
Twister's and plenty for choosing among a few dozen legal actions; search and the other bots
keep ``random.Random``.

>>> a, b = Draws(2026), Draws(2026)
>>> [a.below(6) for _ in range(8)] == [b.below(6) for _ in range(8)]
True
>>> sorted({Draws(seed).below(3) for seed in range(40)})
[0, 1, 2]
"""

from __future__ import annotations

from typing import Final

_WORD: Final = 0xFFFFFFFF
_WORD64: Final = 0xFFFFFFFFFFFFFFFF
_RANGE: Final = 1 << 32
_MULTIPLIER: Final = 6364136223846793005
_INCREMENT: Final = 1442695040888963407


class Draws:
    """Uniform whole numbers from a seed; the same seed, the same numbers. Seeds equal modulo
    2**64 give the same draws."""

    def __init__(self, seed: int) -> None:
        # One step first, so that nearby seeds (0, 1, 2, ...) start far apart.
        self._state: int = ((seed & _WORD64) * _MULTIPLIER + _INCREMENT) & _WORD64

    def word(self) -> int:
        """The next 32 random bits, as a whole number from 0 to 2**32 - 1."""
        state = self._state = (self._state * _MULTIPLIER + _INCREMENT) & _WORD64
        return state >> 32

    def below(self, count: int) -> int:
        """A uniform whole number from 0 to ``count - 1`` (``count`` from 1 to 2**32). One
        option needs no draw.

        >>> draws = Draws(7)
        >>> all(0 <= draws.below(5) < 5 for _ in range(100)), Draws(7).below(1)
        (True, 0)
        """
        if count > 1:
            state = self._state = (self._state * _MULTIPLIER + _INCREMENT) & _WORD64
            scaled = (state >> 32) * count
            if scaled & _WORD < count:
                # Lemire: a low part below 2**32 mod count is an excess draw; draw again.
                floor = (_RANGE - count) % count
                while scaled & _WORD < floor:
                    state = self._state = (state * _MULTIPLIER + _INCREMENT) & _WORD64
                    scaled = (state >> 32) * count
            return scaled >> 32
        if count == 1:
            return 0
        raise ValueError("no legal action to choose from")

"""A small seeded generator of uniform indices, for players that draw a position among the
legal actions at each decision (the random bot; ``Game.play_by_position``).

``random.Random(seed)`` fills 624 words of Mersenne Twister state before its first draw
(about 4 µs, more than a dozen engine steps); a simulation makes a bot per seat per game, so
that seeding alone was a fifth of a compiled random game. :class:`Draws` is Marsaglia's
multiply-with-carry generator on 32-bit words with the multiplier 698769069 (the one of Jones's
JKISS: 698769069 * 2**32 - 1 is a safe prime, so the period is about 2**61), seeded through
SplitMix64, and its words are scaled to the range asked for by Lemire's method (2019) with its
rejection step, so that every index is exactly equally likely. Every value a draw computes
stays below 2**62 (for up to 2**30 options): the compiled build keeps them in machine words,
and a draw costs a few nanoseconds there. It lives in the rules, and a :class:`Draws` is
itself a pick (calling it is :meth:`Draws.below`), so that the rules' own loop
(``Game.play_by_position``) calls it directly, not as a Python callable; the pure and
compiled builds draw the same numbers. It keeps no global state: each owner seeds its own.
Its statistical quality is below the Mersenne Twister's and plenty for choosing among a few
dozen legal actions; search and the other bots keep ``random.Random``.

>>> a, b = Draws(2026), Draws(2026)
>>> [a.below(6) for _ in range(8)] == [b.below(6) for _ in range(8)]
True
>>> sorted({Draws(seed).below(3) for seed in range(40)})
[0, 1, 2]
"""

from __future__ import annotations

import random
import types
from typing import Final

_WORD: Final = 0xFFFFFFFF
_WORD64: Final = 0xFFFFFFFFFFFFFFFF
_RANGE: Final = 1 << 32
#: The multiplier: below 2**30, so that multiplier * word + carry stays below 2**62.
_MULTIPLIER: Final = 698769069


def _mix64(x: int) -> int:
    """SplitMix64's output function: a 64-bit value with every input bit spread over it."""
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _WORD64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _WORD64
    return x ^ (x >> 31)


#: 2**64 / golden ratio, odd: SplitMix64's step between consecutive states.
_GOLDEN: Final = 0x9E3779B97F4A7C15

#: Whether this module runs compiled (a compiled function is no Python function object).
_COMPILED: Final = not isinstance(_mix64, types.FunctionType)
#: Compiled code multiplies in machine words only when both factors are below this.
_SMALL: Final = 1 << 30


def _times(small: int, word: int) -> int:
    """``small * word`` (``small`` below 2**30, ``word`` below 2**32) as two products of
    16-bit halves: compiled code multiplies a factor of 2**30 or more through Python's big
    integers (a tenth of a compiled random game was such products); interpreted code has no
    such limit, and the two ways give the same number."""
    return (small * (word >> 16) << 16) + small * (word & 0xFFFF)


class Draws:
    """Uniform whole numbers from a seed; the same seed, the same numbers. Seeds equal modulo
    2**64 give the same draws."""

    def __init__(self, seed: int) -> None:
        # SplitMix64's first output for the seed: nearby seeds (0, 1, 2, ...) start far apart.
        mixed = _mix64((seed + _GOLDEN) & _WORD64)
        self._word: int = mixed & _WORD
        self._carry: int = (mixed >> 32) % _MULTIPLIER
        if (self._word, self._carry) in ((0, 0), (_WORD, _MULTIPLIER - 1)):
            self._word = 1  # the two states the generator never leaves

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        # Pickled (and copied) as its state: a compiled class is not rebuilt attribute by
        # attribute the way plain objects are.
        return (_resumed, (self._word, self._carry))

    def __call__(self, count: int) -> int:
        """:meth:`below`: a :class:`Draws` is a pick (``Game.pick_action``, ``play_by_position``).

        >>> Draws(3)(10) == Draws(3).below(10)
        True
        """
        return self.below(count)

    def word(self) -> int:
        """The next 32 random bits, as a whole number from 0 to 2**32 - 1."""
        return self._next_word()

    def below(self, count: int) -> int:
        """A uniform whole number from 0 to ``count - 1`` (``count`` from 1 to 2**32). One
        option needs no draw.

        >>> draws = Draws(7)
        >>> all(0 <= draws.below(5) < 5 for _ in range(100)), Draws(7).below(1)
        (True, 0)
        """
        if count > 1:
            if _COMPILED and count < _SMALL:
                return self._below_compiled(count)
            t = _MULTIPLIER * self._word + self._carry
            self._carry = t >> 32
            word = self._word = t & _WORD
            scaled = word * count
            if scaled & _WORD < count:
                # Lemire: a low part below 2**32 mod count is an excess draw; draw again.
                floor = (_RANGE - count) % count
                while scaled & _WORD < floor:
                    t = _MULTIPLIER * self._word + self._carry
                    self._carry = t >> 32
                    word = self._word = t & _WORD
                    scaled = word * count
            return scaled >> 32
        if count == 1:
            return 0
        raise ValueError("no legal action to choose from")

    # The compiled build's way to the same numbers (below 2**30 options): every product in
    # machine words (_times). The interpreted build keeps the inlined arithmetic of below(),
    # which is faster there.
    def _next_word(self) -> int:
        t = _times(_MULTIPLIER, self._word) + self._carry
        self._carry = t >> 32
        word = self._word = t & _WORD
        return word

    def _below_compiled(self, count: int) -> int:
        while True:
            scaled = _times(count, self._next_word())
            low = scaled & _WORD
            # Lemire's rejection, as in below(): keep unless low < (2**32 - count) % count.
            if low >= count or low >= (_RANGE - count) % count:
                return scaled >> 32


def _resumed(word: int, carry: int) -> Draws:
    """The generator in the state ``Draws.__reduce__`` gave (unpickling, ``copy``)."""
    draws = Draws(0)
    draws._word, draws._carry = word, carry
    return draws


# ``random.Random``'s own ``randrange(n)`` and ``shuffle`` are interpreted Python (a call to the
# generator per step and bookkeeping around it): a fifth of a compiled search's time went to
# them when dealing sampled worlds. These draw exactly the same numbers from the same generator
# (tests compare them with ``random.Random``), so deals and searches stay what they were.
def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` >= 1: the same number, the same draws."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[int]) -> None:
    """``rng.shuffle(items)``: the same order, the same draws (Fisher-Yates from the end, each
    index drawn by rejection from ``getrandbits``).

    >>> a, b = list(range(10)), list(range(10))
    >>> random.Random(5).shuffle(a); shuffle(random.Random(5), b); a == b
    True
    """
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        items[i], items[j] = items[j], items[i]

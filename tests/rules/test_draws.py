"""The random bot's generator (:mod:`oriflamme.rules.draws`, issue #13): exact numbers, uniform
draws, and the same numbers on the pure and the compiled build."""

from __future__ import annotations

import copy
import os
import pickle
import random

import pytest

from doctests import check_examples
from oriflamme.api import Draws, new_game
from oriflamme.bots import RandomBot
from oriflamme.rules import draws as draws_module

#: Draws for the counts 2, 3, 7, 10, 1000000007, 4294967295 in turn (twice), computed by an
#: independent C reading of the generator (SplitMix64's first output seeding a multiply-with-
#: carry in uint64/uint32 arithmetic that wraps by itself, Lemire's bounded draw as published),
#: for seeds 0, 2026 and 2**64 - 1.
COUNTS = (2, 3, 7, 10, 1000000007, 4294967295)
KNOWN = {
    0: [1, 2, 5, 6, 985108583, 545887508, 1, 2, 0, 4, 4169856, 3335182739],
    2026: [0, 2, 4, 5, 131954526, 408327788, 0, 2, 4, 0, 704244983, 3517911107],
    2**64 - 1: [0, 2, 6, 3, 107389869, 2691527096, 1, 2, 5, 5, 257467073, 1237803573],
}
#: The first words for seed 99, from the same C reading.
KNOWN_WORDS = [794856688, 1476944125, 34189740, 3215247042, 4151733656]


@pytest.mark.parametrize("seed", sorted(KNOWN))
def test_known_answers(seed: int) -> None:
    draws = Draws(seed)
    assert [draws.below(COUNTS[k % len(COUNTS)]) for k in range(12)] == KNOWN[seed]


def test_seeds_equal_modulo_2_64_draw_the_same_and_others_differ() -> None:
    def first(seed: int) -> list[int]:
        draws = Draws(seed)
        return [draws.below(1000) for _ in range(20)]

    assert first(-1) == first(2**64 - 1)
    assert first(5) == first(5 + 2**64) == first(5 - 2**64)
    assert len({tuple(first(seed)) for seed in range(200)}) == 200


def test_every_index_equally_likely() -> None:
    """A chi-squared test over 70,000 draws of 7 (99.9999% of honest runs pass: the bound
    is the 1 - 1e-6 quantile of chi-squared with 6 degrees of freedom)."""
    draws, counts = Draws(11), [0] * 7
    for _ in range(70_000):
        counts[draws.below(7)] += 1
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 37.0, counts


def test_the_excess_draws_are_rejected() -> None:
    """With 3 * 2**30 options a bare multiply-and-shift would give every third index two of
    the four words in its reach and the others one (index mod 3 = 0 half the time); Lemire's
    rejection step makes the residues equally likely."""
    draws, residues = Draws(1), [0, 0, 0]
    for _ in range(30_000):
        residues[draws.below(3 << 30) % 3] += 1
    assert all(abs(r - 10_000) < 500 for r in residues), residues


def test_one_option_draws_nothing_and_none_is_an_error() -> None:
    a, b = Draws(3), Draws(3)
    assert a.below(1) == 0
    assert [a.below(9) for _ in range(5)] == [b.below(9) for _ in range(5)]
    for count in (0, -4):
        with pytest.raises(ValueError, match="no legal action to choose from"):
            a.below(count)
    with pytest.raises(ValueError, match="no legal action to choose from"):
        RandomBot(0).act({}, [])


def test_words_are_32_bits() -> None:
    draws = Draws(99)
    words = [draws.word() for _ in range(2000)]
    assert words[:5] == KNOWN_WORDS
    assert all(0 <= w < 2**32 for w in words)
    assert max(words) >= 2**31 and min(words) < 2**28  # the top bit is used


def test_a_copy_or_a_pickle_draws_on_where_the_original_is() -> None:
    """The random bot and its generator can be copied and pickled on either build, and the
    copy continues the same numbers (process pools, users forking a bot)."""
    bot = RandomBot(3)
    assert bot.pick is not None
    before = [bot.pick(9) for _ in range(5)]
    bots = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)]
    following = [bot.pick(9) for _ in range(20)]
    assert before != following[:5]
    for other in bots:
        assert other.pick is not None
        assert [other.pick(9) for _ in range(20)] == following
    draws = Draws(5)
    draws.word()
    copies = [copy.copy(draws), copy.deepcopy(draws), pickle.loads(pickle.dumps(draws))]
    words = [draws.word() for _ in range(10)]
    assert all([c.word() for _ in range(10)] == words for c in copies)


@pytest.mark.parametrize(("players", "cards", "variant"), [
    (3, "base", None), (5, "embrasement", None), (2, "base", "two-families")])
def test_a_draws_is_a_pick_and_plays_as_one(players: int, cards: str, variant: str | None) -> None:
    """A Draws handed to the rules as a pick (called directly there) plays exactly the game
    its ``below`` does as a plain Python callable, and ends in the same state."""
    direct = [Draws(10 + p) for p in range(players)]
    wrapped = [Draws(10 + p) for p in range(players)]
    games = [new_game(players=players, cards=cards, variant=variant, seed=4) for _ in "ab"]
    games[0].play_by_position(direct)
    games[1].play_by_position([lambda n, d=d: d.below(n) for d in wrapped])
    assert games[0].is_over and games[0].history == games[1].history
    assert [d.word() for d in direct] == [d.word() for d in wrapped]
    step = new_game(players=players, cards=cards, variant=variant, seed=4)
    picks = [Draws(10 + p) for p in range(players)]
    while not step.is_over:
        player = step.current_player
        assert player is not None
        step.apply(step.pick_action(picks[player]))
    assert step.history == games[0].history
    assert Draws(8)(5) == Draws(8).below(5)


def test_both_ways_to_draw_give_the_same_numbers() -> None:
    """The compiled build draws through 16-bit halves (``_times``: products in machine words),
    the interpreted one with plain products: the same words and indices for every count below
    2**30, rejections included (checked here on either build, whichever way it uses)."""
    expected = os.environ.get("ORIFLAMME_EXPECT_BUILD")
    if expected:
        assert (expected == "compiled") == draws_module._COMPILED
    for seed in (0, 7, 2026, 2**64 - 1):
        plain, split = Draws(seed), Draws(seed)
        assert [plain.word() for _ in range(50)] == [split._next_word() for _ in range(50)]
        for count in (2, 3, 7, 10, 1000, 2**29 + 1, 2**30 - 1):
            assert [plain.below(count) for _ in range(40)] == [
                split._below_compiled(count) for _ in range(40)]
    assert all(draws_module._times(a, w) == a * w
               for a in (0, 1, 3, 698769069, 2**30 - 1) for w in (0, 1, 65535, 65536, 2**32 - 1))


def test_randbelow_and_shuffle_draw_as_random_does() -> None:
    """The rules' ``randbelow`` and ``shuffle`` (what deals and sampled worlds use) give the same
    numbers as ``random.Random``'s ``randrange`` and ``shuffle`` and leave the generator in the
    same state: deals and searches are what they were."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 8, 10, 17, 64, 1000, 2**40 + 3):
            assert [draws_module.randbelow(ours, n) for _ in range(30)] == [
                theirs.randrange(n) for _ in range(30)]
        for size in (0, 1, 2, 7, 10, 30):
            mine, reference = list(range(size)), list(range(size))
            draws_module.shuffle(ours, mine)
            theirs.shuffle(reference)
            assert mine == reference
        assert ours.getstate() == theirs.getstate()


def test_docstring_examples() -> None:
    check_examples(draws_module)

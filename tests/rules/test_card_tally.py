"""``Game.card_tally`` (issue #13: the tournament's card statistics without JSON) against an
independent reading of the public event log and the final public view."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest

from oriflamme.api import CardType, Game, new_game
from oriflamme.tournament.worker import UNKNOWN, count_cards

SETUPS: list[dict[str, Any]] = [
    {"players": p, "cards": c} for p in (3, 4, 5) for c in ("base", "embrasement")
] + [
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
    {"players": 4, "cards": "soldier,spy,heir,lord,prince,queen,trap,felon,schemer,archer"},
]


def read_from_the_log(game: Game) -> dict[str, Counter[str]]:
    """The statistics as the rules describe them, from ``events(None)``, the position's card
    references (``colour:type``) and the public view of the Queue."""
    type_of = {card: ref.partition(":")[2] for ref, card in game.position()["ids"].items()}
    counts: dict[str, Counter[str]] = {
        name: Counter() for name in ("influence", "revealed", "eliminated", "hidden")
    }
    for e in game.events(None):
        if e["kind"] in ("revealed", "eliminated"):
            counts[e["kind"]][type_of[e["card"]]] += 1
        elif e["kind"] in ("gained", "stole"):
            source = e["card"]
            counts["influence"][UNKNOWN if source is None else type_of[source]] += e["amount"]
    for stack in game.observe(None)["queue"]:
        for entry in stack:
            if not entry["face_up"]:
                counts["hidden"][type_of[entry["id"]]] += 1
    return counts


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: "-".join(map(str, s.values()))[:40])
def test_the_tally_is_what_the_log_says(setup: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(25):
        game = new_game(**setup, seed=seed)
        rng = random.Random(seed)
        # Midway (between two decisions) and at the end.
        for _ in range(rng.randrange(5, 40)):
            if game.is_over:
                break
            game.apply(game.random_action(rng))
        for _ in range(2):
            expected = read_from_the_log(game)
            counts = count_cards(game)
            assert counts.influence == expected["influence"]
            assert counts.revealed == expected["revealed"]
            assert counts.eliminated == expected["eliminated"]
            assert counts.hidden == expected["hidden"]
            # Only what happened is listed, and nothing comes from an unknown source.
            for counter in (counts.influence, counts.revealed, counts.eliminated, counts.hidden):
                assert all(n != 0 for n in counter.values())
            assert UNKNOWN not in counts.influence
            tally = game.card_tally()
            assert {t.slug: n for t, n in tally.by_type()["revealed"].items()} == counts.revealed
            for name in ("influence", "revealed", "eliminated", "hidden"):
                seen[name] += sum(getattr(tally, name))
            game.playout(rng)
    # The games exercised every figure.
    assert all(seen[name] > 0 for name in ("influence", "revealed", "eliminated", "hidden"))


def test_a_game_without_a_log_has_no_tally() -> None:
    game = new_game(3, seed=1, log=False)
    with pytest.raises(ValueError, match="keeps no log"):
        game.card_tally()
    fresh = new_game(3, seed=1).card_tally()
    assert fresh.by_type() == {"influence": {}, "revealed": {}, "eliminated": {}, "hidden": {}}
    assert len(fresh.influence) == len(CardType)


def test_tallies_compare_by_their_counts() -> None:
    def played(seed: int, moves: int) -> Game:
        game = new_game(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            game.apply(game.random_action(rng))
        return game

    tally = played(4, 30).card_tally()
    same = played(4, 30).card_tally()
    assert tally is not same
    assert tally == same
    assert pickle.loads(pickle.dumps(tally)) == tally
    assert tally != played(4, 12).card_tally()
    assert tally != tally.by_type()
    for name in ("influence", "revealed", "eliminated", "hidden"):
        other = played(4, 30).card_tally()
        getattr(other, name)[CardType.LORD] += 1
        assert other != tally, name
    same.unknown_influence += 1
    assert same != tally
    # Mutable: equal tallies could not keep one hash.
    with pytest.raises(TypeError):
        hash(tally)


def test_a_tally_shows_its_counts() -> None:
    tally = new_game(3, seed=1).card_tally()
    assert repr(tally) == (
        "CardTally(influence={}, revealed={}, eliminated={}, hidden={}, unknown_influence=0)"
    )
    tally.influence[CardType.SPY] = 2
    tally.revealed[CardType.ROYAL_DECREE] = 1
    assert repr(tally).startswith("CardTally(influence={spy: 2}, revealed={royal_decree: 1},")

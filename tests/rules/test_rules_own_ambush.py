"""R-AMBUSH-3: an Ambush eliminated by a card of its own player is discarded, not eliminated.

Seed 004 (revised), Ambush example 2: "If your own Archer eliminates your Ambush, you gain 1. The
Ambush is discarded. Your Archer remains in the Queue." Seed 003 (first edition): "si votre
Soldat élimine votre Embuscade, vous gagnez 2 ... Les deux cartes sont défaussées." It still
counts as an elimination: the eliminator's +1 (none for a Cutthroat hitting it alone, R-CUT-1);
the attacker stays in the revised edition; the first edition gives 1 more and discards the
attacker (R-EDITION-1). Every card that can eliminate is tried, in both editions, then the
two-families variant (R-2P-2), the log, and records that contain the case.

Every expectation was worked out by hand from the rulings.
"""

from __future__ import annotations

import json
import re
from typing import NamedTuple

import pytest

from oriflamme.api import Game, load, new_game
from scenarios import (
    OWN_AMBUSH_MOVES,
    act,
    face_up,
    influence,
    own_ambush_replay,
    setup,
    tokens,
    where,
)

#: Every eliminating card of both sets, with Machination to activate one (R-SET-1: 10 types).
ATTACKERS = (
    "archer", "soldier", "assassination", "shapeshifter", "ambush",
    "cutthroat", "apothecary", "usurpation", "machination", "lord",
)
EDITIONS = ("revised", "first")


class Case(NamedTuple):
    """Red's ``attacker`` eliminates red's own Ambush (3 players, each starting with 5)."""

    queue: list[list[str]]
    cursor: int
    actions: list[str]
    attacker: str
    #: Where the attacker is afterwards in the revised edition (an Intrigue discards itself).
    attacker_stays_at: str
    #: The elimination's Influence: 1, or 0 for a Cutthroat hitting a single card (R-CUT-1).
    reward: int = 1


CASES = {
    "soldier": Case(
        [["red:ambush+2"], ["red:soldier*"], ["blue:lord"]], 1,
        ["target red:ambush"], "red:soldier", "queue 0",
    ),
    "archer": Case(
        [["red:ambush+1"], ["blue:lord"], ["red:archer"]], 2,
        ["reveal red:archer", "target red:ambush"], "red:archer", "queue 1",
    ),
    "assassination": Case(
        [["blue:lord"], ["red:ambush+1"], ["red:assassination"]], 2,
        ["reveal red:assassination", "target red:ambush"], "red:assassination", "discarded",
    ),
    "shapeshifter-as-soldier": Case(
        [["red:ambush"], ["red:shapeshifter*"], ["blue:soldier*"]], 1,
        ["target blue:soldier", "target red:ambush"], "red:shapeshifter", "queue 0",
    ),
    "shapeshifter-as-archer": Case(
        [["red:ambush"], ["red:shapeshifter*"], ["blue:archer*"]], 1,
        ["target blue:archer", "target red:ambush"], "red:shapeshifter", "queue 0",
    ),
    "machination-activating-the-soldier": Case(
        [["red:ambush"], ["red:soldier*"], ["red:machination"], ["blue:lord"]], 2,
        ["reveal red:machination", "target red:soldier", "target red:ambush"],
        "red:soldier", "queue 0",
    ),
    "cutthroat": Case(
        [["red:ambush+1"], ["red:cutthroat*"], ["blue:lord"]], 1,
        ["target red:ambush"], "red:cutthroat", "queue 0", reward=0,
    ),
    "shapeshifter-as-cutthroat": Case(
        [["red:ambush"], ["red:shapeshifter*"], ["blue:cutthroat*"]], 1,
        ["target blue:cutthroat", "target red:ambush"], "red:shapeshifter", "queue 0", reward=0,
    ),
    "apothecary": Case(
        # The red Soldier is the reference card the Ambush is adjacent to (R-APOTH-1).
        [["red:apothecary*"], ["red:ambush"], ["red:soldier*"], ["blue:lord"]], 0,
        ["target red:ambush"], "red:apothecary", "queue 0",
    ),
    "shapeshifter-as-apothecary": Case(
        [["red:soldier*"], ["red:ambush"], ["red:shapeshifter*"], ["blue:apothecary*"]], 2,
        ["target blue:apothecary", "target red:ambush"], "red:shapeshifter", "queue 1",
    ),
    "usurpation": Case(
        # Not an opponent's Character: no replacement (R-USURP-1).
        [["blue:lord"], ["red:ambush"], ["red:usurpation"]], 2,
        ["reveal red:usurpation", "target red:ambush"], "red:usurpation", "discarded",
    ),
    "blue-card-corrupted-by-red": Case(
        # Red controls the Soldier, so it is red's own card (R-CORR-1); discarded by the first
        # edition's clause, it goes to blue's eliminated cards (R-CORR-2).
        [["red:ambush"], ["blue:soldier*@red"], ["green:lord"]], 1,
        ["target red:ambush"], "blue:soldier", "queue 0",
    ),
}


def _ids(game: Game, *refs: str) -> list[int]:
    return [game.card(ref) for ref in refs]


def assert_eliminated_then_discarded(
    game: Game, ambush: str, by: str, eliminator: int, owner: int | None = None
) -> None:
    """The Ambush's one ``eliminated`` event (player: the eliminator's) is followed at once by
    its ``discarded`` event (player: the owner's, by default the eliminator)."""
    card, attacker = _ids(game, ambush, by)
    events = game.events()
    assert [e["kind"] for e in events].count("eliminated") == 1
    at = next(i for i, e in enumerate(events) if e["kind"] == "eliminated")
    assert events[at] == {
        "kind": "eliminated", "round": 2, "player": eliminator, "card": card,
        "card_type": "ambush", "other": attacker, "amount": 0,
    }
    assert events[at + 1] == {
        "kind": "discarded", "round": 2, "player": eliminator if owner is None else owner,
        "card": card, "card_type": "ambush", "other": -1, "amount": 0,
    }


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("name", list(CASES))
def test_own_ambush_is_discarded_whatever_eliminates_it(name: str, edition: str) -> None:
    """R-AMBUSH-3, R-EDITION-1, R-ELIM-1/2: every eliminating card, both editions."""
    case = CASES[name]
    g = setup(case.queue, cards=ATTACKERS, cursor=case.cursor, influence=[5, 5, 5],
              edition=edition)
    for text in case.actions:
        act(g, text)
    first = edition == "first"
    assert influence(g) == [5 + case.reward + first, 5, 5]
    assert where(g, "red:ambush") == "discarded"
    assert face_up(g, "red:ambush") and tokens(g, "red:ambush") == 0
    assert "ambush" not in g.position()["families"]["red"].get("eliminated", [])
    if not first:
        assert where(g, case.attacker) == case.attacker_stays_at
    elif case.attacker.startswith("blue:"):
        assert where(g, case.attacker) == "eliminated"
    else:
        assert where(g, case.attacker) == "discarded"
    assert_eliminated_then_discarded(g, "red:ambush", case.attacker, eliminator=0)


def test_the_log_says_eliminated_then_discarded_in_both_languages() -> None:
    """R-AMBUSH-3 (seed 004, example 2), as the players read it."""
    g = setup([["red:ambush"], ["blue:lord"], ["red:archer"]], cursor=2)
    act(g, "reveal red:archer")
    act(g, "target red:ambush")
    assert g.log_lines(lang="en") == [
        "Red revealed Archer",
        "Red eliminated Red Ambush with Archer",
        "Red Ambush was discarded",
        "Red gained 1 (Archer)",
        "Round 2 ended",
    ]
    assert g.log_lines(lang="fr") == [
        "Rouge a révélé l'Archer",
        "Rouge a éliminé l'Embuscade rouge avec l'Archer",
        "L'Embuscade rouge a été défaussée",
        "Rouge a gagné 1 (Archer)",
        "Fin de la manche 2",
    ]


def test_first_edition_log_discards_both_cards() -> None:
    """R-AMBUSH-3, R-EDITION-1 (seed 003: "Les deux cartes sont défaussées")."""
    g = setup([["red:ambush"], ["blue:lord"], ["red:archer"]], cursor=2, edition="first")
    act(g, "reveal red:archer")
    act(g, "target red:ambush")
    assert g.log_lines(lang="en")[1:] == [
        "Red eliminated Red Ambush with Archer",
        "Red Ambush was discarded",
        "Red gained 1 (Archer)",
        "Red gained 1 (Ambush)",
        "Red Archer was discarded",
        "Round 2 ended",
    ]
    assert g.position()["families"]["red"]["discarded"] == ["ambush", "archer"]


def test_an_opponents_ambush_is_logged_the_same_way() -> None:
    """R-AMBUSH-2: the Ambush whose clause fires is eliminated, then discarded, too."""
    g = setup([["red:ambush+1"], ["blue:soldier*"], ["green:lord"]], cursor=1)
    act(g, "target red:ambush")
    assert_eliminated_then_discarded(g, "red:ambush", "blue:soldier", eliminator=1, owner=0)
    assert g.log_lines() == [
        "Blue eliminated Red Ambush with Soldier",
        "Red Ambush was discarded",
        "Blue gained 1 (Soldier)",
        "Blue Soldier was discarded",
        "Red gained 4 (Ambush)",
    ]


# -- the two-families variant (R-2P-1, R-2P-2) ----------------------------------------------------
# Player 0 plays red and green, player 1 blue and yellow; each starts with 0 Influence.


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(
    ("queue", "actions", "attacker"),
    [
        ([["green:ambush+1"], ["red:soldier*"], ["yellow:lord"]], ["target green:ambush"],
         "red:soldier"),
        ([["green:ambush"], ["blue:lord"], ["red:archer*"]], ["target green:ambush"],
         "red:archer"),
    ],
    ids=["red-soldier", "red-archer"],
)
def test_two_families_the_other_family_is_the_same_player(
    queue: list[list[str]], actions: list[str], attacker: str, edition: str
) -> None:
    """R-2P-2, R-AMBUSH-3, seed 003 ("Si un Soldat rouge élimine l'Embuscade verte, il ne gagne
    pas 4 et ne défausse pas le Soldat"), docs/rules.md reading (d): the elimination's +1 only in
    both editions, the attacker stays, and the green Ambush goes to green's discarded cards."""
    g = setup(queue, players=2, cursor=1 if attacker == "red:soldier" else 2,
              influence=[0, 0], edition=edition)
    for text in actions:
        act(g, text)
    assert influence(g) == [1, 0]
    assert where(g, attacker).startswith("queue")
    assert where(g, "green:ambush") == "discarded"
    assert "eliminated" not in g.position()["families"]["green"]
    assert_eliminated_then_discarded(g, "green:ambush", attacker, eliminator=0)


@pytest.mark.parametrize(("edition", "end", "soldier_at"),
                         [("revised", [1, 0], "queue 0"), ("first", [2, 0], "discarded")])
def test_two_families_the_same_family(edition: str, end: list[int], soldier_at: str) -> None:
    """R-2P-2, R-AMBUSH-3, R-EDITION-1: a family's own Soldier on its own Ambush, as in the
    3-5 player game; the Ambush goes to red's discarded cards."""
    g = setup([["red:ambush"], ["red:soldier*"], ["yellow:lord"]], players=2, cursor=1,
              influence=[0, 0], edition=edition)
    act(g, "target red:ambush")
    assert influence(g) == end
    assert where(g, "red:soldier") == soldier_at
    assert where(g, "red:ambush") == "discarded"


# -- records: positions, saves and replays ---------------------------------------------------------

def test_the_recorded_replay_is_the_own_ambush_moves() -> None:
    """The record of :func:`scenarios.own_ambush_replay` is :data:`scenarios.OWN_AMBUSH_MOVES`
    played on its deal."""
    recorded = own_ambush_replay()
    game = new_game(players=3, cards="base", seed=recorded["seed"])
    for pattern in OWN_AMBUSH_MOVES:
        viewer = game.current_player
        game.apply(next(a for a in game.legal_actions()
                        if re.match(pattern, game.label(a, viewer=viewer))))
    assert game.replay() == recorded


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_replay_with_the_case_replays_to_the_discarded_pile(edition: str) -> None:
    """R-AMBUSH-3: loading a replay plays it again with the current rules."""
    game = load(json.dumps(own_ambush_replay(edition)))
    assert game.card("red:ambush") == 3 and game.card("red:soldier") == 6
    red = game.position()["families"]["red"]
    assert red["discarded"] == (["ambush"] if edition == "revised" else ["ambush", "soldier"])
    assert "eliminated" not in red
    assert_eliminated_then_discarded(game, "red:ambush", "red:soldier", eliminator=0)
    assert game.observe(None)["families"][0]["discarded"][0] == {
        "id": 3, "family": 0, "type": "ambush",
    }


@pytest.mark.parametrize("edition", EDITIONS)
def test_saves_and_positions_with_the_case_keep_the_discarded_pile(edition: str) -> None:
    """A save stores the position and the log; it loads with the Ambush discarded, its history
    replays to the same position, and the position alone loads the same."""
    game = load(own_ambush_replay(edition))
    save = json.loads(json.dumps(game.save()))
    assert "ambush" in save["position"]["families"]["red"]["discarded"]
    restored = load(save)
    assert restored.position() == game.position()
    assert restored.events() == game.events()
    assert restored.log_lines() == game.log_lines()
    assert load(restored.replay()).position() == game.position()
    alone = Game.from_position(json.loads(json.dumps(game.position())))
    assert alone.position() == game.position()
    assert where(alone, "red:ambush") == "discarded"

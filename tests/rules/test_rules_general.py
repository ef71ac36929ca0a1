"""Scenario tests of the general rulings (RULINGS.md R-QUEUE-1 .. R-EDITION-1) and of the
worked examples of the base rulebook (seed 004).

Expectations are worked out by hand from the rulings. Families: red = player 0, blue = player 1,
green = player 2.
"""

from __future__ import annotations

import pytest

import scenarios
from doctests import check_examples
from oriflamme.api import CardType, ConfigError, GameConfig, new_game
from scenarios import act, decision, face_up, influence, options, queue_refs, setup, tokens, where


def test_scenario_helpers() -> None:
    """The examples of the shared scenario helpers hold."""
    check_examples(scenarios)


# -- the worked examples of seed 004 -------------------------------------------------------------


def test_seed_004_resolution_example() -> None:
    """R-RES-1, R-RES-2, R-RES-3, R-ELIM-1, R-SPY-1: Red leaves, Blue reveals a Soldier carrying
    1 token and eliminates Red's card carrying 2, Green leaves, Blue's Spy steals from Green."""
    g = setup(
        [["red:lord"], ["blue:soldier+1"], ["red:heir+2"], ["green:archer"], ["blue:spy*"]],
        round=3,
        influence=[3, 2, 1],
        rest="hand",
    )
    assert decision(g) == (0, "reveal")
    act(g, "leave red:lord")
    assert tokens(g, "red:lord") == 1 and not face_up(g, "red:lord")
    assert decision(g) == (1, "reveal")
    act(g, "reveal blue:soldier")
    assert influence(g) == [3, 3, 1]  # the token on the Soldier
    assert options(g) == {"target red:lord", "target red:heir"}
    act(g, "target red:heir")
    assert influence(g) == [3, 4, 1]  # +1 for the elimination; Red's 2 tokens are lost
    assert where(g, "red:heir") == "eliminated"
    assert face_up(g, "red:heir") and tokens(g, "red:heir") == 0
    assert decision(g) == (2, "reveal")  # Green is next
    act(g, "leave green:archer")
    assert tokens(g, "green:archer") == 1
    # The revealed Spy must apply: its only neighbour is Green's card.
    assert decision(g) == (1, "steal")
    assert options(g) == {"player 2"}
    act(g, "player 2")
    assert influence(g) == [3, 5, 0]
    assert tokens(g, "green:archer") == 1  # taken from the player, not from the card
    assert queue_refs(g) == [
        ["red:lord+1"], ["blue:soldier*"], ["green:archer+1"], ["blue:spy*"],
    ]
    assert g.round == 4 and decision(g) == (1, "place")


def test_seed_004_stack_example_face_up_spy() -> None:
    """R-RES-2 (seed 004 stack example): the Assassination on top of a face-up Spy is discarded
    and the Spy, now on top at the cursor, applies immediately."""
    g = setup([["blue:lord"], ["red:spy*", "red:assassination"], ["green:soldier"]], cursor=1)
    assert decision(g) == (0, "reveal")
    act(g, "reveal red:assassination")
    act(g, "target green:soldier")
    assert influence(g) == [2, 1, 1]
    assert where(g, "red:assassination") == "discarded"
    assert queue_refs(g) == [["blue:lord"], ["red:spy*"]]
    assert decision(g) == (0, "steal")
    assert options(g) == {"player 1"}
    act(g, "player 1")
    assert influence(g) == [3, 0, 1]


def test_seed_004_stack_example_face_down_spy() -> None:
    """R-RES-2 (seed 004 stack example): were the Spy face down, Red could reveal or leave it."""
    g = setup([["blue:lord"], ["red:spy", "red:assassination"], ["green:soldier"]], cursor=1)
    act(g, "reveal red:assassination")
    act(g, "target green:soldier")
    assert decision(g) == (0, "reveal")
    assert options(g) == {"reveal red:spy", "leave red:spy"}


# -- the Queue (R-QUEUE-1, R-QUEUE-2) ------------------------------------------------------------


def test_resolution_starts_at_the_beginning_of_the_queue() -> None:
    """R-QUEUE-1, R-PLACE-1: a card placed at the beginning resolves first, then in order."""
    g = setup(
        [["blue:lord"], ["green:spy"]],
        phase="placement",
        round=1,
        first_player=1,
        placed=2,
        families={"red": {"hand": ["archer"]}},
    )
    assert decision(g) == (0, "place")
    act(g, "place red:archer front")
    assert queue_refs(g) == [["red:archer"], ["blue:lord"], ["green:spy"]]
    assert options(g) == {"reveal red:archer", "leave red:archer"}
    act(g, "leave red:archer")
    assert options(g) == {"reveal blue:lord", "leave blue:lord"}
    act(g, "leave blue:lord")
    assert options(g) == {"reveal green:spy", "leave green:spy"}


def test_only_top_cards_are_in_play() -> None:
    """R-QUEUE-2: a tall stack counts once as a neighbour, only its top card can be targeted."""
    g = setup(
        [["red:soldier"], ["blue:lord", "blue:spy", "blue:heir"], ["green:archer"]],
    )
    act(g, "reveal red:soldier")
    assert options(g) == {"target blue:heir"}
    act(g, "target blue:heir")
    assert queue_refs(g) == [["red:soldier*"], ["blue:lord", "blue:spy"], ["green:archer"]]


# -- placement (R-PLACE-1, R-PLACE-2) ------------------------------------------------------------


def test_placement_into_an_empty_queue() -> None:
    """R-PLACE-1: into an empty Queue the card is simply placed (one option per card)."""
    g = setup([], phase="placement", round=1, families={"red": {"hand": ["soldier", "spy"]}})
    assert options(g) == {"place red:soldier end", "place red:spy end"}


def test_placement_in_round_1_only_at_either_end() -> None:
    """R-PLACE-1: no stacking in round 1, even on one's own card."""
    g = setup(
        [["red:lord"], ["blue:heir"]],
        phase="placement",
        round=1,
        families={"red": {"hand": ["soldier", "spy"]}},
    )
    assert options(g) == {
        "place red:soldier front", "place red:soldier end",
        "place red:spy front", "place red:spy end",
    }


def test_placement_from_round_2_on_own_stacks_revealed_or_not() -> None:
    """R-PLACE-1: from round 2, also on top of any stack whose top the family controls, face up
    or face down; never on an opponent's stack, never between stacks."""
    g = setup(
        [["red:lord*"], ["blue:heir"], ["red:spy+1"]],
        phase="placement",
        round=2,
        families={"red": {"hand": ["soldier"]}},
    )
    assert options(g) == {
        "place red:soldier front",
        "place red:soldier end",
        "place red:soldier on red:lord",
        "place red:soldier on red:spy",
    }
    act(g, "place red:soldier on red:spy")
    # The new card covers the old one and its token.
    assert queue_refs(g) == [["red:lord*"], ["blue:heir"], ["red:spy+1", "red:soldier"]]
    assert decision(g) == (1, "place")


def test_full_round_placement_order_and_first_player_rotation() -> None:
    """R-PLACE-2: each player places exactly one card, clockwise from the first player; the first
    player of the next round is the next player clockwise."""
    g = setup([], phase="placement", round=1, first_player=1, rest="hand")
    assert decision(g) == (1, "place")
    act(g, "place blue:lord end")
    assert decision(g) == (2, "place")
    act(g, "place green:lord end")
    assert decision(g) == (0, "place")
    act(g, "place red:lord front")
    assert queue_refs(g) == [["red:lord"], ["blue:lord"], ["green:lord"]]
    # Placement is over after one card each: the resolution starts at the first stack.
    assert decision(g) == (0, "reveal")
    for ref in ("red:lord", "blue:lord", "green:lord"):
        act(g, f"leave {ref}")
    assert g.round == 2
    assert [decision(g)] == [(2, "place")]
    order = []
    for ref in ("green:spy", "red:spy", "blue:spy"):
        order.append(decision(g))
        act(g, f"place {ref} end")
    assert order == [(2, "place"), (0, "place"), (1, "place")]
    assert decision(g) == (0, "reveal")
    hands = {colour: len(zones["hand"]) for colour, zones in g.position()["families"].items()}
    assert hands == {"red": 8, "blue": 8, "green": 8}  # 10 cards, 2 placed each


# -- resolution (R-RES-1 .. R-RES-3) -------------------------------------------------------------


def test_leave_puts_a_token_and_reveal_gains_tokens_before_the_ability() -> None:
    """R-RES-1: leave adds 1 token from the supply; on reveal the tokens are gained first, then
    the ability applies."""
    g = setup([["red:soldier+1"], ["blue:lord"], ["green:spy"]])
    probe = g.copy()
    act(probe, "leave red:soldier")
    assert tokens(probe, "red:soldier") == 2 and influence(probe) == [1, 1, 1]
    assert decision(probe) == (1, "reveal")
    start = len(g.events())
    act(g, "reveal red:soldier")
    act(g, "target blue:lord")
    steps = [(e["kind"], e["amount"]) for e in g.events(start=start)]
    assert steps == [("revealed", 0), ("gained", 1), ("eliminated", 0), ("gained", 1)]
    assert influence(g) == [3, 1, 1]


def test_a_revealed_card_must_apply_its_ability() -> None:
    """R-RES-1, R-ABIL-1: a face-up top card gets no reveal/leave choice and cannot pass."""
    g = setup([["blue:lord"], ["red:soldier*"], ["green:lord"]], cursor=1)
    assert decision(g) == (0, "eliminate")
    assert options(g) == {"target blue:lord", "target green:lord"}


def test_card_eliminating_itself_lets_the_next_stack_slide_in() -> None:
    """R-RES-2: the Archer at the cursor is gone, so the next stack resolves next."""
    g = setup([["red:archer"], ["blue:lord"], ["green:spy"]])
    act(g, "reveal red:archer")
    act(g, "target red:archer")
    assert decision(g) == (1, "reveal")
    assert options(g) == {"reveal blue:lord", "leave blue:lord"}


def test_earlier_removal_shifts_the_cursor_back() -> None:
    """R-RES-3: the Archer eliminates the first stack; the card after the Archer still resolves."""
    g = setup([["blue:lord"], ["green:heir*"], ["red:archer"], ["green:spy"]], cursor=2)
    act(g, "reveal red:archer")
    act(g, "target blue:lord")
    assert queue_refs(g) == [["green:heir*"], ["red:archer*"], ["green:spy"]]
    assert decision(g) == (2, "reveal")
    assert options(g) == {"reveal green:spy", "leave green:spy"}
    assert influence(g) == [2, 1, 1]  # the Heir, earlier, did not resolve again


def test_card_uncovered_earlier_does_not_resolve() -> None:
    """R-RES-3: a card uncovered earlier than the cursor waits for the next round."""
    g = setup(
        [["blue:soldier*", "blue:spy*"], ["red:soldier"], ["green:lord"]],
        cursor=1,
        rest="hand",
    )
    act(g, "reveal red:soldier")
    act(g, "target blue:spy")
    assert queue_refs(g) == [["blue:soldier*"], ["red:soldier*"], ["green:lord"]]
    assert decision(g) == (2, "reveal")
    act(g, "leave green:lord")
    assert influence(g) == [2, 1, 1]
    assert g.round == 3 and decision(g) == (1, "place")


# -- abilities and eliminations (R-ABIL-1/2, R-ELIM-1..3) ---------------------------------------


def test_eliminated_face_down_card_never_applies_its_ability() -> None:
    """R-ELIM-1: a face-down Conspiracy is turned face up, its tokens are lost, its owner gains
    nothing; only the eliminator gains 1."""
    g = setup([["red:soldier"], ["blue:conspiracy+3"]])
    act(g, "reveal red:soldier")
    act(g, "target blue:conspiracy")
    assert influence(g) == [2, 1, 1]
    assert where(g, "blue:conspiracy") == "eliminated"
    assert face_up(g, "blue:conspiracy") and tokens(g, "blue:conspiracy") == 0


def test_removed_cards_go_public_in_front_of_their_owner() -> None:
    """R-ELIM-2: the eliminated card goes to its owner's eliminated pile, the Intrigue to its
    owner's discarded pile; both piles are public."""
    g = setup([["blue:spy"], ["red:assassination"], ["green:lord"]], cursor=1)
    act(g, "reveal red:assassination")
    act(g, "target blue:spy")
    families = g.position()["families"]
    assert families["blue"]["eliminated"] == ["spy"]
    assert families["red"]["discarded"] == ["assassination"]
    assert "eliminated" not in families["red"]
    public = g.observe(None)["families"]
    assert [c["type"] for c in public[1]["eliminated"]] == ["spy"]
    assert [c["type"] for c in public[0]["discarded"]] == ["assassination"]


def test_abilities_apply_whatever_the_family() -> None:
    """R-ABIL-1: the controller chooses among the legal options, its own cards included."""
    g = setup([["red:lord"], ["red:spy", "red:assassination"]], cursor=1)
    act(g, "reveal red:assassination")
    assert options(g) == {"target red:lord", "target red:assassination"}


# -- the end (R-END-1, R-SCORE-1) ---------------------------------------------------------------


def test_game_ends_after_round_6_and_tokens_are_lost() -> None:
    """R-END-1: after round 6's resolution the game is over; tokens on cards do not count;
    each player keeps one card in hand."""
    g = setup(
        [["red:lord+4"], ["blue:heir*"]],
        round=6,
        influence=[2, 3, 1],
        families={c: {"hand": ["soldier"]} for c in ("red", "blue", "green")},
    )
    act(g, "leave red:lord")
    assert g.is_over and decision(g) is None and options(g) == set()
    assert influence(g) == [2, 5, 1]
    result = g.result()
    assert result is not None
    assert result.scores == (2, 5, 1) and result.winners == (1,)
    assert all(zones["hand"] == ["soldier"] for zones in g.position()["families"].values())


def test_tie_broken_by_cards_in_the_queue_covered_included() -> None:
    """R-END-1: equal Influence; Red controls 3 cards in the Queue (2 covered), Blue 2."""
    queue = [["red:lord", "red:spy", "red:heir*"], ["blue:lord"], ["blue:spy"], ["green:heir"]]
    g = setup(queue, round=6, cursor=len(queue), influence=[4, 4, 2])
    result = g.result()
    assert result is not None
    assert result.queue_cards == (3, 2, 1)
    assert result.winners == (0,)


def test_tie_after_tie_break_is_shared() -> None:
    """R-END-1: same Influence and same number of cards in the Queue: both win."""
    queue = [["red:lord"], ["blue:lord"], ["green:lord"], ["green:spy"]]
    g = setup(queue, round=6, cursor=len(queue), influence=[4, 4, 2])
    result = g.result()
    assert result is not None
    assert result.winners == (0, 1)


@pytest.mark.parametrize("players", [3, 5])
def test_full_game_lasts_6_rounds_and_leaves_one_card_in_hand(players: int) -> None:
    """R-END-1, R-PLACE-2, R-SETUP-1: 7 cards in hand, one placed per round, six rounds."""
    g = new_game(players=players, seed=11)
    placements = 0
    while not g.is_over:
        d = g.decision()
        assert d is not None
        placements += d.kind.slug == "place"
        g.apply(g.legal_actions()[-1])
    assert g.round == 6 and placements == 6 * players
    assert len(g.position()["scores_by_round"]) == 6
    assert all(len(zones["hand"]) == 1 for zones in g.position()["families"].values())


# -- information (R-INFO-1) ---------------------------------------------------------------------


def test_observation_hides_other_players_cards() -> None:
    """R-INFO-1: a player knows their own hand, set-aside and face-down Queue cards; others'
    face-down cards have type None; face-up cards, tokens and piles are public."""
    g = setup(
        [["red:lord+1"], ["blue:spy*"], ["blue:heir+2"]],
        cursor=3,
        families={
            "red": {"hand": ["soldier"], "set_aside": ["archer"], "eliminated": ["conspiracy"]},
            "blue": {"hand": ["soldier"], "set_aside": ["archer"]},
        },
        rest="discarded",
    )
    red = g.observe(0)
    assert [[c["type"] for c in st] for st in red["queue"]] == [["lord"], ["spy"], [None]]
    assert [[c["tokens"] for c in st] for st in red["queue"]] == [[1], [0], [2]]
    assert [c["type"] for c in red["families"][0]["hand"]] == ["soldier"]
    assert [c["type"] for c in red["families"][0]["set_aside"]] == ["archer"]
    assert "hand" not in red["families"][1] and "set_aside" not in red["families"][1]
    assert red["families"][1]["hand_size"] == 1 and red["families"][1]["set_aside_size"] == 1
    assert [c["type"] for c in red["families"][0]["eliminated"]] == ["conspiracy"]
    blue = g.observe(1)
    assert [[c["type"] for c in st] for st in blue["queue"]] == [[None], ["spy"], ["heir"]]
    spectator = g.observe(None)
    assert [[c["type"] for c in st] for st in spectator["queue"]] == [[None], ["spy"], [None]]
    assert all("hand" not in fam for fam in spectator["families"])
    assert spectator["influence"] == [1, 1, 1]


def test_event_log_hides_face_down_identities() -> None:
    """R-INFO-1: a placement shows its card's name to its owner only; a reveal to everyone."""
    g = setup([["blue:lord"]], phase="placement", round=2, rest="hand")
    start = len(g.events())
    act(g, "place red:spy end")
    assert [e["card_type"] for e in g.events(None, start)] == [None]
    assert [e["card_type"] for e in g.events(1, start)] == [None]
    assert [e["card_type"] for e in g.events(0, start)] == ["spy"]
    act(g, "place blue:archer front")
    act(g, "place green:heir front")
    start = len(g.events())
    act(g, "reveal green:heir")
    revealed = [e for e in g.events(None, start) if e["kind"] == "revealed"]
    assert [e["card_type"] for e in revealed] == ["heir"]


# -- set-up (R-SETUP-1, R-SET-1, R-EDITION-1) ---------------------------------------------------


def test_setup_deals_7_in_hand_3_aside_and_1_influence() -> None:
    """R-SETUP-1: each family shuffled, 3 set aside, 7 kept; 1 Influence each; seat 0 starts."""
    g = new_game(players=4, seed=5)
    families = g.position()["families"]
    assert len(families) == 4
    for zones in families.values():
        assert len(zones["hand"]) == 7 and len(zones["set_aside"]) == 3
        assert {CardType.from_name(n) for n in zones["hand"] + zones["set_aside"]} == set(
            GameConfig().card_types
        )
    assert influence(g) == [1, 1, 1, 1]
    assert g.round == 1 and decision(g) == (0, "place")
    assert new_game(players=4, seed=5, first_player=2).current_player == 2


def test_setup_random_first_player() -> None:
    """R-SETUP-1: the first player may be drawn at random (from the seed)."""
    firsts = {new_game(players=5, first_player=None, seed=s).current_player for s in range(40)}
    assert firsts <= set(range(5)) and len(firsts) > 1


def test_family_is_ten_distinct_types() -> None:
    """R-SET-1: the base set, the Embrasement set or any 10 distinct choosable types; the
    Prince brings its Twin."""
    assert set(GameConfig(cards="base").card_types) == set(CardType(i) for i in range(10))
    mixed = ["soldier", "spy", "heir", "lord", "archer", "prince", "queen", "trap", "felon",
             "schemer"]
    cfg = GameConfig.from_dict({"cards": mixed})
    assert cfg.has_twin and cfg.family_size == 11
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"cards": mixed[:9]})
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"cards": [*mixed[:9], "spy"]})
    with pytest.raises(ConfigError):
        GameConfig.from_dict({"cards": [*mixed[:9], "twin"]})
    families = new_game(players=3, cards=mixed, seed=2).position()["families"]
    for zones in families.values():
        assert sorted(zones["hand"] + zones["set_aside"]) == sorted(mixed)
        assert zones["reserve"] == ["twin"]


def test_first_edition_changes_nothing_else() -> None:
    """R-EDITION-1: the first edition touches only R-LORD-1 and R-AMBUSH-3; an Ambush hit by an
    opponent works as in the revised text (R-AMBUSH-2)."""
    g = setup([["red:ambush"], ["blue:soldier"], ["green:lord"]], cursor=1, edition="first")
    act(g, "reveal blue:soldier")
    act(g, "target red:ambush")
    assert influence(g) == [5, 2, 1]
    assert where(g, "blue:soldier") == "discarded"
    assert where(g, "red:ambush") == "discarded"


def test_is_character_table_agrees_with_the_card_types() -> None:
    """The rules test types held as ints through ``IS_CHARACTER`` (R-SET-1: Characters and
    Intrigues); it must say what ``CardType.is_character`` says for every type."""
    from oriflamme.rules.cards import IS_CHARACTER, CardType

    assert len(IS_CHARACTER) == len(CardType)
    assert all(IS_CHARACTER[int(t)] == t.is_character for t in CardType)
    # 6 base Characters, 6 of Embrasement and the Twin; 4 + 4 Intrigues.
    assert sum(IS_CHARACTER) == 13 and not IS_CHARACTER[CardType.AMBUSH]

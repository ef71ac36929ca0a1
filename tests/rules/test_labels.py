"""Tests of the English and French labels (:mod:`oriflamme.rules.labels`, ``Game.label`` etc.).

The expected sentences below were written from the rules (which targets, gaps and gains each
position offers: rulings cited per test), not copied from the implementation's output. The
random-game tests check that every action, prompt and log line is labelled in both languages
and that no label names a card type its viewer may not know (R-INFO-1).
"""

from __future__ import annotations

import doctest
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from doctests import check_examples
from oriflamme import api
from oriflamme.api import Action, ActionKind, DecisionKind, Game, new_game
from oriflamme.rules import labels
from oriflamme.rules.cards import CardType
from oriflamme.rules.engine import decision
from oriflamme.rules.events import EventKind
from oriflamme.rules.observe import event_type_for, knows
from oriflamme.rules.state import Event, State
from oriflamme.rules.texts import LANGS, card_name
from scenarios import act, setup

# -- helpers ------------------------------------------------------------------------------


def lines(game: Game, viewer: int | None = None, lang: str = "en") -> list[str]:
    return game.log_lines(viewer=viewer, lang=lang)


def labels_of(game: Game, viewer: int | None = None, lang: str = "en") -> list[str]:
    return [game.label(a, viewer=viewer, lang=lang) for a in game.legal_actions()]


def label_of(game: Game, text: str, viewer: int | None = None, lang: str = "en") -> str:
    """The label of an action written with card references (see ``scenarios.act``)."""
    words = [str(game.card(w)) if ":" in w else w for w in text.split()]
    return game.label(" ".join(words), viewer=viewer, lang=lang)


# -- players, families, cards -------------------------------------------------------------


def test_player_label_is_the_colour_in_the_standard_game() -> None:
    game = new_game(players=5)
    assert [game.player_label(p) for p in range(5)] == ["Red", "Blue", "Green", "Yellow", "Purple"]
    assert [game.player_label(p, lang="fr") for p in range(5)] == [
        "Rouge", "Bleu", "Vert", "Jaune", "Violet"
    ]
    assert labels.family_label(game._state, 2, "fr") == "Vert"


def test_player_label_names_both_families_in_the_two_families_variant() -> None:
    game = new_game(players=2)  # R-2P-1: player p plays families p and p+2
    assert game.player_label(0) == "Red & green"
    assert game.player_label(1) == "Blue & yellow"
    assert game.player_label(0, lang="fr") == "Rouge & vert"
    assert game.player_label(1, lang="fr") == "Bleu & jaune"
    assert new_game(players=2, variant="standard").player_label(1) == "Blue"


def test_players_are_named_by_the_names_given_in_prompts_actions_and_the_log() -> None:
    # A server names its players (issue #26): "Ann's Spy", not "Green's Spy"; with two
    # families each, a player's cards keep their family's colour, the player is a name.
    names = ("Ann", "Ben", "Cy")
    game = setup([["red:soldier*"], ["green:spy*"], ["blue:lord"]], cursor=1)
    assert game.prompt(names=names) == "Cy's Spy: choose a player to steal 1 from"
    assert game.prompt(lang="fr", names=names) == "Espion de Cy\u202f: choisissez à qui voler 1"
    assert [game.label(a, names=names) for a in game.legal_actions()] == [
        "Steal 1 from Ann",
        "Steal 1 from Ben",
    ]
    assert [game.label(a, viewer=2, lang="fr", names=names) for a in game.legal_actions()] == [
        "Voler 1 à Ann",
        "Voler 1 à Ben",
    ]
    act(game, "player 0")
    assert game.log_lines(names=names) == ["Cy stole 1 from Ann"]
    assert game.log_lines(viewer=None, lang="fr", names=names) == ["Cy a volé 1 à Ann"]
    assert game.log_lines() == ["Green stole 1 from Red"]  # without names: the colours
    two = setup(
        [["red:soldier*"], ["blue:assassination*"], ["yellow:spy"]],
        players=2,
        variant="two-families",
        cursor=1,
        cards="base",
    )
    pair = ("Ann", "Ben")
    assert two.prompt(names=pair) == "Ben's Blue Assassination: choose a card to eliminate"
    assert two.prompt(lang="fr", names=pair) == (
        "Assassinat bleu de Ben\u202f: choisissez une carte à éliminer"
    )
    with pytest.raises(ValueError, match="names must name the 2 players"):
        two.prompt(names=("Ann",))
    with pytest.raises(TypeError, match="one per player"):
        two.prompt(names="AB")


@pytest.mark.parametrize("lang", LANGS)
def test_with_names_no_sentence_names_a_player_by_colour(lang: str) -> None:
    names = ("Ann", "Ben")
    colours = ("Red & green", "Blue & yellow", "Rouge & vert", "Bleu & jaune")
    game = new_game(players=2, seed=11)
    rng = random.Random(11)
    while not game.is_over:
        texts = [game.prompt(viewer=game.current_player, lang=lang, names=names)]
        texts += [game.label(a, viewer=game.current_player, lang=lang, names=names)
                  for a in game.legal_actions()]
        for text in texts:
            assert not any(colour in text for colour in colours), text
        game.apply(rng.choice(game.legal_actions()))
    log = game.log_lines(viewer=0, lang=lang, names=names)
    assert len(log) > 40
    assert not [line for line in log if any(colour in line for colour in colours)]
    assert any(line.startswith(("Ann ", "Ben ")) for line in log)


def test_card_label_names_a_card_only_for_a_viewer_who_may_know_it() -> None:
    game = setup(
        [["red:soldier*"], ["blue:spy"], ["green:lord"]],
        players=5,
        families={"green": {"discarded": ["ambush"]}, "purple": {"eliminated": ["ambush"]}},
    )
    soldier, spy = game.card("red:soldier"), game.card("blue:spy")
    for viewer in (None, 0, 1, 2):
        assert game.card_label(soldier, viewer=viewer) == "Red Soldier"
        assert game.card_label(soldier, viewer=viewer, lang="fr") == "Soldat rouge"
    assert game.card_label(spy, viewer=1) == "your Spy (face down)"
    assert game.card_label(spy, viewer=1, lang="fr") == "votre Espion (face cachée)"
    for viewer in (None, 0, 2):
        assert game.card_label(spy, viewer=viewer) == "Blue face-down card"
        assert game.card_label(spy, viewer=viewer, lang="fr") == "carte bleue face cachée"
    # A set-aside card is known to its owner only (R-INFO-1).
    archer = game.card("blue:archer")
    assert game.card_label(archer, viewer=1) == "your Archer"
    assert game.card_label(archer, viewer=0) == "Blue face-down card"
    # Discarded and eliminated piles are public (R-ELIM-2); French adjectives agree.
    assert game.card_label(game.card("green:ambush"), viewer=None, lang="fr") == "Embuscade verte"
    assert (game.card_label(game.card("purple:ambush"), viewer=None, lang="fr")
            == "Embuscade violette")
    assert game.card_label(game.card("purple:ambush"), viewer=None) == "Purple Ambush"


def test_own_face_down_card_shows_its_family_in_the_two_families_variant() -> None:
    game = setup([["green:spy"], ["blue:lord*"]], players=2)
    assert game.card_label(game.card("green:spy"), viewer=0) == "your Green Spy (face down)"
    assert (game.card_label(game.card("green:spy"), viewer=0, lang="fr")
            == "votre Espion vert (face cachée)")
    assert game.card_label(game.card("green:spy"), viewer=1) == "Green face-down card"


def test_unknown_language_viewer_or_player_is_rejected() -> None:
    game = setup([["red:soldier*"], ["blue:spy"]])
    s = game._state
    action = game.legal_actions()[0]
    calls: list[Callable[[], object]] = [
        lambda: labels.family_label(s, 0, "de"),
        lambda: labels.player_label(s, 0, "de"),
        lambda: labels.card_label(s, 0, None, "de"),
        lambda: labels.action_label(s, action, None, "de"),
        lambda: labels.decision_label(s, None, "de"),
        lambda: labels.log_lines(s, None, "de"),
        lambda: labels.event_label(s, Event(EventKind.GAME_ENDED, 6), None, "de"),
        lambda: labels.decision_label(s, 3, "en"),
        lambda: labels.card_label(s, 0, -1, "en"),
        lambda: labels.player_label(s, 3, "en"),
        lambda: labels.family_label(s, 3, "en"),
    ]
    for call in calls:
        with pytest.raises(ValueError):
            call()


# -- positions with expected sentences ----------------------------------------------------


def test_soldier_elimination_reveal_and_leave() -> None:
    # R-SOLDIER-1: the Soldier's only adjacent stack is the face-down Blue Spy.
    game = setup([["red:soldier*"], ["blue:spy"], ["green:lord+2"]])
    assert game.prompt() == "Red's Soldier: choose a card to eliminate"
    assert game.prompt(lang="fr") == "Soldat de Rouge\u202f: choisissez une carte à éliminer"
    assert labels_of(game) == ["Eliminate a Blue face-down card (stack 2)"]
    assert labels_of(game, 0, "fr") == ["Éliminer une carte bleue face cachée (pile 2)"]
    assert labels_of(game, 1) == ["Eliminate your Spy (face down)"]
    assert labels_of(game, 1, "fr") == ["Éliminer votre Espion (face cachée)"]

    act(game, "target blue:spy")  # R-ELIM-1: +1 for the elimination
    assert lines(game) == ["Red eliminated Blue Spy with Soldier", "Red gained 1 (Soldier)"]
    assert lines(game, 2, "fr") == [
        "Rouge a éliminé l'Espion bleu avec le Soldat",
        "Rouge a gagné 1 (Soldat)",
    ]

    # R-RES-1: the face-down Lord under the cursor: reveal (gaining its 2 tokens) or leave.
    assert game.prompt() == "Green: reveal or leave face down?"
    assert game.prompt(lang="fr") == "Vert\u202f: révéler ou laisser face cachée\u202f?"
    assert labels_of(game, 2) == ["Reveal Lord (gain 2 tokens)", "Leave face down (+1 token)"]
    assert labels_of(game, 2, "fr") == [
        "Révéler le Seigneur (gagner 2 jetons)",
        "Laisser face cachée (+1 jeton)",
    ]
    assert labels_of(game) == ["Reveal a card", "Leave face down (+1 token)"]
    assert labels_of(game, 0, "fr") == ["Révéler une carte", "Laisser face cachée (+1 jeton)"]

    act(game, "leave green:lord")
    assert lines(game)[2:] == ["Green left a card face down (3 tokens on it)", "Round 2 ended"]
    assert lines(game, 2)[2] == "Green left Lord face down (3 tokens on it)"
    assert lines(game, 2, "fr")[2:] == [
        "Vert a laissé le Seigneur face cachée (3 jetons dessus)",
        "Fin de la manche 2",
    ]


@pytest.mark.parametrize(
    ("card", "expected_en", "expected_fr"),
    [
        # R-AMBUSH-1 / R-TRAP-1: its tokens are discarded; R-CONSP-1 / R-MACH-1: its ability
        # uses them; any other card gains them on reveal (R-RES-1).
        ("red:ambush+2", "Reveal Ambush (2 tokens discarded)",
         "Révéler l'Embuscade (2 jetons défaussés)"),
        ("red:conspiracy+1", "Reveal Conspiracy (1 token for its ability)",
         "Révéler le Complot (1 jeton pour son pouvoir)"),
        ("red:heir+1", "Reveal Heir (gain 1 token)", "Révéler l'Héritier (gagner 1 jeton)"),
        ("red:archer", "Reveal Archer", "Révéler l'Archer"),
    ],
)
def test_reveal_label_says_what_happens_to_the_tokens(
    card: str, expected_en: str, expected_fr: str
) -> None:
    game = setup([[card], ["blue:lord*"]])
    ref = card.split("+")[0]
    assert label_of(game, f"reveal {ref}", 0) == expected_en
    assert label_of(game, f"reveal {ref}", 0, "fr") == expected_fr
    for viewer in (None, 1):  # the same words whatever the card, for the others
        assert label_of(game, f"reveal {ref}", viewer) == "Reveal a card"


def test_reveal_trap_lists_its_tokens_as_discarded() -> None:
    game = setup([["red:trap+3"], ["blue:queen*"]], cards="embrasement")
    assert label_of(game, "reveal red:trap", 0) == "Reveal Trap (3 tokens discarded)"
    assert label_of(game, "reveal red:trap", 0, "fr") == (
        "Révéler le Guet-apens (3 jetons défaussés)"
    )


def test_spy_steals_from_adjacent_controllers() -> None:
    # R-SPY-1: the players controlling an adjacent top card; R-SPY-2: own player, no effect.
    game = setup([["red:soldier*"], ["green:spy*"], ["blue:lord"]], cursor=1)
    assert game.prompt() == "Green's Spy: choose a player to steal 1 from"
    assert game.prompt(lang="fr") == "Espion de Vert\u202f: choisissez à qui voler 1"
    assert labels_of(game) == ["Steal 1 from Red", "Steal 1 from Blue"]
    assert labels_of(game, 2, "fr") == ["Voler 1 à Rouge", "Voler 1 à Bleu"]
    act(game, "player 0")
    assert lines(game) == ["Green stole 1 from Red"]
    assert lines(game, None, "fr") == ["Vert a volé 1 à Rouge"]

    alone = setup([["green:soldier*"], ["green:spy*"]], cursor=1)
    assert labels_of(alone) == ["Steal 1 from Green (no effect)"]
    assert labels_of(alone, None, "fr") == ["Voler 1 à Vert (sans effet)"]


def test_royal_decree_choice_of_card_and_of_gap() -> None:
    game = setup([["red:royal_decree*"], ["blue:archer*"], ["green:spy"], ["red:soldier*"]])
    # R-DECREE-1: any top card but the Decree.
    assert game.prompt() == "Red's Royal Decree: choose a card to move"
    assert game.prompt(lang="fr") == "Décret royal de Rouge\u202f: choisissez une carte à déplacer"
    assert labels_of(game, 0) == [
        "Move Blue Archer",
        "Move a Green face-down card (stack 3)",
        "Move Red Soldier",
    ]
    assert labels_of(game, 0, "fr") == [
        "Déplacer l'Archer bleu",
        "Déplacer une carte verte face cachée (pile 3)",
        "Déplacer le Soldat rouge",
    ]
    act(game, "target blue:archer")
    assert game.prompt() == "Red's Royal Decree: choose where to move Blue Archer"
    assert (game.prompt(lang="fr")
            == "Décret royal de Rouge\u202f: choisissez où déplacer l'Archer bleu")
    # R-DECREE-1: the two gaps beside the Archer's own lone stack change nothing.
    assert labels_of(game, 0) == [
        "Move it to the front of the Queue",
        "Move it between a Green face-down card (stack 3) and Red Soldier",
        "Move it to the end of the Queue",
    ]
    assert labels_of(game, 2)[1] == "Move it between your Spy (face down) and Red Soldier"
    assert labels_of(game, 0, "fr") == [
        "Déplacer au début de la File",
        "Déplacer entre une carte verte face cachée (pile 3) et le Soldat rouge",
        "Déplacer à la fin de la File",
    ]
    act(game, "move blue:archer gap 0")
    assert lines(game)[:2] == [
        "Red moved Blue Archer to the front of the Queue",
        "Red Royal Decree was discarded",
    ]
    assert lines(game, None, "fr")[:2] == [
        "Rouge a déplacé l'Archer bleu au début de la File",
        "Le Décret royal rouge a été défaussé",
    ]


def test_moving_the_top_of_a_stack_names_the_card_it_uncovers() -> None:
    # R-DECREE-1: from a stack of two, every gap moves the card; the Lord is left behind.
    game = setup([["red:royal_decree*"], ["blue:lord*", "blue:archer*"], ["green:spy"]])
    act(game, "target blue:archer")
    assert labels_of(game) == [
        "Move it to the front of the Queue",
        "Move it between Red Royal Decree and Blue Lord",
        "Move it between Blue Lord and a Green face-down card (stack 3)",
        "Move it to the end of the Queue",
    ]
    act(game, "move blue:archer gap 2")
    assert lines(game)[0] == "Red moved Blue Archer after stack 2"
    assert lines(game, None, "fr")[0] == "Rouge a déplacé l'Archer bleu après la pile 2"


def test_placement_labels_and_log_by_viewer() -> None:
    # R-PLACE-1: from round 2, the front, the end, or on a stack the family controls.
    game = setup(
        [["red:lord*"], ["blue:spy"]],
        phase="placement",
        families={"red": {"hand": ["soldier"]}, "blue": {"hand": ["archer"]}},
    )
    assert game.prompt() == "Red: choose a card to place"
    assert game.prompt(lang="fr") == "Rouge\u202f: choisissez une carte à placer"
    assert sorted(labels_of(game, 0)) == [
        "Place Soldier at the end of the Queue",
        "Place Soldier at the front of the Queue",
        "Place Soldier on top of Red Lord",
    ]
    assert label_of(game, "place red:soldier front", 0, "fr") == (
        "Placer le Soldat au début de la File"
    )
    assert label_of(game, "place red:soldier end", 1) == "Place a card at the end of the Queue"
    act(game, "place red:soldier on red:lord")
    assert lines(game, 0) == ["Red placed Soldier on top of Red Lord"]
    assert lines(game, 1) == ["Red placed a card on top of Red Lord"]
    assert lines(game, None, "fr") == ["Rouge a placé une carte sur le Seigneur rouge"]
    assert lines(game, 0, "fr") == ["Rouge a placé le Soldat sur le Seigneur rouge"]
    # Blue may place on its own face-down Spy; others only see a Blue face-down card.
    assert label_of(game, "place blue:archer on blue:spy", 1) == (
        "Place Archer on top of your Spy (face down)"
    )
    assert label_of(game, "place blue:archer on blue:spy", None) == (
        "Place a card on top of a Blue face-down card (stack 2)"
    )


def test_placement_in_the_two_families_variant_names_the_family() -> None:
    game = setup(
        [],
        players=2,
        phase="placement",
        round=1,
        families={"red": {"hand": ["soldier"]}, "green": {"hand": ["spy"]}},
    )
    assert game.prompt() == "Red & green: choose a card to place"
    assert label_of(game, "place green:spy end", 0) == "Place Green Spy at the end of the Queue"
    assert label_of(game, "place green:spy end", 0, "fr") == (
        "Placer l'Espion vert à la fin de la File"
    )
    assert label_of(game, "place green:spy end", None) == (
        "Place a Green card at the end of the Queue"
    )
    assert label_of(game, "place green:spy end", 1, "fr") == (
        "Placer une carte verte à la fin de la File"
    )
    act(game, "place green:spy end")
    assert lines(game, 0) == ["Red & green placed Green Spy at the end of the Queue"]
    assert lines(game, 1, "fr") == [
        "Rouge & vert a placé une carte verte à la fin de la File"
    ]


def test_machination_activation_and_tokens() -> None:
    # R-MACH-1: discard it first holding its tokens, then activate a revealed Character.
    game = setup([["red:machination+2"], ["red:queen*"], ["blue:felon"]], cards="embrasement")
    assert label_of(game, "reveal red:machination", 0) == (
        "Reveal Machination (2 tokens for its ability)"
    )
    act(game, "reveal red:machination")
    assert game.prompt() == "Red's Machination: choose a character to activate"
    assert (game.prompt(lang="fr")
            == "Machination de Rouge\u202f: choisissez un personnage à activer")
    assert labels_of(game) == ["Activate Red Queen"]
    assert labels_of(game, None, "fr") == ["Activer la Reine rouge"]
    act(game, "target red:queen")  # R-QUEEN-1: gain 2
    # R-MACH-2: 2 tokens held and a Character to activate: gain or spend.
    assert game.prompt() == (
        "Red's Machination: gain 1 Influence or spend a token to activate again? (2 tokens left)"
    )
    assert game.prompt(lang="fr") == (
        "Machination de Rouge\u202f: gagner 1 Influence ou dépenser un jeton pour activer de "
        "nouveau\u202f? (2 jetons restants)"
    )
    assert labels_of(game) == ["Gain 1 Influence", "Spend it to activate a character again"]
    assert labels_of(game, 1, "fr") == [
        "Gagner 1 Influence",
        "Le dépenser pour activer de nouveau un personnage",
    ]
    assert lines(game) == [
        "Red revealed Machination",
        "Red Machination was discarded",
        "Red activated Red Queen with Machination",
        "Red gained 2 (Queen)",
    ]
    assert lines(game, None, "fr") == [
        "Rouge a révélé la Machination",
        "La Machination rouge a été défaussée",
        "Rouge a activé la Reine rouge avec la Machination",
        "Rouge a gagné 2 (Reine)",
    ]
    act(game, "gain")
    assert game.prompt().endswith("(1 token left)")
    assert game.prompt(lang="fr").endswith("(1 jeton restant)")


def test_machination_activating_a_soldier_asks_as_the_soldier() -> None:
    game = setup([["red:machination"], ["red:soldier*"], ["blue:queen*"]],
                 cards=["machination", "soldier", "queen", "spy", "lord", "archer", "heir",
                        "felon", "trap", "corruption"])
    act(game, "reveal red:machination")
    act(game, "target red:soldier")
    assert game.prompt() == "Red's Soldier: choose a card to eliminate"
    act(game, "target blue:queen")  # R-QUEEN-1: eliminating an opponent's Queen gives 1 more
    log = lines(game)
    i = log.index("Red eliminated Blue Queen with Soldier")
    assert log[i : i + 3] == [
        "Red eliminated Blue Queen with Soldier",
        "Red gained 1 (Soldier)",
        "Red gained 1 (Blue Queen)",
    ]


def test_prince_places_the_twin() -> None:
    # R-PRINCE-1: at either end, or on an own stack not topped by a Prince (none here).
    game = setup([["red:prince"], ["blue:queen*"]], cards="embrasement")
    act(game, "reveal red:prince")
    assert game.prompt() == "Red's Prince: choose where to place the Twin"
    assert game.prompt(lang="fr") == "Prince de Rouge\u202f: choisissez où placer le Jumeau"
    assert labels_of(game, 1) == [
        "Place Twin at the front of the Queue",
        "Place Twin at the end of the Queue",
    ]
    assert labels_of(game, None, "fr") == [
        "Placer le Jumeau au début de la File",
        "Placer le Jumeau à la fin de la File",
    ]
    act(game, "twin red:twin end")
    assert lines(game, 1)[1:3] == [
        "Red placed Twin at the end of the Queue",
        "Red gained 1 (Prince)",
    ]
    assert lines(game, 1, "fr")[1] == "Rouge a placé le Jumeau à la fin de la File"


def test_corruption_and_a_gain_by_a_corrupted_card() -> None:
    # R-CORR-1: a revealed top-card Character; then the Queen acts for Red (its controller).
    game = setup([["red:corruption"], ["blue:queen*"]], cards="embrasement")
    act(game, "reveal red:corruption")
    assert game.prompt() == "Red's Corruption: choose a character to corrupt"
    assert (game.prompt(lang="fr")
            == "Corruption de Rouge\u202f: choisissez un personnage à corrompre")
    assert labels_of(game) == ["Corrupt Blue Queen"]
    assert labels_of(game, None, "fr") == ["Corrompre la Reine bleue"]
    act(game, "target blue:queen")
    assert lines(game)[1:] == [
        "Red corrupted Blue Queen",
        "Red Corruption was discarded",
        "Red gained 2 (Blue Queen)",
        "Round 2 ended",
    ]
    assert lines(game, None, "fr")[1:4] == [
        "Rouge a corrompu la Reine bleue",
        "La Corruption rouge a été défaussée",
        "Rouge a gagné 2 (Reine bleue)",
    ]


def test_corruption_in_the_two_families_variant_names_the_token() -> None:
    game = setup([["green:corruption"], ["blue:queen*"]], cards="embrasement", players=2)
    act(game, "reveal green:corruption")
    act(game, "target blue:queen")
    assert lines(game)[1] == "Red & green corrupted Blue Queen (green token)"
    assert lines(game, None, "fr")[1] == (
        "Rouge & vert a corrompu la Reine bleue (jeton vert)"
    )


def test_shapeshifter_copies_then_acts_as_the_model() -> None:
    # R-SHIFT-1: an adjacent revealed Character; then its ability as the Shapeshifter's own.
    game = setup([["red:shapeshifter*"], ["blue:soldier*"], ["green:spy"]])
    assert game.prompt() == "Red's Shapeshifter: choose a character to copy"
    assert labels_of(game, None, "fr") == ["Copier le Soldat bleu"]
    act(game, "target blue:soldier")
    assert game.prompt() == "Red's Shapeshifter (as Soldier): choose a card to eliminate"
    assert game.prompt(lang="fr") == (
        "Changeforme de Rouge (comme Soldat)\u202f: choisissez une carte à éliminer"
    )
    assert labels_of(game) == ["Eliminate Blue Soldier"]
    assert lines(game) == ["Red copied Blue Soldier with Shapeshifter"]
    assert lines(game, None, "fr") == ["Rouge a copié le Soldat bleu avec le Changeforme"]


def test_usurpation_replaces_the_eliminated_character() -> None:
    # R-USURP-1: eliminate an adjacent top card; a lone opponent Character is replaced by the
    # Usurpation family's card of that name (here set aside), placed face up (R-USURP-2).
    game = setup([["red:usurpation"], ["blue:queen*"]], cards="embrasement")
    act(game, "reveal red:usurpation")
    assert labels_of(game) == ["Eliminate Blue Queen"]
    assert labels_of(game, None, "fr") == ["Éliminer la Reine bleue"]
    act(game, "target blue:queen")
    log_en, log_fr = lines(game), lines(game, None, "fr")
    assert log_en[1:5] == [
        "Red eliminated Blue Queen with Usurpation",
        "Red gained 1 (Usurpation)",
        "Red gained 1 (Blue Queen)",
        "Red put Queen in place of Blue Queen",
    ]
    assert log_fr[1:5] == [
        "Rouge a éliminé la Reine bleue avec l'Usurpation",
        "Rouge a gagné 1 (Usurpation)",
        "Rouge a gagné 1 (Reine bleue)",
        "Rouge a mis la Reine à la place de la Reine bleue",
    ]


def test_felon_losses() -> None:
    # R-FELON-1: the controller of each adjacent top card loses 1.
    game = setup([["blue:queen*"], ["red:felon*"], ["green:cutthroat"]], cursor=1,
                 cards="embrasement")
    assert lines(game) == ["Blue lost 1 (Red Felon)", "Green lost 1 (Red Felon)"]
    assert lines(game, None, "fr") == [
        "Bleu a perdu 1 (Félon rouge)",
        "Vert a perdu 1 (Félon rouge)",
    ]


def test_draws_and_end_of_game() -> None:
    # R-2P-1: after each resolution each player draws one card per family while piles last.
    game = setup(
        [],
        players=2,
        round=6,
        families={"red": {"pile": ["soldier"]}, "green": {"pile": ["spy"]},
                  "yellow": {"pile": ["lord"]}},
    )
    assert lines(game) == [
        "Round 6 ended",
        "Red & green drew 2 cards",
        "Blue & yellow drew 1 card",
        "The game ended",
    ]
    assert lines(game, None, "fr") == [
        "Fin de la manche 6",
        "Rouge & vert a pioché 2 cartes",
        "Bleu & jaune a pioché 1 carte",
        "Fin de la partie",
    ]
    assert game.prompt() == "The game is over"
    assert game.prompt(lang="fr") == "La partie est terminée"
    with pytest.raises(ValueError):
        game.label(Action.target(0))
    assert game.log_lines(start=3) == ["The game ended"]


def test_doctests() -> None:
    check_examples(labels)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner()
    for method in (Game.label, Game.prompt):
        for test in finder.find(method, globs=vars(api)):
            assert test.examples
            runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


# -- random games: every kind labelled, nothing leaked ------------------------------------

CONFIGS: list[dict[str, Any]] = [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "embrasement", "variant": "standard"},
    {"players": 3, "cards": "base"},
    {"players": 3, "cards": "embrasement"},
    {"players": 4, "cards": "base", "edition": "first"},
    {"players": 5, "cards": "embrasement"},
    {
        "players": 3,
        "cards": ["shapeshifter", "usurpation", "machination", "prince", "corruption",
                  "soldier", "spy", "queen", "royal_decree", "cutthroat"],
    },
]
_CARD_EVENT_OTHER = {
    EventKind.ELIMINATED, EventKind.COPIED, EventKind.ACTIVATED, EventKind.REPLACED,
    EventKind.PLACED, EventKind.TWIN_PLACED,
}


def _names_in(text: str, card_type: int) -> list[str]:
    """The names (English or French) of ``card_type`` that occur as words in ``text``."""
    names = {card_name(CardType(card_type), lang) for lang in LANGS}
    return [n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]


def assert_no_leak(
    s: State, text: str, hidden: Iterable[int], shown: Iterable[int]
) -> None:
    """No type of a ``hidden`` card is named in ``text``, unless a ``shown`` card referred to
    by the same label has that type (then the name is legitimately there)."""
    allowed = set(shown)
    for card in hidden:
        t = s.card_type[card]
        if t not in allowed:
            assert not _names_in(text, t), f"{text!r} names hidden card {card} ({t})"


def _action_refs(s: State, a: Action) -> list[int]:
    """The cards an action's label may speak about (the gap's neighbours for a move)."""
    refs = [a.card] if a.card >= 0 else []
    if a.kind in (ActionKind.PLACE, ActionKind.TWIN) and a.to >= 0:
        refs.append(a.to)
    if a.kind is ActionKind.MOVE:
        for j in (a.to - 1, a.to):
            if 0 <= j < len(s.queue):
                refs.extend(s.queue[j][-2:])
    return refs


def _check_action(s: State, a: Action, viewer: int | None) -> None:
    refs = _action_refs(s, a)
    hidden = [c for c in refs if not knows(s, viewer, c)]
    shown = [s.card_type[c] for c in refs if knows(s, viewer, c)]
    for lang in LANGS:
        text = labels.action_label(s, a, viewer, lang)
        assert text
        assert_no_leak(s, text, hidden, shown)


def _check_prompt(s: State, viewer: int | None) -> None:
    d = decision(s)
    refs = [c for c in (d.card if d else -1, s.pending[-1][1] if s.pending else -1) if c >= 0]
    hidden = [c for c in refs if not knows(s, viewer, c)]
    shown = [s.card_type[c] for c in refs if knows(s, viewer, c)]
    if d is not None and d.ability >= 0 and not hidden:
        shown.append(d.ability)  # the acting card's public ability ("as Soldier")
    for lang in LANGS:
        text = labels.decision_label(s, viewer, lang)
        assert text
        assert_no_leak(s, text, hidden, shown)


def _check_event(s: State, e: Event, viewer: int | None) -> None:
    hidden, shown = [], []
    if e.card >= 0:
        t = event_type_for(s, viewer, e)
        if t < 0:
            hidden.append(e.card)
        else:
            shown.append(t)
    if EventKind(e.kind) in _CARD_EVENT_OTHER and e.other >= 0:
        if knows(s, viewer, e.other):
            shown.append(s.card_type[e.other])
        else:
            hidden.append(e.other)
    for lang in LANGS:
        text = labels.event_label(s, e, viewer, lang)
        assert text
        assert_no_leak(s, text, hidden, shown)


def _scrambled(s: State, viewer: int | None, rng: random.Random) -> State:
    """A copy where every card ``viewer`` may not know has a random type."""
    out = s.copy()
    out.card_type = tuple(
        t if knows(s, viewer, c) else rng.randrange(len(CardType))
        for c, t in enumerate(s.card_type)
    )
    return out


def _everything_seen(s: State, viewer: int | None, actions: list[Action]) -> list[str]:
    return [
        labels.action_label(s, a, viewer, lang) for a in actions for lang in LANGS
    ] + [labels.decision_label(s, viewer, lang) for lang in LANGS] + [
        line for lang in LANGS for line in labels.log_lines(s, viewer, lang)
    ]


def _play(config: dict[str, Any], seed: int, seen: dict[str, set[int]]) -> None:
    rng = random.Random(seed)
    game = new_game(seed=seed, first_player=None, **config)
    s = game._state
    n = game.config.players
    logged = 0
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        d = game.decision()
        assert d is not None
        seen["decision"].add(d.kind)
        viewers = {None, d.player, rng.randrange(n)}
        for viewer in viewers:
            _check_prompt(s, viewer)
            for a in legal:
                seen["action"].add(a.kind)
                _check_action(s, a, viewer)
        if step % 7 == 0:  # the labels depend only on what the viewer may know
            for viewer in viewers:
                assert _everything_seen(_scrambled(s, viewer, rng), viewer, legal) == (
                    _everything_seen(s, viewer, legal)
                )
        game.apply(rng.choice(legal))
        step += 1
        assert s.log is not None
        for e in s.log[logged:]:
            seen["event"].add(e.kind)
            for viewer in (None, *range(n)):
                _check_event(s, e, viewer)
        logged = len(s.log)
    for viewer in (None, *range(n)):
        assert labels.log_lines(s, viewer, "fr", start=0)[-1] == "Fin de la partie"


def test_random_games_label_every_kind_in_both_languages_without_leaking() -> None:
    seen: dict[str, set[int]] = {"action": set(), "event": set(), "decision": set()}
    for seed in range(3):
        for config in CONFIGS:
            _play(config, seed, seen)
    assert seen["action"] == set(ActionKind)
    assert seen["decision"] == set(DecisionKind)
    assert seen["event"] == set(EventKind)


def test_a_hidden_card_label_never_depends_on_its_type() -> None:
    """Direct check of the invariance used above, on a position with hidden cards of all
    kinds of roles: a target, a gap neighbour, the card under a placed one."""
    game = setup([["red:royal_decree*"], ["blue:lord", "blue:archer*"], ["green:spy"]])
    s = game._state
    rng = random.Random(5)
    for viewer in (None, 0, 2):
        expected = _everything_seen(s, viewer, game.legal_actions())
        for _ in range(20):
            scrambled = _scrambled(s, viewer, rng)
            assert _everything_seen(scrambled, viewer, game.legal_actions()) == expected

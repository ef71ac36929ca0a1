"""Records: the position format field by field, its error messages, saves taken in the middle
of an ability, and replays (:mod:`oriflamme.rules.records`, :func:`oriflamme.api.load`)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oriflamme.api import Game, RecordError, load, new_game

Position = dict[str, Any]
Mutation = Callable[[Position], None]


def valid_position() -> Position:
    """A 3-player base position in round 2, the cursor on red's face-down Soldier."""
    return {
        "config": {"players": 3},
        "round": 2,
        "phase": "resolution",
        "cursor": 0,
        "queue": [["red:soldier"], ["blue:spy*"], ["green:lord*"]],
        "families": {c: {"rest": "hand"} for c in ("red", "blue", "green")},
    }


def embrasement_position(queue: list[list[str]]) -> Position:
    return {
        "config": {"players": 3, "cards": "embrasement"},
        "round": 2,
        "phase": "resolution",
        "cursor": 0,
        "queue": queue,
        "families": {c: {"rest": "hand"} for c in ("red", "blue", "green")},
    }


# -- every field of the format --------------------------------------------------------------------
def test_a_position_lists_every_field() -> None:
    position = new_game(players=3, seed=5).position()
    assert set(position) == {
        "format", "version", "config", "round", "phase", "first_player", "placed",
        "influence", "queue", "families", "cursor", "resolving", "pending", "scores_by_round",
        "ids",
    }
    assert position["format"] == "oriflamme-position"
    assert position["version"] == 1


def test_placement_fields_are_read() -> None:
    position = {
        "format": "oriflamme-position",
        "version": 1,
        "config": {
            "players": 3, "cards": "embrasement", "edition": "first", "first_player": 2,
        },
        "round": 4,
        "phase": "placement",
        "first_player": 1,
        "placed": 1,
        "influence": [3, 0, 5],
        "queue": [["red:queen*", "red:felon+2"], ["blue:prince*@green"], ["green:schemer*"]],
        "families": {
            "red": {
                "hand": ["cutthroat", "trap"],
                "discarded": ["usurpation"],
                "eliminated": ["apothecary"],
                "rest": "set_aside",
            },
            "blue": {"hand": ["queen"], "pile": ["felon"], "rest": "set_aside"},
            "green": {"hand": ["queen", "trap"], "rest": "set_aside"},
        },
        "scores_by_round": [[1, 1, 1], [2, 1, 3], [3, 0, 5]],
    }
    game = Game.from_position(position)
    assert game.config.edition == "first" and game.config.first_player == 2
    assert game.round == 4
    view = game.observe(None)
    assert view["influence"] == [3, 0, 5]
    assert view["scores_by_round"] == [[1, 1, 1], [2, 1, 3], [3, 0, 5]]
    assert view["first_player"] == 1
    [[queen, felon], [prince], [schemer]] = view["queue"]
    assert (queen["type"], queen["face_up"], queen["tokens"]) == ("queen", True, 0)
    assert (felon["type"], felon["face_up"], felon["tokens"]) == (None, False, 2)
    assert (prince["type"], prince["corrupted_by"], prince["controller"]) == ("prince", 2, 2)
    assert schemer["controller"] == 2
    red, blue, green = view["families"]
    assert [c["type"] for c in red["discarded"]] == ["usurpation"]
    assert [c["type"] for c in red["eliminated"]] == ["apothecary"]
    assert (red["hand_size"], red["set_aside_size"]) == (2, 4)  # 10 - 6 listed cards
    assert [c["type"] for c in red["reserve"]] == ["twin"]  # the Twin's default place
    assert (blue["hand_size"], blue["pile_size"], blue["set_aside_size"]) == (1, 1, 7)
    assert green["corruption_on"] == game.card("blue:prince")
    assert {c["type"] for c in game.observe(0)["families"][0]["hand"]} == {"cutthroat", "trap"}
    # Seat (first_player 1 + placed 1) places: green, with front, end, and the two stacks it
    # controls (its Schemer, blue's Prince under its Corruption token) for each card.
    decision = game.decision()
    assert decision is not None and (decision.player, decision.kind.slug) == (2, "place")
    assert len(game.legal_actions()) == 2 * 4
    assert Game.from_position(game.position()).position() == game.position()


def test_resolution_fields_are_read() -> None:
    position = {
        "config": {"players": 3},
        "round": 2,
        "phase": "resolution",
        "cursor": 0,
        "resolving": "red:royal_decree",
        "queue": [["red:royal_decree*"], ["blue:soldier*"], ["green:lord*"]],
        "pending": [
            {"frame": "discard", "card": "red:royal_decree", "family": "red"},
            {"frame": "gap", "card": "red:royal_decree", "family": "red",
             "target": "blue:soldier"},
        ],
        "families": {c: {"rest": "hand"} for c in ("red", "blue", "green")},
    }
    game = Game.from_position(position)
    soldier = game.card("blue:soldier")
    decision = game.decision()
    assert decision is not None
    assert (decision.player, decision.kind.slug, decision.card) == (0, "move_to", soldier)
    # The Soldier is alone in stack 1: gaps 1 and 2 would not move it (R-DECREE-1).
    assert [str(a) for a in game.legal_actions()] == [
        f"move {soldier} gap 0", f"move {soldier} gap 3"
    ]
    out = game.position()
    assert out["resolving"] == "red:royal_decree" and out["cursor"] == 0
    assert out["pending"] == position["pending"]


def test_ids_are_kept_and_id_seed_deals_them() -> None:
    game = new_game(players=3, seed=9)
    given = game.position()
    assert Game.from_position(given).position()["ids"] == given["ids"]
    assert game.card("red:soldier") == given["ids"]["red:soldier"]

    bare = valid_position()
    dealt = {seed: Game.from_position({**bare, "id_seed": seed}).position()["ids"]
             for seed in range(4)}
    assert Game.from_position(bare).position()["ids"] == dealt[0]  # id_seed defaults to 0
    assert len({json.dumps(ids, sort_keys=True) for ids in dealt.values()}) > 1
    assert Game.from_position({**bare, "id_seed": 3}).position()["ids"] == dealt[3]


def test_rest_sends_unlisted_cards_to_a_zone() -> None:
    position = valid_position()
    position["families"]["blue"] = {"rest": "eliminated"}
    view = Game.from_position(position).observe(None)
    eliminated = {c["type"] for c in view["families"][1]["eliminated"]}
    assert len(eliminated) == 9 and "spy" not in eliminated  # the Spy is in the Queue


def test_field_defaults() -> None:
    game = Game.from_position({"families": {c: {"rest": "hand"} for c in ("red", "blue", "green")}})
    position = game.position()
    assert position["config"] == new_game().config.to_dict()
    assert (position["round"], position["phase"], position["first_player"]) == (1, "placement", 0)
    assert (position["placed"], position["influence"], position["queue"]) == (0, [1, 1, 1], [])
    assert (position["cursor"], position["resolving"], position["pending"]) == (0, None, [])
    assert position["scores_by_round"] == [] and game.history == [] and game.seed is None


def test_list_order_is_kept_and_the_pile_is_drawn_from_its_front() -> None:
    colours = ("red", "blue", "green", "yellow")
    position = {
        "config": {"players": 2},
        "round": 1,
        "phase": "resolution",
        "families": {c: {"hand": ["ambush", "lord"] if c == "red" else [],
                         "pile": ["spy", "heir"], "rest": "set_aside"} for c in colours},
    }
    # The Queue is empty: round 1 ends at once and each player draws one card per family
    # from the front of its piles (R-2P-1).
    after = Game.from_position(position).position()
    assert after["round"] == 2
    assert after["families"]["red"]["hand"] == ["ambush", "lord", "spy"]
    assert all(after["families"][c]["pile"] == ["heir"] for c in colours)
    assert after["families"]["blue"]["hand"] == ["spy"]


# -- errors ---------------------------------------------------------------------------------------
def _frame(**fields: Any) -> Mutation:
    def mutate(p: Position) -> None:
        p["pending"] = [fields]
    return mutate


def _set(**fields: Any) -> Mutation:
    def mutate(p: Position) -> None:
        p.update(fields)
    return mutate


def _zones(colour: str, **zones: Any) -> Mutation:
    def mutate(p: Position) -> None:
        p["families"][colour] = zones
    return mutate


def _stack(*refs: Any) -> Mutation:
    def mutate(p: Position) -> None:
        p["queue"].append(list(refs))
    return mutate


def _pending_while_placing(p: Position) -> None:
    p["phase"] = "placement"
    p["pending"] = [{"frame": "reveal", "card": "red:soldier", "family": "red"}]


ERRORS: list[tuple[str, Mutation, str]] = [
    ("missing card, no rest", _zones("red", hand=["archer"]), r"red:\w+ is nowhere"),
    ("card in two places", _zones("red", hand=["soldier"], rest="set_aside"),
     r"red:soldier is in two places: queue\[0\]\[0\] and families.red.hand"),
    ("unknown family (zones)", _zones("pink", hand=[]), r"unknown family 'pink'"),
    ("unknown family (queue)", _stack("purple:spy"), r"unknown family 'purple'"),
    ("unknown family (token)", _stack("blue:lord*@pink"), r"unknown family 'pink'"),
    ("unknown card", _stack("red:dragon"), r"queue\[3\]\[0\]: unknown card type 'dragon'"),
    ("card not in the set", _stack("red:queen"), r"queen is not in this game's card set"),
    ("Twin without Prince", _zones("red", eliminated=["twin"], rest="hand"),
     r"twin is not in this game's card set"),
    ("token on face-down card", _set(queue=[["red:soldier@blue"], ["blue:spy*"]]),
     r"queue\[0\]\[0\]: only a revealed Character can carry a Corruption token"),
    ("token on an Intrigue", _set(queue=[["red:ambush*@blue"], ["blue:spy*"]]),
     r"only a revealed Character can carry a Corruption token"),
    ("modifier in a zone", _zones("red", hand=["archer*"], rest="set_aside"),
     r"families.red.hand\[0\]: modifiers only in the Queue"),
    ("unknown zone", _zones("red", attic=["archer"], rest="hand"), r"unknown zone 'attic'"),
    ("bad rest", _zones("red", rest="reserve"), r"families.red.rest must name a zone"),
    ("negative influence", _set(influence=[1, -1, 2]),
     r"influence must be 3 non-negative integers"),
    ("short influence", _set(influence=[1, 1]), r"influence must be 3 non-negative integers"),
    ("text influence", _set(influence="lots"), r"'influence' has the wrong type"),
    ("round 7", _set(round=7), r"round must be 1 to 6, not 7"),
    ("round 0", _set(round=0), r"round must be 1 to 6, not 0"),
    ("unknown phase", _set(phase="nap"), r"phase must be one of placement, resolution, over"),
    ("placed too far", _set(phase="placement", placed=3), r"placed must be 0 to 2"),
    ("first player", _set(first_player=3), r"first_player must be 0 to 2"),
    ("cursor past the end", _set(cursor=4), r"cursor must be 0 to 3"),
    ("negative cursor", _set(cursor=-1), r"cursor must be 0 to 3"),
    ("empty stack", _stack(), r"queue\[3\] must be a non-empty list"),
    ("unknown frame", _frame(frame="nap", card="red:soldier", family="red"),
     r"pending\[0\].frame must be one of"),
    ("choice-less ability", _frame(frame="choose", card="blue:spy", family="blue",
                                   ability="lord"),
     r"pending\[0\].ability: lord has no choice to make"),
    ("reveal of a face-up card", _frame(frame="reveal", card="blue:spy", family="blue"),
     r"pending\[0\]: reveal needs the last frame, on a face-down top card"),
    ("frame card not in game", _frame(frame="reveal", card="red:queen", family="red"),
     r"pending\[0\].card: 'red:queen' is not a card of this game"),
    ("frame family", _frame(frame="reveal", card="red:soldier", family="pink"),
     r"unknown family 'pink'"),
    ("pending while placing", _pending_while_placing,
     r"pending abilities exist only in the resolution phase"),
    ("ids incomplete", _set(ids={"red:soldier": 0}),
     r"ids must give every card of the game a distinct id"),
    ("id of another family", _set(ids={"red:soldier": 15}),
     r"ids\['red:soldier'\] must be an id of its family \(0..9\)"),
    ("wrong format tag", _set(format="oriflamme-save"), r"not a position \(format"),
    ("bad config", _set(config={"players": 9}), r"config: players must be 2 to 5, not 9"),
    ("unknown config field", _set(config={"players": 3, "speed": 2}),
     r"config: unknown configuration field\(s\): speed"),
    ("malformed reference", _stack(42), r"a card reference must be a string"),
    ("reference without colour", _stack("soldier"), r"'soldier' needs its family"),
    ("card of another family", _zones("red", hand=["blue:archer"], rest="set_aside"),
     r"'blue:archer' is not a card of red"),
    ("reserve of a base card", _zones("red", reserve=["archer"], rest="hand"),
     r"families.red.reserve holds only the Twin"),
    ("round of the wrong type", _set(round="2"), r"'round' has the wrong type \(str\)"),
    ("over before round 6", _set(phase="over", round=5), r"over only after round 6"),
    ("scores_by_round row", _set(scores_by_round=[1]),
     r"scores_by_round\[0\] must be 3 non-negative integers"),
    ("scores_by_round short row", _set(scores_by_round=[[1, 2]]),
     r"scores_by_round\[0\] must be 3 non-negative integers"),
    ("scores_by_round too long", _set(scores_by_round=[[1, 1, 1]] * 3),
     r"scores_by_round has more rows than rounds played"),
    ("negative tokens", _frame(frame="tokens", card="red:soldier", family="red", tokens=-1),
     r"pending\[0\].tokens must be a non-negative integer"),
    ("gap target covered", lambda p: p.update(
        queue=[["red:royal_decree*"], ["blue:spy", "blue:lord*"], ["green:lord*"]],
        pending=[{"frame": "gap", "card": "red:royal_decree", "family": "red",
                  "target": "blue:spy"}]),
     r"pending\[0\]: the card to move must be a top card"),
    ("twin target not a twin", _frame(frame="twin", card="red:soldier", family="red",
                                      target="blue:spy"),
     r"pending\[0\]: target must be a Twin"),
    ("discard of a character", _frame(frame="discard", card="blue:spy", family="blue"),
     r"pending\[0\]: only an Intrigue is discarded"),
    ("acting card not in the Queue", _frame(frame="choose", card="red:archer",
                                             family="red", ability="archer"),
     r"pending\[0\]: the acting card must be a top card of the Queue"),
]


@pytest.mark.parametrize(
    ("mutate", "message"), [(m, msg) for _, m, msg in ERRORS], ids=[n for n, _, _ in ERRORS]
)
def test_inconsistent_positions_are_refused(mutate: Mutation, message: str) -> None:
    position = valid_position()
    mutate(position)
    given = copy.deepcopy(position)
    with pytest.raises(RecordError, match=message):
        Game.from_position(position)
    assert position == given, "a failed load changed its input"


def test_the_valid_position_of_the_error_table_loads() -> None:
    game = Game.from_position(valid_position())
    decision = game.decision()
    assert decision is not None and decision.kind.slug == "reveal"


def test_twin_in_a_hand_is_refused() -> None:
    position = embrasement_position([["red:queen*"]])
    position["families"]["red"] = {"hand": ["twin"], "rest": "set_aside"}
    with pytest.raises(RecordError, match=r"the Twin is never in a hand.*R-TWIN-1"):
        Game.from_position(position)


def test_face_down_twin_is_refused() -> None:
    with pytest.raises(RecordError, match=r"queue\[0\]\[0\]: the Twin is always face up"):
        Game.from_position(embrasement_position([["red:twin"]]))


def test_one_corruption_token_per_family() -> None:
    position = embrasement_position([["red:queen*@blue"], ["green:felon*@blue"]])
    with pytest.raises(RecordError, match="blue"):
        Game.from_position(position)


def test_non_object_records_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="a position must be a JSON object"):
        Game.from_position([1, 2])  # type: ignore[arg-type]
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match="a record must be a JSON object"):
        load(path)


def test_non_object_json_text_is_refused() -> None:
    with pytest.raises(RecordError, match="JSON object"):
        load("[1, 2]")


@pytest.mark.parametrize(
    ("queue", "message"),
    [
        ([["red:queen*+2"]], "face-up card carries no token"),
        ([["red:queen"], ["red:trap*"]], "face-up Intrigue"),
    ],
)
def test_impossible_face_up_cards_are_refused(queue: list[list[str]], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        Game.from_position(embrasement_position(queue))


def test_truncated_json_text_is_refused() -> None:
    text = json.dumps(new_game(seed=1).save())
    with pytest.raises(RecordError, match="not valid JSON"):
        load(text[: len(text) // 2])


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "nothing.json")


def test_save_errors() -> None:
    save = new_game(seed=1).save()
    for key, value, message in [
        ("version", 99, r"unsupported save version 99"),
        ("position", None, r"a save needs a position object"),
        ("log", [[1, 2]], r"log\[0\] must be a list of 7 integers"),
        ("history", 12, r"history must be an object or null"),
        ("history", [], r"history must be an object or null"),
        ("history", {"seed": "x", "actions": []}, r"history.seed must be an integer"),
        ("history", {"seed": 1, "actions": [{"kind": "fly"}]}, r"history.actions"),
    ]:
        broken = {**save, key: value}
        with pytest.raises(RecordError, match=message):
            load(broken)


# -- saves in the middle of an ability ------------------------------------------------------------
def continue_both(game: Game, other: Game) -> None:
    """Play both games to the end with the same fixed choices, comparing at every step."""
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert other.legal_actions() == legal
        assert other.position() == game.position()
        action = legal[(step * 7) % len(legal)]
        game.apply(action)
        other.apply(action)
        step += 1
    assert other.is_over and other.result() == game.result()
    assert other.position() == game.position()


def reach(position: Position, steps: list[str], kind: str) -> Game:
    """Load ``position``, apply ``steps`` ("reveal red:prince", cards by reference)."""
    game = Game.from_position(position)
    for step in steps:
        verb, _, ref = step.partition(" ")
        game.apply(f"{verb} {game.card(ref)}" if ref else verb)
    decision = game.decision()
    assert decision is not None and decision.kind.slug == kind
    return game


MID_ABILITY = {
    "royal decree gap": (
        {**valid_position(), "queue": [["red:royal_decree"], ["blue:soldier*"], ["green:lord*"]]},
        ["reveal red:royal_decree", "target blue:soldier"],
        "move_to",
        "gap",
    ),
    "machination token": (
        embrasement_position([["red:machination+2"], ["red:queen*"], ["blue:felon*"]]),
        ["reveal red:machination", "target red:queen"],
        "token",
        "tokens",
    ),
    "prince twin": (
        embrasement_position([["red:prince"], ["red:queen*"], ["blue:felon*"]]),
        ["reveal red:prince"],
        "place_twin",
        "twin",
    ),
    "shapeshifter copying a soldier": (
        {**valid_position(), "queue": [["red:shapeshifter"], ["blue:soldier*"], ["green:lord"]]},
        ["reveal red:shapeshifter", "target blue:soldier"],
        "eliminate",
        "choose",
    ),
}


@pytest.mark.parametrize("name", list(MID_ABILITY))
def test_saves_in_the_middle_of_an_ability(name: str) -> None:
    position, steps, kind, frame = MID_ABILITY[name]
    game = reach(position, steps, kind)
    assert game.position()["pending"][-1]["frame"] == frame
    loaded = load(json.dumps(game.save()))
    assert loaded == game
    assert loaded.decision() == game.decision()
    continue_both(game.copy(), loaded)
    placed = Game.from_position(json.loads(json.dumps(game.position())))
    continue_both(game, placed)


def test_machination_frame_holds_its_tokens() -> None:
    position, steps, kind, _ = MID_ABILITY["machination token"]
    game = reach(position, steps, kind)
    [frame] = [f for f in game.position()["pending"] if f["frame"] == "tokens"]
    assert frame == {"frame": "tokens", "card": "red:machination", "family": "red", "tokens": 2}


def test_shapeshifter_frame_names_the_copied_ability() -> None:
    position, steps, kind, _ = MID_ABILITY["shapeshifter copying a soldier"]
    game = reach(position, steps, kind)
    assert game.position()["pending"][-1] == {
        "frame": "choose", "card": "red:shapeshifter", "family": "red", "ability": "soldier"
    }


# -- replays --------------------------------------------------------------------------------------
def test_replay_names_the_illegal_action() -> None:
    game = new_game(players=3, seed=1)
    for _ in range(2):
        game.apply(game.legal_actions()[0])
    replay = game.replay()
    first = replay["actions"][0]
    replay["actions"].append(first)  # that card has left the hand
    with pytest.raises(RecordError, match=r"actions\[2\]: .* is not legal now"):
        Game.from_replay(replay)
    replay["actions"][2] = {"kind": "fly"}
    with pytest.raises(RecordError, match=r"actions\[2\]: unknown action kind 'fly'"):
        Game.from_replay(replay)


def test_replay_errors() -> None:
    replay = new_game(seed=1).replay()
    for key, value, message in [
        ("format", "oriflamme-save", r"not a replay file"),
        ("seed", "1", r"seed must be an integer"),
        ("actions", "none", r"actions must be a list"),
        ("config", {"players": 1}, r"config: players must be 2 to 5"),
    ]:
        with pytest.raises(RecordError, match=message):
            Game.from_replay({**replay, key: value})


def test_replay_upto_stops_early() -> None:
    game = new_game(players=3, seed=2)
    for _ in range(5):
        game.apply(game.legal_actions()[-1])
    early = Game.from_replay(game.replay(), upto=3)
    assert early.history == game.history[:3]


def test_a_position_has_no_replay() -> None:
    with pytest.raises(RecordError, match="no replay"):
        Game.from_position(valid_position()).replay()

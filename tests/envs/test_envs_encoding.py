"""The shared encodings of the research adapters: a bijection between every legal action and
its index, relative numbering, and an observation vector made of the player's view only."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from doctests import check_examples
from oriflamme import encoding
from oriflamme.api import END, FRONT, Action, Game, GameConfig, WorldSampler, new_game
from oriflamme.encoding import HIGH, ZONES, ActionCodec, Layout, ObservationEncoder
from oriflamme.search import state_of

SETUPS: list[dict[str, Any]] = [
    {"players": p, "cards": c} for p in (3, 4, 5) for c in ("base", "embrasement")
] + [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
]


def ids(setup: dict[str, Any]) -> str:
    return "-".join(str(v) for v in setup.values())


def random_positions(config: GameConfig, games: int, seed: int = 0) -> list[Game]:
    """Copies of every position met in ``games`` random games."""
    rng = random.Random(seed)
    out = []
    for s in range(games):
        game = Game.new(config, seed * 1000 + s, log=False)
        while not game.is_over:
            out.append(game.copy(log=False))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        out.append(game)
    return out


def test_module_examples() -> None:
    check_examples(encoding)


@pytest.mark.parametrize(
    ("setup", "actions", "features"),
    [
        # 3p base: N=30 cards, M=10 own, D=32 destinations: 320+30+3+1+1+31+32+1+1 actions;
        # 54 global + 4*3 family values + 30 cards * (10+1+7+1+1+3+8) features.
        ({"players": 3, "cards": "base"}, 420, 54 + 12 + 30 * 31),
        # 5p embrasement: N=55, M=11, D=57; T=11 types with the Twin.
        ({"players": 5, "cards": "embrasement"}, 627 + 55 + 5 + 2 + 56 + 57 + 2,
         6 + 3 + 1 + 5 * 4 + 1 + 11 + 1 + 11 + 7 + 1 + 1 + 20 + 55 * (11 + 1 + 7 + 2 + 5 + 8)),
        # 2p two-families embrasement: 4 families, N=44, M=22 own, D=46.
        ({"players": 2, "cards": "embrasement"}, 22 * 46 + 44 + 2 + 2 + 45 + 46 + 2,
         6 + 3 + 1 + 2 * 4 + 1 + 11 + 1 + 11 + 7 + 1 + 1 + 16 + 44 * (11 + 1 + 7 + 2 + 4 + 8)),
    ],
)
def test_sizes_follow_the_documented_layout(
    setup: dict[str, Any], actions: int, features: int
) -> None:
    layout = Layout.of(GameConfig(**setup))
    assert ActionCodec(layout).size == actions
    assert ObservationEncoder(layout).size == features


def test_layout_is_shared_per_setup() -> None:
    cfg = GameConfig(players=4, cards="embrasement")
    assert Layout.of(cfg) is Layout.of(cfg.to_dict())
    assert Layout.of(cfg) is not Layout.of(GameConfig(players=4))


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_relative_numbering_is_a_bijection_that_puts_own_cards_first(
    setup: dict[str, Any],
) -> None:
    cfg = GameConfig(**setup)
    layout = Layout.of(cfg)
    size = cfg.family_size
    for p in range(cfg.players):
        rel = layout.relative_cards(p)
        assert sorted(rel) == list(range(layout.cards))
        assert all(layout.absolute_card(rel[c], p) == c for c in range(layout.cards))
        for f in cfg.player_families(p):  # own families: relative 0 (and n for the second)
            assert layout.relative_family(f, p) in (0, cfg.players)
            assert rel[f * size] // size in (0, cfg.players)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_every_legal_action_has_its_own_index_and_decodes_back(setup: dict[str, Any]) -> None:
    cfg = GameConfig(**setup)
    codec = ActionCodec(Layout.of(cfg))
    seen_kinds: set[Any] = set()
    for game in random_positions(cfg, games=6):
        d = game.decision()
        if d is None:
            continue
        legal = game.legal_actions()
        indices = codec.encode_all(legal, d.player)
        assert indices == [codec.encode(a, d.player) for a in legal]
        assert len(set(indices)) == len(legal)
        assert all(0 <= i < codec.size for i in indices)
        assert [codec.decode(i, d.player, d.card) for i in indices] == legal
        mask = codec.mask(legal, d.player)
        assert mask.dtype == np.int8 and mask.sum() == len(legal)
        seen_kinds.update(a.kind for a in legal)
    assert len(seen_kinds) >= 5  # placements, reveals and several ability choices met


def test_relative_indices_mean_the_same_from_every_seat() -> None:
    """Placing one's first own card at the end, or targeting the next player's first card,
    is the same index whoever does it."""
    cfg = GameConfig(players=3)
    codec = ActionCodec(Layout.of(cfg))
    place = {codec.encode(Action.place(p * 10 + 3, END), p) for p in range(3)}
    target_next = {codec.encode(Action.target(((p + 1) % 3) * 10), p) for p in range(3)}
    players = {codec.encode(Action.player((p + 2) % 3), p) for p in range(3)}
    assert len(place) == len(target_next) == len(players) == 1
    assert place != {codec.encode(Action.place(3, FRONT), 0)}


def test_placing_another_players_card_has_no_index() -> None:
    codec = ActionCodec(Layout.of(GameConfig(players=3)))
    with pytest.raises(ValueError, match="own cards"):
        codec.encode(Action.place(13, END), 0)
    with pytest.raises(ValueError, match="not in"):
        codec.decode(codec.size, 0, -1)


def test_describe_names_every_index_without_a_position() -> None:
    codec = ActionCodec(Layout.of(GameConfig(players=3)))
    texts = [codec.describe(i) for i in range(codec.size)]
    assert len(set(texts)) == codec.size
    assert texts[codec.encode(Action.place(3, END), 0)] == "place own #3 end"
    assert texts[codec.encode(Action.target(14), 1)] == "target relative #4"
    assert texts[codec.encode(Action.spend(), 2)] == "spend"


def block(
    encoder: ObservationEncoder, vector: np.ndarray, card: int, viewer: int
) -> dict[str, Any]:
    """The features of ``card`` in ``vector`` (encoded for ``viewer``), by name."""
    layout = encoder.layout
    start = encoder.family_base + 4 * layout.families
    start += encoder.card_width * layout.relative_card(card, viewer)
    row = vector[start:start + encoder.card_width]
    c = encoder.columns
    t = len(layout.card_types)
    types = [layout.card_types[i].slug for i in np.flatnonzero(row[:t])]
    return {
        "type": types[0] if types else ("?" if row[c["unknown"]] else None),
        "zone": ZONES[int(np.argmax(row[c["zone"]:c["zone"] + len(ZONES)]))],
        "face_up": row[c["face_up"]], "tokens": row[c["tokens"]],
        "corrupted_by": np.flatnonzero(row[c["corrupted_by"]:c["corrupted_by"] + layout.families])
        .tolist(),
        "index": row[c["index"]], "from_end": row[c["from_end"]], "level": row[c["level"]],
        "top": row[c["top"]], "cursor": row[c["cursor"]], "resolved": row[c["resolved"]],
        "decision_card": row[c["decision_card"]],
    }


def test_a_hand_built_position_encodes_as_the_rules_let_each_player_see_it() -> None:
    # Round 2, resolution. Stack 0: green's Lord (revealed, resolved); stack 1, under the
    # cursor: red's face-down Soldier with 1 token; stack 2: blue's Archer face up with green's
    # Corruption token on it, over blue's face-down Heir. Green's Spy is set aside.
    game = Game.from_position({
        "config": {"players": 3}, "round": 2, "phase": "resolution", "cursor": 1,
        "influence": [3, 4, 12],
        "queue": [["green:lord*"], ["red:soldier+1"], ["blue:heir", "blue:archer*@green"]],
        "families": {"red": {"rest": "hand"}, "blue": {"rest": "hand"},
                     "green": {"set_aside": ["spy"], "rest": "hand"}},
    })
    d = game.decision()
    assert d is not None and (d.player, d.kind.slug) == (0, "reveal")
    encoder = ObservationEncoder(Layout.of(game.config))
    soldier, archer, heir, lord = (game.card(r) for r in (
        "red:soldier", "blue:archer", "blue:heir", "green:lord"))
    spy = game.card("green:spy")
    red = encoder.encode(game.observe(0))
    blue = encoder.encode(game.observe(1))
    assert red.dtype == np.float32 and red.shape == (encoder.size,)
    assert block(encoder, red, soldier, 0) == {
        "type": "soldier", "zone": "queue", "face_up": 0, "tokens": pytest.approx(0.2),
        "corrupted_by": [], "index": pytest.approx(0.1), "from_end": pytest.approx(0.1),
        "level": 0, "top": 1, "cursor": 1, "resolved": 0, "decision_card": 1}
    assert block(encoder, blue, soldier, 1)["type"] == "?"  # blue cannot know it
    assert block(encoder, blue, heir, 1)["type"] == "heir"  # blue's own, face down
    assert block(encoder, red, heir, 0)["type"] == "?"
    assert block(encoder, red, heir, 0)["top"] == 0
    archer_for_red = block(encoder, red, archer, 0)
    assert archer_for_red["type"] == "archer" and archer_for_red["level"] == pytest.approx(0.1)
    assert archer_for_red["corrupted_by"] == [2]  # green is red's relative family 2
    assert block(encoder, blue, archer, 1)["corrupted_by"] == [1]  # ... and blue's 1
    assert block(encoder, red, lord, 0)["resolved"] == 1
    assert block(encoder, red, spy, 0)["zone"] == "unseen"
    assert block(encoder, red, spy, 0)["type"] == "?"
    g = encoder.fields
    assert red[g["round"] + 1] == 1 and red[g["phase"] + 1] == 1
    assert red[g["influence"]:g["influence"] + 3].tolist() == pytest.approx([0.3, 0.4, 1.2])
    assert blue[g["influence"]:g["influence"] + 3].tolist() == pytest.approx([0.4, 1.2, 0.3])
    assert red[g["mine"]] == 1 and blue[g["mine"]] == 0
    assert blue[g["decider"]:g["decider"] + 3].tolist() == [0, 0, 1]  # red is blue's +2


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_observation_depends_only_on_what_the_player_may_know(setup: dict[str, Any]) -> None:
    """A world drawn from player p's observation (other players' hidden cards dealt anew)
    encodes identically for p; the hidden cards really differ, and so does another player's
    vector at least once."""
    cfg = GameConfig(**setup)
    encoder = ObservationEncoder(Layout.of(cfg))
    rng = random.Random(5)
    differs = 0
    for game in random_positions(cfg, games=2, seed=3)[::5]:
        p = rng.randrange(cfg.players)
        world = WorldSampler(game.observe(p)).sample(rng)
        mine = encoder.encode(game.observe(p))
        assert np.array_equal(encoder.encode(world.observe(p)), mine)
        other = (p + 1) % cfg.players
        if not np.array_equal(encoder.encode(world.observe(other)),
                              encoder.encode(game.observe(other))):
            differs += 1
    assert differs > 0


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_vectors_are_bounded_and_written_in_place(setup: dict[str, Any]) -> None:
    cfg = GameConfig(**setup)
    encoder = ObservationEncoder(Layout.of(cfg))
    out = np.full(encoder.size, 7.0, dtype=np.float32)
    for game in random_positions(cfg, games=2)[::3]:
        view = game.observe(0)
        vector = encoder.encode(view)
        assert vector.min() >= 0.0 and vector.max() <= HIGH
        assert encoder.encode(view, out=out) is out
        assert np.array_equal(out, vector)


def test_public_view_needs_a_perspective_and_hides_own_cards() -> None:
    game = new_game(players=3, seed=4)
    encoder = ObservationEncoder(Layout.of(game.config))
    with pytest.raises(ValueError, match="perspective"):
        encoder.encode(game.observe(None))
    public = encoder.encode(game.observe(None), perspective=0)
    private = encoder.encode(game.observe(0))
    own = game.observe(0)["families"][0]["hand"][0]["id"]
    assert block(encoder, private, own, 0)["type"] != "?"
    assert block(encoder, public, own, 0)["type"] == "?"


# -- the fast path: the same vectors, read from the raw state -----------------------------------
ROOT = Path(__file__).resolve().parents[2]


def mid_ability_positions() -> list[Game]:
    """Hand-built positions in the middle of abilities: the position of docs/formats.md (a
    Royal Decree's gap then its discard pending, a Corruption token, the Twin in reserve) and
    a Machination holding tokens, with the games they lead to."""
    text = (ROOT / "docs" / "formats.md").read_text("utf-8")
    decree = Game.from_position(json.loads(re.findall(r"```json\n(.*?)```", text, re.S)[0]))
    machination = Game.from_position({  # discarded on reveal, it holds 2 tokens to use
        "config": {"players": 4, "cards": "embrasement"}, "round": 3, "phase": "resolution",
        "cursor": 1, "influence": [2, 5, 3, 1],
        "queue": [["blue:queen*"], ["yellow:felon*@red"], ["green:cutthroat*"]],
        "pending": [{"frame": "activate", "card": "red:machination", "family": "red",
                     "tokens": 2}],
        "families": {"red": {"discarded": ["machination", "corruption"], "rest": "hand"},
                     **{c: {"rest": "hand"} for c in ("blue", "green", "yellow")}},
    })
    return [decree, machination]


def assert_fast_equals_reference(encoder: ObservationEncoder, game: Game,
                                 out: np.ndarray) -> None:
    state = state_of(game)
    for p in range(game.config.players):
        reference = encoder.encode(game.observe(p))
        fast = encoder.encode_state(state, p)
        assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
        assert np.array_equal(fast, reference), (p, np.flatnonzero(fast != reference))
        public = encoder.encode(game.observe(None), perspective=p)
        assert np.array_equal(encoder.encode_state(state, p, public=True), public)
        out.fill(3.0)  # written in place, every stale value cleared
        assert encoder.encode_game(game, p, out=out) is out
        assert np.array_equal(out, reference)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_fast_path_equals_the_observation_encoder(setup: dict[str, Any]) -> None:
    """At every step of random games (and in worlds sampled from a player's view), for every
    player and the public view, encode_state(state) == encode(observe(player))."""
    cfg = GameConfig(**setup)
    encoder = ObservationEncoder(Layout.of(cfg))
    out = np.zeros(encoder.size, dtype=np.float32)
    rng = random.Random(11)
    frames: set[str] = set()
    decisions: set[str] = set()
    for game in random_positions(cfg, games=5, seed=7):
        assert_fast_equals_reference(encoder, game, out)
        view = game.observe(0)
        frames.update(f["frame"] for f in view["pending"])
        if view["decision"] is not None:
            decisions.add(view["decision"]["kind"])
        if rng.random() < 0.1:  # a world as a search bot samples it: ids dealt anew
            world = WorldSampler(game.observe(rng.randrange(cfg.players))).sample(rng)
            assert_fast_equals_reference(encoder, world, out)
    assert "reveal" in frames and len(frames) >= 3  # mid-ability positions were met
    assert len(decisions) >= 5


def test_fast_path_equals_the_observation_encoder_mid_ability() -> None:
    rng = random.Random(3)
    met: set[str] = set()
    for start in mid_ability_positions():
        encoder = ObservationEncoder(Layout.of(start.config))
        out = np.zeros(encoder.size, dtype=np.float32)
        met.update(f["frame"] for f in start.observe(None)["pending"])
        game = start.copy()
        while not game.is_over:
            assert_fast_equals_reference(encoder, game, out)
            game.apply(game.random_action(rng))
        assert_fast_equals_reference(encoder, game, out)
    assert met == {"gap", "discard", "activate"}


def test_fast_path_checks_its_perspective() -> None:
    game = new_game(players=3, seed=1)
    encoder = ObservationEncoder(Layout.of(game.config))
    for bad in (3, -1, True):
        with pytest.raises(ValueError, match="perspective must be a player 0 to 2"):
            encoder.encode_game(game, bad)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_fast_path_depends_only_on_what_the_player_may_know(setup: dict[str, Any]) -> None:
    """The no-leak test on the fast path: a world drawn from p's observation (hidden cards,
    p's own pile included, dealt anew) gives p the same vector; another player's differs."""
    cfg = GameConfig(**setup)
    encoder = ObservationEncoder(Layout.of(cfg))
    rng = random.Random(6)
    differs = 0
    for game in random_positions(cfg, games=2, seed=4)[::4]:
        p = rng.randrange(cfg.players)
        world = WorldSampler(game.observe(p)).sample(rng)
        assert state_of(world).card_type != state_of(game).card_type
        assert np.array_equal(encoder.encode_game(world, p), encoder.encode_game(game, p))
        for q in range(cfg.players):
            assert np.array_equal(encoder.encode_game(world, q, public=True),
                                  encoder.encode_game(game, q, public=True))
        other = (p + 1) % cfg.players
        differs += not np.array_equal(encoder.encode_game(world, other),
                                      encoder.encode_game(game, other))
    assert differs > 0


def test_fast_path_hides_the_order_of_the_players_own_pile() -> None:
    """Two-families: deals that differ only in the order of red's pile (ids 6-9, drawn in that
    order) look the same to red until the first draw, and differ for blue only by what blue
    may see (nothing of red's pile)."""
    cfg = GameConfig(players=2)
    dealt = new_game(players=2, seed=3, log=False)
    types = list(state_of(dealt).card_type)
    swapped = types[:]
    swapped[6:10] = reversed(types[6:10])
    a, b = dealt, Game.from_deal(cfg, swapped, log=False)
    encoder = ObservationEncoder(Layout.of(cfg))
    rng = random.Random(1)
    while a.round == 1:
        for p in (0, 1):
            assert np.array_equal(encoder.encode_game(a, p), encoder.encode_game(b, p))
        action = a.random_action(rng)
        a.apply(action)
        b.apply(action)
    assert a.round == 2  # red has drawn its pile's first card: now red sees which it is
    assert not np.array_equal(encoder.encode_game(a, 0), encoder.encode_game(b, 0))
    assert np.array_equal(encoder.encode_game(a, 1), encoder.encode_game(b, 1))

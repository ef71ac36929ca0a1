"""Bots: the interface, the random bot, the registry and the runner."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from doctests import check_examples
from oriflamme.api import FAMILY_COLOURS, Action, Game, new_game
from oriflamme.bots import (
    NO_OBSERVATION,
    Bot,
    BotError,
    BotSpecError,
    RandomBot,
    bot_move,
    known_bots,
    make_bot,
    needs_observation,
    play_game,
    register_bot,
    unregister_bot,
)
from oriflamme.bots.base import parse_spec, picks_by_position

CONFIGS = [
    {"players": 3, "cards": "base"},
    {"players": 4, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "two-families"},
    {"players": 2, "cards": "embrasement", "variant": "standard"},
    {"players": 5, "cards": "embrasement"},
]


class RecordingBot:
    """Wraps a random bot and records what it was given and what it answered."""

    def __init__(self, seed: int) -> None:
        self.name = "recording"
        self.inner = RandomBot(seed)
        self.calls: list[tuple[Mapping[str, Any], Sequence[Action], Action]] = []

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        action = self.inner.act(observation, legal)
        self.calls.append((observation, legal, action))
        return action


def hidden_ids(game: Game, viewer: int) -> set[int]:
    """Ids of the cards of other players that ``viewer`` may not identify, from the position:
    cards in their hands, set-aside cards, draw piles and face-down cards in the Queue."""
    pos = game.position()
    ids: Mapping[str, int] = pos["ids"]
    players = pos["config"]["players"]
    out: set[int] = set()
    for colour, zones in pos["families"].items():
        if FAMILY_COLOURS.index(colour) % players == viewer:
            continue
        for zone in ("hand", "set_aside", "pile"):
            out.update(ids[f"{colour}:{slug}"] for slug in zones.get(zone, []))
    for stack in pos["queue"]:
        for ref in stack:
            name = ref.split("@")[0].split("+")[0]
            colour = name.split(":")[0]
            if "*" not in name and FAMILY_COLOURS.index(colour) % players != viewer:
                out.add(ids[name])
    return out


def card_entries(value: Any) -> list[Mapping[str, Any]]:
    """Every dict with an ``id`` anywhere in an observation."""
    found: list[Mapping[str, Any]] = []
    if isinstance(value, Mapping):
        if "id" in value:
            found.append(value)
        for item in value.values():
            found.extend(card_entries(item))
    elif isinstance(value, list | tuple):
        for item in value:
            found.extend(card_entries(item))
    return found


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_random_bots_play_legal_actions_to_the_end(config: dict[str, Any]) -> None:
    for seed in range(3):
        game = new_game(**config, seed=seed)
        bots = {p: RecordingBot(seed * 10 + p) for p in range(game.config.players)}
        result = play_game(game, bots)
        assert game.is_over and result == game.result()
        calls = [call for bot in bots.values() for call in bot.calls]
        assert len(calls) == len(game.history) > 0
        for _, legal, action in calls:
            assert action in legal


def test_random_bot_is_uniform_and_seeded() -> None:
    legal = [Action.reveal(3), Action.leave(3)]
    picks = [RandomBot(seed).act({}, legal) for seed in range(200)]
    assert 60 < picks.count(Action.reveal(3)) < 140
    bot_a, bot_b = RandomBot(7), RandomBot(7)
    assert [bot_a.act({}, legal) for _ in range(30)] == [bot_b.act({}, legal) for _ in range(30)]


def test_same_seeds_give_the_same_game_and_other_seeds_another() -> None:
    def history(deal: int, bot_seed: int) -> list[Action]:
        game = new_game(players=3, cards="embrasement", seed=deal)
        play_game(game, {p: make_bot("random", bot_seed + p) for p in range(3)})
        return game.history

    assert history(4, 100) == history(4, 100)
    assert any(history(4, 100) != history(4, s) for s in (200, 300, 400))


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_a_bot_never_sees_the_hidden_cards_of_others(config: dict[str, Any]) -> None:
    game = new_game(**config, seed=11)
    checked = 0

    class SpyBot(RecordingBot):
        def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            nonlocal checked
            viewer = observation["viewer"]
            d = game.decision()
            assert d is not None and viewer == d.player
            hidden = hidden_ids(game, viewer)
            for entry in card_entries(observation):
                if entry["id"] in hidden:
                    assert entry.get("type") is None, (entry, viewer)
                    checked += 1
            return super().act(observation, legal)

    play_game(game, {p: SpyBot(p) for p in range(game.config.players)})
    assert game.is_over
    assert checked > 0  # hidden cards of others were in view and stayed anonymous


def test_hidden_ids_helper_finds_face_down_cards() -> None:
    game = Game.from_position(
        {
            "config": {"players": 3},
            "round": 2,
            "phase": "resolution",
            "queue": [["red:soldier"], ["blue:heir"], ["green:spy*"]],
            "families": {c: {"rest": "set_aside"} for c in ("red", "blue", "green")},
        }
    )
    hidden = hidden_ids(game, 0)
    assert game.card("blue:heir") in hidden
    assert game.card("red:soldier") not in hidden
    assert game.card("green:spy") not in hidden
    assert game.card("green:lord") in hidden  # set aside
    assert len(hidden) == 2 * 10 - 1


def test_play_game_stops_at_a_seat_without_a_bot() -> None:
    game = new_game(players=3, seed=2, first_player=1)
    steps: list[tuple[int, Action]] = []
    result = play_game(
        game, {1: RandomBot(1), 2: RandomBot(2)}, lambda g, p, a: steps.append((p, a))
    )
    assert result is None
    assert [p for p, _ in steps] == [1, 2]
    d = game.decision()
    assert d is not None and d.player == 0
    assert game.history == [a for _, a in steps]


class FixedBot:
    def __init__(self, answer: Any) -> None:
        self.name = "stubborn"
        self.answer = answer

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        return self.answer  # type: ignore[no-any-return]


def test_an_illegal_answer_raises_naming_the_bot() -> None:
    game = new_game(players=3, seed=1)
    with pytest.raises(BotError, match=r"bot 'stubborn' \(player 0\).*illegal action reveal 3"):
        play_game(game, {0: FixedBot(Action.reveal(3))})
    assert game.history == []
    with pytest.raises(BotError, match="not an Action"):
        play_game(game, {0: FixedBot("place 3 end")})


class BlindRecordingBot(RecordingBot):
    """A recording bot that declares it decides without an observation."""

    needs_observation = False


def test_the_runner_builds_only_what_a_bot_declares_it_needs() -> None:
    """Issue #13: a bot that needs no observation (random) is handed none; the others get
    their own player's full view; the games are the same either way."""
    assert RandomBot.needs_observation is False and not needs_observation(RandomBot(0))
    assert needs_observation(RecordingBot(0))  # bots that say nothing get their observation
    seen, blind = RecordingBot(4), BlindRecordingBot(4)
    full_game, blind_game = new_game(players=3, seed=9), new_game(players=3, seed=9)
    play_game(full_game, {p: seen for p in range(3)})
    play_game(blind_game, {p: blind for p in range(3)})
    assert blind.calls and all(obs is NO_OBSERVATION for obs, _, _ in blind.calls)
    assert len(NO_OBSERVATION) == 0
    assert {obs["viewer"] for obs, _, _ in seen.calls} == {0, 1, 2}
    assert [a for _, _, a in seen.calls] == [a for _, _, a in blind.calls]
    assert full_game.history == blind_game.history
    assert full_game.result() == blind_game.result()


class ActingRandomBot(RandomBot):
    """The random bot without ``pick``: the runner must hand it the list of legal actions."""

    pick = None  # type: ignore[assignment]


class BadPickBot(RandomBot):
    """Picks what it is told to, legal or not."""

    def __init__(self, answer: object) -> None:
        super().__init__(0)
        self.answer = answer

    def pick(self, count: int) -> int:
        return self.answer  # type: ignore[return-value]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_a_bot_that_picks_by_position_plays_the_same_games(config: dict[str, Any]) -> None:
    """Issue #13: the random bot is asked only for an index (no observation, no list); the
    games are move for move those of the same bot choosing from the list."""
    assert picks_by_position(RandomBot(0)) is not None
    assert picks_by_position(ActingRandomBot(0)) is None
    assert picks_by_position(make_bot("medium", 0)) is None
    for seed in range(3):
        picked, listed = new_game(**config, seed=seed), new_game(**config, seed=seed)
        stepped = new_game(**config, seed=seed)
        players = picked.config.players
        # Every seat picks and no callback: the whole loop runs in the rules (play_by_position).
        play_game(picked, {p: RandomBot(seed * 10 + p) for p in range(players)})
        play_game(listed, {p: ActingRandomBot(seed * 10 + p) for p in range(players)})
        # With a callback the runner asks move by move (pick_action).
        steps: list[int] = []

        def count_step(game: Game, player: int, action: Action, steps: list[int] = steps) -> None:
            steps.append(player)

        play_game(stepped, {p: RandomBot(seed * 10 + p) for p in range(players)},
                  on_step=count_step)
        assert picked.is_over
        assert picked.history == listed.history == stepped.history
        assert picked.result() == listed.result() == stepped.result()
        assert len(steps) == len(picked.history)


class LateBadPickBot(RandomBot):
    """Picks at random, then out of range at its ``fail_at``-th decision."""

    def __init__(self, seed: int, fail_at: int) -> None:
        super().__init__(seed)
        self.fail_at, self.calls = fail_at, 0

    def pick(self, count: int) -> int:
        self.calls += 1
        return count if self.calls == self.fail_at else super().pick(count)


def test_a_bad_pick_in_a_whole_game_names_its_bot_and_stops_there() -> None:
    """Issue #13: when every seat picks by position the loop runs in the rules; a pick out of
    range is still a BotError naming the bot and its player, and the game stays at that
    decision with the moves before it played (the same as move by move)."""
    game, reference = new_game(players=3, seed=4), new_game(players=3, seed=4)
    bots = {0: RandomBot(1), 1: LateBadPickBot(2, fail_at=5), 2: RandomBot(3)}
    with pytest.raises(BotError, match="bot 'random' \\(player 1\\) picked no legal action"):
        play_game(game, bots)
    assert game.current_player == 1 and not game.is_over and len(game.history) > 4
    again = {0: RandomBot(1), 1: LateBadPickBot(2, fail_at=5), 2: RandomBot(3)}
    with pytest.raises(BotError, match="\\(player 1\\)"):
        play_game(reference, again, on_step=lambda *_: None)
    assert game.position() == reference.position() and game.history == reference.history
    with pytest.raises(ValueError, match="one pick per player"):
        new_game(players=3, seed=4).play_by_position([RandomBot(0).pick])


@pytest.mark.parametrize("answer", [-1, 7, 99, 1.5, "0", None])
def test_a_bad_pick_is_a_bot_error_and_changes_nothing(answer: object) -> None:
    game = new_game(players=3, seed=3)
    before = game.position()
    n = len(game.legal_actions())
    assert n == 7
    with pytest.raises(BotError, match="bot 'random' \\(player 0\\) picked no legal action"):
        bot_move(game, BadPickBot(answer))
    assert game.position() == before and game.history == []


def test_make_bot_and_the_registry() -> None:
    assert "random" in known_bots()
    bot = make_bot(" Random ", 5)
    assert isinstance(bot, RandomBot) and isinstance(bot, Bot)
    with pytest.raises(BotSpecError, match=r"unknown bot 'alphago'; known bots: .*random"):
        make_bot("alphago", 1)
    with pytest.raises(BotSpecError, match="does not take option"):
        make_bot("random:depth=3", 1)
    with pytest.raises(ValueError, match="already registered"):
        register_bot("random", lambda seed, options: RandomBot(seed), "again")


def test_bot_spec_options_reach_the_factory() -> None:
    seen: list[tuple[int, Mapping[str, str]]] = []

    def factory(seed: int, options: Mapping[str, str]) -> Bot:
        seen.append((seed, dict(options)))
        return RandomBot(seed)

    register_bot("test-options", factory, "a bot for this test", options=("depth", "width"))
    try:
        make_bot("test-options:depth=3:width=2", 9)
    finally:
        unregister_bot("test-options")
    assert "test-options" not in known_bots()
    assert seen == [(9, {"depth": "3", "width": "2"})]
    assert parse_spec("x") == ("x", {})
    with pytest.raises(BotSpecError, match="expected key=value"):
        parse_spec("x:depth")
    with pytest.raises(BotSpecError, match="twice"):
        parse_spec("x:a=1:a=2")


def test_the_search_bots_are_registered_but_imported_when_first_made() -> None:
    """Issue #13 (start-up): ``import oriflamme.bots`` registers every bot without importing
    the search bots' modules; making one imports it; importing a bot module directly does
    not register it twice. Runs in a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import oriflamme.bots as bots\n"
        "lazy = ['oriflamme.bots.greedy', 'oriflamme.bots.halving', 'oriflamme.bots.ismcts',\n"
        "        'oriflamme.bots.levels', 'oriflamme.bots.evaluation', 'oriflamme.bots.policy',\n"
        "        'oriflamme.bots.learned', 'oriflamme.bots.guided', 'numpy']\n"
        "print(sorted(m for m in lazy if m in sys.modules))\n"
        "print(sorted(bots.known_bots()))\n"
        "import oriflamme.bots.ismcts, oriflamme.bots.halving, oriflamme.bots.greedy\n"
        "import oriflamme.bots.levels\n"
        "print(type(bots.make_bot('hard', 1)).__name__, bots.make_bot('hard', 1).name)\n"
        "print(bots.IsmctsBot.__module__, bots.NoisyHeuristicBot.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "[]"
    assert out[1] == str(["easy", "expert", "greedy", "guided", "halving", "hard", "ismcts",
                          "learned", "master", "medium", "network", "policy", "random"])
    assert out[2] == "IsmctsBot hard"
    assert out[3] == "oriflamme.bots.ismcts oriflamme.bots.levels"


#: Every built-in bot class, with small iteration budgets: ``hard``, ``expert`` and ``master``
#: are search bots with time limits (so not reproducible choice for choice), ``learned`` is
#: ``network`` with its shipped weights, and ``policy`` needs a weights file
#: (tests/bots/test_policy_bot.py).
COPYABLE = ["random", "greedy", "easy", "medium", "ismcts:iterations=40",
            "ismcts:iterations=40:opponents=greedy:value=fitted", "halving:iterations=40",
            "network", "guided:iterations=40", "guided:iterations=40:leaf=value:prior=on"]


@pytest.mark.parametrize("spec", COPYABLE)
def test_a_bot_can_be_pickled_and_copied_and_decides_the_same(spec: str) -> None:
    """On either build (compiled classes are not rebuilt field by field as plain objects are):
    a pickled or deep-copied bot, even after it has searched, makes the original's next
    choices."""
    assert {s.split(":")[0] for s in COPYABLE} | {"hard", "expert", "policy", "learned",
                                                  "master"} == set(known_bots())
    bot, game = make_bot(spec, 5), new_game(players=3, seed=8)
    bot_move(game, bot)  # the bot has played (and, for the search bots, searched) once
    twins = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)]
    for _ in range(3):
        player = game.current_player
        assert player is not None
        observation, legal = game.observe(player), game.legal_actions()
        chosen = bot.act(observation, legal)
        assert [twin.act(observation, legal) for twin in twins] == [chosen, chosen]
        game.apply(chosen)


def test_bots_docstring_examples() -> None:
    from oriflamme.bots import base, catalog, levels

    for module in (base, catalog, levels):
        check_examples(module)


def test_a_spec_read_once_follows_the_registry() -> None:
    """make_bot remembers the specs it has read (issue #13: a bot per seat per game), but a
    bot registered again under the same name is the new one, and a bad spec stays an error."""
    made: list[tuple[str, int, dict[str, str]]] = []

    def first(seed: int, options: Mapping[str, str]) -> Bot:
        made.append(("first", seed, dict(options)))
        return RandomBot(seed)

    def second(seed: int, options: Mapping[str, str]) -> Bot:
        made.append(("second", seed, dict(options)))
        return RandomBot(seed)

    register_bot("cached-test", first, "test", options=("depth",))
    try:
        make_bot("cached-test:depth=2", 1)
        make_bot("cached-test:depth=2", 2)
        unregister_bot("cached-test")
        register_bot("cached-test", second, "test", options=("depth",))
        make_bot("cached-test:depth=2", 3)
        assert made == [("first", 1, {"depth": "2"}), ("first", 2, {"depth": "2"}),
                        ("second", 3, {"depth": "2"})]
        unregister_bot("cached-test")
        with pytest.raises(BotSpecError, match="unknown bot 'cached-test'"):
            make_bot("cached-test:depth=2", 4)
        for _ in range(2):
            with pytest.raises(BotSpecError, match="does not take option"):
                make_bot("random:depth=3", 1)
    finally:
        unregister_bot("cached-test")

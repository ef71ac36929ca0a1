"""The fitted position value (bots/value.py) and its fitting script (tools/fit_value.py)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from doctests import check_examples
from oriflamme.api import Game, new_game
from oriflamme.bots import value
from oriflamme.bots.evaluation import (
    PART_WEIGHTS,
    SCORE_PARTS,
    TEMPERATURE_BASE,
    TEMPERATURE_PER_ROUND,
    evaluate_state_all,
    play_heuristic_state,
    projected_state_scores,
    score_parts,
)
from oriflamme.search import state_of
from scripts import ROOT, load_module


def load_script() -> ModuleType:
    return load_module(ROOT / "tools" / "fit_value.py", "fit_value_script")


def round_starts(seed: int, players: int) -> list[Game]:
    """The first decision of rounds 2 to 6 of a heuristic game: where rollouts stop."""
    game = new_game(players=players, seed=seed)
    rng = random.Random(seed)
    found = []
    for last in range(1, 6):
        play_heuristic_state(state_of(game), last, rng)
        if game.is_over:
            break
        found.append(game.copy())
    return found


POSITIONS = [g for seed in range(6) for g in round_starts(seed, 2 + seed % 3)]


def test_the_module_examples_run() -> None:
    check_examples(value)


@pytest.mark.parametrize("game", POSITIONS, ids=lambda g: f"{g.config.players}p-r{g.round}")
def test_the_parts_add_up_to_the_projected_score(game: Game) -> None:
    s = state_of(game)
    parts = score_parts(s)
    assert all(len(row) == len(SCORE_PARTS) for row in parts)
    assert [row[0] for row in parts] == [float(v) for v in s.influence]
    for row, projected in zip(parts, projected_state_scores(s), strict=True):
        assert sum(w * x for w, x in zip(PART_WEIGHTS, row, strict=True)) == pytest.approx(
            projected)


def test_the_hand_set_weights_give_back_the_hand_set_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fitted model nests the hand-set one: the part weights over its temperature, zero
    for the extra features, give the same win chances at every round start."""
    weights = {}
    for r in range(2, 7):
        temperature = TEMPERATURE_BASE + TEMPERATURE_PER_ROUND * (6 - r + 1.0)
        weights[r] = (*(w / temperature for w in PART_WEIGHTS), 0.0, 0.0)
    monkeypatch.setattr(value, "WEIGHTS", weights)
    assert len(POSITIONS) > 20
    for game in POSITIONS:
        s = state_of(game)
        assert value.fitted_state_values(s) == pytest.approx(evaluate_state_all(s))


def test_extra_features_count_hidden_cards_and_the_first_player() -> None:
    for game in POSITIONS:
        s = state_of(game)
        rows = value.value_features(s)
        assert [row[-1] for row in rows] == [
            1.0 if p == s.first_player else 0.0 for p in range(game.config.players)]
        assert sum(row[-2] for row in rows) == sum(1 for st in s.queue if not s.face_up[st[-1]])


def test_the_fitted_value_is_a_share_of_victory_and_falls_back_off_round_starts() -> None:
    for game in POSITIONS:
        values = value.fitted_state_values(state_of(game))
        assert math.isclose(sum(values), 1.0) and all(0 <= v <= 1 for v in values)
    # after the first placement of a round: the hand-set value answers
    game = POSITIONS[3].copy()
    game.apply(game.legal_actions()[0])
    s = state_of(game)
    assert value.fitted_state_values(s) == evaluate_state_all(s)


def test_the_fit_recovers_known_weights() -> None:
    """Outcomes drawn from a known conditional logit: the fit finds its weights again."""
    script = load_script()
    rng = random.Random(3)
    truth = [0.6, -0.4, 0.0, 0.3, 0.2, 0.0, 0.5, -0.3]
    samples = []
    for _ in range(3000):
        parts = [[rng.gauss(0, 2) for _ in truth] for _ in range(3)]
        utilities = [sum(w * x for w, x in zip(truth, row, strict=True)) for row in parts]
        exps = [math.exp(u) for u in utilities]
        pick = rng.random() * sum(exps)
        winner = 0 if pick < exps[0] else 1 if pick < exps[0] + exps[1] else 2
        samples.append((2, parts, [1 / 3] * 3, [1.0 if p == winner else 0.0 for p in range(3)]))
    fitted = script.fit_round(samples)
    assert list(fitted) == pytest.approx(truth, abs=0.08)


def test_the_script_fits_and_writes_an_importable_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_script()
    out = tmp_path / "weights.py"
    assert script.main(["--games", "10", "--players", "2,3", "--write", str(out)]) == 0
    table = capsys.readouterr().out
    assert "| 6 |" in table and "log-loss, fitted" in table
    module = load_module(out, "written_weights")
    assert sorted(module.WEIGHTS) == [2, 3, 4, 5, 6]
    assert all(len(w) == len(value.VALUE_FEATURES) for w in module.WEIGHTS.values())


def test_the_packaged_weights_cover_every_round_start() -> None:
    from oriflamme.bots.value_weights import WEIGHTS

    assert sorted(WEIGHTS) == [2, 3, 4, 5, 6]
    assert all(len(w) == len(value.VALUE_FEATURES) for w in WEIGHTS.values())
    # Influence always counts for something, and more as the end nears
    influence = [WEIGHTS[r][0] for r in range(2, 7)]
    assert all(w > 0 for w in influence) and influence[-1] == max(influence)

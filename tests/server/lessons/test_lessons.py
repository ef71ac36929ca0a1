"""The guided games (#31): the lessons' scripts on the engine, and their API (docs/server.md,
"Learning to play").

Each lesson is played on the real engine from its position: every scripted move must be legal
when it comes and fall to the right seat, every card of its set must act, and what the texts
claim (the final scores) must be what the engine computed. The API is served by the real app.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.api import BASE_SET, EMBRASEMENT_SET, CardType, Game
from oriflamme.search import state_of
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.lessons import LESSONS
from oriflamme.server.lessons.explore import MAX_MOVES
from oriflamme.server.lessons.script import (
    REGIONS,
    Beat,
    Lesson,
    ScriptError,
    Words,
    beat_games,
    parse_move,
)

RULING_ID = re.compile(r"\bR-[A-Z0-9]+-\d")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, rate=1000, burst=1000,
        tune_gc=False,
    )
    with TestClient(app) as c:
        yield c


def acting_types(game: Game) -> set[str]:
    """The card types whose ability did something in ``game`` (read from its log)."""
    types = state_of(game).card_type
    acted: set[str] = set()
    for event in game.events(None):
        kind = event["kind"]
        if kind in ("gained", "lost", "stole") and event["card_type"]:
            acted.add(event["card_type"])
        elif kind == "eliminated":
            acted.add(CardType(types[event["other"]]).slug)
        elif kind == "copied":
            acted.add("shapeshifter")
        elif kind == "moved":
            acted.add("royal_decree")
        elif kind == "activated":
            acted.add("machination")
        elif kind == "corrupted":
            acted.add("corruption")
        elif kind == "replaced":
            acted.add("usurpation")
        elif kind == "twin_placed":
            acted.add("prince")
    return acted


# ---------------------------------------------------------------------------- the scripts
@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_each_lesson_is_a_whole_game_on_the_engine(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    games = beat_games(lesson)
    assert len(games) == len(lesson.beats)
    final = games[-1]
    assert final.is_over, "a lesson plays to the end of its game"
    assert lesson.beats[-1].expect is None
    result = final.result()
    assert result is not None and result.winners == (lesson.seat,)
    # The last beat tells the final score the engine computed, in both languages.
    for lang in ("en", "fr"):
        told = lesson.beats[-1].text(lang)
        assert str(result.scores[lesson.seat]) in told, (lang, result.scores)
    # Every beat that waits for a move waits for one of the learner's legal moves.
    for beat, game in zip(lesson.beats, games, strict=True):
        if beat.expect is not None:
            assert game.current_player == lesson.seat
            assert parse_move(game, beat.expect) in game.legal_actions()


def test_the_first_lesson_shows_every_base_card_at_work() -> None:
    final = beat_games(LESSONS["base"])[-1]
    assert final.config.card_set_name() == "base"
    assert acting_types(final) >= {t.slug for t in BASE_SET}
    learner_moves = [b for b in LESSONS["base"].beats if b.expect]
    kinds = {b.expect.split()[0] for b in learner_moves if b.expect}
    assert kinds >= {"place", "reveal", "leave", "target", "move"}
    # A card placed on the learner's own card: a stack.
    assert any(" on " in (b.expect or "") for b in learner_moves)


def test_the_embrasement_lesson_shows_every_embrasement_card_for_two_players() -> None:
    final = beat_games(LESSONS["embrasement"])[-1]
    assert final.config.players == 2 and final.config.two_families
    assert acting_types(final) >= {t.slug for t in EMBRASEMENT_SET} | {"twin"}
    drew = [e for e in final.events(None) if e["kind"] == "drew"]
    assert drew, "the lesson shows the two-player game's draw"


def test_a_lesson_shorter_than_the_first() -> None:
    assert len(LESSONS["embrasement"].beats) < len(LESSONS["base"].beats)


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_every_text_is_written_in_both_languages_for_players(lesson_id: str) -> None:
    lesson = LESSONS[lesson_id]
    words: list[Words] = [lesson.title, lesson.summary, *lesson.names]
    for beat in lesson.beats:
        words += [beat.title, beat.text]
        assert (beat.stray is not None) == (beat.expect is not None), beat.title.en
        if beat.stray is not None:
            words.append(beat.stray)
        assert beat.text.en != beat.text.fr
        for name in beat.focus:
            assert name in REGIONS or re.fullmatch(r"[a-z]+:[a-z_]+", name), name
    for text in words:
        for lang in ("en", "fr"):
            assert text(lang).strip(), text
            assert not RULING_ID.search(text(lang)), text(lang)
            assert "  " not in text(lang), text(lang)


def test_a_broken_script_is_refused_with_the_beat_named() -> None:
    base = LESSONS["base"]
    wrong_seat = Lesson(
        id="x", title=base.title, summary=base.summary, start=base.start, seat=0,
        names=base.names, beats=(Beat(base.title, base.summary, bots=("place red:heir end",)),),
    )
    with pytest.raises(ScriptError, match="beat 0: 'place red:heir end' is a bot's move"):
        beat_games(wrong_seat)
    illegal = Lesson(
        id="x", title=base.title, summary=base.summary, start=base.start, seat=0,
        names=base.names,
        beats=(Beat(base.title, base.summary, expect="place red:heir front"),),
    )
    with pytest.raises(ScriptError, match="beat 0: 'place red:heir front'"):
        beat_games(illegal)


# ---------------------------------------------------------------------------- the API
def step_of(client: TestClient, lesson: str, step: int, lang: str = "en") -> dict[str, Any]:
    response = client.get(f"/api/lessons/{lesson}/steps/{step}?lang={lang}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_the_lessons_are_listed_in_both_languages(client: TestClient) -> None:
    english = client.get("/api/lessons").json()
    french = client.get("/api/lessons?lang=fr").json()
    assert [x["id"] for x in english] == [x["id"] for x in french] == ["base", "embrasement"]
    assert english[0]["title"] == "Your first game"
    assert french[0]["title"] == "Votre première partie"
    assert english[0]["steps"] == len(LESSONS["base"].beats)


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_each_step_shows_only_what_the_learner_may_know(
    client: TestClient, lesson_id: str
) -> None:
    lesson = LESSONS[lesson_id]
    games = beat_games(lesson)
    for step, (beat, game) in enumerate(zip(lesson.beats, games, strict=True)):
        data = step_of(client, lesson_id, step)
        view = data["view"]
        assert data["title"] == beat.title.en
        assert view["observation"] == game.observe(lesson.seat)
        assert view["you"] == lesson.seat
        for family in view["observation"]["families"]:
            if family["player"] != lesson.seat:
                assert "hand" not in family and "set_aside" not in family
        if beat.expect is None:
            assert data["expect"] is None and view["legal"] == []
        else:
            legal = [entry["action"] for entry in view["legal"]]
            assert data["expect"] in legal
            assert legal == [a.to_json() for a in game.legal_actions()]


def test_a_step_in_french(client: TestClient) -> None:
    data = step_of(client, "base", 3, "fr")
    assert data["title"] == "Posez votre première carte"
    assert data["expect_label"] == "Placer l'Héritier à la fin de la File"
    assert data["stray"].startswith("Commencez par l’Héritier")
    # The learner is "you" in the prompt, as in the lesson's words.
    assert data["view"]["prompt"] == "Vous\u202f: choisissez une carte à placer"
    assert step_of(client, "base", 3, "en")["view"]["prompt"] == "You: choose a card to place"
    assert data["view"]["seats"][1]["name"] == "Bleu"


def test_unknown_lessons_steps_and_languages_are_refused(client: TestClient) -> None:
    answer = client.get("/api/lessons/chess/steps/0")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_lesson"
    last = len(LESSONS["base"].beats) - 1
    answer = client.get(f"/api/lessons/base/steps/{last + 1}")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "unknown_step"
    for path in ("/api/lessons/base/steps/-1", "/api/lessons/base/steps/0?lang=de",
                 "/api/lessons/Base!/steps/0"):
        answer = client.get(path)
        assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"


def explore(client: TestClient, step: int, moves: list[Any], lesson: str = "base") -> Any:
    return client.post(f"/api/lessons/{lesson}/steps/{step}/explore", json={"moves": moves})


def test_a_move_off_the_lesson_is_played_and_the_bots_answer(client: TestClient) -> None:
    data = step_of(client, "base", 3)
    other = next(e["action"] for e in data["view"]["legal"] if e["action"] != data["expect"])
    answer = explore(client, 3, [other])
    assert answer.status_code == 200, answer.text
    view = answer.json()["view"]
    # The learner's Soldier went in, Blue and Green placed theirs, the resolution began, and
    # the bots played until the learner's Soldier came up: the learner decides again.
    queue = [card for stack in view["observation"]["queue"] for card in stack]
    assert len(queue) == 3 and other["card"] in [card["id"] for card in queue]
    assert view["observation"]["decision"]["player"] == 0
    kinds = [entry["action"]["kind"] for entry in view["legal"]]
    assert kinds == ["reveal", "leave"]
    assert view["log"][0] == "Red placed Soldier at the end of the Queue"
    assert [line.split(" placed ")[0] for line in view["log"][1:3]] == ["Blue", "Green"]
    # The same moves give the same game, on this server or any other (seeded bots).
    assert explore(client, 3, [other]).json() == answer.json()


def test_an_exploration_can_be_played_to_the_end(client: TestClient) -> None:
    moves: list[Any] = [step_of(client, "base", 3)["view"]["legal"][1]["action"]]
    while True:
        view = explore(client, 3, moves).json()["view"]
        if view["result"] is not None:
            break
        assert view["legal"], "the learner decides whenever the bots stop"
        moves.append(view["legal"][-1]["action"])
    answer = explore(client, 3, [*moves, moves[0]])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_over"
    assert answer.json()["error"]["message"].startswith(f"moves[{len(moves)}]")


def test_explorations_are_the_same_on_every_server(tmp_path: Path) -> None:
    """Two servers (nothing shared, nothing stored) answer the same moves with the same game:
    the bots' decisions are seeded from the lesson, the step and the moves."""
    apps = [
        create_app(SqliteStore(tmp_path / f"{n}.sqlite3"), bot_delay=0, rate=1000, burst=1000,
                   tune_gc=False)
        for n in range(2)
    ]
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        moves: list[Any] = [step_of(first, "base", 9)["view"]["legal"][0]["action"]]
        for _ in range(6):
            views = [explore(c, 9, moves).json()["view"] for c in (first, second)]
            assert views[0] == views[1]
            if views[0]["result"] is not None:
                break
            moves.append(views[0]["legal"][-1]["action"])
        # Asked again, from scratch, the second server still agrees (no cache involved).
        with TestClient(create_app(SqliteStore(tmp_path / "3.sqlite3"), tune_gc=False)) as third:
            assert explore(third, 9, moves).json() == explore(first, 9, moves).json()


def test_bad_explorations_are_refused_with_the_move_named(client: TestClient) -> None:
    legal = step_of(client, "base", 3)["view"]["legal"]
    illegal = {"kind": "reveal", "card": legal[1]["action"]["card"]}  # still in hand
    answer = explore(client, 3, [legal[0]["action"], illegal, illegal])
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "code": "illegal_action",
        "message": f"moves[1]: reveal {illegal['card']} is not a legal move now",
        "request_id": answer.headers["x-request-id"],  # #32: the request's id in the logs
    }
    answer = explore(client, 3, [{"kind": "place", "card": 1}])
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed_action"
    assert answer.json()["error"]["message"].startswith("moves[0]: ")
    answer = explore(client, 3, [legal[0]["action"]] * (MAX_MOVES + 1))
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_request"
    answer = explore(client, 3, [])
    assert answer.status_code == 422
    # A beat where the bots decide asks for no move of the learner.
    answer = explore(client, 8, [legal[0]["action"]])
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_your_turn"


def test_explorations_are_rate_limited(tmp_path: Path) -> None:
    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), bot_delay=0, rate=0.01, burst=2,
                     tune_gc=False)
    with TestClient(app) as c:
        move = step_of(c, "base", 3)["view"]["legal"][0]["action"]
        codes = [explore(c, 3, [move]).status_code for _ in range(3)]
        assert codes == [200, 200, 429]
        # Reading the lesson is not limited.
        assert c.get("/api/lessons/base/steps/3").status_code == 200


# ---------------------------------------------------------------------------- the pages
def test_the_learning_pages_are_served_with_the_pages_policy(client: TestClient) -> None:
    for path in ("/learn", "/rules"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["content-type"].startswith("text/html")


def test_the_rules_page_speaks_the_readers_language(client: TestClient) -> None:
    def lang_of(page: Any) -> str:
        found = re.search(r'<html lang="(\w+)">', page.text)
        assert found
        return found.group(1)

    assert lang_of(client.get("/rules")) == "en"
    assert lang_of(client.get("/rules?lang=fr")) == "fr"
    french = client.get("/rules", headers={"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"})
    assert lang_of(french) == "fr" and french.headers["content-language"] == "fr"
    assert "accept-language" in french.headers["vary"].lower()
    assert lang_of(client.get("/rules?lang=en", headers={"Accept-Language": "fr"})) == "en"
    assert lang_of(client.get("/rules?lang=de", headers={"Accept-Language": "de, en"})) == "en"

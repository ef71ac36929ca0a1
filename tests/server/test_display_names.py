"""Display names (issue #26, item 8), on SQLite and PostgreSQL: a name must show something (no
invisible-only names, no combining marks alone), and nobody may take the name of another seat
of the table, or a bot's label.
"""

from __future__ import annotations

import pytest

from fairplay import ANN, OPEN, RANDOM_BOT, app_client, create, join, refused, summary
from oriflamme.server.names import clean_name, name_key

INVISIBLE = [
    "\u200d",  # zero-width joiner alone
    "\u3164",  # Hangul filler
    "\u2800\u2800",  # blank Braille patterns
    "\u0301",  # a combining acute accent alone
    "\u0301\u0302\u0303",  # combining marks alone
    "\u0301Ann",  # a name that starts by combining with the text before it
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # half-width Hangul filler
    "\u034f",  # combining grapheme joiner
    "\ufe0f",  # a variation selector alone
    " \u3164 \u2800 ",
]
VISIBLE = ["Zoë", "李雷", "👨\u200d👩\u200d👧", "A\u0301", "Ann 2", "😀", "ॐ", "Ω"]


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_names_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="visible"):
        clean_name(name)


@pytest.mark.parametrize("name", VISIBLE)
def test_visible_names_are_kept(name: str) -> None:
    assert clean_name(name)


def test_name_keys_ignore_case_width_and_invisible_joiners() -> None:
    assert name_key("Host") == name_key("HOST") == name_key(" host ") == name_key("Ｈｏｓｔ")
    assert name_key("An\u200dn") == name_key("Ann")
    assert name_key("Ann") != name_key("Ánn")


def test_invisible_names_are_refused_at_creation_and_join(store_url: str) -> None:
    with app_client(store_url) as client:
        table = create(client, public=True, seats=[ANN, OPEN])
        for name in INVISIBLE[:5]:
            seats = [{"kind": "human", "name": name}, OPEN]
            answer = client.post("/api/tables", json={"players": 2, "seats": seats})
            assert "visible" in refused(answer, 422, "invalid_request")
            assert "visible" in refused(join(client, table["table_id"], name), 422,
                                        "invalid_request")
        assert summary(client, table["table_id"])["open_seats"] == [1]


@pytest.mark.parametrize(
    ("seats", "where"),
    [
        ([ANN, {"kind": "human", "name": "Ann"}, OPEN], "seats.1.name"),
        ([{"kind": "human", "name": "Host"}, OPEN, {"kind": "human", "name": "host"}],
         "seats.2.name"),
        ([ANN, {"kind": "bot", "level": "easy", "name": "ANN"}, OPEN], "seats.1.name"),
        ([ANN, {"kind": "human", "name": "Blue bot (hard)"}, OPEN], "seats.1.name"),
        ([{"kind": "human", "name": "purple BOT (easy)"}, OPEN, OPEN], "seats.0.name"),
    ],
)
def test_a_table_cannot_seat_two_people_under_one_name(
    store_url: str, seats: list[dict[str, str]], where: str
) -> None:
    with app_client(store_url) as client:
        answer = client.post("/api/tables", json={"players": 3, "seats": seats})
        assert refused(answer, 422, "invalid_request").startswith(f"{where}:")


def test_a_joiner_cannot_take_a_name_of_the_table(store_url: str) -> None:
    with app_client(store_url) as client:
        seats = [ANN, {"kind": "bot", "level": "random", "name": "Marvin"}, OPEN, OPEN, RANDOM_BOT]
        table = create(client, players=5, public=True, seats=seats)
        table_id = table["table_id"]
        for name in ("Ann", "ann", "MARVIN", "An\u200dn"):
            refused(join(client, table_id, name), 409, "name_taken")
        for name in ("Yellow bot (random)", "Red bot (hard)"):
            refused(join(client, table_id, name), 422, "invalid_request")
        assert join(client, table_id, "Ben").status_code == 201
        refused(join(client, table_id, "BEN"), 409, "name_taken")
        assert summary(client, table_id)["open_seats"] == [3]
        assert join(client, table_id, "Cid").status_code == 201

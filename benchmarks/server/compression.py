"""The bytes a browser downloads for a replay and the page's files, with and without gzip
(issue #26, page item 8): a 5-player game played by random bots at a table with one human seat
(so that it may be replayed), its replay frames (everything, and one seat's) and the client's
static files, each asked for plainly and with ``Accept-Encoding: gzip``.

    python benchmarks/server/compression.py [--seed 3]

Prints one row per answer: its path, plain bytes, gzip bytes, ratio. The server's own app in
this process (FastAPI's test client), on a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from oriflamme.server import create_app

STATIC = ("js/main.js", "js/i18n.js", "js/replay.js", "css/game.css", "game.html")


def measure(client: TestClient, path: str, params: dict[str, str]) -> tuple[int, int]:
    """Bytes of the answer without compression, and on the wire with gzip asked for."""
    plain = client.get(path, params=params, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200, plain.text[:200]
    with client.stream("GET", path, params=params, headers={"Accept-Encoding": "gzip"}) as packed:
        assert packed.headers.get("content-encoding") == "gzip", path
        sent = sum(len(chunk) for chunk in packed.iter_raw())
    return len(plain.content), sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=3, help="the game's deal (default 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(str(Path(folder) / "games.sqlite3"), bot_delay=0, rate=1e6, burst=1e6,
                         tune_gc=False)
        with TestClient(app) as client:
            bots = [{"kind": "bot", "level": "random"} for _ in range(4)]
            body = {"players": 5, "seats": [{"kind": "human", "name": "Ann"}, *bots],
                    "seed": args.seed, "absent_after": 2, "stand_in": "random"}
            table = client.post("/api/tables", json=body).json()
            table_id, token = table["table_id"], table["seats"][0]["token"]
            # Ann plays her first option each time (the bots answer at once).
            view = client.get(f"/api/tables/{table_id}/view", params={"token": token}).json()
            deadline = time.monotonic() + 120
            while view["observation"]["phase"] != "over":
                if view["legal"]:
                    client.post(f"/api/tables/{table_id}/actions", json={
                        "token": token, "action": view["legal"][0]["action"],
                        "step": view["step"]})
                else:
                    time.sleep(0.02)
                assert time.monotonic() < deadline, "the game did not end"
                view = client.get(f"/api/tables/{table_id}/view", params={"token": token}).json()
            frames = f"/api/tables/{table_id}/games/1/frames"
            rows = [
                (f"frames, everything ({view['step']} steps)", frames,
                 {"token": token, "view": "all"}),
                ("frames, seat 0", frames, {"token": token, "view": "0"}),
                ("view of seat 0", f"/api/tables/{table_id}/view", {"token": token}),
                *[(f"/static/{name}", f"/static/{name}", {}) for name in STATIC],
            ]
            print(f"{'answer':38} {'plain B':>10} {'gzip B':>10} {'ratio':>6}")
            for label, path, params in rows:
                plain, sent = measure(client, path, params)
                print(f"{label:38} {plain:>10,} {sent:>10,} {plain / max(1, sent):>6.1f}")


if __name__ == "__main__":
    main()

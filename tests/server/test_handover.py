"""#32, rolling restarts: a draining process hands its WebSockets over a batch at a time
(``draining.hand_over``), so that the process left gets them as a stream, not as one burst
(the "switch wait" of docs/benchmarks.md). The whole restart, through real processes, is
tests/server/test_rolling_restart.py; these tests pin down the pace."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from oriflamme.server.draining import HANDOVER_LIMIT, HANDOVER_RATE, HANDOVER_STEP, hand_over
from servers import running_server
from test_scale_out import LIVE_TIMEOUT, Follower, create

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


class FakeConnection:
    def __init__(self, clock: list[float], told: list[tuple[float, int]], number: int) -> None:
        self.clock, self.told, self.number = clock, told, number

    def hand_over(self) -> None:
        self.told.append((self.clock[0], self.number))


def _run(count: int, leave: set[int] | None = None) -> list[tuple[float, int]]:
    """Hand ``count`` connections over on a fake clock; those in ``leave`` close by
    themselves after the first batch. Returns (time told, connection number)."""
    clock, told = [0.0], []
    connections = [FakeConnection(clock, told, n) for n in range(count)]
    gone: set[int] = set()

    def still_open() -> list[FakeConnection]:
        return [c for c in connections if c.number not in gone]

    async def fake_sleep(seconds: float) -> None:
        clock[0] += seconds
        gone.update(leave or ())

    assert asyncio.run(hand_over(still_open, sleep=fake_sleep)) == len(told)
    return told


def test_the_sockets_are_handed_over_at_the_rate_in_order() -> None:
    told = _run(23)
    per_step = round(HANDOVER_RATE * HANDOVER_STEP)
    assert [n for _, n in told] == list(range(23))  # each once, the oldest first
    for i, (when, _) in enumerate(told):
        assert when == pytest.approx((i // per_step) * HANDOVER_STEP)
    assert told[-1][0] < 23 / HANDOVER_RATE  # not one socket more than the rate a second


def test_many_sockets_go_faster_to_end_within_the_limit() -> None:
    count = int(HANDOVER_RATE * HANDOVER_LIMIT * 3)
    told = _run(count)
    assert len(told) == count
    assert told[-1][0] <= HANDOVER_LIMIT  # three times as many, in no more time than the limit


def test_a_socket_that_left_meanwhile_is_not_told() -> None:
    told = _run(12, leave={9, 10})
    assert [n for _, n in told] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 11]


def test_no_socket_no_wait() -> None:
    assert _run(0) == []


def test_a_draining_process_closes_its_sockets_one_batch_after_another(tmp_path: Path) -> None:
    """A real process with more sockets than one batch: its shutdown hands each over (closed
    with 1012, counted in its log line: none was left for uvicorn's own close), and the process
    ends with status 0."""
    per_step = round(HANDOVER_RATE * HANDOVER_STEP)
    count = per_step * 3
    with running_server(tmp_path / "games.sqlite3", tmp_path / "a.log", "--bot-delay", "0") as (
        process,
        client,
    ):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        ws_base = str(client.base_url).replace("http://", "ws://")
        urls = []
        while len(urls) < count:  # one socket a seat (a seat has few)
            table = create(client, seats, seed=len(urls))
            urls += [f"{ws_base}/ws/{table['table_id']}?token={s['token']}" for s in table["seats"]]
        with contextlib.ExitStack() as opened:
            sockets = [opened.enter_context(connect(url)) for url in urls[:count]]
            for ws in sockets:
                Follower(ws).at(0)
            process.send_signal(signal.SIGTERM)
            codes = []
            for ws in sockets:
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        ws.recv(timeout=LIVE_TIMEOUT)
                assert closed.value.rcvd is not None
                codes.append(closed.value.rcvd.code)
        assert codes == [1012] * count
        assert process.wait(timeout=30) == 0
    log = (tmp_path / "a.log").read_text()
    assert f"draining: {count} connection(s) handed over" in log, log

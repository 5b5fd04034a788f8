"""A seat cannot be locked (issue 34, item 3): a seat keeps at most
``connections_per_seat`` websockets, a newer one replacing the oldest (told
``replaced``, closed with 4410), and a seat's holder is never refused for the
per-address or per-table connection counts.

The attack rebuilt: Mallory, with her own seat cookie, opens connection after
connection to use up the table's player connections and her address's; Bob,
seated at the same table (and here behind the same address), must still get in.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from web_harness import ServerThread, cookie_header, create_table, join

from rollem.server.config import ServerSettings
from rollem.server.live_table.clients import REPLACED_CODE


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[ServerThread]:
    """Small counts: 4 connections per address, 3 players and 3 watchers per table,
    2 per seat."""
    srv = ServerThread(tmp_path / "t.db", ServerSettings(
        connections_per_address=4, connections_per_table=3, connections_per_seat=2))
    try:
        yield srv
    finally:
        srv.stop()


async def _open(url: str, cookie: str) -> tuple[Any, dict[str, Any]]:
    """A websocket with ``cookie``, and its first message."""
    ws = await websockets.connect(url, additional_headers={"Cookie": cookie} if cookie else {})
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 10))


async def _closed_with(ws: Any) -> tuple[int | None, str, list[dict[str, Any]]]:
    """Read ``ws`` until the server closes it: (close code, reason, errors told)."""
    errors = []
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg["type"] == "error":
                errors.append(msg)
    rcvd = closed.value.rcvd
    return (rcvd.code if rcvd else None), (rcvd.reason if rcvd else ""), errors


def test_a_seat_cannot_be_locked_by_its_own_cookie(tight: ServerThread) -> None:
    tid, host = create_table(tight.url, game="sdr", bots=0)
    _m, mallory = join(tight.url, tid, "Mallory")
    _b, bob = join(tight.url, tid, "Bob")
    url = f"{tight.ws_url}/ws/{tid}"

    async def run() -> None:
        # Mallory opens 5 connections of her seat: each past 2 replaces her oldest,
        # and none is refused (her seat's own cookie).
        mine = []
        for _ in range(5):
            ws, first = await _open(url, cookie_header(tid, mallory))
            assert first["type"] == "state" and first["you"]["seat"] == _m
            mine.append(ws)
        for old in mine[:3]:
            code, reason, errors = await _closed_with(old)
            assert code == REPLACED_CODE
            assert reason == "replaced by a newer connection of this seat"
            assert [e["code"] for e in errors] == ["replaced"]
            assert "at most 2 at once" in errors[0]["message"]
        # Her two newest still play her seat.
        for ws in mine[3:]:
            await ws.send('{"type":"ping"}')
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] in ("pong", "state")
        # The counts are used up (3 players at the table, 4 from this address, with
        # the replaced ones not yet counted off): Bob still gets in, as himself.
        ws_bob, first = await _open(url, cookie_header(tid, bob))
        assert first["type"] == "state" and first["you"]["seat"] == _b
        # The host's cookie too (no seat): kept to 2 connections, never refused.
        hosts = [await _open(url, cookie_header(tid, None, host)) for _ in range(3)]
        assert all(first["type"] == "state" and first["you"]["host"] for _, first in hosts)
        code, _reason, errors = await _closed_with(hosts[0][0])
        assert code == REPLACED_CODE and errors[0]["code"] == "replaced"
        assert "host's cookie" in errors[0]["message"]
        # A watcher (no cookie) and a made-up seat cookie are still refused.
        for cookie in ("", cookie_header(tid, "made-up")):
            ws, first = await _open(url, cookie)
            assert first["type"] == "error" and first["code"] == "too_many_connections"
            code, _reason, _errors = await _closed_with(ws)
            assert code == 4429
        for ws in [*mine[3:], ws_bob, hosts[1][0], hosts[2][0]]:
            await ws.close()

    asyncio.run(run())


def test_a_replaced_connection_does_not_start_the_seats_away_clock(
        tight: ServerThread) -> None:
    """The replaced connection closing leaves the seat connected (the newer one
    plays it): no away clock starts, the seat stays taken."""
    tid, _host = create_table(tight.url, game="sdr", bots=1)
    seat, token = join(tight.url, tid, "Ann")
    url = f"{tight.ws_url}/ws/{tid}"

    async def run() -> None:
        opened = [(await _open(url, cookie_header(tid, token)))[0] for _ in range(3)]
        code, _reason, _errors = await _closed_with(opened[0])
        assert code == REPLACED_CODE
        table = tight.manager.tables[tid]
        assert len(table.seats[seat].clients) == 2
        assert table.seats[seat].disconnected_since is None
        assert str(seat) not in table.session.get("away", {})
        for ws in opened[1:]:
            await ws.close()

    asyncio.run(run())

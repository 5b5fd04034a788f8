"""One address holds at most ``seats_per_address`` seats at once (try-out of stop 53).

Each seat lets up to ``connections_per_seat`` of its connections in past
``connections_per_address`` (issue 34: nobody keeps a player out), and sitting
down was bounded only at private tables: one address could sit at every open
table it had the link of, ten seats each. Now a sit-down past the limit, at
any table, is refused HTTP 429 ``too_many_seats`` and changes nothing; a seat
freed (here: the host removes it) stops counting; another address is not
touched.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from web_harness import UNLIMITED, Player, ServerThread

from rollem.server.limits import Limits

MALLORY = "203.0.113.9"
HONEST = "198.51.100.7"


@pytest.fixture
def three(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(tmp_path / "s.db", replace(UNLIMITED, seats_per_address=3))
    try:
        yield srv
    finally:
        srv.stop()


def _table(base: str) -> tuple[str, str]:
    r = httpx.post(base + "/api/tables", json={"game": "holdem", "bots": 0, "seats": 6},
                   headers={"X-Forwarded-For": HONEST})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    return tid, r.cookies[f"rollem_host_{tid}"]


def _join(base: str, tid: str, name: str, address: str) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name},
                      headers={"X-Forwarded-For": address})


def _names(base: str, tid: str) -> list[str]:
    r = httpx.get(f"{base}/api/tables/{tid}", headers={"X-Forwarded-For": HONEST})
    assert r.status_code == 200, r.text
    return sorted(s["name"] for s in r.json()["seats"] if not s["free"])


def test_one_address_holds_at_most_its_seats_at_all_tables(three: ServerThread) -> None:
    base = three.url
    t1, host1 = _table(base)
    t2, _ = _table(base)
    seats, tokens = [], []
    for tid, name in ((t1, "M1"), (t1, "M2"), (t2, "M3")):
        r = _join(base, tid, name, MALLORY)
        assert r.status_code == 200, r.text
        seats.append(r.json()["seat"])
        tokens.append(r.cookies[f"rollem_seat_{tid}"])
    before = _names(base, t2)
    refused = _join(base, t2, "M4", MALLORY)
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "too_many_seats", body
    assert "at most 3 seats at once from one address" in body["message"]
    assert "leave a seat" in body["message"]
    assert _names(base, t2) == before == ["M3"]  # nothing changed
    assert refused.cookies.get(f"rollem_seat_{t2}") is None
    # another address sits down as before
    assert _join(base, t2, "Honest", HONEST).status_code == 200

    async def remove() -> None:
        async with Player(three.ws_url, t1, tokens[0]) as m1:  # there, then away
            await m1.until(lambda st: True)
        async with Player(three.ws_url, t1, host_token=host1) as host:
            await host.until(lambda st: True)
            await host.until(lambda st: st["table"]["seats"][seats[0]]["away"]
                             or not st["table"]["seats"][seats[0]]["connected"])
            await host.send({"type": "host", "op": "remove", "seat": seats[0]})
            await host.until(lambda st: seats[0] not in
                             [s["seat"] for s in st["table"]["seats"] if not s["free"]])

    asyncio.run(remove())
    three.app.state.limits.SEATS_RECHECK = 0.0  # (a refused address's seats: read again now)
    # the freed seat no longer counts: one more sit-down, then refused again
    again = _join(base, t2, "M5", MALLORY)
    assert again.status_code == 200, again.text
    assert _join(base, t1, "M6", MALLORY).json()["error"] == "too_many_seats"


def test_a_refused_address_is_not_read_again_at_once() -> None:
    """A flood of sit-downs at the limit reads the address's seats once per
    ``SEATS_RECHECK`` seconds, not once a request (each read may be a query of the
    store per seat, on the event loop)."""
    limits = Limits(replace(UNLIMITED, seats_per_address=2))
    asked: list[tuple[str, str]] = []

    def held(table_id: str, digest: str) -> bool:
        asked.append((table_id, digest))
        return True

    limits.seat_taken(MALLORY, "t1", "d1", held)
    assert limits.seat_refusal(MALLORY, held) is None and asked == []  # (below: no read)
    limits.seat_taken(MALLORY, "t2", "d2", held)
    for _ in range(50):
        assert limits.seat_refusal(MALLORY, held) is not None
    assert asked == [("t1", "d1"), ("t2", "d2")]  # read once, then refused as it stood
    limits.SEATS_RECHECK = 0.0
    assert limits.seat_refusal(MALLORY, lambda t, d: d == "d2") is None  # d1 freed
    assert limits.seat_refusal(HONEST, held) is None

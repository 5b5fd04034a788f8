"""The hand list and the whole-session download find the asker's stints once
(s60-safe).

Both ask, for every finished hand, which seat the asking browser played in
(``Seating.seat_in_hand``: its seat now if it sat down before, else one of its
stints, ``session["stints"]``).  Asked afresh for each hand, every person's
every stint was walked per hand, with a SHA-256 of the cookie and a walk of
the seats each time: a made-up seat cookie (anyone with the link, no seat
needed) at a table of 5,000 hands and 200 stints held the event loop 0.3 s a
request (20,000 hands and the 1,184 stints a table may keep: 6.5 s), within
the costly routes' 30 at once and 2 a second.  Now the cookie's own stints
are found in one pass and each hand looks at those alone.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import httpx
import pytest
from web_harness import Player, ServerThread, create_table, join

from rollem.server.live_table import seats as seats_module
from rollem.server.store import token_digest

STINTS = 400


class _Counted:
    """``secrets`` with its ``compare_digest`` calls counted."""

    def __init__(self) -> None:
        self.calls = 0

    def compare_digest(self, a: Any, b: Any) -> bool:
        self.calls += 1
        return secrets.compare_digest(a, b)

    def token_urlsafe(self, n: int) -> str:
        return secrets.token_urlsafe(n)


def test_a_cookies_hands_are_found_with_one_walk_of_the_stints(
        server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    tid, host = create_table(server.url, game="holdem", seats=3, bots=2, bot_delay=0.0,
                             between_hands=0.5)
    _seat, ann = join(server.url, tid, "Ann", 0)

    async def play() -> None:
        async with Player(server.ws_url, tid, ann, host) as a:
            await a.until(lambda st: st["you"]["host"])
            await a.send({"type": "start", "seq": a.state["seq"]})
            while (a.state["table"]["hand_no"] or 0) < 6:
                await a.recv(timeout=20)
                if a.my_decision():
                    await a.act_random(passive=True)
            await a.send({"type": "host", "op": "pause"})
            await a.until(lambda st: st["table"]["host_paused"], timeout=10)

    asyncio.run(play())
    ghost = "a-cookie-of-a-player-who-left-long-ago"
    table = server.manager.tables[tid]

    def stints() -> int:
        # many people's stints (never the asker's), and one of the asker's: hand 2,
        # seat 1 (a computer player's seat here: what matters is the lookup)
        table.session["stints"] = [
            {"digest": token_digest(f"someone-{i}"), "seat": 1 + i % 2, "first": 1, "last": 5}
            for i in range(STINTS)] + [
            {"digest": token_digest(ghost), "seat": 1, "first": 2, "last": 2}]
        return len(table.session["stints"])

    assert server.call(stints) == STINTS + 1
    counted = _Counted()
    monkeypatch.setattr(seats_module, "secrets", counted)
    got = httpx.get(f"{server.url}/api/tables/{tid}/hands",
                    cookies={f"rollem_seat_{tid}": ghost})
    assert got.status_code == 200, got.text
    hands = got.json()["hands"]
    assert len(hands) >= 5
    with_net = [h["hand"] for h in hands if h["net"] is not None]
    assert with_net == [2]  # (its own hand only: the net of seat 1 there)
    # one pass over the stints (and the seats), not one a hand (main: 2,007+)
    assert counted.calls <= STINTS + 1 + 3, counted.calls
    counted.calls = 0
    phhs = httpx.get(f"{server.url}/api/tables/{tid}/history.phhs",
                     cookies={f"rollem_seat_{tid}": ghost})
    assert phhs.status_code == 200, phhs.text
    assert "[2]" in phhs.text and "[3]" not in phhs.text and "[1]" not in phhs.text
    assert counted.calls <= 2 * (STINTS + 1 + 3), counted.calls

"""A host's removal of a player during a hand is kept across a restart (issue 26),
on a virtual clock, the table rebuilt from its store as after ``kill -9``
(:meth:`LiveTable.restore`, as tests/web/test_host_pause_gone.py restarts).

Before: the removal lived only in memory (the seat's ``gone`` and ``removed``
flags); after a restart mid-hand the removed player came back, played on and
kept the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest
from test_dealers_choice_seats import send
from test_host_pause import holdem_table
from test_host_remove_reconnect import _codes
from test_table_bots import virtual_server
from web_harness import Player, ServerProcess, create_table, join

from rollem.server.live_table import LiveTable
from rollem.server.live_table.clients import Client


def _play_out(loop: object, table: LiveTable, people: dict[int, Client], hand_no: int,
              skip: int) -> None:
    """Everyone but ``skip`` checks or calls until hand ``hand_no`` ends."""
    for _ in range(300):
        if table.hand is None or table.hand.hand_no != hand_no:
            return
        for seat, client in people.items():
            if seat != skip and seat in table.decision_seq and table.hand is not None:
                legal = table.hand.view(seat)["legal"]["actions"]
                action = {"kind": "check" if "check" in legal else "call"}
                send(loop, table, client, "action", hand_no, action=action)
        loop.advance(0.2)  # type: ignore[attr-defined]
    raise AssertionError(f"hand {hand_no} did not end")


def test_a_removal_mid_hand_is_kept_across_a_restart() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        loop.call(table.disconnect, people[1])  # away: the host may remove her
        send(loop, table, host, "host", op="remove", seat=1)
        assert _codes(host) == []
        assert table.seats[1].gone and table.session["removed"] == [1]
        loop.advance(0.1)  # committed
        table.shutdown()
        # the restart, mid-hand
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert table.hand is not None and table.hand.hand_no == hand_no
        assert table.seats[1].gone and table.seats[1].removed
        host = Client(None, True)
        loop.call(table.connect, host)
        people = {seat: Client(seat) for seat in people}
        for seat in (0, 2):
            loop.call(table.connect, people[seat])
        ann = people[1]
        loop.call(table.connect, ann)  # back after the restart, before the hand ends
        assert _codes(ann) == ["removed"]   # told again why
        assert table.seats[1].gone          # her decisions still time out at once
        _play_out(loop, table, people, hand_no, skip=1)
        assert table.final_hand is not None and table.final_hand.hand_no == hand_no
        assert 1 not in table.seats         # the seat was freed when the hand ended
        assert table.session["removed"] == []
        loop.advance(0.1)
        table.shutdown()
        # and it stays free after a second restart
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert 1 not in table.seats and table.session.get("removed") == []
        table.shutdown()


def test_a_hand_that_ended_before_the_seats_freeing_was_written_frees_it_at_resume() -> None:
    """The removal waited for the hand's end; the restart came after the hand's
    result was written but before the seat's freeing: it is freed at resume."""
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        hand_no = table.hand.hand_no  # type: ignore[union-attr]
        loop.call(table.disconnect, people[1])
        send(loop, table, host, "host", op="remove", seat=1)
        loop.advance(0.1)
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        # as if the hand had ended and its freeing were lost: no hand in play
        table.hand = None
        table.session["in_hand"] = False
        loop.call(table.resume)
        assert 1 not in table.seats and table.session["removed"] == []
        assert hand_no >= 1
        table.shutdown()


@pytest.mark.slow
def test_a_removal_mid_hand_survives_kill_9_of_rollem_serve(tmp_path: Path) -> None:
    """The same over websockets, ``rollem serve`` killed hard (SIGKILL) between the
    removal and the hand's end, then started again on the same database (as
    tests/web/test_server_restart.py does): the removed player, back, is told so
    and never plays again; the seat is free once the hand ends."""
    db = tmp_path / "remove.db"
    first = ServerProcess(db)
    port = first.port
    tid, host = create_table(first.url, game="holdem", seats=3, bots=0, stack=100,
                             between_hands=600, decision_seconds=300)
    tokens = [join(first.url, tid, name)[1] for name in ("Ann", "Bob", "Cy")]

    async def part_one() -> None:
        async with Player(first.ws_url, tid, tokens[0], host) as a, \
                Player(first.ws_url, tid, tokens[2]) as c:
            await a.until(lambda st: st["you"]["host"])
            async with Player(first.ws_url, tid, tokens[1]) as b:
                await b.until(lambda st: st["you"]["seat"] == 1)
            await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
            await a.until(lambda st: st["hand"] is not None)
            await a.until(lambda st: st["table"]["seats"][1].get("away"))
            await a.send({"type": "host", "op": "remove", "seat": 1})
            # committed: the hand goes on, Bob's decisions timed out at once
            await c.until(lambda st: st["hand"] is not None and st["seq"] > 2
                          and 1 not in st["hand"]["to_act"] and st["hand"]["result"] is None)

    asyncio.run(part_one())
    first.kill()  # no goodbye: SIGKILL
    second = ServerProcess(db, port=port)
    try:
        async def part_two() -> None:
            async with Player(second.ws_url, tid, tokens[0], host) as a, \
                    Player(second.ws_url, tid, tokens[2]) as c, \
                    Player(second.ws_url, tid, tokens[1]) as b:
                st = await a.until(lambda st: st["hand"] is not None)
                assert st["hand"]["hand_no"] == 1 and st["hand"]["result"] is None
                # Bob, back after the restart, is told he was removed
                err = await b.until_error()
                assert err["code"] == "removed", err
                # Ann and Cy play the hand out; Bob's turns time out at once
                while True:
                    for p in (a, c):
                        st = p.state  # type: ignore[assignment]
                        if st is not None and st["hand"] is not None and p.my_decision():
                            legal = st["hand"]["legal"]["actions"]
                            await p.send({"type": "action", "hand": 1, "seq": st["seq"],
                                          "action": {"kind": "check" if "check" in legal
                                                     else "call"}})
                    if a.state["table"]["last_result"] is not None:  # type: ignore[index]
                        break
                    for p in (a, b, c):
                        with contextlib.suppress(TimeoutError):
                            await p.recv(0.2)
                st = await a.until(lambda st: st["table"]["seats"][1]["free"])
                assert "Bob" not in [s.get("name") for s in st["table"]["seats"]]
                st = await b.until(lambda st: st["you"]["seat"] is None)

        asyncio.run(part_two())
    finally:
        second.kill()

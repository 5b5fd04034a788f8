"""A top-up at the web table (stop 58): between hands, a player whose stack is
below the buy-in brings it up to the buy-in; the chips added count as brought
(the settle-up stays right); the rebuy rules apply (host approval, the cap);
refused during a hand the player is in, at or above the buy-in, at 0 chips (a
rebuy), at a table without rebuys and in a tournament.  On a virtual clock.
"""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand, line
from test_server_staples import people_table, restarted
from test_table_bots import virtual_server
from test_tournament_server import _send, _table

from rollem.server import host as host_module
from rollem.server.live_table import Client, TableError
from rollem.server.protocol import ProtocolError, parse_message


def _error(client: Client) -> dict[str, str]:
    [text] = [json.loads(t) for t, _ in client._pending if '"error"' in t]
    client._pending.clear()
    return text


def test_a_top_up_brings_the_stack_to_the_buy_in_counted_as_brought() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuy_cap=2, **WAIT)
        # hand 1 (button 0, blinds 1 and 2): P1 is in it, P1's Top up waits for its end
        assert table.state(1)["you"]["top_up"] is None
        send(loop, table, people[1], "top_up")
        refusal = _error(people[1])
        assert refusal["code"] == "in_hand"
        assert refusal["message"] == ("a top-up is made between hands: seat 2 is in the hand "
                                      "in play; top up after it")
        end_hand(loop, table, people)  # all fold to the big blind
        assert [line(table, s)["stack"] for s in range(4)] == [400, 399, 401, 400]
        # P1 lost the small blind (1 chip): no Top up +1 spending one of the two
        # capped rebuys (s59-seat); asked anyway, it is refused, nothing spent
        assert [table.state(s)["you"]["top_up"] for s in range(4)] == [None] * 4
        send(loop, table, people[1], "top_up")
        assert _error(people[1])["message"] == (
            "you have 399 chips, 1 below the buy-in (400): a top-up is made once you are "
            "4 or more below it (a big bet)")
        assert table.session.get("rebuys_made", {}) == {}
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=397)
        assert table.state(1)["you"]["top_up"] is None  # (3 short: still under 4)
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=396)
        assert table.state(1)["you"]["top_up"] == 4  # (a big bet short: offered)
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=250)
        assert line(table, 1)["brought"] == 251
        assert table.state(1)["you"]["top_up"] == 150
        send(loop, table, people[1], "top_up")
        assert errors(people[1]) == []
        # +150 chips, counted as brought: P1's net stays the blind they lost
        assert line(table, 1) == {"seat": 1, "name": "P1", "brought": 401, "stack": 400,
                                  "net": -1, "left": False, "bot": None}
        assert sum(x["net"] for x in table.table_public()["ledger"]) == 0
        assert table.table_public()["settle"]["transfers"] == [
            {"from": "P1", "to": "P2", "chips": 1, "money": None}]
        assert table.session["rebuys_made"] == {table.seats[1].row.token_digest: 1}
        assert table.state(1)["you"]["top_up"] is None
        # at the buy-in, above it, at 0 chips (a rebuy): refused, nothing changes
        send(loop, table, people[1], "top_up")
        assert _error(people[1]) == {
            "type": "error", "code": "at_buy_in", "ref": {"type": "top_up", "hand": None,
                                                         "seq": table.seq},
            "message": "you have 400 chips: a top-up brings a stack below the buy-in up "
                       "to it (400)"}
        send(loop, table, people[2], "top_up")
        assert errors(people[2]) == ["at_buy_in"]
        send(loop, table, host, "host", op="adjust_stack", seat=0, stack=0)
        send(loop, table, people[0], "top_up")
        assert errors(people[0]) == ["no_chips"]
        assert line(table, 2)["brought"] == 400 and line(table, 0)["stack"] == 0
        # the cap counts a top-up as a rebuy: P1's second is the last
        send(loop, table, people[0], "rebuy")
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=100)
        send(loop, table, people[1], "top_up")
        assert errors(people[1]) == [] and line(table, 1)["stack"] == 400
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=100)
        assert table.state(1)["you"]["top_up"] is None  # (the cap: no button)
        send(loop, table, people[1], "top_up")
        refusal = _error(people[1])
        assert refusal["code"] == "rebuy_cap"
        assert refusal["message"] == ("you have rebought twice, the most this table "
                                      "allows (cap 2); the host may adjust your stack; a "
                                      "top-up counts as a rebuy")
        # survives a restart: the stack and what was brought are the rows'
        table = restarted(loop, store, table, [host, *people.values()])
        assert line(table, 1)["stack"] == 100 and line(table, 0)["stack"] == 400


def test_a_top_up_waits_for_the_hosts_approval_like_a_rebuy() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuy_approval=True, **WAIT)
        end_hand(loop, table, people)
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=300)
        send(loop, table, people[3], "top_up")
        assert errors(people[3]) == []
        assert line(table, 3)["stack"] == 300  # nothing bought yet
        public = table.table_public()
        assert (public["rebuy_requests"], public["top_up_requests"]) == ([3], [3])
        assert table.state(3)["you"]["top_up"] is None  # (asked: no second button)
        send(loop, table, people[3], "top_up")
        assert _error(people[3])["message"] == "your top-up is waiting for the host's approval"
        send(loop, table, host, "host", op="decline_rebuy", seat=3)
        assert _error(people[3])["message"] == "the host declined your top-up"
        public = table.table_public()
        assert (public["rebuy_requests"], public["top_up_requests"]) == ([], [])
        send(loop, table, people[3], "top_up")
        table = restarted(loop, store, table, [host, *people.values()])
        assert table.table_public()["top_up_requests"] == [3]
        send(loop, table, host, "host", op="approve_rebuy", seat=3)
        assert errors(host) == []
        assert line(table, 3) == {"seat": 3, "name": "P3", "brought": 400, "stack": 400,
                                  "net": 0, "left": False, "bot": None}
        public = table.table_public()
        assert (public["rebuy_requests"], public["top_up_requests"]) == ([], [])
        # asked, then busted before the approval: the same chips, as a rebuy
        send(loop, table, host, "host", op="adjust_stack", seat=2, stack=10)
        send(loop, table, people[2], "top_up")
        send(loop, table, host, "host", op="adjust_stack", seat=2, stack=0)
        send(loop, table, host, "host", op="approve_rebuy", seat=2)
        assert errors(host) == [] and line(table, 2)["stack"] == 400
        assert table.table_public()["top_up_requests"] == []


def test_no_top_up_without_rebuys_or_in_a_tournament() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuys=False, **WAIT)
        end_hand(loop, table, people)
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=100)
        assert table.state(1)["you"]["top_up"] is None
        send(loop, table, people[1], "top_up")
        assert errors(people[1]) == ["no_rebuys"]
        assert line(table, 1)["stack"] == 100
    with virtual_server() as (loop, store):
        tourney, entrants = _table(loop, store, rebuy_levels=2)
        assert tourney.state(1)["you"]["top_up"] is None
        with pytest.raises(TableError, match="no top-ups in a tournament") as err:
            _send(loop, tourney, entrants[1], "top_up")
        assert err.value.code == "tournament"


def test_top_ups_are_rate_limited_per_seat_and_take_no_fields(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(host_module, "time", SimpleNamespace(
        monotonic=lambda: clock[0], time=time.time, perf_counter=time.perf_counter))
    with virtual_server() as (loop, store):
        table, _host, people = people_table(loop, store, **WAIT)
        for _ in range(host_module.TOP_UP_BURST):
            send(loop, table, people[1], "top_up")  # (in the hand: refused, counted)
        assert errors(people[1]) == ["in_hand"] * host_module.TOP_UP_BURST
        send(loop, table, people[1], "top_up")
        assert errors(people[1]) == ["too_often"]
        send(loop, table, people[2], "top_up")  # (another seat's bucket)
        assert errors(people[2]) == ["in_hand"]
        clock[0] += host_module.TOP_UP_REFILL_SECONDS
        send(loop, table, people[1], "top_up")
        assert errors(people[1]) == ["in_hand"]
    assert parse_message('{"type": "top_up"}').type == "top_up"
    with pytest.raises(ProtocolError) as bad:
        parse_message('{"type": "top_up", "seq": 3}')
    assert bad.value.code == "unknown_field"

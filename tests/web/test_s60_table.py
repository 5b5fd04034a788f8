"""Stop 60 (s60-table): the end of the night and a top-up, at the server.

- a player leaves while the host closes the table (its last hand in play): their
  seat is freed (now, or when that hand ends), their chips stay on the ledger
  and in the settle-up; once closed, leaving is refused as before;
- a closed private table: the host still lets a friend watch (to see the
  settle-up); the locked page is told the table is closed;
- a top-up request whose stack came back to within a big bet of the buy-in (or
  to it) lapses by itself, its player told why.
"""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand, line
from test_server_staples import people_table
from test_table_bots import virtual_server

from rollem.server import host as host_module
from rollem.server import host_tools
from rollem.server.live_table import Client
from rollem.server.store import token_digest


def _told(client: Client) -> list[dict[str, Any]]:
    """The errors sent to ``client`` (read and cleared), code and message."""
    sent = [json.loads(t) for t, _ in client._pending]
    client._pending.clear()
    return [{"code": m["code"], "message": m["message"]} for m in sent if m["type"] == "error"]


def test_a_player_leaves_while_the_host_closes_the_table() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, start=False, **WAIT)
        send(loop, table, people[3], "sit_out", out=True)
        send(loop, table, host, "start")
        loop.advance(0.1)
        assert table.hand is not None and sorted(table.hand.seats) == [0, 1, 2]
        send(loop, table, host, "host", op="close", confirm=True)
        assert table.table_public()["ended"]["final"] is False
        # P3, sitting out of the last hand: freed at once (a departed ledger line)
        send(loop, table, people[3], "leave")
        assert _told(people[3]) == [{"code": "removed", "message": host_module.LEFT_CLOSING}]
        assert 3 not in table.seats
        # P0 (the button, first to act) folds, then leaves: freed when the hand ends
        send(loop, table, people[0], "action", 1, action={"kind": "fold"})
        send(loop, table, people[0], "leave")
        assert _told(people[0]) == [{"code": "removed",
                                     "message": host_module.LEFT_CLOSING_FOLDED}]
        assert 0 in table.seats
        # P1 (small blind, still in it) leaves too: the clock folds for them at once,
        # and the hand (P2's now) ends
        send(loop, table, people[1], "leave")
        assert _told(people[1]) == [{"code": "removed",
                                     "message": host_module.LEFT_CLOSING_AFTER_HAND}]
        loop.advance(0.1)
        public = table.table_public()
        assert table.hand is None and public["ended"]["final"] is True
        assert sorted(table.seats) == [2]
        assert [(x["name"], x["stack"], x["net"], x["left"]) for x in public["ledger"]] == [
            ("P2", 401, 1, False), ("P3", 400, 0, True), ("P0", 400, 0, True),
            ("P1", 399, -1, True)]
        assert public["settle"]["transfers"] == [
            {"from": "P1", "to": "P2", "chips": 1, "money": None}]
        # closed: nothing to leave (the final ledger holds everyone's chips)
        send(loop, table, people[2], "leave")
        assert errors(people[2]) == ["closed"]


def test_the_host_lets_a_friend_watch_the_settle_up_of_a_closed_private_table() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, private=True, **WAIT)
        end_hand(loop, table, people)
        send(loop, table, host, "host", op="close", confirm=True)
        assert table.table_public()["ended"]["final"] is True
        friend = Client(None)
        loop.call(table.connect, friend)
        locked = json.loads(friend._pending[-1][0])
        friend._pending.clear()
        assert locked["table"]["locked"] is True and locked["table"]["closed"] is True
        token = "f" * 32
        assert loop.call(host_tools.watch_request, table, token, "Fay") == "waiting"
        friend.watch_digest = token_digest(token)
        other = Client(None)
        other.watch_digest = token_digest("g" * 32)
        assert loop.call(host_tools.watch_request, table, "g" * 32, "Gil") == "waiting"
        send(loop, table, host, "host", op="approve_watcher", watcher=1)
        send(loop, table, host, "host", op="reject_watcher", watcher=2)
        assert errors(host) == []
        public = table.table_public()
        assert public["watchers"] == [{"id": 1, "name": "Fay"}]
        assert public["watch_requests"] == []
        loop.advance(0.01)
        seen = [json.loads(t) for t, _ in friend._pending]
        state = [m for m in seen if m["type"] == "state"][-1]
        assert "locked" not in state["table"] and state["table"]["ended"]["final"] is True
        assert state["table"]["settle"]["transfers"] == [
            {"from": "P1", "to": "P2", "chips": 1, "money": None}]
        # the rest of the host's tools stay closed
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=300)
        assert errors(host) == ["closed"]


def test_a_waiting_top_up_lapses_once_the_stack_is_near_the_buy_in() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuy_approval=True, **WAIT)
        end_hand(loop, table, people)  # hand 1: P1 399, P2 401
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=396)
        send(loop, table, people[3], "top_up")  # 4 short: a big bet, asked
        assert errors(people[3]) == [] and table.table_public()["top_up_requests"] == [3]
        # hand 2 (button 1, blinds P2 and P3): all fold to P3, who wins 1 back
        loop.advance(600.0)
        assert table.hand is not None and table.hand.hand_no == 2
        end_hand(loop, table, people)
        assert line(table, 3)["stack"] == 397
        loop.advance(0.01)  # (told once the hand's end is committed)
        assert _told(people[3]) == [{"code": "top_up_lapsed", "message": (
            "your top-up request lapsed: your stack is 397, less than a big bet (4) "
            "below the buy-in of 400, so there is nothing to top up")}]
        public = table.table_public()
        assert (public["rebuy_requests"], public["top_up_requests"]) == ([], [])
        # the host sets an asking stack to the buy-in: it lapses too
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=300)
        send(loop, table, people[1], "top_up")
        assert table.table_public()["top_up_requests"] == [1]
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=400)
        loop.advance(0.01)
        assert _told(people[1]) == [{"code": "top_up_lapsed", "message": (
            "your top-up request lapsed: your stack is 400, at the buy-in of 400 or "
            "more, so there is nothing to top up")}]
        assert table.table_public()["top_up_requests"] == []
        # one still a big bet short stays asked
        send(loop, table, host, "host", op="adjust_stack", seat=2, stack=300)
        send(loop, table, people[2], "top_up")
        send(loop, table, host, "host", op="adjust_stack", seat=2, stack=396)
        assert errors(people[2]) == [] and table.table_public()["top_up_requests"] == [2]
        # ... until the host doubles the stakes: 4 short is less than the new big bet
        send(loop, table, host, "host", op="config", config={"small_bet": 4, "big_bet": 8})
        assert errors(host) == []
        loop.advance(0.01)
        assert _told(people[2]) == [{"code": "top_up_lapsed", "message": (
            "your top-up request lapsed: your stack is 396, less than a big bet (8) "
            "below the buy-in of 400, so there is nothing to top up")}]
        assert table.table_public()["top_up_requests"] == []

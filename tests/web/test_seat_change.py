"""Stop 59 (s59-seat): a friends' night's staples and faults, at the server.

- a seat change (``seat_change``): at once between hands, else when the hand the
  player is in ends; chips, ledger line, sitting out and rebuys follow; refusals
  named; one move an orbit;
- the creator's seat is stored with the table (``session["creator_digest"]``): the
  settle-up names them as the house after a restart, before any page connects.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import httpx
import pytest
from test_dealers_choice_seats import errors, send
from test_host_tools import WAIT, end_hand, line
from test_server_staples import people_table, restarted
from test_table_bots import virtual_server
from test_tournament_server import _send, _table
from web_harness import ServerThread, create_table

from rollem.engine import Call, Check
from rollem.server.app import host_cookie, seat_cookie
from rollem.server.live_table import Client, TableError
from rollem.server.protocol import ProtocolError, parse_message
from rollem.table import Table
from rollem.table import TableError as SessionRefused


def _told(client: Client) -> list[dict[str, object]]:
    """The errors sent to ``client`` (read and cleared), code and message."""
    sent = [json.loads(t) for t, _ in client._pending]
    client._pending.clear()
    return [{"code": m["code"], "message": m["message"]} for m in sent if m["type"] == "error"]


def test_the_model_moves_chips_brought_and_sitting_out_and_keeps_the_button() -> None:
    table = Table([100, 100, 0, 100, 0], rng=Random(3), out={2, 4}, straddlers={1})
    hand = table.new_hand()
    assert table.button == 0
    with pytest.raises(SessionRefused) as taken:
        table.move_seat(1, 3, free={2, 4})
    assert taken.value.code == "seat_taken"
    with pytest.raises(SessionRefused) as playing:
        table.move_seat(1, 4, free={2, 4})
    assert playing.value.code == "in_hand"
    while not hand.is_over:
        seat = hand.pending.seats[0]
        hand.apply(seat, Call() if "call" in hand.legal_actions(seat).actions else Check())
    table.end_hand()
    stacks, brought = list(table.stacks), list(table.brought)
    table.move_seat(1, 4, free={2, 4})
    assert table.stacks == [stacks[0], 0, 0, stacks[3], stacks[1]]
    assert table.brought == [100, 0, 0, 100, 100] and brought[1] == 100
    assert table.out == {1, 2} and table.straddlers == {4}
    assert table.dealt_in() == [0, 3, 4]
    assert table.new_hand() and table.button == 3  # (moves on from seat 0, as ever)
    for to, code in ((1, "bad_seat"), (9, "bad_seat"), (0, "seat_taken")):
        with pytest.raises(SessionRefused) as err:
            table.move_seat(1, to, free={1, 2})
        assert err.value.code == code


def _six(loop: object, store: object) -> tuple[object, Client, dict[int, Client]]:
    """P0-P3 at a six-seat hold'em table (seats 4 and 5 free), hand 1 in play
    (button 0, blinds P1 and P2), the next deal 600 s after a hand's end."""
    table, host, people = people_table(loop, store, seats=6, start=False, bots=2,
                                       rebuy_cap=2, **WAIT)
    for seat in (4, 5):
        send(loop, table, host, "host", op="remove", seat=seat)
    send(loop, table, host, "start")
    loop.advance(0.1)  # type: ignore[attr-defined]
    return table, host, people


def test_a_seat_change_waits_for_the_hand_then_moves_chips_and_ledger() -> None:
    with virtual_server() as (loop, store):
        table, host, people = _six(loop, store)
        assert sorted(table.seats) == [0, 1, 2, 3] and table.hand is not None
        p1 = people[1]
        send(loop, table, p1, "seat_change", seat=4)  # (in the hand: after it)
        assert errors(p1) == []
        public = table.table_public()
        assert public["seat_changes"] == {"1": 4}
        assert table.seats[1].row.name == "P1"  # (not yet)
        # the seat is held for P1: nobody sits there, nor moves there meanwhile
        with pytest.raises(TableError) as held:
            loop.call(table.join, "Zed", 4)
        assert held.value.code == "seat_taken"
        send(loop, table, people[3], "seat_change", seat=4)
        assert _told(people[3]) == [{"code": "seat_taken", "message": (
            "seat 5 is held for P1, who moves there after this hand; free seats: 6")}]
        end_hand(loop, table, people)
        # P1 lost the small blind: 399 chips, brought 400, now in seat 5 (index 4)
        assert 1 not in table.seats and table.seats[4].row.name == "P1"
        assert p1.seat == 4 and table.seating.seat_of(p1) == 4
        assert line(table, 4) == {"seat": 4, "name": "P1", "brought": 400, "stack": 399,
                                  "net": -1, "left": False, "bot": None}
        assert sum(x["net"] for x in table.table_public()["ledger"]) == 0
        assert table.table_public()["seat_changes"] == {}
        assert table.session["stints"] == [{"digest": table.seats[4].row.token_digest,
                                            "seat": 1, "first": 1, "last": 1}]
        assert table.session["chat"][-1]["text"] == "P1 moved from seat 2 to seat 5."
        assert table.session["host_note"]["text"] == "P1 moved from seat 2 to seat 5."
        # once an orbit: P1 again is too soon (4 players: from hand 5)
        send(loop, table, p1, "seat_change", seat=1)
        assert _told(p1) == [{"code": "too_soon", "message": (
            "one seat change an orbit: you may move again once hand 5 has been dealt "
            "(this is hand 1)")}]
        # between hands a move is made at once; sitting out follows the player
        send(loop, table, people[3], "sit_out", out=True)
        send(loop, table, people[3], "seat_change", seat=5)
        assert errors(people[3]) == [] and table.seats[5].row.name == "P3"
        assert table.table_public()["sitting_out"] == [5]
        # the refusals, named
        for to, code, words in (
                (5, "bad_seat", "you already sit in seat 6"),
                (9, "bad_seat", "no such seat 9: seats are 0..5"),
                (0, "seat_taken", "seat 1 is taken by P0; free seats: 2, 4"),
                ("2", "malformed", "'seat' must be a seat number (0-based), or null to "
                                   "stay where you are")):
            send(loop, table, people[3], "seat_change", seat=to)
            assert _told(people[3]) == [{"code": code, "message": words}], to
        send(loop, table, people[3], "seat_change", seat=None)
        assert errors(people[3]) == ["too_often"]  # (4 at once, then one each 5 s)
        # the next hand deals the movers from their new seats; the button moves on
        loop.advance(600.0)
        assert table.hand is not None and table.hand.hand_no == 2
        assert sorted(table.hand.seats) == [0, 2, 4]
        assert table.session["button"] == 2
        # it all survives a restart
        table = restarted(loop, store, table, [host, *people.values()])
        assert table.seats[4].row.name == "P1" and table.seats[5].row.name == "P3"
        assert table.table_public()["sitting_out"] == [5]


def test_a_seat_change_during_a_hand_one_is_not_dealt_into_is_made_at_once() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = _six(loop, store)
        send(loop, table, people[0], "sit_out", out=True)
        end_hand(loop, table, people)
        loop.advance(600.0)  # hand 2: P0 sits out, not dealt in
        assert table.hand is not None and 0 not in table.hand.seats
        send(loop, table, people[0], "seat_change", seat=5)
        assert errors(people[0]) == [] and table.seats[5].row.name == "P0"
        send(loop, table, people[2], "seat_change", seat=0)  # (in hand 2: waits)
        send(loop, table, people[2], "seat_change", seat=None)  # taken back
        assert errors(people[2]) == [] and table.table_public()["seat_changes"] == {}
        end_hand(loop, table, people | {5: people[0]})
        assert table.seats[2].row.name == "P2"


def test_no_seat_change_in_a_tournament() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        with pytest.raises(TableError) as err:
            _send(loop, table, people[0], "seat_change", seat=3)
        assert (err.value.code, err.value.message) == (
            "tournament", "no seat changes in a tournament: its seats were drawn for its "
            "entrants")
    assert parse_message('{"type": "seat_change", "seat": 2}').body["seat"] == 2
    with pytest.raises(ProtocolError) as bad:
        parse_message('{"type": "seat_change", "seat": 2, "to": 3}')
    assert bad.value.code == "unknown_field"


def join_as_host(base: str, tid: str, host: str, name: str) -> tuple[int, str]:
    """Sit ``name`` from the creator's browser (the host cookie sent)."""
    r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name},
                   cookies={host_cookie(tid): host})
    assert r.status_code == 200, r.text
    return r.json()["seat"], r.cookies[seat_cookie(tid)]


def test_the_creators_seat_is_stored_so_a_restart_still_names_the_house(
        tmp_path: Path) -> None:
    db = tmp_path / "house.db"
    srv = ServerThread(db)
    try:
        tid, host = create_table(srv.url, game="sdr", seats=4, bots=1, bot_delay=0.0)
        join_as_host(srv.url, tid, host, "Ann")
        house = httpx.get(f"{srv.url}/api/tables/{tid}").json()["settle"]["house"]
        assert (house["by"], house["host"]) == ("Ann", True)  # (no page open)
    finally:
        srv.stop()
    again = ServerThread(db)
    try:
        settle = httpx.get(f"{again.url}/api/tables/{tid}").json()["settle"]
        assert (settle["house"]["by"], settle["house"]["host"]) == ("Ann", True)
        assert again.manager.get(tid).session["creator_digest"]
    finally:
        again.stop()


def test_the_host_closes_the_table_after_the_hand_in_play_for_good() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, **WAIT)
        assert table.hand is not None and table.hand.hand_no == 1
        send(loop, table, host, "host", op="close")
        assert _told(host) == [{"code": "malformed", "message": (
            "closing the table cannot be undone: send 'confirm': true")}]
        send(loop, table, host, "host", op="pause")  # (closing lifts it: the hand plays on)
        send(loop, table, host, "host", op="close", confirm=True)
        assert errors(host) == [] and table.session["host_paused"] is False
        ended = table.table_public()["ended"]
        assert ended is not None and (ended["by"], ended["final"]) == ("The host", False)
        assert table.session["chat"][-1]["text"] == (
            "The host is closing the table: this hand is the last.")
        # the last hand plays on; nothing that would change the ledger is taken
        for kind, body in (("sit_out", {"out": True}), ("top_up", {}),
                           ("seat_change", {"seat": 0})):
            send(loop, table, people[3], kind, **body)
            assert _told(people[3]) == [{"code": "closed", "message": (
                "the host is closing the table: the hand in play is its last, and "
                "nothing else changes")}], kind
        end_hand(loop, table, people)
        public = table.table_public()
        assert public["ended"]["final"] is True and public["next_deal_at"] is None
        assert public["waiting_for"] == "The host closed the table: the night is over."
        assert table.session["chat"][-1]["text"] == (
            "The host closed the table: the night is over. The ledger is final.")
        assert [x["stack"] for x in public["ledger"]] == [400, 399, 401, 400]
        assert public["settle"]["transfers"] == [
            {"from": "P1", "to": "P2", "chips": 1, "money": None}]
        loop.advance(3600.0)
        assert table.hand is None and table.session["hand_no"] == 1
        closed = ("the host closed this table for good: no more hands are dealt; its "
                  "ledger and hand history stay readable")
        for kind, body in (("host", {"op": "resume"}), ("host", {"op": "deal_now"}),
                           ("rebuy", {}), ("leave", {})):
            send(loop, table, host if kind == "host" else people[1], kind, **body)
            told = _told(host if kind == "host" else people[1])
            assert told == [{"code": "closed", "message": closed}], kind
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Zed", None)
        assert (err.value.code, err.value.message) == ("closed", closed)
        # a later page, after a restart: still closed, nothing deals it again
        table = restarted(loop, store, table, [host, *people.values()])
        loop.advance(3600.0)
        assert table.hand is None and table.session["hand_no"] == 1
        assert table.table_public()["ended"]["final"] is True
        send(loop, table, host, "start")
        assert errors(host) == ["closed"]
        send(loop, table, people[1], "chat", text="good night")
        assert errors(people[1]) == []


def test_closing_between_hands_is_at_once_and_refused_in_a_running_tournament() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, **WAIT)
        end_hand(loop, table, people)
        send(loop, table, host, "host", op="close", confirm=True)
        assert table.table_public()["ended"]["final"] is True
        assert table.dealer.next_hand_timer is None
        send(loop, table, host, "host", op="close", confirm=True)
        assert errors(host) == ["closed"]
    with virtual_server() as (loop, store):
        sit_and_go, entrants = _table(loop, store)
        with pytest.raises(TableError) as err:
            _send(loop, sit_and_go, entrants[0], "host", op="close", confirm=True)
        assert err.value.code == "tournament"


def test_a_move_asked_while_the_game_is_named_is_made_when_that_deal_lapses() -> None:
    """s73-night: a move asked while the button names the game waits for that hand's
    end (it was refused, ``dealing``); when no hand comes of the choice (the other
    player left meanwhile: fewer than two dealt in), it is made then, not left
    holding the seat until some later hand ends."""
    with virtual_server() as (loop, store):
        table, host, people = people_table(
            loop, store, seats=3, start=False, bots=1, game="dealers-choice",
            choices=["holdem", "razz"], **WAIT)
        send(loop, table, host, "host", op="remove", seat=2)
        send(loop, table, host, "start")
        loop.advance(0.1)
        assert table.session["choice"]["seat"] == 0  # (P0 names hand 1's game)
        send(loop, table, people[0], "seat_change", seat=2)
        assert errors(people[0]) == []
        assert table.session["seat_changes"] == {
            "0": {"to": 2, "digest": table.seats[0].row.token_digest}}
        assert 0 in table.seats and 2 not in table.seats  # (waits)
        send(loop, table, people[1], "leave")
        send(loop, table, people[0], "choose_game", 1, game="holdem")
        loop.advance(0.1)
        assert table.hand is None  # (the choice lapsed: one player)
        assert table.session.get("seat_changes", {}) == {}
        assert table.seats[2].row.name == "P0" and 0 not in table.seats

"""s59-break: stop 59's seat changes, the table's close, top-ups and late
registration tried as a new player would, in odd orders; each a fault found and
fixed (tested here against what main did)."""

from __future__ import annotations

from test_dealers_choice_seats import errors, send
from test_host_tools import end_hand
from test_seat_change import _six, _told
from test_table_bots import virtual_server


def test_a_seat_change_waiting_when_the_host_closes_is_dropped_not_made() -> None:
    # (main: P1's move was made at the last hand's end, after "this hand is the
    # last ... nothing else changes", and the chat said "P1 moved from seat 2 to
    # seat 5." between the closing and the closed notes)
    with virtual_server() as (loop, store):
        table, host, people = _six(loop, store)
        send(loop, table, people[1], "seat_change", seat=4)
        assert errors(people[1]) == [] and table.table_public()["seat_changes"] == {"1": 4}
        send(loop, table, host, "host", op="close", confirm=True)
        assert errors(host) == []
        assert table.table_public()["seat_changes"] == {}
        assert _told(people[1]) == [{"code": "seat_change", "message": (
            "your seat change was not made: the host is closing the table, so nobody "
            "changes seats")}]
        assert table.seating.free_seats() == [4, 5]  # (the seat held is free again)
        end_hand(loop, table, people)
        assert {n: s.row.name for n, s in table.seats.items()} == {
            0: "P0", 1: "P1", 2: "P2", 3: "P3"}
        assert [c["text"] for c in table.session["chat"][-2:]] == [
            "The host is closing the table: this hand is the last.",
            "The host closed the table: the night is over. The ledger is final."]
        assert table.table_public()["ended"]["final"] is True

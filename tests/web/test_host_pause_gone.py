"""A host's pause lasts while the host is there (issue 27), on a virtual clock.

Before: a host who paused and closed the tab (a dead phone, a lost connection)
left the table paused for good: nobody else may resume, the hand in play stood
still and the host's own seat, being in that hand, was never freed. Now, once
no connection of the host has been open for the grace period, the table
resumes by itself; a host back in time keeps the pause.
"""

from __future__ import annotations

from test_dealers_choice_seats import errors, send
from test_host_pause import acted, holdem_table
from test_table_bots import virtual_server

from rollem.server.live_table import LiveTable

GRACE = 20.0


def test_a_pause_is_lifted_once_the_host_has_been_gone_for_the_grace_period() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store, grace_seconds=GRACE)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        [seat] = table.hand.pending_seats()
        done = acted(table)
        send(loop, table, host, "host", op="pause")
        assert table.session["host_paused"] and table.decision_seq == {}
        loop.call(table.disconnect, host)
        loop.advance(GRACE - 1.0)
        assert table.session["host_paused"]  # the host may still come back
        send(loop, table, people[seat], "action", hand_no, action={"kind": "call"})
        assert errors(people[seat]) == ["host_paused"] and acted(table) == done
        loop.advance(2.0)
        assert not table.session["host_paused"]
        assert table.table_public()["host_paused"] is False
        assert table.decision_seq.get(seat) is not None  # the decision is open again
        send(loop, table, people[seat], "action", hand_no, action={"kind": "call"})
        assert errors(people[seat]) == [] and acted(table) == done + 1


def test_a_host_back_within_the_grace_period_keeps_the_pause() -> None:
    with virtual_server() as (loop, store):
        table, host, _people = holdem_table(loop, store, grace_seconds=GRACE)
        send(loop, table, host, "host", op="pause")
        loop.call(table.disconnect, host)
        loop.advance(GRACE / 2)
        host.closed = False
        loop.call(table.connect, host)  # back (a reload): the pause is theirs again
        loop.advance(GRACE)
        assert table.session["host_paused"]
        # Gone again: the grace counts from this second leaving.
        loop.call(table.disconnect, host)
        loop.advance(GRACE - 1.0)
        assert table.session["host_paused"]
        loop.advance(2.0)
        assert not table.session["host_paused"]


def test_a_second_host_tab_still_open_keeps_the_pause() -> None:
    from rollem.server.live_table import Client

    with virtual_server() as (loop, store):
        table, host, _people = holdem_table(loop, store, grace_seconds=GRACE)
        other_tab = Client(None, True)
        loop.call(table.connect, other_tab)
        send(loop, table, host, "host", op="pause")
        loop.call(table.disconnect, host)
        loop.advance(GRACE * 3)
        assert table.session["host_paused"]


def test_a_table_restored_while_paused_resumes_if_the_host_does_not_come_back() -> None:
    with virtual_server() as (loop, store):
        table, host, _people = holdem_table(loop, store, grace_seconds=GRACE)
        send(loop, table, host, "host", op="pause")
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        loop.advance(GRACE - 1.0)
        assert table.session["host_paused"]
        loop.advance(2.0)
        assert not table.session["host_paused"]

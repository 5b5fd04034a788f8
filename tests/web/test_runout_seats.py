"""A seat of a hand whose all-in run-out is being shown (s61-table2) is still in
that hand (s62-hostile): the hand is over in the engine but its chips are settled
only after the last round is shown.  Before, leaving, being removed or changing
seats then counted as between hands: the seat was freed (or moved) at once with
its stack from before the hand, so a player who saw the flop go against them
could leave with their all-in chips (the winner's win came from nowhere: the
ledger no longer balanced), and a newcomer who sat down in the freed seat was
given the settlement of a hand they never played.  Now each waits for the hand's
end, as in a hand still played."""

from __future__ import annotations

from typing import Any

import pytest
from test_table_bots import virtual_server
from virtual_table import VirtualLoop, seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.pacing import Pacing
from rollem.server.protocol import ClientMessage
from rollem.server.store import Store


def _shoves(legal: dict[str, Any]) -> dict[str, Any]:
    acts = legal["actions"]
    if "raise" in acts:
        return {"kind": "raise", "to": legal["max_to"]}
    if "call" in acts:
        return {"kind": "call"}
    return {"kind": acts[0]}


def _run_out(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client], int, int]:
    """A 3-seat no-limit hold'em table, two people (P0 hosts) of 200 chips, all in
    before the flop and the run-out shown 1 s a round: the table, its people, the
    winner's and the loser's seat (the run-out just begun)."""
    config = parse_config({"game": "holdem", "structure": "no-limit", "seats": 3, "bots": 0,
                           "stack": 200, "decision_seconds": 30.0, "grace_seconds": 120.0,
                           "between_hands": 4.0})
    table, _ = loop.call(LiveTable.create, store, config)
    table.pacing = Pacing(runout_step=1.0)
    people = seat_people(loop, table, 2)
    loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
    start = loop.now
    while not table.runout.active:
        assert loop.now < start + 60, "no run-out"
        loop.advance(0.1)
        for c in people:
            if table.hand is not None and c.seat in table.decision_seq:
                loop.call(table.handle, c, ClientMessage(
                    "action", table.hand.hand_no, table.seq,
                    {"action": _shoves(table.hand.view(c.seat)["legal"])}))
    assert table.hand is not None
    net = {int(s): n for s, n in table.hand.result()["net"].items()}
    if sorted(net.values()) != [-200, 200]:
        pytest.skip(f"the seeded deal split the pot: {net}")
    winner = next(s for s, n in net.items() if n > 0)
    return table, people, winner, 1 - winner


def _ledger(table: LiveTable) -> dict[str, tuple[int, int]]:
    return {line["name"]: (line["stack"], line["net"])
            for line in table.views.table_public()["ledger"]}


def _after_the_hand(loop: VirtualLoop, table: LiveTable) -> None:
    loop.advance(5.0)   # (4 rounds shown 1 s apart, then the result)
    assert not table.runout.active and int(table.session["hand_no"]) == 1


@pytest.mark.parametrize("how", ["leave", "remove"])
def test_the_loser_leaving_during_the_run_out_leaves_with_the_loss(how: str) -> None:
    with virtual_server() as (loop, store):
        table, people, winner, loser = _run_out(loop, store)
        if how == "leave":
            loop.call(table.handle, people[loser], ClientMessage("leave", None, table.seq, {}))
        else:
            if loser == 0:   # (the host is P0: the host removes P1, so P1 loses here)
                pytest.skip("the host cannot remove itself")
            loop.call(table.disconnect, people[loser])   # (only one away is removed)
            loop.call(table.handle, people[0], ClientMessage(
                "host", None, table.seq, {"op": "remove", "seat": loser}))
        assert loser in table.seats and table.seats[loser].gone   # (freed after the hand)
        _after_the_hand(loop, table)
        ledger = _ledger(table)
        assert ledger[f"P{loser}"] == (0, -200)    # main: (200, 0), the loss escaped
        assert ledger[f"P{winner}"] == (400, 200)
        assert loser not in table.seats
        settle = table.views.table_public()["settle"]
        assert settle is not None and settle["transfers"] == [
            {"from": f"P{loser}", "to": f"P{winner}", "chips": 200, "money": None}]
        loop.call(table.shutdown)


def test_a_newcomer_cannot_take_the_seat_of_a_winner_who_leaves_in_the_run_out() -> None:
    with virtual_server() as (loop, store):
        table, people, winner, loser = _run_out(loop, store)
        loop.call(table.handle, people[winner], ClientMessage("leave", None, table.seq, {}))
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Zed", winner)   # main: sat down, given the 400 won
        assert err.value.code == "seat_taken"
        _after_the_hand(loop, table)
        ledger = _ledger(table)
        assert ledger[f"P{winner}"] == (400, 200)   # main: (200, 0), the win lost
        assert ledger[f"P{loser}"] == (0, -200)
        loop.call(table.join, "Zed", winner)   # free once the hand is settled
        assert table.seats[winner].row.stack == 200 and _ledger(table)["Zed"] == (200, 0)
        loop.call(table.shutdown)


def test_a_seat_change_asked_in_the_run_out_is_made_after_it_with_the_chips() -> None:
    with virtual_server() as (loop, store):
        table, people, winner, loser = _run_out(loop, store)
        loop.call(table.handle, people[loser], ClientMessage(
            "seat_change", None, table.seq, {"seat": 2}))
        assert loser in table.seats and 2 not in table.seats   # (waits: main moved now)
        assert table.session["seat_changes"] == {
            str(loser): {"to": 2, "digest": table.seats[loser].row.token_digest}}
        _after_the_hand(loop, table)
        assert 2 in table.seats and table.seats[2].row.name == f"P{loser}"
        assert _ledger(table)[f"P{loser}"] == (0, -200)   # main: (200, 0)
        assert _ledger(table)[f"P{winner}"] == (400, 200)
        loop.call(table.shutdown)


def test_a_restart_after_the_loser_left_in_the_run_out_settles_then_frees_the_seat() -> None:
    """The server stops mid-run-out, the loser's Leave already written: restored,
    the hand is finished at once (``continue_play``) and the seat freed after it,
    with the loss (its removal is kept in ``session["removed"]``)."""
    with virtual_server() as (loop, store):
        table, people, winner, loser = _run_out(loop, store)
        loop.call(table.handle, people[loser], ClientMessage("leave", None, table.seq, {}))
        loop.advance(0.5)   # (the writes committed; the run-out still shown)
        assert table.runout.active
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert table.hand is None and loser not in table.seats
        ledger = _ledger(table)
        assert ledger[f"P{loser}"] == (0, -200) and ledger[f"P{winner}"] == (400, 200)
        table.shutdown()


def test_a_paced_restart_after_the_losers_leave_keeps_the_seat_until_the_result() -> None:
    """s62-hostile2: since s62-table a restart goes on with the run-out (a real
    server paces it), so the restored table spends the rounds left with the hand
    over and unsettled, as before the restart: the leaver's seat is still held (a
    newcomer is refused ``seat_taken``), a seat change waits, and the seat is
    freed with the loss after the result."""
    with virtual_server() as (loop, store):
        table, people, winner, loser = _run_out(loop, store)
        loop.call(table.handle, people[loser], ClientMessage("leave", None, table.seq, {}))
        loop.advance(1.5)   # (the flop shown and stored)
        assert table.runout.active and table.session.get("runout_shown") == 1
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        table.pacing = Pacing(runout_step=1.0)
        loop.call(table.resume)
        assert table.runout.active and table.hand is not None   # (the flop again)
        assert loser in table.seats and table.seats[loser].gone
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Zed", loser)
        assert err.value.code == "seat_taken"
        back = Client(winner, winner == 0)
        loop.call(table.connect, back)
        loop.call(table.handle, back, ClientMessage("seat_change", None, table.seq,
                                                    {"seat": 2}))
        assert winner in table.seats and 2 not in table.seats   # (waits for the result)
        loop.advance(4.0)   # (the turn, the river, then the result)
        assert not table.runout.active and table.session.get("runout_shown") is None
        assert loser not in table.seats
        assert 2 in table.seats and table.seats[2].row.name == f"P{winner}"
        ledger = _ledger(table)
        assert ledger[f"P{loser}"] == (0, -200) and ledger[f"P{winner}"] == (400, 200)
        loop.call(table.shutdown)

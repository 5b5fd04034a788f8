"""The host's pause/resume spam and a player's pending answer (stop 52).

Each pause closed the open decision and each resume reopened it with a new
sequence number, so an answer sent with the state seen before the pause (or
during it) came back ``stale`` although the hand had not moved (stop 51's
hostile review: a fold with the sequence number from before one pause/resume
pair was refused).  Now a decision the resume reopens, the same one the pause
closed, keeps the sequence number it was first offered at; an answer to an
earlier decision is still ``stale``."""

from __future__ import annotations

from test_dealers_choice_seats import choice_table, errors, send
from test_host_pause import acted, holdem_table
from test_table_bots import virtual_server

from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage


def _act(loop: object, table: LiveTable, client: Client, seq: int, kind: str) -> None:
    assert table.hand is not None
    msg = ClientMessage("action", table.hand.hand_no, seq, {"action": {"kind": kind}})
    loop.call(table.handle, client, msg)  # type: ignore[attr-defined]


def test_an_answer_sent_before_a_pause_and_resume_is_taken() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        assert table.hand is not None
        [seat] = table.hand.pending_seats()
        offered = table.decision_seq[seat]
        seen = table.seq  # the state the player's page shows
        done = acted(table)
        for _ in range(5):  # the host's spam: five pause/resume pairs
            send(loop, table, host, "host", op="pause")
            during = table.seq
            send(loop, table, host, "host", op="resume")
        assert table.seq > seen + 9 and errors(host) == []
        assert table.decision_seq == {seat: offered}  # (main: the last resume's seq)
        assert table.state(seat)["you"]["decision_seq"] == offered
        _act(loop, table, people[seat], seen, "call")  # sent before the spam began
        assert errors(people[seat]) == []  # (main: ["stale"])
        assert acted(table) == done + 1 and table.hand.hand.actions[-1][0] == seat
        # The next seat's decision is a new one: an answer to it sent with a
        # state seen during the pause above is refused as before.
        [after] = table.hand.pending_seats()
        assert after != seat and table.decision_seq[after] > during
        _act(loop, table, people[after], during, "call")
        assert errors(people[after]) == ["stale"]
        assert acted(table) == done + 1


def test_an_answer_sent_while_paused_is_refused_and_one_after_resume_taken() -> None:
    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        assert table.hand is not None
        [seat] = table.hand.pending_seats()
        send(loop, table, host, "host", op="pause")
        paused_seq = table.seq
        _act(loop, table, people[seat], paused_seq, "fold")
        assert errors(people[seat]) == ["host_paused"]
        send(loop, table, host, "host", op="resume")
        send(loop, table, host, "host", op="pause")
        send(loop, table, host, "host", op="resume")
        done = acted(table)
        _act(loop, table, people[seat], paused_seq, "fold")  # the seq seen while paused
        assert errors(people[seat]) == []  # (main: ["stale"])
        assert acted(table) == done + 1


def test_the_buttons_choice_of_game_survives_a_pause_and_resume() -> None:
    """The same for the button naming a dealer's choice (its choice is a decision
    too): named with the state seen before the pause, it is taken."""
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        offered, seen = table.decision_seq[chooser], table.seq
        for _ in range(3):
            send(loop, table, host, "host", op="pause")
            send(loop, table, host, "host", op="resume")
        assert table.decision_seq.get(chooser) == offered  # (main: the last resume's)
        loop.call(table.handle, people[chooser], ClientMessage(
            "choose_game", hand_no, seen, {"game": "sdr"}))
        assert errors(people[chooser]) == []  # (main: ["stale"])
        assert table.hand is not None and table.hand.game == "sdr"

"""A player's second tab answering a decision already made is told so in
words, not only in sequence numbers (the table page shows the message as is).

Before: "sequence number 5 is older than your decision (offered at 6)".
"""

from __future__ import annotations

import json

from test_host_pause import holdem_table
from test_table_bots import virtual_server

from rollem.server.live_table import Client
from rollem.server.protocol import ClientMessage


def _errors(client: Client) -> list[tuple[str, str]]:
    texts = [json.loads(text) for text, _ in client._pending]
    client._pending.clear()
    return [(m["code"], m["message"]) for m in texts if m["type"] == "error"]


def test_an_answer_from_a_second_tab_says_the_decision_was_made() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = holdem_table(loop, store)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        [seat] = table.hand.pending_seats()
        tab1 = people[seat]
        tab2 = Client(seat)
        loop.call(table.connect, tab2)
        seen = table.seq  # both tabs show this decision
        call = {"action": {"kind": "call"}}
        loop.call(table.handle, tab1, ClientMessage("action", hand_no, seen, call))
        assert _errors(tab1) == []
        loop.call(table.handle, tab2, ClientMessage("action", hand_no, seen, call))
        [(code, message)] = _errors(tab2)
        assert code == "stale"
        assert message == (
            f"that answer came too late: seat {seat + 1} has no decision now (already made, "
            "perhaps in another tab or window of yours); sequence number "
            f"{seen} is older than the table ({table.seq})")
        # Later the seat has a new decision; an answer from before it is refused.
        for _ in range(100):
            if seat in table.decision_seq or table.hand is None:
                break
            for other, client in people.items():
                if other != seat and other in table.decision_seq and table.hand is not None:
                    legal = table.hand.view(other)["legal"]["actions"]
                    kind = "check" if "check" in legal else "call"
                    loop.call(table.handle, client, ClientMessage(
                        "action", hand_no, table.seq, {"action": {"kind": kind}}))
            loop.advance(0.1)
        assert table.hand is not None and seat in table.decision_seq
        opened = table.decision_seq[seat]
        loop.call(table.handle, tab2, ClientMessage("action", hand_no, seen, call))
        assert _errors(tab2) == [("stale", (
            "that answer was to an earlier decision (made already, perhaps in another tab "
            "or window of yours); look at the table again and decide: sequence number "
            f"{seen} is older than your decision (offered at {opened})"))]

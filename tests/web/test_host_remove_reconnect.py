"""A player the host removed during a hand stays removed when they come back
before it ends (issue 26), on a virtual clock.

Before: the removal set the seat *gone* (decisions timed out at once, the seat
freed after the hand), and a reconnect cleared it like the end of an ordinary
absence: the removed player came back, played on and kept the seat.
"""

from __future__ import annotations

import json

from test_host_pause import holdem_table
from test_table_bots import virtual_server


def _codes(client: object) -> list[str]:
    texts = [json.loads(text) for text, _ in client._pending]  # type: ignore[attr-defined]
    client._pending.clear()  # type: ignore[attr-defined]
    return [m["code"] for m in texts if m["type"] == "error"]


def test_a_removed_player_who_comes_back_mid_hand_is_still_removed() -> None:
    from test_dealers_choice_seats import send

    with virtual_server() as (loop, store):
        table, host, people = holdem_table(loop, store)
        assert table.hand is not None
        hand_no = table.hand.hand_no
        ann = people[1]
        loop.call(table.disconnect, ann)  # away: the host may remove her
        send(loop, table, host, "host", op="remove", seat=1)
        assert _codes(host) == []
        assert table.seats[1].gone
        ann.closed = False
        loop.call(table.connect, ann)  # back before the hand ends
        assert _codes(ann) == ["removed"]  # told again why
        assert table.seats[1].gone  # her decisions still time out at once
        # The others play the hand out (check or call); Ann's turns time out.
        for _ in range(200):
            if table.hand is None or table.hand.hand_no != hand_no:
                break
            for seat, client in people.items():
                if seat != 1 and seat in table.decision_seq and table.hand is not None:
                    legal = table.hand.view(seat)["legal"]["actions"]
                    action = {"kind": "check" if "check" in legal else "call"}
                    send(loop, table, client, "action", hand_no, action=action)
            loop.advance(0.2)
        assert table.final_hand is not None and table.final_hand.hand_no == hand_no
        assert 1 not in table.seats  # the seat was freed when the hand ended
        assert ann.seat is None  # she watches now

"""The table state's ``button`` while a dealer's choice is pending (R-C-12,
s66-table): the seat naming the game, which deals the hand it names -- not the
last hand's button, as it showed before.  On a virtual clock
(:func:`test_dealers_choice_seats.choice_table`)."""

from __future__ import annotations

from test_dealers_choice_seats import choice_table, errors, play_out_hand, send
from test_table_bots import virtual_server


def test_the_state_shows_the_choosers_seat_as_the_button() -> None:
    with virtual_server() as (loop, store):
        table, host, people = choice_table(loop, store)
        first = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        # Before any deal: the seat naming the first game (it showed none).
        assert table.session["button"] is None
        assert table.table_public()["button"] == first
        assert all(table.state(p.seat)["table"]["button"] == first for p in people.values())
        send(loop, table, people[first], "choose_game", hand_no, game="sdr")
        assert errors(people[first]) == []
        assert table.hand is not None and table.hand.hand.button == first
        assert table.table_public()["button"] == first  # (the hand's, in play)
        play_out_hand(loop, table, people, hand_no)
        loop.advance(1.0)
        # The next choice: the button has moved on to its chooser (it showed the
        # last hand's button, ``first``, until the game was named).
        choice = table.session["choice"]
        assert table.hand is None and choice is not None and int(choice["hand"]) == hand_no + 1
        second = int(choice["seat"])
        assert second == (first + 1) % 3 and table.session["button"] == first
        assert table.table_public()["button"] == second
        assert table.state(None)["table"]["button"] == second  # (an onlooker too)
        # Named during the host's pause, dealt at resume: still the chooser's.
        send(loop, table, host, "host", op="pause")
        send(loop, table, people[second], "choose_game", hand_no + 1, game="rollem521")
        assert errors(people[second]) == []
        assert table.hand is None and table.table_public()["button"] == second
        # A delayed watcher still sees only the last ended hand's (host_tools).
        assert table.state(None, kind="delayed")["table"]["button"] == first
        send(loop, table, host, "host", op="resume")
        loop.advance(0.5)
        assert table.hand is not None and table.hand.hand.button == second
        assert table.table_public()["button"] == second == table.session["button"]

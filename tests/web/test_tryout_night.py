"""What a try-out of a friend group's weekly night found (branch s49-tryout,
docs/dev/hostile.md): tournament night, the staples of a weekly game,
reconnection and the seams between them.  Each test fails on the code before
its fix."""

from __future__ import annotations

from test_table_bots import passive, virtual_server
from test_tournament_server import _send, _step

from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage


def test_an_entrant_whose_phone_died_is_blinded_off_at_once_after_the_grace() -> None:
    """P1's page closes for good (a dead phone) in a turbo tournament.  The entrant
    keeps the seat and is dealt in, but each decision of theirs ran the whole
    clock (30 s, and the time bank once) for the rest of the tournament: about a
    hand a minute.  Now, once the grace period is over, P1 is marked away (as
    the clock's away mode marks an idle player) and their decisions are made at
    once; back on the page, **I'm back** deals them in to play again."""
    with virtual_server() as (loop, store):
        config = parse_config({
            "game": "sdr", "seats": 3, "bots": 1, "bot_level": "random",
            "decision_seconds": 30.0, "time_bank_seconds": 60.0, "grace_seconds": 120.0,
            "between_hands": 0.5, "bot_delay": 0.0, "tournament": "turbo"})
        table, _ = loop.call(LiveTable.create, store, config)
        people = []
        for seat in range(2):
            _, token = loop.call(table.join, f"P{seat}", seat)
            client = Client(table.seat_for_token(token), seat == 0)
            loop.call(table.connect, client)
            people.append(client)
        loop.call(table.handle, people[0], ClientMessage("start", None, table.seq, {}))
        loop.call(table.disconnect, people[1])
        start = loop.now
        while loop.now < start + 125:  # the grace period, and a little
            _step(loop, table, people[:1], passive)
        assert table.session["idle_away"] == [1] and table.session["sitting_out"] == [1]
        assert table.state(0)["table"]["idle_away"] == [1]  # (the felt: "away")
        assert table.tourney.holds_entry(1)  # still an entrant, seat kept
        first = int(table.session["hand_no"])
        while loop.now < start + 185:  # a minute more: hands flow again
            _step(loop, table, people[:1], passive)
        last = int(table.session["hand_no"])
        assert last - first >= 10, (first, last)  # (before: 1 or 2 hands a minute)
        theirs = [a.source for h in range(first + 1, last)
                  for a in store.load_actions(table.id, h) if a.seat == 1]
        assert theirs and set(theirs) == {"timeout"}
        # Back: the page says "I'm back"; the seat plays again, its clock running
        loop.call(table.connect, people[1])
        _send(loop, table, people[1], "sit_out", out=False)
        assert table.session["idle_away"] == [] and table.session["sitting_out"] == []
        while 1 not in table.decision_seq:
            _step(loop, table, people[:1], passive)
        assert table.hand is not None and 1 in table.hand.seats
        hand_no = table.hand.hand_no
        loop.advance(5)
        assert 1 in table.decision_seq and table.hand.hand_no == hand_no  # it waits for P1
        loop.call(table.shutdown)

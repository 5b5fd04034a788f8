"""A computer player offered less than its ICM equity in a tournament deal
declines at once (issue 28), on a virtual clock.

Before: it neither agreed nor declined, and no hand is dealt while a deal is
open, so the table waited for ever ("Waiting: the players left are agreeing a
deal.") unless a person thought of declining their own proposal.
"""

from __future__ import annotations

from test_table_bots import virtual_server
from test_tournament_server import _send, _step, _table


def test_a_computer_player_offered_less_than_its_icm_share_declines() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        # (to the end of the hand that busts seat 1: 90 steps since computer
        # players act at least 0.25 s after their turn opens, stop 56)
        while table.hand is not None or table.seats[1].row.stack > 0:
            assert loop.now < 1_000_000 + 300, "seat 1 never busted"
            _step(loop, table, people)
        t = table.session["tournament"]
        chips = {s: table.seats[s].row.stack for s in range(4)}
        assert chips == {0: 8, 1: 0, 2: 51, 3: 181}  # seat 1 busted; 2 and 3 bots
        # The precondition, worked out as the table does: under a chip-chop the
        # short computer player (seat 2) gets less than its ICM equity.
        live = table.tourney.tournament()
        assert live is not None
        chop, icm = live.deal_offer(chips, "chip_chop"), live.deal_offer(chips, "icm")
        assert chop[2] < icm[2] - 1 and chop[3] >= icm[3] - 1
        _send(loop, table, people[0], "deal", op="propose", method="chip_chop")
        assert t["proposal"] is None and not t["over"]  # seat 2 declined: withdrawn
        assert table.dealer.waiting_for() is None
        loop.advance(5.0)
        assert table.hand is not None  # play goes on
        assert table.tourney.public()["running"]  # type: ignore[index]
        # An ICM deal (each computer player's share its equity) still waits for
        # the people.
        while table.hand is not None:
            _step(loop, table, people)
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        proposal = t["proposal"]
        if proposal is not None:  # (the hand just ended may have busted someone)
            assert {2, 3} & set(proposal["offer"]) <= set(proposal["agreed"])


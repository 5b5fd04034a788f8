"""The level clock during a tournament's last call for a rebuy (branch s51-break):
nothing is dealt while the table waits for the busted person's rebuy, so the blinds
do not rise meanwhile, and the rebuy levels cannot close inside the call the felt
promised ("P0 may rebuy until HH:MM:SS UTC").  Before, the clock ran on: a bust
in a rebuy level's last minute got a last call whose rebuy was refused
("rebuys are closed") while the waiting line still offered it."""

from __future__ import annotations

from test_table_bots import virtual_server
from test_tournament_rebuy_last_call import _heads_up_bust
from test_tournament_server import _step

from rollem.server.live_table.tourney import Tourney
from rollem.server.protocol import ClientMessage


def test_the_rebuy_levels_do_not_close_inside_a_last_call() -> None:
    with virtual_server() as (loop, store):
        table, people, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        assert state["last_call"] is not None
        # 20 s of the rebuy level (20 minutes) left when the last call opened
        state["elapsed"] = 20 * 60 - 20.0
        state["since"] = loop.now if state.get("since") is not None else None
        clock_before = table.tourney.clock_seconds()
        loop.advance(40)  # past the level's end, within the call's 60 s
        assert table.tourney.clock_seconds() == clock_before  # (main: 40 s more)
        assert table.tourney.tournament().rebuy_open  # type: ignore[union-attr]
        assert table.state(busted)["you"]["rebuy_closed"] is None  # the Rebuy button
        words = table.dealer.waiting_for()
        assert words is not None and words.startswith(f"Last call for a rebuy: P{busted}")
        loop.call(table.messages.dispatch, people[busted],
                  ClientMessage("rebuy", None, table.seq, {}))
        assert table.seats[busted].row.stack == 60, "the rebuy the waiting line offered"
        assert state["last_call"] is None and state["rebuys"] == {str(busted): 1}
        assert state["since"] is not None  # the clock runs again with the play
        loop.advance(5)
        assert table.tourney.clock_seconds() > clock_before + 4
        dealt = int(table.session["hand_no"])
        start = loop.now
        while int(table.session["hand_no"]) == dealt:
            assert loop.now < start + 10
            _step(loop, table, people)
        loop.call(table.shutdown)


def test_a_last_call_nobody_answers_ends_at_60_s_with_the_clock_where_it_stood() -> None:
    with virtual_server() as (loop, store):
        table, _, busted = _heads_up_bust(loop, store)
        state = table.session["tournament"]
        clock_before = table.tourney.clock_seconds()
        loop.advance(Tourney.REBUY_LAST_CALL + 1)
        assert state["over"] and state["declined"] == [busted]
        assert abs(table.tourney.clock_seconds() - clock_before) < 0.01
        loop.call(table.shutdown)

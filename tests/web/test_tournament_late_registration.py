"""Late registration's server side (stop 59, branch s59-night): who may enter a
started tournament, and what an entry changes (the browser side:
test_tournament_late_registration_browser.py)."""

from __future__ import annotations

import pytest
from test_table_bots import virtual_server
from test_tournament_server import _send, _table

from rollem.server.live_table import TableError


def test_a_late_entry_adds_an_entrant_and_a_buy_in() -> None:
    """Five seats, rebuys in level 1: a newcomer enters (pool 40 -> 50, the
    shipped payouts of five, no place given meanwhile)."""
    with virtual_server() as (loop, store):
        table, _people = _table(loop, store, seats=5, rebuy_levels=1)
        public = table.tourney.public()
        assert public["entries_open"] and public["prize_pool"] == 40
        before = public["entrants"]
        seat, _ = loop.call(table.join, "Eve", None)
        public = table.tourney.public()
        assert seat not in before and public["entrants"] == sorted([*before, seat])
        assert public["prize_pool"] == 50 and public["percentages"] == [65, 35]
        assert table.seats[4].row.stack == public["stack"]
        assert table.session["tournament"]["late"] == [seat]
        assert not public["entries_open"]  # (no free seat left)
        loop.call(table.shutdown)


@pytest.mark.parametrize("extra", [{"rebuy_levels": 0}, {"rebuy_levels": 1, "private": True}])
def test_no_late_entry_without_rebuys_or_at_a_private_table(extra: dict[str, object]) -> None:
    with virtual_server() as (loop, store):
        table, _people = _table(loop, store, seats=5, **extra)
        assert not table.tourney.public()["entries_open"]
        before = table.tourney.public()["entrants"]
        with pytest.raises(TableError, match="late registration is closed") as err:
            loop.call(table.join, "Eve", None)
        assert err.value.code == "tournament_started"
        assert table.tourney.public()["entrants"] == before and len(before) == 4
        loop.call(table.shutdown)


def test_no_late_entry_while_a_deal_is_proposed() -> None:
    """Three seated of four with rebuys (a deal open from 3 left at 100%): while
    a proposal is open, the table takes nobody new."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, seats=5, bots=1, rebuy_levels=1)
        assert table.tourney.public()["entries_open"]
        while table.hand is not None:
            loop.advance(0.1)
        _send(loop, table, people[0], "deal", op="propose", method="chip_chop")
        assert table.session["tournament"]["proposal"] is not None
        assert not table.tourney.public()["entries_open"]
        with pytest.raises(TableError) as err:
            loop.call(table.join, "Eve", None)
        assert err.value.code == "tournament_started"
        loop.call(table.shutdown)

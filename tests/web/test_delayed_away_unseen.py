"""A delayed watcher (issue 27) and the clock sitting out a closed page (stop
58's ``away_unseen``), s59-safe.  The clock acting for a seat whose every page
is closed is an action of the hand in play (a check or a fold): the seats sat
out as at the deal were kept for a delayed watcher (``sitting_out``,
``idle_away``), but ``away_unseen`` was new and not among them, so the watcher
was sent a new state mid-hand naming the seat the clock had just acted for."""

from __future__ import annotations

from test_away_unseen import _friends
from test_table_bots import passive, virtual_server
from test_tournament_server import _step

from rollem.server.live_table import Client


def test_a_delayed_watcher_learns_of_the_clocks_action_only_after_the_hand() -> None:
    with virtual_server() as (loop, store):
        table, people = _friends(loop, store, watcher_delay=True)
        watcher = Client(None)
        loop.call(table.connect, watcher)
        assert table.hand is not None and table.hand.hand_no == 1
        before = table.views.table_for("delayed")
        loop.call(table.disconnect, people[1])
        while table.hand is not None and table.hand.hand_no == 1 \
                and 1 not in table.session.get("away_unseen", []):
            _step(loop, table, [people[0], people[2]], passive)
        assert table.session["away_unseen"] == [1]  # (the clock acted for P1 just now)
        assert table.hand is not None and table.hand.hand_no == 1 and not table.hand.over
        seen = table.views.table_for("delayed")
        assert seen["hand_in_play"] is True
        assert seen["away_unseen"] == before["away_unseen"] == []  # (main: [1])
        assert seen["idle_away"] == [] and seen["sitting_out"] == []
        assert table.views.table_for("watcher")["away_unseen"] == [1]  # (no delay: at once)
        while table.hand is not None and table.hand.hand_no == 1:
            _step(loop, table, [people[0], people[2]], passive)
        assert table.views.table_for("delayed")["away_unseen"] == [1]  # (the hand is over)
        loop.call(table.shutdown)

"""The host's "Pause after this hand" (stop 58): the last hand of the night is
played out, then the table stands paused between hands, where the ledger
settles up.  Before, the host's only Pause stood the hand still (chips in the
pot, the ledger "hand N in play is not counted yet"), or the host had to catch
the few seconds between two hands."""

from __future__ import annotations

import pytest
from test_away_unseen import _friends
from test_table_bots import passive, virtual_server
from test_tournament_server import _send, _step
from virtual_table import seat_people

from rollem.server.config import parse_config
from rollem.server.live_table import LiveTable, TableError
from rollem.server.protocol import ClientMessage


def test_the_host_pauses_after_the_last_hand_of_the_night() -> None:
    """The host ends the night: "Pause after this hand" during hand 1 lets the hand
    be played out (a pause stands it still, chips in the pot, and the ledger
    settles up only between hands), then the table stands paused: no hand 2, no
    button naming a game, until Resume."""
    with virtual_server() as (loop, store):
        table, people = _friends(loop, store)
        while table.hand is None:
            loop.advance(0.1)
        _send(loop, table, people[0], "host", op="pause", after_hand=True)
        assert table.state(1)["table"]["pause_after_hand"] is True
        assert not table.session.get("host_paused")
        while table.hand is not None:
            _step(loop, table, people, passive)  # (hand 1 played out, nobody held)
        assert table.session["host_paused"] is True
        assert table.state(2)["table"]["pause_after_hand"] is False
        loop.advance(60)
        assert table.hand is None and int(table.session["hand_no"]) == 1
        assert not table.session.get("choice")
        _send(loop, table, people[0], "host", op="resume")
        start = loop.now
        while table.hand is None and loop.now < start + 20:
            loop.advance(0.1)
        assert table.hand is not None and table.hand.hand_no == 2
        # taken back: hand 2 ends and hand 3 is dealt
        _send(loop, table, people[0], "host", op="pause", after_hand=True)
        _send(loop, table, people[0], "host", op="pause", after_hand=False)
        while table.hand is not None and table.hand.hand_no == 2:
            _step(loop, table, people, passive)
        assert not table.session.get("host_paused")
        with pytest.raises(TableError) as err:
            _send(loop, table, people[0], "host", op="pause", after_hand="yes")
        assert err.value.code == "malformed" and "'after_hand' must be true" in str(err.value)
        # between hands it pauses at once
        while table.hand is not None:
            _step(loop, table, people, passive)
        _send(loop, table, people[0], "host", op="pause", after_hand=True)
        assert table.session["host_paused"] is True
        loop.call(table.shutdown)



def test_a_host_gone_before_the_hand_ends_does_not_hold_the_table_for_good() -> None:
    """The host asks to pause after the hand and closes the laptop: the table pauses
    at the hand's end as any pause of a host who has gone: the host role passes
    to a friend (after its wait), who may resume, so the friends can play on."""
    with virtual_server() as (loop, store):
        table, people = _friends(loop, store)
        while table.hand is None:
            loop.advance(0.1)
        _send(loop, table, people[0], "host", op="pause", after_hand=True)
        loop.call(table.disconnect, people[0])
        others = people[1:]
        while table.hand is not None:
            _step(loop, table, others, passive)
        assert table.session["host_paused"] is True
        loop.advance(125)
        [stand_in] = [c for c in others if c.is_host]
        _send(loop, table, stand_in, "host", op="resume")
        start = loop.now
        while table.hand is None and loop.now < start + 20:
            loop.advance(0.1)
        assert table.hand is not None and table.hand.hand_no == 2
        loop.call(table.shutdown)


def test_a_pause_after_the_hand_with_no_person_to_resume_lifts_after_the_grace() -> None:
    """Only computer players are left beside the host, who asked to pause after the
    hand and left: nobody could resume, so the pause lifts after the grace period,
    as a plain pause of a host who has gone does."""
    with virtual_server() as (loop, store):
        config = parse_config({"game": "sdr", "seats": 3, "bots": 2, "bot_delay": 0.0,
                               "decision_seconds": 30.0, "grace_seconds": 120.0,
                               "between_hands": 4.0})
        table, _ = loop.call(LiveTable.create, store, config)
        [ann] = seat_people(loop, table, 1)
        loop.call(table.handle, ann, ClientMessage("start", None, table.seq, {}))
        while table.hand is None:
            loop.advance(0.1)
        _send(loop, table, ann, "host", op="pause", after_hand=True)
        loop.call(table.disconnect, ann)
        while table.hand is not None:
            loop.advance(0.5)
        assert table.session["host_paused"] is True
        loop.advance(125)
        assert not table.session.get("host_paused")
        loop.call(table.shutdown)

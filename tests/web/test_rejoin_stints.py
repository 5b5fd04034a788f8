"""One person's leave-and-return records are bounded (s59-rejoin).

Each time a player left after playing and came back from the same browser the
table's session gained a stint (``session["stints"]``: their cookie's digest,
the seat and the hands they played there, about 115 characters), saved at
every action and walked for each hand of the hand list: s59-safe's finding.
Now a return to a seat nobody has taken since extends the person's stint there
(:func:`rollem.server.live_table.seats.add_stint`), and a person with
:data:`~rollem.server.live_table.seats.STINTS_PER_PERSON` stints who would
start another is refused (``too_often``).  Whatever the records, a person's
replays and copies show their own seat in each hand they played, and never a
seat in a hand someone else played."""

from __future__ import annotations

import json

import pytest
from test_dealers_choice_seats import send
from test_host_pause import holdem_table
from test_table_bots import passive, virtual_server
from virtual_table import VirtualLoop

from rollem.server.live_table import Client, LiveTable, TableError, seats
from rollem.server.protocol import ClientMessage
from rollem.server.store import token_digest


class _Log:
    """Which hands were dealt to which seats, and who sat in seat 0 then."""

    def __init__(self) -> None:
        self.seats: dict[int, list[int]] = {}
        self.in_0: dict[int, str | None] = {}
        self.p1: Client | None = None  # (P1 in seat 1 plays on: hands go on without seat 0)

    def note(self, table: LiveTable) -> None:
        hand = table.hand
        if hand is not None and hand.hand_no not in self.seats:
            self.seats[hand.hand_no] = list(hand.seats)
            sat = table.seats.get(0)
            self.in_0[hand.hand_no] = (str(sat.row.name) if sat is not None
                                       and 0 in hand.seats else None)


def _advance(loop: VirtualLoop, table: LiveTable, log: _Log, seconds: float) -> None:
    loop.advance(seconds)
    log.note(table)
    if log.p1 is not None and table.hand is not None and 1 in table.decision_seq:
        action = passive(table.hand.view(1)["legal"]) or table.hand.timeout_action(1)
        loop.call(table.handle, log.p1, ClientMessage(
            "action", table.hand.hand_no, table.seq, {"action": action}))


def _play_and_leave(loop: VirtualLoop, table: LiveTable, client: Client, log: _Log) -> None:
    """``client`` (seat 0) plays the next hand dealt to its end, then leaves."""
    joined = table.seats[0].row.joined_hand
    start = loop.now
    while not (int(table.session["hand_no"]) > joined
               and (table.hand is None or table.hand.over)):
        assert loop.now < start + 600, "no hand was dealt"
        _advance(loop, table, log, 0.1)
        if table.hand is not None and 0 in table.decision_seq:
            action = passive(table.hand.view(0)["legal"]) or table.hand.timeout_action(0)
            loop.call(table.handle, client, ClientMessage(
                "action", table.hand.hand_no, table.seq, {"action": action}))
    send(loop, table, client, "leave")
    while 0 in table.seats:
        _advance(loop, table, log, 0.1)
    loop.call(table.disconnect, client)


def _a_hand_without_seat_0(loop: VirtualLoop, table: LiveTable, log: _Log) -> None:
    before = int(table.session["hand_no"])
    start = loop.now
    while not (int(table.session["hand_no"]) > before
               and (table.hand is None or table.hand.over)):
        assert loop.now < start + 600, "no hand was dealt"
        _advance(loop, table, log, 0.1)


def _sit(loop: VirtualLoop, table: LiveTable, name: str,
         token: str | None) -> tuple[str, Client]:
    _, new = loop.call(table.join, name, 0, token)
    client = Client(table.seat_for_token(new))
    loop.call(table.connect, client)
    return new, client


def _check_own_hands(table: LiveTable, log: _Log, tokens: dict[str, str]) -> None:
    """Each person's cookie gives seat 0 in exactly the hands they were dealt there."""
    for hand_no, dealt in log.seats.items():
        for name, token in tokens.items():
            want = 0 if log.in_0[hand_no] == name else None
            assert table.seat_in_hand(token, hand_no, dealt) == want, (name, hand_no)


def test_leaving_and_coming_back_to_one_seat_keeps_one_stint() -> None:
    with virtual_server() as (loop, store):
        table, _host, people = holdem_table(loop, store, bots=2, seats=4)
        log = _Log()
        _, p1 = loop.call(table.join, "P1", 1)
        log.p1 = Client(table.seat_for_token(p1))
        loop.call(table.connect, log.p1)
        log.note(table)
        _play_and_leave(loop, table, people[0], log)
        token, client = _sit(loop, table, "Q", None)
        sizes = []
        cycles = 40
        for i in range(cycles):
            _play_and_leave(loop, table, client, log)
            if i % 4 == 3:  # now and then a hand is dealt while seat 0 is empty
                _a_hand_without_seat_0(loop, table, log)
            sizes.append(len(json.dumps(table.session)))
            token, client = _sit(loop, table, "Q", token)
        mine = [st for st in table.session["stints"] if st["digest"] == token_digest(token)]
        # main: 40 stints, the session 115 characters longer a cycle (4,400 in all)
        assert len(mine) == 1
        assert max(sizes) - sizes[0] < 200, sizes
        played = [h for h, who in log.in_0.items() if who == "Q"]
        assert len(played) >= cycles
        assert any(who is None for who in log.in_0.values())  # (the gaps)
        assert mine[0]["first"] == min(played)
        _check_own_hands(table, log, {"Q": token})
        loop.call(table.shutdown)


def test_two_people_taking_turns_in_one_seat_are_capped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Q and R take turns in seat 0 (nothing to extend: each time the other sat
    there since): each keeps their own hands, and once one holds the cap's stints
    their next return is refused, with the reason (main: no bound)."""
    monkeypatch.setattr(seats, "STINTS_PER_PERSON", 3, raising=False)
    with virtual_server() as (loop, store):
        table, _host, people = holdem_table(loop, store, bots=2, seats=4)
        log = _Log()
        _, p1 = loop.call(table.join, "P1", 1)
        log.p1 = Client(table.seat_for_token(p1))
        loop.call(table.connect, log.p1)
        log.note(table)
        _play_and_leave(loop, table, people[0], log)
        tokens: dict[str, str] = {}
        for _ in range(3):
            for name in ("Q", "R"):
                tokens[name], client = _sit(loop, table, name, tokens.get(name))
                _play_and_leave(loop, table, client, log)
        for name in ("Q", "R"):
            digest = token_digest(tokens[name])
            assert sum(st["digest"] == digest for st in table.session["stints"]) == 3
        with pytest.raises(TableError) as refused:
            loop.call(table.join, "Q", 0, tokens["Q"])
        assert refused.value.code == "too_often"
        assert "left this table and come back 3 times" in refused.value.message
        assert "you can watch" in refused.value.message
        with pytest.raises(TableError) as also:  # (no seat chosen: the same)
            loop.call(table.join, "Q", None, tokens["Q"])
        assert also.value.code == "too_often"
        assert 0 not in table.seats
        _check_own_hands(table, log, tokens)
        # R left last: a return to seat 0 extends R's stint there, and is let in.
        tokens["R"], client = _sit(loop, table, "R", tokens["R"])
        _play_and_leave(loop, table, client, log)
        digest = token_digest(tokens["R"])
        assert sum(st["digest"] == digest for st in table.session["stints"]) == 3
        _check_own_hands(table, log, tokens)
        loop.call(table.shutdown)


def test_add_stint_extends_only_the_seats_own_last_stint() -> None:
    """:func:`seats.add_stint` with :func:`seats.mark_left` on their own."""
    session: dict[str, object] = {}
    seats.add_stint(session, "dA", 1, 1, 2)
    seats.mark_left(session, 1, "dA", 2, True)
    seats.add_stint(session, "dA", 1, 4, 5)  # (seat 1 empty in hand 3)
    seats.mark_left(session, 1, "dA", 5, True)
    assert session["stints"] == [{"digest": "dA", "seat": 1, "first": 1, "last": 5}]
    seats.mark_left(session, 1, None, 6, True)  # a computer player sat there
    seats.add_stint(session, "dA", 1, 8, 8)
    seats.mark_left(session, 1, "dA", 8, True)
    seats.mark_left(session, 1, "dA", 9, False)  # back and gone before a deal
    seats.add_stint(session, "dA", 1, 10, 11)
    assert session["stints"] == [{"digest": "dA", "seat": 1, "first": 1, "last": 5},
                                 {"digest": "dA", "seat": 1, "first": 8, "last": 11}]


def test_a_seat_change_past_the_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the cap lowered to 1: P1 moves once (one stint, seat 2's), plays a hand
    in seat 5 and asks to move again: that would be a second stint, refused
    ``too_often`` (main: ``too_soon``, and later let through)."""
    from test_host_tools import end_hand
    from test_seat_change import _six, _told
    monkeypatch.setattr(seats, "STINTS_PER_PERSON", 1, raising=False)
    with virtual_server() as (loop, store):
        table, _host, people = _six(loop, store)
        assert isinstance(table, LiveTable)
        p1 = people[1]
        send(loop, table, p1, "seat_change", seat=4)
        end_hand(loop, table, people)
        assert table.seats[4].row.name == "P1"
        people[4] = p1
        loop.advance(601)
        assert table.hand is not None and table.hand.hand_no == 2
        end_hand(loop, table, people)
        send(loop, table, p1, "seat_change", seat=1)
        [told] = _told(p1)
        assert told["code"] == "too_often"
        assert "changed seats 1 time," in str(told["message"])
        assert len(table.session["stints"]) == 1

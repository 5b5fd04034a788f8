"""A deal that never comes leaves the session as it was (s65-table), on a virtual
clock with the real table (:class:`LiveTable`, its store, its messages).

Before, the deal wrote the moved button into the session as it was offered
(``Dealer._maybe_start_hand``), ahead of the commitment and the seeds: a deal the
engine refused, or a dealer's choice that lapsed (fewer than two players left),
left the button one seat on with no hand played, and the next hand was dealt
from the seat after that (R-C-12: the button moves with each hand dealt).  A
tournament's add-on window closed before the engine's last refusal
(``Seeding._dealt``), so a refused deal closed it with no hand dealt.  And the
seats held at the lapsed offer were kept for the same hand offered again: one
who sat down in between was dealt in and shown the hand in play as a delayed
watcher (no cards of their own) at a table with the watcher delay.

And a void hand (its replay failed at a restore: s64-loop) left the add-on's
window it closed at its deal closed: a player who had not answered lost the
add-on to a hand never played.  Now the window is as before its deal, open until
the next deal (:meth:`Tourney.void_hand`).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_dealers_choice_seats import choice_table, errors, send
from test_table_bots import virtual_server
from test_tournament_addon_server import _to_window
from test_tournament_server import _send
from virtual_table import InlineExecutor, VirtualLoop, seat_people
from web_harness import Player, ServerThread, create_table, join

from rollem.server import host_tools, live_table
from rollem.server.config import parse_config
from rollem.server.game_session import GameSession
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.store import Store


def _refuse_once(monkeypatch: pytest.MonkeyPatch | None) -> list[int]:
    """The engine refuses the next deal (its committed source raises); returns the
    count of refusals (one once it refused).  ``None``: inside :func:`virtual_server`,
    which puts the real source back as it ends (``monkeypatch`` would put back the
    virtual server's own, for the tests after this one)."""
    real = live_table.committed_source
    refused: list[int] = []

    def source(proof: Any) -> Any:
        if not refused:
            refused.append(1)
            raise RuntimeError("the engine refuses this deal")
        return real(proof)

    if monkeypatch is None:
        live_table.committed_source = source  # type: ignore[assignment]
    else:
        monkeypatch.setattr(live_table, "committed_source", source)
    return refused


def _people_table(loop: VirtualLoop, store: Store, **extra: Any) -> tuple[LiveTable,
                                                                          list[Client]]:
    """A 4-seat SDR table of people P0..P2 in seats 0-2 (P0 the host), not started."""
    config = parse_config({
        "game": "sdr", "seats": 4, "bots": 0, "stack": 400, "ante": 1, "small_bet": 2,
        "big_bet": 4, "decision_seconds": 600.0, "time_bank_seconds": 0.0,
        "grace_seconds": 1000.0, "between_hands": 0.5, **extra})
    table, _ = loop.call(LiveTable.create, store, config)
    return table, seat_people(loop, table, 3)


def test_a_refused_deal_leaves_the_button_where_it_was() -> None:
    with virtual_server() as (loop, store):
        refused = _refuse_once(None)
        table, people = _people_table(loop, store)
        send(loop, table, people[0], "start")
        loop.advance(0.1)
        assert refused and table.hand is None  # (dealt again after a second)
        assert table.session["button"] is None  # (main: 0, with no hand dealt)
        loop.advance(1.5)
        assert table.hand is not None and table.hand.hand_no == 1
        # seat 0 deals the first hand (main: seat 1, the button moved twice)
        assert table.session["button"] == 0 == table.hand.hand.button
        loop.call(table.shutdown)


def test_a_dealers_choice_that_lapses_leaves_the_button_to_name_again() -> None:
    with virtual_server() as (loop, store):
        table, _, people = choice_table(loop, store)
        chooser = int(table.session["choice"]["seat"])
        hand_no = int(table.session["choice"]["hand"])
        before = table.session["button"]
        other = (chooser + 1) % 3
        send(loop, table, people[other], "sit_out", out=True)
        send(loop, table, people[chooser], "sit_out", out=True)  # its choice lapses:
        loop.advance(0.2)  # one player left, no hand
        assert table.hand is None and table.session["choice"] is None
        assert table.session["button"] == before  # (main: the chooser's seat)
        for seat in (other, chooser):
            send(loop, table, people[seat], "sit_out", out=False)
        loop.advance(1.0)
        assert errors(people[chooser]) == []
        # the same button names the game of the same hand (main: the next seat)
        choice = table.session["choice"]
        assert choice is not None and int(choice["seat"]) == chooser
        assert int(choice["hand"]) == hand_no
        loop.call(table.shutdown)


def test_a_newcomer_after_a_refused_deal_sees_the_hand_dealt_to_them() -> None:
    """At a table with the watcher delay, one who sits down after a refused deal and
    is dealt into the next is a player of it, not a delayed watcher."""
    with virtual_server() as (loop, store):
        refused = _refuse_once(None)
        table, people = _people_table(loop, store, watcher_delay=True)
        send(loop, table, people[0], "start")
        loop.advance(0.1)
        assert refused and table.hand is None
        _, token = loop.call(table.join, "Dan", 3)
        dan = Client(table.seat_for_token(token))
        loop.call(table.connect, dan)
        loop.advance(1.5)
        assert table.hand is not None and 3 in table.hand.seats
        # (main: True -- Dan was shown the hand he plays in as a delayed watcher)
        assert not host_tools.delayed_viewer(table, 3, False)
        assert host_tools.view_kind(table, dan) == "full"
        loop.call(table.shutdown)


def _end_break_unanswered(loop: VirtualLoop, store: Store) -> tuple[LiveTable, list[Client]]:
    """A tournament in its add-on's break (:func:`_to_window`), ended by the host's
    "Resume now" before either person (P0, P1) answered the add-on."""
    table, people = _to_window(loop, store)
    _send(loop, table, people[0], "host", op="end_break")
    assert table.session["tournament"]["break"] is None
    public = table.tourney.public()
    assert public is not None and public["addon"]["waiting"] == [0, 1]
    return table, people


def test_a_deal_refused_after_the_break_leaves_the_add_on_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine refused the first deal after the add-on's break in its last step
    (``GameSession.of_hand``): the window stays open (main: closed, no hand dealt)."""
    with virtual_server() as (loop, store):
        table, people = _end_break_unanswered(loop, store)
        real = GameSession.of_hand.__func__  # type: ignore[attr-defined]
        refused: list[int] = []

        def of_hand(cls: type[GameSession], *args: Any, **kwargs: Any) -> GameSession:
            if not refused:
                refused.append(1)
                raise RuntimeError("the engine refuses this hand")
            return real(cls, *args, **kwargs)  # type: ignore[no-any-return]

        monkeypatch.setattr(GameSession, "of_hand", classmethod(of_hand))
        hand_no = int(table.session["hand_no"])
        loop.advance(0.5)
        assert refused and table.hand is None and int(table.session["hand_no"]) == hand_no
        assert not table.session["tournament"].get("addon_closed")  # (main: True)
        stack = table.seats[1].row.stack
        _send(loop, table, people[1], "addon", take=True)
        assert table.seats[1].row.stack == stack + 1000
        loop.call(table.shutdown)


def test_a_void_hand_reopens_the_add_on_its_deal_closed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first hand after the add-on's break is void at a restore (its replay
    failed): the window is as if it was never dealt -- open until the next deal, so
    a player who had not answered may take the add-on (main: closed)."""
    with virtual_server() as (loop, store):
        table, _ = _end_break_unanswered(loop, store)
        for _ in range(20):
            if table.hand is not None:
                break
            loop.advance(0.1)
        assert table.hand is not None and table.session["tournament"]["addon_closed"]
        hand_no = table.hand.hand_no
        loop.call(table.shutdown)
        # at the restore the hand in play is replayed off the loop, and fails
        monkeypatch.setattr(GameSession, "costly_setup", staticmethod(lambda setup: True))

        def failing(cls: type[GameSession], *args: Any) -> GameSession:
            raise RuntimeError("this hand cannot be replayed")

        monkeypatch.setattr(GameSession, "restore", classmethod(failing))
        monkeypatch.setattr(live_table, "_SHOWDOWN_THREAD", InlineExecutor())
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        loop.advance(0.05)
        assert again.hand is None and not again.session["in_hand"]  # void
        assert int(again.session["void_hands"]) == 1
        t = again.session["tournament"]
        assert not t["addon_closed"]  # (main: closed)
        assert t["dealt_level"] == 1  # (level 1: the void hand, at level 2, not dealt)
        public = again.tourney.public()
        assert public is not None and public["addon"]["open"]
        back = Client(1)
        loop.call(again.connect, back)
        stack = again.seats[1].row.stack
        _send(loop, again, back, "addon", take=True)
        assert again.seats[1].row.stack == stack + 1000
        # ... and the next deal closes it again
        for _ in range(50):
            if again.hand is not None:
                break
            loop.advance(0.1)
        assert again.hand is not None and again.hand.hand_no == hand_no + 1
        assert again.session["tournament"]["addon_closed"]
        first = Client(0, True)
        loop.call(again.connect, first)
        with pytest.raises(TableError) as err:
            _send(loop, again, first, "addon", take=True)
        assert err.value.code == "addon_closed"
        loop.call(again.shutdown)



def test_a_refused_deal_leaves_the_button_through_the_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through ``rollem serve``'s app (websockets, client seeds, the real
    clock): Ann and two computer players; the engine refuses the first deal."""
    refused = _refuse_once(monkeypatch)
    server = ServerThread(tmp_path / "t.db")
    try:
        tid, host = create_table(server.url, game="holdem", seats=3, bots=2, bot_delay=0,
                                 between_hands=1.0, decision_seconds=300)
        _, ann = join(server.url, tid, "Ann")

        async def first_hand() -> dict[str, Any]:
            async with Player(server.ws_url, tid, ann, host) as a:
                await a.until(lambda st: st["you"]["host"])
                await a.send({"type": "start", "seq": a.state["seq"]})  # type: ignore[index]
                return await a.until(lambda st: st["hand"] is not None, 30)

        st = asyncio.run(first_hand())
        seats = [n for n, s in enumerate(st["table"]["seats"]) if s]
    finally:
        server.stop()
    assert refused and st["hand"]["hand_no"] == 1
    # the first seat dealt in has the button (main: the next one, moved twice)
    assert st["hand"]["button"] == min(seats), (st["hand"]["button"], seats)

"""The host role passes when the host is gone (stop 43), on a virtual clock.

Before: a host who vanished from a private (or password) table -- the tab
closed, the phone dead -- left nobody able to let a late friend in or approve
a rebuy (``not_host``); the role passed only by the host's own **Make host**.
Now, once every page of the host has been closed for ``HOST_AWAY_SECONDS``,
the role passes to the next person clockwise who was let in and has the table
open, and comes back to the host who returns
(:mod:`rollem.server.live_table.host_role`).
"""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import errors, send
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server import host, host_tools
from rollem.server.config import parse_config
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import Store

AWAY = getattr(LiveTable, "HOST_AWAY_SECONDS", 90.0)  # (on the code before: its value)


def friends(loop: VirtualLoop, store: Store, seats: int = 5, bots: int = 1,
            **extra: Any) -> tuple[LiveTable, dict[str, Client]]:
    """A private table, not started: Ann (its creator, her page holding the host
    cookie and seat 0), Bob (seat 1) and Cat (seat 2) let in, a computer player in
    the last seat; each with a page open."""
    config = parse_config({"game": "holdem", "seats": seats, "bots": bots, "stack": 100,
                           "small_bet": 2, "big_bet": 4, "private": True,
                           "grace_seconds": 1000.0, **extra})
    table, _ = loop.call(LiveTable.create, store, config)
    pages: dict[str, Client] = {}
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        number, token = loop.call(table.join, name, seat)
        loop.call(host.after_join, table, number, name == "Ann")
        pages[name] = Client(number, name == "Ann")
        pages[name].token = token  # type: ignore[attr-defined]
        loop.call(table.connect, pages[name])
        if name != "Ann":
            send(loop, table, pages["Ann"], "host", op="approve", seat=number)
    assert table.session.get("waiting", []) == []
    for page in pages.values():
        errors(page)
    return table, pages


def knock(loop: VirtualLoop, table: LiveTable, name: str) -> tuple[int, Client]:
    """A late friend sits down at the private table: they wait to be let in."""
    number, _ = loop.call(table.join, name, None, None, True)
    loop.call(host.after_join, table, number, False)
    page = Client(number)
    loop.call(table.connect, page)
    assert number in table.session["waiting"]
    return number, page


def chat_notices(page: Client) -> list[str]:
    texts = [json.loads(text) for text, _ in page._pending]
    return [line["text"] for m in texts if m["type"] == "chat" for line in m["lines"]
            if line.get("notice")]


def test_a_late_friend_is_let_in_by_the_next_player_once_the_host_is_gone() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        loop.call(table.disconnect, pages["Ann"])  # her phone dies
        dan, dan_page = knock(loop, table, "Dan")
        loop.advance(AWAY - 1.0)
        # Not yet: nobody but the host may let Dan in, and nothing Bob sends hurries it.
        for op in ({"op": "approve", "seat": dan}, {"op": "hand_over", "seat": 1}):
            send(loop, table, pages["Bob"], "host", **op)
            assert errors(pages["Bob"]) == ["not_host"]
        send(loop, table, pages["Bob"], "chat", text="Ann?")
        second = Client(1)  # a new page of Bob's checks the wait, and it is not over
        loop.call(table.connect, second)
        loop.call(table.disconnect, second)
        assert table.table_public()["host_seat"] is None
        assert not pages["Bob"].is_host
        loop.advance(2.0)
        # Bob sits clockwise next to Ann's seat: he hosts now, and everyone is told.
        public = table.table_public()
        assert public["host_seat"] == 1
        assert public["host_note"]["text"] == "Ann is away: Bob hosts now"
        assert pages["Bob"].is_host and not pages["Cat"].is_host and not dan_page.is_host
        assert "Ann is away: Bob hosts now" in chat_notices(pages["Cat"])
        assert table.state(1, True)["you"]["host"] is True
        send(loop, table, pages["Bob"], "host", op="approve", seat=dan)
        assert errors(pages["Bob"]) == []
        assert table.session["waiting"] == []
        assert host_tools.view_kind(table, dan_page) == "full"
        # A stranger's watch request reaches Bob too.
        assert loop.call(host_tools.watch_request, table, "w" * 32, "Eve") == "waiting"
        send(loop, table, pages["Bob"], "host", op="approve_watcher", watcher=1)
        assert errors(pages["Bob"]) == [] and table.session["watch_requests"] == []


def test_a_rebuy_waiting_for_the_gone_host_is_approved_by_the_stand_in() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store, rebuys=True, rebuy_approval=True)
        send(loop, table, pages["Ann"], "host", op="adjust_stack", seat=2, stack=0)
        send(loop, table, pages["Cat"], "rebuy")
        assert errors(pages["Cat"]) == [] and table.session["rebuy_requests"] == [2]
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY + 1.0)
        send(loop, table, pages["Bob"], "host", op="approve_rebuy", seat=2)
        assert errors(pages["Bob"]) == []
        assert table.seats[2].row.stack == 100 and table.session["rebuy_requests"] == []


def test_the_host_who_comes_back_hosts_again() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        ann = pages["Ann"]
        loop.call(table.disconnect, ann)
        loop.advance(AWAY + 1.0)
        assert pages["Bob"].is_host
        ann.closed = False
        loop.call(table.connect, ann)  # her phone is back: the same cookies
        assert ann.is_host and not pages["Bob"].is_host
        public = table.table_public()
        assert public["host_seat"] is None
        assert public["host_note"]["text"] == "Ann is back and hosts again"
        assert "host_returns" not in table.session and "host_away" not in table.session
        send(loop, table, pages["Bob"], "host", op="pause")
        assert errors(pages["Bob"]) == ["not_host"]
        # Gone again: the wait starts again from her second leaving.
        loop.call(table.disconnect, ann)
        loop.advance(AWAY - 1.0)
        assert not pages["Bob"].is_host
        loop.advance(2.0)
        assert pages["Bob"].is_host


def test_a_stand_in_who_leaves_passes_the_role_on_at_once() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store, grace_seconds=AWAY * 3)
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY + 1.0)
        assert table.table_public()["host_seat"] == 1
        loop.call(table.seating.free_seat, 1)  # Bob leaves his seat ("Leave")
        loop.advance(0.1)
        public = table.table_public()
        assert public["host_seat"] == 2 and pages["Cat"].is_host
        assert public["host_note"]["text"] == "Ann is away: Cat hosts now"
        assert not pages["Bob"].is_host  # (his page stays open, as a watcher's)


def test_a_handed_over_host_gone_gives_the_role_to_the_creator_here_until_they_return() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        send(loop, table, pages["Ann"], "host", op="hand_over", seat=2)
        assert pages["Cat"].is_host and not pages["Ann"].is_host
        loop.call(table.disconnect, pages["Cat"])
        loop.advance(AWAY + 1.0)
        assert pages["Ann"].is_host and table.table_public()["host_seat"] is None
        assert table.table_public()["host_note"]["text"] == "Cat is away: Ann hosts now"
        pages["Cat"].closed = False
        loop.call(table.connect, pages["Cat"])
        assert pages["Cat"].is_host and not pages["Ann"].is_host
        assert table.table_public()["host_seat"] == 2


def test_watchers_strangers_and_computer_players_never_get_the_role() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        for name in ("Bob", "Cat"):
            loop.call(table.disconnect, pages[name])
        watcher = Client(None)
        watcher.watch_digest = "d" * 64
        table.session.setdefault("watchers", []).append(
            {"id": 1, "digest": watcher.watch_digest, "name": "Wat"})
        loop.call(table.connect, watcher)
        _dan, dan_page = knock(loop, table, "Dan")  # waits to be let in
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY * 5)
        assert table.table_public()["host_seat"] is None
        assert not any(c.is_host for c in table.all_clients())
        assert table.table_public()["host_note"] is None
        # Bob opens the table again: he was let in before Ann left, so he hosts at once.
        pages["Bob"].closed = False
        loop.call(table.connect, pages["Bob"])
        assert pages["Bob"].is_host and not watcher.is_host and not dan_page.is_host


def test_a_stranger_at_an_open_table_who_sat_down_once_the_host_was_gone_never_hosts() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store, private=False)
        loop.call(table.disconnect, pages["Bob"])
        loop.call(table.disconnect, pages["Cat"])
        loop.call(table.disconnect, pages["Ann"])
        number, _ = loop.call(table.join, "Eve", 3)
        eve = Client(number)
        loop.call(table.connect, eve)
        loop.advance(AWAY * 2)
        assert not eve.is_host and table.table_public()["host_seat"] is None
        pages["Cat"].closed = False
        loop.call(table.connect, pages["Cat"])
        assert pages["Cat"].is_host and table.table_public()["host_seat"] == 2


def test_a_second_page_of_the_host_keeps_the_role() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        laptop = Client(None, True)
        loop.call(table.connect, laptop)
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY * 3)
        assert laptop.is_host and not pages["Bob"].is_host
        assert table.table_public()["host_seat"] is None


def test_a_host_who_is_the_only_person_keeps_the_role() -> None:
    with virtual_server() as (loop, store):
        config = parse_config({"game": "holdem", "seats": 3, "bots": 2, "stack": 100,
                               "small_bet": 2, "big_bet": 4, "private": True})
        table, _ = loop.call(LiveTable.create, store, config)
        number, _ = loop.call(table.join, "Ann", 0)
        ann = Client(number, True)
        loop.call(table.connect, ann)
        loop.call(table.disconnect, ann)
        loop.advance(AWAY * 3)
        assert table.table_public()["host_seat"] is None
        ann.closed = False
        loop.call(table.connect, ann)
        assert ann.is_host


def test_the_wait_counts_on_across_a_restart() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY / 2)
        since = table.session["host_away"]["since"]
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert table.session["host_away"]["since"] == since
        bob = Client(table.seat_for_token(pages["Bob"].token))  # type: ignore[attr-defined]
        loop.call(table.connect, bob)
        loop.advance(AWAY / 2 - 1.0)
        assert not bob.is_host
        loop.advance(2.0)  # 90 s after Ann left, not after the restart
        assert bob.is_host and table.table_public()["host_seat"] == 1
        # ... and the return survives one too.
        table.shutdown()
        table = loop.call(LiveTable.restore, store, table.id)
        loop.call(table.resume)
        assert table.session["host_returns"]["to"] == "creator"
        ann = Client(None, True)
        loop.call(table.connect, ann)
        assert ann.is_host and table.table_public()["host_seat"] is None


def test_the_role_passes_in_a_tournament_and_the_entrant_keeps_the_seat() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store, seats=3, bots=0, tournament="turbo",
                               grace_seconds=10.0)
        send(loop, table, pages["Ann"], "start")
        loop.advance(0.5)
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY + 1.0)
        assert pages["Bob"].is_host and 0 in table.seats  # (an entrant keeps the seat)
        send(loop, table, pages["Bob"], "host", op="pause")
        assert errors(pages["Bob"]) == [] and table.session["host_paused"]


def test_a_creator_who_leaves_the_seat_with_the_page_open_keeps_the_role() -> None:
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        loop.call(table.seating.free_seat, 0)  # Ann's "Leave": her page stays open
        loop.advance(AWAY * 3)
        assert pages["Ann"].is_host and pages["Ann"].seat is None
        assert not pages["Bob"].is_host and table.table_public()["host_seat"] is None
        # Her page closes too: the wait counts from then (she sits nowhere: from seat 0).
        loop.call(table.disconnect, pages["Ann"])
        loop.advance(AWAY + 1.0)
        assert pages["Bob"].is_host
        assert table.table_public()["host_note"]["text"] == "The host is away: Bob hosts now"


def test_a_creator_who_handed_the_role_over_still_sees_a_private_table_unseated() -> None:
    """The HTTP routes let the creator's host cookie see a private table whoever
    hosts (``AppContext.may_see``); the websocket read the role instead, so a
    creator who handed it over and watched without a seat got the locked view."""
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        send(loop, table, pages["Ann"], "host", op="hand_over", seat=1)
        assert errors(pages["Ann"]) == [] and table.table_public()["host_seat"] == 1
        creator = Client(None, True)  # her laptop: the host cookie, no seat
        loop.call(table.connect, creator)
        assert not creator.is_host and creator.host_cookie
        assert host_tools.view_kind(table, creator) == "full"
        stranger = Client(None)
        loop.call(table.connect, stranger)
        assert host_tools.view_kind(table, stranger) == "locked"


def test_a_stand_in_keeps_the_table_going_but_not_the_hosts_settings_seat_or_own_chips() -> None:
    """Decision of stop 44: the role passed without anyone choosing, so a stand-in
    may let people in and pause, but not change the table's password or settings,
    remove the seat of the host away, or give itself chips (refused ``stand_in``,
    nothing changed); the host back has every power again."""
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store, rebuys=True, rebuy_approval=True)
        ann, bob = pages["Ann"], pages["Bob"]
        loop.call(table.disconnect, ann)
        loop.advance(AWAY + 1.0)
        assert bob.is_host and table.session["host_returns"]["away_seat"] == 0
        before = (dict(table.session.get("config_overrides", {})),
                  table.session.get("password"), table.seats[1].row.stack)
        refused = [
            {"op": "password", "password": "mine now"},
            {"op": "config", "config": {"small_bet": 4, "big_bet": 8}},
            {"op": "remove", "seat": 0},
            {"op": "adjust_stack", "seat": 1, "stack": 5000},
        ]
        for op in refused:
            send(loop, table, bob, "host", **op)
            assert errors(bob) == ["stand_in"], op
        assert (dict(table.session.get("config_overrides", {})), table.session.get("password"),
                table.seats[1].row.stack) == before
        assert 0 in table.seats
        # What keeps the table going stays his: a pause, another player's stack.
        send(loop, table, bob, "host", op="pause")
        send(loop, table, bob, "host", op="resume")
        send(loop, table, bob, "host", op="adjust_stack", seat=2, stack=0)
        assert errors(bob) == [] and table.seats[2].row.stack == 0
        # His own rebuy waits for Ann, as Cat's would; he cannot approve it himself.
        send(loop, table, bob, "host", op="adjust_stack", seat=1, stack=0)
        assert errors(bob) == ["stand_in"]
        table.seats[1].row.stack = 0  # (he lost his chips in a hand)
        send(loop, table, bob, "rebuy")
        assert errors(bob) == [] and table.session["rebuy_requests"] == [1]
        assert table.seats[1].row.stack == 0
        send(loop, table, bob, "host", op="approve_rebuy", seat=1)
        assert errors(bob) == ["stand_in"] and table.seats[1].row.stack == 0
        # Ann is back: she hosts, with every power, and answers his request.
        ann.closed = False
        loop.call(table.connect, ann)
        assert ann.is_host and "host_returns" not in table.session
        send(loop, table, ann, "host", op="approve_rebuy", seat=1)
        send(loop, table, ann, "host", op="password", password="friends only")
        assert errors(ann) == [] and table.seats[1].row.stack == 100
        assert table.session.get("password")


def test_a_player_the_host_chose_has_every_power() -> None:
    """**Make host** is the host's own choice: no stand-in limits for the player it
    was handed to (only the role the server passed is limited)."""
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        send(loop, table, pages["Ann"], "host", op="hand_over", seat=1)
        bob = pages["Bob"]
        send(loop, table, bob, "host", op="password", password="bob's table")
        send(loop, table, bob, "host", op="adjust_stack", seat=1, stack=150)
        assert errors(bob) == [] and table.seats[1].row.stack == 150
        assert table.session.get("password")


def test_a_stand_ins_refusals_say_the_settings_stay_and_the_password_stays() -> None:
    """The refusal's words (s64-fresh: "the table's password stay Ann's to change")."""
    with virtual_server() as (loop, store):
        table, pages = friends(loop, store)
        ann, bob = pages["Ann"], pages["Bob"]
        loop.call(table.disconnect, ann)
        loop.advance(AWAY + 1.0)
        assert bob.is_host
        bob._pending.clear()
        said = []
        for op in ({"op": "password", "password": "mine now"},
                   {"op": "config", "config": {"small_bet": 4, "big_bet": 8}}):
            send(loop, table, bob, "host", **op)
            said += [m["message"] for m in (json.loads(t) for t, _ in bob._pending)
                     if m["type"] == "error"]
            bob._pending.clear()
        assert said == [
            "Ann is away and you stand in: the table's password stays Ann's to change "
            "(hosting again on coming back)",
            "Ann is away and you stand in: the table's settings stay Ann's to change "
            "(hosting again on coming back)"]

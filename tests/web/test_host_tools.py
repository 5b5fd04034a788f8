"""The host's tools at the web table (issue 27), on a virtual clock: adjusting a
stack (logged, settled up), rebuys host-approved and capped, private tables and
the table password, the watcher delay of one hand; each survives a restart.
(Over HTTP, on SQLite and PostgreSQL, killed with SIGKILL: test_host_tools_restart.py.)
"""

from __future__ import annotations

import json
from typing import Any

from test_dealers_choice_seats import errors, send
from test_server_staples import fold_out, people_table, restarted
from test_table_bots import virtual_server
from virtual_table import VirtualLoop

from rollem.server import host as host_module
from rollem.server import host_tools
from rollem.server.live_table import Client, LiveTable
from rollem.server.store import token_digest


def end_hand(loop: VirtualLoop, table: LiveTable, people: dict[int, Client]) -> None:
    """Everyone to act folds the hand in play to its end (the tables here wait
    ``between_hands`` = 600 s before the next deal: the time stands still)."""
    assert table.hand is not None
    hand_no = table.hand.hand_no
    while table.hand is not None and table.hand.hand_no == hand_no:
        [seat] = table.hand.pending_seats()
        send(loop, table, people[seat], "action", hand_no, action={"kind": "fold"})
    assert table.hand is None


WAIT = {"between_hands": 600.0}


def line(table: LiveTable, seat: int) -> dict[str, Any]:
    return next(x for x in table.table_public()["ledger"] if x["seat"] == seat)


def test_the_host_adjusts_a_stack_between_hands_logged_and_settled() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, **WAIT)
        # hand 1 (button 0, blinds 1 and 2): all fold to the big blind
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=500)
        assert errors(host) == ["in_hand"]
        end_hand(loop, table, people)
        assert [line(table, s)["stack"] for s in range(4)] == [400, 399, 401, 400]
        for bad, code in ((-1, "bad_stack"), (40_001, "bad_stack"), ("500", "malformed"),
                          (500.0, "malformed"), (True, "malformed"), (399, "bad_stack")):
            send(loop, table, host, "host", op="adjust_stack", seat=1, stack=bad)
            assert errors(host) == [code], bad
        send(loop, table, host, "host", op="adjust_stack", seat=9, stack=500)
        assert errors(host) == ["bad_seat"]
        send(loop, table, people[1], "host", op="adjust_stack", seat=1, stack=500)
        assert errors(people[1]) == ["not_host"]
        assert table.session.get("adjustments") is None
        send(loop, table, host, "host", op="adjust_stack", seat=1, stack=500)
        assert errors(host) == []
        # +101 chips, counted as brought: the net stays -1
        assert line(table, 1) == {"seat": 1, "name": "P1", "brought": 501, "stack": 500,
                                  "net": -1, "left": False, "bot": None}
        [entry] = table.table_public()["adjustments"]
        assert entry == {"seat": 1, "name": "P1", "at": entry["at"], "after_hand": 1,
                         "by": 101, "stack": 500}
        assert entry["at"] == round(loop.time(), 3)
        settle = table.table_public()["settle"]
        assert settle["transfers"] == [{"from": "P1", "to": "P2", "chips": 1, "money": None}]
        # Down to 0 (chips taken off the table): the net is unchanged again.
        send(loop, table, host, "host", op="adjust_stack", seat=2, stack=0)
        assert line(table, 2) == {"seat": 2, "name": "P2", "brought": -1, "stack": 0,
                                  "net": 1, "left": False, "bot": None}
        assert sum(x["net"] for x in table.table_public()["ledger"]) == 0
        table = restarted(loop, store, table, [host, *people.values()])
        assert [x["by"] for x in table.table_public()["adjustments"]] == [101, -401]
        assert line(table, 1)["brought"] == 501 and line(table, 2)["stack"] == 0


def test_rebuys_wait_for_the_host_and_stop_at_the_cap() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuy_approval=True, rebuy_cap=1, **WAIT)
        end_hand(loop, table, people)
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=0)
        send(loop, table, people[3], "rebuy")
        assert errors(people[3]) == []
        assert table.table_public()["rebuy_requests"] == [3]
        assert line(table, 3)["stack"] == 0  # nothing bought yet
        send(loop, table, people[3], "rebuy")
        assert errors(people[3]) == ["already_asked"]
        send(loop, table, host, "host", op="decline_rebuy", seat=3)
        assert errors(people[3]) == ["rebuy_declined"]
        assert table.table_public()["rebuy_requests"] == []
        send(loop, table, host, "host", op="approve_rebuy", seat=3)
        assert errors(host) == ["not_waiting"]
        send(loop, table, people[3], "rebuy")
        # a restart with the request waiting: the host approves after it
        table = restarted(loop, store, table, [host, *people.values()])
        assert table.table_public()["rebuy_requests"] == [3]
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=5)
        send(loop, table, host, "host", op="approve_rebuy", seat=3)
        assert errors(host) == ["has_chips"]  # (refused; the request stays)
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=0)
        send(loop, table, host, "host", op="approve_rebuy", seat=3)
        assert errors(host) == []
        assert line(table, 3) == {"seat": 3, "name": "P3", "brought": 400, "stack": 400,
                                  "net": 0, "left": False, "bot": None}
        assert table.table_public()["rebuy_requests"] == []
        send(loop, table, host, "host", op="adjust_stack", seat=3, stack=0)
        send(loop, table, people[3], "rebuy")
        [text] = [json.loads(t) for t, _ in people[3]._pending if '"error"' in t]
        assert text["code"] == "rebuy_cap"
        assert text["message"].startswith("you have rebought once, the most this table "
                                          "allows (cap 1)")
        send(loop, table, host, "host", op="config", config={"rebuys": False})
        people[3]._pending.clear()
        send(loop, table, people[3], "rebuy")
        assert errors(people[3]) == ["no_rebuys"]


def test_free_rebuys_are_made_at_once_and_counted() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, rebuy_cap=2, **WAIT)
        end_hand(loop, table, people)
        for _ in range(2):
            send(loop, table, host, "host", op="adjust_stack", seat=0, stack=0)
            assert table.state(0)["you"]["rebuy_closed"] is None  # (a Rebuy button)
            send(loop, table, people[0], "rebuy")
            assert errors(people[0]) == [] and line(table, 0)["stack"] == 400
        send(loop, table, host, "host", op="adjust_stack", seat=0, stack=0)
        # the page offers no Rebuy button past the cap, but says why (issue 28's try-out)
        assert table.state(0)["you"]["rebuy_closed"] == (
            "You have rebought twice, the most this table allows (cap 2); the host "
            "may adjust your stack.")
        send(loop, table, people[0], "rebuy")
        assert errors(people[0]) == ["rebuy_cap"]
        digest = table.seats[0].row.token_digest
        assert table.session["rebuys_made"] == {digest: 2}
        # P0 leaves and comes back (their old cookie): their rebuys come with them.
        old_token = "t" * 32
        table.seats[0].row.token_digest = token_digest(old_token)
        table.session["rebuys_made"] = {token_digest(old_token): 2}
        send(loop, table, people[0], "sit_out", out=True)
        send(loop, table, host, "host", op="remove", seat=0)
        assert 0 not in table.seats
        seat, token = loop.call(table.join, "P0", 0, old_token)
        assert line(table, seat)["stack"] == 0
        again = Client(seat)
        loop.call(table.connect, again)
        send(loop, table, again, "rebuy")
        assert errors(again) == ["rebuy_cap"]
        assert table.session["rebuys_made"] == {token_digest(token): 2}


def _texts(client: Client) -> list[dict[str, Any]]:
    out = [json.loads(t) for t, _ in client._pending]
    client._pending.clear()
    return out


def test_a_private_table_refuses_an_unapproved_watcher() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, private=True)
        send(loop, table, people[0], "chat", text="nice hand")
        stranger = Client(None)
        loop.call(table.connect, stranger)
        send(loop, table, people[1], "chat", text="the stranger must not read this")
        fold_out(loop, table, people)  # hands go on: the stranger is told none of it
        [state] = [m for m in _texts(stranger)]
        assert state == {"type": "state", "seq": 0,
                         "table": {"id": table.id, "name": "Home game", "locked": True,
                                   "private": True, "has_password": False,
                                   "closed": False},
                         "you": state["you"], "hand": None}
        assert state["you"]["seat"] is None
        # Its request waits for the host; still nothing.
        token = "w" * 32
        assert loop.call(host_tools.watch_request, table, token, "Wat") == "waiting"
        assert table.table_public()["watch_requests"] == [{"id": 1, "name": "Wat"}]
        stranger.watch_digest = token_digest(token)
        fold_out(loop, table, people)
        assert all(m["table"].get("locked") for m in _texts(stranger) if m["type"] == "state")
        second = Client(None)
        second.watch_digest = token_digest("x" * 32)
        assert loop.call(host_tools.watch_request, table, "x" * 32, "Eve") == "waiting"
        send(loop, table, host, "host", op="reject_watcher", watcher=2)
        send(loop, table, host, "host", op="approve_watcher", watcher=7)
        assert errors(host) == ["not_waiting"]
        table = restarted(loop, store, table, [host, *people.values(), stranger, second])
        send(loop, table, host, "host", op="approve_watcher", watcher=1)
        assert errors(host) == []
        assert table.table_public()["watchers"] == [{"id": 1, "name": "Wat"}]
        loop.advance(0.01)
        seen = [m for m in _texts(stranger) if m["type"] == "state"][-1]
        assert "locked" not in seen["table"] and seen["hand"]["hand_no"] == table.hand.hand_no  # type: ignore[union-attr]
        assert all(m["table"].get("locked") for m in _texts(second) if m["type"] == "state")


def test_a_newcomer_at_a_private_table_waits_and_sees_nothing() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, private=True, start=False)
        send(loop, table, people[3], "sit_out", out=True)
        send(loop, table, host, "host", op="remove", seat=3)  # (a seat to take)
        seat, token = loop.call(table.join, "Dan", None)
        loop.call(host_module.after_join, table, seat, False)  # (as the join route does)
        dan = Client(table.seat_for_token(token))
        loop.call(table.connect, dan)
        assert table.table_public()["waiting"] == [seat]
        assert _texts(dan)[-1]["table"]["locked"]
        send(loop, table, host, "host", op="approve", seat=seat)
        loop.advance(0.01)
        assert "locked" not in _texts(dan)[-1]["table"]


def test_the_table_password_is_kept_hashed_and_checked() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store)
        for bad in ("abc", "x" * 129, 1234):
            send(loop, table, host, "host", op="password", password=bad)
            assert errors(host) == ["bad_password"]
        send(loop, table, host, "host", op="password", password="hunter22")
        send(loop, table, host, "host", op="password", password="other123")
        assert errors(host) == ["rate_limited"]  # (hashing costs: one every 2 s)
        kept = table.session["password"]
        assert set(kept) == {"salt", "hash"} and "hunter22" not in json.dumps(table.session)
        assert table.table_public()["has_password"] and host_tools.gated(table)
        assert host_tools.check_password(table, "hunter22")
        assert not host_tools.check_password(table, "hunter23")
        assert not host_tools.check_password(table, None)
        # A watcher without it sees nothing; with it (a table with only a password)
        # the request is approved at once.
        watcher = Client(None)
        loop.call(table.connect, watcher)
        assert _texts(watcher)[-1]["table"]["locked"]
        assert loop.call(host_tools.watch_request, table, "t" * 32, "Wat") == "approved"
        watcher.watch_digest = token_digest("t" * 32)
        table = restarted(loop, store, table, [host, *people.values(), watcher])
        assert host_tools.check_password(table, "hunter22")
        assert "locked" not in _texts(watcher)[-1]["table"]
        send(loop, table, host, "host", op="password", password=None)
        assert not host_tools.gated(table) and not table.table_public()["has_password"]


def test_a_delayed_watcher_sees_a_hand_only_after_it_ended() -> None:
    with virtual_server() as (loop, store):
        table, host, people = people_table(loop, store, watcher_delay=True, away_after=1)
        watcher = Client(None)
        loop.call(table.connect, watcher)
        assert table.hand is not None and table.hand.hand_no == 1
        send(loop, table, people[3], "action", 1, action={"kind": "call"})
        [seen] = [m for m in _texts(watcher) if m["type"] == "state"][-1:]
        # During hand 1: no hand at all (none ended yet), nobody acting, no clock.
        assert seen["hand"] is None and seen["table"]["hand_in_play"]
        assert all(set(s) & {"acting", "deadline", "bank"} == set()
                   for s in seen["table"]["seats"])
        assert seen["table"]["clocked"] == {} and seen["table"]["choice"] is None
        fold_out(loop, table, people)  # hand 2 is dealt
        hand1 = table.final_hand
        assert hand1 is not None and hand1.hand_no == 1
        loop.advance(0.01)
        text = next(t for t, _ in reversed(watcher._pending) if t.startswith('{"type":"state"'))
        watcher._pending.clear()
        for _ in range(2):  # actions of hand 2: the watcher is told nothing, not even a state
            send(loop, table, people[table.hand.pending_seats()[0]], "action", 2,  # type: ignore[union-attr]
                 action={"kind": "call"})
            loop.advance(0.01)
        assert table.hand is not None and len(table.hand.hand.actions) >= 2
        assert _texts(watcher) == []
        send(loop, table, watcher, "sync")
        loop.advance(0.01)
        assert _texts(watcher) == [json.loads(text)]  # (the same, its number too)
        # The clock acts for the next player and sits them out as away: not told either.
        late = table.hand.pending_seats()[0]  # type: ignore[union-attr]
        loop.advance(601.0)
        assert late in table.table_public()["idle_away"]
        assert table.hand is not None and table.hand.hand_no == 2
        assert _texts(watcher) == []
        seen = json.loads(text)
        # Hand 1 as it ended, exactly as a watcher sees it; nothing of hand 2.
        assert seen["hand"] == json.loads(hand1.view_json(None, hand1.player_names(
            table.names())))
        assert seen["hand"]["result"] is not None and '"hand_no":2' not in text
        assert seen["seq"] == table.session["ended_seq"] < table.seq
        # A seated player sees hand 2 as always.
        assert table.state(0)["hand"]["hand_no"] == 2
        table = restarted(loop, store, table, [host, *people.values(), watcher])
        seen = [m for m in _texts(watcher) if m["type"] == "state"][-1]
        assert seen["hand"]["hand_no"] == 1 and seen["table"]["hand_in_play"]


def test_host_tool_messages_take_only_their_fields() -> None:
    import pytest

    from rollem.server.protocol import ProtocolError, parse_message

    for text in ('{"type": "host", "op": "adjust_stack", "seat": 1, "stack": 5, "by": 1}',
                 '{"type": "host", "op": "password", "password": "abcd", "seat": 1}',
                 '{"type": "host", "op": "approve_watcher", "seat": 1}'):
        with pytest.raises(ProtocolError) as err:
            parse_message(text)
        assert err.value.code == "unknown_field"
    with pytest.raises(ProtocolError) as err:
        parse_message('{"type": "host", "op": "password", "password": "' + "x" * 5000 + '"}')
    assert err.value.code == "too_large"


def test_the_session_phhs_of_a_game_without_a_phh_code_holds_own_copies() -> None:
    """Stop, Drop and Roll has no PHH variant code: each hand of P0's bulk file is
    their own copy in rollem's layout, which rollem's own-copy reader replays."""
    import tomllib

    from test_table_bots import new_table, passive, play

    from rollem.history_copy import own_copy_hand
    from rollem.server.game_session import player_names
    from rollem.server.routes_session import bulk_phhs

    with virtual_server() as (loop, store):
        table, people = new_table(loop, store, bots=2)
        play(loop, [(table, people, passive)], 2)
        mine = []
        for hand_no in store.hand_numbers(table.id):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and row.result is not None
            mine.append((hand_no, 0, row, player_names(row.setup, table.names())))
        actions = {h: store.load_actions(table.id, h) for h, *_ in mine}
        text = bulk_phhs(mine, actions, left_out=0)
        assert text.startswith("# rollem: one player's own copies")
        bulk = tomllib.loads(text)
        assert sorted(bulk, key=int) == ["1", "2"]
        for key, (hand_no, _, row, names) in zip(sorted(bulk, key=int), mine, strict=True):
            copy = bulk[key]
            assert copy["_hand"] == hand_no and copy["variant"] == "rollem-sdr"
            assert copy["_redacted_for"] == 0 and copy["players"] == names
            hand = own_copy_hand({k: v for k, v in copy.items() if k != "_hand"})
            # replayed, seat 0 ends where the stored result says
            assert hand.stacks[0] == copy["starting_stacks"][0] + row.result["net"]["0"]
            assert sum(row.result["net"].values()) == 0
            # the others' hidden cards stay hidden: only ?? or shown cards
            assert "??" in text
        assert bulk_phhs(mine[1:], actions, left_out=1).count("left out") == 1


def test_the_session_phhs_keeps_hands_with_no_phh_form_in_rollems_layout(
        monkeypatch: Any) -> None:
    """Hold'em no limit, 4 people: hand 1 plain (standard PHH, ``NT``, which PokerKit
    replays to the copy's stacks), hand 2 with the button's Mississippi straddle and
    hand 3 run twice (neither has a PHH form: each is P0's own copy in rollem's
    layout, which rollem replays to the stored nets); each table named by its hand
    number, with ``_hand`` (rollem.phh.write_session_phhs, issue 29).  A copy the
    own-copy checker refused (never seen) would be kept in rollem's layout."""
    import tomllib
    import warnings

    import pokerkit
    import tomli_w

    from rollem.phh import replay_table
    from rollem.server.game_session import player_names
    from rollem.server.routes_session import bulk_phhs

    with virtual_server() as (loop, store):
        table, _host, people = people_table(loop, store, seats=4, structure="no-limit",
                                            straddle="mississippi", run_twice=True)
        assert table.hand is not None and table.hand.hand.button == 0
        send(loop, table, people[1], "straddle", on=True)  # (hand 2's button)
        fold_out(loop, table, people)
        assert table.hand is not None and table.hand.hand.button == 1
        posted = [(e.seat, e.data.get("blind")) for e in table.hand.hand.events
                  if e.kind == "blind"]
        assert posted == [(2, "small blind"), (3, "big blind"), (1, "straddle")]
        send(loop, table, people[1], "straddle", on=False)
        fold_out(loop, table, people)
        hand = table.hand
        assert hand is not None and hand.hand_no == 3
        [first] = hand.pending_seats()
        all_in = hand.hand.stacks[first] + hand.hand.bets[first]
        send(loop, table, people[first], "action", 3, action={"kind": "raise", "to": all_in})
        while hand.hand.pending is not None and hand.hand.pending.kind == "bet":
            [seat] = hand.pending_seats()
            send(loop, table, people[seat], "action", 3, action={"kind": "call"})
        assert hand.hand.pending is not None and hand.hand.pending.kind == "run_twice"
        for seat in sorted(hand.pending_seats()):
            send(loop, table, people[seat], "action", 3,
                 action={"kind": "run_twice", "agree": True})
        assert table.final_hand is not None and table.final_hand.hand_no == 3
        assert len(table.final_hand.hand.extra["run_twice"]["runs"]) == 2
        mine = []
        for hand_no in (1, 2, 3):
            row = store.load_hand(table.id, hand_no)
            assert row is not None and row.result is not None
            mine.append((hand_no, 0, row, player_names(row.setup, table.names())))
        actions = {h: store.load_actions(table.id, h) for h, *_ in mine}
        bulk = tomllib.loads(bulk_phhs(mine, actions, left_out=0))
    assert list(bulk) == ["1", "2", "3"]
    assert [bulk[k]["_hand"] for k in bulk] == [1, 2, 3]
    assert [bulk[k]["variant"] for k in bulk] == ["NT", "rollem-holdem", "rollem-holdem"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(tomli_w.dumps(bulk["1"])))
    assert list(states[-1].stacks) == bulk["1"]["finishing_stacks"]
    # seat 1, the button, straddled 4 (P0 is PHH's p1 in rollem's layout: seat 0)
    assert bulk["2"]["blinds_or_straddles"] == [0, 4, 1, 2]
    assert bulk["2"]["_options"]["straddlers"] == [1]
    assert [len(run["board"]) for run in bulk["3"]["_result"]["runs"]] == [5, 5]
    assert "p1 rit yes" in bulk["3"]["actions"]
    assert bulk["2"]["_redacted_for"] == bulk["3"]["_redacted_for"] == 0
    for (hand_no, _, row, names), key in zip(mine, bulk, strict=True):
        entry = replay_table(bulk[key])
        nets = {who: f - s for who, f, s in zip(entry["players"], entry["finishing_stacks"],
                                                entry["starting_stacks"], strict=True)}
        assert nets == {names[int(s)]: net for s, net in row.result["net"].items()}, hand_no
    from rollem import history_copy
    from rollem.history import HistoryError

    def refused(data: Any) -> Any:
        raise HistoryError("made up")

    monkeypatch.setattr(history_copy, "own_copy_hand", refused)
    kept = tomllib.loads(bulk_phhs(mine[:1], actions, left_out=0))
    assert kept["1"]["_hand"] == 1 and kept["1"]["variant"] == "rollem-holdem"
    assert kept["1"]["_redacted_for"] == 0 and "????" in kept["1"]["actions"][0]

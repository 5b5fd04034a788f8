"""The add-on at the web table (stop 60), on a virtual clock: when the last rebuy
level ends the table takes a break (the schedule's, or a 2-minute one of its
own), the computer players answer at once, each person still in may take the
add-on once (its chips on the stack, its price in the pool, said in the chat),
and the next deal closes it; bad input is refused with nothing changed."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from test_table_bots import passive, virtual_server
from test_tournament_server import SCHEDULE, _send, _step, _table
from virtual_table import VirtualLoop

from rollem.server.config import ConfigError, parse_config
from rollem.server.live_table import Client, LiveTable, TableError
from rollem.server.routes_session import ledger_csv_text
from rollem.server.store import Store

DEEP = SCHEDULE.replace("stack = 60", "stack = 900")
"""Three one-minute levels, no break in the schedule, 900 chips each."""


def _to_window(loop: VirtualLoop, store: Store, **extra: Any) -> tuple[LiveTable, list[Client]]:
    """Rebuys in level 1, an add-on of 1000 chips for 5; played (calling down)
    until the break after level 1 begins."""
    table, people = _table(loop, store, **{"bot_level": "random", "tournament_schedule": DEEP,
                                           "rebuy_levels": 1, "addon_chips": 1000,
                                           "addon_price": 5, **extra})
    start = loop.now
    while table.session["tournament"].get("break") is None:
        assert loop.now < start + 120, "no break began"
        _step(loop, table, people, passive)
        public = table.tourney.public()
        if table.hand is not None and not table.hand.over:  # (the offer is made between
            # hands: the one played when level 1's time ran out is played out first)
            assert public is not None and public["addon"]["open"] is False
    return table, people


def _chips(table: LiveTable) -> int:
    return sum(s.row.stack for s in table.seats.values()) + int(
        table.session.get("carried") or 0)


def _chat(table: LiveTable) -> list[str]:
    return [str(line.get("text")) for line in table.session.get("chat", [])]


def test_the_add_on_window_is_a_break_the_bots_answer_and_people_take_it_once() -> None:
    with virtual_server() as (loop, store):
        table, people = _to_window(loop, store)
        t = table.session["tournament"]
        assert t["break"]["addon"] and t["break"]["seconds"] == 120  # (the add-on's own)
        rebuys = sum(int(n) for n in t["rebuys"].values())
        public = table.tourney.public()
        assert public is not None
        addon = public["addon"]
        # both computer players hold under 3 x 1000 chips: they took it at once
        assert addon["open"] and addon["taken"] == [2, 3] and addon["waiting"] == [0, 1]
        assert public["prize_pool"] == 10 * (4 + rebuys) + 2 * 5
        assert sum(1 for line in _chat(table) if "takes the add-on: +1000 chips" in line) == 2
        before = table.seats[0].row.stack
        _send(loop, table, people[0], "addon", take=True)
        assert table.seats[0].row.stack == before + 1000
        assert table.seats[0].row.brought == 900 + 1000
        assert _chips(table) == 900 * (4 + rebuys) + 3 * 1000  # every chip accounted for
        assert table.tourney.public()["prize_pool"] == 10 * (4 + rebuys) + 3 * 5  # type: ignore[index]
        assert _chat(table)[-1] == ("P0 takes the add-on: +1000 chips, 5 into the prize "
                                   f"pool (now {10 * (4 + rebuys) + 15}).")
        state = (dict(table.session["tournament"]), table.seats[0].row.stack)
        with pytest.raises(TableError, match="one a player") as err:
            _send(loop, table, people[0], "addon", take=True)
        assert err.value.code == "taken"
        with pytest.raises(TableError, match="'take' must be true") as err:
            _send(loop, table, people[1], "addon", take="yes")
        assert err.value.code == "malformed"
        assert (table.session["tournament"], table.seats[0].row.stack) == state
        hands = int(table.session["hand_no"])
        _send(loop, table, people[1], "addon", take=False)  # everyone answered: play resumes
        assert _chat(table)[-1].endswith("declines the add-on.")
        assert table.session["tournament"]["break"] is None
        for _ in range(20):
            _step(loop, table, people, passive)
        assert int(table.session["hand_no"]) > hands
        assert table.session["tournament"]["addon_closed"]
        assert table.tourney.public()["addon"]["open"] is False  # type: ignore[index]
        # the ledger and its CSV count the add-ons
        lines = table.tourney.public()["ledger"]  # type: ignore[index]
        assert [line["addon"] for line in lines] == [True, False, True, True]
        assert lines[0]["paid"] == 10 * (1 + int(t["rebuys"].get("0", 0))) + 5
        rows = list(csv.DictReader(io.StringIO(ledger_csv_text(
            {"tournament": table.tourney.public()}))))
        assert [r["addon"] for r in rows] == ["yes", "no", "yes", "yes"]
        # each hand's history records the add-ons taken by then
        row = store.load_hand(table.id, int(table.session["hand_no"]))
        assert row is not None
        assert row.setup["tournament"]["addons"] == [0, 2, 3]
        assert row.setup["tournament"]["addon_chips"] == 1000
        loop.call(table.shutdown)


def test_the_add_on_is_refused_outside_its_window_and_changes_nothing() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, tournament_schedule=DEEP, rebuy_levels=1,
                               addon_chips=1000, addon_price=5)
        stacks = [s.row.stack for s in table.seats.values()]
        with pytest.raises(TableError, match="offered once the rebuys close, at the end of "
                                             "level 1") as err:
            _send(loop, table, people[0], "addon", take=True)
        assert err.value.code == "addon_closed"
        with pytest.raises(TableError, match="the add-on is not open"):
            _send(loop, table, people[1], "addon", take=False)
        assert [s.row.stack for s in table.seats.values()] == stacks
        assert table.tourney.public()["prize_pool"] == 40  # type: ignore[index]
        loop.call(table.shutdown)
        cash, people = _table(loop, store, tournament="", tournament_schedule="")
        with pytest.raises(TableError, match="cash game") as err:
            _send(loop, cash, people[0], "addon", take=True)
        assert err.value.code == "not_tournament"
        loop.call(cash.shutdown)


def test_a_schedule_break_is_the_window_and_runs_its_time() -> None:
    """With a break of its own after the last rebuy level, that break is the
    window, and it is not cut short when everyone has answered."""
    schedule = DEEP.replace("big_bet = 4\nminutes = 1\n",
                            "big_bet = 4\nminutes = 1\nbreak = 3\n", 1)
    with virtual_server() as (loop, store):
        table, people = _to_window(loop, store, tournament_schedule=schedule)
        pause = table.session["tournament"]["break"]
        assert pause["seconds"] == 180 and not pause.get("addon")
        _send(loop, table, people[0], "addon", take=False)
        _send(loop, table, people[1], "addon", take=True)
        assert table.session["tournament"]["break"] is not None  # (the schedule's 3 minutes)
        assert table.tourney.public()["addon"]["waiting"] == []  # type: ignore[index]
        loop.call(table.shutdown)


def test_the_host_sets_an_add_on_with_rebuys_only() -> None:
    base = {"game": "sdr", "seats": 4, "tournament": "turbo", "buy_in": 20}
    assert parse_config({**base, "rebuy_levels": 2, "addon_chips": 100}).addon_price == 20
    config = parse_config({**base, "rebuy_levels": 2, "addon_chips": 100, "addon_price": 7})
    assert (config.addon_chips, config.addon_price) == (100, 7)
    assert parse_config(base).addon_chips == 0  # off by default
    with pytest.raises(ConfigError, match="set rebuy_levels"):
        parse_config({**base, "addon_chips": 100})
    with pytest.raises(ConfigError, match="addon_chips must be from 0 to 1000000"):
        parse_config({**base, "rebuy_levels": 2, "addon_chips": -5})
    with pytest.raises(ConfigError, match="addon_price must be a whole number"):
        parse_config({**base, "rebuy_levels": 2, "addon_chips": 5, "addon_price": 1.5})


def test_the_host_changes_the_add_on_until_the_rebuys_close() -> None:
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, tournament_schedule=DEEP, rebuy_levels=1,
                               addon_chips=1000, addon_price=5)
        host, guest = people
        with pytest.raises(TableError):  # (the host's only)
            _send(loop, table, guest, "host", op="config", config={"addon_chips": 5})
        # during level 1 (a hand in play or not) it applies at once
        _send(loop, table, host, "host", op="config",
              config={"addon_chips": 400, "addon_price": 8})
        assert (table.config.addon_chips, table.config.addon_price) == (400, 8)
        assert "the add-on from +1000 chips for 5 to +400 chips for 8" in _chat(table)[-1]
        assert "addon_chips" not in (table.session.get("config_next") or {})
        with pytest.raises(TableError, match="Add-on chips must be from 0 to 1000000, not -1"):
            _send(loop, table, host, "host", op="config", config={"addon_chips": -1})
        start = loop.now
        while table.session["tournament"].get("break") is None:
            assert loop.now < start + 120, "no break began"
            _step(loop, table, people, passive)
        assert table.tourney.public()["addon"]["chips"] == 400  # type: ignore[index]
        with pytest.raises(TableError, match="cannot change addon_chips: the rebuys closed "
                                             "at the end of level 1") as err:
            _send(loop, table, host, "host", op="config", config={"addon_chips": 50})
        assert err.value.code == "bad_config" and table.config.addon_chips == 400
        # the same value is no change: the rest of a Change still goes through
        _send(loop, table, host, "host", op="config",
              config={"addon_chips": 400, "straddle": "off"})
        loop.call(table.shutdown)
        cash, people = _table(loop, store, tournament="", tournament_schedule="")
        with pytest.raises(TableError, match="an add-on is a tournament's"):
            _send(loop, cash, people[0], "host", op="config", config={"addon_chips": 50})
        loop.call(cash.shutdown)


def test_a_restart_in_the_add_ons_break_keeps_who_answered() -> None:
    with virtual_server() as (loop, store):
        table, people = _to_window(loop, store)
        _send(loop, table, people[0], "addon", take=True)
        chips, pool = _chips(table), table.tourney.public()["prize_pool"]  # type: ignore[index]
        loop.call(table.shutdown)
        loop.advance(5)
        again = loop.call(LiveTable.restore, store, table.id)
        loop.call(again.resume)
        back = [Client(0), Client(1)]
        for client in back:
            loop.call(again.connect, client)
        public = again.tourney.public()
        assert public is not None and public["prize_pool"] == pool and _chips(again) == chips
        assert public["addon"]["taken"] == [0, 2, 3] and public["addon"]["waiting"] == [1]
        assert again.tourney.break_words().startswith("Break for the add-on: 1:")  # type: ignore[union-attr]
        with pytest.raises(TableError, match="one a player"):
            _send(loop, again, back[0], "addon", take=True)
        _send(loop, again, back[1], "addon", take=True)
        assert _chips(again) == chips + 1000
        assert again.session["tournament"]["break"] is None  # (everyone answered)
        loop.call(again.shutdown)


def test_no_deal_is_made_while_the_add_on_may_still_grow_the_pool() -> None:
    """s60-safe2: a deal's shares are worked out from the stacks and the prize pool;
    an add-on taken after them grew both, the shares no longer added up to the pool
    and the last agreement raised (``ValueError`` out of the message handler: the
    deal could never be made).  As with a rebuy still open: no deal is proposed
    while anyone may still answer the add-on, and one proposed before its window
    opened is dropped when the hand that closed the rebuys ends."""
    with virtual_server() as (loop, store):
        table, people = _to_window(loop, store, seats=3, bots=1)  # (3 left: a deal's size)
        public = table.tourney.public()
        assert public is not None and public["addon"]["waiting"] == [0, 1]
        assert public["deal_open"] is False  # (the page offers no deal)
        with pytest.raises(TableError, match="a deal waits for the add-on: P0 and P1 may "
                                             "still take it, until play resumes") as err:
            _send(loop, table, people[0], "deal", op="propose", method="icm")
        assert err.value.code == "too_early" and table.session["tournament"]["proposal"] is None
        _send(loop, table, people[0], "addon", take=True)
        _send(loop, table, people[1], "addon", take=False)
        for _ in range(5):  # (play resumed: the window closed with the deal)
            _step(loop, table, people, passive)
        assert table.session["tournament"]["addon_closed"]
        if table.hand is not None:  # (a proposal in a hand is worked out at its end)
            for _ in range(600):
                _step(loop, table, people, passive)
                if table.hand is None:
                    break
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        offer = table.session["tournament"]["proposal"]["offer"]
        assert sum(offer.values()) == table.tourney.public()["prize_pool"]  # type: ignore[index]
        _send(loop, table, people[1], "deal", op="agree", offer=offer)
        assert table.session["tournament"]["over"]
        loop.call(table.shutdown)



def test_a_deal_proposed_in_the_hand_that_closed_the_rebuys_is_dropped() -> None:
    """s60-safe2: proposed while level 1 ran out, it was worked out at that hand's
    end from the stacks before the add-on (as above)."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store, **{
            "seats": 3, "bots": 1, "bot_level": "random", "tournament_schedule": DEEP,
            "rebuy_levels": 1, "addon_chips": 1000, "addon_price": 5})
        start = loop.now
        while not (table.hand is not None and not table.hand.over
                   and table.tourney.clock_seconds() > 57):
            assert loop.now < start + 120, "no hand in play at the end of level 1"
            _step(loop, table, people, passive)
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        assert table.session["tournament"]["proposal"]["offer"] is None  # (after the hand)
        while not table.tourney.break_due():  # (the people think: level 1's time runs out)
            loop.advance(0.5)
        while table.session["tournament"].get("break") is None:
            assert loop.now < start + 240, "no break began"
            _step(loop, table, people, passive)
        assert table.session["tournament"]["proposal"] is None  # (dropped at that hand's end)
        _send(loop, table, people[1], "addon", take=True)
        assert 1 in table.tourney.public()["addon"]["taken"]  # type: ignore[index]
        loop.call(table.shutdown)


def test_the_same_add_on_sent_as_text_is_no_change_in_the_window() -> None:
    """s60-safe2: ``"1000"`` is read as 1000 (as before the window), so it is the
    value set and passes; it was compared as text and refused."""
    with virtual_server() as (loop, store):
        table, people = _to_window(loop, store)
        _send(loop, table, people[0], "host", op="config",
              config={"addon_chips": "1000", "addon_price": "5"})
        assert (table.config.addon_chips, table.config.addon_price) == (1000, 5)
        with pytest.raises(TableError, match="cannot change addon_chips: the rebuys "
                                             "closed") as err:
            _send(loop, table, people[0], "host", op="config", config={"addon_chips": "1001"})
        assert err.value.code == "bad_config" and table.config.addon_chips == 1000
        with pytest.raises(TableError, match="cannot change addon_price"):
            _send(loop, table, people[0], "host", op="config", config={"addon_price": -1})
        loop.call(table.shutdown)

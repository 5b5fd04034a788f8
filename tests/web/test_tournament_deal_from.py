"""A tournament deal is for the final players (stop 56, branch s56-night): the
web table offered **Propose ICM** and **Propose chip-chop** from the first hand
of a full field, and the server took a proposal at any time (a friend's click at
hand 1 of eight stopped the table for every player's answer).  Now a deal may
be proposed once no more players are left than the places paid plus one (the
bubble), and never fewer than 3 (``Tournament.deal_from``): the server refuses
one before (``too_early``), the page offers one only then, and How to play says
from when."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit
from test_table_bots import virtual_server
from test_tournament_server import SCHEDULE, _send, _step, _table
from web_harness import ServerThread

from rollem.server.live_table import TableError


def test_deal_from_is_the_places_paid_and_one_at_least_three() -> None:
    from rollem.tournament.session import deal_from

    assert deal_from([100]) == 3            # 2-3 entrants: three may always chop
    assert deal_from([65, 35]) == 3         # 4-5 entrants: the bubble is 3rd
    assert deal_from([50, 30, 20]) == 4     # 6-8 entrants
    assert deal_from([45, 27, 18, 10]) == 5
    assert deal_from([60, 40, 0]) == 3      # (a place paid nothing is not paid)


def test_a_deal_proposed_before_the_final_players_is_refused() -> None:
    """Four entrants paid 65/35: at four left a proposal is refused (nothing
    changes: no proposal, the clock runs); once one busts (three left) it is
    taken."""
    with virtual_server() as (loop, store):
        table, people = _table(loop, store)
        while table.hand is None:
            _step(loop, table, people)
        public = table.tourney.public()
        assert public is not None and public["deal_from"] == 3 and len(public["left"]) == 4
        with pytest.raises(TableError, match=r"a deal is for the final players: propose one "
                           r"when 3 or fewer are left \(4 are now\)") as err:
            _send(loop, table, people[0], "deal", op="propose", method="icm")
        assert err.value.code == "too_early"
        state = table.session["tournament"]
        assert state["proposal"] is None and table.tourney.public()["running"]  # type: ignore[index]
        # the same play as test_tournament_bot_declines: to the end of the hand
        # that busts seat 1
        while table.hand is not None or table.seats[1].row.stack > 0:
            assert loop.now < 1_000_000 + 300, "seat 1 never busted"
            _step(loop, table, people)
        chips = {s: table.seats[s].row.stack for s in range(4)}
        assert chips == {0: 8, 1: 0, 2: 51, 3: 181}
        _send(loop, table, people[0], "deal", op="propose", method="icm")
        # (P0 is the only person left and the computer players agree to ICM: done)
        public = table.tourney.public()
        assert public is not None and public["over"] and public["deal"]
        payouts = {int(s): v for s, v in public["payouts"].items()}
        assert sorted(payouts) == [0, 1, 2, 3] and payouts[1] == 0
        assert sum(payouts.values()) == 40 and payouts[3] > payouts[2] > payouts[0] > 0
        loop.call(table.shutdown)


def _first_bust(seed: int, propose: int | None) -> tuple[int, list[int], Any]:
    """Play a 4-entrant tournament (50/30/20: a deal open to all four; rebuys in
    level 1) on deal seed ``seed`` to the end of the hand of its first bust-out;
    P0 proposes an ICM deal at the start of hand ``propose`` (a hand in play: it
    is worked out when that hand ends).  Returns (that hand's number, the seats
    busted in it, the tournament's public state after it)."""
    with virtual_server(deal_seed=seed) as (loop, store):
        table, people = _table(loop, store, payouts=[50, 30, 20], rebuy_levels=1)
        state = table.session["tournament"]
        while not state["busts"] and loop.now < 1_000_000 + 600:
            while table.hand is None:
                _step(loop, table, people)
            if table.hand.hand_no == propose:
                _send(loop, table, people[0], "deal", op="propose", method="icm")
                assert state["proposal"] is not None and state["proposal"]["offer"] is None
            while table.hand is not None:
                _step(loop, table, people)
        hand = int(table.session["hand_no"])
        out = [b[1] for b in state["busts"]]
        public = table.tourney.public()
        public["proposal_now"] = state["proposal"]  # type: ignore[index]
        public["told"] = [e["text"] for e in table.session.get("chat", [])  # type: ignore[index]
                          if e.get("notice")]
        public["note"] = (table.session.get("host_note") or {}).get("text")  # type: ignore[index]
        public["names"] = {s: table.seats[s].row.name for s in out}  # type: ignore[index]
        loop.call(table.shutdown)
        return hand, out, public


def test_a_proposal_is_dropped_when_its_hand_busts_one_who_may_rebuy() -> None:
    """A deal proposed during a hand is worked out when the hand ends; when that
    hand busted a player who may still rebuy (the first level), it is dropped
    instead (a deal waits for the rebuys), and the proposer is not barred."""
    for seed in range(1, 20):
        hand, out, public = _first_bust(seed, None)
        if out and 0 not in out and public["rebuy_open"]:
            break
    else:
        raise AssertionError("no seed busts another than P0 in level 1")
    again, out_again, public = _first_bust(seed, hand)
    assert (again, out_again) == (hand, out)  # (a proposal in a hand changes no play)
    assert public["may_rebuy"] == sorted(out) and not public["over"]
    assert public["proposal_now"] is None and not public["deal_open"]
    assert public["next_proposal"] == {}
    # everyone is told why (s59-felt: the proposal vanished without a word)
    names = [public["names"][s] for s in sorted(out)]
    assert len(names) == 1  # (this seed busts one player)
    words = f"The deal was dropped: {names[0]} busted."
    assert public["told"] == [words] and public["note"] == words
    assert "dropped" not in " ".join(_first_bust(seed, None)[2]["told"])  # (no proposal: no word)


def _deal_buttons(page: Any) -> int:
    return int(page.locator("[data-deal=icm], [data-deal=chip_chop]").count())


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_deal_buttons_show_at_the_final_players_only(browser: Any, tmp_path: Path,
                                                         size: str) -> None:
    """Ann and three computer players (65/35: a deal from 3 left): in hand 1 her
    panel offers no deal, and How to play says from when; at a table of three
    (Ann and two computer players) the buttons are there from the first hand."""
    server = ServerThread(tmp_path / "deal.db")
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900")
        tid, host = new_table(server.url, game="sdr", seats=4, bots=3, buy_in=10,
                              tournament="custom", tournament_schedule=schedule)
        ctx = context(browser, size)
        ann = open_as_host(ctx, server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        ann.wait_for_selector("#level-clock")
        ann.wait_for_selector("#controls button")  # (hand 1 is in play: her turn)
        assert "4 of 4 left" in ann.inner_text(".tourney-pool")
        assert _deal_buttons(ann) == 0 and "Deal:" not in ann.inner_text("#tourney")
        ann.click("#rules-btn")
        row = ann.locator("tr:has(th:text-is('Deal'))")
        row.first.wait_for()
        assert row.first.inner_text().split("\t")[-1].strip() == (
            "the players left may agree one when 3 or fewer are left")
        row.first.scroll_into_view_if_needed()
        shot(ann, f"deal-from-{size}-four-left")
        ann.click("#rules-close")
        # a table of three: a deal may be proposed from the first hand
        tid3, host3 = new_table(server.url, game="sdr", seats=3, bots=2, buy_in=10,
                                tournament="custom", tournament_schedule=schedule)
        three = open_as_host(ctx, server.url, tid3, host3)
        sit(three, "Ann")
        three.click("#start-btn")
        three.wait_for_selector("[data-deal=icm]:enabled")
        assert _deal_buttons(three) == 2 and "3 of 3 left" in three.inner_text(".tourney-pool")
        box = None
        for _ in range(50):  # (the panel is drawn again at each state: no box between)
            box = three.locator("[data-deal=chip_chop]").bounding_box()
            if box is not None:
                break
            three.wait_for_timeout(20)
        assert box is not None and box["x"] + box["width"] <= three.viewport_size["width"]
        shot(three, f"deal-from-{size}-three-left")
        end = time.monotonic() + 5
        while time.monotonic() < end and _deal_buttons(ann):
            ann.wait_for_timeout(50)
        assert _deal_buttons(ann) == 0  # (and still none at the four-handed table)
    finally:
        server.stop()


SHOVE = """
stack = 3
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 30
[[levels]]
ante = 2
small_bet = 4
big_bet = 8
minutes = 30
"""
"""Three chips a player, an ante of 1 and bets of 2: a bet and a call put both all-in."""


def _shove(page: Any, fold: bool = False) -> None:
    """Bet (all-in here) or call where the page offers it, else as the tests'
    passive player; ``fold``: check, else fold, instead."""
    from table_ui import decision_kind, take_decision

    kind = decision_kind(page)
    if kind is None:
        return
    if fold and kind in ("bet", "fold-confirm"):
        for action in ("check", "fold"):
            button = page.locator(f"#controls [data-action={action}]")
            if button.count():
                button.first.click()
                return
    for action in ("bet", "call"):
        button = page.locator(f"#controls [data-action={action}]")
        if kind == "bet" and button.count():
            button.first.click()
            return
    take_decision(page, kind, "sdr")


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_deal_waits_for_a_rebuy_and_says_for_whom(browser: Any, tmp_path: Path,
                                                      size: str) -> None:
    """Ann, Bob and Cat, 3 chips each, rebuys in level 1: one busts; the two left
    read "A deal waits until <name> has rebought or said no." and have no deal
    buttons; the busted one says no (No rebuy: I'm out) and the buttons come."""
    server = ServerThread(tmp_path / "rebuy-deal.db")
    try:
        for _attempt in range(5):
            tid, host = new_table(server.url, game="sdr", seats=3, bots=0, buy_in=10,
                                  tournament="custom", tournament_schedule=SHOVE,
                                  rebuy_levels=1, between_hands=0.3)
            pages = [open_as_host(context(browser, size), server.url, tid, host)]
            for _ in range(2):
                pages.append(context(browser, size).new_page())
                pages[-1].goto(f"{server.url}/t/{tid}")
            for page, name in zip(pages, ("Ann", "Bob", "Cat"), strict=True):
                sit(page, name)
            pages[0].click("#start-btn")
            table = server.manager.tables[tid]
            end = time.monotonic() + 60
            while "tournament" not in table.session or not table.session["tournament"]["busts"]:
                assert time.monotonic() < end, "nobody busted"
                for n, page in enumerate(pages):
                    _shove(page, fold=n == 2)  # (Cat stays out: one of two busts)
                pages[0].wait_for_timeout(50)
            # the busting hand's end (not "no hand": the next one may be dealt
            # 0.3 s later, between two looks under load, and wait on its clocks)
            busting = table.session["tournament"]["busts"][0][0]  # (its hand number)
            while table.hand is not None and table.hand.hand_no == busting:
                assert time.monotonic() < end + 30, "the busting hand never ended"
                pages[0].wait_for_timeout(50)
            state = table.session["tournament"]
            out = [b[1] for b in state["busts"]]
            if len(out) == 1:
                break
            for page in pages:
                page.context.close()
        else:
            raise AssertionError("every try busted two at once")
        names = {0: "Ann", 1: "Bob", 2: "Cat"}
        left = [s for s in range(3) if s != out[0]]
        for s in left:
            pages[s].wait_for_selector(".tourney-deal.hint")
            assert pages[s].inner_text(".tourney-deal.hint") == (
                f"A deal waits until {names[out[0]]} has rebought or said no.")
            assert _deal_buttons(pages[s]) == 0
        shot(pages[left[0]], f"deal-waits-rebuy-{size}")
        pages[out[0]].locator("button:has-text('No rebuy')").click()
        for s in left:
            pages[s].wait_for_selector("[data-deal=icm]:enabled")
            assert pages[s].locator(".tourney-deal.hint").count() == 0
        shot(pages[left[0]], f"deal-after-rebuy-{size}")
    finally:
        server.stop()

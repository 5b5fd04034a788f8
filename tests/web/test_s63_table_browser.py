"""The web table's leftovers of s63-table, at 390x844 and 1440x900 in a real
browser (Debian's Chromium through Playwright):

2. a host who has not dealt yet is not offered Pause (it meant nothing before the
   first hand, and held the start up unseen); it shows from the start;
3. a busted player's dock says "stack 0" without the hand's "all-in" tag;
4. the hand list names your own win "won by you", and a negative net has the
   ledger's minus sign (a hyphen-minus, "-2", not "−2");
5. the rebuy offer's two buttons stand side by side where they fit.

Screenshots test-artifacts/web/s63t-*.png."""

from __future__ import annotations

import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from table_ui import (
    SHORT_TOURNAMENT,
    CheckingBot,
    ann_against_two_computers,
    ann_on_both_sizes,
    context,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    shove_until,
    sit,
)
from web_harness import ServerThread, seeded_deals

from rollem.engine.actions import Check, Fold

pytestmark = pytest.mark.browser


class FoldingBot(CheckingBot):
    """Folds to any bet, else checks: the person it plays wins every hand they bet."""

    def _bet(self, view: Any, legal: Any) -> object:
        return Fold() if "fold" in legal.actions and "check" not in legal.actions else Check()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_pause_waits_for_the_start_and_the_hand_list_says_you(
        browser: Any, tmp_path: Path, size: str) -> None:
    """2 and 4: before the first deal the host's page offers no Pause (above the
    folded tools nor inside them); from the start it does.  Ann bets, the computer
    player folds: her hand list says "won by you · you +N"."""
    server = ServerThread(tmp_path / "s63.db")
    try:
        tid, host = new_table(server.url, game="holdem", seats=2, bots=1, between_hands=600)
        server.manager.get(tid).bot_factory = lambda level: FoldingBot(random.Random(0))
        ctx = context(browser, size)
        ann = open_as_host(ctx, server.url, tid, host)
        sit(ann, "Ann")
        ann.wait_for_selector("#start-btn")
        ann.wait_for_timeout(300)  # (the state drawn)
        assert not ann.locator("[data-quick=pause]").is_visible()
        assert ann.locator("[data-host=pause]:visible").count() == 0
        assert ann.locator("[data-quick=close]").is_visible()  # (the quick row is there)
        shot(ann, f"s63t-{size}-before-start")
        ann.click("#start-btn")
        ann.wait_for_selector("[data-quick=pause]:visible")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while server.call(lambda: table.final_hand is None):
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(ann)
            if kind is not None:
                for action in ("raise", "bet", "check", "call"):
                    button = ann.locator(f"#controls [data-action={action}]")
                    if button.count():
                        with contextlib.suppress(PlaywrightError):
                            button.first.click()
                        break
            ann.wait_for_timeout(50)
        net = server.call(lambda: table.last_result["net"])[str(0)]
        assert net > 0
        ann.click("#history-box summary")
        line = ann.locator("#history [data-hand='1']")
        line.wait_for()
        assert line.inner_text() == f"Hand 1 · Texas Hold'em · won by you · you +{net}"
        line.scroll_into_view_if_needed()
        shot(ann, f"s63t-{size}-hand-list")
        ctx.close()
    finally:
        server.stop()


def _heads_up_bust(browser: Any, server: ServerThread, size: str,
                   **config: Any) -> tuple[Any, Any, int, Any]:
    """Ann (the host) and Bob at a two-seat Stop, Drop and Roll table of ``config``,
    each betting or calling all-in until one busts; returns the live table, the
    busted player's page (its rebuy offered), their seat and the other's page."""
    tid, host = new_table(server.url, game="sdr", seats=2, bots=0, between_hands=600,
                          **config)
    ann = open_as_host(context(browser, size), server.url, tid, host)
    sit(ann, "Ann")
    bob = context(browser, size).new_page()
    bob.goto(f"{server.url}/t/{tid}")
    sit(bob, "Bob")
    ann.click("#start-btn")
    table = server.manager.tables[tid]
    shove_until(server, [ann, bob], lambda: table.hand is None and min(
        s.row.stack for s in table.seats.values()) == 0, "a bust")
    busted = min(table.seats, key=lambda s: table.seats[s].row.stack)
    page, other = {0: (ann, bob), 1: (bob, ann)}[busted]
    page.locator(".me button[data-action=rebuy]").wait_for()
    page.wait_for_timeout(300)  # (the last state drawn)
    return table, page, busted, other


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_busted_dock_says_stack_0_without_the_all_in_tag(
        browser: Any, tmp_path: Path, size: str) -> None:
    """3: at a cash table, three chips each: the bust's dock read "stack 0" beside
    the hand's "all-in" tag (a tournament's says "busted · may rebuy" on the tile
    and nothing there); now "stack 0" and the Rebuy below.  The bust's tile on the
    other player's felt read "0" and "all-in" as well (s63-table2): now "0" alone."""
    server = ServerThread(tmp_path / "s63c.db")
    try:
        _table, page, busted, other = _heads_up_bust(browser, server, size, stack=3, ante=1,
                                                     small_bet=2, big_bet=4)
        assert page.inner_text(".me .chips") == "stack 0"
        assert page.locator(".me .tag.allin").count() == 0, page.inner_text(".me")
        assert page.inner_text(".me button[data-action=rebuy]") == "Rebuy 3"
        shot(page, f"s63t-{size}-busted-cash")
        tile = other.locator(f"#seats .seat[data-seat='{busted}']")
        other.wait_for_timeout(300)  # (the last state drawn)
        assert tile.is_visible()
        assert tile.locator(".chips").inner_text().strip() == "0", tile.inner_text()
        assert tile.locator(".tag.allin").count() == 0, tile.inner_text()
        tile.scroll_into_view_if_needed()
        shot(other, f"s63t2-{size}-busted-cash-tile")
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_rebuy_offer_stands_side_by_side(
        browser: Any, tmp_path: Path, size: str) -> None:
    """5 and 4: heads-up, three chips each, rebuys open: the first bust's two rebuy
    buttons stand on one line where they fit (at both sizes here: each fits half the
    dock; on a laptop they stacked in a dock 600 px wide), and the loser's hand
    list line has the ledger's minus sign."""
    server = ServerThread(tmp_path / "s63b.db")
    try:
        table, page, busted, _other = _heads_up_bust(
            browser, server, size, tournament="custom", tournament_schedule=SHORT_TOURNAMENT,
            buy_in=10, rebuy_levels=1)
        assert page.inner_text(".me .chips") == "stack 0"
        rebuy = page.locator(".me button[data-action=rebuy]")
        no = page.locator(".me button[data-action=rebuy-decline]")
        a, b = rebuy.bounding_box(), no.bounding_box()
        assert a is not None and b is not None
        assert abs(a["y"] - b["y"]) < 1 and b["x"] >= a["x"] + a["width"], (a, b)
        dock = page.locator(".me").bounding_box()
        assert dock is not None and b["x"] + b["width"] <= dock["x"] + dock["width"] + 0.5
        shot(page, f"s63t-{size}-busted-dock")
        last = server.call(lambda: dict(table.last_result))
        net = last["net"][str(busted)]
        assert net < 0
        page.click("#history-box summary")
        line = page.locator(f"#history [data-hand='{last['hand']}']")
        line.wait_for()
        assert line.inner_text().endswith(f" · you -{-net}"), line.inner_text()
    finally:
        server.stop()


def test_the_computer_players_left_are_placed_once_every_person_is_out(
        browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """1: Ann, the one person, with a chip against two computer players of 100 each
    (no rebuys): once she is out the tournament is over at the next deal, the
    panel says why and lists the computer players by their chips; the chat says
    it; no hand is dealt to nobody after her bust.  The deal is seeded
    (:func:`web_harness.seeded_deals`, test-only): with the real shuffle her
    shoves sometimes won a streak, past the 90 s wait or to every chip, and the
    test needed a rerun (s66-table).  Both sizes from one table (stop 72): her
    phone's page shoves, a desktop page of hers reads too."""
    seeded_deals(monkeypatch, 0)  # (Ann wins hand 1, 3 chips, and is out in hand 2)
    server = ServerThread(tmp_path / "s63d.db")
    pages: list[Any] = []
    try:
        ann, table = ann_against_two_computers(browser, server, "phone", SHORT_TOURNAMENT,
                                               rebuy_levels=0)
        pages.append(ann)
        sizes = ann_on_both_sizes(browser, server, ann, table)
        pages.append(sizes["desktop"])
        shove_until(server, ann, lambda: bool(table.session["tournament"]["over"]),
                    "the tournament's end")
        t = server.call(lambda: dict(table.session["tournament"]))
        chips = server.call(lambda: {n: s.row.stack for n, s in table.seats.items()})
        ann_seat = next(n for n, s in table.seats.items() if s.row.bot is None)
        assert chips[ann_seat] == 0 and t["settled"], (chips, t)
        assert sum(chips.values()) == 201
        assert int(table.session["hand_no"]) == max(b[0] for b in t["busts"])  # none after
        for page in sizes.values():
            page.wait_for_selector("#tourney .tourney-over")
        ann.wait_for_timeout(300)  # (the last state drawn)
        bots = sorted((n for n in chips if n != ann_seat), key=lambda n: -chips[n])
        names = {n: table.seats[n].row.name for n in bots}
        for size, page in sizes.items():
            assert page.inner_text("#tourney .tourney-over") == (
                "Over: every person was out, so the computer players left were placed by "
                "their chips."), size
            places = page.inner_text("#tourney .tourney-places")
            assert f"1st: {names[bots[0]]}" in places and f"2nd: {names[bots[1]]}" in places, \
                (size, places)
            assert page.inner_text(".me .rebuy-closed").startswith("You finished 3rd"), \
                page.inner_text(".me")
            said = page.inner_text("#chat-lines")
            assert (f"Every person is out: the computer players left are placed by their "
                    f"chips, {names[bots[0]]} 1st ({chips[bots[0]]} chips) and "
                    f"{names[bots[1]]} 2nd ({chips[bots[1]]} chips), and the tournament is "
                    f"over.") in said, (size, said)
            page.locator("#tourney").scroll_into_view_if_needed()
            shot(page, f"s63t-{size}-computers-placed")
    finally:
        for page in pages:  # (closed before their server stops: s65-table)
            with contextlib.suppress(PlaywrightError):
                page.context.close()
        server.stop()

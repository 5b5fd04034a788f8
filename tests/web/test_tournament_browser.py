"""A tournament in a real browser (issue 28; Debian's Chromium through
Playwright): 4 entrants (2 people, 2 computer players) play a short
fixed-limit schedule to one winner, one person on a phone (390x844) and one on a desktop
(1440x900); the level clock, a deal proposed and declined, the bust-outs,
places and payouts show on both, then the ledger in the buy-in's units and
the stats by level.
One server and one page per person (the clock resuming after a restart is
tested at the server: test_tournament_server.py)."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from table_ui import (
    DESKTOP,
    PHONE,
    context,
    decision_kind,
    hosted_table,
    new_table,
    open_as_host,
    open_tournament_panel,
    shot,
    sit,
    take_decision,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

from rollem.tournament.payouts import pay_places

pytestmark = pytest.mark.browser

SHORT = SCHEDULE.replace("minutes = 1", "minutes = 0.1")
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
"""Three 6-second levels: the clock moves while the test plays."""
LEVEL = 6.0
"""A level's seconds in :data:`SHORT`."""


def _clock_on_to(table: Any, seconds: float) -> None:
    """(On the server's loop) move ``table``'s level clock on to ``seconds`` run, if it
    has run less: by what is left, whether it is running or not."""
    t = table.session["tournament"]
    t["elapsed"] = float(t["elapsed"]) + max(0.0, seconds - table.tourney.clock_seconds())


def _shove(page: Any, passive: bool) -> None:
    """The person's decision, if any, through the page: all-in when they may bet
    or raise (the all-in size, then the button, in one step: a new state redraws
    the controls), else as :func:`take_decision` (``passive``: always so)."""
    kind = decision_kind(page)
    if kind is None:
        return
    if kind == "bet" and not passive and page.evaluate("""() => {
          const c = document.querySelector('#controls');
          const b = c.querySelector('[data-action=raise], [data-action=bet]');
          if (!b) return false;
          const allin = c.querySelector('[data-size=allin]');
          if (allin) allin.click();
          b.click();
          return true;
        }"""):
        return
    with contextlib.suppress(PlaywrightError):  # redrawn under the click: next time
        take_decision(page, kind)


def test_four_entrants_play_to_a_winner_on_phone_and_desktop(browser: Any,
                                                             tmp_path: Path) -> None:
    server = ServerThread(tmp_path / "tourney.db")
    try:
        # Ann creates the table through the lobby form, with a schedule file.
        desk = browser.new_context(viewport=DESKTOP)
        ann = desk.new_page()
        ann.goto(server.url + "/")
        ann.select_option("select[name=tournament]", "custom")
        schedule = tmp_path / "short.toml"
        schedule.write_text(SHORT, encoding="utf-8")
        ann.set_input_files("input[name=tournament_schedule]", str(schedule))
        ann.select_option("select[name=game]", "sdr")
        # (three places paid: a deal is open to all four, Tournament.deal_from)
        for name, value in (("seats", 4), ("bots", 2), ("buy_in", 10),
                            ("decision_seconds", 300), ("payouts", "50/30/20")):
            ann.fill(f"input[name={name}]", str(value))
        ann.click("details summary")
        ann.fill("input[name=bot_delay]", "0.02")
        ann.fill("input[name=between_hands]", "0.3")
        ann.click("#create-btn")
        ann.wait_for_url("**/t/*")
        tid = ann.url.rsplit("/", 1)[1]
        sit(ann, "Ann")
        phone = browser.new_context(viewport=PHONE)
        bob = phone.new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        pages = [ann, bob]
        bob.wait_for_selector("#tourney:not(.hidden)")
        assert "Prize pool 40 (1st 50% · 2nd 30% · 3rd 20%)" in bob.inner_text("#tourney")
        ann.click("#start-btn")
        for page in pages:
            page.wait_for_selector("#level-clock")
            assert re.fullmatch(r"0:\d\d", page.inner_text("#level-clock")), \
                page.inner_text("#level-clock")
            assert "Level 1 of 3" in page.inner_text("#tourney")
        shot(ann, "tourney-desktop-level1")
        shot(bob, "tourney-phone-level1")
        table = server.manager.tables[tid]
        # A deal: Ann proposes ICM; it shows on Bob's phone, who declines; play goes on.
        ann.click("[data-deal=icm]")
        end = time.monotonic() + 60
        while not bob.locator("[data-deal=decline]").count():
            assert time.monotonic() < end, ("the deal never reached Bob",
                                            table.session.get("tournament"))
            for page in pages:
                _shove(page, passive=True)  # (a deal proposed in a hand waits for its end)
            bob.wait_for_timeout(60)
        shares = bob.locator(".deal-shares li").all_inner_texts()
        assert len(shares) == 4 and sum(int(re.findall(r": (\d+)", x)[0]) for x in shares) == 40
        assert any(x.startswith("Ann: ") and x.endswith("agrees") for x in shares)
        shot(bob, "tourney-phone-deal")
        shot(ann, "tourney-desktop-deal")
        bob.click("[data-deal=decline]")
        ann.wait_for_selector("[data-deal=icm]")  # withdrawn (Ann may propose again in 3 hands)
        assert table.session["tournament"]["proposal"] is None
        # (level 1 was seen at the start: a deal proposed in a hand stops no clock
        # while that hand is played, so a 6 s level may be over by the decline)
        # What is left of level 1 moved on the level clock, not waited out (s62-suite;
        # the level is still worked out from the clock: table_ui.level_clock_to)
        server.call(lambda: _clock_on_to(table, LEVEL))
        levels, shots, end = {1}, False, time.monotonic() + 120
        while not table.session["tournament"]["over"]:
            assert time.monotonic() < end, "the tournament did not end"
            for page in pages:
                _shove(page, passive=max(levels, default=1) < 2)  # all-in once raised
                # (once it is over, the head reads "Tournament · played to level 3 of 3")
                text = page.inner_text("#tourney")
                found = re.search(r"[Ll]evel (\d) of 3", text)
                assert found is not None, text
                levels.add(int(found.group(1)))
            if not shots and table.session["tournament"]["busts"]:
                # a bust-out: its place shows on both
                for page in pages:
                    open_tournament_panel(page)   # (a phone's is folded: s61-table2)
                    page.wait_for_selector(".tourney-places li")
                shot(ann, "tourney-desktop-bust")
                shot(bob, "tourney-phone-bust")
                shots = True
            ann.wait_for_timeout(60)
        # the clock raised the stakes in play (level 1 at the start, then 2 or 3)
        assert max(levels) >= 2, levels
        public = table.tourney.public()
        payouts = {int(s): v for s, v in public["payouts"].items()}
        places = {int(s): p for s, p in public["places"].items()}
        # Two may bust in one hand and share a place (its prizes split,
        # payouts.pay_places): 1st is one player, the rest 2nd to 4th, shared or not.
        assert sum(payouts.values()) == 40 and sorted(places) == sorted(payouts)
        assert list(places.values()).count(1) == 1 and set(places.values()) <= {1, 2, 3, 4}
        assert payouts == pay_places(40, [50, 30, 20], dict(sorted(
            places.items(), key=lambda sp: (sp[1], -payouts[sp[0]])))), (places, payouts)
        names = {s: table.seats[s].row.name for s in table.seats}
        winner = next(s for s, p in places.items() if p == 1)
        shared = {p for p in places.values() if list(places.values()).count(p) > 1}
        want = sorted(("=" if p in shared else "") + f"{ORDINAL[p]}: {names[s]}"
                      + (f" wins {payouts[s]}" if payouts[s] else "") for s, p in places.items())
        for page, label in ((ann, "desktop"), (bob, "phone")):
            page.wait_for_selector(".tourney-over")
            listed = page.locator(".tourney-places li").all_inner_texts()
            assert len(listed) == 4 and listed[0] == f"1st: {names[winner]} wins 20", listed
            assert sorted(listed) == want, (listed, want)
            assert page.locator("#level-clock").count() == 0  # the clock is gone
            box = page.locator("#tourney").bounding_box()
            width = (DESKTOP if label == "desktop" else PHONE)["width"]
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            shot(page, f"tourney-{label}-over")
        # the ledger in the buy-in's units and the stats by level (issue 28), as played
        # (asked for once on the screen: below the side column's fold on a desktop, under
        # the tournament panel at its top since s61-table)
        ann.locator("#stats").scroll_into_view_if_needed()
        ann.wait_for_selector(".stats-levels tr[data-level='1']", state="attached")
        rows = [r.split("\t") for r in ann.locator("#ledger tr").all_inner_texts()]
        assert rows[0] == ["Player", "Paid", "Place", "Prize", "Net"]
        assert sorted(r[4] for r in rows[1:]) == sorted(
            f"+{v - 10}" if v > 10 else str(v - 10) for v in payouts.values())
        # settle-up in the buy-in's units: the pool pays the prizes, or the losers pay
        # -- a computer player's prize paid to Ann, the host, who staked it (stop 58),
        # and the transfers between Ann and Bob only (the computer players' nets Ann's)
        def paid(seat: int, units: int) -> str:
            if table.seats[seat].row.bot is None:
                return f"{names[seat]} {units}"
            return f"Ann {units} ({names[seat]}'s prize)"

        [bob_seat] = [s for s in names if names[s] == "Bob"]
        bob_net = payouts.get(bob_seat, 0) - 10
        for page in (ann, bob):
            pool = page.locator("#settle .settle-pool li").all_inner_texts()
            assert sorted(pool) == sorted(paid(s, v) for s, v in payouts.items() if v)
            between = page.locator("#settle .settle-between li").all_inner_texts()
            assert between == ([] if bob_net == 0 else [f"Bob pays Ann {-bob_net}"]
                               if bob_net < 0 else [f"Ann pays Bob {bob_net}"])
            house = page.locator("#settle .settle-house").inner_text()
            assert re.fullmatch(r"Ann \(host\) (collects what the computer players won|"
                                r"pays what the computer players lost): \d+\.|Ann \(host\) "
                                r"covers the computer players: they are even\.", house), house
    finally:
        server.stop()


def _answer_deal(pages: list[Any], who: Any) -> None:
    """Play the hand in play through the pages (check or call) until ``who`` is
    asked to agree to or decline the open proposal (worked out when a hand ends)."""
    end = time.monotonic() + 90
    while not who.locator("[data-deal=decline]").count():
        assert time.monotonic() < end, "the deal never reached the other player"
        for page in pages:
            _shove(page, passive=True)
        who.wait_for_timeout(60)


def _waits(page: Any, width: int) -> str:
    """The page's deal buttons wait after a declined proposal: both shown and
    disabled, described by the reason, which fits the page; returns the reason."""
    page.wait_for_selector("#deal-wait")
    buttons = page.locator("[data-deal=icm], [data-deal=chip_chop]")
    assert buttons.count() == 2
    for i in range(2):
        assert buttons.nth(i).is_disabled()
        assert buttons.nth(i).get_attribute("aria-describedby") == "deal-wait"
    wait = page.locator("#deal-wait")
    box = None
    for _ in range(50):  # (the panel is drawn again at each state: a box between)
        wait.wait_for(state="visible")
        box = wait.bounding_box()
        if box is not None:
            break
        page.wait_for_timeout(100)
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    return str(page.inner_text("#deal-wait"))


def test_the_deal_buttons_wait_after_a_declined_proposal(browser: Any, tmp_path: Path) -> None:
    """A player whose proposed deal was declined may not propose again for 3 hands
    (the server refuses ``too_soon``); the page used to offer "Propose ICM" all the
    same.  Now the buttons are disabled with the reason beside them, on a phone
    (Ann, 390x844) and a desktop (Bob, 1440x900), and the other player's stay."""
    server = ServerThread(tmp_path / "tourney.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=4, bots=2, buy_in=10,
                              tournament="custom", between_hands=0.3,
                              payouts=[50, 30, 20],  # (a deal open to all four)
                              tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        ann = open_as_host(context(browser, "phone"), server.url, tid, host)
        sit(ann, "Ann")
        bob = context(browser, "desktop").new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        pages = [ann, bob]
        ann.click("#start-btn")
        # Ann proposes, Bob declines: Ann's buttons wait, Bob's do not
        ann.wait_for_selector("[data-deal=icm]:enabled")
        ann.click("[data-deal=icm]")
        _answer_deal(pages, bob)
        bob.click("[data-deal=decline]")
        reason = _waits(ann, PHONE["width"])
        assert re.fullmatch(r"Your last deal was declined or lapsed: you may propose again "
                            r"after [123] more hands?\.", reason), reason
        hand = server.manager.tables[tid].session["tournament"]["next_proposal"]["0"]
        bob.wait_for_selector("[data-deal=icm]:enabled")
        assert bob.locator("#deal-wait").count() == 0
        shot(ann, "tourney-phone-deal-wait")
        # Bob proposes, Ann declines: now Bob's wait too
        bob.click("[data-deal=icm]")
        _answer_deal(pages, ann)
        ann.click("[data-deal=decline]")
        reason = _waits(bob, DESKTOP["width"])
        assert re.fullmatch(r"Your last deal was declined or lapsed: you may propose again "
                            r"after [123] more hands?\.", reason), reason
        shot(bob, "tourney-desktop-deal-wait")
        # Ann's wait ends with its hand: the buttons are offered again
        table = server.manager.tables[tid]
        end = time.monotonic() + 120
        while int(table.session["hand_no"]) < hand:
            assert time.monotonic() < end, "the table stopped dealing"
            for page in pages:
                _shove(page, passive=True)
            ann.wait_for_timeout(60)
        ann.wait_for_selector("[data-deal=icm]:enabled")
        assert ann.locator("#deal-wait").count() == 0
    finally:
        server.stop()


def test_a_deal_proposed_while_the_game_is_named_says_so(browser: Any, tmp_path: Path) -> None:
    """A deal proposed in a dealer's choice while the next hand's game is being
    named (no hand in play) is worked out when that hand ends: the panel said
    "when the hand in play ends" all the same.  Now it says who names the game
    (the chooser reads "you are"), on a phone (Ann) and a desktop (Bob); once
    the hand is dealt it says "the hand in play".  Two people and no computer
    player: the table waits on the chooser and then on the first to act."""
    server = ServerThread(tmp_path / "tourney.db")
    try:
        tid, host = new_table(server.url, game="dealers-choice", seats=2, bots=0, buy_in=10,
                              tournament="custom", between_hands=0.3,
                              tournament_schedule=SCHEDULE.replace("stack = 60", "stack = 900"))
        ann = open_as_host(context(browser, "phone"), server.url, tid, host)
        sit(ann, "Ann")
        bob = context(browser, "desktop").new_page()
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while not table.session.get("choice"):  # (it waits on the chooser, a person)
            assert time.monotonic() < end, "no game was asked for"
            ann.wait_for_timeout(50)
        chooser = table.dealers_choice.chooser()
        assert table.hand is None and chooser in (0, 1)
        names = {0: "Ann", 1: "Bob"}
        pages = {0: ann, 1: bob}
        other = 1 - chooser
        pages[other].wait_for_selector("[data-deal=icm]:enabled")
        pages[other].click("[data-deal=icm]")
        for seat, page in pages.items():
            page.wait_for_selector("#deal-when")
            who = "you are" if seat == chooser else f"{names[chooser]} is"
            assert page.inner_text("#deal-when") == (
                f"Worked out when the next hand ends: {who} naming its game.")
            box = page.locator("#deal-when").bounding_box()
            assert box is not None and box["x"] >= 0
            assert box["x"] + box["width"] <= page.viewport_size["width"]
        shot(ann, "tourney-phone-deal-while-naming")
        shot(bob, "tourney-desktop-deal-while-naming")
        take_decision(pages[chooser], "choose", "sdr")
        for page in (ann, bob):
            page.wait_for_selector("#deal-when:text('Worked out when the hand in play ends.')")
        assert table.hand is not None and table.session["tournament"]["proposal"]["offer"] is None
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_two_busted_in_one_hand_share_a_place_on_the_page(browser: Any, live: ServerThread,
                                                          size: str) -> None:
    """s59-tidy: Bot 1 and Bot 2 bust in hand 3, each having started it with
    the same chips: they share 3rd, its prize and 4th's split (40 at 50/30/20:
    3rd and 4th's 8 + 0, 4 each), and each line says so, "=3rd" (main: "3rd:
    Bot 1 (random) wins 4" twice, unexplained). The tournament's end is set
    in the server's session (the places as a hand of two bust-outs leaves
    them), then drawn."""
    from rollem.tournament.places import Bust

    ctx = context(browser, size)
    _tid, _host, table, page = hosted_table(live, ctx, game="sdr", seats=4, bots=3,
                                           tournament="custom", tournament_schedule=SCHEDULE,
                                           buy_in=10, payouts=[50, 30, 20])
    try:
        def bust_out() -> None:
            table.tourney.start()
            state = table.session["tournament"]
            names = {n: s.row.name for n, s in table.seats.items()}
            ann = next(n for n, v in names.items() if v == "Ann")
            bots = sorted(n for n in names if n != ann)
            for n in bots:
                table.seats[n].row.stack = 0
            table.seats[ann].row.stack = 4 * 60
            state["busts"] = [list(Bust(3, bots[0], 60)), list(Bust(3, bots[1], 60)),
                              list(Bust(5, bots[2], 120))]
            state["over"] = True
            state["hands"] = 5
            table.broadcast()

        live.call(bust_out)
        page.wait_for_selector(".tourney-over")
        listed = page.locator(".tourney-places li").all_inner_texts()
        names = sorted(s.row.name for s in table.seats.values())
        assert listed[0] == "1st: Ann wins 20", listed
        assert listed[1].startswith("2nd: ") and listed[1].endswith(" wins 12"), listed
        assert sorted(listed[2:]) == sorted(f"=3rd: {n} wins 4" for n in names
                                            if n != "Ann" and n not in listed[1]), listed
        box = page.locator("#tourney").bounding_box()
        width = page.viewport_size["width"]
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        shot(page, f"tourney-shared-place-{size}")
    finally:
        ctx.close()

"""The add-on in a real browser (stop 60; Debian's Chromium through Playwright,
390x844 and 1440x900): when level 1 (6 s, the last rebuy level) ends, the table
takes the add-on's break; the player's seat and the tournament panel offer
"Add-on: +500 chips for 5? Take / No thanks" (the two buttons side by side),
the chat says the computer player took it, and Take puts the chips on the
player's stack and 5 in the pool; with nobody left to answer, play resumes at
level 2 and the offer is gone.

Screenshots: test-artifacts/web/tournament-addon-*.png."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    context,
    fits_width,
    level_clock_to,
    new_table,
    open_as_host,
    play_until,
    shot,
    sit,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_the_add_on_is_offered_at_its_break_and_taken(browser: Any, tmp_path: Path) -> None:
    """Both sizes at one tournament: Ann plays and takes the add-on on her phone page;
    her desktop page (the same host and player) is checked the same way before and
    after (s62-suite2: a tournament a size before)."""
    server = ServerThread(tmp_path / "addon.db")
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    try:
        schedule = SCHEDULE.replace("stack = 60", "stack = 900").replace(
            "minutes = 1\n", "minutes = 0.1\n", 1)
        tid, host = new_table(server.url, game="sdr", seats=2, bots=1, buy_in=10,
                              tournament="custom", tournament_schedule=schedule,
                              rebuy_levels=1, addon_chips=500, addon_price=5,
                              between_hands=0.3)
        ann = open_as_host(contexts[0], server.url, tid, host)
        sit(ann, "Ann")
        contexts[1].add_cookies(contexts[0].cookies())   # (the same host and player)
        desk = contexts[1].new_page()
        desk.goto(f"{server.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        pages = ((ann, "phone"), (desk, "desktop"))
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        moved: list[bool] = []

        def at_the_break() -> bool:
            if table.hand is not None and not moved:  # (level 1's 6 s not waited out:
                level_clock_to(server, table, 6.1)    # stop 61, as the break's test)
                moved.append(True)
            return table.tourney.break_left() is not None

        play_until(ann, at_the_break, "the add-on's break")
        dealt = int(table.session["hand_no"])
        before = server.call(lambda: table.seats[0].row.stack)
        for page, size in pages:
            offer = page.locator("#me .addon-offer")
            offer.wait_for(timeout=10_000)
            # (a question: main's "... for 5 —" left its dash dangling at a phone's
            # seat, the buttons wrapped under it; s62-look)
            assert " ".join(offer.inner_text().split()) == \
                "Add-on: +500 chips for 5? Take No thanks", size
            if size == "phone":   # (a phone's panel is folded during play: s61-table2)
                page.click("#tourney .tourney-fold")
            panel = page.locator(".tourney-addon")
            # (s63-table: its terms are the seat's offer's; the panel points there, and
            # the notice above the felt leaves the break to the felt and the panel)
            assert panel.inner_text() == (
                "Add-on open until play resumes. Took the add-on: Bot 1 (random). "
                "Yours to answer at your seat."), size
            assert "add-on" not in page.inner_text("#notice").lower(), size
            assert page.inner_text("body").count("+500 chips for 5") == 1, size
            status = page.locator("#status .break-left")
            assert re.match(r"^Break for the add-on: [12]:\d\d left · next level 2: .*4/8$",
                            status.inner_text()), (size, status.inner_text())
            assert "Bot 1 (random) takes the add-on: +500 chips, 5 into the prize pool " \
                "(now 25)." in page.inner_text("#chat-lines"), size
            assert "Prize pool 25" in page.inner_text(".tourney-pool"), size
            # Take and No thanks side by side on the seat (main, a phone's: "No thanks"
            # alone on a second line); the panel says the offer and leaves its answer
            # to the seat (s62-table2: a laptop showed the buttons twice)
            assert page.locator(".tourney-addon .addon-offer").count() == 0, size
            for where in ("#me .addon-offer",):
                take = page.locator(f"{where} [data-action='addon-take']").bounding_box()
                decline = page.locator(f"{where} [data-action='addon-decline']").bounding_box()
                assert take is not None and decline is not None
                assert abs(take["y"] - decline["y"]) < 1 and decline["x"] > take["x"], (
                    size, where, take, decline)
            fits_width(page, "#me .addon-offer")
            fits_width(page, ".tourney-addon")
            shot(page, f"tournament-addon-offer-{size}")
            page.locator(".tourney-addon").scroll_into_view_if_needed()
            shot(page, f"tournament-addon-panel-{size}")
        ann.locator("#me .addon-offer button[data-action='addon-take']").click()
        for page, _size in pages:
            page.locator("#me .addon-offer").wait_for(state="detached", timeout=10_000)
        assert server.call(lambda: table.seats[0].row.stack) == before + 500
        for page, _size in pages:
            page.wait_for_function(
                "() => document.querySelector('#chat-lines').innerText.includes("
                "'Ann takes the add-on: +500 chips, 5 into the prize pool (now 30).')")
        end = time.monotonic() + 60
        while int(table.session["hand_no"]) == dealt:  # nobody left to answer: play resumes
            assert time.monotonic() < end, "no hand after everyone answered"
            ann.wait_for_timeout(50)
        for page, size in pages:
            page.wait_for_selector(".tourney-break", state="detached", timeout=10_000)
            # the window closes with the deal of level 2's first hand, and its line goes
            # (s61-table2: "Took the add-on: ..." stayed for the rest of the tournament)
            page.wait_for_selector(".tourney-addon", state="detached", timeout=10_000)
            assert server.call(lambda: table.session["tournament"]["addon_closed"])
            assert "Prize pool 30" in page.inner_text(".tourney-pool"), size
            assert page.locator("button[data-action='addon-take']").count() == 0, size
            # the ledger's paid: the buy-in and the add-on (the computer player's staked)
            ledger = [r.split("\t") for r in page.locator("#ledger tr").all_inner_texts()]
            assert [row[1] for row in ledger[1:]] == ["15 (add-on)"] * 2, size
            shot(page, f"tournament-addon-taken-{size}")
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_host_sets_the_add_on_in_the_lobby_form(browser: Any, tmp_path: Path,
                                                    size: str) -> None:
    server = ServerThread(tmp_path / "form.db")
    try:
        page = context(browser, size).new_page()
        page.goto(server.url + "/")
        page.select_option("select[name=tournament]", "turbo")
        page.select_option("select[name=game]", "sdr")
        assert page.input_value("input[name=addon_chips]") == "0"  # off by default
        page.fill("input[name=addon_chips]", "300")
        page.fill("input[name=addon_price]", "7")
        page.click("#create-btn")  # no rebuys: refused, saying what to do
        page.wait_for_function("() => /set rebuy_levels/.test(document.body.innerText)")
        assert "an add-on is offered when the rebuys close" in page.inner_text("body")
        page.locator("input[name=addon_chips]").scroll_into_view_if_needed()
        shot(page, f"tournament-addon-form-refused-{size}")
        assert server.manager.tables == {}
        page.fill("input[name=rebuy_levels]", "4")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        tid = page.url.rsplit("/", 1)[1]
        config = server.manager.tables[tid].config
        assert (config.rebuy_levels, config.addon_chips, config.addon_price) == (4, 300, 7)
        page.click("text=How to play")
        row = page.locator("tr:has(th:text-is('Add-on')), tr:has(td:text-is('Add-on'))").first
        row.wait_for()
        assert " ".join(row.inner_text().split()) == (
            "Add-on +300 chips for 7, once, to every player still in at the break after "
            "level 4 (when the rebuys close)")
        row.scroll_into_view_if_needed()
        shot(page, f"tournament-addon-rules-{size}")
    finally:
        server.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_host_changes_the_add_on_in_the_host_form(browser: Any, tmp_path: Path,
                                                      size: str) -> None:
    server = ServerThread(tmp_path / "edit.db")
    try:
        tid, host = new_table(server.url, game="sdr", seats=3, bots=1, tournament="turbo",
                              buy_in=10, rebuy_levels=2, addon_chips=100, addon_price=10)
        ann = open_as_host(context(browser, size), server.url, tid, host)
        sit(ann, "Ann")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 60
        while not table.session.get("started"):
            assert time.monotonic() < end, "the tournament never started"
            ann.wait_for_timeout(20)
        ann.evaluate("""() => { const f = document.querySelector('form.host-config');
          const d = f && f.closest('details'); if (d) d.open = true; }""")
        form = ann.locator("form.host-config")
        form.wait_for()
        assert form.locator("input[name=addon_chips]").input_value() == "100"
        form.locator("input[name=addon_chips]").fill("250")
        form.locator("input[name=addon_price]").fill("15")
        form.locator("input[name=addon_price]").scroll_into_view_if_needed()
        shot(ann, f"tournament-addon-host-form-{size}")
        form.locator("[data-host=config]").click()
        ann.wait_for_function(
            "() => document.querySelector('#chat-lines').innerText.includes("
            "'the add-on from +100 chips for 10 to +250 chips for 15')")
        assert (table.config.addon_chips, table.config.addon_price) == (250, 15)
    finally:
        server.stop()

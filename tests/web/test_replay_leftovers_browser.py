"""The web replay's leftovers of stop 56 (stop 57), at a phone's and a desktop's
size (390x844 and 1440x900):

- a step where a player showed cards by choice after the result had no line
  for that show in the result panel (the live table's "Ann (you) shows ... by
  choice"): Ann folds, the others check it down, Ann shows her folded cards;
- the replay named its own viewer by name ("Ann folds", "Ann 200", her tile
  "Ann") where the live table says "you": now "You fold", "you 200", "Ann (you)";
- its last action's step worked the pot back from the result's pots: now the
  frame's own middle (pot and bets, as the live felt), the chips carried into a
  5-2-1 hand (R-521-9) with it.

Screenshots test-artifacts/web/replay-leftovers-{phone,desktop}-*.png."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    play_to_the_result,
    replay_forward,
    shot,
    sit_with_enter,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

CARD = r"(?:[2-9JQKA]|10)[♣♦♥♠]"


def _ctx(browser: Any, size: str) -> Any:
    return (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            if size == "phone" else browser.new_context(viewport=DESKTOP))


def _hand(page: Any, tid: str) -> Any:
    return page.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")


def test_a_shown_fold_is_a_line_and_the_viewer_is_you(
        browser: Any, live: ServerThread) -> None:
    # The hand is played once, on the phone; the same player's page at a desktop's
    # size then loads the table at that hand's end and opens the same replay from
    # the result (stop 60: a hand a size before).
    phone, desktop = _ctx(browser, "phone"), _ctx(browser, "desktop")
    try:
        tid, host = new_table(live.url, game="holdem", seats=3, bots=2)
        only_checking_bots(live, tid)
        page = open_as_host(phone, live.url, tid, host)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        end = time.monotonic() + 30
        while decision_kind(page) not in ("bet", "fold-confirm"):
            assert time.monotonic() < end, "Ann's first decision never came"
            page.wait_for_timeout(30)
        page.click("#controls [data-action=fold]")
        if page.locator("#controls [data-action=fold-confirm]").count():
            page.click("#controls [data-action=fold-confirm]")
        page.wait_for_selector("#result [data-action=show]", timeout=30_000)
        frames = len(_hand(page, tid)["frames"])
        page.click("#result [data-action=show]")
        wait_until(page, f"() => fetch('/api/tables/{tid}/hands/1').then(r => r.json())"
                   f".then(d => d.frames.length > {frames})")
        desktop.add_cookies(phone.cookies())  # (the same player)
        for size, at in (("phone", page), ("desktop", desktop.new_page())):
            if size == "desktop":
                at.goto(f"{live.url}/t/{tid}")
            _the_fold_and_the_show(at, tid, size)
    finally:
        phone.close()
        desktop.close()


def _the_fold_and_the_show(page: Any, tid: str, size: str) -> None:
    """Hand 1's replay from the result's button: Ann's fold, then her show."""
    page.click("#result [data-action=replay-last]")
    page.wait_for_selector("#replay:not(.hidden)")
    data = _hand(page, tid)
    frames = data["frames"]
    fold = next(i for i, f in enumerate(frames)
                if (f.get("last_action") or {}).get("seat") == 0)
    replay_forward(page, fold)
    # Ann's own fold: "You fold"; her stack "you 199" (or 198); her tile "Ann (you)"
    assert page.inner_text("#replay-what") == "You fold"
    stacks = page.locator("#replay-stacks .replay-stack").all_inner_texts()
    assert stacks[0] == f"you {frames[fold]['seats'][0]['stack']}", stacks
    assert not any(s.startswith("Ann ") for s in stacks), stacks
    assert page.inner_text("#replay-seats .seat[data-seat='0'] .name") == "Ann (you)"
    assert page.inner_text("#replay-seats .seat[data-seat='1'] .name") != "Ann (you)"
    shot(page, f"replay-leftovers-{size}-fold")
    n = len(frames)
    replay_forward(page, n - fold)
    assert page.inner_text("#replay-pos") == f"Hand 1 · step {n} of {n}"
    assert re.fullmatch(f"You show {CARD} {CARD}", page.inner_text("#replay-what")), \
        page.inner_text("#replay-what")
    line = page.locator("#replay-result .shown-line.by-choice[data-seat='0']")
    assert line.count() == 1
    assert line.locator(".who").inner_text() == "Ann (you) shows"
    assert line.locator(".card").count() == 2
    assert line.locator(".desc").inner_text() == "by choice"
    shot(page, f"replay-leftovers-{size}-show")
    # the result's own step before it: no show yet
    page.click("#replay-prev")
    assert page.locator("#replay-result .shown-line.by-choice").count() == 0


def test_the_last_action_step_shows_the_carried_in_pot(
        browser: Any, live: ServerThread) -> None:
    # played once, on the phone; the replay stepped at both sizes (stop 60)
    phone, desktop = _ctx(browser, "phone"), _ctx(browser, "desktop")
    try:
        tid, host = new_table(live.url, game="rollem521", seats=3, bots=2)
        only_checking_bots(live, tid)
        live.manager.tables[tid].session["carried"] = 30  # (a pot no one won last hand)
        played = open_as_host(phone, live.url, tid, host)
        sit_with_enter(played, "Ann")
        played.click("#start-btn")
        play_to_the_result(played, live, tid)
        desktop.add_cookies(phone.cookies())  # (the same player)
        for size, page in (("phone", played), ("desktop", desktop.new_page())):
            _the_carried_in_pot(page, live, tid, size)
    finally:
        phone.close()
        desktop.close()


def _the_carried_in_pot(page: Any, live: ServerThread, tid: str, size: str) -> None:
    """Hand 1's replay (the 30 chips carried in): its last action's step."""
    page.goto(f"{live.url}/t/{tid}#hand=1")
    page.wait_for_selector("#replay:not(.hidden)")
    data = _hand(page, tid)
    frames = data["frames"]
    k = next(i for i, f in enumerate(frames) if f["result"] is not None)
    before = frames[k - 1]
    middle = before["pot"] + sum(s["bet"] for s in before["seats"])
    assert middle == 33  # the antes (1 each) and the 30 carried in
    replay_forward(page, k - 1)
    assert page.inner_text("#replay-center .pots").startswith(f"pot {middle}")
    page.click("#replay-next")  # the last action: the pot still in the middle
    assert page.inner_text("#replay-pos") == f"Hand 1 · step {k} of {len(frames)}"
    assert page.inner_text("#replay-center .pots") == f"pot {middle}"
    shot(page, f"replay-leftovers-{size}-carried")

"""The web replay's end (stop 56): the last step showed the hand's last action
("Ann: check") over the pot already paid ("pot 6 awarded", the winner's stack
with it) and the result, as if that check had paid it.  A replayer's player
expects the last action, then the showdown: now the last action is a step of its
own, the pot still in the middle and the stacks before it was paid, and the step
after it is the result ("The result").  At a phone's and a desktop's size;
screenshots test-artifacts/web/replay-end-{phone,desktop}-{action,result}.png
(and -show.png where Ann mucked and then showed her cards by choice: a step after
the result)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from table_ui import DESKTOP, PHONE, replay_forward, shot, wait_until
from test_table_ui import play_hand
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def test_the_replay_ends_with_the_last_action_then_the_result(
        browser: Any, live: ServerThread) -> None:
    # The hand is played once, on the phone; the same player's replay of it is then
    # stepped at the phone's and at a desktop's size (stop 60: a hand a size before).
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    desktop = browser.new_context(viewport=DESKTOP)
    try:
        played, tid, _ = play_hand(live, phone.new_page(), "holdem", 3, "replay-end-phone",
                                   checking=True)
        # Ann's cards shown by choice after the hand, where she mucked: an action after
        # the one that ended the hand, so a step after the result
        count = f"() => fetch('/api/tables/{tid}/hands/1').then(r => r.json())" \
            ".then(d => d.frames.length)"
        shows = played.locator("#result [data-action=show]").count()
        if shows:
            before = played.evaluate(count)
            played.click("#result [data-action=show]")
            wait_until(played, f"() => ({count})().then(n => n > {before})")
        desktop.add_cookies(phone.cookies())  # (the same player)
        for size, page in (("phone", played), ("desktop", desktop.new_page())):
            _step_to_the_end(page, live, tid, size, shows)
    finally:
        phone.close()
        desktop.close()


def _step_to_the_end(page: Any, live: ServerThread, tid: str, size: str, shows: int) -> None:
    """The replay of hand 1 at ``size``: the last action's step, the result's (and the
    show's, where Ann showed after the hand: ``shows``)."""
    page.goto(f"{live.url}/t/{tid}#hand=1")
    page.wait_for_selector("#replay:not(.hidden)")
    data = page.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")
    frames, names = data["frames"], data["names"]
    k = next(i for i, f in enumerate(frames) if f["result"] is not None)
    assert k == len(frames) - 1 - shows
    end = frames[k]
    won = {int(s): 0 for s in range(len(end["seats"]))}
    for pot in end["result"]["pots"]:
        for s, chips in pot["winners"].items():
            won[int(s)] += chips
    paid = sum(p["amount"] for p in end["result"]["pots"])
    n = len(frames)  # steps 0 .. n: the deal, each action, the result (, the show)
    replay_forward(page, k)
    # the last action's step: the pot in the middle, stacks before it was paid
    assert page.inner_text("#replay-pos") == f"Hand 1 · step {k} of {n}"
    action = end["last_action"]
    # (in the seat tiles' words, "Bob checks": was the wire's "Bob: check"; Ann
    # herself is "You check", stop 57)
    assert re.fullmatch((re.escape(names[action["seat"]])
                         + r" (checks|calls \d+|folds|bets \d+|raises to \d+)")
                        if action["seat"]
                        else r"You (check|call \d+|fold|bet \d+|raise to \d+)",
                        page.inner_text("#replay-what")), page.inner_text("#replay-what")
    called = ["you" if s == 0 else names[s] for s in range(len(names))]
    stacks = page.locator("#replay-stacks .replay-stack").all_inner_texts()
    assert stacks == [f"{called[s]} {sv['stack'] - won[s]}"
                      for s, sv in enumerate(end["seats"]) if sv["dealt"]]
    assert page.inner_text("#replay-center .pots").startswith(f"pot {paid}")
    assert "awarded" not in page.inner_text("#replay-center .pots")
    assert page.inner_text("#replay-result") == ""
    assert page.locator("#replay-seats .seat:not([data-seat='0']) .card:not(.back)"
                        ).count() == 0  # (their cards are shown with the result)
    assert not page.is_disabled("#replay-next")
    shot(page, f"replay-end-{size}-action")
    page.click("#replay-next")
    # the result: the pot paid, the stacks after, the shown hands
    assert page.inner_text("#replay-pos") == f"Hand 1 · step {k + 1} of {n}: the result"
    assert page.inner_text("#replay-what") == "The result"
    stacks = page.locator("#replay-stacks .replay-stack").all_inner_texts()
    assert stacks == [f"{called[s]} {sv['stack']}"
                      for s, sv in enumerate(end["seats"]) if sv["dealt"]]
    assert f"pot {paid} awarded" in page.inner_text("#replay-center .pots")
    assert page.locator("#replay-result .shown-line").count() == len(end["result"]["shown"])
    assert re.search(r"\bwins? the pot \(\d+\)|\bsplit", page.inner_text("#replay-result"))
    assert page.is_disabled("#replay-next") == (not shows)
    shot(page, f"replay-end-{size}-result")
    if shows:  # then Ann shows her cards, the result still there
        page.click("#replay-next")
        assert page.inner_text("#replay-pos") == f"Hand 1 · step {n} of {n}"
        assert re.fullmatch(r"You show (?:[2-9JQKA]|10)[♣♦♥♠] (?:[2-9JQKA]|10)[♣♦♥♠]",
                            page.inner_text("#replay-what"))
        assert page.locator("#replay-result .shown-line").count() >= 1
        own = page.locator("#replay-seats .seat[data-seat='0'] .card").count()
        assert own == 2
        assert page.is_disabled("#replay-next")
        shot(page, f"replay-end-{size}-show")
        page.click("#replay-prev")
    page.click("#replay-prev")
    assert page.inner_text("#replay-pos") == f"Hand 1 · step {k} of {n}"

"""The committed deal in the page (issue 32), in Debian's Chromium through
Playwright, on a phone (390x844) and a desktop (1440x900): two players, each
in their own browser (Ann's a phone, Bob's a desktop), see the same commitment
before their first decision; their browsers send random client seeds, which the
deal uses; after the hand each page's verify result reports success, and the
copy it links verifies with ``rollem verify``.  Screenshots:
test-artifacts/web/verify-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    hosted_table,
    shot,
    sit,
    take_decision,
    viewport_context,
)
from web_harness import ServerThread

from rollem.verify import verify_text

pytestmark = pytest.mark.browser


def _commitment(page: Any) -> str | None:
    return page.evaluate(  # type: ignore[no-any-return]
        "() => { const c = document.querySelector('#verify-commitment');"
        " return c ? c.textContent : null; }")


def _decision_seq(page: Any) -> int | None:
    """The page's open decision's number (the state verify.js is handed), or None."""
    return page.evaluate(  # type: ignore[no-any-return]
        "() => window.rollemState ? window.rollemState.state.you.decision_seq : null")


def test_two_players_see_the_commitment_and_the_verified_copy(
        browser: Any, live: ServerThread) -> None:
    """Ann on a phone, Bob on a desktop: one table for both sizes (stop 74; each
    person's own browser, as the seeds need)."""
    sizes = {"ann": PHONE, "bob": DESKTOP}
    ctxs = [viewport_context(browser, size) for size in sizes.values()]
    try:
        tid, _host, table, ann = hosted_table(live, ctxs[0], game="sdr", seats=3, bots=1,
                                              between_hands=600)
        bob = ctxs[1].new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        table = live.manager.get(tid)
        assert table is not None
        ann.click("#start-btn")
        # Each player's first decision: the commitment is on the page already.
        first: dict[str, str | None] = {}
        acted: dict[str, int] = {}
        end = time.monotonic() + 90
        while table.hand is None or not table.hand.over:
            assert time.monotonic() < end, "hand 1 never ended"
            if table.final_hand is not None and table.hand is None:
                break
            for name, page in (("ann", ann), ("bob", bob)):
                # (each decision once: a page slow to get the next state still shows
                # the one just taken, and a second click would wait for a button that
                # comes only after the other player acts)
                kind, seq = decision_kind(page), _decision_seq(page)
                if kind is not None and seq is not None and acted.get(name) != seq:
                    acted[name] = seq
                    first.setdefault(name, _commitment(page))
                    take_decision(page, kind)
            ann.wait_for_timeout(100)
        hand = table.final_hand or table.hand
        assert hand is not None and hand.hand_no == 1
        deal = hand.public_deal()
        assert deal is not None
        # Both saw the hand's commitment before deciding anything (both decide in
        # sdr: the first betting round comes to each of them).
        assert first == {"ann": deal["commitment"], "bob": deal["commitment"]}
        # The deal used both browsers' random seeds (32 hex digits), the bot's empty one.
        seeds = deal["client_seeds"]
        people = [s for s in seeds if seeds[s]]
        assert len(people) == 2 and all(re.fullmatch("[0-9a-f]{32}", seeds[s]) for s in people)
        # After the hand each page reports its copy verified and links it.
        for name, page in (("ann", ann), ("bob", bob)):
            page.wait_for_selector("#verify-result[data-status=ok]", state="attached",
                                   timeout=20_000)
            text = page.inner_text("#verify-result")
            assert text.startswith("✓ Verified") and "committed deck" in text
            assert _commitment(page) == deal["commitment"]
            href = page.get_attribute("#verify-copy", "href")
            copy = page.request.get(live.url + str(href))
            assert copy.ok
            verdict = verify_text(copy.text())
            assert verdict.ok and verdict.commitment == deal["commitment"], verdict.reason
            page.locator("#verify").scroll_into_view_if_needed()
            box = page.locator("#verify").bounding_box()
            assert box is not None and box["x"] >= 0 \
                and box["x"] + box["width"] <= sizes[name]["width"] + 0.5, name
            shot(page, f"verify-{name}-{'phone' if sizes[name] is PHONE else 'desktop'}")
    finally:
        for ctx in ctxs:
            ctx.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_verify_panel_says_where_the_check_stopped_in_players_words(
        browser: Any, live: ServerThread, viewport: dict[str, int]) -> None:
    """Issue 26: a Roll Your Own copy is checked up to the pool's shuffle, and the
    panel said so in the file's terms ("not checked from line 7 of actions (p2 exp
    8d) on"); it names the action as the hand's log does, with its card drawn as
    on the felt: "from the fourth action (Bot 1 (random) turns up 8♦) on"."""
    mobile = viewport is PHONE
    ctx = viewport_context(browser, viewport, reduced_motion="reduce")
    try:
        _tid, _host, _table, page = hosted_table(live, ctx, game="rollyourown", seats=3, bots=2,
                                               between_hands=600)
        page.click("#start-btn")
        end = time.monotonic() + 90
        while page.locator("#verify-result").count() == 0:
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(50)
                continue
            take_decision(page, kind)
            page.wait_for_timeout(150)
        result = page.locator("#verify-result")
        text = result.inner_text()
        assert result.get_attribute("data-status") == "ok", text
        said = re.search(r"not checked from the (\w+) action \((.+) turns? up (10|[2-9JQKA])"
                         r"([♣♦♥♠])\) on: the pool's shuffle", text)
        assert said, text
        # the action the log tells: the first card turned up after the discards
        # (three of them), by the player the log names
        assert said.group(1) == "fourth", text
        who = "You" if said.group(2) == "you" else said.group(2)
        page.click("#log-box summary")
        page.wait_for_selector("#log li")
        log = page.locator("#log li").all_inner_texts()
        turned = [line for line in log if re.match(rf"{re.escape(who)} turns? up ", line)]
        assert turned and turned[0].startswith(
            f"{who} turn{'' if who == 'You' else 's'} up {said.group(3)}{said.group(4)}"), log
        assert not re.search(r"line \d+ of actions|\bp\d\b|\bexp\b", text), text
        page.locator("#verify").scroll_into_view_if_needed()
        shot(page, f"verify-ryo-stopped-{'phone' if mobile else 'desktop'}")
    finally:
        ctx.close()

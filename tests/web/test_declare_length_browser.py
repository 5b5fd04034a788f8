"""A 5-2-1 declaration leaves the page at one length whatever its side (stop 55;
docs/dev/hostile.md, "Own state padded").  TLS hides a message's content, not
its length: ``{"kind":"declare","side":"low"}`` was a byte shorter than ``high``
or ``both``, so an observer of the player's connection read a low declaration
before its reveal.  Ann declares low on a phone (390x844) and Bob on a desktop
(1440x900), in the same hand (stop 63: a hand a size before); the websocket frame
each page sends is as long as the same message with ``both``, and the server takes
it (each declaration is low).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    sit_with_enter,
    take_decision,
)
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser


def test_a_low_declaration_is_sent_as_long_as_a_high_one(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    seeded_deals(monkeypatch, 5)
    contexts = {size: context(browser, size, reduced_motion="reduce")
                for size in ("phone", "desktop")}
    try:
        tid, host_token = new_table(live.url, game="rollem521", seats=2, bots=0)
        page = open_as_host(contexts["phone"], live.url, tid, host_token)
        bob = contexts["desktop"].new_page()
        pages = {"phone": page, "desktop": bob}
        sent: dict[str, list[str]] = {size: [] for size in pages}
        for size, p in pages.items():
            p.on("websocket", lambda ws, size=size: ws.on(
                "framesent", lambda payload: sent[size].append(
                    payload if isinstance(payload, str) else payload.decode())))
        sit_with_enter(page, "Ann")
        bob.goto(f"{live.url}/t/{tid}")
        sit_with_enter(bob, "Bob")
        seat = {s.row.name: n for n, s in live.manager.get(tid).seats.items()}
        page.wait_for_selector("#seats .seat .name:has-text('Bob')")
        page.click("#start-btn")
        end = time.monotonic() + 60
        while not all(decision_kind(p) == "declare" for p in pages.values()):
            assert time.monotonic() < end, "no declaration reached"
            acted = False
            for p in pages.values():
                k = decision_kind(p)
                if k is not None and k != "declare":
                    take_decision(p, k)
                    acted = True
                    p.wait_for_timeout(100)
            if not acted:
                page.wait_for_timeout(50)
        # what declaring asks, at both sizes (stop 72: the buttons alone, R-521-8/9)
        for size, p in pages.items():
            assert p.inner_text("#controls .declare-ask").strip() == (
                "· Everyone declares at once; the choices are shown together. Both: win "
                "high and low outright (a tie loses), or collect nothing.")
            shot(p, f"declare-ask-{size}")
        # Ann's first (the hand still waits for Bob's: her own words for it), then Bob's
        # (the last decision of the hand: the declarations the finished hand keeps)
        table = live.manager.get(tid)
        session = table.hand
        page.locator("#controls [data-action=declare-low]").click()
        while seat["Ann"] in session.pending_seats():
            assert time.monotonic() < end, "Ann's declaration never arrived"
            page.wait_for_timeout(30)
        said = session.view(seat["Ann"])["last_actions"][str(seat["Ann"])]["text"]
        assert said == "you declared low"
        bob.locator("#controls [data-action=declare-low]").click()
        while table.final_hand is None or table.final_hand.hand.result is None:
            assert time.monotonic() < end, "Bob's declaration never arrived"
            page.wait_for_timeout(30)
        declared = table.final_hand.hand.extra["declarations"]
        assert declared == {seat["Ann"]: "low", seat["Bob"]: "low"}, declared
        for size in pages:
            frames = [f for f in sent[size] if '"declare"' in f]
            assert len(frames) == 1, (size, frames)
            frame = frames[0]
            message = json.loads(frame)
            assert message["action"] == {"kind": "declare", "side": "low"}
            high = json.dumps({**message, "action": {"kind": "declare", "side": "both"}},
                              separators=(",", ":"))
            assert len(frame) == len(high), (size, frame, high)
            assert frame == json.dumps(message, separators=(",", ":")) + " ", size
    finally:
        for ctx in contexts.values():
            ctx.close()

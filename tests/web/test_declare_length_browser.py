"""A 5-2-1 declaration leaves the page at one length whatever its side (stop 55;
docs/dev/hostile.md, "Own state padded").  TLS hides a message's content, not
its length: ``{"kind":"declare","side":"low"}`` was a byte shorter than ``high``
or ``both``, so an observer of the player's connection read a low declaration
before its reveal.  Ann declares low on a phone (390x844) and a desktop
(1440x900); the websocket frame her page sends is as long as the same message
with ``both``, and the server takes it (her declaration is low).
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from table_ui import context, decision_kind, new_table, open_as_host, sit_with_enter, take_decision
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_low_declaration_is_sent_as_long_as_a_high_one(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 5)
    ctx = context(browser, size, reduced_motion="reduce")
    bob_ctx = context(browser, size, reduced_motion="reduce")
    try:
        tid, host_token = new_table(live.url, game="rollem521", seats=2, bots=0)
        page = open_as_host(ctx, live.url, tid, host_token)
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on(
            "framesent", lambda payload: sent.append(payload if isinstance(payload, str)
                                                     else payload.decode())))
        sit_with_enter(page, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit_with_enter(bob, "Bob")
        ann_seat = next(n for n, s in live.manager.get(tid).seats.items() if s.row.name == "Ann")
        page.wait_for_selector("#seats .seat .name:has-text('Bob')")
        page.click("#start-btn")
        end = time.monotonic() + 60
        while decision_kind(page) != "declare":
            assert time.monotonic() < end, "no declaration reached"
            acted = False
            for p in (page, bob):
                k = decision_kind(p)
                if k is not None and k != "declare":
                    take_decision(p, k)
                    acted = True
                    p.wait_for_timeout(100)
            if not acted:
                page.wait_for_timeout(50)
        page.locator("#controls [data-action=declare-low]").click()
        session = live.manager.get(tid).hand
        while ann_seat in session.pending_seats():
            assert time.monotonic() < end, "the declaration never arrived"
            page.wait_for_timeout(30)
        assert session.view(ann_seat)["last_actions"][str(ann_seat)]["text"] == "you declared low"
        frames = [f for f in sent if '"declare"' in f]
        assert len(frames) == 1, frames
        frame = frames[0]
        message = json.loads(frame)
        assert message["action"] == {"kind": "declare", "side": "low"}
        high = json.dumps({**message, "action": {"kind": "declare", "side": "both"}},
                          separators=(",", ":"))
        assert len(frame) == len(high), (frame, high)
        assert frame == json.dumps(message, separators=(",", ":")) + " "
    finally:
        ctx.close()
        bob_ctx.close()

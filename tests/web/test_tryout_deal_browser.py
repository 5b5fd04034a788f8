"""The tournament deal's **Agree** answers the shares the page shows (try-out of
stop 44, branch s44-tryout, docs/dev/hostile.md), at 390x844 and 1440x900: Bob's
page shows Ann's ICM shares; before his click arrives Ann withdraws and Cy
proposes a chip-chop (other shares).  The click carried no word of the shares,
so Bob agreed to the chip-chop he never saw; now the page sends the shares it
showed and the refusal says the deal changed.  Fails on the code before.  Bob's
phone and a desktop page of his on one table (stop 72)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    context,
    open_as_host,
    record_toasts,
    shot,
    sit,
    wait_toast_shown,
    wait_until,
)
from test_tournament_server import SCHEDULE
from web_harness import ServerThread

pytestmark = pytest.mark.browser


def _held_page(browser: Any, size: str) -> tuple[Any, Any, dict[str, Any]]:
    """A page whose websocket's messages from the server are queued while
    ``hold["on"]`` (a slow network: the page still shows the old state), and
    delivered in order by ``hold["flush"]()``."""
    ctx = context(browser, size)
    hold: dict[str, Any] = {"on": False, "queue": [], "page_ws": None}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        hold["page_ws"] = ws
        ws.on_message(lambda m: server.send(m))

        def from_server(m: Any) -> None:
            if hold["on"]:
                hold["queue"].append(m)
            else:
                ws.send(m)
        server.on_message(from_server)

    def flush() -> None:
        hold["on"] = False
        while hold["queue"]:
            hold["page_ws"].send(hold["queue"].pop(0))

    hold["flush"] = flush
    ctx.route_web_socket(re.compile(r".*/ws/.*"), route)
    return ctx, ctx.new_page(), hold


def test_agree_answers_the_shares_the_page_shows(browser: Any, tmp_path: Path) -> None:
    """Bob at both sizes from one table (stop 72): his phone's page (390x844) and a
    second page of his (his cookies: the same player) at 1440x900, both held; both
    click Agree on the old shares, both are refused; then the phone agrees."""
    server = ServerThread(tmp_path / "deal.db")
    contexts = []
    try:
        import httpx
        r = httpx.post(server.url + "/api/tables", json={
            "game": "sdr", "seats": 3, "bots": 0, "decision_seconds": 0.1,
            "time_bank_seconds": 0, "between_hands": 600, "tournament": "custom",
            "tournament_schedule": SCHEDULE, "buy_in": 10, "payouts": [70, 30]})
        assert r.status_code == 200, r.text
        tid = r.json()["id"]
        token = next(v for k, v in r.cookies.items() if k.startswith("rollem_host"))
        desk = browser.new_context(viewport=DESKTOP)
        contexts.append(desk)
        ann = open_as_host(desk, server.url, tid, token)
        sit(ann, "Ann")
        bob_ctx, bob, hold = _held_page(browser, "phone")
        contexts.append(bob_ctx)
        bob.goto(f"{server.url}/t/{tid}")
        sit(bob, "Bob")
        bob2_ctx, bob2, hold2 = _held_page(browser, "desktop")
        contexts.append(bob2_ctx)
        bob2_ctx.add_cookies(bob_ctx.cookies())
        bob2.goto(f"{server.url}/t/{tid}")
        bob2.locator(".me").first.wait_for()
        bobs = {"phone": (bob, hold), "desktop": (bob2, hold2)}
        cy_ctx = browser.new_context(viewport=DESKTOP)
        contexts.append(cy_ctx)
        cy = cy_ctx.new_page()
        cy.goto(f"{server.url}/t/{tid}")
        sit(cy, "Cy")
        ann.click("#start-btn")
        table = server.manager.tables[tid]
        end = time.monotonic() + 90  # (the 1 s clock checks or folds for everyone)
        while table.session.get("hand_no", 0) < 1 or table.hand is not None:
            assert time.monotonic() < end, "hand 1 never ended"
            time.sleep(0.2)

        def unequal() -> None:  # (the stacks a few hands could leave: other shares)
            for seat, stack in zip(range(3), (120, 40, 20), strict=True):
                table.seats[seat].row.stack = stack
        server.call(unequal)
        ann.click("[data-deal=icm]")
        icm: dict[str, list[str]] = {}
        for size, (page, held) in bobs.items():
            page.wait_for_selector("[data-deal=agree]")
            icm[size] = page.locator(".deal-shares li").all_inner_texts()
            record_toasts(page)
            held["on"] = True
        assert icm["phone"] == icm["desktop"] and icm["phone"]
        ann.click("[data-deal=decline]")  # Ann withdraws; Cy proposes a chip-chop
        cy.wait_for_selector("[data-deal=chip_chop]")
        cy.click("[data-deal=chip_chop]")
        wait_until(ann, "() => !!document.querySelector('[data-deal=agree]')")
        proposal = table.session["tournament"]["proposal"]
        assert proposal["method"] == "chip_chop" and proposal["agreed"] == [2]
        for size, (page, _held) in bobs.items():
            # (still shown)
            assert page.locator(".deal-shares li").all_inner_texts() == icm[size], size
            page.click("[data-deal=agree]")
        bob.wait_for_timeout(500)
        for size, (page, held) in bobs.items():
            held["flush"]()
            wait_toast_shown(page, "the deal changed since you saw it")
            assert table.session["tournament"]["proposal"]["agreed"] == [2], size  # not Bob
            page.wait_for_selector(".deal-shares li:has-text('(deciding)')")
            shot(page, f"deal-changed-{size}")
        bob.click("[data-deal=agree]")  # the shares now shown: agreed
        for page, _held in bobs.values():
            wait_until(page, "() => !document.querySelector('[data-deal=agree]')")
        assert sorted(table.session["tournament"]["proposal"]["agreed"]) == [1, 2]
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()

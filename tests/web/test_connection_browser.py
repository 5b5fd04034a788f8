"""A connection that dies without a close event (a phone leaving its Wi-Fi) in
Chromium: the page must say so and turn its buttons off within seconds, not go on
saying "connected" while a tap goes nowhere and the clock acts; when the network
is back it reconnects and the decision can be made.

The page pings every 5 s and after each action, and gives up on a connection whose
ping is unanswered for 4 s (``PING_MS``, ``ANSWER_MS`` in static/table/state.js); the browser's
``offline`` event ends it at once.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from table_ui import (
    PHONE,
    decision_kind,
    new_table,
    open_as_host,
    sit_with_enter,
    take_decision,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

OFF = """() => document.querySelector('#notice').innerText.includes('Disconnected')
  && document.querySelector('#conn').innerText === 'reconnecting…'
  && [...document.querySelectorAll('#controls button')].length > 0
  && [...document.querySelectorAll('#controls button')].every(b => b.disabled)"""
ON = """() => document.querySelector('#conn').innerText === 'connected'
  && document.querySelector('#notice').classList.contains('hidden')
  && [...document.querySelectorAll('#controls button[data-action]')].some(b => !b.disabled)"""


def _player_actions(live: ServerThread, tid: str) -> int:
    """How many actions of hand 1 a person (not a computer player or a clock) made."""
    return sum(row.source == "player" for row in live.manager.store.load_actions(tid, 1))


def _at_a_bet(live: ServerThread, ctx: Any) -> tuple[Any, str]:
    tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1)
    page = open_as_host(ctx, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    wait_until(page, "() => document.querySelector('#controls [data-action=fold]') !== null")
    assert decision_kind(page) == "bet"
    return page, tid


def _decide_and_see_it_played(live: ServerThread, page: Any, tid: str, done: int) -> None:
    """Once the page is back: make the decision; the server must get it."""
    wait_until(page, ON, timeout=10)
    take_decision(page, "bet")
    for _ in range(200):
        if _player_actions(live, tid) > done:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the server never got the action made after reconnecting")


def test_going_offline_turns_the_buttons_off_and_online_reconnects(
        browser: Any, live: ServerThread) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page, tid = _at_a_bet(live, ctx)
        ctx.set_offline(True)
        wait_until(page, OFF, timeout=10)
        # No tap can be made while offline: every button of the decision is off.
        buttons = page.locator("#controls button")
        assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
        assert _player_actions(live, tid) == 0
        ctx.set_offline(False)
        _decide_and_see_it_played(live, page, tid, 0)
    finally:
        ctx.close()


def test_a_silently_dropped_connection_is_found_by_its_unanswered_ping(
        browser: Any, live: ServerThread) -> None:
    """Nothing the page sends reaches the server and no close event comes: the tap
    made then is found unanswered, the page says it is disconnected, and once the
    connection is back it says the tap did not reach the table."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    black_hole = {"on": False}

    def route(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if black_hole["on"] else server.send(m))

    ctx.route_web_socket(re.compile(r".*/ws/.*"), route)
    try:
        page, tid = _at_a_bet(live, ctx)
        black_hole["on"] = True
        take_decision(page, "bet")
        wait_until(page, OFF, timeout=10)  # found by the ping after the tap (4 s)
        assert _player_actions(live, tid) == 0
        black_hole["on"] = False
        wait_until(page, ON, timeout=10)
        assert "did not reach the table" in page.inner_text("#toast")
        _decide_and_see_it_played(live, page, tid, 0)
    finally:
        ctx.close()

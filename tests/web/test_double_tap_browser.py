"""A double tap (a double click) on a decision's button sends its answer once
(s64-fresh), at 390x844 and 1440x900 through Playwright.

Before, both taps went out with the same sequence number: the first was played, the
second came back refused as ``stale`` and its toast ("that answer was to an earlier
decision (made already, perhaps in another tab or window of yours) ... sequence
number 42 is older than your decision (offered at 43)") covered the player's next
decision, on a phone the whole of the felt's top.  The same for the dealer's choice
of a game, the host's Deal ("the game has already started") and a rebuy ("you still
have 100 chips; rebuy at 0"; a top-up, the add-on and the host's answers in Host
controls, "seat 2 has not asked to rebuy", go the same way).  And a double tap on
Fold where checking is free, or on Leave, answered its own "Fold anyway?" / "Leave
the table?" (each in the place of the button that asked): it folded, or left the
table.  Screenshots: test-artifacts/web/double-tap-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from table_ui import (
    context,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    record_toasts,
    shot,
    sit_with_enter,
    wait_first_bet,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

SENT = """
window.__sent = [];
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  try { const m = JSON.parse(data); if (m.type !== 'ping') window.__sent.push(m); } catch (e) {}
  return realSend.call(this, data);
};
// settled(): the clicks dispatched, and the server's answer to an echo sent after them
window.__clicks = 0; window.__echoed = 0; window.__echoes = 0; window.__ws = null;
document.addEventListener('click', () => { window.__clicks++; }, true);
const onmessage = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
Object.defineProperty(WebSocket.prototype, 'onmessage', {
  configurable: true, get() { return onmessage.get.call(this); },
  set(fn) {
    window.__ws = this;
    onmessage.set.call(this, fn && ((ev) => {
      const m = JSON.parse(ev.data);
      const echo = m.type === 'error' && m.ref && m.ref.type === 'client_seed'
        && m.ref.hand > ECHO_FROM;
      if (!echo) return fn(ev);
      window.__echoed = m.ref.hand - ECHO_FROM;   // (the page never sees it)
    }));
  },
});
window.__echo = () => {
  window.__echoes++;
  realSend.call(window.__ws, JSON.stringify(
    {type: 'client_seed', hand: ECHO_FROM + window.__echoes, seed: ''}));
  return window.__echoes;
};
""".replace("ECHO_FROM", "1000000000")


def clicks(page: Any) -> int:
    """The clicks the page has dispatched so far (a tap's or a double click's two)."""
    return int(page.evaluate("() => window.__clicks"))


def settled(page: Any, clicked: int) -> None:
    """Wait until the page has dispatched ``clicked`` clicks in all (a phone's taps
    become clicks after the tap returns), then until the server has answered every
    message the page sent before now: an echo (a client seed for a hand far ahead,
    always refused: its error, with its hand number, never reaches the page's code)
    is sent on the page's socket, and the server reads a socket's messages one by
    one and sends its refusals in order after the commits before them (a message
    waiting for an action applied off the loop waits in order too).  So a second
    tap's message, had it gone out, has been answered (refused, its toast shown)
    once the echo is back; before, a fixed 0.8 to 1.5 s was waited instead."""
    page.wait_for_function(f"() => window.__clicks >= {clicked}")
    n = page.evaluate("() => window.__echo()")
    page.wait_for_function(f"() => window.__echoed >= {n}")


def double_tap(page: Any, selector: str, size: str) -> None:
    """Two quick taps on the middle of ``selector`` on a phone (touch: the second
    click's ``detail`` is 2, as a double click's), a double click on a desktop."""
    if size != "phone":
        page.locator(selector).dblclick()
        return
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(60)
    page.touchscreen.tap(x, y)


def sent(page: Any, kind: str) -> list[dict[str, Any]]:
    return [m for m in page.evaluate("() => window.__sent") if m["type"] == kind]


@contextmanager
def seated_host(browser: Any, live: ServerThread, size: str,
                **config: Any) -> Iterator[tuple[str, Any]]:
    """A new table of ``config`` on ``live`` (its computer players only checking), its
    host's page at ``size`` (a context of its own, :data:`SENT` in it) seated as Ann
    with Enter, its toasts recorded: yields (table id, page); the context closed after."""
    ctx = context(browser, size)
    ctx.add_init_script(SENT)
    try:
        tid, host_token = new_table(live.url, **config)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        record_toasts(page)
        yield tid, page
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_double_tap_answers_once(browser: Any, live: ServerThread, size: str) -> None:
    with seated_host(browser, live, size, game="dealers-choice", seats=2, bots=1,
                     choices=["sdr", "holdem"]) as (_, page):
        clicked = clicks(page) + 2
        page.locator("#start-btn").dblclick()  # the host's Deal, double-tapped
        # Ann (seat 0) has the button of hand 1: she names the game, with a double tap
        page.wait_for_selector("#controls [data-game=holdem]")
        settled(page, clicked)
        clicked = clicks(page) + 2
        page.locator("#controls [data-game=holdem]").dblclick()
        wait_first_bet(page)
        settled(page, clicked)
        shot(page, f"double-tap-{size}-chosen")
        assert len(sent(page, "start")) == 1, sent(page, "start")
        assert len(sent(page, "choose_game")) == 1, sent(page, "choose_game")
        # her first bet, with a double tap (check, else call)
        action = page.evaluate("""() => document.querySelector(
            '#controls [data-action=check]') ? 'check' : 'call'""")
        clicked = clicks(page) + 2
        page.locator(f"#controls [data-action={action}]").dblclick()
        settled(page, clicked)
        shot(page, f"double-tap-{size}-acted")
        actions = sent(page, "action")
        assert len(actions) == 1, json.dumps(actions)
        toasts = page.evaluate("() => window.__toasts")
        assert not [t for t in toasts if "earlier decision" in t or "not your" in t
                    or "already started" in t], toasts
        # a single tap still acts at each later decision, and a refused answer
        # may be made again (the clear of the guard): the hand plays on to its end
        end_at = 60_000
        while not page.locator("#result:not(.hidden)").count() and end_at > 0:
            kind = decision_kind(page)
            if kind == "bet":
                a = page.evaluate("""() => document.querySelector(
                    '#controls [data-action=check]') ? 'check' : 'call'""")
                page.locator(f"#controls [data-action={a}]").click()
            page.wait_for_timeout(100)
            end_at -= 100
        assert page.locator("#result:not(.hidden)").count(), "hand 1 never ended"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_double_tapped_rebuy_is_sent_once(browser: Any, live: ServerThread,
                                            size: str) -> None:
    with seated_host(browser, live, size, game="holdem", seats=2, bots=1) as (_, page):
        # before the first deal the host sets Ann's stack to 0: she is busted
        page.evaluate("""() => window.rollemState.send(
            {type: 'host', op: 'adjust_stack', seat: 0, stack: 0})""")
        page.wait_for_selector("#dock [data-action=rebuy]")
        clicked = clicks(page) + 2
        page.locator("#dock [data-action=rebuy]").dblclick()
        page.wait_for_selector(".me-head:has-text('stack 200')")
        settled(page, clicked)
        shot(page, f"double-tap-{size}-rebuy")
        assert len(sent(page, "rebuy")) == 1, sent(page, "rebuy")
        toasts = page.evaluate("() => window.__toasts")
        assert not [t for t in toasts if "rebuy at 0" in t], toasts


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_double_tap_on_fold_or_leave_still_asks(browser: Any, live: ServerThread,
                                                  size: str) -> None:
    with seated_host(browser, live, size, game="sdr", seats=3, bots=2) as (_, page):
        # Leave, double-tapped before the deal: still seated, asked
        clicked = clicks(page) + 2
        double_tap(page, "#dock [data-action=leave]", size)
        settled(page, clicked)
        assert page.locator("#dock [data-action=leave-confirm]").count() == 1
        assert not sent(page, "leave")
        page.click("#start-btn")
        wait_first_bet(page)
        assert page.locator("#controls [data-action=check]").count(), "no free check"
        clicked = clicks(page) + 2
        double_tap(page, "#controls [data-action=fold]", size)
        settled(page, clicked)
        shot(page, f"double-tap-{size}-fold")
        assert decision_kind(page) == "fold-confirm"
        assert not sent(page, "action"), sent(page, "action")
        # a tap after the double tap answers the question
        clicked = clicks(page) + 1
        page.locator("#controls [data-action=fold-confirm]").click()
        settled(page, clicked)
        assert [m["action"]["kind"] for m in sent(page, "action")] == ["fold"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_double_tapped_approve_is_sent_once(browser: Any, live: ServerThread,
                                              size: str) -> None:
    """The host's answers in Host controls (Approve a rebuy here): before, the second
    tap's toast said "seat 2 has not asked to rebuy"."""
    friend = context(browser, "phone")
    try:
        with seated_host(browser, live, size, game="holdem", seats=3, bots=0,
                         rebuy_approval=True) as (tid, page):
            bob = friend.new_page()
            bob.goto(f"{live.url}/t/{tid}")
            sit_with_enter(bob, "Bob")
            page.evaluate("""() => window.rollemState.send(
                {type: 'host', op: 'adjust_stack', seat: 1, stack: 0})""")
            bob.wait_for_selector("#dock [data-action=rebuy]")
            bob.locator("#dock [data-action=rebuy]").click()
            page.click("#host-box summary")
            approve = page.locator("#host-tools [data-host=approve_rebuy]")
            approve.wait_for()
            clicked = clicks(page) + 2
            approve.dblclick()
            bob.wait_for_selector(".me-head:has-text('stack 200')")
            settled(page, clicked)
            shot(page, f"double-tap-{size}-approve")
            assert len(sent(page, "host")) == 2, sent(page, "host")  # the stack, one approve
            toasts = page.evaluate("() => window.__toasts")
            assert not [t for t in toasts if "has not asked" in t], toasts
    finally:
        friend.close()

"""A tournament night's leftovers (branch s62-night), in Debian's Chromium through
Playwright at 390x844 and 1440x900; screenshots under
test-artifacts/web/s62-night-*.png.

1. On a phone, at a six-seat Roll Your Own table, the felt's pot lay under the
   dock at every decision (the wild card, the pool and "your discards" below the
   tiles, the tournament's panel above them, the bet sizes in the dock): a friend
   read "Your turn" above **½ pot** and **pot** with no pot in view.  Now the
   prompt says it where the felt may run under the dock: "Your turn · pot 22"
   ("· to call 4 · pot 26"); a wide screen's felt keeps its pot in view and the
   prompt as before."""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import context, decision_kind, hosted_table, shot, take_decision
from web_harness import ServerThread

pytestmark = pytest.mark.browser

LONG_LEVEL = """
stack = 100
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 30
"""

WHERE = """() => {
  const pot = document.querySelector('#pots .pot-total');
  const dock = document.querySelector('#dock').getBoundingClientRect();
  const prompt = document.querySelector('#controls .prompt-line');
  return {potBottom: pot ? pot.getBoundingClientRect().bottom : null,
          total: pot ? Number(pot.dataset.total) : null, dockTop: dock.top,
          prompt: prompt ? prompt.innerText : null};
}"""


def _at_a_bet(page: Any, end: float) -> None:
    """Ann's next betting decision (her other decisions made as ``take_decision``)."""
    while (kind := decision_kind(page)) != "bet":
        assert time.monotonic() < end, "Ann's betting decision never came"
        if kind is not None:
            take_decision(page, kind)
        page.wait_for_timeout(40)
    page.wait_for_timeout(200)


def test_your_turn_says_the_pot_where_the_felt_runs_under_the_dock(
        browser: Any, live: ServerThread) -> None:
    """Both sizes at the same decisions: Ann plays on her phone page; her desktop page
    (the same player) is read at each of them once it has drawn the same decision
    (s62-suite2: a table a size before)."""
    contexts = [context(browser, "phone"), context(browser, "desktop")]
    try:
        tid, _host, _table, page = hosted_table(
            live, contexts[0], game="rollyourown", seats=6, bots=5, structure="pot-limit",
            tournament="custom", tournament_schedule=LONG_LEVEL, buy_in=10)
        contexts[1].add_cookies(contexts[0].cookies())   # (the same player)
        desk = contexts[1].new_page()
        desk.goto(f"{live.url}/t/{tid}")
        desk.wait_for_selector(".me .name:has-text('Ann')")
        page.click("#start-btn")
        end = time.monotonic() + 60
        seen = []
        for turn in range(3):
            _at_a_bet(page, end)
            key = page.get_attribute("#controls", "data-key")
            desk.wait_for_function("(k) => document.querySelector('#controls').dataset.key"
                                   " === k", arg=key, timeout=10_000)
            desk.wait_for_timeout(200)
            for p, size in ((page, "phone"), (desk, "desktop")):
                got = p.evaluate(WHERE)
                assert got["total"] is not None and got["total"] > 0, (size, got)
                if size == "phone":
                    seen.append(got)
                    assert got["prompt"].startswith("Your turn"), got
                    assert got["prompt"].endswith(f" · pot {got['total']}"), got
                else:
                    # in view above the dock; the prompt as before
                    assert got["potBottom"] <= got["dockTop"], got
                    assert "pot" not in got["prompt"], got
                shot(p, f"s62-night-turn-pot-{size}-{turn}")
            take_decision(page, "bet")   # (check, else call)
            page.wait_for_function("(k) => document.querySelector('#controls').dataset.key"
                                   " !== k", arg=key, timeout=10_000)
        # the felt's pot was under the dock on the phone (main: nothing said it)
        assert any(g["potBottom"] > g["dockTop"] for g in seen), seen
    finally:
        for ctx in contexts:
            ctx.close()

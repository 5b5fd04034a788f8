"""Each seat's label in the browser, in every shipped game (issue 26): one short
seeded hand of the games whose checking players draw a label kind that the felt's
grid (tests/web/felt_grid.py, every shipped game at 2, 6 and 10 seats) does not,
three-handed, on a phone (390x844) and a desktop (1440x900), one page per size
walking a table of each game in turn on one server.

The computer players are deterministic (:class:`BettingBot`: bets the least it may,
else calls; :class:`CheckingBot`: checks, else calls; every other decision as
``basic`` with a seeded coin); Ann bets or raises at her first chance, then plays
passively.  At each of her decisions (the table waits for her, so nothing moves)
and at the result, every seat's label as drawn is the latest action the server
logged for it (betting words: this round's), of that action's kind, in the
server's words with card symbols, and no seat without one shows a label
(:mod:`felt_ui`).  The server-side words are checked for every decision at 2, 6 and
10 seats in tests/test_felt_labels.py.  Screenshots: test-artifacts/web/labels-*.png.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from felt_grid import MUST as GRID_MUST
from felt_ui import check_labels, drawn_felt, home_game_labels
from table_ui import (
    DESKTOP,
    PHONE,
    CheckingBot,
    decision_kind,
    new_table,
    shot,
    sit_with_enter,
    take_decision,
    wait_played,
)
from web_harness import BettingBot, ServerThread, seeded_deals

from rollem import games
from rollem.server.app import host_cookie

pytestmark = pytest.mark.browser

BETTING = frozenset({"sdr", "rollem521", "holdem", "omaha8", "stud", "razz", "draw5"})
"""Games played against :class:`BettingBot` (the others: :class:`CheckingBot`)."""

MUST = {
    "sdr": {"bet", "call"},
    "rollyourown": {"discard", "expose", "draw", "check"},
    "rollem521": {"draw", "stack", "roll", "show"},
    "holdem": {"bet", "call", "blind"},
    "omaha": {"check", "blind"},
    "omaha8": {"bet", "call", "blind"},
    "stud": {"bet", "call"},
    "stud8": {"bring-in"},
    "razz": {"bet", "call", "check"},
    "draw5": {"draw", "call"},
    "deuces-wild": {"draw", "check"},
}
"""Label kinds each game's hand must have drawn (seed 5 and these players)."""


def play_one(page: Any, live: ServerThread, game: str, size: str) -> set[str]:
    """Deal one hand of ``game`` at a new table in ``page`` and check every seat's
    label at each of Ann's decisions and at the result; returns the kinds drawn."""
    tid, host_token = new_table(live.url, game=game, seats=3, bots=2)
    bot = BettingBot if game in BETTING else CheckingBot
    live.manager.get(tid).bot_factory = lambda level: bot(random.Random(0))
    page.context.add_cookies([{"name": host_cookie(tid), "value": host_token, "url": live.url}])
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    end = time.monotonic() + 30
    made = 0
    kinds: set[str] = set()
    raised = False
    while not page.locator("#result:not(.hidden)").count():
        assert time.monotonic() < end, f"{game}: the hand did not finish"
        kind = decision_kind(page)
        if kind is None:
            page.wait_for_timeout(30)
            continue
        kinds |= home_game_labels(page, live, tid, f"{size} {game} decision {made + 1} ({kind})")
        c = page.locator("#controls")
        aggressive = c.locator("[data-action=raise], [data-action=bet]")
        if kind == "bet" and not raised and aggressive.count():
            raised = True
            aggressive.first.click()
        else:
            take_decision(page, kind)
        made += 1
        wait_played(page, live, tid, made, f"{game} decision {made}")
    view, drawn = drawn_felt(page, live, tid)
    assert view["result"], f"{game}: the page shows a result the server has not"
    kinds |= check_labels(view, drawn, f"{size} {game} result")
    shot(page, f"labels-{size}-{game}")
    assert made, f"{game}: Ann never decided"
    return kinds


WALKS = {"phone": ("stud8", "razz"), "desktop": ("omaha", "deuces-wild")}
"""The games each size walks: those with a label kind (:data:`MUST`) that the
felt's grid does not draw (its computer players always bet: no "check" label in
Omaha, razz or deuces wild; no bring-in label left at the person's decision in
stud hi-lo).  Every shipped game's labels are checked at each decision and at the
result, at 2, 6 and 10 seats and both sizes, by the grid
(tests/web/felt_grid.py), with the kinds of :data:`felt_grid.MUST`."""


def test_every_label_kind_is_drawn_here_or_in_the_grid() -> None:
    walked = WALKS["phone"] + WALKS["desktop"]
    assert sorted(MUST) == sorted(games.shipped_ids())
    assert all(MUST[g] <= GRID_MUST[g] for g in MUST if g not in walked), \
        {g: MUST[g] - GRID_MUST[g] for g in MUST if g not in walked}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_game_labels_each_seat_as_the_server_logged(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 5)
    # (reduced motion: labels are drawn the same, tests/web/test_felt_browser.py;
    # the screenshots then show no chips in flight, and the page spends less)
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                               reduced_motion="reduce")
           if size == "phone" else browser.new_context(viewport=DESKTOP, reduced_motion="reduce"))
    try:
        page = ctx.new_page()
        drawn = {game: play_one(page, live, game, size) for game in WALKS[size]}
    finally:
        ctx.close()
    missing = {g: MUST[g] - k for g, k in drawn.items() if MUST[g] - k}
    assert not missing, (missing, drawn)

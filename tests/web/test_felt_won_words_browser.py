"""What a winner took, as the felt and your dock say it, in Debian's Chromium through
Playwright at 390x844 and 1440x900 (stop 52, a friend group's look at the table).

The winner's tag said "+44" next to the result's "You win the pot (44)" and "This
hand: you won 32" (the net: the pot less the 12 the winner put in): two different
"won" figures, the "+" reading as a net.  It now says "wins 44" (a half: "wins 9
(high)"), as the result says it; the chips are in ``data-amount``.

Screenshots: test-artifacts/web/felt-won-words-*.png.
"""

from __future__ import annotations

import re
import time

import pytest
from table_ui import Pages, decision_kind, goto_as_host, new_table, shot, sit_with_enter
from web_harness import ServerThread, only_betting_bots, seeded_deals

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_winners_tag_says_what_the_pot_paid_as_the_result_does(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """Hold'em, three seats, Ann and two computer players that bet the least or call,
    a seeded deal, Ann calling down: at the result every winner's tag (a seat's tile,
    or Ann's dock) says "wins N" with N what the pot paid that seat, the tags add up
    to the pots, and no tag says a "+": the net is the result's "This hand" line."""
    seeded_deals(monkeypatch, 3)
    with pages.open(size) as page:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        only_betting_bots(live, tid)
        goto_as_host(page, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        end = time.time() + 60
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < end, "the hand did not finish"
            if decision_kind(page) == "bet":
                page.locator("#controls [data-action=call], #controls [data-action=check]"
                             ).first.click()
            page.wait_for_timeout(60)
        row = live.manager.store.load_hand(tid, 1)
        paid: dict[str, int] = {}
        for pot in row.result["pots"]:
            for seat, amount in (pot.get("winners") or {}).items():
                paid[str(seat)] = paid.get(str(seat), 0) + int(amount)
        assert paid, row.result
        page.wait_for_timeout(300)
        tags = page.evaluate("""() => [...document.querySelectorAll('.won-part')].map(w => [
          w.closest('[data-seat]') ? w.closest('[data-seat]').dataset.seat
            : (w.closest('.me') ? 'me' : '?'), w.textContent, w.dataset.amount])""")
        shot(page, f"felt-won-words-{size}")
        assert tags, "no winner's tag drawn"
        for where, text, amount in tags:
            assert re.fullmatch(r"wins \d+", text), (where, text)
            assert text == f"wins {amount}", (where, text, amount)
            assert "+" not in text
        # each tag inside its seat's tile (a half's words may wrap, never overflow)
        outside = page.evaluate("""() => [...document.querySelectorAll('#seats .won-part')]
          .filter(w => { const t = w.closest('.seat').getBoundingClientRect(),
                               b = w.getBoundingClientRect();
                         return b.left < t.left - 0.5 || b.right > t.right + 0.5; })
          .map(w => w.textContent)""")
        assert outside == [], outside
        felt = {w: int(a) for w, _, a in tags if w not in ("me", "?")}
        mine = [int(a) for w, _, a in tags if w == "me"]
        want_felt = {s: a for s, a in paid.items() if s != "0"}
        assert felt == want_felt or {**felt, **({"0": mine[0]} if mine else {})} == paid, (
            tags, paid)
        if "0" in paid:
            assert mine == [paid["0"]], (tags, paid)
            net = page.inner_text("#result")
            assert f"You win the pot ({paid['0']})" in net, net

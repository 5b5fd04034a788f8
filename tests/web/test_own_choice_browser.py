"""A choice made all at once is told back to its maker on the page, and to nobody
else (docs/dev/hostile.md, "A choice made all at once is not shown back to its
maker"; R-RYO-2, R-RYO-3): Ann and Bob, two people at a Roll Your Own table, on a
phone (390x844) and a desktop (1440x900): each plays on a phone page, a desktop page
of each (the same person) open beside it (stop 63: a hand a size before).  Ann
picks her discards before Bob: her
own label says "you threw" and the cards, also after she reloads the page; Bob's
page says only "chose discards" for her and names none of them.  The same for her
card to turn up ("you turn up ...": "chose a card").  The server's words for every
seat are checked in tests/test_felt_own_choice.py.
Screenshots: test-artifacts/web/own-choice-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from felt_ui import symbols
from table_ui import (
    context,
    decision_kind,
    new_table,
    open_as_host,
    shot,
    sit_with_enter,
    take_decision,
    wait_until,
)
from web_harness import ServerThread, seeded_deals

pytestmark = pytest.mark.browser

HIDDEN = {"discard": "chose discards", "expose": "chose a card", "stack": "has stacked",
          "declare": "has declared"}
OWN = {"discard": "you threw ", "expose": "you turn up ", "stack": "you stacked ",
       "declare": "you declared "}
CHECKED = {"rollyourown": ("discard", "expose"), "rollem521": ("stack", "declare")}
"""The choices Ann makes before Bob in each game (5-2-1: she declares low)."""


def _label(page: Any, where: str) -> str | None:
    """The text of the action label inside ``where`` (a selector), as drawn."""
    return page.evaluate("""(w) => {
      const l = document.querySelector(w + ' .action-label:not(.none)');
      return l ? l.textContent : null; }""", where)


def _seen(page: Any, live: ServerThread, tid: str) -> None:
    """Wait until ``page`` has drawn the table's latest state."""
    told = live.manager.tables[tid].seq
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", told)


@pytest.mark.parametrize("game", sorted(CHECKED))
def test_own_hidden_choice_is_shown_to_its_maker_only(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    seeded_deals(monkeypatch, 5)
    sizes = ("phone", "desktop")
    ctx = {(who, size): context(browser, size, reduced_motion="reduce")
           for who in ("ann", "bob") for size in sizes}
    try:
        tid, host_token = new_table(live.url, game=game, seats=2, bots=0)
        page = open_as_host(ctx[("ann", "phone")], live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        bob = ctx[("bob", "phone")].new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit_with_enter(bob, "Bob")
        anns, bobs = {"phone": page}, {"phone": bob}
        for who, pages, first in (("ann", anns, page), ("bob", bobs, bob)):
            ctx[(who, "desktop")].add_cookies(first.context.cookies())  # (the same person)
            pages["desktop"] = ctx[(who, "desktop")].new_page()
            pages["desktop"].goto(f"{live.url}/t/{tid}")
        table = live.manager.get(tid)
        ann_seat = next(n for n, s in table.seats.items() if s.row.name == "Ann")
        page.wait_for_selector("#seats .seat .name:has-text('Bob')")
        page.click("#start-btn")
        checked: list[str] = []
        end = time.monotonic() + 60
        while len(checked) < len(CHECKED[game]):
            assert time.monotonic() < end, f"only {checked} checked"
            kind = decision_kind(page)
            if kind in CHECKED[game] and kind not in checked:
                if kind == "declare":
                    page.locator("#controls [data-action=declare-low]").click()
                else:
                    take_decision(page, kind)
                session = live.manager.get(tid).hand
                while ann_seat in session.pending_seats():
                    assert time.monotonic() < end, f"{kind}: never played"
                    page.wait_for_timeout(30)
                mine = session.view(ann_seat)["last_actions"][str(ann_seat)]["text"]
                assert mine.startswith(OWN[kind]), mine
                for p in (*anns.values(), *bobs.values()):
                    _seen(p, live, tid)
                want = symbols(mine)
                for size, ann in anns.items():
                    assert _label(ann, "#me") == want, (size, kind, _label(ann, "#me"))
                    if kind == "declare":   # her hand is named for the low she declared
                        assert mine == "you declared low", mine
                        name = ann.locator("#me .hand-name").text_content() or ""
                        assert name and "high:" not in name, (size, name)
                    shot(ann, f"own-choice-{size}-{kind}-ann")
                    ann.reload()
                    wait_until(ann, "() => !!document.querySelector("
                                    "'#me .action-label:not(.none)')")
                    assert _label(ann, "#me") == want, (size, kind, "after a reload")
                for size, b in bobs.items():
                    theirs = _label(b, f"#seats .seat[data-seat='{ann_seat}']")
                    assert theirs == HIDDEN[kind], (size, kind, theirs)
                    body = b.evaluate("() => document.body.innerText")
                    assert OWN[kind].strip() not in body and want not in body, (size, kind)
                    assert "declared low" not in body, (size, kind)
                    shot(b, f"own-choice-{size}-{kind}-bob")
                checked.append(kind)
                continue
            acted = False
            for p in (page, bob):   # (Bob makes a choice to check only after Ann)
                k = decision_kind(p)
                if k is not None and not (k in CHECKED[game] and k not in checked):
                    take_decision(p, k)
                    acted = True
                    p.wait_for_timeout(100)
            if not acted:
                page.wait_for_timeout(50)
    finally:
        for c in ctx.values():
            c.close()

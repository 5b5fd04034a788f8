"""The felt's leftovers of issue 26, in Debian's Chromium through Playwright at
390x844 and 1440x900, six seats:

- a seat that posted a blind says so ("small blind 1", "big blind 2") until its
  next action, like every other action label;
- the wild rank is named one way everywhere, the narration's ("twos wild", as in
  "Twos are wild."), never "Wild: deuces";
- a label too long for a phone's seat tile ("draws from the pool") wraps, never cut;
- on a desktop, opening any two of the side column's panels (host controls,
  chat, history, ledger and statistics, this hand's log), with your odds shown,
  leaves the felt in view: the page does not scroll.

Screenshots: test-artifacts/web/leftovers-*.png.
"""

from __future__ import annotations

import itertools
import random
import re
import threading
import time
from typing import Any

import pytest
from felt_ui import check_labels, drawn_felt
from table_ui import (
    DESKTOP,
    PHONE,
    CheckingBot,
    Pages,
    decision_kind,
    new_table,
    shot,
    sit_with_enter,
    take_decision,
    wait_played,
    wait_until,
)
from web_harness import ServerThread, seeded_deals

from rollem.server.app import host_cookie

pytestmark = pytest.mark.browser


def context(browser: Any, size: str) -> Any:
    return (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                reduced_motion="reduce")
            if size == "phone" else browser.new_context(viewport=DESKTOP, reduced_motion="reduce"))


def start(page: Any, live: ServerThread, game: str, seats: int, bot: Any = None,
          **config: Any) -> str:
    """A new table of ``game`` with ``seats - 1`` computer players (``bot``, a
    :class:`CheckingBot` unless given), Ann sat down in ``page`` as host and the
    first hand dealt; returns the table id."""
    tid, host_token = new_table(live.url, game=game, seats=seats, bots=seats - 1, **config)
    live.manager.get(tid).bot_factory = bot or (lambda level: CheckingBot(random.Random(0)))
    page.context.add_cookies([{"name": host_cookie(tid), "value": host_token, "url": live.url}])
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    return tid


def next_decision(page: Any, where: str) -> str:
    end = time.monotonic() + 30
    while (kind := decision_kind(page)) is None:
        assert time.monotonic() < end, f"{where}: no decision came"
        page.wait_for_timeout(30)
    return kind


LABELS = """() => [...document.querySelectorAll('#seats .seat[data-seat], #me')].map(t => {
  const l = t.querySelector('.action-label:not(.none)');
  if (!l) return null;
  const a = l.getBoundingClientRect(), b = t.getBoundingClientRect();
  return {seat: t.id === 'me' ? 0 : Number(t.dataset.seat), text: l.textContent,
          kind: l.dataset.kind, scroll: l.scrollWidth, client: l.clientWidth,
          ellipsis: getComputedStyle(l).textOverflow === 'ellipsis'
            && getComputedStyle(l).whiteSpace === 'nowrap',
          inside: a.left >= b.left - 0.5 && a.right <= b.right + 0.5
            && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5};
}).filter(x => x)"""
"""Every seat label drawn (yours in the dock too), with whether its whole text shows:
no wider than its box, no ellipsis, inside its seat's tile."""


def assert_uncut(labels: list[dict[str, Any]], where: str) -> None:
    for la in labels:
        assert la["scroll"] <= la["client"] and not la["ellipsis"] and la["inside"], \
            f"{where}: seat {la['seat']}'s label {la['text']!r} is cut: {la}"


# ------------------------------------------------------------------ the blinds


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_posted_blind_is_labelled_until_the_seats_next_action(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 5)
    with pages.open(size, reduced_motion="reduce") as page:
        tid = start(page, live, "holdem", 6)
        next_decision(page, "preflop")
        view, drawn = drawn_felt(page, live, tid)
        blinds = {e["seat"]: f"{e['blind']} {e['amount']}" for e in view["events"]
                  if e["kind"] == "blind"}
        assert set(blinds.values()) == {"small blind 1", "big blind 2"}, blinds
        acted = {e["seat"] for e in view["events"] if e["kind"] in ("call", "raise", "fold")}
        waiting = {s: text for s, text in blinds.items() if s not in acted and s != 0}
        assert waiting, f"every blind has acted before Ann's first decision: {view['events']}"
        labels = {la["seat"]: la for la in page.evaluate(LABELS)}
        for seat, text in waiting.items():
            assert labels.get(seat, {}).get("text") == text, (seat, text, labels)
            assert labels[seat]["kind"] == "blind"
        check_labels(view, drawn, f"{size} preflop")
        assert_uncut(list(labels.values()), f"{size} preflop")
        shot(page, f"leftovers-{size}-blinds")
        # the next action of each blind replaces its label; the flop clears the rest
        made = 0
        while view["board"] == [] and not view["result"]:
            take_decision(page, next_decision(page, f"decision {made + 1}"))
            made += 1
            wait_played(page, live, tid, made, f"decision {made}")
            view, drawn = drawn_felt(page, live, tid)
            check_labels(view, drawn, f"{size} after decision {made}")
        kinds = [la["kind"] for la in page.evaluate(LABELS)]
        assert "blind" not in kinds, (view["board"], kinds)


# ------------------------------------------------------------------ wild words


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_wild_rank_is_named_as_the_narration_names_it(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 5)
    with pages.open(size, reduced_motion="reduce") as page:
        tid = start(page, live, "deuces-wild", 6)
        next_decision(page, "first decision")
        view, _ = drawn_felt(page, live, tid)
        assert view["wild_ranks"] == ["2"]
        assert page.inner_text("#center .wild-rank") == "twos wild"
        # the log and your hand's name say it the same way
        assert "Twos are wild." in [line["text"] for line in view["log"]]
        page.evaluate("() => { document.querySelector('#log-box').open = true; }")
        wait_until(page, "() => document.querySelectorAll('#log li').length > 0")
        assert "Twos are wild." in page.inner_text("#log")
        # your hand's name words a wild card as the results do, "(wild 2h plays as
        # 8h)"; the wild rank itself is the middle's "twos wild" (test_felt_small_browser)
        assert "twos wild:" not in view["hand_name"], view["hand_name"]
        assert "Wild" not in page.inner_text("#me .hand-name")
        # (the game's own name, "Deuces wild", may say deuces)
        felt = re.sub("deuces wild", "", page.inner_text("#felt") + page.inner_text("#dock"),
                      flags=re.I)
        assert "deuces" not in felt.lower() and "Wild:" not in felt, felt
        shot(page, f"leftovers-{size}-wild")
        made = 0
        while not page.locator("#result:not(.hidden)").count():
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(30)
                continue
            take_decision(page, kind)
            made += 1
            wait_played(page, live, tid, made, f"decision {made}")
        text = re.sub("deuces wild", "", page.inner_text("#felt") + page.inner_text("#result")
                      + page.inner_text("#log"), flags=re.I)
        assert "deuces" not in text.lower() and "Wild:" not in text, text
        assert page.inner_text("#center .wild-rank") == "twos wild"


# ------------------------------------------------------ a long label on a phone


class HeldBot(CheckingBot):
    """A :class:`CheckingBot` that waits for ``release`` before its second card
    turned up in Roll Your Own (after its first draw from the pool): until then its
    label says "draws from the pool"."""

    def __init__(self, release: threading.Event) -> None:
        super().__init__(random.Random(0))
        self.release = release
        self.exposed = 0

    def act(self, view: Any) -> object:
        if view.legal is not None and "expose" in view.legal.actions:
            self.exposed += 1
            if self.exposed == 2:
                self.release.wait(60)
        return super().act(view)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_draws_from_the_pool_shows_whole_on_a_seat_tile(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, 5)
    release = threading.Event()
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        tid = start(page, live, "rollyourown", 6, bot=lambda level: HeldBot(release))
        exposes = 0
        made = 0
        while exposes < 2:
            kind = next_decision(page, f"decision {made + 1}")
            if kind == "expose":
                exposes += 1
                if exposes == 2:
                    break
            take_decision(page, kind)
            made += 1
            wait_played(page, live, tid, made, f"decision {made}")
        view, drawn = drawn_felt(page, live, tid)
        check_labels(view, drawn, f"{size} second card up")
        labels = page.evaluate(LABELS)
        pool = [la for la in labels if la["text"] == "draws from the pool"]
        assert len(pool) == 6, labels   # each computer player, and Ann
        assert_uncut(labels, f"{size} second card up")
        shot(page, f"leftovers-{size}-pool-draw")
    finally:
        release.set()
        ctx.close()


# ------------------------------------------------------------ a draw's words


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_draws_label_goes_when_the_next_draw_starts(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """The report: "stood pat" from the first draw was still on a seat during the
    second draw (a seat that made no bet between, here all three all-in before the
    first draw).  A label belongs to the decision in progress: at Ann's second
    draw no seat says its first draw; the tag still tells it ("stood pat"), and
    a seat that drew again says both draws (the server's words)."""
    seeded_deals(monkeypatch, 5)
    with pages.open(size, reduced_motion="reduce") as page:
        # stacks of 3, ante 1: Ann bets the small bet (2), all-in; the others call it
        tid = start(page, live, "rollem521", 3, stack=3, ante=1, small_bet=2, big_bet=4)
        assert next_decision(page, "the first bet") == "bet"
        page.locator("#controls [data-action=bet]").click()
        wait_played(page, live, tid, 1, "Ann's bet")
        assert next_decision(page, "the first draw") == "draw"
        take_decision(page, "draw")   # stands pat
        wait_played(page, live, tid, 2, "Ann's first draw")
        assert next_decision(page, "the second draw") == "draw"
        view, drawn = drawn_felt(page, live, tid)
        rounds = [e["draw"] for e in view["events"] if e["kind"] == "draw_round"]
        assert rounds == ["first draw", "second draw"], view["events"]
        assert all(s["all_in"] for s in view["seats"]), view["seats"]
        check_labels(view, drawn, f"{size} second draw")
        assert drawn["labels"]["0"] is None, drawn["labels"]   # (it said "stands pat")
        assert page.locator("#me .tag.drew").inner_text() == "stood pat"
        texts = [la["text"] for la in page.evaluate(LABELS)]
        assert not [t for t in texts if t == "stands pat" or re.fullmatch(r"draws \d", t)], texts
        shot(page, f"leftovers-{size}-second-draw")


# ------------------------------------------------------------ two panels open


PLACE = """() => {
  const felt = document.querySelector('#felt').getBoundingClientRect();
  const top = document.querySelector('header.bar').getBoundingClientRect().bottom;
  const dock = document.querySelector('#dock').getBoundingClientRect().top;
  return {scroll: document.querySelector('#scroll').scrollTop, window: window.scrollY,
          page: document.scrollingElement.scrollTop, felt: [felt.top, felt.bottom],
          room: [top, dock],
          open: [...document.querySelectorAll('details[open]')].map(d => d.id)};
}"""


def test_two_panels_open_on_a_desktop_leave_the_felt_in_view(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report (1440x900): opening two side panels scrolled the page away from
    the felt.  Reproduced: the side column scrolled with the felt, so a panel's
    summary below the fold was brought into view by scrolling the felt out (the
    host's controls, then any panel under them; the ledger, then this hand's log)."""
    seeded_deals(monkeypatch, 5)
    with pages.open("desktop", reduced_motion="reduce") as page:
        tid = start(page, live, "draw5", 6, practice_odds=True, between_hands=0.3)
        # a hand played, so the ledger, statistics and history have rows
        made = 0
        while "after hand" not in page.evaluate(
                "() => document.querySelector('#ledger caption').textContent"):
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(30)
                continue
            take_decision(page, kind)
            made += 1
            wait_played(page, live, tid, made, f"decision {made}")
        # the odds shown (under your cards, in the dock: a taller dock), at Ann's draw
        while next_decision(page, "hand 2") != "draw":
            take_decision(page, decision_kind(page) or "bet")
            page.wait_for_timeout(300)
        page.check("#odds-toggle")
        wait_until(page, "() => /^Your odds: /.test(document.querySelector('#odds-line')"
                         ".textContent)", timeout=60)
        panels = page.evaluate("""() => [...document.querySelectorAll('details')]
          .filter(d => d.checkVisibility()).map(d => d.id)""")
        assert {"host-box", "chat-box", "history-box", "ledger-box", "log-box"} <= set(panels), \
            panels
        for first, second in itertools.permutations(panels, 2):
            page.evaluate("""() => { document.querySelectorAll('details').forEach(d => {
              d.open = false; }); document.querySelector('#scroll').scrollTop = 0;
              document.querySelector('.side-col').scrollTop = 0; }""")
            for panel in (first, second):
                page.click(f"#{panel} > summary")
            place = page.evaluate(PLACE)
            where = f"{first} then {second}: {place}"
            assert set(place["open"]) >= {first, second}, where
            assert place["scroll"] == place["window"] == place["page"] == 0, where
            assert place["room"][0] - 0.5 <= place["felt"][0], where
            assert place["felt"][1] <= place["room"][1] + 0.5, where
        shot(page, "leftovers-desktop-two-panels")
        # (seen in the ledger while at it: "Ann pays Bot 2 (random) 1 chips"; since
        # stop 58 the computer players' nets are Ann's, the host's, said in one line)
        assert page.locator("#settle li").count() == 0
        settle = page.locator("#settle .settle-house").inner_text()
        assert re.fullmatch(r"Ann \(host\) ((collects what the computer players won|pays what "
                            r"the computer players lost): (1 chip|\d\d+ chips|[2-9] chips)|"
                            r"covers the computer players: they are even)\.", settle), settle


# ------------------------------------------- names whole, a fold said once


NAMES = """() => [...document.querySelectorAll('#seats .seat[data-seat], #me')].map(t => {
  const n = t.querySelector('.name'), a = n.getBoundingClientRect(),
        b = t.getBoundingClientRect();
  return {seat: t.id === 'me' ? 0 : Number(t.dataset.seat), name: n.textContent,
          cut: n.scrollWidth > n.clientWidth, title: n.title,
          inside: a.left >= b.left - 0.5 && a.right <= b.right + 0.5,
          text: t.innerText};
})"""
"""Each seat's name as drawn: cut (wider than its box), inside its tile, its title;
and the tile's whole text."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_names_show_whole_and_a_fold_is_said_once(
        pages: Pages, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """A phone's tile showed "Bot 1 (ran…" beside the dealer button; a folded seat
    said "folds" (its label) and "folded" (a tag).  (Around a desktop's oval a name
    keeps to one line, the tile's place fixing its height: cut only where ten seats
    at 1024 px leave tiles too narrow, tests/web/test_table_ui.py, its title whole.)"""
    seeded_deals(monkeypatch, 5)
    with pages.open(size, reduced_motion="reduce") as page:
        tid = start(page, live, "holdem", 6, between_hands=0.3)
        assert next_decision(page, "hand 1") == "bet"
        page.locator("#controls [data-action=fold]").click()
        wait_played(page, live, tid, 1, "Ann's fold")
        wait_until(page, "() => document.querySelector('#me.folded') !== null")
        me = page.inner_text("#me")
        assert page.inner_text("#me .action-label") == "folds", me
        assert "folded" not in me and me.count("fold") == 1, me
        # hand 2: a computer player holds the button, its name beside it
        wait_until(page, "() => /hand 2 /.test(document.querySelector('#status').textContent)")
        next_decision(page, "hand 2")
        table = live.manager.get(tid)
        assert table.hand is not None and table.hand.hand.button != 0
        seats = page.evaluate(NAMES)
        assert len(seats) == 6, seats
        for s in seats:
            assert not s["cut"] and s["inside"], f"{size}: seat {s['seat']}'s name is cut: {s}"
            assert s["seat"] == 0 or s["title"] == s["name"], s
            assert "folded" not in s["text"], s
        shot(page, f"leftovers-{size}-names")

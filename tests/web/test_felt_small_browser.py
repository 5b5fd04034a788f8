"""Small leftovers of issue 26 in Debian's Chromium through Playwright, at 390x844
and 1440x900, six seats:

- flying chips (bets swept into the pot, the pot pushed to the winners) stay on the
  felt when the page is scrolled: drawn in a layer of the felt, clipped to it, their
  ends held inside it (before: drawn over the whole page at fixed places, they flew
  over the side panels and the header, to and from spots the scroll had moved);
- 5-2-1's status line says where the hand is in players' words ("before the draw",
  "first card up"), never the rules' "round 6"; so do Stop, Drop and Roll's ("after
  the stop") and Roll Your Own's ("second card up"), never "round 2";
- your hand's name words a wild card as the result does: "(wild 2♥ plays as 8♥)"
  in both (before: "(twos wild: 2♥ plays as an eight)" under your cards);
- every seat's tile stays inside the felt (on a desktop its oval) and clear of the
  others at 8 desktop seats, with the longest words a shown hand has (before: a
  top seat's tile with a wild card's words reached the felt's border); at 2, 6 and
  10 seats on both sizes the felt's grid checks it (test_felt_grid_b_browser.py);
- flying chips stay on the felt when it changes size mid-flight (a desktop's felt
  fills the height above your dock; before: a chip held at its bottom edge in
  pixels was left past it when the dock grew);
- every seat's bet keeps clear of every seat's tile at 2 to 10 seats (before: a
  desktop's bet at a fixed distance from its tile's middle overlapped a wide tile).

Screenshots: test-artifacts/web/felt-small-*.png.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from felt_ui import symbols, tiles_stay_inside_the_felt
from table_ui import (
    DESKTOP,
    MOTION_ON,
    PHONE,
    CheckingBot,
    context,
    decision_kind,
    new_table,
    shot,
    sit_with_enter,
    take_decision,
    wait_until,
)
from web_harness import ServerThread, seeded_deals

from rollem.server.app import host_cookie

pytestmark = pytest.mark.browser


def seat_ann(page: Any, live: ServerThread, game: str, seats: int, **config: Any) -> str:
    """A new table of ``game``, ``seats - 1`` checking computer players, Ann sat down
    in ``page`` as host (not started); returns the table id."""
    tid, host_token = new_table(live.url, game=game, seats=seats, bots=seats - 1, **config)
    live.manager.get(tid).bot_factory = lambda level: CheckingBot(random.Random(0))
    page.context.add_cookies([{"name": host_cookie(tid), "value": host_token, "url": live.url}])
    page.goto(f"{live.url}/t/{tid}")
    sit_with_enter(page, "Ann")
    return tid


def start(page: Any, live: ServerThread, game: str, seats: int, **config: Any) -> str:
    """:func:`seat_ann`, then the first hand dealt; returns the table id."""
    tid = seat_ann(page, live, game, seats, **config)
    page.click("#start-btn")
    return tid


def play_until(page: Any, done: str, where: str, game: str | None = None,
               between: str | None = None) -> None:
    """Take Ann's decisions (passive) until ``done`` (a JavaScript function) is true;
    ``between`` (a JavaScript function) is run after each decision."""
    end = time.monotonic() + 90
    while not page.evaluate(done):
        assert time.monotonic() < end, f"{where}: never came to {done}"
        kind = decision_kind(page)
        if kind is None:
            page.wait_for_timeout(40)
            continue
        take_decision(page, kind, game)
        page.wait_for_timeout(150)
        if between:
            page.evaluate(between)


# ------------------------------------------------------------ flying chips

SAMPLER = """() => {
  window.__flights = [];
  const felt = document.querySelector('#felt'), side = document.querySelector('.side-col');
  const bar = document.querySelector('header.bar');
  const box = (e) => { const r = e.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
  const tick = () => {
    document.querySelectorAll('.flying-chips').forEach((f) => {
      if (getComputedStyle(f).visibility === 'hidden' || !f.getBoundingClientRect().width) return;
      window.__flights.push({chip: box(f), text: f.textContent, felt: box(felt),
        inner: [felt.getBoundingClientRect().left + felt.clientLeft,
                felt.getBoundingClientRect().top + felt.clientTop],
        side: box(side), bar: box(bar), inFelt: felt.contains(f),
        scroll: document.querySelector('#scroll').scrollTop});
    });
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""
"""Every frame: each flying chip drawn, with the felt's, the side column's and the
header's boxes at that moment (``window.__flights``)."""

LANDED = """() => !document.querySelector('.flying-chips')
  && window.__flights.some((f) => Number(f.text.split(' ')[1]) > 2)"""
"""The pot's push sampled (a flight of more than any bet) and every flight landed (a
flight's element is removed at its end, motion.js): where a fixed 1.2 s was waited
(s73-suite: a flight's 0.4 s and its delay, or longer on a loaded machine)."""

SCROLL = {
    # a phone: the felt half scrolled away, the side panels (result, chat) under it
    "phone": """() => { const s = document.querySelector('#scroll');
      s.scrollTop = document.querySelector('#felt').offsetHeight / 2; }""",
    # a desktop: the page fits, nothing to scroll (flights to and from your seat, in
    # the dock under the felt, are the ones that left the felt)
    "desktop": "() => { document.querySelector('#scroll').scrollTop = 9999; }",
    # a desktop window 640 px tall (a 1440x900 laptop screen less the browser's bars,
    # the system's dock and a bookmarks bar): the felt keeps its least height, the
    # page scrolls (at 700 px the host's invite bar, 48 px above the felt, made it
    # scroll; s61-table moved the bar to the side column: 1 px left to scroll)
    "short-desktop": "() => { document.querySelector('#scroll').scrollTop = 9999; }",
}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP, "short-desktop": {"width": 1440, "height": 640}}


def _inside(a: list[float], b: list[float], slack: float = 1.0) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack
            and a[3] <= b[3] + slack)


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def test_flying_chips_stay_on_the_felt_when_the_page_is_scrolled(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """At each size (a phone, a desktop, a short desktop window) the page scrolled as
    :data:`SCROLL` says, every flight of chips of hand 1 stays in the felt.  One hand
    for the three sizes (stop 63: a hand a size before): Ann plays on the phone page;
    her pages at the other sizes (the same player) draw the same states, scrolled
    again after each of her decisions as the phone is."""
    seeded_deals(monkeypatch, 5)
    contexts = {size: (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                       if size == "phone" else browser.new_context(viewport=VIEWPORTS[size]))
                for size in SCROLL}
    try:
        for ctx in contexts.values():
            ctx.add_init_script(MOTION_ON)   # (the flights whatever the machine's load)
        page = contexts["phone"].new_page()
        start(page, live, "holdem", 6, between_hands=600)
        pages = {"phone": page}
        for size in ("desktop", "short-desktop"):
            contexts[size].add_cookies(contexts["phone"].cookies())  # (the same Ann)
            pages[size] = contexts[size].new_page()
            pages[size].goto(page.url)
        for size, p in pages.items():
            wait_until(p, "() => document.querySelector('#controls button') !== null")
            p.evaluate(SCROLL[size])
            scrolled = p.evaluate("() => document.querySelector('#scroll').scrollTop")
            assert (scrolled > 20) == (size != "desktop"), f"{size}: scrolled {scrolled}"
            p.evaluate(SAMPLER)
        # hand 1 to its end: each round's bets swept in, then the pot pushed
        done = "() => !document.querySelector('#result').classList.contains('hidden')"
        end = time.monotonic() + 90
        while not page.evaluate(done):
            assert time.monotonic() < end, "hand 1 never ended"
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(40)
                continue
            take_decision(page, kind)
            page.wait_for_timeout(150)
            for size, p in pages.items():
                p.evaluate(SCROLL[size])
        for p in pages.values():
            wait_until(p, done)
        for p in pages.values():
            wait_until(p, LANDED)   # the last flights land
        for size, p in pages.items():
            flights = p.evaluate("() => window.__flights")
            shot(p, f"felt-small-{size}-scrolled-flights", moving=True)
            texts = {f["text"] for f in flights}
            # the blinds swept in (a bet of 2) and the pot pushed (more than any bet)
            assert "● 2" in texts and any(int(t.split()[1]) > 2 for t in texts), (size, texts)
            assert any(f["scroll"] > 20 for f in flights) == (size != "desktop"), size
            for f in flights:
                where = f"{size}: {f}"
                assert f["inFelt"], where                    # drawn in the felt, clipped to it
                assert _inside(f["chip"], f["felt"]), where  # never beyond the felt's edges
                assert not _overlap(f["chip"], f["side"]), where
                assert not _overlap(f["chip"], f["bar"]) or f["felt"][1] < f["bar"][3], where
    finally:
        for ctx in contexts.values():
            ctx.close()


GROW = """() => {
  // at each new flight's first frame the dock grows by 48 px or shrinks back (as
  // your turn's buttons or a pre-action's line come and go): a desktop's felt,
  // filling the height above the dock, changes size mid-flight
  const seen = new WeakSet();
  const extra = document.createElement('div');
  extra.style.height = '48px';
  const tick = () => {
    for (const f of document.querySelectorAll('.flying-chips')) {
      if (seen.has(f) || getComputedStyle(f).visibility === 'hidden') continue;
      seen.add(f);
      if (extra.isConnected) extra.remove();
      else document.querySelector('#dock').appendChild(extra);
      window.__grown = (window.__grown || 0) + 1;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_flying_chips_stay_on_the_felt_when_it_changes_size_mid_flight(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """Seen at times on a 1440x900 desktop: a chip swept in from your seat, held at
    the felt's bottom edge, drawn 4 px past the felt's outer edge (12 px past its
    inside) when a state made your dock taller (and the felt shorter) during its
    flight: the flight's start and move were pixels of the felt's size at its start.
    Here the dock grows or shrinks by 48 px at each new flight's first frame; every
    frame of every flight stays inside the felt."""
    seeded_deals(monkeypatch, 5)
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        start(page, live, "holdem", 6, between_hands=600)
        wait_until(page, "() => document.querySelector('#controls button') !== null")
        page.evaluate(SAMPLER)
        page.evaluate(GROW)
        play_until(page, "() => !document.querySelector('#result').classList.contains('hidden')",
                   f"{size} hand 1")
        wait_until(page, LANDED)   # the last flights land
        flights = page.evaluate("() => window.__flights")
        shot(page, f"felt-small-{size}-resized-flights", moving=True)
        assert page.evaluate("() => window.__grown") >= 2, size
        texts = {f["text"] for f in flights}
        assert "● 2" in texts and any(int(t.split()[1]) > 2 for t in texts), texts
        for f in flights:
            where = f"{size}: {f}"
            assert f["inFelt"], where
            assert _inside(f["chip"], f["felt"]), where
    finally:
        ctx.close()


# ------------------------------------------------------------ rounds' names

ROUNDS = {
    # 5-2-1: its betting rounds (the game file's names) and its draws (as the file
    # names them too; the status line said "draw" for both)
    "rollem521": ("before the draw", "first draw", "after the first draw", "second draw",
                  "first card up", "second card up", "third card up", "fourth card up"),
    # Stop, Drop and Roll: a round before the Stop and one after each card turned
    # (R-SDR-2..5); before: "round 1" to "round 4"
    "sdr": ("before the stop", "after the stop", "after the drop", "after the roll"),
    # Roll Your Own: a round after each card turned up, then after the wild card
    # (R-RYO-3..8); before: "round 1" to "round 4"
    "rollyourown": ("first card up", "second card up", "third card up", "after the wild card"),
}
"""Where a hand is, in order, as the status line says it while the table bets."""
SHOWN_AT = {"rollem521": "first card up", "sdr": "after the stop",
            "rollyourown": "after the wild card"}
SEATS = {"rollem521": 6, "sdr": 3, "rollyourown": 3}
STATUSES = r"""
window.__statuses = [];
// Every text the status line is drawn with, in order (a look between Ann's turns
// can miss a round that passed while she was deciding: CI, stop 44).
document.addEventListener('DOMContentLoaded', () => {
  const box = document.getElementById('status');
  const note = () => { const t = box.textContent;
    if (window.__statuses[window.__statuses.length - 1] !== t) window.__statuses.push(t); };
  new MutationObserver(note).observe(box, {subtree: true, childList: true, characterData: true});
  note();
});
"""
"""Records each text the status line is drawn with (``window.__statuses``)."""


@pytest.mark.parametrize("game", ["rollem521", "sdr", "rollyourown"])
def test_the_status_line_says_where_the_hand_is_in_players_words(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, game: str) -> None:
    """Both sizes from one hand (stop 63: a hand a size before): Ann plays on her
    phone page; her desktop page, open from before the start, records its own
    statuses and log."""
    seeded_deals(monkeypatch, 5)
    contexts = {size: context(browser, size, reduced_motion="reduce")
                for size in ("phone", "desktop")}
    try:
        for ctx in contexts.values():
            ctx.add_init_script(STATUSES)
        page = contexts["phone"].new_page()
        seat_ann(page, live, game, SEATS[game])   # (the desktop page opened before the
        # deal, so that it draws every state of the hand)
        contexts["desktop"].add_cookies(contexts["phone"].cookies())  # (the same Ann)
        desk = contexts["desktop"].new_page()
        desk.goto(page.url)
        desk.wait_for_selector(".me .name:has-text('Ann')")
        pages = {"phone": page, "desktop": desk}
        page.click("#start-btn")
        shown: set[str] = set()
        end = time.monotonic() + 120
        while page.locator("#result:not(.hidden)").count() == 0:
            assert time.monotonic() < end, "hand 1 never ended"
            for size, p in pages.items():
                if size not in shown and f" · {SHOWN_AT[game]} · " in p.inner_text("#status"):
                    shot(p, f"felt-small-{size}-{game}-status")
                    shown.add(size)
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(40)
                continue
            take_decision(page, kind)
            page.wait_for_timeout(150)
        desk.wait_for_selector("#result:not(.hidden)")
        for size, p in pages.items():
            statuses = p.evaluate("window.__statuses")
            for status in statuses:
                assert not re.search(r"\bround \d", status), (size, status)
            seen: list[str] = []
            for status in statuses:
                for name in ROUNDS[game]:
                    if f" · {name} · " in status and name not in seen:
                        seen.append(name)
            assert seen == list(ROUNDS[game]), (size, seen, statuses)
            p.click("#log-box summary")
            p.wait_for_selector("#log li")  # (drawn when the box opens)
            log = p.locator("#log li").all_inner_texts()
            assert not any(re.match(r"Round \d", line) for line in log), (size, log)
            # the log tells each round by its name too ("After the stop (pot 7).")
            # (the log box keeps the hand's last 60 lines: 5-2-1's early rounds may be gone)
            heads = [line.split(" (pot")[0].split(":")[0].strip().lower() for line in log]
            betting = [n for n in ROUNDS[game] if not n.endswith("draw")]
            told = [h for h in heads if h in betting]
            assert len(told) >= 2 and told == betting[len(betting) - len(told):], (size, log)
            if game != "rollem521":
                assert told == betting, (size, log)
    finally:
        for ctx in contexts.values():
            ctx.close()


# ------------------------------------------------------------ wild words

WILD = re.compile(r"\(wild 2[♣♦♥♠] plays as (10|[2-9JQKA])[♣♦♥♠](, wild 2[♣♦♥♠] plays as "
                  r"(10|[2-9JQKA])[♣♦♥♠])*\)")
"""The results' words for the wild cards, as the page draws them (card symbols, "10")."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_your_hands_name_words_a_wild_card_as_the_result_does(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    seeded_deals(monkeypatch, SEED_WITH_A_DEUCE)
    ctx = context(browser, size, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        start(page, live, "deuces-wild", 6)
        wait_until(page, "() => document.querySelector('#me .hand-name') !== null")
        name = page.inner_text("#me .hand-name")
        assert WILD.search(name), name
        assert "twos wild:" not in name and "plays as a" not in name, name
        shot(page, f"felt-small-{size}-wild-name")
        play_until(page, "() => !document.querySelector('#result').classList.contains('hidden')",
                   f"{size} deuces wild")
        final = page.inner_text("#me .hand-name")
        said = WILD.search(final)
        assert said, final
        # the result says Ann's hand with the same words, wild card and all
        result = page.inner_text("#result")
        assert said.group(0) in symbols(result) or said.group(0) in result, (final, result)
        # a shown hand's row and its seat's tile say its wild cards as the lines do,
        # card symbols and all (before: "three fours, nine-five" under a line saying
        # "three fours, nine-five (wild 2♥ plays as 4♥)")
        rows = page.locator("#result .shown-line .desc").all_inner_texts()
        tiles = page.locator("#seats .described").all_inner_texts()
        wild = [r for r in rows if "plays as" in r]
        assert wild and sorted(wild) == sorted(t for t in tiles if "plays as" in t), (rows, tiles)
        for r in wild:
            assert WILD.search(r), r
        shot(page, f"felt-small-{size}-wild-result")
        # every wild card's "W" clear of its rank and suit, and of the next card in
        # its row (stop 53: on a small card at 390 px it covered part of the suit)
        marks = page.evaluate(WILD_MARKS)
        assert any(m["small"] for m in marks), marks
        for m in marks:
            assert not m["hits"], m
            assert m["inside"], m  # (drawn: inside the page's width)
    finally:
        ctx.close()


WILD_MARKS = """() => [...document.querySelectorAll('.card.wild')]
  .filter((c) => c.getBoundingClientRect().width > 0).map((c) => {
  const box = (e) => { const r = e.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
  const m = box(c.querySelector('.wild-mark'));
  const meets = (r) => m[0] < r[2] - 0.5 && r[0] < m[2] - 0.5
                    && m[1] < r[3] - 0.5 && r[1] < m[3] - 0.5;
  const hits = [];
  if (meets(box(c.querySelector('.rank')))) hits.push('rank');
  if (meets(box(c.querySelector('.suit')))) hits.push('suit');
  const next = c.nextElementSibling;
  if (next && next.classList.contains('card') && meets(box(next))) hits.push('next card');
  // its gold ring (2 px round the card) clear of the cards beside it in an
  // overlapping row (s61-table2: it covered a sliver of the card before it)
  const b = box(c), ring = [b[0] - 2, b[1] - 2, b[2] + 2, b[3] + 2];
  const ringMeets = (r) => ring[0] < r[2] - 0.5 && r[0] < ring[2] - 0.5
                        && ring[1] < r[3] - 0.5 && r[1] < ring[3] - 0.5;
  for (const [side, e] of [['before', c.previousElementSibling], ['after', next]])
    if (e && e.classList.contains('card') && ringMeets(box(e)))
      hits.push('ring over the card ' + side);
  return {card: c.dataset.card, small: c.classList.contains('small'), hits,
          inside: m[0] >= 0 && m[2] <= document.documentElement.clientWidth};
})"""
"""Each wild card drawn: its "W" badge's overlaps (bounding boxes) with its rank,
its suit and the next card of its row, and its ring's with the cards beside it."""


SEED_WITH_A_DEUCE = 1
"""A seeded deck whose first hand (button 0) deals Ann (seat 0) a deuce in deuces
wild; she stands pat, so she holds it to the showdown."""


# ------------------------------------------------ words seen in a play-through

TILES = """() => [...document.querySelectorAll('#seats .seat[data-seat], #me')].map(t => {
  const tag = t.querySelector('.tag.drew'), b = t.getBoundingClientRect();
  const r = tag ? tag.getBoundingClientRect() : null;
  return {seat: t.id === 'me' ? 0 : Number(t.dataset.seat),
    label: (t.querySelector('.action-label:not(.none)') || {}).textContent || null,
    drew: tag ? tag.textContent : null,
    inside: !r || (r.left >= b.left - 0.5 && r.right <= b.right + 0.5)};
})"""


def _drew(counts: list[int]) -> str:
    """A seat's draws as the narration says them, past (rollem.narration.felt._drew)."""
    if len(counts) == 1:
        return f"drew {counts[0]}" if counts[0] else "stood pat"
    if not any(counts):
        return "stood pat twice"
    words = [f"drew {counts[0]}" if counts[0] else "stood pat"]
    for n in counts[1:]:
        words.append("then stood pat" if not n else f"then {n}" if counts[0] else f"then drew {n}")
    return ", ".join(words)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_521_draws_are_told_whole_once_and_one_card_is_one_card(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """Seen in a play-through: at the second draw the prompt said "Tap up to 1 cards";
    a seat that drew 2 then 1 was labelled "drew 2, then 1" with a tag "drew 1" (the
    tag told only the last draw)."""
    from felt_ui import drawn_felt

    seeded_deals(monkeypatch, 5)
    ctx = context(browser, size, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        tid = start(page, live, "rollem521", 6)
        draws = 0
        end = time.monotonic() + 90
        while " · first card up · " not in page.inner_text("#status"):
            assert time.monotonic() < end, page.inner_text("#status")
            kind = decision_kind(page)
            if kind is None:
                page.wait_for_timeout(40)
                continue
            if kind == "draw":
                draws += 1
                prompt = page.inner_text("#controls .prompt")
                most = "2 cards" if draws == 1 else "1 card"
                assert prompt.startswith(f"Tap up to {most} to throw away"), prompt
                assert "1 cards" not in prompt, prompt
                if draws == 2:
                    shot(page, f"felt-small-{size}-521-second-draw")
            take_decision(page, kind)
            page.wait_for_timeout(150)
        assert draws == 2
        view, _ = drawn_felt(page, live, tid)
        counts: dict[int, list[int]] = {}
        for e in view["events"]:
            if e["kind"] == "draw":
                counts.setdefault(e["seat"], []).append(
                    e["count"] if "count" in e else len(e.get("cards") or []))
        assert any(len(c) == 2 and c[1] != c[0] for c in counts.values()), counts
        tiles = page.evaluate(TILES)
        for tile in tiles:
            said = _drew(counts.get(tile["seat"], []))
            told = [w for w in (tile["label"], tile["drew"]) if w and re.match(r"(drew|stood)", w)]
            # the draws told once, whole: in the label or in the tag
            assert told == [said], (tile, counts.get(tile["seat"]))
            assert tile["inside"], tile   # a long tag wraps inside the tile
        shot(page, f"felt-small-{size}-521-draw-tags")
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_roll_your_own_says_what_your_cards_in_the_middle_are(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """Seen in a play-through: after the discards the middle said "yours maybe in the
    pool:" over your own thrown cards."""
    seeded_deals(monkeypatch, 5)
    ctx = context(browser, size, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        start(page, live, "rollyourown", 6)
        play_until(page, "() => document.querySelectorAll('#center .slot.pool .cards').length > 1",
                   f"{size} the discards")
        labels = page.locator("#center .slot.pool .label").all_inner_texts()
        assert [la.lower() for la in labels] == [
            "pool: 18 cards", "your discards, maybe still in the pool:"], labels
        shot(page, f"felt-small-{size}-ryo-pool")
    finally:
        ctx.close()


# ------------------------------------------------------------ tiles inside the felt


def test_every_seat_tile_stays_inside_the_felt_at_eight_desktop_seats(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen on a 1440x900 desktop: with a wild card's words under a shown hand
    ("(wild 2♠ plays as 7♠)") a top seat's tile reached the felt's border.  At the
    end of a hand (every tile showing cards and the longest words a hand has), each
    tile lies inside the felt, clear of the others, and on a desktop inside its oval
    (:func:`felt_ui.tiles_stay_inside_the_felt`).  Here eight seats on a desktop (Roll
    Your Own's most, and the first count whose tiles are drawn smaller there); the
    felt's grid checks the same at the end of each hold'em hand of 2, 6 and 10 seats,
    on a phone and a desktop (tests/web/test_felt_grid_b_browser.py)."""
    seeded_deals(monkeypatch, 5)
    ctx = context(browser, "desktop", reduced_motion="reduce")
    try:
        page = ctx.new_page()
        start(page, live, "holdem", 8)
        play_until(page, "() => !document.querySelector('#result')"
                   ".classList.contains('hidden')", "desktop 8 seats")
        tiles_stay_inside_the_felt(page, "desktop", 8)
    finally:
        ctx.close()


# ------------------------------------------------------------ bets clear of the tiles

BETS = """amount => {
  // every opponent without a bet given one of five digits (its chips line's own
  // element, as felt.js draws it: the stack of chips, the amount)
  for (const t of document.querySelectorAll('#seats .seat[data-seat]')) {
    if (t.querySelector('.bet-chips')) continue;
    const line = t.querySelector('.chips');
    const b = document.createElement('span');
    b.className = 'bet bet-chips';
    const stack = document.createElement('span'); stack.className = 'chip-stack';
    for (let i = 0; i < 5; i++) { const c = document.createElement('span'); c.className = 'chip';
                                  stack.appendChild(c); }
    const n = document.createElement('span'); n.className = 'bet-amount'; n.textContent = amount;
    b.append(stack, n);
    line.appendChild(b);
  }
  const box = (e) => { const r = e.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
  const felt = document.querySelector('#felt'), f = felt.getBoundingClientRect();
  const [x, y] = [f.left + felt.clientLeft, f.top + felt.clientTop];
  return {tiles: [...document.querySelectorAll('#seats .seat[data-seat]')].map(
            t => ({seat: Number(t.dataset.seat), box: box(t)})),
          bets: [...document.querySelectorAll('#seats .bet-chips')].map(
            b => ({seat: Number(b.closest('.seat').dataset.seat), box: box(b)})),
          felt: [x, y, x + felt.clientWidth, y + felt.clientHeight]};
}"""
"""Each opponent given a bet (five digits where it has none); the tiles', the bets'
and the felt's inner boxes."""


def test_bet_chips_keep_clear_of_every_seat_tile(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen on a 1440x900 desktop, seven-card stud high-low at 7 seats: seat 6's bet
    chips, drawn in front of its tile toward the middle, overlapped the tile's own
    corner by 19x11 px (the bet sat at a fixed distance from the tile's middle, and a
    wide tile reached past it).  At 2 to 10 seats (Hold'em) and stud8 at 7, at
    Ann's first decision, with every opponent betting: on a desktop no bet overlaps
    any seat's tile, its own included, and each lies inside the felt; on a phone
    (bets drawn in the tile's chips line) each lies inside its own tile and no
    other.  Both sizes at each table (stop 63: a table a size before): Ann sits and
    the hand is dealt on the phone page; her desktop page then loads the table."""
    seeded_deals(monkeypatch, 5)
    contexts = {size: context(browser, size, reduced_motion="reduce")
                for size in ("phone", "desktop")}
    try:
        cases = [("holdem", n) for n in range(2, 11)] + [("stud8", 7)]
        # One page a size for the ten tables, each loaded into it in turn (a new table
        # id, a new document): a new page each was about twice the Chromium CPU, a
        # renderer or two started for each (docs/dev/test-suite-time.md, stop 48).
        pages = {size: ctx.new_page() for size, ctx in contexts.items()}
        for game, seats in cases:
            tid = start(pages["phone"], live, game, seats)
            contexts["desktop"].add_cookies(contexts["phone"].cookies())  # (the same Ann)
            pages["desktop"].goto(f"{live.url}/t/{tid}")
            for size, page in pages.items():
                wait_until(page, "() => !!document.querySelector('#controls button')",
                           timeout=30)
                drawn = page.evaluate(BETS, "12345")
                where = f"{size}, {game} at {seats} seats"
                if seats in (7, 10) or game == "stud8":
                    shot(page, f"felt-small-{size}-{game}-{seats}-bets")
                assert len(drawn["bets"]) == seats - 1, (where, drawn)
                for bet in drawn["bets"]:
                    for tile in drawn["tiles"]:
                        mine = tile["seat"] == bet["seat"]
                        if size == "phone" and mine:
                            assert _inside(bet["box"], tile["box"]), (where, bet, tile)
                        else:
                            assert not _overlap(bet["box"], tile["box"]), (where, bet, tile)
                    if size == "desktop":
                        assert _inside(bet["box"], drawn["felt"]), (where, bet, drawn["felt"])
    finally:
        for ctx in contexts.values():
            ctx.close()


# ------------------------------------------------------------ nothing under the dock

SCROLLED_TO_END = """() => {
  // each scrolling area (the page's; a desktop's side column) scrolled to its end:
  // the lowest thing drawn in it, its own bottom edge, the dock's top edge
  const dock = document.querySelector('#dock').getBoundingClientRect().top;
  const areas = [...document.querySelectorAll('#scroll, .side-col')]
    .filter(s => getComputedStyle(s).overflowY === 'auto');
  return areas.map(s => {
      s.scrollTop = s.scrollHeight;
      // (what an area inside it scrolls is that area's)
      const inner = areas.filter(a => a !== s && s.contains(a));
      const lowest = Math.max(...[...s.querySelectorAll('*')]
        .filter(e => e.getClientRects().length && !e.closest('details:not([open]) > :not(summary)')
                     && !inner.some(a => a.contains(e) && a !== e))
        .map(e => e.getBoundingClientRect().bottom));
      return {area: s.id || s.className, lowest: lowest, bottom: s.getBoundingClientRect().bottom,
              dock: dock};
    });
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_nothing_ends_hidden_under_the_dock(
        browser: Any, live: ServerThread, monkeypatch: pytest.MonkeyPatch, size: str) -> None:
    """Asked on a phone (the result's and the ledger's lines cut at the dock's edge):
    at Ann's turn (the dock at its tallest: her cards, the buttons) and at the hand's
    end (the result, the ledger drawn), each scrolling area scrolled to its end shows
    its last line whole, above the dock (the dock is laid out under the scrolling
    area, not over it: a line cut at the dock's edge is one scrolled past)."""
    seeded_deals(monkeypatch, 5)
    ctx = context(browser, size, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        start(page, live, "holdem", 6, between_hands=600)
        wait_until(page, "() => !!document.querySelector('#controls [data-action]')")
        for when in ("turn", "end"):
            if when == "end":
                play_until(page, "() => !document.querySelector('#result')"
                           ".classList.contains('hidden')", f"{size} hand 1")
                page.wait_for_timeout(600)   # (the side panels drawn after the paint)
            areas = page.evaluate(SCROLLED_TO_END)
            page.wait_for_timeout(100)
            shot(page, f"felt-small-{size}-{when}-scrolled-to-end")
            assert areas, size
            for a in areas:
                where = f"{size} at the {when}: {a}"
                assert a["bottom"] <= a["dock"] + 0.5, where
                assert a["lowest"] <= a["bottom"] + 0.5, where
    finally:
        ctx.close()

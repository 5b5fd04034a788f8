"""Helpers of the table-page browser tests (issue 15): a table of computer players
and one person in a Playwright page, layout checks from element boxes, and one
decision taken through the page as a player would."""

from __future__ import annotations

import base64
import contextlib
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from web_harness import ARTIFACTS

from rollem.bots.basic import BasicBot
from rollem.engine.actions import Call, Check
from rollem.server.app import host_cookie

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium: the browser people use; the felt's benches (bench/) drive it."""
TEST_CHROMIUM = os.environ.get("ROLLEM_TEST_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell", CHROMIUM) if os.path.exists(p)), CHROMIUM)
"""What the tests' ``browser`` fixture drives: Debian's ``chromium-headless-shell``
where it is installed (scripts/test.sh installs it), else :data:`CHROMIUM`;
``ROLLEM_TEST_CHROMIUM`` names another.  The shell is the same Chromium build
(the same Blink and V8) without the browser's own layers, and runs each test's pages
for about two thirds of the CPU (docs/dev/test-suite-time.md, stop 54)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = ARTIFACTS / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}


def wait_until(page: Any, expression: str, arg: Any = None, timeout: float = 20.0) -> None:
    """Poll ``expression`` (a JavaScript function of ``arg``) in the page until it is
    true. ``page.wait_for_function`` compiles its predicate inside the page, which the
    table's Content-Security-Policy (no eval) refuses; ``evaluate`` runs it from
    outside the page's policy."""
    end = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {expression}")
        page.wait_for_timeout(50)


def record_toasts(page: Any) -> None:
    """From now on (until the page loads another document) keep every text the
    page's toast shows, in ``window.__toasts``: a toast goes after 4 s or at the
    person's next decision, so on a loaded machine it can be gone before a test
    looks (:func:`wait_toast_shown`)."""
    page.evaluate("""() => {
      const t = document.getElementById('toast');
      window.__toasts = [];
      const note = () => {
        if (!t.classList.contains('hidden')) window.__toasts.push(t.textContent);
      };
      new MutationObserver(note).observe(t, {attributes: true, attributeFilter: ['class'],
                                             childList: true, characterData: true,
                                             subtree: true});
    }""")


def wait_toast_shown(page: Any, text: str, timeout: float = 20.0) -> None:
    """Wait until the toast has shown ``text`` (part of it) since :func:`record_toasts`,
    whether or not it is still up."""
    wait_until(page, "text => (window.__toasts || []).some(t => t.includes(text))", text,
               timeout=timeout)


def save_screenshot(page: Any, path: str | Path) -> None:
    """Write a PNG of ``page``'s viewport to ``path``: the same pixels as
    ``page.screenshot(path=...)``, encoded by Chromium with its fast PNG setting
    (``Page.captureScreenshot``'s ``optimizeForSpeed``, which Playwright does not
    pass). A run writes about 300 of them; Chromium's default PNG encoding was about
    half of each one's time (1440x900: 190 against 90 ms, 390x844: 80 against 40 ms, at
    load 7); the files are about 1.8 times larger, the images the same (lossless;
    docs/dev/test-suite-time.md, stop 47). Unlike Playwright's, it does not hide a
    focused field's caret nor wait for web fonts (the table page loads none). A whole
    page taller than the viewport: Playwright's ``full_page`` (it puts the touch
    emulation back after such a capture)."""
    cdp = page.context.new_cdp_session(page)
    try:
        data = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    finally:
        cdp.detach()
    Path(path).write_bytes(base64.b64decode(data["data"]))


SETTLE_MS = 1500
"""The longest a screenshot spends bringing the felt's moves to their end
(:func:`settle`), and the longest move it ends (a longer one, such as a decision's
timer bar, is no move): a card's deal or flip is 0.3 s, a flight of chips 0.4 s
(after its delay)."""

SETTLE = r"""async (limit) => {
  // (a frame, or 0.1 s where a page draws no frames: one not in view)
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 100); });
  const end = performance.now() + limit;
  // a move ends within `limit` (a card dealt, chips flying: 0.4 s); an endless one (a
  // turn's glow) or a long one (a decision's timer bar) is no move to wait for
  const moving = () => document.getAnimations().filter((a) => {
    if (a.playState !== 'running' && a.playState !== 'pending') return false;
    const t = a.effect ? a.effect.getComputedTiming() : null;
    return !!t && Number.isFinite(t.endTime) && t.endTime - (t.localTime || 0) <= limit;
  });
  // (a state's moves start in the frame after its render, its elements marked
  // "move-wait" meanwhile: motion.js)
  const still = () => !moving().length && !document.querySelector('.move-wait');
  let waited = 0;
  for (;;) {
    if (still()) { await frame(); if (still()) return [waited, 0]; }
    const now = moving();
    const left = end - performance.now();
    if (left <= 0) return [waited, now.length];
    waited += now.length;
    // ended at their last frame now, as their time would end them (their animationend
    // sent; a state drawn over running moves ends them the same way: motion.js
    // settle), not waited out (s66-table: about 0.4 s a shot that waited)
    for (const a of now) {
      try { a.finish(); } catch (e) { /* (no end to go to: left running) */ }
    }
    if (!now.length) await new Promise((r) => setTimeout(r, 50));
    await frame();
  }
}"""


FRAMES = r"""async (n) => {
  // (a frame, or 0.1 s where a page draws no frames: one not in view)
  const frame = () => new Promise((r) => { requestAnimationFrame(() => r()); setTimeout(r, 100); });
  for (let i = 0; i < n; i++) await frame();
}"""

HAND_END_FRAMES = 6
"""The frames after a state's render by which its moves and flights have started: the
render's paint, the side panels' frame (a hand's end, main.js), the frame the start
waits for and its pieces (motion.js); a still shot then ends them (:func:`settle`)."""


def after_frames(page: Any, n: int = HAND_END_FRAMES) -> None:
    """Wait ``n`` of ``page``'s frames: a state drawn before the call has its side panels
    drawn and its moves and chips' flights started (s73-suite: a hand's end waited a
    fixed 0.8-0.9 s, "the pot's chips landed", before its still shot, which ends the
    flights itself)."""
    page.evaluate(FRAMES, n)


def settle(page: Any) -> tuple[int, int]:
    """Bring ``page`` to rest: each running animation that ends within :data:`SETTLE_MS`
    (``document.getAnimations()``) is ended at its last frame (``finish()``: its
    ``animationend`` sent, as its own end sends it), until none runs nor waits to
    start a frame later, for at most :data:`SETTLE_MS`; returns how many moves it
    ended and how many still ran when it gave up. Stop 54: a screenshot taken as a
    state came drew chips mid-flight over a seat's cards (the test's moment, not the
    page's).  Until s66-table it waited for each move to end in its own time (about
    0.4 s for a shot that waited; 38 of 101 shots in two files): the same last frame,
    later."""
    got = page.evaluate(SETTLE, SETTLE_MS)
    return int(got[0]), int(got[1])


def replay_forward(page: Any, steps: int) -> None:
    """Move ``page``'s open replay on ``steps`` steps (none for 0): Next clicked by
    Playwright once (the button visible, enabled and on top), the others in one page
    call -- replay.js draws each step in Next's handler, so the step reached is the
    same (s66-table: a Playwright click a step before, about 50 ms each)."""
    if steps <= 0:
        return
    page.click("#replay-next")
    page.evaluate("n => { for (let i = 0; i < n; i++) "
                  "document.querySelector('#replay-next').click(); }", steps - 1)


def shot(page: Any, name: str, *, moving: bool = False) -> None:
    """Save the page's viewport as test-artifacts/web/NAME.png (for people to look at;
    nothing asserts on it), once the felt's moves are ended (:func:`settle`);
    ``moving``: at once, for a picture of the moves themselves (chips in flight)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if not moving:
        settle(page)
    save_screenshot(page, SHOTS / f"{name}.png")


class CheckingBot(BasicBot):
    """A computer player that never bets or raises (checks, else calls) and plays
    every other decision as ``basic``: the person it plays always meets a free check,
    so a test of the fold-when-checking-is-free question never depends on the deal."""

    def _bet(self, view: Any, legal: Any) -> object:
        return Call() if "call" in legal.actions else Check()


def only_checking_bots(live: Any, tid: str) -> None:
    """Make every computer player at table ``tid`` of ``live`` a :class:`CheckingBot`
    (before the first deal: the table makes its bots when first asked)."""
    live.manager.get(tid).bot_factory = lambda level: CheckingBot(random.Random(0))


def viewport_context(browser: Any, viewport: dict[str, int], **kw: Any) -> Any:
    """A browser context at ``viewport``: :data:`PHONE` as a phone (mobile, touch),
    else as it is (``DESKTOP``); ``kw``: more of Playwright's context options
    (``bypass_csp=True``, ``reduced_motion="reduce"``)."""
    mobile = viewport is PHONE
    return browser.new_context(viewport=viewport, is_mobile=mobile, has_touch=mobile, **kw)


def hosted_table(live: Any, ctx: Any, *, name: str = "Ann", checking_bots: bool = True,
                 **config: Any) -> tuple[str, str, Any, Any]:
    """A table made over HTTP on ``live`` (:func:`new_table`'s defaults and
    ``config``), its computer players made :class:`CheckingBot` (unless
    ``checking_bots`` is off), its host's page opened in ``ctx`` and seated as
    ``name``: returns (table id, host token, the live table, the host's page)."""
    tid, host_token = new_table(live.url, **config)
    table = live.manager.get(tid)
    assert table is not None
    if checking_bots:
        only_checking_bots(live, tid)
    page = open_as_host(ctx, live.url, tid, host_token)
    sit(page, name)
    return tid, host_token, table, page


class HostAtBothSizes(NamedTuple):
    """:func:`host_at_both_sizes`'s table and pages."""

    table: Any
    phone: Any
    desktop: Any
    friend: Any


@contextlib.contextmanager
def host_at_both_sizes(browser: Any, live: Any, **config: Any) -> Iterator[HostAtBothSizes]:
    """One table (:func:`hosted_table`'s, with ``config``) seen at both sizes: its
    host seated as Ann on a phone page (390x844), the same player and host on a
    desktop page (1440x900; the phone's cookies), and a watching friend on another
    desktop page (no seat); each page has drawn the seats.  The contexts are
    closed after."""
    contexts = [viewport_context(browser, size) for size in (PHONE, DESKTOP, DESKTOP)]
    phone_ctx, desktop_ctx, friend_ctx = contexts
    try:
        _tid, _host, table, phone = hosted_table(live, phone_ctx, **config)
        desktop_ctx.add_cookies(phone_ctx.cookies())  # (the same player and host)
        desktop = desktop_ctx.new_page()
        desktop.goto(phone.url)
        friend = friend_ctx.new_page()  # (a watcher: no seat)
        friend.goto(phone.url)
        for page in (desktop, friend):
            page.wait_for_selector("#seats .seat")
        yield HostAtBothSizes(table, phone, desktop, friend)
    finally:
        for ctx in contexts:
            ctx.close()


def new_table(base: str, **config: Any) -> tuple[str, str]:
    """Create a table over HTTP; returns (table id, host token).  The tests' quick
    settings unless ``config`` says otherwise: ``random`` computer players (the
    server's own default is ``basic``, which works out its chances at each
    decision), acting at once, a long decision clock, no next hand by itself."""
    body = {"decision_seconds": 300, "bot_delay": 0.02, "between_hands": 600,
            "stack": 200, "bot_level": "random", **config}
    r = httpx.post(base + "/api/tables", json=body)
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    return tid, r.cookies[host_cookie(tid)]


def level_clock_to(server: Any, table: Any, seconds: float) -> None:
    """Move ``table``'s tournament level clock on to ``seconds`` run (never back), on
    ``server``'s loop (a :class:`web_harness.ServerThread`), as if they had passed: a
    test of what a level's end does need not wait out the level in real time (stop 60).
    The level, the rebuys' close and a break's start are still worked out from the
    clock as when it runs out (:meth:`Tourney.clock_seconds`)."""

    def move() -> None:
        t = table.session["tournament"]
        t["elapsed"] = max(float(t["elapsed"]), seconds)

    server.call(move)


def open_as_host(ctx: Any, base: str, tid: str, host_token: str, query: str = "") -> Any:
    """A page of ``ctx`` holding the table's host cookie, the table loaded in it;
    ``query``: what follows the table's address (``"?motion=none"``)."""
    ctx.add_cookies([{"name": host_cookie(tid), "value": host_token, "url": base}])
    page = ctx.new_page()
    page.goto(f"{base}/t/{tid}{query}")
    return page


def goto_as_host(page: Any, base: str, tid: str, host_token: str) -> Any:
    """``page`` (one already open: :class:`Pages`) holding the table's host cookie,
    the table loaded in it; returns ``page``."""
    page.context.add_cookies([{"name": host_cookie(tid), "value": host_token, "url": base}])
    page.goto(f"{base}/t/{tid}")
    return page


def create_via_form(page: Any, base: str, game: str, seats: int = 3, bots: int = 1,
                    stack: int | None = 100, practice_odds: bool = False,
                    bot_level: str = "random") -> str:
    """Create a table through the lobby form as a host would, with computer players
    of ``bot_level`` (the tests' quick random ones unless given; the form's own
    default is basic) that act at once and a long decision clock; returns the
    table's URL."""
    page.goto(base + "/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=bot_level]", bot_level)
    fields = {"seats": seats, "bots": bots, "stack": stack, "decision_seconds": 300}
    for name, value in fields.items():
        if value is not None:
            page.fill(f"input[name={name}]", str(value))
    if practice_odds:
        page.check("input[name=practice_odds]")
    page.click("details summary")
    page.fill("input[name=bot_delay]", "0.05")
    page.fill("input[name=between_hands]", "60")
    page.click("#create-btn")
    page.wait_for_url("**/t/*")
    return str(page.url)


def sit(page: Any, name: str) -> None:
    """Type the name and click the join button."""
    page.wait_for_selector("#join:not(.hidden)")
    page.fill("#join-name", name)
    page.click("#join-btn")
    page.wait_for_selector(f".me .name:has-text('{name}')")


def sit_with_enter(page: Any, name: str) -> None:
    """Type the name and press Enter: that sits the player down."""
    page.wait_for_selector("#join:not(.hidden)")
    page.fill("#join-name", name)
    page.press("#join-name", "Enter")
    page.wait_for_selector(f".me .name:has-text('{name}')")


Box = dict[str, float]


def _boxes(page: Any, *selectors: str) -> list[list[tuple[str, Box]]]:
    """The visible boxes of each selector, all read in one snapshot: computer players
    act all the time and each state redraws the table, so boxes read one by one
    could mix two drawings."""
    found = page.evaluate("""selectors => selectors.map(sel =>
      [...document.querySelectorAll(sel)].map((e, i) => {
        const r = e.getBoundingClientRect();
        const shown = e.checkVisibility({visibilityProperty: true});
        return {i, shown, label: e.dataset.action || e.dataset.card || '',
                box: {x: r.x, y: r.y, width: r.width, height: r.height}};
      }))""", list(selectors))
    return [[(f"{sel}[{item['i']}] {item['label']}", item["box"]) for item in items
             if item["shown"] and item["box"]["width"] > 0 and item["box"]["height"] > 0]
            for sel, items in zip(selectors, found, strict=True)]


def _overlap(a: Box, b: Box, slack: float = 0.5) -> bool:
    return (a["x"] + slack < b["x"] + b["width"] and b["x"] + slack < a["x"] + a["width"]
            and a["y"] + slack < b["y"] + b["height"] and b["y"] + slack < a["y"] + a["height"])


CONTROLS = ("#controls button, #controls input, #controls [data-position], "
            "#controls [data-action]")


def assert_decision_fits(page: Any, where: str) -> None:
    """At one of the player's decisions: their cards and every control of the
    decision lie inside the viewport (no scrolling), and none overlaps another;
    the opponents' tiles do not overlap each other."""
    view = page.viewport_size
    assert page.evaluate("document.scrollingElement.scrollTop") == 0, where
    cards, controls, seats = _boxes(
        page, ".me .cards.mine > .card",
        "#controls button:not(.hidden), #controls input, #controls [data-position]",
        "#seats > .seat")
    assert cards, f"{where}: no cards of yours on screen"
    assert controls, f"{where}: no action controls on screen"
    for label, b in cards + controls:
        assert b["x"] >= 0 and b["y"] >= 0, f"{where}: {label} starts off screen {b}"
        assert b["x"] + b["width"] <= view["width"] + 0.5, f"{where}: {label} off right {b}"
        assert b["y"] + b["height"] <= view["height"] + 0.5, f"{where}: {label} below {b}"
    items = cards + controls
    for i, (la, a) in enumerate(items):
        for lb, b in items[i + 1:]:
            assert not _overlap(a, b), f"{where}: {la} overlaps {lb}: {a} {b}"
    for i, (la, a) in enumerate(seats):
        for lb, b in seats[i + 1:]:
            assert not _overlap(a, b), f"{where}: seat tiles overlap: {la} {lb}"
        for lc, c in cards + controls:
            assert not _overlap(a, c), f"{where}: {la} overlaps your {lc}"


def wait_played(page: Any, live: Any, tid: str, made: int, where: str) -> None:
    """Wait until the server has played the person's ``made`` decisions of hand 1 and
    the page has drawn the state that says so: a computer player's state arriving in
    between would show the decision just made again."""
    end = time.monotonic() + 20
    while sum(row.source == "player" for row in live.manager.store.load_actions(tid, 1)) < made:
        assert time.monotonic() < end, f"{where}: the server never played it"
        page.wait_for_timeout(30)
    told = live.manager.tables[tid].seq
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", told)


MOTION_ON = "localStorage.setItem('rollem_motion', 'on');"
"""The felt's motion held on (its motion button's "on", motion.js): left on "auto", a
frame over 50 ms while something moves turns it off for the page (slowframes.js), and a
loaded test machine makes such frames at random; test_felt_motion_slow_browser.py tests
"auto" in contexts of its own."""


def context(browser: Any, size: str, **kw: Any) -> Any:
    """A browser context at ``size`` ("phone": 390x844 with touch, else 1440x900), the
    felt's motion held on (``MOTION_ON``); ``kw``: more of Playwright's context options
    (``reduced_motion="reduce"``)."""
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **kw)
           if size == "phone" else browser.new_context(viewport=DESKTOP, **kw))
    ctx.add_init_script(MOTION_ON)
    return ctx


class Pages:
    """One page per kind of context, kept for a test module (the ``pages`` fixture):
    each test opens its own new table in it with ``goto`` (a new document), with the
    context's cookies and the site's storage cleared when the last test ended (as a
    new context starts; only the HTTP cache is kept). A table opened this way costs
    Chromium about 0.9 CPU-s against about 2 in a new context and page
    (docs/dev/test-suite-time.md, stops 48 and 49). Not for a test that sets cookies
    or storage before its page loads (``add_cookies`` of its own, an init script that
    writes storage), listens to the page's events, changes its viewport or routes its
    requests: it keeps a context of its own.

    A page not in use is frozen (``Page.setWebLifecycleState``: no task of its
    document runs): left live on its last table, its clock's 250 ms ticks drew the
    page again and again for the rest of the module (stop 49)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self._made: dict[tuple[Any, ...], dict[str, Any]] = {}

    def get(self, size: str, init_script: str | None = None, keep: Any = None,
            **kw: Any) -> Any:
        """The module's page at ``size`` (:func:`context`'s sizes) with Playwright's
        context options ``kw`` (``reduced_motion="reduce"``) and ``init_script`` (run
        in every document the page loads: only tests asking for the same script share
        its page), made at the first call; every other page is frozen but ``keep``
        (a page of another size the test uses beside it)."""
        key = (size, init_script, *sorted(kw.items()))
        made = self._made.get(key)
        if made is None or made["page"].is_closed():
            ctx = context(self.browser, size, **kw)
            if init_script is not None:
                ctx.add_init_script(init_script)
            page = ctx.new_page()
            made = self._made[key] = {"ctx": ctx, "page": page, "frozen": False,
                                      "cdp": ctx.new_cdp_session(page)}
        self.rest(but=made["page"], keep=keep)
        made["used"] = True
        if made["frozen"]:
            made["cdp"].send("Page.setWebLifecycleState", {"state": "active"})
            made["frozen"] = False
        return made["page"]

    @contextmanager
    def open(self, size: str, init_script: str | None = None, keep: Any = None,
             **kw: Any) -> Iterator[Any]:
        """:meth:`get`'s page, closed (with its context) if the test fails inside: the
        next test gets a new one."""
        page = self.get(size, init_script, keep, **kw)
        try:
            yield page
        except BaseException:
            page.context.close()
            raise

    def rest(self, but: Any = None, clean: bool = False, keep: Any = None) -> None:
        """Freeze every open page (but ``but`` and ``keep``) until it is asked for
        again; with ``clean`` (a test's end), first clear its context's cookies and
        the storage of the site it shows (``localStorage`` keeps the name typed to
        sit, and the sound switch, for the whole site)."""
        for key, made in list(self._made.items()):
            page = made["page"]
            if page is but or (keep is not None and page is keep) or page.is_closed():
                continue
            if clean and made.get("used"):
                made["used"] = False
                if made["frozen"]:
                    made["cdp"].send("Page.setWebLifecycleState", {"state": "active"})
                    made["frozen"] = False
                try:
                    if page.url.startswith("http"):
                        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                    made["ctx"].clear_cookies()
                except Exception:   # (a page that cannot be cleaned is not used again)
                    self._made.pop(key)["ctx"].close()
                    continue
            if not made["frozen"]:
                made["cdp"].send("Page.setWebLifecycleState", {"state": "frozen"})
                made["frozen"] = True

    def close(self) -> None:
        """Close every context made."""
        for made in self._made.values():
            made["ctx"].close()
        self._made.clear()


def decision_kind(page: Any) -> str | None:
    """What the page asks of the player now (None: nothing)."""
    return str(page.evaluate("""() => {
      const c = document.querySelector('#controls');
      if (!c || !c.querySelector('button, [data-position]')) return null;
      if (c.querySelector('[data-game]')) return 'choose';
      if (c.querySelector('#confirm')) return c.querySelector('#confirm').dataset.action;
      if (c.querySelector('[data-position]')) return 'wild';
      if (c.querySelector('[data-action^=declare]')) return 'declare';
      if (c.querySelector('[data-action=fold-confirm]')) return 'fold-confirm';
      if (c.querySelector('[data-action=check], [data-action=call], [data-action=fold]'))
        return 'bet';
      return null;
    }""") or "") or None


def ann_at_her_first_bet(ctx: Any, live: Any, seats: int = 3, then_ms: int = 600,
                         timeout: float = 30.0) -> Any:
    """Hold'em at a new table of ``live`` with ``seats`` seats, Ann (the host, a page
    of ``ctx``) and ``seats - 1`` checking computer players (:class:`CheckingBot`),
    dealt: the page once Ann's first betting decision is shown and ``then_ms`` ms
    more have passed (the deal's own animations and sounds over).  Nothing is sent
    until Ann acts."""
    tid, host_token = new_table(live.url, game="holdem", seats=seats, bots=seats - 1)
    only_checking_bots(live, tid)
    page = open_as_host(ctx, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    wait_first_bet(page, timeout)
    page.wait_for_timeout(then_ms)
    return page


def wait_first_bet(page: Any, timeout: float = 30.0) -> None:
    """Wait (``timeout`` s at the most) until ``page`` shows Ann a betting decision
    (:func:`decision_kind` "bet"): her first, once the hand is started."""
    end = time.monotonic() + timeout
    while decision_kind(page) != "bet":
        assert time.monotonic() < end, "Ann's first decision never came"
        page.wait_for_timeout(30)


def play_to_the_result(page: Any, live: Any, tid: str,
                       at_turn: Callable[[str, int], None] | None = None) -> None:
    """Play the person's decisions of hand 1 on ``page`` (:func:`take_decision`)
    until the result shows, 60 s at the most, waiting after each until the server
    has played it and the page has drawn the state that says so
    (:func:`wait_played`); ``at_turn(kind, n)`` runs at each decision (``n``: its
    number, from 1) before it is made."""
    made = 0
    end = time.time() + 60
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < end, "the hand did not finish"
        kind = decision_kind(page)
        if kind is None:
            page.wait_for_timeout(30)
            continue
        if at_turn is not None:
            at_turn(kind, made + 1)
        take_decision(page, kind)
        made += 1
        wait_played(page, live, tid, made, f"decision {made}")


def take_decision(page: Any, kind: str, game: str | None = None) -> None:
    """Make the decision ``kind`` through the page: passive betting (check, else call),
    the fewest cards, high, the first pool card, the dealt order."""
    c = page.locator("#controls")
    if kind == "choose":
        c.locator(f"[data-game={game}]").click()
    elif kind in ("bet", "fold-confirm"):
        # One look decides (check, else call, else fold): looking for each button in
        # turn could miss check on one turn and find fold on the next, and a fold that
        # could have checked asks "Fold anyway?" (then kind is fold-confirm: check).
        action = page.evaluate("""() => {
          const c = document.querySelector('#controls');
          for (const a of ['check', 'call', 'fold'])
            if (c && c.querySelector(`[data-action=${a}]`)) return a;
          return null;
        }""")
        if action is None:
            return
        b = c.locator(f"[data-action={action}]")
        try:
            b.first.click(timeout=10_000)
        except PlaywrightTimeout:
            # The turn passed between finding the button and the click (the
            # clock acted, or the hand moved on): the caller looks again.
            if b.count():
                raise
    elif kind == "declare":
        c.locator("[data-action^=declare]").first.click()
    elif kind == "wild":
        c.locator("[data-position='0']").click()
    elif kind == "stack":
        c.locator("[data-action=stack-keep]").click()
    else:
        confirm = c.locator("#confirm")
        try:
            lo = int(confirm.get_attribute("data-min", timeout=10_000) or 0)
            want = lo if kind != "draw" else 0
            while page.locator(".me .card.selected").count() < want:
                page.locator(".me .card.pickable:not(.selected)").first.click(timeout=10_000)
            page.locator("#confirm:not([disabled])").click(timeout=10_000)
        except PlaywrightTimeout:
            # As for a bet: the turn passed (the clock chose, the hand moved on) while
            # the cards were picked; the caller looks again (s62: a 30 s wait on a
            # #confirm already gone failed a Roll Your Own test under load).
            if c.locator("#confirm").count():
                raise


def open_tournament_panel(page: Any) -> None:
    """Open ``page``'s tournament panel where a phone folds it during play
    (s61-table2: its head and **More**): a test that reads the places, the pool or
    the add-on there sees them as a player who tapped More does.  Nothing where it
    is not folded (a wide screen, before the start, after the end)."""
    more = page.locator("#tourney .tourney-fold[aria-expanded=false]")
    if more.count() and more.first.is_visible():
        more.first.click()


def fits_width(page: Any, selector: str) -> None:
    """Each element of ``selector`` lies within the page's width, and the page
    does not scroll sideways."""
    width = page.viewport_size["width"]
    for i in range(page.locator(selector).count()):
        box = page.locator(selector).nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (
            selector, box, width)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def play_until(page: Any, done: Callable[[], bool], what: str, timeout: float = 60.0,
               *, also: Sequence[Any] = ()) -> None:
    """``page``'s player, and the player of each page in ``also``, takes each
    decision offered (``take_decision``) until ``done()`` (asked from the test's
    thread) is true; ``what`` names it in the timeout's message."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"{what} never came in {timeout} s"
        for player in (page, *also):
            kind = decision_kind(player)
            if kind is not None:
                take_decision(player, kind)
        page.wait_for_timeout(50)


SHORT_TOURNAMENT = """
stack = 3
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 30
"""
"""A tournament schedule of three chips a player, an ante of 1 and bets of 2: a bet
and a call put both all-in (a tournament that ends in a few hands)."""


BREAK_IN_REBUYS = """
stack = 3
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 30
break = 5
[[levels]]
ante = 1
small_bet = 2
big_bet = 4
minutes = 30
"""
"""Two 30-minute levels of :data:`SHORT_TOURNAMENT`'s stakes, a 5-minute break
between them; three chips a player (rebuys open in both levels: ``rebuy_levels=2``)."""


def shove_until(server: Any, pages: Any, done: Callable[[], bool], what: str,
                timeout: float = 90.0) -> None:
    """Each of ``pages`` (a page or a list of them) shoves (:func:`shove`) until
    ``done()``, asked on ``server``'s loop (a :class:`web_harness.ServerThread`),
    is true; ``what`` names it in the timeout's message (``timeout`` seconds).  A
    click on a button redrawn under it is passed over (the next round tries again)."""
    pages = pages if isinstance(pages, list) else [pages]
    end = time.monotonic() + timeout
    while not server.call(done):
        assert time.monotonic() < end, f"{what} never came in {timeout} s"
        for page in pages:
            with contextlib.suppress(PlaywrightError):  # (redrawn under the click)
                shove(page)
        pages[0].wait_for_timeout(50)


def to_the_break(server: Any, table: Any, page: Any, seconds: float = 30 * 60,
                 timeout: float = 60.0) -> None:
    """Move ``table``'s level clock on to ``seconds`` (:func:`level_clock_to`; by
    default the end of :data:`BREAK_IN_REBUYS`'s first level) and wait until the
    break after that level has begun and ``page`` counts it down."""
    level_clock_to(server, table, seconds)
    end = time.monotonic() + timeout
    while server.call(lambda: table.session["tournament"].get("break") is None):
        assert time.monotonic() < end, "no break began"
        page.wait_for_timeout(100)
    page.locator(".break-left:visible").first.wait_for()


def ann_against_two_computers(browser: Any, server: Any, size: str, schedule: str,
                              rebuy_levels: int, seats: int = 3) -> tuple[Any, Any]:
    """A Stop, Drop and Roll tournament (``schedule``, buy-in 10, ``rebuy_levels``)
    started by Ann, its one person, with 1 chip against two checking computer
    players of 100 each: (her page at ``size``, the live table).  ``seats`` above 3
    leaves free seats (late registration, with rebuys)."""
    import random

    tid, host = new_table(server.url, game="sdr", seats=seats, bots=2, tournament="custom",
                          tournament_schedule=schedule, buy_in=10,
                          rebuy_levels=rebuy_levels, between_hands=1.0)
    table = server.manager.tables[tid]
    server.manager.get(tid).bot_factory = lambda level: CheckingBot(random.Random(0))
    ann = open_as_host(context(browser, size), server.url, tid, host)
    sit(ann, "Ann")

    def stacks() -> None:
        for seat in table.seats.values():
            seat.row.stack = 1 if seat.row.bot is None else 100
    server.call(stacks)
    ann.click("#start-btn")
    return ann, table


def ann_on_both_sizes(browser: Any, server: Any, ann: Any, table: Any) -> dict[str, Any]:
    """Ann's page (a phone's, from :func:`ann_against_two_computers`) and a second page
    of hers at 1440x900 on the same table (her cookies: the same player), by size:
    one table's hands read at both sizes (stop 72)."""
    desktop = context(browser, "desktop")
    desktop.add_cookies(ann.context.cookies())
    page = desktop.new_page()
    page.goto(f"{server.url}/t/{table.id}")
    page.locator(".me").first.wait_for()
    return {"phone": ann, "desktop": page}


def shove(page: Any) -> None:
    """``page``'s decision, if any: bet, else call where betting; else as
    :func:`take_decision` (Stop, Drop and Roll's others)."""
    kind = decision_kind(page)
    if kind is None:
        return
    for action in ("bet", "call"):
        button = page.locator(f"#controls [data-action={action}]")
        if kind == "bet" and button.count():
            # (a state that lands between the count and the click may take the button
            # away: the turn moved on. A caller's loop shoves again rather than wait
            # 30 s for a button that is not coming back: CI's stop-73 failure.)
            with contextlib.suppress(PlaywrightError):
                button.first.click(timeout=3_000)
            return
    take_decision(page, kind, "sdr")

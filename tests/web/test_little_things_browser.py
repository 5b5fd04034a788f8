"""The little things of the table and lobby pages (issue 26), in Debian's Chromium
through Playwright at 390x844 and 1440x900: Copy says "Copied" and works on a
plain-HTTP LAN address (no clipboard API there); a replay opened during your turn
leaves your cards, clock and buttons in view; a phone's header shows the table's
name, game and stakes uncut and the clock keeps inside its tile; the lobby shows
the dealer's choice boxes only for the dealer's choice and its Create button on
a desktop screen; the header keeps the ante between dealer's-choice hands; the
"joins next hand" tag goes once the hand is over; seats are counted from 1, a
rebuy's new stack drops the last hand's "all-in" tag, one who showed by choice
and left is named, and a last call names several players in a sentence (s53-tidy).
Screenshots: test-artifacts/web/little-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    decision_kind,
    new_table,
    only_checking_bots,
    open_as_host,
    play_to_the_result,
    shot,
    sit,
    sit_with_enter,
    take_decision,
    wait_played,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser

# A page served from a LAN address over plain HTTP: no navigator.clipboard (browsers
# give it to secure pages only); document.execCommand('copy') records what it copied.
NO_CLIPBOARD = """
Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined, configurable: true});
window.__copied = [];
const exec = Document.prototype.execCommand;
Document.prototype.execCommand = function (cmd, ...rest) {
  if (cmd === 'copy') { window.__copied.push(String(window.getSelection()) ||
    (document.activeElement && document.activeElement.value) || ''); return true; }
  return exec.call(this, cmd, ...rest);
};
"""


def context(browser: Any, size: str) -> Any:
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    ctx.add_init_script(NO_CLIPBOARD)
    return ctx


def finish_hand(page: Any, live: ServerThread, tid: str, hand_no: int) -> None:
    """Play Ann's decisions passively until the server has hand ``hand_no``'s result
    and the page has drawn the state that says so.  (Not until the page shows that
    result: with 0.3 s between hands the next hand's deal, drawn with no result,
    came before a loaded machine's look, and a decision of hand 2 was taken for
    hand 1's.)"""
    table = live.manager.get(tid)

    def over() -> bool:
        return table.last_result is not None and int(table.last_result["hand"]) >= hand_no

    made = 0
    end = time.time() + 60
    while not over():
        assert time.time() < end, f"hand {hand_no} did not finish"
        kind = decision_kind(page)
        if over():   # (a decision seen meanwhile is the next hand's)
            break
        if kind is None:
            page.wait_for_timeout(30)
            continue
        take_decision(page, kind)
        made += 1
        if hand_no == 1:
            wait_played(page, live, tid, made, f"decision {made}")
        else:
            page.wait_for_timeout(200)
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", table.seq)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_copy_and_a_replay_during_your_turn(browser: Any, live: ServerThread,
                                            size: str) -> None:
    ctx = context(browser, size)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=2, bots=1,
                                    between_hands=0.3)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        # Copy the invite link without a clipboard API: selected and copied, "Copied".
        page.click("#copy-invite")
        assert page.inner_text("#copy-invite") == "Copied"
        link = page.input_value("#invite-link")
        assert page.evaluate("window.__copied") == [link]
        page.click("#start-btn")
        finish_hand(page, live, tid, 1)
        # Hand 2: at Ann's turn she opens hand 1's replay; her buttons stay in view.
        end = time.time() + 30
        while not (decision_kind(page) == "bet"
                   and page.locator("#status:has-text('hand 2')").count()):
            assert time.time() < end, "no decision of Ann's in hand 2"
            page.wait_for_timeout(30)
        page.evaluate("location.hash = '#hand=1'")
        page.wait_for_selector("#replay:not(.hidden)")
        page.wait_for_selector("#replay .replay-turn", state="visible")
        covered = page.evaluate("""() => [...document.querySelectorAll(
            '#controls button, #me .card')].filter(b => {
              const r = b.getBoundingClientRect();
              const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return !(top && b.contains(top));
            }).map(b => b.dataset.action || b.dataset.card)""")
        assert covered == [], f"{size}: the replay covers {covered}"
        shot(page, f"little-{size}-replay-at-your-turn")
        # The replay's own Copy link: copied the old way too, "Copied".
        page.click("#replay-copy")
        assert page.inner_text("#replay-copy") == "Copied"
        assert page.evaluate("window.__copied")[-1].endswith(f"/t/{tid}#hand=1")
    finally:
        ctx.close()


def test_a_phones_header_and_clocks_fit(browser: Any, live: ServerThread) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    bob_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        # Ten seats, two people: Ann sees Bob's clock run on his tile (computer
        # players have none) and her own in the dock.
        tid, host_token = new_table(live.url, game="holdem", seats=10, bots=8,
                                    name="Thursday night game")
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        page.click("#start-btn")
        # Ann acts (her clock in the dock), then Bob's turn comes (his on his tile).
        end = time.time() + 30
        while decision_kind(page) != "bet":
            assert time.time() < end, "Ann's turn never came"
            page.wait_for_timeout(30)
        take_decision(page, "bet")
        page.wait_for_selector("#seats .seat .clock")
        fit = page.evaluate("""() => {
          const h = document.getElementById('table-name');
          const r = h.getBoundingClientRect();
          const clocks = [...document.querySelectorAll('#seats .seat .clock')].map(c => {
            const t = c.closest('.seat, .me').getBoundingClientRect();
            const b = c.getBoundingClientRect();
            return {text: c.textContent, inside: b.right <= t.right + 0.5 && b.left >= t.left - 0.5,
                    cut: c.scrollWidth > c.clientWidth + 1};
          });
          return {text: h.innerText, cut: h.scrollWidth > h.clientWidth + 1
                  || h.scrollHeight > h.clientHeight + 1,
                  onScreen: r.left >= 0 && r.right <= innerWidth + 0.5, clocks};
        }""")
        shot(page, "little-phone-header")
        assert not fit["cut"] and fit["onScreen"], fit
        for word in ("Thursday night game", "Texas Hold'em", "blinds 1/2, fixed limit 2/4"):
            assert word in fit["text"], (word, fit["text"])
        assert fit["clocks"], fit
        for c in fit["clocks"]:
            assert c["inside"] and not c["cut"], c
    finally:
        ctx.close()
        bob_ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_lobby_shows_the_choices_only_for_a_dealers_choice(browser: Any,
                                                               live: ServerThread,
                                                               size: str) -> None:
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.holdem']")
        assert page.is_visible("#choices")
        page.select_option("select[name=game]", "holdem")
        assert not page.is_visible("#choices")
        page.select_option("select[name=game]", "dealers-choice")
        assert page.is_visible("#choices")
        # The Create button is on screen without scrolling.
        box = page.locator("#create-btn").bounding_box()
        assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box
        assert page.evaluate("document.scrollingElement.scrollTop") == 0
        shot(page, f"little-{size}-lobby")
        # stop 67: computer players are basic unless the host picks another, as in
        # `rollem play` (main's form offered random: any legal move)
        assert page.input_value("select[name=bot_level]") == "basic"
        # stop 53: a tournament's schedule sets the stack and stakes and its rebuy
        # levels the rebuys: the cash game's fields hide (main: "Starting stack
        # 200" shown above a tournament of the schedule's chips)
        cash = ["input[name=ante]", "input[name=small_bet]", "input[name=big_bet]",
                "input[name=stack]", "input[name=rebuys]"]
        assert [page.is_visible(f) for f in cash] == [True] * 5
        assert not page.is_visible("#schedule-sets")
        page.select_option("select[name=tournament]", "turbo")
        assert [page.is_visible(f) for f in cash] == [False] * 5
        assert page.inner_text("#schedule-sets") == (
            "The schedule sets the starting stack and the stakes of each level; rebuys "
            "are the tournament's own (above).")
        assert page.is_visible("input[name=seats]") and page.is_visible("input[name=bots]")
        shot(page, f"little-{size}-lobby-tournament")
        page.select_option("select[name=tournament]", "")
        assert [page.is_visible(f) for f in cash] == [True] * 5
    finally:
        ctx.close()


def test_the_header_keeps_the_ante_between_dealers_choice_hands(browser: Any,
                                                               live: ServerThread) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        tid, host_token = new_table(live.url, game="dealers-choice", seats=2, bots=1, ante=1)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        # Ann has the button: she names the first game; no hand is dealt yet.
        page.wait_for_selector("#controls [data-game]")
        assert "ante 1" in page.inner_text("#table-name"), page.inner_text("#table-name")
    finally:
        ctx.close()


def test_joins_next_hand_goes_once_the_hand_is_over(browser: Any, live: ServerThread) -> None:
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=1)
        only_checking_bots(live, tid)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit_with_enter(ann, "Ann")
        ann.click("#start-btn")
        ann.wait_for_selector(".me .cards.mine .card")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        ann.wait_for_selector("#seats .tag:has-text('joins next hand')")
        bob.wait_for_selector(".me .tag:has-text('joins next hand')")
        finish_hand(ann, live, tid, 1)
        bob.wait_for_selector("#result:not(.hidden)")
        assert ann.locator(".tag:has-text('joins next hand')").count() == 0
        assert bob.locator(".tag:has-text('joins next hand')").count() == 0
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_player_leaves_and_sits_down_again_with_their_chips(
        browser: Any, live: ServerThread) -> None:
    """Stop 53: **Leave** beside Sit out once Bob's hand is over (before: none; a
    friend going home could only close the page, and the table waited for each
    of their decisions until the reconnect grace ran out; not while he plays a
    hand, when a phone's dock is full).  It asks once more on itself; the seat is
    freed, he watches, his chips on the ledger as "Bob (left)", and sitting down
    again from the same browser gives them back.  Bob on a phone (390x844) at one
    table and on a desktop (1440x900) at another, Ann hosting each: the two hands
    played, and the two toasts' 4 s, at the same time (stop 61: each size had its
    own test before, the same steps)."""
    contexts: list[Any] = []
    try:
        tables: list[dict[str, Any]] = []
        for size in ("phone", "desktop"):
            ann_ctx = browser.new_context(viewport=DESKTOP)
            bob_ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                       if size == "phone" else browser.new_context(viewport=DESKTOP))
            contexts += [ann_ctx, bob_ctx]
            tid, host_token = new_table(live.url, game="holdem", seats=3, bots=1)
            only_checking_bots(live, tid)
            ann = open_as_host(ann_ctx, live.url, tid, host_token)
            sit_with_enter(ann, "Ann")
            bob = bob_ctx.new_page()
            bob.goto(f"{live.url}/t/{tid}")
            sit(bob, "Bob")
            leave = bob.locator(".me button[data-action^=leave]")
            assert leave.inner_text() == "Leave"  # (seated, before the deal)
            tables.append({"size": size, "ann": ann, "bob": bob, "leave": leave,
                           "table": live.manager.get(tid)})
        for t in tables:
            t["ann"].click("#start-btn")
        for t in tables:
            t["bob"].wait_for_selector(".me .cards.mine .card")
            assert t["leave"].count() == 0  # (his hand in play)
        end = time.time() + 60
        while any(t["table"].last_result is None for t in tables):  # all play passively
            assert time.time() < end, "hand 1 did not finish"
            for t in tables:
                for page in (t["ann"], t["bob"]):
                    kind = decision_kind(page)
                    if kind is not None and t["table"].last_result is None:
                        take_decision(page, kind)
            tables[0]["ann"].wait_for_timeout(60)
        for t in tables:
            size, bob, leave, table = t["size"], t["bob"], t["leave"], t["table"]
            seat = t["seat"] = next(n for n, s in table.seats.items() if s.row.name == "Bob")
            stack = t["stack"] = table.seats[seat].row.stack
            leave.click()
            assert leave.inner_text() == "Leave the table?" and seat in table.seats
            shot(bob, f"leave-{size}-ask")
            leave.click()
            bob.wait_for_selector("#join:not(.hidden)")
            assert seat not in table.seats
            line = next(d for d in table.session["departed"] if d["name"] == "Bob")
            assert int(line["stack"]) == stack
            # said by the toast first, then by the notice once the toast has gone (never
            # both at once: s57-tidy)
            assert bob.inner_text("#toast").startswith("You left the table: you are watching now.")
        for t in tables:
            size, bob, table, seat, stack = t["size"], t["bob"], t["table"], t["seat"], t["stack"]
            bob.wait_for_selector("#notice:has-text('You left the table: you are watching now.')",
                                  timeout=15000)
            assert bob.locator("#toast").is_hidden()
            wait_until(bob, "s => [...document.querySelectorAll('#ledger td')]"
                       ".some(td => td.textContent === s)", "Bob (left)")
            # Bob (left of the button, the first to show) keeps his name in the result
            # he played, though his seat is free now (main: "seat 1")
            assert bob.inner_text(f"#result .shown-line[data-seat='{seat}'] .who") == "Bob"
            shot(bob, f"leave-{size}-left")
            sit(bob, "Bob")
            assert bob.inner_text(".me .chips") == f"stack {stack}"
            assert all(d["name"] != "Bob" for d in table.session["departed"])
            shot(bob, f"leave-{size}-back")
    finally:
        for ctx in contexts:
            ctx.close()


# A state drawn over the page's own after hand 1 (s53-tidy): the person's (``me``)
# hand over all-in with nothing left, first as the hand left it, then after a
# rebuy of 200; the computer player (``bot``) shown by choice, then gone (its seat
# free, the hand's names keep it: "Bob").  Returns what the page shows each time.
SEAT_STATES = r"""async ([me, bot]) => {
  const { hooks, S } = await import('/static/table/state.js');
  const { lastCallText } = await import('/static/table/tourney.js');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const settle = async () => { for (let k = 0; k < 4; k++) await frame(); };
  const tags = () => [...document.querySelectorAll('.me .tag')].map((e) => e.textContent);
  const busted = structuredClone(S.state);
  const hs = busted.hand.seats[me];
  hs.all_in = true; hs.stack = 0; hs.dealt = true; hs.folded = false;
  busted.table.seats[me].stack = 0;
  busted.hand.names = busted.hand.names || busted.table.seats.map((s) => s.name || null);
  busted.hand.names[bot] = 'Bob';
  busted.hand.events.push({ kind: 'show', seat: bot, by_choice: true, cards: ['As', 'Kd'] });
  busted.seq = (busted.seq || 0) + 1;
  hooks.render(busted, S.state); S.state = busted; await settle();
  const before = tags();
  const rebought = structuredClone(busted);
  rebought.table.seats[me].stack = 200;
  rebought.table.seats[bot] = { seat: bot, free: true };
  rebought.seq += 1;
  hooks.render(rebought, busted); S.state = rebought; await settle();
  const who = document.querySelector(`#result .by-choice[data-seat='${bot}'] .who`);
  return { before, after: tags(),
           stack: document.querySelector('.me .chips').textContent,
           shows: who ? who.textContent : null,
           call3: lastCallText({ who: 'Amy, Ben and Cat', seats: [0, 1, 2], until: null,
                                 held_left: 43 }),
           call1: lastCallText({ who: 'Amy', seats: [0], until: null, held_left: 43 }) };
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_seats_counted_from_1_and_words_after_a_rebuy_and_a_leaver(
        browser: Any, live: ServerThread, size: str) -> None:
    """Stop 53's try-out (s53-tidy): a free seat read "Seat 0 — free" (friends count
    from 1); after a rebuy Ann's area kept the last hand's "all-in" beside her new
    stack; "seat 1 shows ... by choice" for one who had left; a last call of three
    read "Amy or Ben or Cat has 43 s" (the felt's own words: "has" whatever the count)."""
    ctx = context(browser, size)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=4, bots=1)
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        page.wait_for_selector("#join:not(.hidden)")
        table = live.manager.get(tid)
        bot = next(iter(table.seats))
        free = [n for n in range(4) if n != bot]
        tiles = page.eval_on_selector_all(
            "#seats .seat.empty", "els => els.map(e => [Number(e.dataset.seat), e.textContent])")
        assert tiles == [[n, f"Seat {n + 1} — free: tap to sit"] for n in free]
        options = page.eval_on_selector_all("#join-seat option",
                                            "els => els.map(e => [e.value, e.textContent])")
        assert options == [[str(n), f"Seat {n + 1}"] for n in free]  # (the value: the index)
        shot(page, f"little-{size}-seats-from-1")
        sit_with_enter(page, "Ann")
        me = next(n for n, s in table.seats.items() if s.row.name == "Ann")
        left = [n for n in free if n != me]
        tiles = page.eval_on_selector_all(
            "#seats .seat.empty", "els => els.map(e => [Number(e.dataset.seat), e.textContent])")
        assert tiles == [[n, f"Seat {n + 1} — free: move here"] for n in left]  # (stop 59)
        page.click("#start-btn")
        play_to_the_result(page, live, tid)
        got = page.evaluate(SEAT_STATES, [me, bot])
        assert got == {
            # (busted, "stack 0" says it: no "all-in" beside it, s63-table)
            "before": [], "after": [], "stack": "stack 200", "shows": "Bob shows",
            "call3": "Last call for a rebuy: Amy, Ben and Cat have 43 s to rebuy; then "
                     "the tournament ends.",
            "call1": "Last call for a rebuy: Amy has 43 s to rebuy; then the tournament ends.",
        }, got
        shot(page, f"little-{size}-rebought-and-bob-gone")
    finally:
        ctx.close()

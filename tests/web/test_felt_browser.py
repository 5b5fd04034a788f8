"""The felt tells the hand (issue 26), in Debian's Chromium through Playwright: each
seat's last action as a short label, the pot counting every chip committed in the
hand (this round's bets in front of the seats too), bets drawn as chips in front of
their seats, what each winner took, and the timer bar on the acting seat; at 2, 6
and 10 seats on a phone and a desktop.

Checked against the server: at each of the person's betting decisions (the table
waits for them, so nothing moves) every seat's label says the last action the
engine logged for it this round, and the pot figure is the chips committed in the
hand plus any carry.  Screenshots: test-artifacts/web/felt-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from felt_ui import home_game_labels
from table_ui import (
    DESKTOP,
    PHONE,
    Pages,
    context,
    decision_kind,
    goto_as_host,
    new_table,
    only_checking_bots,
    open_as_host,
    play_to_the_result,
    shot,
    sit_with_enter,
    wait_played,
    wait_until,
)
from web_harness import ServerThread, only_betting_bots, seeded_deals

pytestmark = pytest.mark.browser

VERB = {"check": "checks", "call": "calls", "bet": "bets", "raise": "raises to",
        "fold": "folds", "blind": ""}


def expected_labels(events: Any) -> dict[int, tuple[str, dict[str, Any]]]:
    """Each seat's last betting action of the open round, from the engine's events:
    a new round clears them, but for folds and for the blinds posted before the
    first round opens (seat -> (kind, data))."""
    out: dict[int, tuple[str, dict[str, Any]]] = {}
    opened = False
    for e in events:
        if e.kind in ("round", "choose", "draw_round"):
            out = {s: v for s, v in out.items()
                   if v[0] == "fold" or (v[0] == "blind" and not opened)}
            opened = True
        elif e.kind in VERB and e.seat is not None:
            out[e.seat] = (e.kind, e.data)
    return out


def check_felt(page: Any, live: ServerThread, tid: str, where: str) -> int:
    """Every seat's label and the pot as drawn match the server's hand now; returns
    how many labels were checked."""
    table = live.manager.get(tid)
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", table.seq)
    hand = table.hand.hand
    drawn = page.evaluate("""() => {
      const out = {};
      document.querySelectorAll('#seats .seat[data-seat]').forEach(t => {
        const l = t.querySelector('.action-label');
        out[t.dataset.seat] = l ? l.textContent : null;
      });
      const me = document.querySelector('#me .action-label');
      out.me = me ? me.textContent : null;
      const pot = document.querySelector('#pots .pot-total');
      return {labels: out, pot: pot ? Number(pot.dataset.total) : null,
              potText: pot ? pot.textContent : null};
    }""")
    committed = sum(hand.committed) + hand.carry_in
    assert drawn["pot"] == committed, f"{where}: pot {drawn['potText']!r}, committed {committed}"
    assert drawn["potText"] == f"pot {committed}", where
    want = expected_labels(hand.events)
    checked = 0
    for seat in range(len(hand.stacks)):
        text = drawn["labels"]["me" if seat == 0 else str(seat)] or ""
        if seat not in want:
            assert text == "", f"{where}: seat {seat} says {text!r} with no action this round"
            continue
        kind, data = want[seat]
        assert text.startswith(VERB[kind]), f"{where}: seat {seat} {kind} {data} drawn {text!r}"
        if kind in ("bet", "raise") and not data.get("bring_in"):
            assert f" {data['to']}" in text, f"{where}: seat {seat} {kind} {data} drawn {text!r}"
        if kind == "call":
            assert f" {data['amount']}" in text, f"{where}: seat {seat} call {data} drawn {text!r}"
        if kind == "blind":   # "small blind 1", "big blind 2", "straddle 4" (+ ", all-in")
            assert text.startswith(f"{data['blind']} {data['amount']}"), \
                f"{where}: seat {seat} blind {data} drawn {text!r}"
        checked += 1
    return checked


def bet_chips_match(page: Any, live: ServerThread, tid: str, where: str) -> None:
    """The chips drawn in front of each seat are its bet this round."""
    hand = live.manager.get(tid).hand.hand
    view = live.manager.get(tid).hand.view(0)
    drawn = page.evaluate("""() => Object.fromEntries(
      [...document.querySelectorAll('#seats .bet-chips, #me .bet-chips')].map(
        b => [b.dataset.seat, Number(b.dataset.amount)]))""")
    want = {str(i): s["bet"] for i, s in enumerate(view["seats"]) if s and s.get("bet")}
    assert drawn == want, f"{where}: chips {drawn} bets {want} (engine bets {hand.bets})"


def play_and_check(live: ServerThread, page: Any, seats: int, label: str) -> None:
    tid, host_token = new_table(live.url, game="holdem", seats=seats, bots=seats - 1,
                                structure="no-limit")
    only_betting_bots(live, tid)
    goto_as_host(page, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    deadline = time.time() + 60
    decisions = checked = 0
    raised = False
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < deadline, f"{label}: the hand did not finish"
        kind = decision_kind(page)
        if kind != "bet":
            page.wait_for_timeout(30)
            continue
        where = f"{label} decision {decisions + 1}"
        checked += check_felt(page, live, tid, where)
        bet_chips_match(page, live, tid, where)
        assert page.locator("#me .timer").count() == 1, f"{where}: no timer bar on your seat"
        if decisions == 0:
            shot(page, f"felt-{label}")
        c = page.locator("#controls")
        if not raised and c.locator("[data-action=raise], [data-action=bet]").count():
            raised = True
            c.locator("[data-action=raise], [data-action=bet]").first.click()
        elif c.locator("[data-action=call]").count():
            c.locator("[data-action=call]").click()
        else:
            c.locator("[data-action=check]").click()
        decisions += 1
        made = decisions
        end = time.time() + 20
        while sum(r.source == "player" for r in live.manager.store.load_actions(tid, 1)) < made:
            assert time.time() < end, f"{where}: never played"
            page.wait_for_timeout(30)
        wait_until(page, "seq => Number(document.body.dataset.seq) >= seq",
                   live.manager.get(tid).seq)
    assert decisions and checked, f"{label}: nothing checked"
    # What each winner took, each half apart, adds up to the pot paid.
    table = live.manager.get(tid)
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", table.seq)
    row = table.store.load_hand(tid, 1)
    paid = sum(p["amount"] for p in row.result["pots"])
    won = page.evaluate("""() => [...document.querySelectorAll('.won-part')].map(
      w => Number(w.dataset.amount))""")
    assert won and sum(won) == paid, (label, won, row.result)
    shot(page, f"felt-{label}-result")


@pytest.mark.parametrize(("size", "seats"), [("phone", 10), ("desktop", 10)])
def test_labels_pot_and_chips_follow_each_action(pages: Pages, live: ServerThread,
                                                 size: str, seats: int) -> None:
    """Hold'em at 10 seats with the felt's motion on (chips flying, labels fading):
    labels, pot, bet chips, the timer bar and what each winner took.  The same at
    2, 6 and 10 seats, in every shipped game, with reduced motion: the felt's grid
    (tests/web/felt_grid.py; hold'em in test_felt_grid_b_browser.py)."""
    with pages.open(size) as page:
        play_and_check(live, page, seats, f"{size}-{seats}")


# Generated sounds, counted: each oscillator or noise burst the page's sounds hold,
# heard when played (a sound made once in an OfflineAudioContext and played as a
# buffer is heard as the tones it was made of); and the sound nodes the page makes
# on the live context (window.__liveNodes: oscillators, gains, filters).
HEAR = """
// What a played sound's samples are (its first 40 ms): "noise" (zero crossings
// unevenly spaced), else the nearest of the sounds' first tones (Hz): the check's
// 180, the win's 523, the turn's 880, the bet's 2300.
window.__hear = (d, rate) => {
  const m = Math.min(d.length, Math.floor(rate * 0.04)), at = [];
  for (let i = 1; i < m; i++) if ((d[i - 1] < 0) !== (d[i] < 0)) at.push(i);
  if (at.length < 4) return 'silence';
  const gaps = at.slice(1).map((x, k) => x - at[k]);
  const mean = gaps.reduce((a, b) => a + b) / gaps.length;
  const spread = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  if (spread > 0.2 * mean) return 'noise';
  const hz = rate / (2 * mean);
  return [180, 523, 880, 2300].reduce((a, b) => Math.abs(b - hz) < Math.abs(a - hz) ? b : a);
};
"""

FAKE_AUDIO = HEAR + """
window.__sounds = []; window.__liveNodes = 0;
class FakeAudio {
  constructor() { this.currentTime = 0; this.sampleRate = 48000; this.destination = {};
                  this.state = 'running'; this.out = window.__sounds; this.live = true; }
  resume() {}
  made() { if (this.live) window.__liveNodes++; }
  createOscillator() { this.made(); const o = {type: '', frequency: {value: 0}, connect() {},
    stop() {}, start: () => { this.out.push(o.frequency.value); }}; return o; }
  createGain() { this.made(); return {gain: {value: 0, setValueAtTime() {},
    exponentialRampToValueAtTime() {}}, connect() {}}; }
  createBuffer(c, n, rate) { const d = new Float32Array(n);
    return {sampleRate: rate, getChannelData: () => d}; }
  createBufferSource() { const s = {buffer: null, connect() {}, start: () => {
    this.out.push(...(s.buffer && s.buffer.heard ? s.buffer.heard
      : [window.__hear(s.buffer.getChannelData(0), s.buffer.sampleRate)])); }}; return s; }
  createBiquadFilter() { this.made(); return {type: '', frequency: {value: 0}, connect() {}}; }
}
class FakeOffline extends FakeAudio {
  constructor(channels, length, rate) { super(); this.sampleRate = rate; this.out = [];
                                        this.live = false; }
  startRendering() { return Promise.resolve({heard: this.out}); }
}
window.AudioContext = FakeAudio;
window.OfflineAudioContext = FakeOffline;
"""

WATCH_AUDIO = HEAR + """
// Chromium's own WebAudio, watched: the nodes and contexts the page makes, and
// what each buffer it plays sounds like.
window.__made = {offline: 0, oscillator: 0, filter: 0, gain: 0}; window.__heard = [];
const Offline = window.OfflineAudioContext;
window.OfflineAudioContext = function (...a) { window.__made.offline++; return new Offline(...a); };
const proto = BaseAudioContext.prototype;
for (const [k, f] of [['oscillator', 'createOscillator'], ['filter', 'createBiquadFilter'],
                      ['gain', 'createGain']]) {
  const was = proto[f];
  proto[f] = function (...a) { window.__made[k]++; return was.apply(this, a); };
}
const start = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (...a) {
  if (this.buffer) window.__heard.push(window.__hear(this.buffer.getChannelData(0),
                                                     this.buffer.sampleRate));
  return start.apply(this, a);
};
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sounds_are_off_until_switched_on_and_then_play(browser: Any, live: ServerThread,
                                                        size: str) -> None:
    """Off by default on a device; one tap turns them on (kept on the device); then
    the deal, bets and the result make generated sounds."""
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    ctx.add_init_script(FAKE_AUDIO)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2, between_hands=0.3)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "false"
        page.click("#start-btn")
        page.wait_for_selector("#controls [data-action]")
        assert page.evaluate("window.__sounds") == [], "a sound before the switch is on"
        page.click("#alerts-btn")
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#alerts-btn[aria-pressed=true]")   # kept on this device
        end = time.time() + 60
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < end, "the hand did not finish"
            kind = decision_kind(page)
            if kind == "bet":
                c = page.locator("#controls")
                c.locator("[data-action=call], [data-action=check]").first.click()
            page.wait_for_timeout(60)
        # (the win's sound plays with the result's animations, in a frame after the
        # result is drawn: motion.js)
        wait_until(page, "() => window.__sounds.includes(523)")
        heard = page.evaluate("window.__sounds")
        assert "noise" in heard and 523 in heard, heard   # cards, and the win's arpeggio
    finally:
        ctx.close()


def play_the_hand_and_hear(page: Any) -> list[Any]:
    """Play the started hand to its result (checking or calling each bet) and return
    the sounds heard (``window.__heard``): the bets' 2300 Hz tone at least twice,
    the cards' noise and the win's 523 Hz, asserted."""
    end = time.time() + 60
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < end, "the hand did not finish"
        if decision_kind(page) == "bet":
            page.locator("#controls [data-action=call], #controls [data-action=check]"
                         ).first.click()
        page.wait_for_timeout(60)
    # (the win's sound plays with the result's animations, in a frame after the
    # result is drawn: motion.js)
    wait_until(page, "() => window.__heard.includes(523)")
    heard: list[Any] = page.evaluate("window.__heard")
    assert heard.count(2300) >= 2 and "noise" in heard and 523 in heard, heard
    return heard


COUNT_CONTEXTS = """
// The AudioContexts the page makes, and how many before any tap or key.
window.__contexts = 0; window.__beforeKey = 0; window.__keyed = false;
for (const k of ['pointerdown', 'keydown'])
  addEventListener(k, () => { window.__keyed = true; }, true);
const Made = window.AudioContext;
window.AudioContext = function (...a) {
  window.__contexts++; if (!window.__keyed) window.__beforeKey++; return new Made(...a); };
window.AudioContext.prototype = Made.prototype;
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sound_left_on_makes_its_context_before_the_first_tap(
        browser: Any, live: ServerThread, size: str) -> None:
    """Sound left on from before: the page makes its AudioContext at its first idle
    moment, before any tap or key, not in the first tap's listener (the first
    context of a page took 120 to 590 ms of Chromium's main thread at 4x: a long
    frame mid-hand, issue 26; on main none is made before a tap or key).  One
    context in all, and after Ann's key and tap the hand's sounds play."""
    ctx = context(browser, size)
    ctx.add_init_script("localStorage.setItem('rollem_alerts', '1');")
    ctx.add_init_script(WATCH_AUDIO)
    ctx.add_init_script(COUNT_CONTEXTS)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2, between_hands=0.3)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        page.wait_for_selector("#join:not(.hidden)")
        made = 0
        end = time.time() + 10
        while made == 0 and time.time() < end:
            page.wait_for_timeout(100)
            made = page.evaluate("window.__beforeKey")
        assert made == 1 and not page.evaluate("window.__keyed"), made
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        play_the_hand_and_hear(page)
        assert page.evaluate("window.__contexts") == 1
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sounds_are_samples_made_in_the_page_with_no_audio_nodes(
        browser: Any, live: ServerThread, size: str) -> None:
    """Sound on, a hand of three with betting computer players, in Chromium's own
    WebAudio: every sound is a buffer of samples worked out in the page's script
    (sounds.js), so the page makes no OfflineAudioContext, oscillator, filter or
    gain (the first of them cost 100 to 300 ms of a phone's main thread at 4x: a
    long frame of the sound code's own, issue 26; main rendered each sound in an
    OfflineAudioContext); and the buffers played still sound as before: the bets'
    2300 Hz tone, the cards' noise, the win's arpeggio from 523 Hz."""
    ctx = context(browser, size)
    ctx.add_init_script("localStorage.setItem('rollem_alerts', '1');")
    ctx.add_init_script(WATCH_AUDIO)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2, between_hands=0.3)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")   # (a tap: the sound wakes)
        heard = play_the_hand_and_hear(page)
        made = page.evaluate("window.__made")
        assert made == {"offline": 0, "oscillator": 0, "filter": 0, "gain": 0}, (made, heard)
    finally:
        ctx.close()


def test_reduced_motion_moves_nothing(browser: Any, live: ServerThread) -> None:
    """With prefers-reduced-motion the felt draws the same but runs no animation:
    no card dealt in, no chips flying, no label fading."""
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=6, bots=5)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        moved = 0
        end = time.time() + 60
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < end, "the hand did not finish"
            moved += page.evaluate("""() => document.getAnimations().length
                + document.querySelectorAll('.flying-chips').length""")
            kind = decision_kind(page)
            if kind == "bet":
                page.locator("#controls [data-action=call], #controls [data-action=check]"
                             ).first.click()
            page.wait_for_timeout(40)
        assert page.locator(".action-label:not(.none)").count()   # the labels still say it
        assert moved == 0
    finally:
        ctx.close()


def test_the_servers_words_are_shown_when_it_sends_them(pages: Pages, live: ServerThread,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand view's ``hand_name``, ``log`` and ``last_actions`` (the server's
    narration, issue 26) are drawn when present: your hand's name under your cards,
    the log in its words (newest last), each seat's label as it says."""
    import json

    from rollem.server.game_session import GameSession

    plain = GameSession.view_json

    def with_words(self: Any, seat: int | None, names: list[str] | None = None) -> str:
        data = json.loads(plain(self, seat, names))
        data["hand_name"] = "pair of kings" if seat == 0 else None
        data["log"] = [{"seat": None, "text": "Hand starts: Qh on the board"},
                       {"seat": 1, "text": "Bot 1 makes it 9"}]
        data["last_actions"] = {"1": {"kind": "raise", "text": "makes it 9"}}
        # (seat 1 acts in the round shown, so its label is this round's)
        data["events"] = [*data["events"], {"kind": "raise", "seat": 1, "to": 9, "amount": 9,
                                            "all_in": False, "full": True}]
        return json.dumps(data)

    monkeypatch.setattr(GameSession, "view_json", with_words)
    with pages.open("desktop") as page:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        goto_as_host(page, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        page.wait_for_selector("#me .hand-name")
        assert page.inner_text("#me .hand-name") == "pair of kings"
        label = "#seats .seat[data-seat='1'] .action-label"
        page.wait_for_function(f"document.querySelector(\"{label}\")?.textContent === 'makes it 9'",
                               timeout=10_000)
        assert page.inner_text(label) == "makes it 9"
        page.click("#log-box summary")
        page.wait_for_selector("#log li")  # (drawn on the box's toggle event)
        lines = page.locator("#log li").all_inner_texts()
        assert lines == ["Hand starts: Q♥ on the board", "Bot 1 makes it 9"], lines


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_winners_show_the_high_and_the_low_half_apart(pages: Pages, live: ServerThread,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      size: str) -> None:
    """Omaha hi-lo, a seeded deal that splits: the two high winners each show their
    share of the high half, the low winner the low half, tagged apart; together the
    pot.  (Seed 4 splits with these players; a pot nobody qualifies low for is shown
    whole, with no half named.)"""
    seeded_deals(monkeypatch, 4)
    with pages.open(size) as page:
        tid, host_token = new_table(live.url, game="omaha8", seats=3, bots=2)
        only_betting_bots(live, tid)
        goto_as_host(page, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        end = time.time() + 60
        made = 0
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < end, "the hand did not finish"
            if decision_kind(page) == "bet":
                page.locator("#controls [data-action=call], #controls [data-action=check]"
                             ).first.click()
                made += 1
                wait_played(page, live, tid, made, f"decision {made}")
            page.wait_for_timeout(30)
        parts = page.evaluate("""() => [...document.querySelectorAll('.won-part')].map(
          w => [w.dataset.half, w.textContent])""")
        row = live.manager.store.load_hand(tid, 1)
        paid = sum(p["amount"] for p in row.result["pots"])
        want = [["high", "wins 9 (high)"], ["high", "wins 9 (high)"], ["low", "wins 18 (low)"]]
        assert sorted(parts) == want, parts
        assert paid == 36
        shot(page, f"felt-{size}-hi-lo")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_home_game_labels_each_seat_with_its_action(pages: Pages, live: ServerThread,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      size: str) -> None:
    """Roll Your Own, three-handed: at each of Ann's decisions (discard, turn up,
    bet) every seat's label is its latest action this round, of the right kind, in
    the server's words ("puts 3 in the pool", "chose a card", "turns up 9h" drawn
    as "turns up 9♥", "draws from the pool", "checks"); never an earlier action's.
    (Seed 3: Ann acts after a check.)"""
    seeded_deals(monkeypatch, 3)
    with pages.open(size) as page:
        tid, host_token = new_table(live.url, game="rollyourown", seats=3, bots=2)
        only_checking_bots(live, tid)
        goto_as_host(page, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        kinds: set[str] = set()
        shown = False

        def at_turn(kind: str, n: int) -> None:
            nonlocal shown
            kinds.update(home_game_labels(page, live, tid, f"{size} decision {n} ({kind})"))
            if kind == "bet" and "expose" in kinds and not shown:
                shown = True   # the cards turned up, drawn in the labels
                shot(page, f"felt-{size}-rollyourown")

        play_to_the_result(page, live, tid, at_turn)
        assert {"discard", "expose", "draw", "check"} <= kinds, kinds

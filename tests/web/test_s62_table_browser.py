"""s62-table's table leftovers in Debian's Chromium through Playwright, on a phone
(390x844) and a desktop (1440x900).

- Sound left on from before, held by the browser until the first tap or key (its
  AudioContext starts suspended): the sound button says "▶ sound", its title that a
  tap anywhere starts it, the phone's head still on one line (main:
  "sound on", while nothing played until a tap that nothing asked for); a tap
  anywhere starts it silently and the button says "sound on"; a tap on the button
  itself starts it too (main: that tap turned the sound off) and its check sound
  says so.

- No Sit out for a player with no chips to play: all-in while the hand is run
  out, or busted after it (Rebuy and Leave instead).
- The lobby's form takes a copy of a shipped game file with the shipped rules as
  the shipped game, as ``rollem check-game`` does.

Screenshots: test-artifacts/web/s62t-*.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import context, new_table, open_as_host, shot, sit, wait_until
from web_harness import ServerThread, join

from rollem.server.app import seat_cookie

pytestmark = pytest.mark.browser

HELD_AUDIO = r"""
localStorage.setItem('rollem_alerts', '1');   // (sound left on from before)
// An AudioContext as a browser makes one before the page's first gesture:
// suspended until resume() (which the page may only ask in a tap or key); each
// sound started is counted.
window.__started = 0; window.__resumed = 0;
class Held extends EventTarget {
  constructor() { super(); this.currentTime = 0; this.sampleRate = 48000;
                  this.destination = {}; this.state = 'suspended'; }
  resume() { window.__resumed++; return Promise.resolve().then(() => {
    this.state = 'running'; this.dispatchEvent(new Event('statechange')); }); }
  createBuffer(c, n, rate) { const d = new Float32Array(n);
    return {sampleRate: rate, length: n, getChannelData: () => d}; }
  createBufferSource() { return {buffer: null, connect() {}, start() { window.__started++; }}; }
}
window.AudioContext = Held;
"""

TOPS = """() => ['alerts-btn', 'conn', 'motion-btn', 'felt'].map(
    (id) => Math.round(document.getElementById(id).getBoundingClientRect().top))"""
BUTTON = "() => document.getElementById('alerts-btn').textContent"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sound_held_by_the_browser_says_tap_and_a_tap_starts_it_silently(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx = context(browser, size)
    ctx.add_init_script(HELD_AUDIO)
    try:
        tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2)
        page = open_as_host(ctx, live.url, tid, host_token)
        page.wait_for_selector("#join:not(.hidden)")
        # (main: "sound on" while the browser held every sound)
        wait_until(page, f"() => ({BUTTON})() === '▶ sound'")
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "true"
        assert "a tap anywhere starts them" in (page.get_attribute("#alerts-btn", "title") or "")
        # the head on one line, the phone's too: nothing moves down as the sound starts
        waiting = page.evaluate(TOPS)
        assert waiting[0] == waiting[2], waiting   # (the buttons on one line)
        shot(page, f"s62t-sound-waits-{size}")
        page.click("#join-name")   # a tap anywhere: the sound starts, and says nothing
        wait_until(page, f"() => ({BUTTON})() === 'sound on'")
        assert page.evaluate(TOPS) == waiting   # ("tap for sound" wrapped the phone's head)
        page.wait_for_timeout(200)
        assert page.evaluate("window.__started") == 0   # no surprise sound
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "true"
        # Again, tapping the button itself: it starts the sound, which stays on
        # (main: that tap turned it off), and the check sound says so.
        page.reload()
        page.wait_for_selector("#join:not(.hidden)")
        wait_until(page, f"() => ({BUTTON})() === '▶ sound'")
        page.click("#alerts-btn")
        wait_until(page, f"() => ({BUTTON})() === 'sound on'")
        wait_until(page, "() => window.__started >= 1")
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "true"
        assert page.evaluate("localStorage.getItem('rollem_alerts')") == "1"
        shot(page, f"s62t-sound-on-{size}")
        # and a tap on "sound on" turns it off, as before
        page.click("#alerts-btn")
        wait_until(page, f"() => ({BUTTON})() === 'sound off'")
        # From the keyboard: Tab past the button wakes nothing audible; Enter on it
        # starts the sound, which stays on.
        page.evaluate("localStorage.setItem('rollem_alerts', '1')")
        page.reload()
        page.wait_for_selector("#join:not(.hidden)")
        wait_until(page, f"() => ({BUTTON})() === '▶ sound'")
        page.focus("#alerts-btn")
        page.keyboard.press("Enter")
        wait_until(page, f"() => ({BUTTON})() === 'sound on'")
        wait_until(page, "() => window.__started >= 1")
        assert page.get_attribute("#alerts-btn", "aria-pressed") == "true"
    finally:
        ctx.close()


SHIPPED = Path(__file__).resolve().parents[2] / "src" / "rollem" / "games" / "files"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_form_takes_a_copy_of_a_shipped_game_file_as_the_shipped_game(
        browser: Any, live: ServerThread, tmp_path: Path, size: str) -> None:
    """A copy of holdem.toml with a comment of the host's: ``rollem check-game`` says
    it plays as the shipped game, and the form now makes the table of it, Texas
    Hold'em, with no file of the host's (main: "Your own game file: id 'holdem' is a
    shipped game's id ...").  A copy whose rules differ is refused in the command's
    words (one function: rollem.games.shipped_id_refusal)."""
    text = (SHIPPED / "holdem.toml").read_text(encoding="utf-8")
    copy = tmp_path / "holdem.toml"
    copy.write_text("# my copy, to learn from\n" + text, encoding="utf-8")
    renamed = tmp_path / "jos.toml"
    renamed.write_text(text.replace('name = "Texas Hold\'em"', 'name = "Hold\'em at Jo\'s"'),
                       encoding="utf-8")
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.select_option("select[name=game]", "own-file")
        page.set_input_files("input[name=game_file]", str(renamed))
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('Your own game file:')")
        assert page.text_content("#create-error") == (
            "Your own game file: id 'holdem' is the shipped holdem's, and this file's name "
            "differs from it; give your game an id of its own (or choose the shipped game, "
            "Texas Hold'em, in the game list)")
        page.set_input_files("input[name=game_file]", str(copy))
        page.click("#create-btn")
        page.wait_for_url("**/t/**")
        page.wait_for_selector("#join:not(.hidden)")
        tid = page.url.rsplit("/", 1)[1].split("?")[0]
        table = live.manager.get(tid)
        assert table is not None
        assert (table.config.game, table.config.game_file) == ("holdem", "")
        assert "Texas Hold'em" in page.inner_text("header")
        shot(page, f"s62t-shipped-copy-{size}")
    finally:
        ctx.close()


def _shove_and_call(pages: list[Any]) -> None:
    """Whoever acts first moves all-in, the other calls (heads-up no-limit)."""
    end = time.monotonic() + 30
    shoved = None
    while shoved is None:
        assert time.monotonic() < end, "no raise was offered"
        for p in pages:
            if p.locator("#controls [data-action=raise]").count():
                p.locator(".quick-size[data-size=allin]").click()
                p.locator("#controls [data-action=raise]").click()
                shoved = p
                break
        pages[0].wait_for_timeout(50)
    caller = next(p for p in pages if p is not shoved)
    caller.locator("#controls [data-action=call]").click(timeout=20_000)


def test_no_sit_out_with_no_chips_to_play(browser: Any, live: ServerThread) -> None:
    """Ann and Bob all-in heads-up: while the hand is run out neither dock offers Sit
    out (s61_runout's test: the run-out round by round); with the result the one who
    lost everything is offered Rebuy and Leave, not Sit out beside "stack 0" (main:
    all three; they are not dealt in anyway), the winner Sit out as before.  Both
    sizes from the same hands: Ann and Bob play on phone pages, a desktop page of
    each (the same player) is checked the same way (s62-suite2: the hands played a
    size before)."""
    tid, host = new_table(live.url, game="holdem", structure="no-limit", seats=3, bots=0,
                          stack=200, between_hands=600)
    contexts = [context(browser, size) for size in ("phone", "phone", "desktop", "desktop")]
    try:
        ann = open_as_host(contexts[0], live.url, tid, host)
        sit(ann, "Ann")
        _, token = join(live.url, tid, "Bob")
        contexts[1].add_cookies([{"name": seat_cookie(tid), "value": token, "url": live.url}])
        bob = contexts[1].new_page()
        bob.goto(f"{live.url}/t/{tid}")
        bob.wait_for_selector(".me .name:has-text('Bob')")
        desks = {}
        for name, phone, desk in (("Ann", contexts[0], contexts[2]),
                                  ("Bob", contexts[1], contexts[3])):
            desk.add_cookies(phone.cookies())   # (the same player)
            desks[name] = desk.new_page()
            desks[name].goto(f"{live.url}/t/{tid}")
            desks[name].wait_for_selector(f".me .name:has-text('{name}')")
        table = live.manager.get(tid)
        for hand_no in range(1, 6):   # (a chopped pot busts no one: another hand)
            if hand_no == 1:
                ann.click("#start-btn")
            else:
                live.call(lambda: table.dealer.schedule_next_hand(0))
            _shove_and_call([ann, bob])
            for p in (ann, bob):
                wait_until(p, "() => !!document.querySelector('#result:not(.hidden)') && "
                           "document.querySelector('#result').innerText"
                           f".includes('Hand {hand_no}')")
            stacks = {s.row.name: s.row.stack for s in table.seats.values()}
            if 0 in stacks.values():
                break
        else:
            pytest.fail(f"five chopped pots in a row: {stacks}")
        lost = "Ann" if stacks["Ann"] == 0 else "Bob"
        for size, pages in (("phone", {"Ann": ann, "Bob": bob}), ("desktop", desks)):
            loser, winner = pages[lost], pages["Bob" if lost == "Ann" else "Ann"]
            wait_until(loser, "() => !!document.querySelector('button.rebuy')")
            assert loser.inner_text(".me .chips").strip() == "stack 0", size
            assert loser.locator("button.leave").is_visible(), size
            assert not loser.locator("button.sit").is_visible(), size   # (main: Sit out)
            wait_until(winner, "() => !!document.querySelector('#result:not(.hidden)')")
            assert winner.locator("button.sit").is_visible(), size
            shot(loser, f"s62t-busted-{size}")
    finally:
        for c in contexts:
            c.close()

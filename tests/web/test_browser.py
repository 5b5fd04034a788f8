"""End to end in a real browser (Chromium from Debian, driven by Playwright):
two friends in two browser contexts plus a computer opponent play a complete
hand of each game through the UI; screenshots go to test-artifacts/web/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from table_ui import create_via_form, record_toasts, sit, wait_until
from web_harness import ARTIFACTS, ServerThread

from rollem.server.config import BOT_LEVEL_HINTS

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web"
SHOWN: set[int] = set()
"""The page widths that saw key 1's word on the card already up (Roll Your Own)."""


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def take_turn(page: Any, game_choice: str | None) -> str | None:
    """Make this page's decision if it has one; return what it did (None: nothing,
    or the page changed under the click, e.g. the state moved on)."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        return _take_turn(page, game_choice)
    except PlaywrightError:
        return None


def _pick_keys_named_right(page: Any) -> None:
    """The card choice's prompt names the digit keys that pick a card: the pickable
    cards' own keys (their positions in the hand), not 1 to the number of them: with
    a card already face up in Roll Your Own the pickable ones are 2-5. The keys'
    words are read only where there are keys: the phone (a touch screen) shows the
    prompt without them, as its buttons without their key marks (stop 55)."""
    said = page.locator("#controls .pick .prompt").inner_text()
    phone = (page.viewport_size or {}).get("width", 1000) < 500
    assert ("Enter confirms, Esc clears" in said) is not phone, said
    named, keys = page.evaluate("""() => {
      const p = document.querySelector('#controls .pick .prompt');
      const m = p && p.textContent.match(/keys: ([0-9, –]+) pick/);
      const keys = [...document.querySelectorAll('.me .card.pickable')].map(e => e.dataset.key);
      return [m ? m[1] : null, keys];
    }""")
    if named is None or not keys:
        return
    parts = named.split("–")
    shown = ([str(k) for k in range(int(parts[0]), int(parts[1]) + 1)] if len(parts) == 2
             else [k.strip() for k in named.split(",")])
    assert shown == keys, f"the prompt says keys {named} but the cards' keys are {keys}"
    if keys[0] != "1" and page.locator("#confirm[data-action=expose]").count():
        # key 1, the card already up: said so, as the terminal says it (stop 54: the
        # key did nothing, with no word)
        up = page.locator(".me .cards.mine .card").first.get_attribute("data-card") or ""
        card = ("10" if up[0] == "T" else up[0]) + {"c": "♣", "d": "♦", "h": "♥",
                                                    "s": "♠"}[up[1]]
        # (every text the toast shows, kept: on a loaded machine it can be gone after
        # its 4 s before a look at it)
        record_toasts(page)
        page.keyboard.press("1")
        want = f"Your card 1 ({card}) is already face up: keys {named} pick."  # ("2–4")
        wait_until(page, "t => window.__toasts.includes(t)", want)
        assert page.locator(".me .card.selected").count() == 0
        if not SHOWN:
            page.screenshot(path=str(SHOTS / "rollyourown-key-1-up-card.png"))
        SHOWN.add(page.viewport_size["width"] if page.viewport_size else 0)


def _take_turn(page: Any, game_choice: str | None) -> str | None:
    controls = page.locator("#controls")
    if game_choice and controls.locator(f"[data-game={game_choice}]").count():
        controls.locator(f"[data-game={game_choice}]").click(timeout=1500)
        return "choose"
    keep = controls.locator("[data-action=stack-keep]")
    if keep.count() and (page.viewport_size or {}).get("width", 1000) < 500:
        keep.click(timeout=1500)  # the phone keeps its cards in the order dealt
        return "stack-keep"
    confirm = controls.locator("#confirm")
    if confirm.count():
        _pick_keys_named_right(page)
        action = confirm.get_attribute("data-action")
        lo = int(confirm.get_attribute("data-min") or 0)
        hi = int(confirm.get_attribute("data-max") or 0)
        want = hi if action == "stack" else (lo if action != "draw" else min(1, hi))
        while page.locator(".me .card.selected").count() < want:
            page.locator(".me .card.pickable:not(.selected)").first.click(timeout=1500)
        page.locator("#confirm:not([disabled])").click(timeout=1500)
        # the decision made: drawn gone before this page's next turn (on a loaded
        # machine the next look found it still drawn, its card still picked, and
        # made it again: key 1 pressed again, after the state had moved on)
        wait_until(page, "a => !document.querySelector(`#confirm[data-action=${a}]`)", action)
        return str(action)
    for action in ("check", "call", "declare-high", "declare-low"):
        button = controls.locator(f"[data-action={action}]")
        if button.count():
            button.first.click(timeout=1500)
            return action
    wild = controls.locator("[data-position='0']")
    if wild.count():
        wild.click(timeout=1500)
        return "wild"
    return None


@pytest.mark.parametrize("game", ["sdr", "rollyourown", "rollem521"])
def test_two_friends_and_a_computer_play_a_hand(browser: Any, live: ServerThread,
                                                game: str) -> None:
    # SDR is played as a dealer's-choice table: the host, on the button, names it.
    table_game = "dealers-choice" if game == "sdr" else game
    host_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    friend_ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                     is_mobile=True, has_touch=True)
    try:
        host = host_ctx.new_page()
        friend = friend_ctx.new_page()
        # The page runs under the server's Content-Security-Policy: nothing it
        # needs may be refused (Chromium logs each refusal on the console).
        refused: list[str] = []
        for page in (host, friend):
            page.on("console", lambda m: refused.append(m.text)
                    if "Content Security Policy" in m.text else None)
        url = create_via_form(host, live.url, table_game)
        sit(host, "Ann")
        invite = host.input_value("#invite-link")
        assert invite.endswith(url.split("/t/")[1])
        friend.goto(invite)
        sit(friend, "Bob")
        host.wait_for_selector("#start-btn")
        shot(host, f"{game}-0-seated")
        host.click("#start-btn")
        chosen = game if table_game == "dealers-choice" else None
        did: list[str] = []
        deadline = time.time() + 90
        shots_taken = set()
        while time.time() < deadline:
            if host.locator("#result:not(.hidden)").count():
                break
            progressed = False
            for who, page in (("host", host), ("friend", friend)):
                what = take_turn(page, chosen)
                if what:
                    did.append(what)
                    progressed = True
                    if what not in shots_taken:
                        shots_taken.add(what)
                        shot(page, f"{game}-1-{who}-{what}")
                    page.wait_for_timeout(60)
            if not progressed:
                host.wait_for_timeout(80)
        else:
            shot(host, f"{game}-stuck")
            raise AssertionError(f"the hand did not finish; actions so far: {did}")
        friend.wait_for_selector("#result:not(.hidden)")
        # The result names the winner; the hand is in each player's history.
        result = host.inner_text("#result")
        # (the deal is shuffled securely: one winner, a split or a 5-2-1 scoop)
        assert "Hand 1" in result and any(word in result for word in (
            " wins ", "You win ", " split the pot", " scoops the pot", "You scoop the pot"))
        assert friend.locator(".seat.winner, .me.winner").count() >= 1
        shot(host, f"{game}-2-result-host")
        shot(friend, f"{game}-2-result-phone")
        # Cards are drawn with suit symbols and colours.
        mine = friend.locator(".me .card").first
        assert mine.locator(".suit").inner_text() in "♣♦♥♠"
        # The ledger balances.
        ledger = host.inner_text("#ledger")
        assert "Ann" in ledger and "Bob" in ledger
        # Step-by-step replay of the hand from the history list.
        host.click("#history-box summary")
        host.click("#history [data-hand='1']")
        host.wait_for_selector("#replay:not(.hidden)")
        for _ in range(3):
            host.click("#replay-next")
        assert "step 3" in host.inner_text("#replay-pos")
        shot(host, f"{game}-3-replay")
        host.click("#replay-close")
        assert refused == []
        if game == "sdr":
            assert "choose" in did
        if game == "rollyourown":
            assert "discard" in did and "expose" in did
            assert {1100, 390} == SHOWN, SHOWN  # (both pages turned a second card up)
        if game == "rollem521":
            assert "stack" in did and any(d.startswith("declare") for d in did)
            assert "stack-keep" in did
    finally:
        host_ctx.close()
        friend_ctx.close()


def _no_horizontal_overflow(page: Any, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide on a {width} px screen"


def test_phone_layout_rules_panel_and_result_felt(browser: Any, live: ServerThread) -> None:
    """Issues: the create form and table fit a 390 px phone; an empty number field is
    refused in the form; "How to play" shows the game's rules, this table's options
    and help on the decision at hand; after the hand the felt shows the pot paid."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    watcher_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.goto(live.url + "/")
        _no_horizontal_overflow(page, 390)
        ante = page.locator("input[name=ante]").bounding_box()
        small = page.locator("input[name=small_bet]").bounding_box()
        assert ante and small
        if abs(ante["y"] - small["y"]) < 5:  # side by side: they must not overlap
            assert ante["x"] + ante["width"] <= small["x"]
        shot(page, "phone-create")
        # An empty "Computer players" field is refused, not read as 0.
        page.fill("input[name=bots]", "")
        page.click("#create-btn")
        assert "Computer players" in page.inner_text("#create-error")
        assert "/t/" not in page.url
        page.select_option("select[name=game]", "sdr")
        for name, value in (("ante", "3"), ("small_bet", "5"), ("big_bet", "10"),
                            ("seats", "3"), ("bots", "1"), ("decision_seconds", "300")):
            page.fill(f"input[name={name}]", value)
        page.check("input[name='house.burn_before_roll']")
        page.check("input[name=practice_odds]")
        # The levels' hint line is the server's (one source for the form and the table).
        assert page.inner_text("#bot-levels") == " · ".join(
            f"{level}: {hint}" for level, hint in BOT_LEVEL_HINTS.items())
        page.select_option("select[name=bot_level]", "strong")
        # The decision clock's minimum is the server's (a test server allows 0.05 s).
        assert page.get_attribute("input[name=decision_seconds]", "min") == "0.05"
        page.click("details summary")
        page.fill("input[name=bot_delay]", "0.05")
        page.fill("input[name=between_hands]", "60")
        _no_horizontal_overflow(page, 390)
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        url = str(page.url)
        # The invite link is there from the create response, before the websocket.
        assert page.input_value("#invite-link") == url
        sit(page, "Ann")
        _no_horizontal_overflow(page, 390)
        # A watcher (no seat) is told so and offered the free seat.
        watcher = watcher_ctx.new_page()
        watcher.goto(url)
        watcher.wait_for_selector("#watching:not(.hidden)")
        assert "tap a free seat" in watcher.inner_text("#watching")
        # How to play: the game's key fact and this table's options.
        page.click("#rules-btn")
        page.wait_for_selector("#rules-text h2")
        text = page.inner_text("#rules")
        assert "Stop and the Drop are dead" in " ".join(text.split())
        options = page.inner_text("#rules-options")
        assert "Ante\t3" in options and "Small bet\t5" in options and "Big bet\t10" in options
        assert "burn_before_roll)\tyes" in options and "fixed-limit" in options
        assert "practice_odds)\tyes" in options
        assert f"Computer players' level\tstrong: {BOT_LEVEL_HINTS['strong']}" in options
        _no_horizontal_overflow(page, 390)
        shot(page, "phone-how-to-play")
        page.click("#rules-close")
        page.click("#start-btn")
        page.wait_for_selector("#controls [data-action]", timeout=30_000)
        page.click("#rules-btn")
        page.wait_for_selector("#rules-decision:not(.hidden)")
        assert "Your decision now" in page.inner_text("#rules-decision")
        shot(page, "phone-how-to-play-decision")
        page.click("#rules-close")
        # Practice odds (issue 8): the toggle shows this player's own odds.
        page.check("#odds-toggle")
        page.wait_for_selector("#odds-line:has-text('Your odds: equity')", timeout=15_000)
        assert "equity" in page.inner_text("#odds-line")
        assert watcher.locator("#odds-box.hidden").count() == 1  # no seat, no odds
        shot(page, "phone-practice-odds")
        _no_horizontal_overflow(page, 390)
        deadline = time.time() + 60
        while not page.locator("#result:not(.hidden)").count():
            assert time.time() < deadline, "the hand did not finish"
            if not take_turn(page, None):
                page.wait_for_timeout(80)
        # The felt shows the result: no bets left in front of seats, the pot paid.
        page.wait_for_selector(".pots:has-text('awarded')")
        assert page.locator("#felt .bet").count() == 0
        assert "bet to call" not in page.inner_text("#felt")
        ledger = page.inner_text("#ledger")
        assert "after hand 1" in ledger
        shot(page, "phone-result")
    finally:
        ctx.close()
        watcher_ctx.close()


def test_the_lobby_offers_every_game_the_dealers_choice_and_a_game_file(
        browser: Any, live: ServerThread, tmp_path: Path) -> None:
    """Issue 18: the form lists the shipped games from /api/info, the host ticks the
    dealer's choice games and adds a game file; a bad file is refused in one line."""
    import re

    page = browser.new_page()
    try:
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        games = page.eval_on_selector_all("select[name=game] option", "os => os.map(o => o.value)")
        assert games == ["dealers-choice", "sdr", "rollyourown", "rollem521", "holdem", "omaha",
                         "omaha8", "stud", "stud8", "razz", "draw5", "deuces-wild", "own-file"]
        for g in ("sdr", "rollyourown", "rollem521"):
            page.uncheck(f"input[name='choice.{g}']")
        for g in ("holdem", "razz"):
            page.check(f"input[name='choice.{g}']")
        page.fill("input[name=seats]", "3")
        example = re.findall(r"```toml\n(.*?)```", (Path(__file__).parents[2] / "docs" /
                             "write-your-own-game.md").read_text(), flags=re.S)[0]
        bad = tmp_path / "bad.toml"
        bad.write_text(example.replace('size = "small"', 'size = "medium"', 1))
        page.set_input_files("input[name=game_file]", str(bad))
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('Your own game file:')")
        assert page.text_content("#create-error") == (  # (the refusal in the form's words)
            "Your own game file: steps[2].size: must be one of small, big, got 'medium'")
        good = tmp_path / "crazy-pineapple.toml"
        good.write_text(example)
        page.set_input_files("input[name=game_file]", str(good))
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        table = live.manager.get(page.url.rsplit("/t/", 1)[1])
        assert table.config.game == "dealers-choice"
        assert table.config.choices == ["holdem", "razz", "crazy-pineapple"]
        assert table.config.game_file == example
        # The uploaded game alone, with one of its own house options switched off.
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.select_option("select[name=game]", "own-file")
        page.click("#create-btn")
        page.wait_for_selector("#create-error:has-text('choose your game file')")
        page.set_input_files("input[name=game_file]", str(good))
        page.wait_for_selector("#own-house:not(.hidden) input[name='house.burn_cards']")
        assert page.is_checked("input[name='house.burn_cards']")  # the file's default
        page.uncheck("input[name='house.burn_cards']")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        alone = live.manager.get(page.url.rsplit("/t/", 1)[1])
        assert alone.config.game == "crazy-pineapple"
        assert alone.config.house["burn_cards"] is False
        # A file option named like one of the table's own (burn_before_roll): one box,
        # the table's, set to the file's default (two boxes of one name: the later won).
        clash = tmp_path / "clash.toml"
        clash.write_text(example.replace("burn_cards", "burn_before_roll"))
        assert "burn_before_roll = true" in clash.read_text()
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.select_option("select[name=game]", "own-file")
        page.set_input_files("input[name=game_file]", str(clash))
        page.wait_for_selector(".also-own")
        assert page.locator("input[name='house.burn_before_roll']").count() == 1
        assert page.is_checked("input[name='house.burn_before_roll']")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        own = live.manager.get(page.url.rsplit("/t/", 1)[1])
        assert own.config.house["burn_before_roll"] is True
        # A whole-number option too (a blind's amount): a number box.
        more = tmp_path / "more.toml"
        more.write_text(re.sub(r"^(burn_cards = true.*)$", "\\1\nstraddle = 0", example,
                               count=1, flags=re.M))
        page.goto(live.url + "/")
        page.wait_for_selector("input[name='choice.deuces-wild']")
        page.select_option("select[name=game]", "own-file")
        page.set_input_files("input[name=game_file]", str(more))
        page.wait_for_selector("#own-house input[name='house.straddle'][type=number]")
        assert page.input_value("input[name='house.straddle']") == "0"
        page.fill("input[name='house.straddle']", "4")
        page.click("#create-btn")
        page.wait_for_url("**/t/*")
        own = live.manager.get(page.url.rsplit("/t/", 1)[1])
        assert own.config.house["straddle"] == 4
    finally:
        page.close()

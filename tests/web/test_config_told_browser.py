"""A friend's page during the host's change of the settings, and the hand history
list, in Chromium through Playwright at 390x844 and 1440x900 (try-out of stop 55).

- The host changes the game and the bets during a hand: Bob's page shows the
  table's line as a toast and in the chat, naming each change and what it was
  (before, only the host's own form said "Changes apply at the next deal").
- A hand history entry that wraps ("Hand 2 · Seven-Card Stud Hi-Lo Eight or
  Better · -6") starts each of its lines where the others start: it was centred
  as a button's label, so its lines looked indented among the list's.
- The host adds Texas Hold'em to the dealer's choice and drops 5-2-1 from the
  Host controls' Change, and sets a chip's worth in money for the settle-up: the
  form had no such fields (only the API's ``choices`` and ``chip_value``), so a
  night's host had to make a new table to add a game, and could not settle in money."""

from __future__ import annotations

import json
from typing import Any

import pytest
from table_ui import Pages, context, goto_as_host, record_toasts, shot, wait_toast_shown
from web_harness import ServerThread, create_table, join, seat_cookie

from rollem.server.live_table import Client
from rollem.server.protocol import ClientMessage

pytestmark = pytest.mark.browser

HANDS = {"hands": [{"hand": 1, "game": "holdem", "net": 3},
                   {"hand": 2, "game": "stud8", "net": -6}]}

LINE_STARTS = """() => [...document.querySelectorAll('#history button.link')].map((b) => {
  const range = document.createRange();
  range.selectNodeContents(b);
  return [...range.getClientRects()].map((r) => Math.round(r.left));
})"""


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_a_friend_is_told_the_hosts_change_and_the_history_reads_as_a_list(
        browser: Any, live: ServerThread, name: str) -> None:
    tid, _host = create_table(live.url, game="holdem", seats=3, bots=1, between_hands=600,
                              decision_seconds=300)
    _seat, token = join(live.url, tid, "Bob")
    table = live.manager.get(tid)
    host = Client(None, True)

    def send(kind: str, **body: Any) -> None:
        table.handle(host, ClientMessage(kind, None, table.seq, body))

    ctx = context(browser, name)
    try:
        ctx.add_cookies([{"name": seat_cookie(tid), "value": token, "url": live.url}])
        page = ctx.new_page()
        # (the hand list as the server gives it: two hands, one with a long name)
        page.route(f"**/api/tables/{tid}/hands", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(HANDS)))
        page.goto(f"{live.url}/t/{tid}")
        page.wait_for_selector(".me .name:has-text('Bob')")
        live.call(table.connect, host)
        live.call(send, "start")
        page.wait_for_selector("#status:has-text('hand 1')")
        record_toasts(page)
        live.call(lambda: send("host", op="config", config={
            "game": "stud8", "small_bet": 5, "big_bet": 10}))
        told = ("The host changed, from the next hand, the game from Texas Hold'em to "
                "Seven-Card Stud Hi-Lo Eight or Better; the bets from 2/4 to 5/10.")
        wait_toast_shown(page, told)
        notice = page.locator("#chat-lines .chat-line.notice")
        notice.first.wait_for()
        assert notice.all_text_contents() == [told]
        assert live.call(lambda: table.config.game) == "holdem"  # (the hand in play's)
        shot(page, f"config-told-{name}")

        if not page.locator("#history-box").evaluate("d => d.open"):
            page.click("#history-box summary")
        page.wait_for_selector("#history button[data-hand='2']")
        page.locator("#history button[data-hand='2']").scroll_into_view_if_needed()
        long, short = page.evaluate(LINE_STARTS)  # (the newest hand first)
        assert len(short) == 1 and len(long) >= 2, (short, long)  # (the long one wraps)
        assert set(long) == set(short), (short, long)  # every line starts where they do
        shot(page, f"history-list-{name}")
    finally:
        ctx.close()


@pytest.mark.parametrize("name", ["phone", "desktop"])
def test_the_host_changes_the_dealers_choice_games_from_the_page(
        pages: Pages, live: ServerThread, name: str) -> None:
    tid, host_token = create_table(live.url, seats=4, bots=0)
    table = live.manager.get(tid)
    assert table.config.choices == ["sdr", "rollyourown", "rollem521"]
    with pages.open(name) as page:
        goto_as_host(page, live.url, tid, host_token)
        page.wait_for_selector("#host-panel:not(.hidden)")
        if not page.is_visible("#host-controls"):
            page.click("#host-box summary")
        offers = page.locator("#host-controls .host-choices")
        assert offers.locator("legend").text_content() == "Dealer's choice offers"
        assert offers.locator("input:checked").evaluate_all("bs => bs.map(b => b.name)") == [
            "choice.sdr", "choice.rollyourown", "choice.rollem521"]
        page.select_option("#host-controls select[name=game]", "razz")
        assert offers.is_hidden()  # (one game: nothing to choose from)
        page.select_option("#host-controls select[name=game]", "dealers-choice")
        offers.locator("label:has-text(\"Texas Hold'em\") input").check()
        offers.locator("label:has-text(\"5-2-1 Roll 'Em\") input").uncheck()
        page.fill("#host-controls input[name=chip_value]", "0.05")  # (money, for settling)
        offers.scroll_into_view_if_needed()
        shot(page, f"host-choices-{name}")
        page.click("#host-controls [data-host=config]")
        page.wait_for_selector("#chat-lines .chat-line.notice")
        assert live.call(lambda: table.config.choices) == ["sdr", "rollyourown", "holdem"]
        assert live.call(lambda: table.config.chip_value) == "0.05"
        assert page.locator("#chat-lines .chat-line.notice").all_text_contents() == [
            "The host changed the dealer's choice games from Stop, Drop and Roll, Five Card "
            "Roll Your Own, 5-2-1 Roll 'Em to Stop, Drop and Roll, Five Card Roll Your Own, "
            "Texas Hold'em; a chip's worth from nothing (chips only) to 0.05."]
        # the form drawn again from the new settings keeps them
        assert offers.locator("input:checked").evaluate_all("bs => bs.map(b => b.name)") == [
            "choice.sdr", "choice.rollyourown", "choice.holdem"]

"""The table page as a weekly group plays it (issue 15), in Debian's Chromium through
Playwright: every decision fits a phone and a desktop screen with 2 to 10 seats,
the result panel says what the stored history says, the replayer shows only what
its viewer may see, host controls, sitting out, chat and the clock notice.

One server and one browser for the module; each hand is one person against
computer players that act at once.  Screenshots: test-artifacts/web/ui-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from table_ui import (
    DESKTOP,
    PHONE,
    Pages,
    assert_decision_fits,
    decision_kind,
    goto_as_host,
    new_table,
    only_checking_bots,
    open_as_host,
    shot,
    sit,
    sit_with_enter,
    take_decision,
    wait_played,
    wait_until,
)
from web_harness import ServerThread, decision_clock_on, join, only_betting_bots

from rollem.narration import hand_words

pytestmark = pytest.mark.browser

SUIT = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
RESULT_KINDS = {"pot", "win", "split", "half", "scoop", "failed_both", "carry", "lose", "net"}


def _cards_as_drawn(text: str) -> str:
    """Narration text as the page draws it: ``Qh`` -> ``Q♥``, ``Tc`` -> ``10♣``."""
    return re.sub(r"\b([2-9TJQKA])([cdhs])\b",
                  lambda m: ("10" if m.group(1) == "T" else m.group(1)) + SUIT[m.group(2)], text)


def _stored_story(live: ServerThread, tid: str, hand_no: int, seat: int) -> Any:
    """The narration of the seat's own copy of the stored hand history."""
    from rollem.narration import narrate_history
    from rollem.server.game_session import GameSession

    table = live.manager.get(tid)
    row = table.store.load_hand(tid, hand_no)
    session = GameSession.restore(hand_no, row.setup, table.store.load_actions(tid, hand_no))
    return narrate_history(session.history_text(seat, table.names())), session


def _check_owed(page: Any, where: str) -> None:
    """"to call N" is what the Call button pays, and absent when nothing is owed."""
    prompt = page.inner_text("#controls .prompt-line")
    call = page.locator("#controls [data-action=call]")
    if call.count():
        owed = re.search(r"\d+", call.inner_text()).group()  # ("Call 18, all-in": s61-night)
        assert f"to call {owed}" in prompt, f"{where}: {prompt!r} vs {call.inner_text()!r}"
    else:
        assert "to call" not in prompt, f"{where}: nothing is owed but {prompt!r}"


def play_hand(live: ServerThread, page: Any, game: str, seats: int, label: str,
              checking: bool = False, also: tuple[Any, str] | None = None,
              **config: Any) -> tuple[Any, str, list[str]]:
    """One person and ``seats - 1`` computer players play one hand, its table loaded
    in ``page``; the person's decisions are checked for fit and owed amount.
    ``checking``: the computer players never bet, so the person meets a free check.
    ``also``: (a page of another size, its label): the same person's page there,
    opened once they sit, checked the same way at each decision once it shows it
    (the hand played in ``page``).  Returns (page, table id, kinds)."""
    tid, host_token = new_table(live.url, game=game, seats=seats, bots=seats - 1, **config)
    if checking:
        only_checking_bots(live, tid)
    goto_as_host(page, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    if also is not None:
        also[0].context.add_cookies(page.context.cookies())  # (the same person)
        also[0].goto(f"{live.url}/t/{tid}")
        also[0].wait_for_selector(".me .name:has-text('Ann')")
    page.click("#start-btn")
    kinds: list[str] = []
    fold_checked = False
    deadline = time.time() + 60
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < deadline, f"{label}: the hand did not finish; did {kinds}"
        kind = decision_kind(page)
        if kind is None:
            page.wait_for_timeout(30)
            continue
        where = f"{label} decision {len(kinds) + 1} ({kind})"
        assert_decision_fits(page, where)
        if kind == "bet":
            _check_owed(page, where)
        if kind not in kinds:
            shot(page, f"ui-{label}-{kind}")
        if also is not None:
            _check_also(page, *also, kind, where.replace(label, also[1]), kind not in kinds)
        if (kind == "bet" and not fold_checked
                and page.locator("#controls [data-action=check]").count()
                and page.locator("#controls [data-action=fold]").count()):
            # Folding when checking is free asks first (R-C-6, issue 12).
            fold_checked = True
            page.click("#controls [data-action=fold]")
            assert "You can check for free" in page.inner_text("#controls")
            assert_decision_fits(page, where + " fold confirm")
            shot(page, f"ui-{label}-fold-confirm")
            page.click("#controls [data-action=check]")
            kinds.append("check-after-confirm")
        else:
            take_decision(page, kind, game)
            kinds.append(kind)
        wait_played(page, live, tid, len(kinds), where)
    return page, tid, kinds


GAMES = ("sdr", "rollyourown", "rollem521")


@pytest.mark.parametrize("game", GAMES)
def test_each_decision_fits_the_screen_and_the_result_says_what_the_history_says(
        pages: Pages, live: ServerThread, game: str) -> None:
    most = 8 if game == "rollyourown" else 10  # Roll Your Own deals at most 8
    seen: set[str] = set()
    # Phone-first: the phone plays the fewest, a middle and the most seats; the
    # desktop (more room) only the most: the phone's hand of the most seats, the
    # same person's desktop page checked at each of its decisions (stop 63: the
    # desktop played a hand of its own).  Each table is loaded into the module's
    # page of its size (:class:`table_ui.Pages`).
    for seats in (2, 6, most):
        label = f"{game}-phone-{seats}"
        with pages.open("phone") as page:
            desk = pages.get("desktop", keep=page) if seats == most else None
            also = (desk, f"{game}-desktop-{seats}") if desk is not None else None
            # Heads-up the computer player only checks, so the free check
            # (and its fold question) comes whatever the deal.
            page, tid, kinds = play_hand(live, page, game, seats, label,
                                         checking=seats == 2, also=also,
                                         structure="no-limit" if seats == 6 else
                                         "fixed-limit")
            if seats == 2:
                assert "check-after-confirm" in kinds, f"{label}: {kinds}"
            seen.update(kinds)
            for p, name in ((page, label), *([also] if also is not None else [])):
                p.wait_for_selector("#result .narration li")
                shot(p, f"ui-{name}-result")
                if seats == most or seats == 2:
                    _check_result_panel(live, p, tid, name)
    if game == "rollyourown":
        assert {"discard", "expose"} <= seen
    if game == "rollem521":
        assert "stack" in seen


def _check_also(page: Any, other: Any, other_label: str, kind: str, where: str,
                new_kind: bool) -> None:
    """``other`` (the same person's page at another size) at the decision ``page``
    shows: once it has drawn that state and shows the same kind of decision, it
    fits and its owed amount is the Call button's, as on ``page``."""
    seq = page.evaluate("() => Number(document.body.dataset.seq)")
    wait_until(other, "s => Number(document.body.dataset.seq) >= s", seq)
    end = time.monotonic() + 10
    while decision_kind(other) != kind:
        assert time.monotonic() < end, f"{where}: {decision_kind(other)} shown, not {kind}"
        other.wait_for_timeout(30)
    assert_decision_fits(other, where)
    if kind == "bet":
        _check_owed(other, where)
    if new_kind:
        shot(other, f"ui-{other_label}-{kind}")


def _check_result_panel(live: ServerThread, page: Any, tid: str, label: str) -> None:
    seat = 0  # the person sits first, in seat 0 (computer players take the last seats)
    story, session = _stored_story(live, tid, 1, seat)
    panel = [" ".join(t.split()) for t in page.locator("#result .narration li").all_inner_texts()]
    assert panel, f"{label}: no narration in the result panel"
    told = story.lines[-len(panel):]
    assert {line.kind for line in told} <= RESULT_KINDS, f"{label}: {told}"
    assert panel == [" ".join(_cards_as_drawn(line.text).split()) for line in told], label
    # Every shown hand with its cards, as the stored hand shows them.
    result = session.hand.view(seat).to_dict()["result"]
    for s, cards in result["shown_cards"].items():
        row = page.locator(f"#result .shown-line[data-seat='{s}'] .card")
        assert row.evaluate_all("cs => cs.map(c => c.dataset.card)") == cards, label
    for s, words in result["shown"].items():
        assert words in page.inner_text(f"#result .shown-line[data-seat='{s}']"), label


def test_the_replayer_steps_through_a_hand_as_its_viewer_saw_it(
        browser: Any, live: ServerThread) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    other = browser.new_context(viewport=DESKTOP)
    try:
        page, tid, _ = play_hand(live, ctx.new_page(), "sdr", 3, "replay")
        page.click("#result [data-action=replay-last]")
        page.wait_for_selector("#replay:not(.hidden)")
        data = page.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")
        frames = data["frames"]
        assert data["seat"] == 0
        # (stop 56: the last action and the result are two steps, the last action's
        # with the pot unpaid and no result: test_replay_end_browser.py)
        steps = [*frames[:-1], {**frames[-1], "result": None}, frames[-1]]
        paid_to = {int(s): 0 for s in range(len(frames[-1]["seats"]))}
        for pot in frames[-1]["result"]["pots"]:
            for s, chips in pot["winners"].items():
                paid_to[int(s)] += chips
        for i, frame in enumerate(steps):
            assert f"step {i} of {len(steps) - 1}" in page.inner_text("#replay-pos")
            # The pot and every dealt-in stack at this step.
            unpaid = i == len(steps) - 2
            shown_stacks = [t.split()[-1] for t in
                            page.locator("#replay-stacks .replay-stack").all_inner_texts()]
            assert shown_stacks == [str(sv["stack"] - (paid_to[s] if unpaid else 0))
                                    for s, sv in enumerate(frame["seats"]) if sv["dealt"]]
            pots = page.inner_text("#replay-center .pots")
            if unpaid:
                unpaid_pot = sum(p["amount"] for p in frames[-1]["result"]["pots"])
                assert pots.startswith(f"pot {unpaid_pot}") and "awarded" not in pots, pots
            elif frame["result"] is None:
                # every chip in the hand: the middle and the bets in front (issue 26)
                total = frame["pot"] + sum(sv.get("bet", 0) for sv in frame["seats"])
                assert pots.startswith(f"pot {total}"), pots
            else:
                paid = sum(p["amount"] for p in frame["result"]["pots"])
                assert f"pot {paid} awarded" in pots
            # Only what seat 0 may see: opponents' hole cards stay backs unless shown.
            faces = page.locator("#replay-seats .seat:not([data-seat='0']) .card:not(.back)"
                                 ).evaluate_all("cs => cs.map(c => c.dataset.card)")
            own = page.locator("#replay-seats .seat[data-seat='0'] .card").evaluate_all(
                "cs => cs.map(c => c.dataset.card)")
            assert own == frame["seats"][0]["cards"], f"step {i}: your own cards"
            shown = set()
            if frame["result"]:
                for cards in frame["result"]["shown_cards"].values():
                    shown |= set(cards)
            assert set(faces) <= shown, f"step {i}: {faces} not shown to seat 0"
            if i == 2:
                shot(page, "ui-replay-step")
            if i < len(steps) - 1:
                page.click("#replay-next")
        assert page.locator("#replay-next[disabled]").count() == 1
        page.click("#replay-prev")
        assert f"step {len(steps) - 2} of" in page.inner_text("#replay-pos")
        # The link to the hand opens the replayer, for a watcher too, in the watcher's
        # redaction (no hole card of anyone that was not shown).
        link = page.get_attribute("#replay-link", "href")
        assert link.endswith(f"/t/{tid}#hand=1")
        watcher = other.new_page()
        watcher.goto(link)
        watcher.wait_for_selector("#replay:not(.hidden)")
        assert "Hand 1 · step 0" in watcher.inner_text("#replay-pos")
        assert watcher.locator("#replay-seats .card:not(.back)").count() == 0
        assert watcher.locator("#replay-download.hidden").count() == 1
        shot(watcher, "ui-replay-link-watcher")
    finally:
        ctx.close()
        other.close()


def test_the_replayer_names_the_players_of_the_hand_not_those_seated_now(
        browser: Any, live: ServerThread) -> None:
    """Hand 1 is played by Ann and two computer players; the host then removes both
    and Newbie sits in one of their seats: the replay of hand 1 still names the
    computer players everywhere (seat panels, stacks, the action line, the shown
    hands), as its narration does, and never Newbie or a bare ``seat N``."""
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page, tid, _ = play_hand(live, ctx.new_page(), "sdr", 3, "replay-names")
        names = live.manager.get(tid).names()
        assert names[0] == "Ann" and all(n.startswith("Bot ") for n in names[1:]), names
        page.click("#host-box summary")
        for seat in (1, 2):
            page.click(f"#host-controls li[data-seat='{seat}'] [data-host=remove]")
            page.wait_for_selector(f"#host-controls li[data-seat='{seat}']", state="detached")
        assert join(live.url, tid, "Newbie", 2)[0] == 2
        page.wait_for_selector("#seats .seat[data-seat='2'] .name:has-text('Newbie')")
        page.goto(f"{live.url}/t/{tid}#hand=1")
        page.wait_for_selector("#replay:not(.hidden)")
        data = page.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")
        assert data["names"] == names
        frames = data["frames"]
        # (Ann, whose replay it is, is "you" in it as at the live table: stop 57)
        tiles = ["Ann (you)", *names[1:]]
        called = ["you", *names[1:]]
        for i, frame in enumerate([*frames, frames[-1]]):  # (the result: a step of its own)
            where = f"step {i}"
            panels = page.locator("#replay-seats .seat").evaluate_all(
                "ss => ss.map(s => [Number(s.dataset.seat), s.querySelector('.name').textContent])")
            assert sorted(panels) == [[s, tiles[s]] for s, sv in enumerate(frame["seats"])
                                      if sv["dealt"]], where
            stacks = page.locator("#replay-stacks .replay-stack").all_inner_texts()
            assert [t.rsplit(" ", 1)[0] for t in stacks] == [
                called[s] for s, sv in enumerate(frame["seats"]) if sv["dealt"]], where
            action = frame.get("last_action")
            what = page.inner_text("#replay-what")
            assert what == "The result" if i == len(frames) else \
                what.startswith(f"{called[action['seat']].capitalize()} ") if action \
                else what == "the deal"
            assert "Newbie" not in page.inner_text("#replay"), where
            if i < len(frames):
                page.click("#replay-next")
        shown = page.locator("#replay-result .shown-line").evaluate_all(
            "ls => ls.map(l => [Number(l.dataset.seat), l.querySelector('.who').textContent])")
        assert shown, "the last step shows the hands at the showdown"
        assert all(who.removesuffix(" (you)") == names[s] for s, who in shown), shown
        told = page.locator("#replay-result .narration li").all_inner_texts()
        assert told and not any("seat 1" in line or "seat 2" in line for line in told), told
        shot(page, "ui-replay-names")
    finally:
        ctx.close()


def test_a_player_sitting_down_mid_hand_shows_their_stack_and_waits(
        browser: Any, live: ServerThread) -> None:
    """Bob sits down while Ann plays a hand against a computer player: everyone sees
    his stack (200, as the ledger says; not 0) and that he joins the next hand."""
    ann_ctx = browser.new_context(viewport=DESKTOP)
    bob_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=3, bots=1, stack=200)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit_with_enter(ann, "Ann")
        ann.click("#start-btn")
        ann.wait_for_selector(".me .cards.mine .card")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit(bob, "Bob")
        table = live.manager.get(tid)
        assert table.hand is not None and 1 not in table.hand.seats  # not dealt in
        ledger = {line["name"]: line["stack"] for line in table.table_public()["ledger"]}
        assert ledger["Bob"] == 200
        tile = "#seats .seat[data-seat='1']"
        ann.wait_for_selector(f"{tile} .name:has-text('Bob')")
        assert ann.inner_text(f"{tile} .stack") == "200"
        assert "joins next hand" in ann.inner_text(f"{tile} .tags")
        assert "stack 200" in bob.inner_text(".me .chips")
        assert "joins next hand" in bob.inner_text(".me")
        assert "dealt in from the next one" in bob.inner_text("#notice")
        # The players dealt in keep their stacks in the hand (ante paid), untagged.
        assert ann.locator("#seats .seat[data-seat='2'] .tag:has-text('joins')").count() == 0
        assert ann.inner_text("#seats .seat[data-seat='2'] .stack") == str(
            table.hand.hand.stacks[2])
        shot(bob, "ui-sat-mid-hand")
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_host_controls_and_sitting_out(browser: Any, live: ServerThread) -> None:
    host_ctx = browser.new_context(viewport=DESKTOP)
    friend_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=4, bots=1, between_hands=0.3)
        host = open_as_host(host_ctx, live.url, tid, host_token)
        sit_with_enter(host, "Ann")
        host.wait_for_selector("#host-panel:not(.hidden)")
        host.click("#host-box summary")
        host.check("[data-host=approve_joins]")
        friend = friend_ctx.new_page()
        friend.goto(f"{live.url}/t/{tid}")
        # A free seat can be tapped; the name typed before is used.
        friend.fill("#join-name", "Bob")
        friend.click("#seats [data-action=take-seat][data-seat='1']")
        friend.wait_for_selector("#notice:has-text('Waiting for the host to let you in')")
        host.wait_for_selector("#host-controls li[data-seat='1'] [data-host=approve]")
        shot(host, "ui-host-approve")
        host.click("#host-controls li[data-seat='1'] [data-host=approve]")
        friend.wait_for_selector("#notice.hidden", state="attached")
        # The name is remembered on that device.
        assert friend.evaluate("localStorage.getItem('rollem_name')") == "Bob"
        # Change the stakes between hands.
        host.fill("#host-controls input[name=ante]", "3")
        host.click("#host-controls [data-host=config]")
        friend.wait_for_selector("#table-name:has-text('ante 3')")
        # Remove an idle player (the computer player), not a playing one.
        bob_remove = host.locator("#host-controls li[data-seat='1'] [data-host=remove]")
        assert bob_remove.is_disabled()
        host.click("#host-controls li[data-seat='3'] [data-host=remove]")
        host.wait_for_selector("#host-controls li[data-seat='3']", state="detached")
        # Bob sits out; the host sees it.
        friend.click(".me [data-action=sit-out]")
        friend.wait_for_selector("#notice:has-text('You are sitting out')")
        host.wait_for_selector("#seats .seat[data-seat='1'] .tag:has-text('sitting out')")
        assert not bob_remove.is_disabled()
        friend.click(".me [data-action=sit-in]")
        host.wait_for_selector("#seats .seat[data-seat='1'] .tag:has-text('sitting out')",
                               state="detached")
        # No Pause before the first deal (s63-table: it meant nothing until the start,
        # which it then held up unseen): Start deals, and Pause shows from then.
        assert host.locator("#host-controls [data-host=pause]:visible").count() == 0
        host.click("#start-btn")
        friend.wait_for_selector(".me .cards.mine .card", timeout=15_000)
        host.wait_for_selector("#host-controls [data-host=pause]:visible")
        assert live.manager.get(tid).config.ante == 3
        # Hand the host role to Bob: he gets the controls, Ann loses them.
        host.click("#host-controls li[data-seat='1'] [data-host=hand_over]")
        friend.wait_for_selector("#host-panel:not(.hidden)")
        host.wait_for_selector("#host-panel.hidden", state="attached")
        shot(friend, "ui-host-handed-over-phone")
    finally:
        host_ctx.close()
        friend_ctx.close()


def _how_to_play_options(page: Any, has: str) -> str:
    """Open How to play, wait until its table of options holds ``has``, close it;
    returns that table's text."""
    page.click("#rules-btn")
    wait_until(page, "has => document.querySelector('#rules-options').innerText.includes(has)",
               has)
    text = str(page.inner_text("#rules-options"))
    page.click("#rules-close")
    return text


def test_how_to_play_tells_the_levels_of_the_computer_players_seated_now(
        pages: Pages, live: ServerThread) -> None:
    """Each computer player has its own level (the seat's): the panel tells those
    of the computer players at the table now, not the level it was created with."""
    from rollem.server.config import BOT_LEVEL_HINTS

    with pages.open("phone") as page:
        tid, host_token = new_table(live.url, game="sdr", seats=3, bots=2, bot_level="basic")
        goto_as_host(page, live.url, tid, host_token)
        page.wait_for_selector("#host-panel:not(.hidden)")
        basic = f"basic: {BOT_LEVEL_HINTS['basic']}"
        options = _how_to_play_options(page, "Computer players' level")
        assert f"Computer players' level\t{basic}\n" in options + "\n"
        table = live.manager.get(tid)

        def seat_2_plays_strong() -> int:  # (as the host's change of a seat's level would)
            row = table.seats[2].row
            row.bot = "strong"
            table.seq += 1
            table.session["seq"] = table.seq
            table.saving.commit(seats=[row], session=True)
            table.broadcast()
            return int(table.seq)

        told = live.call(seat_2_plays_strong)
        wait_until(page, "seq => Number(document.body.dataset.seq) >= seq", told)
        options = _how_to_play_options(page, "strong")
        names = {n: table.seats[n].row.name for n in (1, 2)}
        assert (f"Computer players' level\t{basic} ({names[1]})\n"
                f"Computer players' level\tstrong: {BOT_LEVEL_HINTS['strong']} ({names[2]})"
                in options), options
        # The host removes both: none is left, whatever the table was created with.
        page.click("#host-box summary")
        for seat in (1, 2):
            page.click(f"#host-controls li[data-seat='{seat}'] [data-host=remove]")
            page.wait_for_selector(f"#host-controls li[data-seat='{seat}']", state="detached")
        options = _how_to_play_options(page, "Computer players\tnone")
        assert "Computer players\tnone at this table" in options
        assert "Computer players' level" not in options
        shot(page, "ui-how-to-play-no-computer-players")


def test_the_hosts_pause_stops_the_buttons_clock_for_naming_the_game(
        browser: Any, live: ServerThread) -> None:
    """Dealer's choice, two people: while the host has paused the table the button's
    clock is not shown (it stands still) and the felt says so; at resume it is back."""
    host_ctx = browser.new_context(viewport=DESKTOP)
    friend_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="dealers-choice", seats=2, bots=0)
        host = open_as_host(host_ctx, live.url, tid, host_token)
        sit_with_enter(host, "Ann")
        friend = friend_ctx.new_page()
        friend.goto(f"{live.url}/t/{tid}")
        sit(friend, "Bob")
        host.click("#start-btn")
        chooser = "#seats .seat[data-seat='0'] .clock"  # Ann has the first button
        friend.wait_for_selector(chooser)
        assert "names the game" in friend.inner_text("#status")
        host.wait_for_selector("#controls [data-game]")
        host.click("#host-box summary")
        host.click("#host-controls [data-host=pause]")
        friend.wait_for_selector("#status:has-text('their clock stands still')")
        friend.wait_for_selector(chooser, state="detached")
        # (the host's page draws the pause on its own: waited for, not read at once)
        host.wait_for_selector(".me .clock", state="detached")
        assert live.manager.get(tid).hand is None
        host.wait_for_selector("#controls [data-game]")  # the button may still name it
        host.click("#host-controls [data-host=resume]")
        friend.wait_for_selector(chooser)
        assert "stands still" not in friend.inner_text("#status")
        assert re.fullmatch(r"clock \d+s( \+\d+s bank)?", friend.inner_text(chooser))
    finally:
        host_ctx.close()
        friend_ctx.close()


def test_chat_is_text_rate_limited_mutable_and_read_by_watchers(
        browser: Any, live: ServerThread) -> None:
    ann_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    bob_ctx = browser.new_context(viewport=DESKTOP)
    watch_ctx = browser.new_context(viewport=PHONE)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=3, bots=0)
        ann = open_as_host(ann_ctx, live.url, tid, host_token)
        sit_with_enter(ann, "Ann")
        bob = bob_ctx.new_page()
        bob.goto(f"{live.url}/t/{tid}")
        sit_with_enter(bob, "Bob")
        watcher = watch_ctx.new_page()
        watcher.goto(f"{live.url}/t/{tid}")
        nasty = "<b>hi</b><img src=x onerror=alert(1)>"
        ann.fill("#chat-text", nasty)
        ann.press("#chat-text", "Enter")
        for page in (bob, watcher):
            page.wait_for_selector(".chat-line .chat-text")
            assert page.inner_text(".chat-line .chat-text") == nasty
            assert page.locator(".chat-line b:not(.chat-name), .chat-line img").count() == 0
        assert watcher.locator("#chat-form.hidden").count() == 1
        assert "take a seat to write" in watcher.inner_text("#chat")
        # Too fast: after a burst the server says to slow down and keeps nothing more.
        bob.evaluate("""() => { for (let i = 0; i < 6; i++) {
            document.getElementById('chat-text').value = 'line ' + i;
            document.getElementById('chat-form').requestSubmit(); } }""")
        bob.wait_for_selector("#toast:has-text('slow down')")
        # Ann's line and Bob's burst of 4 are kept and reach every page (waited for:
        # 0.3 s of waiting alone was too little on a loaded machine), and no more.
        table = live.manager.get(tid)
        wait_until(ann, "() => document.querySelectorAll('.chat-line').length >= 5")
        wait_until(watcher, "() => document.querySelectorAll('.chat-line').length >= 5")
        ann.wait_for_timeout(300)
        assert len(table.session["chat"]) == 5
        assert ann.locator(".chat-line").count() == 5
        # Ann mutes Bob on her device: his lines go; the watcher still reads them.
        ann.click(".chat-line:has-text('line 0') .mute")
        assert ann.locator(".chat-line").count() == 1
        assert "Bob (unmute)" in ann.inner_text("#chat-muted")
        assert watcher.locator(".chat-line").count() == 5
        shot(ann, "ui-chat-muted-phone")
        # Kept with the session: a reload shows the lines again.
        watcher.reload()
        watcher.wait_for_selector(".chat-line >> nth=4")
        lines = live.manager.get(tid).session["chat"]
        assert [line["text"] for line in lines][:2] == [nasty, "line 0"]
    finally:
        ann_ctx.close()
        bob_ctx.close()
        watch_ctx.close()


def test_the_clock_notice_and_the_disconnected_action_bar(
        browser: Any, live: ServerThread) -> None:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1,
                                    decision_seconds=1.5, time_bank_seconds=0)
        # The computer player bets: Ann's clock folds and the hand is over. (After a
        # check the hand went on and her clock acted again 1.5 s later: a new notice
        # between the click on OK and the check below, on a slow machine.)
        only_betting_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        # Ann does nothing: the clock acts for her and says so. (Her 1.5 s moved on
        # her decision's clock once it is open, not waited out: stop 61, what is
        # checked is the notice; none open: nothing.)
        end = time.monotonic() + 20
        while not page.locator("#notice .clocked").count():
            assert time.monotonic() < end, "the clock never acted for Ann"
            decision_clock_on(live, tid, 0, 1.5)
            page.wait_for_timeout(100)
        page.wait_for_selector("#notice .clocked", timeout=20_000)
        text = page.inner_text("#notice")
        assert "The clock folded for you" in text, text
        page.wait_for_selector("#result:not(.hidden)")
        shot(page, "ui-clock-notice")
        page.click("[data-action=clock-ok]")
        assert page.locator("#notice .clocked").count() == 0
    finally:
        ctx.close()
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        page.wait_for_selector("#controls [data-action]")
        assert page.title().startswith("● Your turn")
        # The connection drops (and cannot come back): the bar is off and says so.
        page.route_web_socket(re.compile(".*/ws/.*"), lambda ws: ws.close())
        table = live.manager.get(tid)
        live.call(lambda: [c.close() for c in table.all_clients()])
        page.wait_for_selector("#notice:has-text('Disconnected')")
        buttons = page.locator("#controls button")
        assert buttons.count() >= 2
        for i in range(buttons.count()):
            assert buttons.nth(i).is_disabled()
        assert "disconnected" in page.inner_text("#controls").lower()
        shot(page, "ui-disconnected")
    finally:
        ctx.close()


def test_a_free_check_asks_before_folding_and_cards_are_shown_by_choice(
        browser: Any, live: ServerThread) -> None:
    """Issue 12 in the web table: folding when checking is free asks first; after
    the hand a player shows cards by choice and everyone sees them (R-C-6, R-C-11)."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watch_ctx = browser.new_context(viewport=DESKTOP)
    phone_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        tid, host_token = new_table(live.url, game="sdr", seats=2, bots=1)
        only_checking_bots(live, tid)  # Ann's first decision is a free check
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        watcher = watch_ctx.new_page()
        watcher.goto(f"{live.url}/t/{tid}")
        page.click("#start-btn")
        page.wait_for_selector("#controls [data-action=fold]")
        mine = page.locator(".me .cards.mine .card").evaluate_all(
            "cs => cs.map(c => c.dataset.card)")
        assert page.locator("#controls [data-action=check]").count()
        page.click("#controls [data-action=fold]")
        assert "You can check for free. Fold anyway?" in page.inner_text("#controls")
        shot(page, "ui-fold-confirm")
        assert_decision_fits(page, "fold confirm")
        page.click("#controls [data-action=fold-confirm]")
        page.wait_for_selector("#result [data-action=show]")
        assert page.inner_text("#result [data-action=show]") == "Show my cards"
        page.click("#result [data-action=show]")
        page.wait_for_selector("#result .by-choice")
        shown = page.locator("#result .by-choice .card").evaluate_all(
            "cs => cs.map(c => c.dataset.card)")
        assert sorted(shown) == sorted(mine)
        assert page.locator("#result [data-action=show]").count() == 0  # nothing left
        watcher.wait_for_selector("#result .by-choice")
        assert "Ann shows" in watcher.inner_text("#result .by-choice")
        # the whole hand shown: named as the results name a hand, for both (stop 53:
        # "Ann shows 9♥ 6♦ by choice" named none); Stop, Drop and Roll's hands are
        # the best five of the hole cards and the board (hand_words)
        board = live.call(lambda: [str(c) for c in live.manager.get(tid).final_hand.hand.board])
        named = hand_words([*mine, *board]) + " (by choice)"
        for who in (page, watcher):
            assert who.inner_text("#result .by-choice .desc") == named, board
        # and her seat's tile names it too, as it names a hand shown at a showdown
        # (stop 54: the tile showed the cards and no hand name)
        # (her own page shows her hand in the dock, not in a tile: a watcher on a
        # phone and the one on a desktop)
        ann = next(n for n, s in live.manager.get(tid).seats.items() if s.row.name == "Ann")
        phone = phone_ctx.new_page()
        phone.goto(f"{live.url}/t/{tid}")
        tile = f"#seats .seat[data-seat='{ann}'] .described"
        for who in (phone, watcher):
            who.wait_for_selector(tile)
            assert who.inner_text(tile) == hand_words([*mine, *board]), board
        shot(phone, "ui-shown-by-choice-tile-phone")
        seen = watcher.locator("#result .by-choice .card").evaluate_all(
            "cs => cs.map(c => c.dataset.card)")
        assert sorted(seen) == sorted(mine)
        shot(watcher, "ui-shown-by-choice-watcher")
        # Stored with the hand: the watcher's replay ends with the show.
        data = watcher.evaluate(f"fetch('/api/tables/{tid}/hands/1').then(r => r.json())")
        assert data["frames"][-1]["last_action"] == {"seat": 0, "kind": "show", "cards": shown}
    finally:
        ctx.close()
        watch_ctx.close()
        phone_ctx.close()


def test_seat_tiles_stay_on_the_felt_at_every_desktop_width(browser: Any,
                                                          live: ServerThread) -> None:
    """Ten seats: at 1024 px wide the tiles of the side seats stuck out of the felt,
    one off the left edge of the screen, one under the side panel. Each tile must lie
    on the felt, clear of the side panel and of the other tiles."""
    tid, host = new_table(live.url, game="sdr", seats=10, bots=9, bot_level="random")
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page = open_as_host(ctx, live.url, tid, host)
        sit_with_enter(page, "Ann")
        page.click("#start-btn")
        page.wait_for_selector(".me .cards .card")
        for width, height in ((1024, 768), (920, 700), (1280, 720), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(100)
            # One snapshot of every box: the computer players act all the time and
            # each state redraws the seats, so boxes read one by one could mix two
            # drawings (or miss a tile being replaced).
            felt, side, tiles = page.evaluate("""() => {
              const box = e => { const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height}; };
              const seats = [...document.querySelectorAll('#seats > .seat')]
                .filter(e => e.checkVisibility());
              return [box(document.querySelector('#felt')),
                      box(document.querySelector('.side-col')), seats.map(box)];
            }""")
            assert len(tiles) == 9  # the nine others; yours is the dock
            for i, t in enumerate(tiles):
                where = f"{width}x{height} seat tile {i}: {t}, felt {felt}"
                assert t["x"] >= felt["x"] - 0.5, where
                assert t["x"] + t["width"] <= felt["x"] + felt["width"] + 0.5, where
                assert t["x"] + t["width"] <= side["x"] + 0.5, where
                for u in tiles[i + 1:]:
                    assert not (t["x"] + 0.5 < u["x"] + u["width"] and u["x"] + 0.5 <
                                t["x"] + t["width"] and t["y"] + 0.5 < u["y"] + u["height"]
                                and u["y"] + 0.5 < t["y"] + t["height"]), where
        shot(page, "ui-ten-seats-1440")
    finally:
        ctx.close()


def test_your_all_at_once_choice_shows_while_the_others_choose(pages: Pages,
                                                              live: ServerThread) -> None:
    """Roll Your Own's discard is made by all at once (R-RYO-2): once Ann has thrown
    her three cards, her page says so and marks them while Bob still chooses."""
    tid, host = new_table(live.url, game="rollyourown", seats=2, bots=0)
    with pages.open("phone") as page:
        goto_as_host(page, live.url, tid, host)
        sit_with_enter(page, "Ann")
        join(live.url, tid, "Bob")  # sits, never acts (a 300 s clock)
        page.click("#start-btn")
        wait_until(page, "() => document.querySelector('#confirm[data-action=discard]')")
        take_decision(page, "discard")
        wait_until(page, "() => document.querySelector('#controls').innerText"
                         ".includes('Your choice is in')")
        prompt = page.inner_text("#controls")
        thrown = re.search(r"throw into the pool (\S\S) (\S\S) (\S\S)\. Waiting for Bob", prompt)
        assert thrown, prompt
        marked = page.eval_on_selector_all(".me .card.chosen", "cs => cs.length")
        assert marked == 3
        assert page.locator("#controls button").count() == 0  # nothing to decide meanwhile
        shot(page, "ui-rollyourown-discard-chosen")

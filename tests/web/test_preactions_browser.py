"""Pre-actions and keyboard shortcuts of the decision dock (issue 26), in Debian's
Chromium through Playwright.

Pre-actions: Ann (the button, seat 0) plays hold'em three-handed against two
betting computer players that act only when the test lets them (a gate, one
decision at a time: nothing depends on how fast the page or the machine is);
before each of her turns she holds a pre-action, and the server's log says what
was played: "Check" is cleared when a bet comes in (and nothing is sent), "Call 2"
fires when her turn comes with the same bet, "Call any" fires after a bet,
"Check/fold" folds to a bet, "Fold to any bet" folds facing one.

Keys: a whole hand played with the keyboard alone (hold'em with a raise by key
and a sizing preset; 5-2-1 with its card choices by digits and Enter, the
roll-up order and the declaration by letters), no click at any decision.
Screenshots: test-artifacts/web/pre-*.png, keys-*.png.
"""

from __future__ import annotations

import random
import threading
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
    shot,
    sit_with_enter,
    wait_played,
    wait_until,
)
from web_harness import BettingBot, ServerThread

from rollem.engine.actions import Raise

pytestmark = pytest.mark.browser


class Gate:
    """Lets the computer players of one table make one decision each time the test
    opens it (:meth:`let_one`), and none in between: the seconds a bot used to take
    (``bot_delay``) were the time the page had to hold a pre-action, too short on a
    loaded machine.  A bot waits in the table's bot thread, not on the server's
    event loop; :meth:`open` lets every bot play freely (the test's end)."""

    WAIT = 30.0
    """Seconds a bot waits at a closed gate before it fails (its timeout action)."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        self.opened = threading.Event()
        self.raise_next = False
        """The next computer player let through raises the least it may, if it may."""

    def bot(self) -> BettingBot:
        gate = self

        class GatedBot(BettingBot):
            def _bet(self, view: Any, legal: Any) -> object:
                if not gate.opened.is_set() and not gate.permits.acquire(timeout=gate.WAIT):
                    raise TimeoutError("the test never let this computer player act")
                if gate.raise_next and "raise" in legal.actions:
                    gate.raise_next = False
                    return Raise(legal.min_to)
                return super()._bet(view, legal)

        return GatedBot(random.Random(0))

    def let_one(self, live: ServerThread, tid: str, where: str) -> None:
        """Let one computer player decide, and wait until the server has played it."""
        done = bot_actions(live, tid)
        self.permits.release()
        end = time.monotonic() + 20
        while bot_actions(live, tid) <= done:
            assert time.monotonic() < end, f"{where}: the computer player never acted"
            time.sleep(0.02)

    def open(self) -> None:
        self.opened.set()
        for _ in range(100):
            self.permits.release()


def gated_bots(live: ServerThread, tid: str) -> Gate:
    """Make every computer player at ``tid`` a :class:`BettingBot` behind one :class:`Gate`."""
    gate = Gate()
    live.manager.get(tid).bot_factory = lambda level: gate.bot()
    return gate


def bot_actions(live: ServerThread, tid: str) -> int:
    """How many decisions the computer players have played in hand 1."""
    return sum(r.source == "bot" for r in live.manager.store.load_actions(tid, 1))


def pending(live: ServerThread, tid: str) -> list[int]:
    """The seats whose decision the server waits for now."""
    hand = live.manager.get(tid).hand
    return list(hand.pending_seats()) if hand is not None else []


def ann_actions(live: ServerThread, tid: str) -> list[str]:
    """The kinds of the actions the server played for Ann (seat 0) in hand 1."""
    return [r.action["kind"] for r in live.manager.store.load_actions(tid, 1)
            if r.seat == 0 and r.source == "player"]


def board_len(live: ServerThread, tid: str) -> int:
    hand = live.manager.get(tid).hand
    return len(hand.view(0)["board"]) if hand is not None else -1


def arm(page: Any, live: ServerThread, tid: str, board: int, kind: str) -> None:
    """Once the board has ``board`` cards and the page has drawn the server's state
    (not Ann's turn: the computer players wait at the gate), hold the pre-action
    ``kind``, which must be offered then."""
    assert board_len(live, tid) == board and 0 not in pending(live, tid), \
        (board_len(live, tid), pending(live, tid))
    wait_until(page, "seq => Number(document.body.dataset.seq) >= seq",
               live.manager.get(tid).seq)
    button = page.locator(f"#controls [data-pre='{kind}']")
    assert button.count(), f"pre-action {kind} not offered at board {board}"
    button.click()
    assert page.get_attribute(f"#controls [data-pre='{kind}']", "aria-pressed") == "true"


def bots_until(gate: Gate, live: ServerThread, tid: str, board: int, seat: int) -> None:
    """Let the computer players act one by one until the board has ``board`` cards
    and ``seat`` is the one to act."""
    for _ in range(10):
        if board_len(live, tid) == board and pending(live, tid) == [seat]:
            return
        assert 0 not in pending(live, tid), f"Ann's turn before board {board}"
        gate.let_one(live, tid, f"to board {board}")
    raise AssertionError(f"board {board}, seat {seat} to act never came")


def wait_ann(live: ServerThread, tid: str, n: int, where: str) -> None:
    end = time.monotonic() + 20
    while len(ann_actions(live, tid)) < n:
        assert time.monotonic() < end, f"{where}: Ann's action {n} never played"
        time.sleep(0.03)


def start_gated(browser: Any, live: ServerThread, size: str) -> tuple[Any, Any, str, Gate]:
    """Ann sits at a new hold'em table with two gated betting computer players and
    deals; returns (context, page, table id, gate)."""
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2,
                                structure="no-limit")
    gate = gated_bots(live, tid)
    page = open_as_host(ctx, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    return ctx, page, tid, gate


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_pre_actions_fire_when_they_should_and_a_bet_clears_them(
        browser: Any, live: ServerThread, size: str) -> None:
    ctx, page, tid, gate = start_gated(browser, live, size)
    try:
        # Preflop: Ann (the button) acts first, three-handed: no pre-action then.
        page.wait_for_selector("#controls [data-action=call]")
        assert page.locator("#controls [data-pre]").count() == 0
        page.click("#controls [data-action=call]")
        wait_ann(live, tid, 1, "preflop")
        # Flop: "Check" held while the small blind acts; it bets: cleared, nothing sent.
        bots_until(gate, live, tid, 3, 1)
        arm(page, live, tid, 3, "check")
        shot(page, f"pre-{size}-held")
        gate.let_one(live, tid, "the small blind's flop bet")
        page.wait_for_selector("#toast:has-text('A raise came in')")
        assert ann_actions(live, tid) == ["call"]
        assert page.locator("#controls [data-pre][aria-pressed=true]").count() == 0
        # Facing that bet, the big blind to act: "Call 2" held; it calls, so Ann's
        # call is played the moment her turn comes.
        assert pending(live, tid) == [2]
        arm(page, live, tid, 3, "call")
        assert page.inner_text("#controls [data-pre=call]").startswith("Call 2")
        gate.let_one(live, tid, "the big blind's flop call")
        wait_ann(live, tid, 2, "flop")
        assert ann_actions(live, tid) == ["call", "call"]
        # Turn: "Call any" held before the bet comes; it fires after it.
        bots_until(gate, live, tid, 4, 1)
        arm(page, live, tid, 4, "call-any")
        gate.let_one(live, tid, "the small blind's turn bet")
        assert ann_actions(live, tid) == ["call", "call"]
        gate.let_one(live, tid, "the big blind's turn call")
        wait_ann(live, tid, 3, "turn")
        assert ann_actions(live, tid) == ["call", "call", "call"]
        # River: "Check/fold" held; a bet comes: Ann folds.
        bots_until(gate, live, tid, 5, 1)
        arm(page, live, tid, 5, "check-fold")
        gate.let_one(live, tid, "the small blind's river bet")
        gate.let_one(live, tid, "the big blind's river call")
        wait_ann(live, tid, 4, "river")
        assert ann_actions(live, tid) == ["call", "call", "call", "fold"]
        page.wait_for_selector("#result:not(.hidden)")
        assert page.locator("#controls [data-pre]").count() == 0
    finally:
        gate.open()
        ctx.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_raise_clears_a_held_call(browser: Any, live: ServerThread, size: str) -> None:
    """Facing the small blind's flop bet of 2 while the big blind acts, "Call 2" held;
    the big blind raises to 4: the pre-action is cleared and said so, nothing is
    sent, and Ann's turn asks her to call 4 (before: only a bet clearing a held
    "Check" was tested)."""
    ctx, page, tid, gate = start_gated(browser, live, size)
    try:
        page.wait_for_selector("#controls [data-action=call]")
        page.click("#controls [data-action=call]")
        wait_ann(live, tid, 1, "preflop")
        bots_until(gate, live, tid, 3, 1)
        gate.let_one(live, tid, "the small blind's flop bet")
        arm(page, live, tid, 3, "call")
        assert page.inner_text("#controls [data-pre=call]").startswith("Call 2")
        gate.raise_next = True
        gate.let_one(live, tid, "the big blind's flop raise")
        page.wait_for_selector("#toast:has-text('A raise came in')")
        assert "Call 2" in page.inner_text("#toast")
        page.wait_for_selector("#controls [data-action=call]")
        assert pending(live, tid) == [0]
        assert ann_actions(live, tid) == ["call"]   # the held call was not played
        assert page.locator("#controls [data-pre][aria-pressed=true]").count() == 0
        assert page.inner_text("#controls [data-action=call]").startswith("Call 4")
        shot(page, f"pre-{size}-raise-cleared")
    finally:
        gate.open()
        ctx.close()


def test_fold_to_any_bet_folds_when_the_turn_comes(browser: Any, live: ServerThread) -> None:
    """Facing a bet on the flop while the big blind acts, "Fold to any bet" held: Ann
    folds the moment her turn comes, with no click then (what the big blind does in
    between, call or raise, does not clear it)."""
    ctx, page, tid, gate = start_gated(browser, live, "desktop")
    try:
        page.wait_for_selector("#controls [data-action=call]")
        page.click("#controls [data-action=call]")
        wait_ann(live, tid, 1, "preflop")
        bots_until(gate, live, tid, 3, 1)
        gate.let_one(live, tid, "the small blind's flop bet")
        arm(page, live, tid, 3, "fold")
        assert page.inner_text("#controls [data-pre=fold]").startswith("Fold to any bet")
        gate.let_one(live, tid, "the big blind's flop call")
        wait_ann(live, tid, 2, "flop")
        assert ann_actions(live, tid) == ["call", "fold"]
    finally:
        gate.open()
        ctx.close()


KEY_FOR = {"bet": "c", "declare": "h", "stack": "k", "wild": "1", "choose": "1"}


def play_by_keyboard(live: ServerThread, page: Any, tid: str, label: str,
                     raise_once: bool = False) -> list[str]:
    """Play Ann's decisions of hand 1 with the keyboard alone until the result."""
    kinds: list[str] = []
    deadline = time.time() + 60
    raised = not raise_once
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < deadline, f"{label}: the hand did not finish; did {kinds}"
        kind = decision_kind(page)
        if kind is None:
            page.wait_for_timeout(30)
            continue
        if kind not in kinds:
            shot(page, f"keys-{label}-{kind}")
        if kind == "bet" and not raised and page.locator(
                "#controls [data-action=raise], #controls [data-action=bet]").count():
            raised = True
            if page.locator("#controls .quick-size").count() > 1:
                page.keyboard.press("2")   # the second sizing preset
                want = page.input_value("#controls [data-amount]")
                assert want != "" and page.get_attribute(
                    "#controls [data-action=raise], #controls [data-action=bet]",
                    "data-key") in ("r", "b")
            page.keyboard.press("r")
            kinds.append("raise")
        elif kind in KEY_FOR:
            page.keyboard.press(KEY_FOR[kind])
            kinds.append(kind)
        else:
            # the fewest cards, but one at a draw: the digits pick, Enter confirms
            lo = int(page.get_attribute("#controls #confirm", "data-min") or 0)
            want = max(lo, 1) if kind == "draw" else lo
            keys = [str(i + 1) for i, c in enumerate(page.locator(".me .cards.mine > .card").all())
                    if "pickable" in (c.get_attribute("class") or "")][:want]
            for k in keys:
                page.keyboard.press(k)
            assert page.locator(".me .card.selected").count() == len(keys), kind
            if kind == "draw" and keys:
                page.keyboard.press("Escape")   # Esc clears the pick
                assert page.locator(".me .card.selected").count() == 0
                for k in keys:
                    page.keyboard.press(k)
            page.keyboard.press("Enter")
            kinds.append(kind)
        wait_played(page, live, tid, len(kinds), f"{label} {kind}")
    return kinds


@pytest.mark.parametrize(("game", "size"), [("holdem", "desktop"), ("rollem521", "desktop"),
                                            ("rollem521", "phone")])
def test_a_whole_hand_is_played_with_the_keyboard_alone(browser: Any, live: ServerThread,
                                                       game: str, size: str) -> None:
    """(The phone: a keyboard paired with it, at 390x844.)"""
    ctx = (browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
           if size == "phone" else browser.new_context(viewport=DESKTOP))
    try:
        tid, host_token = new_table(live.url, game=game, seats=3, bots=2,
                                    structure="no-limit" if game == "holdem" else "fixed-limit")
        only_checking_bots(live, tid)
        page = open_as_host(ctx, live.url, tid, host_token)
        sit_with_enter(page, "Ann")
        page.focus("#start-btn")
        page.keyboard.press("Enter")
        kinds = play_by_keyboard(live, page, tid, f"{game}-{size}", raise_once=game == "holdem")
        assert kinds, game
        if game == "holdem":
            assert "raise" in kinds
            assert "raise" in ann_actions(live, tid) or "bet" in ann_actions(live, tid)
        else:
            assert {"draw", "declare"} <= set(kinds), kinds
        # Keys show on the buttons they press.
        wait_until(page, "() => !!document.querySelector('#result:not(.hidden)')")
    finally:
        ctx.close()

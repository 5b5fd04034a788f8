"""Pre-actions and keyboard shortcuts of the decision dock (issue 26), in Debian's
Chromium through Playwright.

Pre-actions: Ann (the button, seat 0) plays hold'em three-handed against two
betting computer players that act only when the test lets them (a gate, one
decision at a time: nothing depends on how fast the page or the machine is);
before each of her turns she holds a pre-action, and the server's log says what
was played: "Check" is cleared when a bet comes in (and nothing is sent), "Call 2"
fires when her turn comes with the same bet, "Call any" fires after a bet,
"Check/fold" folds to a bet, "Fold to any bet" folds facing one; once her
raise stands, no "Check" is offered (her turn comes back only to a raise).

Keys: a whole hand played with the keyboard alone (hold'em with a raise by key
and a sizing preset; 5-2-1 with its card choices by digits and Enter, the
roll-up order and the declaration by letters), no click at any decision.
Screenshots: test-artifacts/web/pre-*.png, keys-*.png.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from dock_ui import Gate, ann_actions, gated_bots, pending, play_by_keyboard
from table_ui import (
    Pages,
    goto_as_host,
    new_table,
    only_checking_bots,
    record_toasts,
    shot,
    sit_with_enter,
    wait_toast_shown,
    wait_until,
)
from web_harness import ServerThread

pytestmark = pytest.mark.browser


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


def call_to_the_flop(page: Any, live: ServerThread, tid: str, gate: Gate) -> None:
    """Preflop, Ann (the button, first to act three-handed) calls; the computer
    players then act one by one until the flop is dealt and the small blind (seat 1)
    is to act."""
    page.wait_for_selector("#controls [data-action=call]")
    page.click("#controls [data-action=call]")
    wait_ann(live, tid, 1, "preflop")
    bots_until(gate, live, tid, 3, 1)


def start_gated(pages: Pages, live: ServerThread, size: str) -> tuple[Any, str, Gate]:
    """Ann sits at a new hold'em table with two gated betting computer players and
    deals, in the module's page of ``size``; returns (page, table id, gate)."""
    page = pages.get(size)
    tid, host_token = new_table(live.url, game="holdem", seats=3, bots=2,
                                structure="no-limit")
    gate = gated_bots(live, tid)
    goto_as_host(page, live.url, tid, host_token)
    sit_with_enter(page, "Ann")
    page.click("#start-btn")
    return page, tid, gate


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_pre_actions_fire_when_they_should_and_a_bet_clears_them(
        pages: Pages, live: ServerThread, size: str) -> None:
    page, tid, gate = start_gated(pages, live, size)
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
        record_toasts(page)
        gate.let_one(live, tid, "the small blind's flop bet")
        wait_toast_shown(page, "A raise came in")
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


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_raise_clears_a_held_call(pages: Pages, live: ServerThread, size: str) -> None:
    """Facing the small blind's flop bet of 2 while the big blind acts, "Call 2" held;
    the big blind raises to 4: the pre-action is cleared and said so, nothing is
    sent, and Ann's turn asks her to call 4 (before: only a bet clearing a held
    "Check" was tested)."""
    page, tid, gate = start_gated(pages, live, size)
    try:
        call_to_the_flop(page, live, tid, gate)
        gate.let_one(live, tid, "the small blind's flop bet")
        arm(page, live, tid, 3, "call")
        assert page.inner_text("#controls [data-pre=call]").startswith("Call 2")
        gate.raise_next = True
        record_toasts(page)
        gate.let_one(live, tid, "the big blind's flop raise")
        wait_toast_shown(page, "A raise came in")
        assert "Call 2" in page.inner_text("#toast")
        page.wait_for_selector("#controls [data-action=call]")
        assert pending(live, tid) == [0]
        assert ann_actions(live, tid) == ["call"]   # the held call was not played
        assert page.locator("#controls [data-pre][aria-pressed=true]").count() == 0
        assert page.inner_text("#controls [data-action=call]").startswith("Call 4")
        shot(page, f"pre-{size}-raise-cleared")
    finally:
        gate.open()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_no_check_is_offered_once_your_raise_stands(pages: Pages, live: ServerThread,
                                                   size: str) -> None:
    """Preflop, Ann (the button, first to act three-handed) raises; while the blinds
    act she owes nothing, and her turn comes again only if one of them raises: the
    dock offers "Fold to any bet" and "Call any" (s72-web; main: "Check/fold",
    "Check", "Call any", and a held "Check" could only ever be cleared). "Call any"
    held, the small blind re-raises and the big blind calls: Ann's call is played
    the moment her turn comes, with no click then."""
    page, tid, gate = start_gated(pages, live, size)
    try:
        page.wait_for_selector("#controls [data-action=raise]")
        page.click("#controls [data-action=raise]")
        wait_ann(live, tid, 1, "preflop raise")
        assert ann_actions(live, tid) == ["raise"]
        assert pending(live, tid) == [1]
        wait_until(page, "seq => Number(document.body.dataset.seq) >= seq",
                   live.manager.get(tid).seq)
        offered = page.evaluate(
            "() => [...document.querySelectorAll('#controls [data-pre]')].map(b => b.dataset.pre)")
        assert offered == ["fold", "call-any"], offered
        assert page.inner_text("#controls [data-pre=fold]").startswith("Fold to any bet")
        shot(page, f"pre-{size}-raise-stands")
        arm(page, live, tid, 0, "call-any")
        gate.raise_next = True
        gate.let_one(live, tid, "the small blind's re-raise")
        assert ann_actions(live, tid) == ["raise"]
        gate.let_one(live, tid, "the big blind's call")
        wait_ann(live, tid, 2, "preflop re-raise")
        assert ann_actions(live, tid) == ["raise", "call"]
    finally:
        gate.open()


def test_fold_to_any_bet_folds_when_the_turn_comes(pages: Pages, live: ServerThread) -> None:
    """Facing a bet on the flop while the big blind acts, "Fold to any bet" held: Ann
    folds the moment her turn comes, with no click then (what the big blind does in
    between, call or raise, does not clear it)."""
    page, tid, gate = start_gated(pages, live, "desktop")
    try:
        call_to_the_flop(page, live, tid, gate)
        gate.let_one(live, tid, "the small blind's flop bet")
        arm(page, live, tid, 3, "fold")
        assert page.inner_text("#controls [data-pre=fold]").startswith("Fold to any bet")
        gate.let_one(live, tid, "the big blind's flop call")
        wait_ann(live, tid, 2, "flop")
        assert ann_actions(live, tid) == ["call", "fold"]
    finally:
        gate.open()


@pytest.mark.parametrize(("game", "size"), [("holdem", "desktop"), ("rollem521", "desktop"),
                                            ("rollem521", "phone")])
def test_a_whole_hand_is_played_with_the_keyboard_alone(pages: Pages, live: ServerThread,
                                                       game: str, size: str) -> None:
    """(The phone: a keyboard paired with it, at 390x844.)"""
    with pages.open(size) as page:
        tid, host_token = new_table(live.url, game=game, seats=3, bots=2,
                                    structure="no-limit" if game == "holdem" else "fixed-limit")
        only_checking_bots(live, tid)
        goto_as_host(page, live.url, tid, host_token)
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


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_cleared_pre_action_toast_goes_at_your_next_decision(
        pages: Pages, live: ServerThread, size: str) -> None:
    """Seen on a phone: the toast "A raise came in: your “Check” is cleared." stayed
    over the header and the invite link into Ann's next step (for its 4 s, however
    fast she decided).  Flop: "Check" held, the small blind bets (the toast), the
    big blind calls; Ann calls: the toast is gone once her call is sent."""
    page, tid, gate = start_gated(pages, live, size)
    try:
        call_to_the_flop(page, live, tid, gate)
        arm(page, live, tid, 3, "check")
        record_toasts(page)
        gate.let_one(live, tid, "the small blind's flop bet")
        wait_toast_shown(page, "A raise came in")
        gate.let_one(live, tid, "the big blind's flop call")
        page.wait_for_selector("#controls [data-action=call]")
        shot(page, f"pre-{size}-toast-at-turn")
        page.click("#controls [data-action=call]")
        wait_ann(live, tid, 2, "flop")
        shot(page, f"pre-{size}-toast-gone")
        assert page.locator("#toast.hidden").count() == 1, page.inner_text("#toast")
    finally:
        gate.open()


def test_esc_clears_a_held_pre_action(pages: Pages, live: ServerThread) -> None:
    """Flop, the small blind to act: "Call any" held, then Esc (issue 26: "Esc to
    clear"): no pre-action is held, and when the bet comes and Ann's turn with it,
    nothing is played for her: her buttons ask her, and her fold is her only action
    there (before, only Esc clearing a card pick was tested)."""
    page, tid, gate = start_gated(pages, live, "desktop")
    try:
        call_to_the_flop(page, live, tid, gate)
        arm(page, live, tid, 3, "call-any")
        page.keyboard.press("Escape")
        assert page.locator("#controls [data-pre][aria-pressed=true]").count() == 0
        gate.let_one(live, tid, "the small blind's flop bet")
        gate.let_one(live, tid, "the big blind's flop call")
        page.wait_for_selector("#controls [data-action=call]")
        assert pending(live, tid) == [0]
        # She folds: the only action of hers on the flop (a "Call any" left held
        # would have called the moment her turn came).
        page.click("#controls [data-action=fold]")
        wait_ann(live, tid, 2, "flop")
        assert ann_actions(live, tid) == ["call", "fold"]
    finally:
        gate.open()

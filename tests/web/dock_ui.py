"""Helpers of the decision dock's browser tests (issue 26): computer players held at
a gate between their betting decisions, what the server played for whom, and a
hand played through the page with the keyboard alone."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from table_ui import decision_kind, shot, wait_played
from web_harness import BettingBot, ServerThread

from rollem.engine.actions import Raise


class Gate:
    """Lets the computer players of one table make one betting decision each time the
    test opens it (:meth:`let_one`), and none in between: the seconds a bot used to
    take (``bot_delay``) were the time the page had to hold a pre-action, too short
    on a loaded machine.  A bot waits in the table's bot thread, not on the server's
    event loop; :meth:`open` lets every bot play freely (the test's end).  Their
    other decisions (draws, declarations...) are never held."""

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
    """Make every computer player at ``tid`` a :class:`BettingBot` behind one
    :class:`Gate`, each played when the gate lets it through (``wait_for_think``)."""
    gate = Gate()
    table = live.manager.get(tid)
    table.bot_factory = lambda level: gate.bot()
    # (each plays when let through, not at its due time with the clock's action: stop 56)
    table.turns.computer.wait_for_think = True
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


KEY_FOR = {"bet": "c", "declare": "h", "stack": "k", "wild": "1", "choose": "1"}
"""The key Ann presses at each kind of decision (:func:`table_ui.decision_kind`)
that is not a card choice: check or call, declare high, keep the roll-up order,
the first wild rank or game."""


def play_by_keyboard(live: ServerThread, page: Any, tid: str, label: str,
                     raise_once: bool = False,
                     at_decision: Callable[[str, int], None] | None = None,
                     between: Callable[[], None] | None = None,
                     shots: bool = True) -> list[str]:
    """Play Ann's (seat 0's) decisions of hand 1 with the keyboard alone until the
    result; returns the kinds pressed for ("raise" for the raise).

    ``raise_once``: raise (or bet) by key at her first chance, with the second
    sizing preset where there are presets; every other bet decision checks or calls
    ("c"), card choices take the fewest cards (one at a draw: picked by digits,
    cleared by Esc, picked again, confirmed by Enter).  ``at_decision(kind, n)``:
    called at each of her decisions before the key (``n``: her actions the server
    has played so far); ``between()``: called each time the page asks her nothing
    (default: wait 30 ms); an action it makes the page play for her (a pre-action)
    is counted.  ``shots``: save a screenshot at the first decision of each kind
    (test-artifacts/web/keys-LABEL-KIND.png)."""
    kinds: list[str] = []
    deadline = time.time() + 60
    raised = not raise_once
    while not page.locator("#result:not(.hidden)").count():
        assert time.time() < deadline, f"{label}: the hand did not finish; did {kinds}"
        kind = decision_kind(page)
        if kind is None:
            if between is None:
                page.wait_for_timeout(30)
            else:
                between()
            continue
        made = len(ann_actions(live, tid))
        if at_decision is not None:
            at_decision(kind, made)
        if shots and kind not in kinds:
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
        wait_played(page, live, tid, made + 1, f"{label} {kind}")
    return kinds

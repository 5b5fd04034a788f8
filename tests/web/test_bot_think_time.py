"""A computer player's think time is not seen at the table (stop 55).

A strong bot's think time follows its hidden cards (one kind of action took
0.2 ms with some hands, 20 ms and more with others: docs/dev/hostile.md), and
every state carries the table's clock (``table.now``).  When the bot began to
think only after the table's ``bot_delay``, the moment its action showed was
``bot_delay`` plus that think: a tell on its cards.  It now thinks from the
moment its decision opens and its action is played ``bot_delay`` after that,
whatever the think took within it.

Here the bot thread answers each decision after a virtual think time chosen
per decision (50 ms to 600 ms), on the virtual clock of ``test_table_bots``;
every action of the computer player must be played exactly ``bot_delay``
after its decision opened.
"""

from __future__ import annotations

import concurrent.futures
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from test_table_bots import new_table, passive, virtual_server
from virtual_table import VirtualLoop

from rollem.server import host as host_module
from rollem.server import live_table
from rollem.server.config import ServerSettings
from rollem.server.pacing import Pacing
from rollem.server.protocol import ClientMessage

THINKS = (0.05, 0.6, 0.3, 0.0, 0.45, 0.15)
"""Virtual seconds each decision takes in the bot thread, in turn (all within the delay)."""

DELAY = 0.8


class SlowThinker(concurrent.futures.Executor):
    """A bot thread whose answer comes ``think`` virtual seconds after it was asked."""

    def __init__(self, loop: VirtualLoop) -> None:
        self.loop = loop
        self.thinks = itertools.cycle(THINKS)
        self.asked: list[float] = []

    def submit_for(self, key: object, fn: Callable[..., Any], /, *args: Any,
                   **kwargs: Any) -> concurrent.futures.Future[Any]:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        result = fn(*args, **kwargs)
        self.asked.append(self.loop.time())
        self.loop.call_later(next(self.thinks), fut.set_result, result)
        return fut


def test_a_bots_action_shows_bot_delay_after_its_decision_opened_whatever_it_thought() -> None:
    with virtual_server() as (loop, store):
        saved = live_table._BOT_THREAD
        thinker = SlowThinker(loop)
        live_table._BOT_THREAD = thinker  # type: ignore[assignment]
        try:
            table, people = new_table(loop, store, bots=1, bot_delay=DELAY)
            seen: list[float] = []  # the bot's actions: time played minus time opened
            act = table.turns.act

            def recording(seat: int, action: dict[str, Any], source: str,
                          refused: Any = None) -> None:
                if source == "bot":
                    seen.append(loop.time() - table.turns.decision_opened[seat])
                act(seat, action, source, refused=refused)

            table.turns.act = recording  # type: ignore[method-assign]
            while len(seen) < 12:
                assert loop.now < 1_000_000 + 600, "the computer player stopped acting"
                loop.advance(0.01)
                for client in people:
                    seat = client.seat
                    if table.hand is None or seat not in table.decision_seq:
                        continue
                    legal = table.hand.view(seat)["legal"]
                    action = passive(legal) or table.hand.timeout_action(seat)
                    loop.call(table.handle, client, ClientMessage(
                        "action", table.hand.hand_no, table.seq, {"action": action}))
            loop.call(table.shutdown)
        finally:
            live_table._BOT_THREAD = saved  # type: ignore[assignment]
        # Asked when its decision opened (not after the delay), played DELAY after it,
        # for every think time of THINKS (main: DELAY + the think, 0.85 to 1.4 s).
        assert len(thinker.asked) >= 12
        assert [round(s, 6) for s in seen] == [DELAY] * len(seen)


def test_a_pause_and_resume_loop_does_not_make_the_bot_think_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's pause closes the bot's decision and the resume reopens it under
    the same sequence number: its think is kept, not asked again (a host's
    pause/resume loop must not cost the shared bot thread a think a resume), and
    it is played ``bot_delay`` after the last resume.  (The host's pauses and
    resumes are bounded since stop 58, 10 at once: lifted here for the 60 of the
    loop, which the think, not the bound, is about.)"""
    monkeypatch.setattr(host_module, "CONTROL_BURST", 100)
    with virtual_server() as (loop, store):
        saved = live_table._BOT_THREAD
        thinker = SlowThinker(loop)
        live_table._BOT_THREAD = thinker  # type: ignore[assignment]
        try:
            table, people = new_table(loop, store, bots=1, bot_delay=DELAY)
            host = table.host_client  # type: ignore[attr-defined]
            while 2 not in table.decision_seq:  # (people check or call to the bot's turn)
                assert loop.now < 1_000_000 + 60, "the computer player's turn never came"
                loop.advance(0.01)
                for client in people:
                    if table.hand is not None and client.seat in table.decision_seq:
                        legal = table.hand.view(client.seat)["legal"]
                        loop.call(table.handle, client, ClientMessage(
                            "action", table.hand.hand_no, table.seq,
                            {"action": passive(legal) or table.hand.timeout_action(client.seat)}))
            asked, actions = len(thinker.asked), len(table.hand.hand.actions)
            for _ in range(30):  # (within the delay and long after its think is done)
                loop.call(table.handle, host, ClientMessage("host", None, table.seq,
                                                             {"op": "pause"}))
                loop.advance(0.05)
                loop.call(table.handle, host, ClientMessage("host", None, table.seq,
                                                             {"op": "resume"}))
                resumed = loop.time()
                loop.advance(0.05)
            assert len(table.hand.hand.actions) == actions  # (never played while paused)
            assert len(thinker.asked) == asked  # main: one more think a resume (30)
            played: list[float] = []
            act = table.turns.act

            def recording(seat: int, action: dict[str, Any], source: str,
                          refused: Any = None) -> None:
                played.append(loop.time())
                act(seat, action, source, refused=refused)

            table.turns.act = recording  # type: ignore[method-assign]
            loop.advance(DELAY)
            assert len(table.hand.hand.actions) == actions + 1
            assert table.hand.hand.actions[-1][0] == 2
            assert played == [pytest.approx(resumed + DELAY)]
            loop.call(table.shutdown)
        finally:
            live_table._BOT_THREAD = saved  # type: ignore[assignment]


def test_a_finished_hand_is_not_kept_by_its_computer_players_last_thinks() -> None:
    """Each seat's last think is kept for a pause and resume (its key holds the
    hand); once the hand is over it is released (stop 56): on main the bot's entry
    still held hand 1 after its end, until the bot's next decision."""
    with virtual_server() as (loop, store):
        table, people = new_table(loop, store, bots=1, bot_delay=0.1)
        assert table.hand is not None
        first = table.hand
        thought_in_first = False
        while not first.over:
            assert loop.now < 1_000_000 + 120, "hand 1 never ended"
            loop.advance(0.01)
            thought_in_first |= any(k[1] is first for k, _ in
                                    table.turns.computer._thinking.values())
            for client in people:
                if table.hand is first and client.seat in table.decision_seq:
                    legal = first.view(client.seat)["legal"]
                    loop.call(table.handle, client, ClientMessage(
                        "action", first.hand_no, table.seq,
                        {"action": passive(legal) or first.timeout_action(client.seat)}))
        loop.advance(0.01)
        assert thought_in_first  # (the bot did decide in hand 1)
        held = [k[1] for k, _ in table.turns.computer._thinking.values()]
        assert all(h is not first for h in held), "hand 1 is still held by a bot's think"
        assert table.turns.computer._thinking == {} or table.hand is not first
        loop.call(table.shutdown)


class QueuedThinker(SlowThinker):
    """A bot thread that thinks for each decision, in turn, one of ``thinks``
    virtual seconds, one call at a time (a call waits for those before it, as in
    the real bot thread), each call running from when it starts (not cancellable)."""

    def __init__(self, loop: VirtualLoop, thinks: tuple[float, ...]) -> None:
        super().__init__(loop)
        self.thinks = itertools.cycle(thinks)
        self.free_at = 0.0

    def submit_for(self, key: object, fn: Callable[..., Any], /, *args: Any,
                   **kwargs: Any) -> concurrent.futures.Future[Any]:
        fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
        fut.set_running_or_notify_cancel()
        result = fn(*args, **kwargs)
        now = self.loop.time()
        self.asked.append(now)
        self.free_at = max(self.free_at, now) + next(self.thinks)
        self.loop.call_later(self.free_at - now, fut.set_result, result)
        return fut


def _bot_actions(thinks: tuple[float, ...], delay: float, count: int, pacing: Pacing | None = None
                 ) -> list[tuple[float, dict[str, Any], dict[str, Any]]]:
    """The first ``count`` actions of the computer player of a 3-seat table
    (``bot_delay`` ``delay``; its ``pacing`` if given, else a real server's) whose
    thinks take ``thinks`` in turn: each as (seconds from its decision opening, the
    action, the clock's action at that moment)."""
    with virtual_server() as (loop, store):
        saved = live_table._BOT_THREAD
        live_table._BOT_THREAD = QueuedThinker(loop, thinks)  # type: ignore[assignment]
        try:
            table, people = new_table(loop, store, bots=1, bot_delay=delay)
            if pacing is not None:
                table.pacing = pacing
            seen: list[tuple[float, dict[str, Any], dict[str, Any]]] = []
            act = table.turns.act

            def recording(seat: int, action: dict[str, Any], source: str,
                          refused: Any = None) -> None:
                if seat == 2:
                    assert table.hand is not None
                    seen.append((loop.time() - table.turns.decision_opened[seat], action,
                                 table.hand.timeout_action(seat)))
                act(seat, action, source, refused=refused)

            table.turns.act = recording  # type: ignore[method-assign]
            while len(seen) < count:
                assert loop.now < 1_000_000 + 900, "the computer player stopped acting"
                loop.advance(0.01)
                for client in people:
                    seat = client.seat
                    if table.hand is None or seat not in table.decision_seq:
                        continue
                    legal = table.hand.view(seat)["legal"]
                    action = passive(legal) or table.hand.timeout_action(seat)
                    loop.call(table.handle, client, ClientMessage(
                        "action", table.hand.hand_no, table.seq, {"action": action}))
            loop.advance(5.0)  # (late thinks come back: nothing more is played for them)
            loop.call(table.shutdown)
        finally:
            live_table._BOT_THREAD = saved  # type: ignore[assignment]
        return seen


def test_a_think_past_the_delay_does_not_show_it_plays_the_clocks_action_at_the_delay() -> None:
    """A think longer than ``bot_delay`` (a strong bot's rare 0.4 to 3 s in 5-2-1),
    or one queued behind a long one in the bot thread, is not waited for: the
    action is played at the delay all the same, the clock's action (R-C-15), and
    the late think is dropped (stop 56; main: played when the think ends, 0.9 to
    2.3 s after the opening)."""
    thinks = (1.5, 0.05, 0.3, 2.0, 0.1, 0.9, 0.0)
    seen = _bot_actions(thinks, DELAY, 14)
    assert [round(s, 6) for s, _, _ in seen] == [DELAY] * len(seen)
    # (the first think, 1.5 s, is late: the clock's action; so is the one after it,
    # queued behind it; the third, asked after both ended, is back in time)
    assert seen[0][1] == seen[0][2] and seen[0][1]["kind"] in ("check", "fold")
    assert any(action != clock for _, action, clock in seen)  # (the bot's own, when in time)


def test_bot_delay_zero_still_waits_a_fixed_time_whatever_it_thought() -> None:
    """At ``bot_delay`` 0 (the host's choice: as fast as it can) the action still
    comes a fixed time after the opening, ``SHORTEST_WAIT``, whatever the think
    (main: as soon as thought, 0 to 0.2 s here)."""
    seen = _bot_actions((0.0, 0.05, 0.2, 0.01, 0.12), 0.0, 10)
    assert [round(s, 6) for s, _, _ in seen] == [0.25] * len(seen)  # (SHORTEST_WAIT)


def test_a_real_servers_pacing_is_the_one_these_tests_hold() -> None:
    """Every real server (``rollem serve``, ``create_app`` with default settings)
    and every table made outside one gets the pacing tested above: 0.25 s at the
    least, a late think not waited for (stop 57: the settings that let a test
    server go faster keep these defaults), and an all-in run-out 1 s a round."""
    from rollem.server.pacing import RUNOUT_STEP

    assert ServerSettings().pacing() == Pacing(0.25, False, 1.5, RUNOUT_STEP)
    # (but for the run-out's pause, s61-table2: a table outside a server deals it at once)
    assert Pacing() == Pacing(0.25, False, 1.5, 0.0)
    assert live_table.LiveTable.pacing == Pacing()


def test_a_test_servers_pacing_plays_each_think_when_back_and_no_sooner_than_the_delay() -> None:
    """``bot_waits_for_think`` with no shortest wait (a test server's pacing,
    ``UNLIMITED``; stop 57): at ``bot_delay`` 0 each action is the bot's own,
    played when its think is back (0, 0.05, 0.2, ... s here; a real server's: all
    at 0.25 s), none the clock's for being late; at ``bot_delay`` 0.1 none before
    0.1 s, a longer think when back."""
    fast = Pacing(bot_shortest_wait=0.0, bot_waits_for_think=True, odds_answer_grid=0.01)
    thinks = (0.0, 0.05, 0.2, 0.01, 0.12)
    # (each when its think is back; the thinks are taken in turn by every decision
    # asked, played or not: main, 0.25 s each)
    seen = _bot_actions(thinks, 0.0, 10, fast)
    assert [round(s, 6) for s, _, _ in seen] == [0.0, 0.05, 0.2, 0.01] * 2 + [0.0, 0.05]
    assert any(action != clock for _, action, clock in seen)
    seen = _bot_actions(thinks, 0.1, 10, fast)
    assert [round(s, 6) for s, _, _ in seen] == [0.1, 0.1, 0.2, 0.1] * 2 + [0.1, 0.1]
    # A shortest wait of its own, late thinks not waited for: each at 0.1 s.
    seen = _bot_actions((0.0, 0.3, 0.05), 0.0, 6, Pacing(bot_shortest_wait=0.1))
    assert [round(s, 6) for s, _, _ in seen[:6]] == [0.1] * 6
    assert seen[1][1] == seen[1][2]  # (the 0.3 s think: late, the clock's action)

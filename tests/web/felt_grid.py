"""The felt's browser grid (issue 26): every shipped game at 2, 6 and 10 seats (as
many as the game seats, if fewer) on a phone (390x844) and a desktop (1440x900),
one seeded hand each, played by a person with the keyboard alone against
computer players that act at once (no think delay).

At each of the person's decisions (the table waits for them, so nothing moves)
and at the result: every seat's label is the latest action the server logged for
it (:func:`felt_ui.check_labels`); at each decision the pot figure is the chips
committed in the hand and the hand's name under the person's cards is the
server's (:func:`felt_ui.home_game_labels`); at the result, if the hand went on
to its end with every card dealt, that name is ``rollem eval``'s on the same
cards (:func:`felt_ui.eval_words`).  In the cells of 6 seats the computer
players' bets are held at a gate (:class:`dock_ui.Gate`) and let through one at
a time: the labels, pot and name are also checked after each computer player's
bet that another's follows; and the person holds pre-actions by keyboard (Tab to
the button, Enter): one cleared when a bet or raise comes in, with nothing sent,
and "Call any" played the moment the turn comes and not before
(:class:`PreActions`).

One server and one browser per test file (the ``live`` and ``browser`` fixtures),
one page per size reused from table to table (:func:`grid_pages`); the cells
are split over tests/web/test_felt_grid_*_browser.py so the suite's two workers
(``--dist loadfile``) share them.  Screenshots of the largest table of each
game, at both sizes: test-artifacts/web/grid-SIZE-GAME-SEATS.png.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from dock_ui import Gate, gated_bots, play_by_keyboard
from felt_ui import (
    bet_chips_match,
    check_labels,
    drawn_felt,
    eval_words,
    home_game_labels,
    symbols,
    won_adds_up,
)
from table_ui import (
    assert_decision_fits,
    context,
    new_table,
    record_toasts,
    shot,
    wait_toast_shown,
    wait_until,
)
from web_harness import ServerThread, join, only_betting_bots

from rollem import games
from rollem.server.app import host_cookie, seat_cookie

SIZES = ("phone", "desktop")
SEATS = (2, 6, 10)
PRE_SEATS = 6
"""The cells whose computer players bet behind a gate and where pre-actions are held."""

MUST = {
    "sdr": {"bet", "call"},
    "rollyourown": {"discard", "expose", "draw", "check"},
    "rollem521": {"draw", "stack", "roll", "show"},
    "holdem": {"bet", "call", "blind"},
    "omaha": {"bet", "call", "blind"},
    "omaha8": {"bet", "call", "blind"},
    "stud": {"bet", "call"},
    "stud8": {"bet", "call", "check"},
    "razz": {"bet", "call"},
    "draw5": {"draw", "call"},
    "deuces-wild": {"bet", "call", "draw"},
}
"""Label kinds the cells of each game must have drawn and checked between them
(:func:`every_kind_drawn`; these seeds and players).  The grid's computer players
always bet when nothing is owed, so a "check" label in Omaha, razz and deuces
wild and a bring-in's label in stud hi-lo (still drawn when the person decides)
come from tests/web/test_felt_labels_browser.py, whose players check."""

DRAWN: dict[str, set[str]] = {}
"""Label kinds drawn and checked so far in this process, by game (:func:`play_cell`)."""
PLAYED: dict[str, int] = {}
"""Cells played so far in this process, by game."""


def seat_counts(game: str) -> list[int]:
    """2, 6 and 10, each brought within the game's own bounds (stud seats 7, draw 6)."""
    g = games.get(game)
    return sorted({max(g.min_players, min(g.max_players, n)) for n in SEATS})


def cells(game_ids: Sequence[str]) -> list[tuple[str, int, str]]:
    """The grid's cells for ``game_ids``: (game, seats, size)."""
    return [(g, n, size) for g in game_ids for n in seat_counts(g) for size in SIZES]


def grid_pages(browser: Any) -> Iterator[dict[str, Any]]:
    """One page per size ("phone", "desktop"), kept for a whole test file (a new
    table is opened in the same page).  Reduced motion: labels, pot and names are
    drawn the same (tests/web/test_felt_browser.py), the screenshots show no chips
    in flight, and the page spends less of a two-core machine."""
    ctxs = {size: context(browser, size, reduced_motion="reduce") for size in SIZES}
    try:
        yield {size: ctx.new_page() for size, ctx in ctxs.items()}
    finally:
        for ctx in ctxs.values():
            ctx.close()


class PreActions:
    """Drives a 6-seat cell's gated computer players while the person waits, and
    holds pre-actions by keyboard on the way (``between`` of
    :func:`dock_ui.play_by_keyboard`).  Once: while a computer player that can bet
    or raise is to act, "Check" (nothing owed) or "Call N" is held and that player
    raises: the pre-action is cleared and said so, and nothing is played for the
    person.  Then, once: "Call any" is held; it stays held while the others act
    and is played (a call, or a check when nothing is owed) the moment the
    person's turn comes, with no key pressed then (or, if the round ends without
    that turn, is cleared with nothing played, and is tried again).  Each
    computer player's bet is let through alone (:meth:`_let`)."""

    def __init__(self, page: Any, live: ServerThread, tid: str, gate: Gate, where: str) -> None:
        self.page, self.live, self.tid, self.gate, self.where = page, live, tid, gate, where
        self.cleared = False
        self.fired = False
        self.kinds: set[str] = set()
        """Label kinds checked between the computer players' actions."""
        self.checked = 0
        """Computer players' actions after which the felt was checked."""

    def _session(self) -> Any:
        return self.live.manager.get(self.tid).hand

    def _bot_to_bet(self) -> int | None:
        """The computer player's seat whose betting decision the table waits for, if any."""
        session = self._session()
        if session is None or session.over or session.hand.pending is None:
            return None
        seats = session.pending_seats()
        if session.hand.pending.kind != "bet" or len(seats) != 1 or seats[0] == 0:
            return None
        return int(seats[0])

    def _drawn(self) -> None:
        """Wait until the page has drawn the server's state."""
        wait_until(self.page, "seq => Number(document.body.dataset.seq) >= seq",
                   self.live.manager.get(self.tid).seq)

    def _offered(self) -> list[str]:
        return list(self.page.evaluate(
            "() => [...document.querySelectorAll('#controls [data-pre]')].map(b => b.dataset.pre)"))

    def _hold(self, kind: str) -> None:
        """Hold the pre-action ``kind`` by keyboard: focus its button, press Enter."""
        self.page.focus(f"#controls [data-pre='{kind}']")
        self.page.keyboard.press("Enter")
        pressed = self.page.get_attribute(f"#controls [data-pre='{kind}']", "aria-pressed")
        assert pressed == "true", f"{self.where}: pre-action {kind} not held ({pressed})"

    def _held(self) -> list[str]:
        return list(self.page.evaluate("""() => [...document.querySelectorAll(
          '#controls [data-pre][aria-pressed=true]')].map(b => b.dataset.pre)"""))

    def __call__(self) -> None:
        bot = self._bot_to_bet()
        if bot is None:
            self.page.wait_for_timeout(30)
            return
        self._drawn()
        offered = self._offered()
        if offered and not self.cleared:
            # (neither once the person has acted in the round owing nothing: only
            # "Fold to any bet" and "Call any" then, s72-web)
            held = next((k for k in ("check", "call") if k in offered), None)
            legal = self._session().view(bot)["legal"]["actions"]
            if held is not None and ("raise" in legal or (held == "check" and "bet" in legal)):
                self._clear_by_a_raise(bot, held)
                return
        elif offered and not self.fired:
            self._fire_call_any()
            return
        self._let(bot, self.where)

    def _mine(self) -> list[str]:
        """The kinds of the actions the engine has played for the person (seat 0)."""
        return [type(a).__name__.lower() for seat, a in list(self._session().hand.actions)
                if seat == 0]

    def _let(self, bot: int, where: str) -> None:
        """Let the computer player at ``bot`` make its betting decision, wait until the
        engine has played it (the store is written behind), and if the next decision
        is another computer player's bet (held at the gate: nothing moves), check the
        felt after that action (:func:`felt_ui.home_game_labels`)."""
        session = self._session()
        key = session.decision_key()
        self.gate.permits.release()
        end = time.monotonic() + 20
        while session.decision_key() == key and not session.over:
            assert time.monotonic() < end, f"{where}: seat {bot} never acted"
            time.sleep(0.01)
        after = self._bot_to_bet()
        if after is not None:
            self.checked += 1
            self.kinds |= home_game_labels(
                self.page, self.live, self.tid,
                f"{where}: after seat {bot}'s action, seat {after} to act")

    def _clear_by_a_raise(self, bot: int, held: str) -> None:
        before = self._mine()
        self._hold(held)
        record_toasts(self.page)
        self.gate.raise_next = True
        self._let(bot, f"{self.where}: the raise over a held {held}")
        self.gate.raise_next = False   # (a bet, where nothing was owed: no raise to make)
        last = self._session().hand.actions[-1]
        assert last[0] == bot and type(last[1]).__name__ in ("Bet", "Raise"), \
            f"{self.where}: the computer player played {last}"
        self._drawn()
        assert self._held() == [], f"{self.where}: {held} still held after a raise"
        wait_toast_shown(self.page, "A raise came in")   # (it may be gone again by now)
        assert self._mine() == before, f"{self.where}: a held {held} was played after a raise"
        self.cleared = True

    def _round(self) -> int:
        """Betting rounds opened so far (the page's pre-action lasts one round)."""
        return sum(e.kind == "round" for e in list(self._session().hand.events))

    def _fire_call_any(self) -> None:
        """Hold "Call any" and let the others act: it is played the moment the person's
        turn comes in this round; if the round ends without that turn (the person had
        matched every bet already), nothing is played and it is cleared (the next
        call tries again)."""
        before = len(self._mine())
        opened = self._round()
        self._hold("call-any")
        while len(self._mine()) == before:
            bot = self._bot_to_bet()
            if bot is None or self._round() != opened:
                break
            # (the computer players wait at the gate: nothing moves while this is read)
            assert self._held() == ["call-any"], \
                f"{self.where}: call any not held while seat {bot} acts: {self._held()}"
            self._let(bot, f"{self.where}: with call any held")
        session = self._session()
        turn = (not session.over and session.hand.pending is not None
                and session.hand.pending.kind == "bet" and 0 in session.pending_seats()
                and self._round() == opened)
        if turn or len(self._mine()) > before:
            end = time.monotonic() + 20
            while len(self._mine()) == before:
                assert time.monotonic() < end, f"{self.where}: the held call any was never played"
                time.sleep(0.02)
            got = self._mine()[before:]
            assert got in (["call"], ["check"]), f"{self.where}: call any played {got}"
            self.fired = True
        self._drawn()
        assert self._held() == [], f"{self.where}: call any still held ({self._round()} rounds)"
        assert turn or self.fired or self._mine()[before:] == [], \
            f"{self.where}: call any played after its round {self._mine()[before:]}"


def _others_chosen(live: ServerThread, tid: str, where: str) -> None:
    """At an all-at-once decision (a 5-2-1 stack, a Roll Your Own expose ...), wait
    until every computer player has chosen, so the felt shows their "has chosen"
    labels: they act when their think is back (the test server's pacing,
    ``web_harness.UNLIMITED``; a real server's: ``SHORTEST_WAIT`` after the decision
    opens at ``bot_delay`` 0, stop 56), which may be after the person's turn is drawn."""
    deadline = time.monotonic() + 10
    while True:
        hand = live.manager.get(tid).hand
        pending = hand.hand.pending if hand is not None else None
        if pending is None or not pending.simultaneous or set(pending.seats) <= {0}:
            return
        assert time.monotonic() < deadline, f"{where}: computer players never chose"
        time.sleep(0.05)


def play_cell(pages: dict[str, Any], live: ServerThread, game: str, seats: int,
              size: str) -> list[str]:
    """Play one cell of the grid (a new table of ``game`` with ``seats`` seats, the
    person at seat 0 and computer players in the others) in the page of ``size``,
    checking the felt at each decision and at the result; returns the kinds of
    decision the person made (by key).  The deck is seeded by the caller."""
    where = f"{size} {game} {seats} seats"
    largest = seats == seat_counts(game)[-1]
    page = pages[size]
    tid, host_token = new_table(live.url, game=game, seats=seats, bots=seats - 1, bot_delay=0)
    pre = None
    if seats == PRE_SEATS:
        gate = gated_bots(live, tid)
        pre = PreActions(page, live, tid, gate, where)
    else:
        only_betting_bots(live, tid)
    try:
        # (sat over HTTP: name and Enter at the join form is sit_with_enter's, in
        # tests/web/test_preactions_browser.py and others)
        _, seat_token = join(live.url, tid, "Ann", 0)
        page.context.add_cookies([
            {"name": host_cookie(tid), "value": host_token, "url": live.url},
            {"name": seat_cookie(tid), "value": seat_token, "url": live.url}])
        page.goto(f"{live.url}/t/{tid}")
        page.wait_for_selector(".me .name:has-text('Ann')")
        page.focus("#start-btn")
        page.keyboard.press("Enter")

        seen: list[str] = []
        labels: set[str] = set()

        def at_decision(kind: str, made: int) -> None:
            at = f"{where} decision {made + 1} ({kind})"
            _others_chosen(live, tid, at)
            labels.update(home_game_labels(page, live, tid, at))
            if kind == "bet":
                bet_chips_match(page, live, tid, at)
                assert page.locator("#me .timer").count() == 1, f"{at}: no timer bar on your seat"
            if largest and not seen:   # (the first by key: a pre-action may come before)
                seen.append(kind)
                assert_decision_fits(page, f"{where} first decision")
                shot(page, f"grid-{size}-{game}-{seats}-decision")

        kinds = play_by_keyboard(live, page, tid, where, raise_once=True,
                                 at_decision=at_decision, between=pre, shots=False)
    finally:
        if pre is not None:
            pre.gate.open()
    view, drawn = drawn_felt(page, live, tid)
    assert view["result"], f"{where}: the page shows a result the server has not"
    labels |= check_labels(view, drawn, f"{where} result")
    won_adds_up(page, view, where)
    DRAWN.setdefault(game, set()).update(labels, pre.kinds if pre is not None else ())
    PLAYED[game] = PLAYED.get(game, 0) + 1
    mine = view["seats"][0]
    if not mine.get("folded") and None not in mine["cards"]:
        want = symbols(eval_words(game, view))
        assert drawn["name"] == want, f"{where}: your hand {drawn['name']!r}, rollem eval {want!r}"
    if largest:
        shot(page, f"grid-{size}-{game}-{seats}")
    assert kinds, f"{where}: Ann never decided"
    if pre is not None:
        assert pre.checked, f"{where}: the felt never checked between computer players"
        assert pre.cleared and pre.fired, \
            f"{where}: pre-actions not both checked (cleared {pre.cleared}, fired {pre.fired})"
    return kinds


def every_kind_drawn(game_ids: Sequence[str]) -> None:
    """Each game's cells, all played in this process (else skip: a selection of
    cells), have drawn and checked between them every label kind of :data:`MUST`."""
    import pytest

    short = [g for g in game_ids if PLAYED.get(g, 0) < len(cells([g]))]
    if short:
        pytest.skip(f"not every cell of {short} played in this process")
    missing = {g: sorted(MUST[g] - DRAWN[g]) for g in game_ids if MUST[g] - DRAWN[g]}
    assert not missing, ({g: sorted(DRAWN[g]) for g in game_ids}, missing)

"""A table never freezes (issue 13, fault 2): a state machine over people
joining, leaving (closing the tab), coming back, grace periods ending, clocks
running out, rebuys and server restarts, on a virtual clock.

After any sequence of steps: once the hand in progress is over, a started
table with at least two players with chips (one a connected person) deals
its next hand within its clock (the pause between hands plus the button's
decision clock and time bank); chips are conserved (stacks + carried ==
brought, counting those who left); a dealer's choice never names a seat
that is no longer at the table.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from virtual_table import InlineExecutor, InlineStore, VirtualLoop

from rollem.bots import make_bot
from rollem.engine.randomness import SeededSource
from rollem.server import live_table
from rollem.server.config import parse_config
from rollem.server.game_session import random_wire_action
from rollem.server.live_table import Client, LiveTable


def _pick(items: list[Any], i: int) -> Any:
    return items[i % len(items)]


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="rollem-sm-"))
        self.loop = VirtualLoop()
        # Deterministic: inline computer players, seeded shuffles, game picks and
        # computer players (each its own seeded Random; the table's default made each
        # with a fresh unseeded one).
        self._saved = (live_table._BOT_THREAD, LiveTable.__dict__.get("clock"),
                       live_table.committed_source, live_table.pick_bot_game,
                       LiveTable.__dict__["bot_factory"])
        seeded = random.Random(1)
        bot_seeds = random.Random(2)
        LiveTable.bot_factory = staticmethod(  # type: ignore[assignment]
            lambda level: make_bot(level, random.Random(bot_seeds.getrandbits(64))))
        live_table._BOT_THREAD = InlineExecutor()  # type: ignore[assignment]
        LiveTable.clock = staticmethod(self.loop.time)  # type: ignore[assignment]
        # (people here send no client seed: the committed deal needs no wait, issue 32)
        self._seed_wait, LiveTable.CLIENT_SEED_WAIT = LiveTable.CLIENT_SEED_WAIT, 0.0
        live_table.committed_source = lambda proof: SeededSource(seeded)  # type: ignore[assignment,misc]
        live_table.pick_bot_game = lambda games, _proof: sorted(games)[0]
        self.store = InlineStore(self.dir / "t.db")
        self.tokens: dict[int, str] = {}      # seat -> the person's token
        self.clients: dict[int, Client] = {}  # seat -> its open connection
        self.host: Client | None = None
        self.rng = random.Random(0)
        self.names = 0

    def teardown(self) -> None:
        try:
            if hasattr(self, "table"):
                self.loop.call(self.table.shutdown)
            self.store.close()
            self.loop.close()
        finally:
            (live_table._BOT_THREAD, LiveTable.clock, live_table.committed_source,
             live_table.pick_bot_game, LiveTable.bot_factory) = self._saved  # type: ignore[assignment]
            LiveTable.CLIENT_SEED_WAIT = self._seed_wait
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- helpers --------------------------------------------------------------

    def _drain(self) -> None:
        for client in self.table.all_clients():
            client._pending.clear()

    def _step(self, fn: Any, *args: Any) -> Any:
        out = self.loop.call(fn, *args)
        self._drain()
        return out

    def _advance(self, seconds: float) -> None:
        self.loop.advance(seconds)
        self._drain()

    def _connect(self, seat: int) -> None:
        client = Client(self.table.seat_for_token(self.tokens[seat]))
        self.clients[seat] = client
        self._step(self.table.connect, client)

    def _forget_freed(self) -> None:
        for seat, token in list(self.tokens.items()):
            if self.table.seat_for_token(token) != seat:
                del self.tokens[seat]
                self.clients.pop(seat, None)

    # -- rules ---------------------------------------------------------------------

    @initialize(
        game=st.sampled_from(["dealers-choice", "dealers-choice", "sdr"]),
        bots=st.integers(0, 2),
        bank=st.sampled_from([0.0, 1.0]),
        grace=st.sampled_from([0.5, 1.5, 5.0]),
        rebuys=st.booleans(),
    )
    def create(self, game: str, bots: int, bank: float, grace: float, rebuys: bool) -> None:
        self.config = parse_config({
            "game": game, "seats": 5, "bots": bots, "stack": 4, "ante": 1, "small_bet": 2,
            "big_bet": 4, "decision_seconds": 1.0, "time_bank_seconds": bank,
            "grace_seconds": grace, "between_hands": 0.5, "bot_delay": 0.0,
            "rebuys": rebuys, "bot_level": "random",
        })
        self.table, host_token = self.loop.call(LiveTable.create, self.store, self.config)
        self.host_token = host_token
        self.host = Client(None, True)
        self._step(self.table.connect, self.host)

    @rule()
    def join(self) -> None:
        if not self.table.seating.free_seats():
            return
        self.names += 1
        seat, token = self._step(self.table.join, f"P{self.names}", None)
        self.tokens[seat] = token
        self._connect(seat)

    @precondition(lambda self: not self.table.session.get("started"))
    @rule()
    def start(self) -> None:
        assert self.host is not None
        msg = live_table.ClientMessage("start", None, self.table.seq, {})
        self._step(self.table.handle, self.host, msg)

    @rule(i=st.integers(0, 9))
    def leave(self, i: int) -> None:
        """A person closes the tab (the grace period starts)."""
        if not self.clients:
            return
        seat = _pick(sorted(self.clients), i)
        client = self.clients.pop(seat)
        self._step(self.table.disconnect, client)

    @rule(choice=st.booleans())
    def until_a_table_decision(self, choice: bool) -> None:
        """Time passes until the table waits between hands (or on the button naming
        the game), the moments a seat leaving used to freeze it."""
        for _ in range(60):
            if self.table.session.get("choice") or (not choice and self.table.hand is None):
                break
            self._advance(0.25)
        self._forget_freed()

    @rule()
    def the_decider_leaves(self) -> None:
        """The person who must decide now (name the game, act) closes the tab."""
        deciding = sorted(s for s in self.table.decision_seq if s in self.clients)
        if deciding:
            self._step(self.table.disconnect, self.clients.pop(deciding[0]))

    @rule(i=st.integers(0, 9))
    def come_back(self, i: int) -> None:
        self._forget_freed()
        away = sorted(set(self.tokens) - set(self.clients))
        if not away:
            return
        self._connect(_pick(away, i))

    @rule(i=st.integers(0, 9), j=st.integers(0, 9))
    def act(self, i: int, j: int) -> None:
        """A connected person makes their decision (names the game, or acts)."""
        table = self.table
        mine = sorted(s for s in table.decision_seq if s in self.clients)
        if not mine:
            return
        seat = _pick(mine, i)
        choice = table.session.get("choice")
        if choice:
            game = _pick(sorted(choice["games"]), j)
            msg = live_table.ClientMessage("choose_game", int(choice["hand"]), table.seq,
                                           {"game": game})
        else:
            assert table.hand is not None
            view = table.hand.view(seat)
            action = random_wire_action(view["legal"], self.rng)
            msg = live_table.ClientMessage("action", table.hand.hand_no, table.seq,
                                           {"action": action})
        self._step(table.handle, self.clients[seat], msg)

    @rule(i=st.integers(0, 9))
    def rebuy(self, i: int) -> None:
        broke = sorted(s for s in self.clients if s in self.table.seats
                       and self.table.seats[s].row.stack == 0)
        if not broke:
            return
        seat = _pick(broke, i)
        msg = live_table.ClientMessage("rebuy", None, self.table.seq, {})
        self._step(self.table.handle, self.clients[seat], msg)

    @rule(seconds=st.sampled_from([0.05, 0.5, 1.0, 1.6, 2.5, 6.0]))
    def wait(self, seconds: float) -> None:
        """Time passes: clocks, time banks and grace periods run out; then the
        table must deal on (:meth:`deals_within_its_clock`)."""
        self._advance(seconds)
        self._forget_freed()
        self.deals_within_its_clock()

    @rule()
    def restart(self) -> None:
        """The server stops (every connection drops) and starts again."""
        self.loop.run_until_complete(self.table.wait_committed())
        self.loop.call(self.table.shutdown)
        self.table = self.loop.call(LiveTable.restore, self.store, self.table.id)
        self.loop.call(self.table.resume)
        # The browsers that were open reconnect.
        connected = sorted(self.clients)
        self.clients.clear()
        self._forget_freed()
        for seat in connected:
            if seat in self.tokens:
                self._connect(seat)
        self.host = Client(None, True)
        self._step(self.table.connect, self.host)

    def deals_within_its_clock(self) -> None:
        """Let the hand in progress end (the clock plays it out), then the next hand is
        dealt within the pause plus one decision clock whenever it can be."""
        table = self.table
        for _ in range(400):
            if table.hand is None:
                break
            self._advance(0.5)
        assert table.hand is None, "the hand in progress never ended"
        self._forget_freed()
        config = self.config
        # (people the clock made away sit out until they say they are back: issue 27)
        people = [s for s in self.clients if s in table.seats
                  and table.seats[s].row.stack > 0
                  and s not in table.session.get("idle_away", [])]
        bots = [s for s, seat in table.seats.items() if seat.row.bot is not None
                and (seat.row.stack > 0 or config.rebuys)]
        if not table.session.get("started") or not people or len(people) + len(bots) < 2:
            return
        before = int(table.session["hand_no"])
        self._advance(config.between_hands + config.decision_seconds
                      + config.time_bank_seconds + 0.5)
        dealt = int(table.session["hand_no"])
        assert dealt > before, (
            f"no hand dealt: players {people} + bots {bots}, session {table.session}")

    # -- invariants ------------------------------------------------------------------

    @invariant()
    def chips_conserved(self) -> None:
        if not hasattr(self, "table") or self.table.hand is not None:
            return
        table = self.table
        departed = table.session.get("departed", [])
        held = sum(s.row.stack for s in table.seats.values()) + sum(d["stack"] for d in departed)
        brought = (sum(s.row.brought for s in table.seats.values())
                   + sum(d["brought"] for d in departed))
        assert held + int(table.session.get("carried", 0)) == brought

    @invariant()
    def choice_names_a_seated_button(self) -> None:
        if not hasattr(self, "table"):
            return
        choice = self.table.session.get("choice")
        if choice:
            assert int(choice["seat"]) in self.table.seats, choice


TableMachine.TestCase.settings = settings(
    max_examples=20, stateful_step_count=30, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_a_table_never_freezes = TableMachine.TestCase


def test_the_button_leaves_while_naming_the_game() -> None:
    """The reported freeze: grace (0.5 s) shorter than clock + bank (2 s); the
    button closes the tab while naming the game; its grace ends, then its clock;
    the table must deal on (and after a restart too)."""
    m = TableMachine()
    try:
        m.create(game="dealers-choice", bots=1, bank=1.0, grace=0.5, rebuys=True)
        for _ in range(3):
            m.join()
        m.start()
        for _ in range(20):
            if m.table.session.get("choice"):
                break
            m.wait(0.5)
        choice = m.table.session["choice"]
        assert choice is not None and choice["seat"] in m.clients
        m.leave(sorted(m.clients).index(choice["seat"]))
        m.wait(0.6)  # the grace is over: the seat is freed, the clock names the game
        assert choice["seat"] not in m.table.seats
        m.deals_within_its_clock()
        m.restart()
        m.deals_within_its_clock()
        m.chips_conserved()
    finally:
        m.teardown()

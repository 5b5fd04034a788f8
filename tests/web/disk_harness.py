"""Helpers for the failing-disk tests (issue 19): a store whose writes fail on
demand, tables played in this process by recording clients, and a check that
everything told to a client is in the store."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from web_harness import TEST_PACING

from rollem.server.config import parse_config
from rollem.server.game_session import GameSession, random_wire_action
from rollem.server.live_table import Client, LiveTable
from rollem.server.protocol import ClientMessage
from rollem.server.store import EarlierWriteFailed, Statement, Store

Rule = Callable[[list[Statement]], bool]


def result_write(statements: list[Statement]) -> bool:
    return any(sql.startswith("UPDATE hands SET result") for sql, _ in statements)


def action_write(statements: list[Statement]) -> bool:
    return any(sql.startswith("INSERT INTO actions") for sql, _ in statements)


def any_write(statements: list[Statement]) -> bool:
    return True


def of_table(table_id: str, rule: Rule) -> Rule:
    """``rule``, for the writes of one table only."""
    return lambda st: rule(st) and any(table_id in args for _sql, args in st)


def once(rule: Rule) -> Rule:
    """``rule`` for the first write it matches, then never again."""
    fired = [False]

    def check(statements: list[Statement]) -> bool:
        if fired[0] or not rule(statements):
            return False
        fired[0] = True
        return True

    return check


class FaultyStore(Store):
    """A real SQLite store whose writes fail on demand, as on a full disk.

    ``rule`` (set from any thread): the writes it matches fail inside their
    savepoint with SQLite's own "database or disk is full"; ``fail_commit``:
    every group's COMMIT fails ("disk I/O error"); ``commit_delay``: seconds
    each commit takes.  :meth:`hold` stops the writer before its next group
    (writes queue up behind it) until :meth:`release`.
    """

    def __init__(self, path: str | Path) -> None:
        self.rule: Rule | None = None
        self.fail_commit = False
        self.commit_delay = 0.0
        self.failed_writes = 0
        self.failed_commits = 0
        self.integrity_errors = 0
        self.untried = 0  # writes failed with EarlierWriteFailed
        self._gate = threading.Condition()
        self._let_through: int | None = None  # while held: groups still let through
        self.holding = threading.Event()  # set while the writer waits at the gate
        self.held = 0  # the size of the group it holds there
        super().__init__(path)

    def hold(self) -> None:
        """Stop the writer before the next group it takes, until :meth:`release`."""
        with self._gate:
            self._let_through = 0

    def release(self, groups: int | None = None) -> None:
        """Let the writer go on (``groups``: that many groups, then hold again)."""
        with self._gate:
            if groups is None or self._let_through is None:
                self._let_through = None
            else:
                self._let_through += groups
            self._gate.notify_all()

    def close(self) -> None:
        self.release()
        super().close()

    def queued(self) -> int:
        """Writes waiting for the writer, the group it holds included."""
        return self._queue.qsize() + (self.held if self.holding.is_set() else 0)

    def _apply(self, cur: sqlite3.Cursor, statements: list[Statement]) -> None:
        rule = self.rule
        if rule is not None and rule(statements):
            self.failed_writes += 1
            raise sqlite3.OperationalError("database or disk is full")
        try:
            super()._apply(cur, statements)
        except sqlite3.IntegrityError:
            self.integrity_errors += 1
            raise

    def _commit(self, cur: sqlite3.Cursor) -> None:
        if self.commit_delay:
            time.sleep(self.commit_delay)
        if self.fail_commit:
            self.failed_commits += 1
            raise sqlite3.OperationalError("disk I/O error")
        super()._commit(cur)

    def _commit_group(self, group: list[tuple[list[Statement], Future[None], Any]]) -> None:
        with self._gate:
            if self._let_through == 0:
                self.held = len(group)
                self.holding.set()
                self._gate.wait_for(lambda: self._let_through != 0)
                self.holding.clear()
            if self._let_through is not None:
                self._let_through -= 1
        super()._commit_group(group)

    def _enqueue(self, statements: list[Statement], stream: Any) -> Future[None]:
        fut = super()._enqueue(statements, stream)
        fut.add_done_callback(self._count_untried)  # runs before the table hears
        return fut

    def _count_untried(self, fut: Future[None]) -> None:
        if isinstance(fut.exception(), EarlierWriteFailed):
            self.untried += 1


class Recorder(Client):
    """A client that records every message and plays its seat's decisions."""

    def __init__(self, play: TablePlay, seat: int | None, is_host: bool = False,
                 seed: int = 0) -> None:
        super().__init__(seat, is_host)
        self.play = play
        self.told: list[tuple[float, dict[str, Any]]] = []
        self.latest: dict[str, Any] | None = None
        self.rng = random.Random(seed)
        self.passive = False  # while True the player leaves its decisions open
        self.seeded: set[int] = set()  # hands whose client seed it sent (issue 32)

    def send(self, text: str) -> None:
        if self.closed:
            return
        msg = json.loads(text)
        self.told.append((time.monotonic(), msg))
        if msg["type"] != "state":
            return
        committed = self.play.committed_seq()
        if msg["seq"] > committed:
            self.play.violations.append(
                f"seat {self.seat} told seq {msg['seq']}; committed: {committed}")
        self.latest = msg
        if self.seat is not None:
            asyncio.get_running_loop().call_later(0.002, self._maybe_act, msg)
            deal = msg["table"].get("deal")
            if deal and self.seat in deal["players"] and deal["hand"] not in self.seeded:
                self.seeded.add(deal["hand"])  # its seed, as the page sends it (issue 32)
                asyncio.get_running_loop().call_later(0.002, self._send_seed, deal["hand"])

    def _send_seed(self, hand_no: int) -> None:
        if self.closed or self.play.table.closed:
            return
        body = {"type": "client_seed", "hand": hand_no, "seed": f"seat{self.seat}"}
        self.play.table.handle(self, ClientMessage("client_seed", hand_no, None, body))

    def states(self) -> list[dict[str, Any]]:
        return [m for _t, m in self.told if m["type"] == "state"]

    def _maybe_act(self, msg: dict[str, Any]) -> None:
        if self.closed or self.passive or self.latest is not msg or self.play.table.closed:
            return
        hand = msg["hand"]
        if (msg["you"]["decision_seq"] is None or not hand or hand.get("result")
                or not hand.get("legal") or not hand["legal"]["actions"]):
            return
        legal = hand["legal"]
        if self.rng.random() < 0.6 and ("check" in legal["actions"] or "call" in legal["actions"]):
            action = {"kind": "check" if "check" in legal["actions"] else "call"}
        else:
            action = random_wire_action(legal, self.rng)
        body = {"type": "action", "hand": hand["hand_no"], "seq": msg["seq"], "action": action}
        self.play.table.handle(self, ClientMessage("action", hand["hand_no"], msg["seq"], body))


class TablePlay:
    """One table of two people (recording clients that play), computer players
    and a watcher, in this process on the running event loop; its computer players
    act as a test server's do, as soon as they have thought (``TEST_PACING``)."""

    def __init__(self, store: Store, **config: Any) -> None:
        settings = {"game": "rollem521", "seats": 4, "bots": 2, "bot_delay": 0,
                    "between_hands": 0.1, "decision_seconds": 60, "stack": 2000, **config}
        self.store = store
        self.table, _host = LiveTable.create(store, parse_config(settings))
        self.table.pacing = TEST_PACING
        self.id = self.table.id
        self.reader = sqlite3.connect(store.path, isolation_level=None)
        self.violations: list[str] = []
        self.clients: list[Recorder] = []

    async def start(self) -> None:
        table = self.table
        seat_a, _ta = table.join("Ann", None)
        seat_b, _tb = table.join("Bob", None)
        await table.wait_committed()
        self.clients = [Recorder(self, seat_a, True, seed=1), Recorder(self, seat_b, seed=2),
                        Recorder(self, None)]
        for client in self.clients:
            table.connect(client)
        host = self.clients[0]
        table.handle(host, ClientMessage("start", None, table.seq, {"type": "start"}))

    def committed_seq(self) -> int:
        row = self.reader.execute("SELECT session FROM tables WHERE id=?", (self.id,)).fetchone()
        return int(json.loads(row[0]).get("seq", 0))

    async def deal(self, hands: int = 1) -> None:
        """Start the table; return once hand ``hands`` has been told."""
        await self.start()
        await until(lambda: self.told_hand() >= hands, 20, f"hand {hands} dealt")

    async def resumes(self, hands: int = 1) -> None:
        """Return once play has resumed (told unpaused) and ``hands`` more hands are told."""
        hand_then = self.table.session["hand_no"]
        await until(lambda: self.clients[0].states()[-1]["table"]["paused"] is None, 30,
                    "play resumes")  # (limits, not timings: a loaded machine is slow)
        await until(lambda: self.told_hand() >= hand_then + hands, 60,
                    f"{hands} more hand(s) dealt")

    def paused_states(self) -> list[dict[str, Any]]:
        """The states told to the first player while the table was paused."""
        return [st for st in self.clients[0].states() if st["table"]["paused"]]

    def settled(self) -> bool:
        """Only people's decisions are open, every write is committed and every
        client has been told the latest state."""
        table = self.table
        pending = table.saving.pending
        return (table.hand is not None and bool(table.decision_seq)
                and all(table.seats[s].row.bot is None for s in table.decision_seq)
                and (pending is None or pending.done())
                and all(c.latest is not None and c.latest["seq"] == table.seq
                        for c in self.clients))

    def told_hand(self) -> int:
        """The highest hand number told to the first player."""
        return max((m["table"]["hand_no"] or 0 for m in self.clients[0].states()), default=0)

    def close(self) -> None:
        self.table.shutdown()
        self.reader.close()


def play_out(run: Callable[[], Coroutine[Any, Any, None]], store: Store,
             *plays: TablePlay) -> None:
    """Run ``run()`` in a new event loop, then close the tables and the store."""
    try:
        asyncio.run(run())
    finally:
        for play in plays:
            play.close()
        store.close()


async def until(pred: Callable[[], bool], timeout: float, what: str) -> float:
    """Wait (polling) until ``pred()``; returns the seconds it took."""
    start = time.monotonic()
    while not pred():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.01)
    return time.monotonic() - start


def verify_told(store_path: str | Path, plays: list[TablePlay]) -> int:
    """Check everything each client was told against the store (after it closed).

    Every state told must be a moment of the committed history: a seq no later
    than the one committed when it was sent (checked as it was sent), a hand
    view equal to the committed hand replayed to some number of its actions,
    a shown result only if the result is committed, a last result equal to the
    committed one, and a ledger where stacks + carried = brought.  The store:
    each hand's actions numbered 0..n-1 and replaying, and its own ledger
    balanced.  Returns the number of states checked.
    """
    store = Store(store_path)
    try:
        return sum(_verify_play(store, play) for play in plays)
    finally:
        store.close()


def _verify_play(store: Store, play: TablePlay) -> int:
    assert play.violations == [], play.violations[:5]
    views: dict[tuple[int, int | None], set[str]] = {}
    hands: dict[int, Any] = {}

    def hand(no: int) -> Any:
        if no not in hands:
            row = store.load_hand(play.id, no)
            assert row is not None, f"hand {no} was told but is not in the store"
            hands[no] = (row, store.load_actions(play.id, no))
        return hands[no]

    def prefix_views(no: int, viewer: int | None) -> set[str]:
        key = (no, viewer)
        if key not in views:
            row, actions = hand(no)
            views[key] = {
                json.dumps({k: v for k, v in GameSession.restore(
                    no, row.setup, actions[:m]).view(viewer).items()
                    if k not in ("log", "last_actions", "hand_name")}, sort_keys=True)
                for m in range(len(actions) + 1)
            }
        return views[key]

    checked = 0
    for client in play.clients:
        for st in client.states():
            checked += 1
            t = st["table"]
            last = t["last_result"]
            carried = last.get("carried", 0) if last else 0
            ledger = t["ledger"]
            assert (sum(line["stack"] for line in ledger) + carried
                    == sum(line["brought"] for line in ledger)), (ledger, last)
            if last is not None:
                row, _ = hand(last["hand"])
                assert row.result is not None, f"hand {last['hand']}'s unsaved result was told"
                assert {"hand": row.hand_no, "game": row.setup["game"], **row.result} == last
            if st["hand"] is not None:
                no = st["hand"]["hand_no"]
                # The narration is words derived from the view (with the players' names).
                # (so are the felt's words: log, last_actions, hand_name; issue 26),
                # and the names of the players dealt in are the stored hand's own
                words = ("narration", "log", "last_actions", "hand_name", "names")
                row_of_hand = hand(no)[0]
                dealt = set(row_of_hand.setup["seats"])
                assert st["hand"]["names"] == [
                    name if n in dealt else None
                    for n, name in enumerate(row_of_hand.setup["names"])], (
                    f"seat {client.seat} was told names of hand {no} not its stored ones")
                told = json.dumps({k: v for k, v in st["hand"].items() if k not in words},
                                  sort_keys=True)
                assert told in prefix_views(no, client.seat), (
                    f"seat {client.seat} was told a moment of hand {no} that is not in the store")
                if st["hand"]["result"] is not None:
                    assert hand(no)[0].result is not None
    for no in store.hand_numbers(play.id):
        row, actions = hand(no)
        assert [a.idx for a in actions] == list(range(len(actions)))
        replayed = GameSession.restore(no, row.setup, actions)
        if row.result is not None:
            assert replayed.over and replayed.result() == row.result
    table = store.load_table(play.id)
    assert table is not None
    seats = store.load_seats(play.id)
    session = table.session
    departed = session.get("departed", [])
    if session.get("in_hand"):
        carried = int(hand(session["hand_no"])[0].setup.get("carry_in", 0))
    else:
        carried = int(session.get("carried", 0))
    assert (sum(s.stack for s in seats) + sum(d["stack"] for d in departed) + carried
            == sum(s.brought for s in seats) + sum(d["brought"] for d in departed))
    return checked


def saving_log_lines(records: list[Any]) -> tuple[int, int]:
    """(pause lines, resume lines) among captured log records."""
    text = [r.getMessage() for r in records]
    return (sum("saving failed" in t for t in text), sum("saving works again" in t for t in text))

"""Helpers for the web-table tests: a real server (thread or process) and
websocket clients that record every message they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from rollem.bots.basic import BasicBot
from rollem.engine.actions import Bet, Call, Check
from rollem.server.app import create_app, host_cookie, seat_cookie
from rollem.server.config import ServerSettings
from rollem.server.conn_guard import quiet_denials
from rollem.server.game_session import random_wire_action

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


UNLIMITED = ServerSettings(
    messages_per_second=100_000, message_burst=100_000, connections_per_address=100_000,
    connects_per_minute=1e9, connect_burst=100_000, joins_per_minute=1e9, join_burst=100_000,
    connections_per_table=100_000, tables_per_address_per_hour=100_000, seats_per_address=100_000,
    costly_requests_per_minute=1e9, costly_burst=100_000, shortest_decision=0.05,
    hand_seconds=0, unattended_hand_seconds=0, unattended_seconds=1e9,
    bot_shortest_wait=0.0, bot_waits_for_think=True, odds_answer_grid=0.01,
    runout_step=0.0)
"""A test server's limits: none in practice, unless a test gives its own (clients
that act the instant they may, from one address, would hit the real ones); decision
clocks as short as 0.05 s, for the tests of timeouts; no floor on the time per hand
nor stop of tables no person plays (the storage limits are the real ones).  Its
computer players act as soon as they have thought (``bot_delay`` after their turn
opens at the least; no 0.25 s shortest wait, no clock's action for a late think) and
its practice-odds answers leave on a 0.01 s grid, not 1.5 s (stop 57: the real
pacing took the whole suite from 11 to 21 minutes; docs/dev/test-suite-time.md);
an all-in run-out comes at once (``runout_step`` 0, s61-table2).
The tests of that timing run on the real values: test_bot_think_time.py and
test_odds_reply_side_channel.py (a table's default ``pacing``), the run-out's
test_s61_runout_browser.py, and
:data:`REAL_PACING` for a test server."""

REAL_PACING = {name: getattr(ServerSettings(), name)
               for name in ("bot_shortest_wait", "bot_waits_for_think", "odds_answer_grid",
                           "runout_step")}
"""A real server's pacing settings (:class:`ServerSettings`' defaults), for a test
server whose test is about them: ``dataclasses.replace(UNLIMITED, **REAL_PACING)``."""

TEST_PACING = UNLIMITED.pacing()
""":data:`UNLIMITED`'s pacing, for a table a test makes outside a server
(``table.pacing``)."""


def seeded_deals(monkeypatch: Any, seed: int) -> None:
    """Every hand a server of this process deals while ``monkeypatch`` (pytest's
    fixture) lasts is shuffled by ``SeededSource(seed)`` instead of the committed
    deck (R-C-13 allows a seeded source for tests; such a hand has no commitment
    to verify): each hand the same deck order, so a test that needs a kind of
    deal (a winner, not a split) gets it every run."""
    from rollem.engine.randomness import SeededSource
    from rollem.server import game_session, live_table

    monkeypatch.setattr(game_session, "SecureSource", lambda: SeededSource(seed))
    monkeypatch.setattr(live_table, "committed_source", lambda proof: SeededSource(seed))


class BettingBot(BasicBot):
    """A computer player that bets the least it may whenever nothing is owed, else
    calls (never raises or folds), and plays every other decision as ``basic``:
    the people it plays always face a bet, whatever the deal."""

    def _bet(self, view: Any, legal: Any) -> object:
        if "bet" in legal.actions:
            return Bet(legal.min_to)
        return Call() if "call" in legal.actions else Check()


def only_betting_bots(server: Any, tid: str) -> None:
    """Make every computer player at table ``tid`` of ``server`` (a :class:`ServerThread`)
    a seeded :class:`BettingBot` (before the first deal: the table makes its bots when
    first asked)."""
    server.manager.get(tid).bot_factory = lambda level: BettingBot(random.Random(0))


def decision_clock_on(server: Any, tid: str, seat: int, seconds: float) -> None:
    """Move the clock of ``seat``'s open decision at table ``tid`` of ``server`` (a
    :class:`ServerThread`) on by ``seconds``, as if they had passed, on the server's
    loop: a test of what the decision clock and the time bank do need not wait them out
    in real time (stop 61; the level clock's the same way: ``table_ui.level_clock_to``).
    The decision's opening moves back and its timer is set again from it, so when it
    acts, and what the bank has left (``Turns._settle_bank``), are still worked out
    from its clock as when the time runs out.  No decision open for ``seat``: nothing."""

    def move() -> None:
        turns = server.manager.get(tid).turns
        if seat in turns.decision_opened:
            turns.decision_opened[seat] -= seconds
            turns.rearm(seat)

    server.call(move)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def wait_served(port: int, timeout: float = 90.0) -> None:
    """Wait until ``rollem serve`` on ``port`` answers HTTP: it listens from the
    start but serves only after its warm-up and its practice-odds workers (several
    seconds on a loaded machine), longer than a client's usual 5 s timeout."""
    end = time.time() + timeout
    wait_port(port, timeout)
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=max(0.1, end - time.time()))
            return
        except httpx.TransportError:
            if time.time() >= end:
                raise TimeoutError(f"rollem serve on port {port} did not answer") from None
            time.sleep(0.05)


class _PromptServer(uvicorn.Server):
    """uvicorn's server, stopped without its fixed waits: its main loop sleeps 0.1 s
    between looks at ``should_exit`` (here it also wakes when :meth:`wake` is called),
    and its shutdown waits 0.1 s after telling the open connections to close, even
    when there are none (here only when there are some). The tests stop some 200
    servers a run, each of them about 0.15 s sooner (docs/dev/test-suite-time.md,
    stop 48); what a shutdown does is otherwise uvicorn's own."""

    _woken: asyncio.Event | None = None
    _loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    def wake(self) -> None:
        """Have the main loop look at ``should_exit`` now (from any thread)."""
        loop, woken = self._loop, self._woken
        if loop is not None and woken is not None:
            with contextlib.suppress(RuntimeError):  # (its loop already closed)
                loop.call_soon_threadsafe(woken.set)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        if self.server_state.connections or not hasattr(self, "_wait_tasks_to_complete"):
            await super().shutdown(sockets)  # (or a uvicorn laid out otherwise: its own)
            return
        # uvicorn's shutdown with no connection open, less its sleep(0.1) for them
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        try:
            async with asyncio.timeout(self.config.timeout_graceful_shutdown):
                await self._wait_tasks_to_complete()
        except TimeoutError:
            for t in self.server_state.tasks:
                t.cancel(msg="Task cancelled, timeout graceful shutdown exceeded")
        if not self.force_exit:
            await self.lifespan.shutdown()


class ServerThread:
    """``rollem serve``'s app under uvicorn in a thread of this process."""

    def __init__(self, db: Path, settings: ServerSettings | None = None) -> None:
        self.port = free_port()
        self.app = create_app(db, settings or UNLIMITED)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=65536, lifespan="on",
                                ws=quiet_denials(),  # as rollem serve (issue 34)
                                proxy_headers=False)  # as rollem serve: the app's own
        self.server = _PromptServer(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        # uvicorn sets ``started`` once it listens: looked at every 5 ms (a port
        # polled every 50 ms, then ``started`` every 20, waited some 0.05 s a server)
        end = time.monotonic() + 20.0
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise TimeoutError(f"the test server on port {self.port} did not start")
            time.sleep(0.005)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def call(self, fn: Any, *args: Any) -> Any:
        """Run ``fn(*args)`` on the server's event loop and return its result."""
        loop = self.server_loop()
        fut = asyncio.run_coroutine_threadsafe(_call(fn, *args), loop)
        return fut.result(10)

    def server_loop(self) -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop = self.app.state.loop
        return loop

    def stop(self) -> None:
        self.server.should_exit = True
        self.server.wake()
        self.thread.join(15)


async def _call(fn: Any, *args: Any) -> Any:
    return fn(*args)


QUICK_RUNOUTS = ("import runpy, rollem.server.pacing as pacing; pacing.RUNOUT_MOST = 0.0; "
                 "runpy.run_module('rollem', run_name='__main__', alter_sys=True)")
"""``python -c`` for ``rollem serve`` (its arguments after it) whose all-in run-outs
go round by round without pauses: :data:`rollem.server.pacing.RUNOUT_MOST` 0 caps
each pause at 0 s (``Pacing.runout_pause``); the rounds are still staged, stored
and sent one by one as on a real server."""


class ServerProcess:
    """``rollem serve`` as a child process (to be killed hard).

    ``numba``: the practice odds' compiled loops as in production; without it (the
    default) the child runs with ``ROLLEM_NO_NUMBA`` set, the odds on their numpy
    paths (the same figures, rollem.odds.compiled): its practice-odds workers' fork
    server, which ``rollem serve`` waits for before serving, then neither imports
    numba nor loads its cache, about a second of each start's 3-4 (stop 60). No test
    of this class asks for odds.

    ``paced_runouts``: False: an all-in run-out's rounds go out one after the other
    without the real server's pause between them (:data:`QUICK_RUNOUTS`; the pauses
    are up to 5 s a run-out, a run it twice's included), for a test about something
    else; True (the default): as ``rollem serve`` paces them.

    ``hand_floors``: False: ``--hand-seconds 0 --unattended-hand-seconds 0``, no
    floor on the time from one deal to the next (as :class:`ServerThread`'s
    ``UNLIMITED``), for a test about something else: on a real server a hand nobody
    played (folded out) holds the next deal 5 s from its own (1 s a hand played),
    even past the host's Deal now; True (the default): the real server's floors."""

    def __init__(self, db: Path, port: int | None = None, numba: bool = False,
                 paced_runouts: bool = True, hand_floors: bool = True) -> None:
        self.port = port or free_port()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if not numba:
            env["ROLLEM_NO_NUMBA"] = "1"
        run = ["-m", "rollem"] if paced_runouts else ["-c", QUICK_RUNOUTS]
        self.proc = subprocess.Popen(
            [sys.executable, *run, "serve", "--port", str(self.port), "--db", str(db),
             *(() if hand_floors else ("--hand-seconds", "0", "--unattended-hand-seconds", "0"))],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=ROOT,
        )
        wait_served(self.port)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def interrupt(self) -> int:
        """Ctrl-C: a graceful stop; returns the exit status."""
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(20)

    def output(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.read().decode()


class LoggedServe:
    """One ``rollem serve`` process on the store ``db`` (a PostgreSQL URL or a path),
    its output appended to ``log``, advertising its own address (as each process of
    a hosted several-process table does), the practice odds on their numpy paths
    (``ROLLEM_NO_NUMBA``: no test of this class asks for odds).  ``extra``: more
    ``serve`` options.  ``port``: the port (a restart on the same address), else a
    free one.  The caller waits for it (``wait_served(srv.port)``)."""

    def __init__(self, db: str, log: Path, *extra: str, port: int | None = None) -> None:
        self.db, self.extra = db, extra
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "rollem", "serve", "--port", str(self.port),
                 "--db", db, "--advertise-url", self.url, "--no-access-log", *extra],
                stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                env=dict(os.environ, PYTHONUNBUFFERED="1", ROLLEM_NO_NUMBA="1"))

    def stop(self) -> None:
        """SIGTERM (a graceful stop), killed if it has not ended within 15 s."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def create_table(base: str, **config: Any) -> tuple[str, str]:
    """Create a table; returns (table id, host token).  Its computer players are
    ``random`` unless ``config`` names a ``bot_level`` (the server's own default is
    ``basic``, which works out its chances at each decision)."""
    r = httpx.post(base + "/api/tables", json={"bot_level": "random", **config})
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    return tid, r.cookies[host_cookie(tid)]


def join(base: str, tid: str, name: str, seat: int | None = None) -> tuple[int, str]:
    """Sit ``name``; returns (seat, seat token)."""
    r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name, "seat": seat})
    assert r.status_code == 200, r.text
    return r.json()["seat"], r.cookies[seat_cookie(tid)]


def cookie_header(tid: str, seat_token: str | None = None, host_token: str | None = None) -> str:
    parts = []
    if seat_token:
        parts.append(f"{seat_cookie(tid)}={seat_token}")
    if host_token:
        parts.append(f"{host_cookie(tid)}={host_token}")
    return "; ".join(parts)


class Player:
    """A websocket client at one seat that records everything it receives."""

    def __init__(self, ws_url: str, tid: str, seat_token: str | None = None,
                 host_token: str | None = None, seed: int = 0) -> None:
        self.url = f"{ws_url}/ws/{tid}"
        self.tid = tid
        self.headers = {"Cookie": cookie_header(tid, seat_token, host_token)}
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.rng = random.Random(seed)
        self.ws: Any = None
        self.client_seeds = True
        """Send a client seed (``seed-<hand>``) for each committed deal this seat
        is dealt into, on seeing its commitment, as the table page does (issue 32)."""
        self.seeded: set[int] = set()

    async def __aenter__(self) -> Player:
        self.ws = await websockets.connect(self.url, additional_headers=self.headers,
                                           max_size=2**24)
        return self

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(text)
        msg = json.loads(text)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
            deal = msg["table"].get("deal")
            seat = msg["you"]["seat"]
            if (self.client_seeds and deal and seat in deal["players"]
                    and deal["hand"] not in self.seeded):
                self.seeded.add(deal["hand"])
                await self.send({"type": "client_seed", "hand": deal["hand"],
                                 "seed": f"seed-{deal['hand']}"})
        elif msg["type"] == "error":
            self.errors.append(msg)
        return msg

    async def send(self, obj: Any) -> None:
        await self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    async def until(self, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Receive until ``pred(state)`` holds for the latest state."""
        end = time.monotonic() + timeout
        if self.state is not None and pred(self.state):
            return self.state
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met; last state seq "
                                   f"{self.state and self.state['seq']}")
            msg = await self.recv(left)
            if msg["type"] == "state" and pred(msg):
                return msg

    async def until_error(self, timeout: float = 10.0) -> dict[str, Any]:
        """Receive until an error message arrives; return it."""
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == "error":
                return msg

    async def host_error(self, body: dict[str, Any]) -> dict[str, Any]:
        """Send a host message (``{"type": "host", **body}``) expected to be refused;
        return the error message that answers it."""
        await self.send({"type": "host", **body})
        return await self.until_error()

    def my_decision(self) -> bool:
        st = self.state
        return bool(st and st["hand"] and st["hand"].get("legal")
                    and st["hand"]["legal"]["actions"] and st["you"]["decision_seq"] is not None
                    and not st["hand"].get("result"))

    async def act_random(self, passive: bool = False) -> None:
        """A random legal action; ``passive``: check or call when allowed (never fold)."""
        assert self.state is not None
        hand = self.state["hand"]
        legal = hand["legal"]
        if passive and ("check" in legal["actions"] or "call" in legal["actions"]):
            action = {"kind": "check" if "check" in legal["actions"] else "call"}
        else:
            action = random_wire_action(legal, self.rng)
        await self.send({"type": "action", "hand": hand["hand_no"], "seq": self.state["seq"],
                         "action": action})


async def drain(player: Player, seconds: float) -> None:
    """Receive for ``seconds`` (ignoring the timeout at the end)."""
    end = time.monotonic() + seconds
    with contextlib.suppress(TimeoutError):
        while time.monotonic() < end:
            await player.recv(max(0.01, end - time.monotonic()))

"""Practice odds under a budget at the web table (issue 34, items 2 and 7).

A request runs in a worker process: past :attr:`LiveTable.ODDS_BUDGET` (CPU time)
it is killed and the asker alone is told ``too_costly`` in one line (and at
once, computing nothing, in that game at that table from then on); it is
killed when the asking connection closes or the hand moves on; a seat has
one request in flight, whichever connection asks (``busy``); a game without
odds (a declare game file) is refused when the table is created; a failure is
logged once per table and game, not once a request.  The slow requests are
tests/web/odds_jobs.py's stand-ins for ``seat_odds`` (one that spins, one that
sleeps): no timing is asserted, only what is answered and that no worker is
left running.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import odds_jobs
import pytest
from web_harness import Player, ServerThread, create_table, join, only_betting_bots

from rollem.server import budget_workers, live_table
from rollem.server.budget_workers import BudgetWorkers
from rollem.server.live_table.messages import TOO_COSTLY

pytestmark = [pytest.mark.timeout(90),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]


READY = re.compile(rb"rollem\.server: serving \S.* on \S+:\d+ \(warmed up in ")
"""rollem serve's ready line ("serving rollem.db on 127.0.0.1:8000 (warmed up
in 1.2 s, then 0.4 s for the practice-odds workers)"), not its warning "...
did not start within 60 s; serving anyway ...", which also holds "serving "."""


def test_the_ready_line_is_told_from_the_warning() -> None:
    ready = (b"2026-12-07 20:00:00 INFO rollem.server: serving t.db on 127.0.0.1:8123 "
             b"(warmed up in 1.2 s, then 0.4 s for the practice-odds workers)\n")
    warning = (b"2026-12-07 20:00:00 WARNING rollem.server: the practice-odds workers did "
               b"not start within 60 s; serving anyway (the first odds request starts one)\n")
    assert READY.search(ready) and not READY.search(warning)


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[BudgetWorkers]:
    """This test's own odds workers (so ``pids()`` counts only its calls: none started
    ahead by a practice table)."""
    workers = BudgetWorkers(nice=0)  # (a busy test machine: its CPU time comes sooner)
    monkeypatch.setattr(workers, "warm", lambda: None)
    monkeypatch.setattr(live_table, "_ODDS_WORKERS", workers)
    try:
        yield workers
    finally:
        workers.shutdown()


@pytest.fixture
def srv(tmp_path: Path, pool: BudgetWorkers) -> Iterator[ServerThread]:
    s = ServerThread(tmp_path / "t.db")
    try:
        yield s
    finally:
        s.stop()


def practice_table(srv: ServerThread, bot_delay: float = 30,
                   between_hands: float = 600) -> tuple[str, str, str]:
    """A practice table of Stop, Drop and Roll, Ann (the host) and a computer player
    that never folds (and takes ``bot_delay`` seconds); returns (table id, host token,
    Ann's seat token)."""
    tid, host = create_table(srv.url, game="sdr", seats=2, bots=1, bot_delay=bot_delay,
                             between_hands=between_hands, decision_seconds=300,
                             practice_odds=True)
    only_betting_bots(srv, tid)
    _, ann = join(srv.url, tid, "Ann")
    return tid, host, ann


async def dealt(p: Player) -> dict[str, Any]:
    """Deal the first hand (``p`` is the host); its first state."""
    await p.until(lambda st: st["you"]["host"])
    await p.send({"type": "start", "seq": p.state["seq"]})  # type: ignore[index]
    return await p.until(lambda st: st["hand"] is not None)


async def ask(p: Player) -> None:
    st = p.state
    assert st is not None
    await p.send({"type": "odds", "hand": st["hand"]["hand_no"], "seq": st["seq"]})


async def answer(p: Player, timeout: float = 30.0) -> dict[str, Any]:
    """The next answer to an odds request (``odds``, or an error about one)."""
    end = time.monotonic() + timeout
    while True:
        msg = await p.recv(max(0.01, end - time.monotonic()))
        if msg["type"] == "odds" or (msg["type"] == "error" and msg["ref"]["type"] == "odds"):
            return msg


def until(pred: Callable[[], bool], timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < end, "never came true"
        time.sleep(0.02)


def gone(pid: int) -> bool:
    """The process ``pid`` no longer exists (killed and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def running(pool: BudgetWorkers) -> list[int]:
    """The workers' process ids once one is running (waiting for it)."""
    until(lambda: pool.pids() != [])
    return pool.pids()


def odds_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "rollem.server" and r.levelno >= logging.WARNING
            and "practice odds" in r.getMessage()]


def test_a_request_over_budget_is_answered_too_costly_and_stops(
        srv: ServerThread, pool: BudgetWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(live_table.LiveTable, "ODDS_BUDGET", 0.5)
    monkeypatch.setattr(budget_workers, "WALL_FACTOR", 1000.0)  # (the CPU time stops it)
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.spin_odds)
    tid, host, ann = practice_table(srv, bot_delay=0, between_hands=0.1)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await dealt(a)
            await a.until(lambda st: st["you"]["decision_seq"] is not None)
            await ask(a)
            pids = running(pool)  # the worker spins ...
            err = await answer(a)
            assert (err["type"], err["code"]) == ("error", "too_costly")
            assert err["message"] == TOO_COSTLY.format(budget=0.5) == (
                "your odds are too costly to compute here (more than the 0.5 s of computing "
                "the server gives a request); they are not shown in this game at this table")
            assert pool.pids() == [] and all(map(gone, pids))  # ... killed at its budget
            # Asked again, in this hand or the next: answered at once, nothing started.
            await ask(a)
            again = await answer(a)
            assert again["code"] == "too_costly" and pool.pids() == []
            await a.send({"type": "action", "hand": 1, "seq": a.state["seq"],  # type: ignore[index]
                          "action": {"kind": "fold"}})
            await a.until(lambda st: st["hand"] is not None and st["hand"]["hand_no"] == 2)
            await ask(a)
            assert (await answer(a))["code"] == "too_costly" and pool.pids() == []

    with caplog.at_level(logging.DEBUG, logger="rollem.server"):
        asyncio.run(go())
    lines = odds_lines(caplog)
    assert len(lines) == 1 and "stopped over its budget of 0.5 s of CPU time" in lines[0], lines


def test_two_attacker_tables_do_not_starve_an_honest_table(
        srv: ServerThread, pool: BudgetWorkers, monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack of issue 34 rebuilt: two tables whose odds never end by themselves
    (here hold'em's, spinning) hold both odds workers; an honest table's request
    waits for the first of them to reach its budget, is answered with its real
    odds, and the attackers are answered too_costly (at once when they ask again).
    Before, neither attacker's request ever ended and the honest one was never
    answered."""
    monkeypatch.setattr(live_table.LiveTable, "ODDS_BUDGET", 1.2)  # (sdr: counted exactly)
    monkeypatch.setattr(budget_workers, "WALL_FACTOR", 1000.0)
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.holdem_spins_odds)
    tables = []
    for game in ("holdem", "holdem", "sdr"):
        tid, host = create_table(srv.url, game=game, seats=2, bots=1, bot_delay=30,
                                 between_hands=600, decision_seconds=300, practice_odds=True)
        tables.append((tid, host, join(srv.url, tid, "Ann")[1]))

    async def go() -> None:
        async with Player(srv.ws_url, *tables[0][::2], tables[0][1]) as a, \
                Player(srv.ws_url, *tables[1][::2], tables[1][1]) as b, \
                Player(srv.ws_url, *tables[2][::2], tables[2][1]) as honest:
            for p in (a, b, honest):
                await dealt(p)
            await ask(a)
            await ask(b)
            until(lambda: len(pool.pids()) == 2)  # both workers spin for the attackers
            await ask(honest)
            reply = await answer(honest)
            assert reply["type"] == "odds" and reply["odds"]["game"] == "sdr", reply
            for p in (a, b):
                assert (await answer(p))["code"] == "too_costly"
                await ask(p)
                assert (await answer(p))["code"] == "too_costly"  # at once
            assert len(pool.pids()) <= 1  # (the honest one's worker, kept for next time)

    asyncio.run(go())


def test_the_asker_leaving_cancels_the_request(
        srv: ServerThread, pool: BudgetWorkers, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_table.LiveTable, "ODDS_BUDGET", 600.0)
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.spin_odds)
    tid, host, ann = practice_table(srv)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await dealt(a)
            await ask(a)
            pids = running(pool)
        # Ann closed her page: her request's worker is killed (not by its budget:
        # 600 s of CPU).
        until(lambda: all(map(gone, pids)))
        assert pool.pids() == []
        table = srv.manager.get(tid)
        until(lambda: table.messages.odds_jobs == {})

    asyncio.run(go())


def test_a_new_hand_cancels_the_request(
        srv: ServerThread, pool: BudgetWorkers, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_table.LiveTable, "ODDS_BUDGET", 600.0)
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.sleep_odds)
    tid, host, ann = practice_table(srv, bot_delay=0)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            st = await dealt(a)
            hand_no = st["hand"]["hand_no"]
            await a.until(lambda st: st["you"]["decision_seq"] is not None)
            await ask(a)
            pids = running(pool)
            await a.send({"type": "action", "hand": hand_no, "seq": a.state["seq"],  # type: ignore[index]
                          "action": {"kind": "fold"}})
            err = await answer(a)  # the hand is over: the request is dropped
            assert (err["type"], err["code"]) == ("error", "cancelled")
            assert err["message"] == f"hand {hand_no} moved on before your odds were computed"
            until(lambda: all(map(gone, pids)))
            assert pool.pids() == []

    asyncio.run(go())


def test_one_request_in_flight_per_seat_whichever_connection_asks(
        srv: ServerThread, pool: BudgetWorkers, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live_table.LiveTable, "ODDS_BUDGET", 600.0)
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.sleep_odds)
    tid, host, ann = practice_table(srv)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await dealt(a)
            await ask(a)
            running(pool)
            async with Player(srv.ws_url, tid, ann) as b:  # Ann's second page
                await b.until(lambda st: st["hand"] is not None)
                await ask(b)
                err = await answer(b)
                assert (err["code"], err["message"]) == (
                    "busy", "your odds are still being computed (asked from this or another "
                    "connection of your seat); ask again after")
                assert len(pool.pids()) == 1  # nothing more started
                await ask(a)
                assert (await answer(a))["code"] == "busy"
        until(lambda: pool.pids() == [])  # (Ann left: cancelled)

    asyncio.run(go())


def test_practice_odds_with_a_declare_game_file_are_refused_at_creation(
        srv: ServerThread) -> None:
    text = odds_jobs.declare_copy()
    r = httpx.post(srv.url + "/api/tables", json={"game_file": text, "practice_odds": True})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert r.json()["message"] == (
        "practice_odds: the table may deal my-521, which has no odds (no plain odds for "
        "'my-521': a declare showdown needs a model of the declarations (only 5-2-1 Roll "
        "'Em has one)); create it without the Practice option")
    for config in ({"game_file": text}, {"game_file": text, "game": "sdr"},
                   {"game": "rollem521", "practice_odds": True}):
        assert httpx.post(srv.url + "/api/tables", json=config).status_code == 200, config
    # The costly file is refused for its showdown's cost now (issue 34 item 1), not its odds.
    r = httpx.post(srv.url + "/api/tables", json={"game_file": odds_jobs.COSTLY_WILD,
                                                 "practice_odds": True})
    assert r.status_code == 400 and "evaluations" in r.json()["message"]
    # Not even with a fixed game of ours: the host may switch to the file's game later.
    r = httpx.post(srv.url + "/api/tables", json={"game_file": text, "game": "sdr",
                                                 "practice_odds": True})
    assert r.status_code == 400 and "my-521" in r.json()["message"]


def test_a_stored_table_without_odds_refuses_requests_with_one_log_line(
        tmp_path: Path, pool: BudgetWorkers, caplog: pytest.LogCaptureFixture) -> None:
    """A table stored before such tables were refused (practice odds and a declare
    game file) refuses each request before anything runs, logging one line."""
    from rollem.server.config import parse_config

    config = parse_config({"game_file": odds_jobs.declare_copy(), "game": "my-521",
                           "seats": 2, "bots": 1, "bot_delay": 30, "between_hands": 600,
                           "decision_seconds": 300, "practice_odds": True}, strict=False)
    s = ServerThread(tmp_path / "t.db")
    try:
        table, host = s.call(s.manager.create, config)
        _, ann = join(s.url, table.id, "Ann")

        async def go() -> None:
            async with Player(s.ws_url, table.id, ann, host) as a:
                await dealt(a)
                for _ in range(5):
                    await ask(a)
                    err = await answer(a)
                    assert err["code"] == "no_odds" and "declare showdown" in err["message"]
            assert pool.pids() == []

        with caplog.at_level(logging.DEBUG, logger="rollem.server"):
            asyncio.run(go())
    finally:
        s.stop()
    assert len(odds_lines(caplog)) == 1, odds_lines(caplog)


def test_a_failing_request_is_logged_once_not_once_a_request(
        srv: ServerThread, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.failing_odds)
    tid, host, ann = practice_table(srv)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await dealt(a)
            for _ in range(4):
                await ask(a)
                err = await answer(a)
                assert (err["code"], err["message"]) == (
                    "odds_failed",
                    "your odds could not be computed (no odds here (a test's stand-in))")

    with caplog.at_level(logging.DEBUG, logger="rollem.server"):
        asyncio.run(go())
    lines = odds_lines(caplog)
    assert len(lines) == 1 and "practice odds failed" in lines[0], lines


def test_a_fault_in_the_odds_is_told_without_the_servers_own_words(
        srv: ServerThread, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """An exception that is not the odds' own (``OddsError``) reaches the log with
    its text and the player without it (the try-out saw Python's multiprocessing
    bootstrap message on the felt)."""
    monkeypatch.setattr(live_table, "seat_odds", odds_jobs.crashing_odds)
    tid, host, ann = practice_table(srv)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            await dealt(a)
            await ask(a)
            err = await answer(a)
            assert (err["code"], err["message"]) == (
                "odds_failed",
                "your odds could not be computed (a fault on the server, logged there)")

    with caplog.at_level(logging.DEBUG, logger="rollem.server"):
        asyncio.run(go())
    lines = odds_lines(caplog)
    assert len(lines) == 1 and "RuntimeError: /srv/rollem/odds.py" in lines[0], lines


def test_odds_are_still_answered_from_a_worker(srv: ServerThread, pool: BudgetWorkers) -> None:
    """The real odds, computed in a worker process, reach the asker."""
    tid, host, ann = practice_table(srv)

    async def go() -> None:
        async with Player(srv.ws_url, tid, ann, host) as a:
            st = await dealt(a)
            await ask(a)
            reply = await answer(a, timeout=60)
            assert reply["type"] == "odds", reply
            assert reply["hand"] == st["hand"]["hand_no"] and reply["odds"]["game"] == "sdr"
            assert reply["odds"]["samples"] > 0 and 0 <= reply["odds"]["equity"] <= 1
            assert len(pool.pids()) == 1  # kept for the next request

    asyncio.run(go())


def _descendants(pid: int) -> list[int]:
    """The process ids under ``pid`` (children, theirs, ...), from /proc."""
    found, todo = [], [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            found += children
            todo += children
    return found


def test_serve_starts_the_odds_workers_before_anyone_asks(tmp_path: Path) -> None:
    """``rollem serve`` starts the odds workers' fork server (which loads the odds,
    a second or more) beside its own warm-up and serves only once a worker is up,
    not at the first practice table: the first odds request after a restart does
    not wait for it (issue 34, item 2)."""
    import subprocess
    import sys

    from web_harness import ROOT, free_port

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "rollem", "serve", "--port", str(port),
         "--db", str(tmp_path / "t.db")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT,
        env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        assert server.stdout is not None
        lines: list[bytes] = []
        for line in server.stdout:
            lines.append(line)
            if READY.search(line):
                break
        assert b"for the practice-odds workers" in lines[-1], lines
        # at that moment (no waiting): the fork server, with the odds loaded,
        # and a worker forked from it
        preloaded = 0
        for pid in _descendants(server.pid):
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            preloaded += b"forkserver" in command and b"odds_preload" in command
        assert preloaded >= 2, "no odds worker was up when rollem serve began serving"
    finally:
        server.terminate()
        server.wait(20)


def test_the_warm_up_samples_one_batch_a_game_not_odds_to_the_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork server's warm-up builds the tables with one sampled batch of 20
    worlds in each shipped game: it used to compute full odds (batches to the CPU
    budget, or an exact enumeration) in all 11 games, about 4 s of CPU that the
    first odds request after a server start waited for (issue 34, item 2)."""
    from rollem.odds import view as odds_view
    from rollem.server import game_session

    calls: list[tuple[str, int, int]] = []
    real = odds_view.view_equity

    def counting(view: Any, **kw: Any) -> Any:
        calls.append((view.game, kw["samples"], kw["exact_limit"]))
        return real(view, **kw)

    monkeypatch.setattr(odds_view, "view_equity", counting)
    game_session.warm_odds()
    games = game_session.available_games()
    assert sorted(game for game, _, _ in calls) == sorted(games)
    assert {(samples, exact) for _, samples, exact in calls} == {(20, 0)}

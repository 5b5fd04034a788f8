"""When the disk fails (issue 19): a table never tells what is not committed,
pauses and says so while writes fail, backs off, and deals on by itself once a
write succeeds; the same one recovery path for every failed write.

Faults 1-4 of the issue with a store whose writes fail on demand; then a real
full file system (tmpfs) and a read-only database file (ext4 image, immutable).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from disk_harness import (
    FaultyStore,
    Recorder,
    TablePlay,
    action_write,
    any_write,
    of_table,
    once,
    play_out,
    result_write,
    saving_log_lines,
    until,
    verify_told,
)

from rollem.server.config import parse_config
from rollem.server.live_table import PAUSED_NOTICE, LiveTable, TableError
from rollem.server.protocol import ClientMessage
from rollem.server.store import EarlierWriteFailed, Store


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(LiveTable, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(LiveTable, "RETRY_MAX", 0.4)
    caplog.set_level(logging.INFO, logger="rollem.server")


def test_a_write_stream_commits_a_prefix_and_reconnects_after_a_failure(tmp_path: Path) -> None:
    """The store's contract: after one write of a stream fails, the later writes of
    that stream fail untried; other writes commit; a new stream writes again; a
    failed COMMIT makes the writer reconnect."""
    store = FaultyStore(tmp_path / "s.db")
    store.create_table("A", {}, {}, "h")
    store.create_table("B", {}, {}, "h")
    store.commit_delay = 0.05  # the writes below queue up and share groups
    first = store.stream("A")

    def act(stream: Any, idx: int) -> Any:
        return stream.write(action=(1, idx, 0, {"kind": "check"}, "player", {"events": []}))

    store.rule = once(lambda st: any(sql.startswith("INSERT INTO actions") and args[2] == 2
                                     for sql, args in st))  # A's action 2
    a = [act(first, i) for i in range(6)]
    b = [act(store.stream("B"), i) for i in range(3)]
    assert [f.exception(10) is None for f in a] == [True, True, False, False, False, False]
    assert isinstance(a[2].exception(), sqlite3.OperationalError)
    assert all(isinstance(f.exception(), EarlierWriteFailed) for f in a[3:])
    assert first.failed is a[2].exception() and first.drained() is a[5]
    assert all(f.exception(10) is None for f in b)
    assert [r.idx for r in store.load_actions("A", 1)] == [0, 1]
    assert [r.idx for r in store.load_actions("B", 1)] == [0, 1, 2]
    second = store.stream("A")
    assert act(second, 2).exception(10) is None
    # A failed COMMIT fails the whole group; the writer reconnects and goes on.
    store.fail_commit = True
    assert act(second, 3).exception(10) is not None
    store.fail_commit = False
    assert isinstance(act(second, 4).exception(10), EarlierWriteFailed)
    assert act(store.stream("A"), 3).exception(10) is None
    assert [r.idx for r in store.load_actions("A", 1)] == [0, 1, 2, 3]
    store.close()


def test_a_new_table_that_cannot_be_saved_is_refused_clearly(tmp_path: Path) -> None:
    store = FaultyStore(tmp_path / "n.db")
    store.rule = any_write
    with pytest.raises(TableError) as refused:
        LiveTable.create(store, parse_config({"game": "sdr", "bots": 1}))
    assert refused.value.code == "not_saved"
    assert "database or disk is full" in refused.value.message
    store.rule = None
    assert store.table_ids() == []  # nothing half-written (table and seats are one write)
    store.close()


@pytest.mark.parametrize("rule", ["result", "action"])
def test_one_failed_write_is_never_told_and_play_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, rule: str
) -> None:
    """Faults 1 and 2: one write fails (a hand's result, or an action), every
    later one succeeds.  Nobody is told the unsaved result or action; the
    table rebuilds from the store, finishes the hand as a restart would, and
    deals the next hands at once."""
    store = FaultyStore(tmp_path / "t.db")
    play = TablePlay(store)

    async def run() -> None:
        await play.deal()
        store.rule = once(result_write if rule == "result" else action_write)
        await until(lambda: store.failed_writes == 1, 20, "the write failed")
        # It deals again within a few seconds (no restart needed).
        await play.resumes()
        # The pause was told, in plain words, and is over.
        assert play.paused_states()
        assert play.paused_states()[0]["table"]["paused"] == PAUSED_NOTICE

    play_out(run, store, play)
    assert store.integrity_errors == 0
    assert saving_log_lines(caplog.records) == (1, 1)
    assert verify_told(tmp_path / "t.db", [play]) > 20


def test_writes_failing_for_a_while_pause_quietly_and_resume(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Fault 3: every write of one table fails for a while (six retries, and a
    hand of another table).  The table pauses and tells its players once,
    retries with backoff (no tight loop: waits doubling from RETRY_FIRST up to
    RETRY_MAX, one log line each way, a bounded number of states), and resumes
    by itself at the first retry once writes succeed.  Another table on the same
    store plays on throughout.  (The retries' waits are read as the table asks
    the event loop for them, not timed: a loaded machine only makes it slower.)"""
    # (the computer players act as soon as they have thought, TablePlay's
    # TEST_PACING: "resumed" counts to the next hand's deal, and the real 0.25 s
    # shortest wait would add that to each of their actions; stop 56, stop 57)
    store = FaultyStore(tmp_path / "t.db")
    play, other = TablePlay(store), TablePlay(store, game="sdr")

    async def run() -> None:
        await other.start()
        await play.deal()
        told_before = [len(c.states()) for c in play.clients]
        other_hand = other.told_hand()
        # The wait before each retry, as the table asks the event loop for it.
        saving, loop = play.table.saving, asyncio.get_running_loop()
        waits: list[float] = []
        call_later = loop.call_later

        def recorded(delay: float, callback: Any, *args: Any, **kwargs: Any) -> Any:
            if callback == saving._retry:
                waits.append(delay)
            return call_later(delay, callback, *args, **kwargs)

        loop.call_later = recorded  # type: ignore[method-assign]
        store.rule = of_table(play.id, any_write)
        await until(lambda: all(c.latest and c.latest["table"]["paused"] for c in play.clients),
                    10, "the pause is told")
        paused_at = [len(c.states()) for c in play.clients]
        # While paused every change is refused, in the same plain words.
        ann = play.clients[0]
        with pytest.raises(TableError) as refused:
            play.table.join("Eve", None)
        assert refused.value.code == "paused"
        body = {"type": "rebuy", "seq": play.table.seq}
        play.table.handle(ann, ClientMessage("rebuy", None, play.table.seq, body))
        assert ann.told[-1][1]["code"] == "paused"
        assert ann.told[-1][1]["message"] == PAUSED_NOTICE
        # The HTTP API says the same (the table's public part, as saved).
        public = await play.table.public_when_committed()
        assert public["paused"] == PAUSED_NOTICE
        assert public["ledger"] == play.clients[0].latest["table"]["ledger"]
        # Somebody who opens the table now sees the saved state, paused.
        late = Recorder(play, None)
        play.table.connect(late)
        assert [st["table"]["paused"] for st in late.states()] == [PAUSED_NOTICE]
        # The other table deals on while this one retries (generous limits: only
        # a table that stops, or never retries, reaches them).
        await until(lambda: len(waits) >= 6, 60, "six waits for a retry")
        await until(lambda: other.told_hand() >= other_hand + 1, 60,
                    "a hand at the other table while this one is paused")
        assert play.table.saving.paused
        during = [len(c.states()) - n for c, n in zip(play.clients, told_before, strict=True)]
        # (an onlooker arriving is told only to the onlooker)
        after_pause = [len(c.states()) - n for c, n in zip(play.clients, paused_at, strict=True)]
        play.clients.append(late)
        store.rule = None
        cleared = len(waits)
        await play.resumes()
        loop.call_later = call_later  # type: ignore[method-assign]
        # Bounded: after the paused state, nothing more while paused (retries are quiet).
        assert after_pause == [0, 0, 0], after_pause
        assert max(during) <= 6, during
        # Backing off from 0.05 s, doubling, to at most 0.4 s: no tight loop, and
        # no wait longer than RETRY_MAX however long the writes failed.
        assert waits[:6] == pytest.approx([0.05, 0.1, 0.2, 0.4, 0.4, 0.4]), waits
        assert max(waits) == pytest.approx(LiveTable.RETRY_MAX), waits
        # Every failed write waited once, then retried; once writes succeed, the
        # next retry resumes play (or the one after a retry already under way).
        assert store.failed_writes == len(waits), (store.failed_writes, waits)
        assert len(waits) <= cleared + 1, (cleared, waits)
        await until(lambda: other.told_hand() >= other_hand + 2, 60,
                    "the other table never stopped")
        assert not [st for st in other.clients[0].states() if st["table"]["paused"]]

    play_out(run, store, play, other)
    assert saving_log_lines(caplog.records) == (1, 1)
    assert verify_told(tmp_path / "t.db", [play, other]) > 20


def _time_out_people(table: LiveTable) -> None:
    """Every person's open decision runs out now (as its clock's timer would)."""
    for seat, opened in list(table.decision_seq.items()):
        if table.seats[seat].row.bot is None:
            table.turns.timeout(seat, opened)


def test_writes_queued_behind_a_failed_one_are_never_committed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Fault 4: the writer is held while the table goes on in memory (computer
    players act, people's clocks run out, hands end and are dealt), so a dozen
    writes queue up behind the first, a person's action, which fails.  The
    table rebuilds only once every queued write is done; those fail untried
    (none is committed out of order), the rebuild tells exactly the state
    committed before the hold, no action is written twice, and play resumes
    by itself."""
    store = FaultyStore(tmp_path / "t.db")
    play = TablePlay(store, game="sdr", seats=5, bots=3)
    table = play.table

    async def run() -> None:
        await play.start()
        people = play.clients[:2]
        for person in people:
            person.passive = True
        await until(play.settled, 10, "a person to act, everything told")
        committed = play.committed_seq()
        assert committed == table.seq
        told = [len(c.states()) for c in play.clients]
        store.hold()
        store.rule = once(of_table(play.id, action_write))
        _time_out_people(table)  # the first write: a person's action (it will fail)
        await until(store.holding.is_set, 10, "the writer holds the first write")
        first = store.held  # the writes of that timeout (a group of its own)
        for _ in range(1000):  # the others queue behind it
            if store.queued() >= 12:
                break
            _time_out_people(table)
            await asyncio.sleep(0.005)
        queued = store.queued()
        assert queued >= 12, queued
        assert table.seq >= committed + 12  # memory is a dozen changes ahead of the store
        assert [len(c.states()) for c in play.clients] == told  # nothing queued is told
        for person in people:
            person.passive = False
        store.release(groups=1)  # the first write fails; the writer holds the rest
        await until(lambda: store.failed_writes == 1, 10, "the first write failed")
        await asyncio.sleep(0.1)  # time enough for a rebuild that did not wait
        assert store.queued() >= queued - first  # the others wait at the writer
        assert not play.paused_states()  # it waits for every queued write first
        store.release()
        await until(lambda: bool(play.paused_states()), 10, "the pause is told")
        assert store.failed_writes == 1
        assert store.untried >= queued - 1
        await play.resumes()
        # From the hold to the resume each client was told two states: the
        # one committed before the hold, paused, then the resumed one.
        for client, before in zip(play.clients, told, strict=True):
            paused, resumed = client.states()[before:before + 2]
            assert (paused["seq"], paused["table"]["paused"]) == (committed, PAUSED_NOTICE)
            assert resumed["seq"] > committed and resumed["table"]["paused"] is None

    play_out(run, store, play)
    gc.collect()  # (a failed write's future nobody looked at is logged when collected)
    assert store.integrity_errors == 0
    assert not [r.getMessage() for r in caplog.records
                if "UNIQUE" in r.getMessage() or r.name == "asyncio"]
    assert saving_log_lines(caplog.records) == (1, 1)
    assert verify_told(tmp_path / "t.db", [play]) > 20


def test_a_failed_group_commit_and_an_engine_fault_take_the_same_path(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A COMMIT that fails (every write of the group with it: an I/O error)
    pauses and resumes the same way; so does an action the engine fails on
    (no pause: the table rebuilds from the store and goes on at once)."""
    store = FaultyStore(tmp_path / "t.db")
    play = TablePlay(store, game="sdr")

    async def run() -> None:
        await play.deal()
        store.fail_commit = True
        await until(lambda: bool(play.paused_states()), 10, "the pause is told")
        store.fail_commit = False
        await play.resumes()
        # An engine fault in the middle of applying one action.
        from rollem.server import game_session

        real = game_session.GameSession.apply
        fired = []

        def broken(self: Any, seat: int, wire: dict[str, Any]) -> Any:
            if not fired:
                fired.append(seat)
                self.hand.stacks[seat] -= 1  # half-changed, then it fails
                raise RuntimeError("engine fault")
            return real(self, seat, wire)

        monkeypatch.setattr(game_session.GameSession, "apply", broken)
        hand_now = play.table.session["hand_no"]
        await until(lambda: bool(fired), 10, "the engine fault")
        await until(lambda: play.told_hand() > hand_now + 1, 10, "play goes on")

    play_out(run, store, play)
    assert store.failed_commits >= 1
    assert saving_log_lines(caplog.records) == (1, 1)
    verify_told(tmp_path / "t.db", [play])


# -- real file systems (root: mount) ---------------------------------------------------


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


@contextlib.contextmanager
def _mounted(kind: str, where: Path, image: Path | None = None) -> Iterator[Path]:
    """Mount a small file system at ``where`` (tmpfs, or an ext4 image on a loop
    device); skip the test, saying why, where mounting is impossible."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root (CI runs the tests as root)")
    where.mkdir()
    if kind == "tmpfs":
        done = _run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where))
    else:
        assert image is not None
        if shutil.which("mkfs.ext4") is None or shutil.which("chattr") is None:
            pytest.skip("mkfs.ext4 and chattr (Debian's e2fsprogs) are not installed")
        with image.open("wb") as f:
            f.truncate(16 * 2**20)
        made = _run("mkfs.ext4", "-q", "-F", "-m", "0", str(image))
        assert made.returncode == 0, made.stderr
        done = _run("mount", "-o", "loop", str(image), str(where))
    if done.returncode != 0:
        pytest.skip(f"cannot mount a {kind} file system here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        if _run("umount", str(where)).returncode != 0:
            _run("umount", "-l", str(where))


def _fill(path: Path) -> int:
    """Write ``path`` until the file system is full (in large blocks, then in
    small ones); returns the bytes written."""
    written = 0
    with path.open("wb", buffering=0) as f:
        for block in (b"\0" * 65536, b"\0" * 512):
            with contextlib.suppress(OSError):
                while True:
                    written += f.write(block)
    return written


def _outage_on_a_real_disk(db: Path, fail: Callable[[], None], mend: Callable[[], None]) -> None:
    """Play at a table on ``db``; ``fail()`` makes its writes fail: play pauses,
    its players are told once and the retries stay quiet; ``mend()`` (always
    called) ends that: play resumes by itself and nothing told is lost."""
    store = Store(db)
    play = TablePlay(store)

    async def run() -> None:
        await play.deal()
        try:
            fail()
            await until(lambda: bool(play.paused_states()), 20, "the pause is told")
            told = len(play.clients[0].states())
            await asyncio.sleep(0.5)  # a few retries, each failing
            assert len(play.clients[0].states()) - told <= 2  # quiet while paused
        finally:
            mend()
        await play.resumes()

    play_out(run, store, play)
    assert verify_told(db, [play]) > 20


def test_a_full_file_system_pauses_play_until_space_is_freed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A real full disk: the database on a 4 MiB tmpfs, a file fills it during
    play.  Writes fail (SQLite's "database or disk is full"); play pauses and
    the players are told; once the file is deleted play continues by itself
    and nothing told was lost."""
    with _mounted("tmpfs", tmp_path / "mnt") as mnt:
        db, filler = mnt / "table.db", mnt / "filler"

        def fill() -> None:
            # Start the WAL afresh so the next commits need new space.
            with contextlib.closing(sqlite3.connect(db)) as c:
                c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            assert _fill(filler) > 0

        _outage_on_a_real_disk(db, fill, lambda: filler.unlink(missing_ok=True))
    messages = [r.getMessage() for r in caplog.records]
    assert any("database or disk is full" in m for m in messages), messages
    assert saving_log_lines(caplog.records) == (1, 1)


def test_a_read_only_database_file_pauses_play_until_writable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database file and its WAL become read-only (immutable) during play on
    a real ext4 file system: writes fail, play pauses and says so, the store
    reconnects on each retry (a connection opened read-only stays read-only);
    once the files are writable again play continues, nothing lost."""
    with _mounted("ext4", tmp_path / "mnt", tmp_path / "fs.img") as mnt:
        db = mnt / "table.db"
        files = [str(db), f"{db}-wal"]

        def freeze() -> None:
            made = _run("chattr", "+i", *files)
            if made.returncode != 0:
                pytest.skip(f"cannot make the database immutable: {made.stderr.strip()}")

        def thaw() -> None:
            assert _run("chattr", "-i", *files).returncode == 0

        _outage_on_a_real_disk(db, freeze, thaw)
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "disk I/O error" in messages or "readonly" in messages, messages
    assert saving_log_lines(caplog.records) == (1, 1)

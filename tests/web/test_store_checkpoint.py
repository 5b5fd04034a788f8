"""The SQLite store's checkpoints (issue 13): never inside a commit, yet the WAL
stays bounded and every commit reaches the database file.

SQLite's automatic checkpoint ran inside whichever commit passed 1,000 WAL
pages, and every write queued behind it waited; the store turns it off and
checkpoints from its own thread (:class:`rollem.server.store.Checkpointer`).
A WAL *restart* (the next write starting the file from its beginning, once a
checkpoint copied everything) shows in the WAL header's checkpoint sequence
number, read here straight from the file.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from rollem.server.store import Store

PAGE = 4096
FRAME = PAGE + 24  # a WAL frame: its header and one page
EVENTS = {"events": ["x" * 5000]}  # an action's events: a page and more (overflow)


def wal_restarts(db: Path) -> int:
    """The WAL header's checkpoint sequence number (one more at each restart)."""
    with open(f"{db}-wal", "rb") as wal:
        return int.from_bytes(wal.read(16)[12:16], "big")


def wal_frames(db: Path) -> int:
    """Frames the WAL file has room for (its high-water mark: a restart reuses it)."""
    return (Path(f"{db}-wal").stat().st_size - 32) // FRAME


def act(store: Store, idx: int) -> None:
    store.write("T", action=(1, idx, 0, {"kind": "check"}, "player", EVENTS))


def test_commits_never_checkpoint_the_checkpointer_copies_everything(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    store = Store(db)
    assert store.checkpointer is not None
    store.checkpointer.interval = 3600.0  # its thread stays out of the way
    store.create_table("T", {}, {}, "h")
    restarts = wal_restarts(db)
    for i in range(600):  # one commit each, 2+ pages: past SQLite's 1,000-page checkpoint
        act(store, i)
    # No commit checkpointed: the WAL never restarted and holds every frame.
    assert wal_restarts(db) == restarts
    assert wal_frames(db) > 1200
    frames, copied = store.checkpointer.checkpoint() or (0, -1)
    assert frames == copied == wal_frames(db)  # nothing else wrote: all of it copied
    act(store, 600)  # the next write starts the WAL afresh
    assert wal_restarts(db) == restarts + 1
    assert store.checkpointer.runs == 1
    store.close()
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*), MAX(idx) FROM actions").fetchone() == (601, 600)


def test_the_wal_stays_bounded_while_writes_never_stop(tmp_path: Path) -> None:
    """Back-to-back commits: each checkpoint of the thread overlaps a commit, so
    it may never see the WAL's end; past ``frames_limit`` the writer
    checkpoints between two groups and the WAL restarts."""
    db = tmp_path / "b.db"
    store = Store(db)
    assert store.checkpointer is not None
    store.checkpointer.interval = 0.01
    store.checkpointer.frames_limit = 200
    store.create_table("T", {}, {}, "h")
    restarts = wal_restarts(db)
    high = 0
    for i in range(1500):  # 3,000 frames and more in all
        act(store, i)
        high = max(high, wal_frames(db))
    # Waits for the thread only if the writes outran it (a very fast disk).
    end = time.monotonic() + 10
    while store.checkpointer.runs < 2 and time.monotonic() < end:
        time.sleep(0.01)
    assert store.checkpointer.runs >= 2
    assert store.checkpointer.failures == 0
    assert wal_restarts(db) >= restarts + 2
    assert high < 1500  # half of what was written at most; bounded by the limit's reach
    store.close()
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM actions").fetchone() == (1500,)

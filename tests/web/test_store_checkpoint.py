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


def test_a_checkpoint_that_falls_behind_makes_the_writer_checkpoint(tmp_path: Path) -> None:
    """When a checkpoint cannot copy the whole WAL (commits went on meanwhile;
    here, deterministically, a reader's snapshot holds it back) and the WAL
    is past ``frames_limit``, the writer checkpoints after its next group, so
    the write after that starts the WAL afresh: without this, back-to-back
    commits left the WAL growing (6,467 frames after 1,500 writes)."""
    db = tmp_path / "b.db"
    store = Store(db)
    assert store.checkpointer is not None
    store.checkpointer.interval = 3600.0  # only the checkpoints made here
    store.checkpointer.frames_limit = 200
    store.create_table("T", {}, {}, "h")
    for i in range(150):
        act(store, i)
    restarts = wal_restarts(db)
    reader = sqlite3.connect(db, isolation_level=None)
    reader.execute("BEGIN")
    assert reader.execute("SELECT COUNT(*) FROM actions").fetchone() == (150,)
    for i in range(150, 300):  # frames past the reader's snapshot
        act(store, i)
    frames, copied = store.checkpointer.checkpoint() or (0, 0)
    assert frames > 200 and 0 < copied < frames  # held back: fallen behind
    assert store.checkpointer.behind
    reader.execute("COMMIT")
    reader.close()
    act(store, 300)  # the writer checkpoints after this group...
    assert not store.checkpointer.behind
    act(store, 301)  # ...so this write restarts the WAL
    assert wal_restarts(db) == restarts + 1
    store.close()
    with sqlite3.connect(db) as check:
        assert check.execute("SELECT COUNT(*) FROM actions").fetchone() == (302,)

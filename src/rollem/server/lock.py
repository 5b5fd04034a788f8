"""One server per database (issue 13): an exclusive lock next to the database.

Two ``rollem serve`` on one ``rollem.db`` would both deal the same tables;
the second one refuses to start.  The lock is ``fcntl.flock`` on
``<db>.lock``: the kernel releases it when the process ends, however it
ends (no stale lock after a crash).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

__all__ = ["DatabaseLocked", "lock_database"]


class DatabaseLocked(RuntimeError):
    """Another process serves this database; the message names its pid."""


def lock_database(db: Path) -> IO[str]:
    """Take the lock of ``db``; keep the returned file open while serving.

    Raises :class:`DatabaseLocked` if another process holds it.
    """
    path = Path(f"{db}.lock")
    handle = open(path, "a+")  # noqa: SIM115 -- held open for the server's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise DatabaseLocked(
            f"{db} is already served by rollem serve (pid {holder}); stop that server "
            "first or give another --db") from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle

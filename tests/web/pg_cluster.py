"""A private PostgreSQL cluster for the tests (Debian's ``postgresql``, issue 17).

:class:`PgCluster` runs ``initdb`` in a temporary directory and starts the
server on a Unix socket in that directory only (no TCP port), as the
``postgres`` user when the tests run as root (PostgreSQL refuses to run as
root), and stops it and removes the directory on :meth:`stop` (the removal
finishing in the background).
:meth:`new_database` returns the URL of an empty database of the caller's own (made
ahead, in a thread, while the caller's tests before ran).
"""

from __future__ import annotations

import glob
import itertools
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor

import psycopg


def pg_bin() -> str | None:
    """The directory of Debian's PostgreSQL server programs (newest), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


class PgCluster:
    """``settings``: more server settings (``{"log_checkpoints": "on"}``), given
    to the server as ``-c name=value``; its log is :attr:`log`."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        bindir = pg_bin()
        if bindir is None:
            raise RuntimeError("PostgreSQL is not installed (scripts/test.sh installs it)")
        self.dir = tempfile.mkdtemp(prefix="rollem-pg-")
        self.data = os.path.join(self.dir, "data")
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            os.chmod(self.dir, 0o755)
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.pg_ctl = os.path.join(bindir, "pg_ctl")
        self.log = os.path.join(self.dir, "log")
        extra = "".join(f" -c {k}={shlex.quote(v)}" for k, v in (settings or {}).items())
        self._run([os.path.join(bindir, "initdb"), "-D", self.data, "-A", "trust", "-U",
                   "rollem", "--no-sync", "-E", "UTF8"])
        self._run([self.pg_ctl, "-D", self.data, "-l", self.log, "-w",
                   "-o", f"-k {self.dir} -c listen_addresses='' -c fsync=on{extra}", "start"])
        self.admin_url = f"postgresql://rollem@/postgres?host={self.dir}"
        self._names = itertools.count()
        self._lock = threading.Lock()
        self._maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pg-new-database")
        self._ahead: Future[str] | None = None

    def _run(self, cmd: list[str]) -> None:
        subprocess.run([*self.as_user, *cmd], check=True, capture_output=True, timeout=60)

    def new_database(self) -> str:
        """An empty database of the caller's own (created for it, handed out once);
        its URL.

        From the second call on, the database was made in a thread while the caller's
        earlier tests ran: ``CREATE DATABASE`` copies the template's 8 MB through the
        WAL (0.35 to 1.4 s at load 12, the largest part of a PostgreSQL test's
        set-up; docs/dev/test-suite-time.md, stop 48), and the worker is mostly
        waiting meanwhile (servers, pages). Each call hands out the one made ahead and
        starts the next; a failed creation raises here, in the caller."""
        with self._lock:
            ahead, self._ahead = self._ahead, None
            url = ahead.result() if ahead is not None else self._create()
            self._ahead = self._maker.submit(self._create)
        return url

    def _create(self) -> str:
        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://rollem@/{name}?host={self.dir}"

    def stop(self) -> None:
        """Stop the server (at once), then remove its directory in a child process of
        its own that this one does not wait for: a run's databases are a few hundred
        MB of files (about 9 MB each, and their WAL), whose removal took 5 s at the
        end of each worker's run on a loaded machine (20 databases, load 31)."""
        self._maker.shutdown(wait=True, cancel_futures=True)  # (one made ahead: unused)
        try:
            self._run([self.pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"])
        finally:
            try:   # (sh leaves rm running and exits: nothing for this process to reap)
                subprocess.run(["sh", "-c", 'rm -rf -- "$1" &', "sh", self.dir],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=60, check=True)
            except (OSError, subprocess.SubprocessError):
                shutil.rmtree(self.dir, ignore_errors=True)

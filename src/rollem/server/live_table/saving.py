"""Saving a live table: commit before telling, and the way back when a write
fails.  :class:`Saving` is the table's part that owns its write stream and
what waits for it.

Every change is written to the store (group commit) and its states go out
only once it is committed: no client hears of anything before that.

When a write fails (a full or read-only disk, an I/O error) the table takes
the one way back a restart takes (:meth:`Saving.recover`): it stops play,
waits until every write it queued is done (the later ones fail untried: see
:class:`~rollem.server.store.WriteStream`), rebuilds itself from what is
committed -- forgetting whatever was not: the last result, the final hand,
ledger lines -- and, while writes fail, stays *paused*: its players are told
so in plain words (``table.paused`` in the state) and it retries a small
write after :attr:`LiveTable.RETRY_FIRST` seconds, doubling the wait up to
:attr:`LiveTable.RETRY_MAX`.  The first write that succeeds resumes play
where a restart would (finish a hand whose actions are all committed, open
the decisions, deal the next hand).  It logs once when it pauses and once
when it resumes, never per retry.  No rule of its own (docs/hosting.md).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rollem.server import live_table
from rollem.server.completions import loop_future
from rollem.server.live_table.clients import Client, _is_error
from rollem.server.live_table.errors import TableError
from rollem.server.store import SeatRow, WriteStream

if TYPE_CHECKING:
    from rollem.server.live_table import LiveTable

log = logging.getLogger("rollem.server")


def _lease_lost(error: BaseException) -> bool:
    """Whether a write failed because this process no longer holds the table."""
    from rollem.server.leases import LeaseLost

    return isinstance(getattr(error, "cause", error), LeaseLost)


class Saving:
    """The writes of one table and the sends that wait for them.

    Owns: :attr:`stream` (the store's write stream of the table, a new one
    after each rebuild), :attr:`pending` (the last queued write's future), the
    outbox of sends waiting for their writes, :attr:`paused` and
    :attr:`recovering`, the retry's wait and timer, and :attr:`stored_base`
    (bytes of hands committed before this stream: :meth:`stored_bytes`).

    Takes from its ``table``: ``id``, ``store``, ``session``, ``seq``,
    ``closed``, ``budget``, ``clock``, ``on_lease_lost`` and the retry settings
    (``RETRY_FIRST``, ``RETRY_MAX``, ``STABLE_AFTER``: class settings of
    :class:`LiveTable` that tests replace, read at call time); it calls back
    ``table.stop_timers``, ``table.adopt`` (the rebuilt table's state),
    ``table.continue_play`` and ``table.views.broadcast``.
    """

    def __init__(self, table: LiveTable, stored: int) -> None:
        self.table = table
        self.stream: WriteStream = table.store.stream(table.id)
        self.pending: asyncio.Future[None] | None = None
        """The last write queued (its future settles when it is committed)."""
        self.outbox: deque[tuple[asyncio.Future[None] | None,
                                 list[tuple[Client, str]] | Callable[[], None]]] = (
            deque()
        )
        self.paused = False  # writes fail: play waits until a retry succeeds
        self.recovering = False  # a write failed: waiting to rebuild from the store
        self.backoff = table.RETRY_FIRST
        self.resumed_at = -float("inf")  # time.monotonic() of the last resume
        self.retry_timer: asyncio.TimerHandle | None = None
        self.untold = False  # states were held back while rebuilding: send after it
        self.dirty = False  # memory changed while paused (not written): rebuild first
        self.stored_base = stored  # bytes of hands committed before this stream

    @property
    def halted(self) -> bool:
        """Whether nothing may change now: writes fail, or the table rebuilds."""
        return self.paused or self.recovering

    def stored_bytes(self) -> int:
        """Bytes of this table's hands stored (committed, plus the writes queued)."""
        return self.stored_base + self.stream.bytes

    def stop_retry(self) -> None:
        """Cancel a retry waiting to run (the table stops its timers)."""
        if self.retry_timer is not None:
            self.retry_timer.cancel()
        self.retry_timer = None

    def commit(
        self, *, seats: list[SeatRow] = (), remove_seats: list[int] = (),  # type: ignore[assignment]
        session: bool = False,
    ) -> None:
        """Queue a write of ``seats`` (rows), ``remove_seats`` (seat numbers) and,
        if ``session``, the table's session (group commit)."""
        self.write(
            seats=list(seats), remove_seats=list(remove_seats),
            session=self.table.session if session else None,
        )  # fmt: skip

    def write(self, **changes: Any) -> None:
        """Queue a write to the store (group commit); later sends wait for it."""
        if self.paused or self.recovering:
            # Nothing is written while writes fail (every way in that changes what
            # players see refuses first); memory is put back to what is committed
            # before play resumes (_retry).
            self.dirty = True
            return
        table = self.table
        if changes.get("session") is not None:
            table.tourney.fold_clock()  # (the level clock's time so far: stored, issue 28)
        stream = self.stream
        before = stream.bytes
        cfut = stream.write(**changes)
        if cfut is None:
            return
        table.budget.used += stream.bytes - before  # (the server's storage, pace.py)
        fut = loop_future(cfut)  # the writes a commit settles wake the loop once
        self.pending = fut
        fut.add_done_callback(functools.partial(self._committed, stream))

    def _committed(self, stream: WriteStream, fut: asyncio.Future[None]) -> None:
        error = None if fut.cancelled() else fut.exception()
        if error is not None and stream is self.stream and not self.table.closed:
            self.recover(error, saving=True)
        self._flush()

    def send_after_commit(self, sends: list[tuple[Client, str]]) -> None:
        """Queue ``sends``; they go out, in order, once every earlier write is committed."""
        pending = self.pending
        if pending is not None and pending.done():
            error = None if pending.cancelled() else pending.exception()
            if error is not None and not self.paused and not self.recovering:
                self.recover(error, saving=True)  # its callback has not run yet
            pending = None
        if self.recovering:
            # Memory may be ahead of the store until the rebuild: only refusals go out.
            for client, text in sends:
                if _is_error(text):
                    client.send(text)
                else:
                    self.untold = True
            return
        if self.paused:
            # Nothing changes while paused: memory is what is committed.
            for client, text in sends:
                client.send(text)
            return
        self.outbox.append((pending, sends))
        self._flush()

    def after_sends(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` (on the table's loop) once every send queued so far has gone
        out, that is once every earlier write is committed: at once when none waits.
        Never where one of those writes failed or while the table recovers from one
        (what is committed is put back and play goes on from it, :meth:`recover`).
        The seed wait of a committed deal runs from here (s61-table,
        :meth:`Seeding.commit_deal`)."""
        if self.recovering:
            return
        pending = self.pending
        if pending is not None and pending.done():
            pending = None  # (a failed one: :meth:`send_after_commit`'s callback recovers)
        if self.paused or (pending is None and not self.outbox):
            fn()
            return
        self.outbox.append((pending, fn))
        self._flush()

    def _flush(self) -> None:
        outbox = self.outbox
        while outbox:
            fut, sends = outbox[0]
            if fut is not None and not fut.done():
                return
            outbox.popleft()
            if fut is not None and (fut.cancelled() or fut.exception() is not None):
                continue  # never tell what was not committed
            if callable(sends):
                sends()
                continue
            for client, text in sends:
                client.send(text)

    async def wait_committed(self) -> None:
        """Return once every write queued so far is committed.

        Raises :class:`TableError` (``not_saved``) if one failed: the table
        then forgets it (see :meth:`recover`).
        """
        pending = self.pending
        if pending is None:
            return
        try:
            await asyncio.shield(pending)
        except Exception as err:
            raise TableError(
                "not_saved", f"the server could not save that ({err}); try again in a moment"
            ) from err

    async def public_when_committed(self, limit: float = 10.0) -> dict[str, Any]:
        """The table's public part (:meth:`Views.table_public`) at a moment when
        all of it is committed (for the HTTP API: nothing is told that is not
        saved).  Raises :class:`TableError` (``busy``) if the table did not
        settle within ``limit`` seconds."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            pending = self.pending
            if pending is not None and not pending.done():
                await asyncio.wait([pending], timeout=max(0.0, end - time.monotonic()))
                continue
            failed = pending is not None and (pending.cancelled()
                                              or pending.exception() is not None)
            if not failed and not self.recovering:
                return self.table.views.table_public()
            await asyncio.sleep(0.02)  # a failed write: the rebuild comes first
        raise TableError("busy", "the table is busy saving; try again in a moment")

    def recover(self, error: BaseException, *, saving: bool) -> None:
        """Stop play, wait for every queued write, rebuild from the store, go on.

        ``saving``: a write failed (pause until one succeeds); else an engine
        fault left the hand half-changed (go on at once from what is committed).
        """
        table = self.table
        if self.recovering or table.closed:
            return
        if table.on_lease_lost is not None and _lease_lost(error):
            table.on_lease_lost(table, error)
            return
        self.recovering = True
        table.stop_timers()
        if saving:
            if self.paused:  # a retry failed
                self.backoff = min(self.backoff * 2, table.RETRY_MAX)
            else:
                if time.monotonic() - self.resumed_at > table.STABLE_AFTER:
                    self.backoff = table.RETRY_FIRST
                else:  # failing again soon after resuming: keep backing off
                    self.backoff = min(self.backoff * 2, table.RETRY_MAX)
                log.error("table %s: saving failed (%s); play is paused and resumes by "
                          "itself once a write succeeds", table.id, error)
        last = self.stream.drained()
        rebuild = functools.partial(self._rebuild, saving, not self.paused and saving)
        self.paused = self.paused or saving
        if last is None or last.done():
            asyncio.get_running_loop().call_soon(rebuild)
        else:
            # Every write of the stream is done (committed or failed) when its last is.
            def after_last(fut: asyncio.Future[None]) -> None:
                if not fut.cancelled():
                    fut.exception()  # seen (asyncio logs a failure nobody looked at)
                rebuild()

            asyncio.wrap_future(last).add_done_callback(after_last)

    def _rebuild(self, saving: bool, announce: bool) -> None:
        """Make memory exactly what is committed (as :meth:`LiveTable.restore` does)."""
        table = self.table
        if table.closed:
            return
        try:
            fresh = live_table.LiveTable.restore(table.store, table.id)
        except (sqlite3.Error, OSError) as err:  # cannot even read: try again later
            log.debug("table %s: cannot read the store (%s)", table.id, err)
            asyncio.get_running_loop().call_later(self.backoff, self._rebuild, saving,
                                                  announce)
            return
        self.recovering = False
        self.stream = table.store.stream(table.id)
        self.pending = None
        self.outbox.clear()  # only sends of failed writes were left
        self._adopt(fresh)
        if not saving:
            self.untold = False
            table.continue_play()
            table.views.broadcast()
            return
        if announce or self.untold:
            self.untold = False
            table.views.broadcast()  # the committed state, paused (sent at once)
        self.retry_timer = asyncio.get_running_loop().call_later(self.backoff, self._retry)

    def _adopt(self, fresh: LiveTable) -> None:
        """Take the committed table ``fresh`` as the table's state (:meth:`LiveTable.adopt`)."""
        self.dirty = False
        self.stored_base = fresh.saving.stored_base  # (the stream is new: what is committed)
        self.table.adopt(fresh)

    def _retry(self) -> None:
        """While paused: try one small real write (the session with the next ``seq``)."""
        self.retry_timer = None
        table = self.table
        if table.closed or not self.paused or self.recovering:
            return
        if self.dirty:
            try:
                self._adopt(live_table.LiveTable.restore(table.store, table.id))
            except (sqlite3.Error, OSError) as err:
                self.recover(err, saving=True)
                return
        session = dict(table.session, seq=table.seq + 1, at=table.clock())
        stream = self.stream
        cfut = stream.write(session=session)
        assert cfut is not None
        fut = asyncio.wrap_future(cfut)
        self.pending = fut
        fut.add_done_callback(functools.partial(self._retried, stream, session))

    def _retried(self, stream: WriteStream, session: dict[str, Any],
                 fut: asyncio.Future[None]) -> None:
        table = self.table
        error = None if fut.cancelled() else fut.exception()
        if stream is not self.stream or table.closed:
            return
        if error is not None:
            self.recover(error, saving=True)
            return
        if self.dirty:  # something changed in memory while paused: take the store's
            try:
                self._adopt(live_table.LiveTable.restore(table.store, table.id))
            except (sqlite3.Error, OSError) as err:
                self.recover(err, saving=True)
                return
        else:
            table.session = session
            table.seq = int(session["seq"])
        self.paused = False
        self.resumed_at = time.monotonic()
        log.warning("table %s: saving works again; play resumes", table.id)
        table.continue_play()
        table.views.broadcast()

"""Saving a live table: commit before telling, and the way back when a write
fails.

Methods of :class:`~rollem.server.live_table.LiveTable`, written here as
functions of ``self`` and bound in its class body (one class, one state).

Every change is written to the store (group commit) and its states go out
only once it is committed: no client hears of anything before that.

When a write fails (a full or read-only disk, an I/O error) the table takes
the one way back a restart takes (:meth:`LiveTable._recover`): it stops
play, waits until every write it queued is done (the later ones fail
untried: see :class:`~rollem.server.store.WriteStream`), rebuilds itself
from what is committed -- forgetting whatever was not: the last result, the
final hand, ledger lines -- and, while writes fail, stays *paused*: its
players are told so in plain words (``table.paused`` in the state) and it
retries a small write after :attr:`LiveTable.RETRY_FIRST` seconds, doubling
the wait up to :attr:`LiveTable.RETRY_MAX`.  The first write that succeeds
resumes play where a restart would (finish a hand whose actions are all
committed, open the decisions, deal the next hand).  It logs once when it
pauses and once when it resumes, never per retry.  No rule of its own
(docs/hosting.md).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sqlite3
import time
from typing import TYPE_CHECKING, Any

from rollem.server import live_table
from rollem.server.completions import loop_future
from rollem.server.live_table import tourney
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



def _commit(
    self: LiveTable, *, seats: list[SeatRow] = (), remove_seats: list[int] = (),  # type: ignore[assignment]
    session: bool = False,
) -> None:
    self._write(
        seats=list(seats), remove_seats=list(remove_seats),
        session=self.session if session else None,
    )  # fmt: skip


def _write(self: LiveTable, **changes: Any) -> None:
    """Queue a write to the store (group commit); later sends wait for it."""
    if self.paused or self._recovering:
        # Nothing is written while writes fail (every way in that changes what
        # players see refuses first); memory is put back to what is committed
        # before play resumes (_retry).
        self._dirty = True
        return
    if changes.get("session") is not None:
        tourney.fold_clock(self)  # (the level clock's time so far is stored, issue 28)
    stream = self._stream
    before = stream.bytes
    cfut = stream.write(**changes)
    if cfut is None:
        return
    self.budget.used += stream.bytes - before  # (the server's storage, pace.py)
    fut = loop_future(cfut)  # the writes a commit settles wake the loop once
    self._pending_commit = fut
    fut.add_done_callback(functools.partial(self._committed, stream))


def _committed(self: LiveTable, stream: WriteStream, fut: asyncio.Future[None]) -> None:
    error = None if fut.cancelled() else fut.exception()
    if error is not None and stream is self._stream and not self.closed:
        self._recover(error, saving=True)
    self._flush()


def _send_after_commit(self: LiveTable, sends: list[tuple[Client, str]]) -> None:
    """Queue ``sends``; they go out, in order, once every earlier write is committed."""
    pending = self._pending_commit
    if pending is not None and pending.done():
        error = None if pending.cancelled() else pending.exception()
        if error is not None and not self.paused and not self._recovering:
            self._recover(error, saving=True)  # its callback has not run yet
        pending = None
    if self._recovering:
        # Memory may be ahead of the store until the rebuild: only refusals go out.
        for client, text in sends:
            if _is_error(text):
                client.send(text)
            else:
                self._untold = True
        return
    if self.paused:
        # Nothing changes while paused: memory is what is committed.
        for client, text in sends:
            client.send(text)
        return
    self._outbox.append((pending, sends))
    self._flush()


def _flush(self: LiveTable) -> None:
    outbox = self._outbox
    while outbox:
        fut, sends = outbox[0]
        if fut is not None and not fut.done():
            return
        outbox.popleft()
        if fut is not None and (fut.cancelled() or fut.exception() is not None):
            continue  # never tell what was not committed
        for client, text in sends:
            client.send(text)


async def wait_committed(self: LiveTable) -> None:
    """Return once every write queued so far is committed.

    Raises :class:`TableError` (``not_saved``) if one failed: the table
    then forgets it (see :meth:`_recover`).
    """
    pending = self._pending_commit
    if pending is None:
        return
    try:
        await asyncio.shield(pending)
    except Exception as err:
        raise TableError(
            "not_saved", f"the server could not save that ({err}); try again in a moment"
        ) from err


async def public_when_committed(self: LiveTable, limit: float = 10.0) -> dict[str, Any]:
    """:meth:`table_public` at a moment when all of it is committed (for the
    HTTP API: nothing is told that is not saved).  Raises :class:`TableError`
    (``busy``) if the table did not settle within ``limit`` seconds."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        pending = self._pending_commit
        if pending is not None and not pending.done():
            await asyncio.wait([pending], timeout=max(0.0, end - time.monotonic()))
            continue
        failed = pending is not None and (pending.cancelled()
                                          or pending.exception() is not None)
        if not failed and not self._recovering:
            return self.table_public()
        await asyncio.sleep(0.02)  # a failed write: the rebuild comes first
    raise TableError("busy", "the table is busy saving; try again in a moment")


def _recover(self: LiveTable, error: BaseException, *, saving: bool) -> None:
    """Stop play, wait for every queued write, rebuild from the store, go on.

    ``saving``: a write failed (pause until one succeeds); else an engine
    fault left the hand half-changed (go on at once from what is committed).
    """
    if self._recovering or self.closed:
        return
    if self.on_lease_lost is not None and _lease_lost(error):
        self.on_lease_lost(self, error)
        return
    self._recovering = True
    self._stop_timers()
    if saving:
        if self.paused:  # a retry failed
            self._backoff = min(self._backoff * 2, self.RETRY_MAX)
        else:
            if time.monotonic() - self._resumed_at > self.STABLE_AFTER:
                self._backoff = self.RETRY_FIRST
            else:  # failing again soon after resuming: keep backing off
                self._backoff = min(self._backoff * 2, self.RETRY_MAX)
            log.error("table %s: saving failed (%s); play is paused and resumes by itself "
                      "once a write succeeds", self.id, error)
    last = self._stream.drained()
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


def _rebuild(self: LiveTable, saving: bool, announce: bool) -> None:
    """Make memory exactly what is committed (as :meth:`restore` does)."""
    if self.closed:
        return
    try:
        fresh = live_table.LiveTable.restore(self.store, self.id)
    except (sqlite3.Error, OSError) as err:  # cannot even read: try again later
        log.debug("table %s: cannot read the store (%s)", self.id, err)
        asyncio.get_running_loop().call_later(self._backoff, self._rebuild, saving, announce)
        return
    self._recovering = False
    self._stream = self.store.stream(self.id)
    self._pending_commit = None
    self._outbox.clear()  # only sends of failed writes were left
    self._adopt(fresh)
    if not saving:
        self._untold = False
        self._continue_play()
        self.broadcast()
        return
    if announce or self._untold:
        self._untold = False
        self.broadcast()  # the committed state, paused (sent at once)
    self._retry_timer = asyncio.get_running_loop().call_later(self._backoff, self._retry)


def _adopt(self: LiveTable, fresh: LiveTable) -> None:
    """Take the committed table ``fresh`` (from :meth:`restore`) as this one,
    keeping the connected clients.  No decision stays open."""
    self._stop_timers()
    self._dirty = False
    self._last_key = None
    self._stored_base = fresh._stored_base  # (the stream is new: what is committed)
    self.session = fresh.session
    self.seq = fresh.seq
    self.last_result = fresh.last_result
    self.hand = fresh.hand
    self.final_hand = fresh.final_hand
    if fresh._final_pending is not None:  # a costly game's: replayed off the loop
        self._restore_final_off_loop(*fresh._final_pending)
    now = self.clock()
    loop = asyncio.get_running_loop()
    for number in [n for n in self.seats if n not in fresh.seats]:
        self.release_seat(number)  # a seat that was never saved
    for number, seat in fresh.seats.items():
        if number in self.seats:
            self.seats[number].row = seat.row
            continue
        self.seats[number] = seat  # a seat whose freeing was never saved
        if seat.row.bot is None:
            seat.disconnected_since = now
            loop.call_later(self.config.grace_seconds, self._grace_over, number, seat, now)


def _retry(self: LiveTable) -> None:
    """While paused: try one small real write (the session with the next ``seq``)."""
    self._retry_timer = None
    if self.closed or not self.paused or self._recovering:
        return
    if self._dirty:
        try:
            self._adopt(live_table.LiveTable.restore(self.store, self.id))
        except (sqlite3.Error, OSError) as err:
            self._recover(err, saving=True)
            return
    session = dict(self.session, seq=self.seq + 1, at=self.clock())
    stream = self._stream
    cfut = stream.write(session=session)
    assert cfut is not None
    fut = asyncio.wrap_future(cfut)
    self._pending_commit = fut
    fut.add_done_callback(functools.partial(self._retried, stream, session))


def _retried(self: LiveTable, stream: WriteStream, session: dict[str, Any],
             fut: asyncio.Future[None]) -> None:
    error = None if fut.cancelled() else fut.exception()
    if stream is not self._stream or self.closed:
        return
    if error is not None:
        self._recover(error, saving=True)
        return
    if self._dirty:  # something changed in memory while paused: take the store's
        try:
            self._adopt(live_table.LiveTable.restore(self.store, self.id))
        except (sqlite3.Error, OSError) as err:
            self._recover(err, saving=True)
            return
    else:
        self.session = session
        self.seq = int(session["seq"])
    self.paused = False
    self._resumed_at = time.monotonic()
    log.warning("table %s: saving works again; play resumes", self.id)
    self._continue_play()
    self.broadcast()

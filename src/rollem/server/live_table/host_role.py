"""Who holds the host role at a live table, and how it passes when the host is
gone (stop 43: a host whose phone died left nobody able to let a late friend in
or approve a rebuy).  :class:`HostRole` is the table's part that keeps it.

**Who holds it.**  The table's creator (whoever holds the creator's host cookie),
or the seated player the role was handed to (``session["host_seat"]``: the
host's **Make host**, or a pass below).  :func:`rollem.server.host.client_is_host`
reads it; every change of it goes through :meth:`HostRole.settle`.

**The pass.**  Once no connection of the holder has been open for
``table.HOST_AWAY_SECONDS`` (90 s; counted on ``table.clock`` from when the
holder's last page closed, stored, so a restart or another process taking the
table over counts on), the role passes to a *stand-in*: the first person,
clockwise (seat numbers upwards, round) from the holder's seat, who sits at the
table with a page open and was let in while the host was there (seated, not
waiting, when the holder's last page closed) -- never a computer player, a
watcher, a stranger waiting to be let in (``session["waiting"]``), one who sat
down at an open table once the host was gone, or a player the host removed;
one the clock sat out as away only when nobody else is there.
When the holder had been handed the role and the creator's page is open, the
creator stands in.  With nobody to take it the role stays, and passes the
moment such a person opens the table.  Everyone is told ("Ann is away: Bob
hosts now": ``table.host_note`` and a line of the chat).  Nothing a client
sends starts or shortens the wait: only the server's own clock and the
connections of the holder's cookies decide.

**The return.**  The role passes only as a stand-in's: the person it was taken
from (``session["host_returns"]``: the creator, or the player it was handed to,
by their seat cookie's digest) gets it back when they open the table again
("Ann is back and hosts again").  A friend group's table is the creator's
evening; a dead phone should not move it for good, and a role the server
gave away without anyone choosing should not outlast the reason for it.

**What a stand-in may not do** (:func:`rollem.server.host.stand_in_refusal`):
keep the table going, yes (let friends and watchers in, answer others'
rebuys, pause, deal, remove an idle player), but the table's settings and
password stay the host's, the seat of the one away stays theirs, and the
stand-in's own stack and rebuy wait for the host like anyone's: powers the
server handed out without anyone choosing do not reach the stand-in's own
chips or the absent host's table.  A
stand-in's **Make host** passes the stand-in's part on; a player the role was
handed to who leaves the table returns it to the creator, as before.

Session keys: ``host_away`` (``{"since", "seat", "name", "let_in"}``: the
holder's pages have all been closed since ``since``; their seat, for
"clockwise", and name; the seat cookies' digests of those who may take it),
``host_returns`` (``{"to": "creator"}`` or ``{"to": "seat", "seat", "digest"}``,
with ``"name"``, ``"since"`` and ``"away_seat"``, the seat of the one away or
``None``: a stand-in holds the role), ``host_note``
(``{"seq", "text"}``: the last pass or return, for the page's toast).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

from rollem.server import host

if TYPE_CHECKING:
    from rollem.server.live_table import Client, LiveTable

__all__ = ["HostRole"]

THE_HOST = "The host"
"""The name of a holder who sits nowhere (a creator hosting from a watcher's page)."""


class HostRole:
    """The host role of one table: its holder's absence and the stand-in.

    Owns: the timer that checks the holder's absence (:meth:`watch`).  Takes
    from its ``table``: ``session`` (the keys above, ``host_seat``,
    ``waiting``, ``idle_away``), ``seats``, ``all_clients()``, ``config.seats``,
    ``clock``, ``closed``, ``HOST_AWAY_SECONDS``, ``RETRY_MAX``; it writes with
    ``table.saving``, tells with ``table.views`` and the chat
    (:func:`rollem.server.host.chat_log`).
    """

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        self._timer: asyncio.TimerHandle | None = None
        self._timer_since: float | None = None

    # -- who holds it -----------------------------------------------------------

    def holder_here(self) -> bool:
        """Whether a connection of the holder is open."""
        return any(c.is_host for c in self.table.all_clients())

    def _creator_here(self) -> Client | None:
        return next((c for c in self.table.all_clients() if c.host_cookie), None)

    def _seat_name(self, seat: int | None) -> str:
        info = self.table.seats.get(seat) if seat is not None else None
        return str(info.row.name) if info is not None else THE_HOST

    def settle(self, leaving: Client | None = None) -> None:
        """After any change of the connections, the seats or the role: give the role
        back to the one it was taken from if they are here, tell every connection
        whether it hosts, and start or stop the holder's away clock (:meth:`watch`;
        ``leaving``: a connection just closed, whose seat is the holder's if it was
        the creator's)."""
        table = self.table
        if table.closed:
            return
        s = table.session
        back = s.get("host_returns")
        returned = False
        if back is not None and back.get("to") == "seat":
            info = table.seats.get(back.get("seat"))
            if info is None or not secrets.compare_digest(
                    str(info.row.token_digest), str(back.get("digest"))):
                # they left the table: as a hand-over's holder who leaves, the role
                # is the creator's again
                back = s["host_returns"] = {"to": "creator", "name": THE_HOST,
                                            "since": back.get("since")}
        if back is not None:
            if back["to"] == "creator":
                creator = self._creator_here()
                if s.get("host_seat") is None:
                    s.pop("host_returns")  # (the creator holds it: nothing to return)
                elif creator is not None:
                    s.pop("host_seat")
                    s.pop("host_returns")
                    name = self._seat_name(creator.seat) if creator.seat is not None \
                        else str(back.get("name") or THE_HOST)
                    self._note(f"{name} is back and hosts again")
                    returned = True
            elif s.get("host_seat") == back["seat"]:
                s.pop("host_returns")
            elif any(not c.closed for c in table.seats[back["seat"]].clients):
                s["host_seat"] = back["seat"]
                s.pop("host_returns")
                self._note(f"{self._seat_name(back['seat'])} is back and hosts again")
                returned = True
        for client in table.all_clients():
            client.is_host = host.client_is_host(table, client)
        self.watch(leaving)
        if returned:
            table.views.broadcast()

    def watch(self, leaving: Client | None = None) -> None:
        """Start the holder's away clock when no connection of the holder is open
        (stored in ``host_away``), or stop it when one is; keep a timer for the
        moment the role may pass."""
        table = self.table
        s = table.session
        if self.holder_here():
            if s.pop("host_away", None) is not None:
                table.saving.commit(session=True)
            return
        away = s.get("host_away")
        if away is None:
            seat = s.get("host_seat")
            if seat not in table.seats:
                seat = None
                if leaving is not None and leaving.host_cookie:
                    seat = leaving.seat if leaving.seat in table.seats else None
            away = s["host_away"] = self._away(table.clock(), seat, self._seat_name(seat))
            table.saving.commit(session=True)
        self._schedule(float(away["since"]))

    def _away(self, since: float, seat: int | None, name: str) -> dict[str, Any]:
        """The ``host_away`` record: since when, the holder's seat and name, and the
        seat cookies' digests of the people let in now (``let_in``: only they may
        take the role; a stranger sitting down at an open table once the host is
        gone may not)."""
        table = self.table
        let_in = sorted(str(info.row.token_digest) for number, info in table.seats.items()
                        if info.row.bot is None and info.row.token_digest is not None
                        and number not in table.session.get("waiting", []))
        return {"since": since, "seat": seat, "name": name, "let_in": let_in}

    def holder_left(self, seat: int) -> None:
        """The stand-in in ``seat`` left the table: the role falls back to the one it
        stood in for, who has been away since the pass began, so it passes on at
        once (at the next check) unless they are here."""
        s = self.table.session
        back = s.get("host_returns")
        if back is not None and back.get("since") is not None and "host_away" not in s:
            s["host_away"] = self._away(float(back["since"]), seat,
                                        str(back.get("name") or THE_HOST))

    def resumed(self) -> None:
        """A restored (or rebuilt) table: nobody is connected yet, so the holder's
        away clock counts from the stored moment, or from now."""
        self.settle()

    def stop(self) -> None:
        """Cancel the timer (the table stops its timers)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_since = None

    def _schedule(self, since: float) -> None:
        if self._timer_since == since and self._timer is not None:
            return
        self.stop()
        wait = max(0.0, since + self.table.HOST_AWAY_SECONDS - self.table.clock())
        self._timer_since = since
        self._timer = asyncio.get_running_loop().call_later(wait, self._due)

    def _due(self) -> None:
        self._timer = self._timer_since = None
        self.check()

    # -- the pass ---------------------------------------------------------------------

    def check(self) -> None:
        """Pass the role if its holder has been away for ``HOST_AWAY_SECONDS`` and
        someone may take it (:meth:`stand_in`); else nothing (the clock goes on;
        a person opening the table checks again).  Called by the timer and at
        every new connection: what decides is the server's clock alone."""
        table = self.table
        s = table.session
        away = s.get("host_away")
        if table.closed or away is None or self.holder_here():
            return
        since = float(away["since"])
        if table.clock() < since + table.HOST_AWAY_SECONDS:
            self._schedule(since)  # (the timer waits for it)
            return
        if table.saving.halted:  # passing the role is a write: after the storage pause
            self.stop()
            self._timer = asyncio.get_running_loop().call_later(table.RETRY_MAX, self._due)
            return
        creator = self._creator_here()
        to = self.stand_in(away.get("seat"), away.get("let_in"))
        if to is None and not (creator is not None and s.get("host_seat") is not None):
            return  # nobody may take it yet
        if "host_returns" not in s:  # the one it is taken from (a stand-in's stays)
            held = s.get("host_seat")
            s["host_returns"] = {"to": "creator"} if held not in table.seats else {
                "to": "seat", "seat": held, "digest": table.seats[held].row.token_digest}
            s["host_returns"].update(name=str(away.get("name") or THE_HOST), since=since,
                                     away_seat=away.get("seat"))
        if creator is not None and s.get("host_seat") is not None:
            s.pop("host_seat")  # a handed-over holder gone: the creator is here
            name = self._seat_name(creator.seat) if creator.seat is not None else THE_HOST
        else:
            assert to is not None
            s["host_seat"] = to
            name = self._seat_name(to)
        self._note(f"{away.get('name') or THE_HOST} is away: {name} hosts now")
        self.settle()
        table.views.broadcast()

    def stand_in(self, start: int | None, let_in: list[str] | None = None) -> int | None:
        """The seat that takes the role of a holder gone from ``start`` (``None``: one
        who sat nowhere, counted from seat 0): the first clockwise after it of a
        person let in whose page is open (:meth:`may_take`; of ``let_in``, seat
        cookies' digests, when given), one sat out as away by the clock only if
        nobody else; ``None`` when nobody may."""
        table = self.table
        n = table.config.seats
        first = 0 if start is None else start + 1
        order = [(first + i) % n for i in range(n)]
        able = [seat for seat in order if seat != start and self.may_take(seat) and (
            let_in is None or str(table.seats[seat].row.token_digest) in let_in)]
        idle = set(table.session.get("idle_away", []))
        awake = [seat for seat in able if seat not in idle]
        return next(iter(awake or able), None)

    def may_take(self, seat: int) -> bool:
        """Whether the player in ``seat`` may take the role: a person (not a computer
        player) already let in (not waiting for the host), not removed, with a page
        of the table open."""
        info = self.table.seats.get(seat)
        return (info is not None and info.row.bot is None and not info.removed
                and seat not in self.table.session.get("waiting", [])
                and any(not c.closed for c in info.clients))

    def _note(self, text: str) -> None:
        """Tell everyone at the table (the page's toast, a line of the chat); the
        caller commits (:meth:`settle` -> ``host._changed``)."""
        from rollem.server.live_table import _dumps

        table = self.table
        table.seq += 1
        table.session["seq"] = table.seq
        table.session["host_note"] = {"seq": table.seq, "text": text}
        entry = host.chat_log(table).notice(text, table.clock())
        table.session["chat"] = host.chat_log(table).lines
        table.saving.commit(session=True)
        line = _dumps({"type": "chat", "lines": [entry]})
        from rollem.server import host_tools

        table.saving.send_after_commit([(c, line) for c in table.all_clients()
                                        if host_tools.view_kind(table, c) != "locked"])
